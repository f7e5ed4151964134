#!/usr/bin/env python3
"""Print a JSON list of issues for CronJobs whose last run is overdue."""
import json
import os
import subprocess
from datetime import datetime, timedelta, timezone

from croniter import croniter


def _load():
    cmd = [os.environ.get("KUBECTL", "kubectl"), "get", "cronjobs", "-n", os.environ["NAMESPACE"],
           "--context", os.environ["CONTEXT"], "-o", "json"]
    return json.loads(subprocess.check_output(cmd))["items"]


def main():
    grace = timedelta(minutes=int(os.environ.get("SCHEDULE_GRACE_MINUTES", "10")))
    now = datetime.now(timezone.utc)
    issues = []
    for cj in _load():
        if cj["spec"].get("suspend"):
            continue
        last = cj.get("status", {}).get("lastScheduleTime")
        if not last:
            continue
        last_dt = datetime.fromisoformat(last.replace("Z", "+00:00"))
        expected_next = croniter(cj["spec"]["schedule"], last_dt).get_next(datetime)
        if now > expected_next + grace:
            name = cj["metadata"]["name"]
            issues.append({
                "severity": 3,
                "title": f"CronJob {name} has not run since {last}",
                "expected": f"A run at {expected_next.isoformat()}",
                "actual": f"Last scheduled at {last}",
                "details": json.dumps({"schedule": cj["spec"]["schedule"], "last": last}),
                "next_steps": "Check startingDeadlineSeconds and concurrencyPolicy; look for controller errors",
            })
    print(json.dumps(issues))


if __name__ == "__main__":
    main()
