#!/bin/bash
# Query the current leader for per-standby replay lag and print a JSON list of
# issues for standbys that trail by more than MAX_LAG_MB megabytes.
set -uo pipefail
KUBECTL="${KUBECTL:-kubectl}"
LIMIT_MB="${MAX_LAG_MB:-100}"

leader=$($KUBECTL get pods -n "$NAMESPACE" --context "$CONTEXT" \
  -l "cluster-name=${PG_CLUSTER_NAME},spilo-role=master" -o jsonpath='{.items[0].metadata.name}')
if [ -z "$leader" ]; then
  echo '[{"severity": 1, "title": "No leader pod found for '"$PG_CLUSTER_NAME"'", "expected": "One pod labelled as leader", "actual": "none", "details": "", "next_steps": "Check Patroni logs on every member"}]'
  exit 0
fi

rows=$($KUBECTL exec "$leader" -n "$NAMESPACE" --context "$CONTEXT" -c postgres -- \
  psql -U postgres -tA -F ' ' -c \
  "select application_name, state, pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn)/1024/1024 from pg_stat_replication")

issues="[]"
while read -r name state mb; do
  [ -z "$name" ] && continue
  mb_int=${mb%.*}
  if [ "$state" != "streaming" ] || [ "${mb_int:-0}" -gt "$LIMIT_MB" ]; then
    issues=$(jq -c --arg n "$name" --arg s "$state" --arg mb "$mb" --arg l "$LIMIT_MB" --arg leader "$leader" \
      '. + [{severity: 2, title: "Standby \($n) is \($mb) MB behind the leader",
             expected: "Streaming with less than \($l) MB replay lag", actual: "state=\($s) lag=\($mb) MB",
             details: "leader=\($leader) standby=\($n)",
             next_steps: "Check disk and CPU of the standby pod\nLook for long running queries on the standby blocking replay\nReinitialise the member if it cannot catch up"}]' <<< "$issues")
  fi
done <<< "$rows"
echo "$issues"
