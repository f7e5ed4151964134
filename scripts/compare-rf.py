#!/usr/bin/env python3
"""Compare registry-chat's task lists with Robot Framework's own parser.

Usage:
  scripts/rf-tasks.py COLLECTION_ROOT... > rf.json
  registry-chat --data-dir DIR bundles --json > bundles.json
  scripts/compare-rf.py rf.json bundles.json

Prints every file whose task list differs (names compared exactly, leading spaces
included) and a summary; exits 1 when anything differs.
"""
import json
import sys


def main(rf_path, bundles_path):
    rf = json.load(open(rf_path))
    ours = {}
    for b in json.load(open(bundles_path)):
        for kind in ("tasks", "slis"):
            for t in b[kind]:
                fname = t["file"].rsplit("/", 1)[-1]
                ours.setdefault(f"{b['collection']}/{b['slug']}/{fname}", []).append(t["name"])
    diffs = 0
    for key in sorted(set(rf) | set(ours)):
        want = rf.get(key, {}).get("tasks", [])
        have = ours.get(key, [])
        if want != have:
            diffs += 1
            print(f"DIFF {key}\n  robot: {want}\n  ours:  {have}")
    files = len(rf)
    tasks = sum(len(v["tasks"]) for v in rf.values())
    print(f"{files} robot files, {tasks} tasks per Robot Framework; {diffs} files differ")
    return 1 if diffs else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
