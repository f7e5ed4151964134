#!/bin/bash
# Sample the controller access log and print JSON with the 5xx ratio
# and the upstreams that produced the most errors.
set -uo pipefail
KUBECTL="${KUBECTL:-kubectl}"
$KUBECTL logs -n "$INGRESS_NAMESPACE" --context "$CONTEXT" -l "$CONTROLLER_LABEL" --since=15m --tail=5000 2>/dev/null \
  | awk '
    # default log format: ... "request" status bytes ... [upstream_name] ...
    match($0, /" [0-9][0-9][0-9] /) {
      code = substr($0, RSTART + 2, 3); total++
      up = "unknown"
      if (match($0, /\[[a-z0-9-]+-[0-9]+\]/)) up = substr($0, RSTART + 1, RLENGTH - 2)
      if (code ~ /^50[234]$/) { errs++; per[up]++ }
    }
    END {
      ratio = (total > 0) ? errs / total : 0
      printf "{\"sampled\": %d, \"errors\": %d, \"error_ratio\": %.4f, \"worst_upstreams\": {", total, errs, ratio
      sep = ""
      for (u in per) { printf "%s\"%s\": %d", sep, u, per[u]; sep = ", " }
      print "}}"
    }'
