#!/bin/bash
# For every Bound claim, exec into one pod that mounts it and read df.
# Prints a JSON list of issues for volumes above DISK_USAGE_THRESHOLD percent.
set -uo pipefail
KUBECTL="${KUBECTL:-kubectl}"
LIMIT="${DISK_USAGE_THRESHOLD:-80}"
issues="[]"

mapping=$($KUBECTL get pods -n "$NAMESPACE" --context "$CONTEXT" -o json | jq -r '
  .items[] | select(.status.phase=="Running") | .metadata.name as $pod
  | .spec.volumes[]? | select(.persistentVolumeClaim) | .name as $vol
  | "\($pod) \($vol) \(.persistentVolumeClaim.claimName)"')

while read -r pod vol claim; do
  [ -z "$pod" ] && continue
  path=$($KUBECTL get pod "$pod" -n "$NAMESPACE" --context "$CONTEXT" -o json \
    | jq -r --arg v "$vol" '[.spec.containers[].volumeMounts[]? | select(.name==$v) | .mountPath][0]')
  pct=$($KUBECTL exec "$pod" -n "$NAMESPACE" --context "$CONTEXT" -- df -P "$path" 2>/dev/null \
    | awk 'NR==2 {gsub("%","",$5); print $5}')
  [ -z "$pct" ] && continue
  if [ "$pct" -ge "$LIMIT" ]; then
    issues=$(jq -c --arg c "$claim" --arg p "$pod" --arg m "$path" --argjson u "$pct" --argjson l "$LIMIT" \
      '. + [{severity: (if $u >= 95 then 1 else 2 end), title: "Volume \($c) is \($u)% full",
             expected: "Usage below \($l)%", actual: "\($u)% used at \($m) in pod \($p)",
             details: "claim=\($c) pod=\($p) mount=\($m)",
             next_steps: "Expand the claim if the StorageClass allows it, or clean up old data"}]' <<< "$issues")
  fi
done <<< "$mapping"
echo "$issues"
