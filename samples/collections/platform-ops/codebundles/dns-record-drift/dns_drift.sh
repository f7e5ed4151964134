#!/bin/bash
# Compare public answers with DNS_EXPECTATIONS and print a JSON list of issues.
# DNS_EXPECTATIONS: "name,TYPE,value;name,TYPE,value"
set -uo pipefail
issues="[]"
IFS=';' read -ra entries <<< "$DNS_EXPECTATIONS"
IFS=',' read -ra resolvers <<< "${PUBLIC_RESOLVERS:-1.1.1.1}"
for entry in "${entries[@]}"; do
  IFS=',' read -r name rtype expected <<< "$entry"
  [ -z "$name" ] && continue
  for r in "${resolvers[@]}"; do
    got=$(dig +short "$rtype" "$name" @"$r" | sort | paste -sd' ')
    if ! grep -qw -- "$expected" <<< "$got"; then
      issues=$(jq -c --arg n "$name" --arg t "$rtype" --arg e "$expected" --arg g "$got" --arg r "$r" \
        '. + [{severity: 2, title: "DNS \($t) record for \($n) differs on \($r)",
               expected: "\($n) \($t) \($e)", actual: "answer: \($g)",
               details: "resolver=\($r)",
               next_steps: "Compare the zone in the DNS provider with infrastructure code\nWait one TTL if a change was just made"}]' <<< "$issues")
    fi
  done
done
echo "$issues"
