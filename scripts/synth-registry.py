#!/usr/bin/env python3
"""Writes a synthetic codecollection of N bundles for growth benchmarks.

Each bundle is a sample-registry bundle (round robin over samples/collections)
with its names, tasks and README varied by words drawn from the sample
registry's own vocabulary, so the text is realistic and no two bundles are the
same. Deterministic for a given N and seed. Nothing is downloaded.

    scripts/synth-registry.py N OUT_DIR [--seed S]
"""
import argparse
import random
import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORD = re.compile(r"[A-Za-z][a-z]{3,}")


def templates():
    out = []
    for bundle in sorted((ROOT / "samples" / "collections").glob("*/codebundles/*")):
        if bundle.is_dir() and (bundle / "runbook.robot").is_file():
            out.append(bundle)
    return out


def vocabulary(bundles):
    words = set()
    for b in bundles:
        for f in b.iterdir():
            if f.suffix in (".robot", ".md"):
                words.update(w.lower() for w in WORD.findall(f.read_text(errors="replace")))
    return sorted(words)


def vary_robot(text, tag):
    out, in_tasks = [], False
    for line in text.splitlines():
        if line.startswith("***"):
            in_tasks = "Tasks" in line or "Test Cases" in line
        elif in_tasks and line and not line[0].isspace():
            line = f"{line} For {tag}"
        elif line.startswith("Metadata") and "Display Name" in line:
            line = f"{line} {tag}"
        elif line.startswith("Documentation"):
            line = f"{line} Covers {tag.lower()}."
        out.append(line)
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("n", type=int)
    ap.add_argument("out", type=Path)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    bundles = templates()
    words = vocabulary(bundles)
    if a.out.exists():
        shutil.rmtree(a.out)
    dest = a.out / "codebundles"
    dest.mkdir(parents=True)
    (a.out / "README.md").write_text(f"# Synthetic registry\n\n{a.n} generated bundles.\n")
    for i in range(a.n):
        src = bundles[i % len(bundles)]
        picked = rng.sample(words, 3)
        tag = " ".join(w.capitalize() for w in picked)
        slug = f"{src.name}-{'-'.join(picked)}-{i:05d}"
        target = dest / slug
        target.mkdir()
        for f in src.iterdir():
            if not f.is_file():
                continue
            text = f.read_text(errors="replace")
            if f.suffix == ".robot":
                text = vary_robot(text, tag)
            elif f.suffix == ".md":
                text = re.sub(r"^# (.*)$", lambda m: f"# {m.group(1)} for {tag}", text, count=1, flags=re.M)
                text += f"\n\nThis variant watches {' and '.join(picked)} ({i}).\n"
            (target / f.name).write_text(text.replace(src.name, slug))
    print(f"wrote {a.n} bundles from {len(bundles)} templates and {len(words)} words to {a.out}")


if __name__ == "__main__":
    main()
