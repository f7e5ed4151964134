#!/bin/bash
# Print requested/allocatable CPU and memory per node as a table.
set -euo pipefail
KUBECTL="${KUBECTL:-kubectl}"
printf "%-40s %10s %10s\n" NODE CPU_REQ% MEM_REQ%
for node in $($KUBECTL get nodes --context "$CONTEXT" -o jsonpath='{.items[*].metadata.name}'); do
  $KUBECTL describe node "$node" --context "$CONTEXT" \
    | awk -v n="$node" '/Allocated resources/ {f=1} f && $1=="cpu" {c=$3} f && $1=="memory" {m=$3; printf "%-40s %10s %10s\n", n, c, m; exit}' \
    | tr -d '()'
done
