#!/bin/bash
# Emit JSON issues for EKS managed node groups that are unhealthy.
set -euo pipefail
out="[]"
for ng in $(aws eks list-nodegroups --cluster-name "$EKS_CLUSTER_NAME" --region "$AWS_REGION" --query 'nodegroups[]' --output text); do
  desc=$(aws eks describe-nodegroup --cluster-name "$EKS_CLUSTER_NAME" --nodegroup-name "$ng" --region "$AWS_REGION" --output json)
  status=$(jq -r .nodegroup.status <<< "$desc")
  issues=$(jq -c '[.nodegroup.health.issues[]? | {code, message}]' <<< "$desc")
  if [ "$status" != "ACTIVE" ] || [ "$issues" != "[]" ]; then
    out=$(jq -c --arg ng "$ng" --arg st "$status" --argjson is "$issues" \
      '. + [{severity: 2, title: "EKS node group \($ng) is \($st)", expected: "ACTIVE without health issues",
             actual: "status \($st), \($is | length) issue(s)", details: ($is | tostring),
             next_steps: "Fix the IAM role, launch template or subnet capacity named in the issue code"}]' <<< "$out")
  fi
done
echo "$out"
