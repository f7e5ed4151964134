#!/bin/bash
# Print the tail of the previous container log for every container that has
# restarted at least once in $NAMESPACE. Output is plain text for the report.
set -uo pipefail

: "${NAMESPACE:?NAMESPACE must be set}"
: "${CONTEXT:?CONTEXT must be set}"
KUBECTL="${KUBECTL:-kubectl}"
LINES="${LOG_LINES:-60}"

pairs=$($KUBECTL get pods -n "$NAMESPACE" --context "$CONTEXT" -o json \
  | jq -r '.items[] | .metadata.name as $p | .status.containerStatuses[]? | select(.restartCount > 0) | "\($p) \(.name)"')

if [ -z "$pairs" ]; then
  echo "No restarted containers found in $NAMESPACE"
  exit 0
fi

while read -r pod container; do
  echo "==== $pod / $container (previous instance) ===="
  $KUBECTL logs "$pod" -c "$container" -n "$NAMESPACE" --context "$CONTEXT" \
    --previous --tail="$LINES" 2>&1 || echo "(previous log not available)"
  echo
done <<< "$pairs"
