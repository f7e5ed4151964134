#!/bin/bash
# Print a JSON list of issues for endpoints whose certificate expires within WARN_DAYS.
set -uo pipefail
warn="${WARN_DAYS:-21}"
issues="[]"
for ep in $(echo "$TLS_ENDPOINTS" | tr ',' ' '); do
  host="${ep%%:*}"
  end=$(echo | openssl s_client -connect "$ep" -servername "$host" 2>/dev/null | openssl x509 -noout -enddate 2>/dev/null | cut -d= -f2)
  if [ -z "$end" ]; then
    issues=$(jq -c --arg ep "$ep" '. + [{severity: 2, title: "Could not read certificate from \($ep)", expected: "A TLS handshake", actual: "no certificate", details: "", next_steps: "Check the endpoint is reachable on that port"}]' <<< "$issues")
    continue
  fi
  days=$(( ( $(date -d "$end" +%s) - $(date +%s) ) / 86400 ))
  if [ "$days" -lt "$warn" ]; then
    sev=3; [ "$days" -lt 7 ] && sev=1
    issues=$(jq -c --arg ep "$ep" --arg end "$end" --argjson d "$days" --argjson s "$sev" \
      '. + [{severity: $s, title: "Certificate on \($ep) expires in \($d) days", expected: "More than the warning window",
             actual: "notAfter \($end)", details: "endpoint=\($ep)",
             next_steps: "Renew and deploy the certificate\nCheck why automatic renewal did not happen"}]' <<< "$issues")
  fi
done
echo "$issues"
