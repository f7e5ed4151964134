#!/bin/bash
# Print the failing job/step of the newest failed run on $BRANCH and the tail of its log.
set -euo pipefail
run=$(gh run list -R "$GITHUB_REPO" --branch "${BRANCH:-main}" --status failure --limit 1 --json databaseId --jq '.[0].databaseId')
if [ -z "$run" ] || [ "$run" = "null" ]; then
  echo "No failed runs on ${BRANCH:-main}"
  exit 0
fi
gh run view "$run" -R "$GITHUB_REPO" --json jobs --jq '.jobs[] | select(.conclusion=="failure") | "job: \(.name)\nfailed step: \([.steps[] | select(.conclusion=="failure") | .name][0])"'
echo "---- log tail ----"
gh run view "$run" -R "$GITHUB_REPO" --log-failed | tail -n 60
