#!/bin/bash
# Emit a JSON list of issues for quota resources above QUOTA_WARN_PERCENT.
set -euo pipefail
KUBECTL="${KUBECTL:-kubectl}"
WARN="${QUOTA_WARN_PERCENT:-85}"

$KUBECTL get resourcequota -n "$NAMESPACE" --context "$CONTEXT" -o json | python3 -c '
import json, re, sys
warn = float(sys.argv[1])
units = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "m": 0.001, "k": 1e3, "M": 1e6, "G": 1e9}
def num(v):
    m = re.match(r"^([0-9.]+)([A-Za-z]*)$", str(v))
    return float(m.group(1)) * units.get(m.group(2), 1) if m else 0.0
out = []
for q in json.load(sys.stdin)["items"]:
    hard, used = q["status"].get("hard", {}), q["status"].get("used", {})
    for res, h in hard.items():
        pct = 100 * num(used.get(res, 0)) / (num(h) or 1)
        if pct >= warn:
            out.append({"severity": 2 if pct >= 100 else 3,
                        "title": f"Quota {q[\"metadata\"][\"name\"]} at {pct:.0f}% for {res}",
                        "expected": f"{res} usage below {warn:.0f}% of the hard limit",
                        "actual": f"used {used.get(res)} of {h}",
                        "details": json.dumps({"quota": q["metadata"]["name"], "resource": res, "used": used.get(res), "hard": h}),
                        "next_steps": "Raise the quota or reduce requests of workloads in the namespace"})
print(json.dumps(out))
' "$WARN"
