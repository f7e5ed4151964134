#!/bin/bash
# Emit JSON issues for active access keys older than MAX_KEY_AGE_DAYS, based on the credential report.
set -euo pipefail
aws iam generate-credential-report >/dev/null
for _ in 1 2 3 4 5; do
  aws iam get-credential-report >/dev/null 2>&1 && break
  sleep 3
done
aws iam get-credential-report --query Content --output text | base64 -d | python3 -c '
import csv, json, sys
from datetime import datetime, timezone
limit = int(sys.argv[1])
now = datetime.now(timezone.utc)
out = []
for row in csv.DictReader(sys.stdin):
    for n in ("1", "2"):
        if row.get(f"access_key_{n}_active") != "true":
            continue
        rotated = row.get(f"access_key_{n}_last_rotated", "N/A")
        if rotated in ("N/A", ""):
            continue
        age = (now - datetime.fromisoformat(rotated.replace("Z", "+00:00"))).days
        if age > limit:
            out.append({"severity": 3, "title": f"Access key {n} of {row[\"user\"]} is {age} days old",
                        "expected": f"Keys rotated within {limit} days", "actual": f"{age} days since rotation",
                        "details": json.dumps({"user": row["user"], "key": n, "last_rotated": rotated}),
                        "next_steps": "Create a new key, update the consumer, then deactivate the old key"})
print(json.dumps(out))
' "${MAX_KEY_AGE_DAYS:-90}"
