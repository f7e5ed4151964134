#!/bin/bash
# List nodes that should run a pod of $DAEMONSET_NAME but do not.
set -euo pipefail
KUBECTL="${KUBECTL:-kubectl}"

with_pod=$($KUBECTL get pods -n "$NAMESPACE" --context "$CONTEXT" -o json \
  | jq -r --arg ds "$DAEMONSET_NAME" '.items[] | select(.metadata.ownerReferences[]?.name==$ds) | .spec.nodeName' | sort -u)

echo "Nodes without a $DAEMONSET_NAME pod:"
$KUBECTL get nodes --context "$CONTEXT" -o json \
  | jq -r '.items[] | [.metadata.name, ([.spec.taints[]?.key] | join(","))] | @tsv' \
  | while IFS=$'\t' read -r node taints; do
      if ! grep -qx "$node" <<< "$with_pod"; then
        echo "  $node  taints=[${taints}]"
      fi
    done
