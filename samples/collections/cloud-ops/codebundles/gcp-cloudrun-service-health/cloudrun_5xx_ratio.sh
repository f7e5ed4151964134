#!/bin/bash
# Print the 5xx share of requests of a Cloud Run service over the last N minutes (default 60).
set -euo pipefail
minutes="${1:-60}"
token=$(gcloud auth print-access-token)
start=$(date -u -d "-${minutes} minutes" +%FT%TZ)
end=$(date -u +%FT%TZ)
filter="metric.type=\"run.googleapis.com/request_count\" AND resource.labels.service_name=\"${CLOUD_RUN_SERVICE}\""
curl -s -G -H "Authorization: Bearer $token" \
  "https://monitoring.googleapis.com/v3/projects/${GCP_PROJECT_ID}/timeSeries" \
  --data-urlencode "filter=$filter" \
  --data-urlencode "interval.startTime=$start" --data-urlencode "interval.endTime=$end" \
  --data-urlencode "aggregation.alignmentPeriod=$((minutes * 60))s" \
  --data-urlencode "aggregation.perSeriesAligner=ALIGN_SUM" \
  --data-urlencode "aggregation.crossSeriesReducer=REDUCE_SUM" \
  --data-urlencode "aggregation.groupByFields=metric.labels.response_code_class" \
  | jq '[.timeSeries[]? | {c: .metric.labels.response_code_class, n: (.points[0].value.int64Value | tonumber)}]
        | (map(.n) | add // 0) as $all | (map(select(.c == "5xx") | .n) | add // 0) as $bad
        | if $all == 0 then 0 else ($bad / $all) end'
