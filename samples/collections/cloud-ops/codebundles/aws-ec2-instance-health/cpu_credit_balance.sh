#!/bin/bash
# Print burstable instances whose minimum CPUCreditBalance over the last hour is below 5.
set -euo pipefail
for id in $(aws ec2 describe-instances --region "$AWS_REGION" \
      --filters Name=instance-state-name,Values=running \
      --query "Reservations[].Instances[?starts_with(InstanceType, 't')].InstanceId" --output text); do
  bal=$(aws cloudwatch get-metric-statistics --region "$AWS_REGION" --namespace AWS/EC2 \
        --metric-name CPUCreditBalance --dimensions Name=InstanceId,Value="$id" \
        --start-time "$(date -u -d '-60 minutes' +%FT%TZ)" --end-time "$(date -u +%FT%TZ)" \
        --period 300 --statistics Minimum --query 'min(Datapoints[].Minimum)' --output text)
  if [ "$bal" != "None" ] && awk "BEGIN {exit !($bal < 5)}"; then
    echo "$id credit_balance=$bal"
  fi
done
