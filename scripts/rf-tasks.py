#!/usr/bin/env python3
"""List the tasks Robot Framework itself finds in codebundle entry points.

Usage: rf-tasks.py COLLECTION_ROOT [COLLECTION_ROOT ...]

For every ``codebundles/<slug>/runbook.robot`` and ``codebundles/<slug>/sli.robot``
under each collection root, parse the file with ``robot.api.get_model`` and print
a JSON object keyed by ``<collection>/<slug>/<file>`` with:

* ``tasks``: task names exactly as Robot reads them (leading spaces kept);
* ``errors``: every parse or validation error Robot attached to the model.

The collection name is the basename of the root directory. Output keys are
sorted. This is the reference the Rust parser is tested against.
"""
import ast
import json
import os
import sys

try:
    from robot.api import get_model
except ImportError:  # pragma: no cover
    sys.exit("robotframework is required: pip install robotframework")

ENTRY_POINTS = ("runbook.robot", "sli.robot")


def _task_names(model):
    names = []
    for section in model.sections:
        # TestCaseSection covers both "*** Tasks ***" and "*** Test Cases ***".
        if type(section).__name__ != "TestCaseSection":
            continue
        for item in section.body:
            if type(item).__name__ == "TestCase":
                names.append(item.name)
    return names


def _errors(model):
    found = []
    for node in ast.walk(model):
        for err in getattr(node, "errors", ()) or ():
            lineno = getattr(node, "lineno", None)
            found.append(f"line {lineno}: {err}" if lineno else str(err))
    return found


def scan_file(path):
    try:
        model = get_model(path)
    except Exception as exc:  # unreadable file, bad encoding, ...
        return {"tasks": [], "errors": [f"{type(exc).__name__}: {exc}"]}
    return {"tasks": _task_names(model), "errors": _errors(model)}


def scan_collection(root):
    root = os.path.abspath(root)
    collection = os.path.basename(root.rstrip(os.sep))
    bundles_dir = os.path.join(root, "codebundles")
    result = {}
    if not os.path.isdir(bundles_dir):
        return result
    for slug in sorted(os.listdir(bundles_dir)):
        bdir = os.path.join(bundles_dir, slug)
        if slug.startswith(".") or not os.path.isdir(bdir):
            continue
        for fname in ENTRY_POINTS:
            path = os.path.join(bdir, fname)
            if os.path.isfile(path):
                result[f"{collection}/{slug}/{fname}"] = scan_file(path)
    return result


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    out = {}
    for root in argv[1:]:
        out.update(scan_collection(root))
    json.dump(out, sys.stdout, indent=2, sort_keys=True, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
