#!/bin/bash
# Print a line when the max duration in the last hour exceeds 90% of the configured timeout.
set -euo pipefail
timeout_s=$(aws lambda get-function-configuration --function-name "$FUNCTION_NAME" --region "$AWS_REGION" --query Timeout --output text)
max_ms=$(aws cloudwatch get-metric-statistics --namespace AWS/Lambda --metric-name Duration \
  --dimensions Name=FunctionName,Value="$FUNCTION_NAME" --start-time "$(date -u -d '-60 minutes' +%FT%TZ)" \
  --end-time "$(date -u +%FT%TZ)" --period 3600 --statistics Maximum --region "$AWS_REGION" \
  --query 'max(Datapoints[].Maximum)' --output text)
[ "$max_ms" = "None" ] && exit 0
if awk "BEGIN {exit !($max_ms >= $timeout_s * 900)}"; then
  echo "max_duration_ms=$max_ms timeout_s=$timeout_s"
fi
