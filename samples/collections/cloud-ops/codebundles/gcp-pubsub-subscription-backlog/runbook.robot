*** Settings ***
Documentation       Checks a Pub/Sub subscription for undelivered messages, old unacked messages and missing dead-letter settings.
Metadata            Author    Lucas Ferreira
Metadata            Display Name    GCP Pub/Sub Subscription Backlog
Metadata            Supports    GCP,PubSub,Messaging
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Check Undelivered Messages for Subscription `${SUBSCRIPTION_ID}`
    [Documentation]    Reads num_undelivered_messages and compares with the limit.
    [Tags]    gcp    pubsub    access:read-only    data:metrics
    ${und}=    RW.CLI.Run Cli
    ...    cmd=gcloud auth activate-service-account --key-file=$GOOGLE_APPLICATION_CREDENTIALS >/dev/null 2>&1 && curl -s -H "Authorization: Bearer $(gcloud auth print-access-token)" "https://monitoring.googleapis.com/v3/projects/${GCP_PROJECT_ID}/timeSeries?filter=metric.type%3D%22pubsub.googleapis.com%2Fsubscription%2Fnum_undelivered_messages%22%20AND%20resource.labels.subscription_id%3D%22${SUBSCRIPTION_ID}%22&interval.startTime=$(date -u -d '-10 minutes' +%FT%TZ)&interval.endTime=$(date -u +%FT%TZ)&aggregation.alignmentPeriod=600s&aggregation.perSeriesAligner=ALIGN_MAX&aggregation.crossSeriesReducer=REDUCE_MAX" | jq --argjson m ${MAX_UNDELIVERED} '[.timeSeries[0].points[].value.int64Value | tonumber] | max | select(. > $m)'
    ...    env=${env}
    ...    secret_file__gcp_credentials_json=${gcp_credentials_json}
    ...    timeout_seconds=180
    IF    len($und.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Fewer than ${MAX_UNDELIVERED} undelivered
        ...    actual=${und.stdout} undelivered
        ...    title=Pub/Sub Subscription `${SUBSCRIPTION_ID}` Is Backing Up
        ...    reproduce_hint=${und.cmd}
        ...    details=${und.stdout}
        ...    next_steps=Check subscriber health and ack deadlines\nScale subscribers
    END
    RW.Core.Add Pre To Report    Pub/Sub Subscription `${SUBSCRIPTION_ID}` Is Backing Up:\n${und.stdout}

Check Oldest Unacked Message Age for Subscription `${SUBSCRIPTION_ID}`
    [Documentation]    An old unacked message usually means a subscriber keeps nacking a bad message.
    [Tags]    gcp    pubsub    access:read-only    data:metrics
    ${age}=    RW.CLI.Run Cli
    ...    cmd=gcloud auth activate-service-account --key-file=$GOOGLE_APPLICATION_CREDENTIALS >/dev/null 2>&1 && curl -s -H "Authorization: Bearer $(gcloud auth print-access-token)" "https://monitoring.googleapis.com/v3/projects/${GCP_PROJECT_ID}/timeSeries?filter=metric.type%3D%22pubsub.googleapis.com%2Fsubscription%2Foldest_unacked_message_age%22%20AND%20resource.labels.subscription_id%3D%22${SUBSCRIPTION_ID}%22&interval.startTime=$(date -u -d '-10 minutes' +%FT%TZ)&interval.endTime=$(date -u +%FT%TZ)&aggregation.alignmentPeriod=600s&aggregation.perSeriesAligner=ALIGN_MAX&aggregation.crossSeriesReducer=REDUCE_MAX" | jq --argjson m ${MAX_UNACKED_AGE_SECONDS} '[.timeSeries[0].points[].value.int64Value | tonumber] | max | select(. > $m)'
    ...    env=${env}
    ...    secret_file__gcp_credentials_json=${gcp_credentials_json}
    ...    timeout_seconds=180
    IF    len($age.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Oldest unacked younger than ${MAX_UNACKED_AGE_SECONDS}s
        ...    actual=${age.stdout} seconds
        ...    title=Old Unacked Messages on Subscription `${SUBSCRIPTION_ID}`
        ...    reproduce_hint=${age.cmd}
        ...    details=${age.stdout}
        ...    next_steps=Configure a dead-letter topic so poison messages stop blocking
    END
    RW.Core.Add Pre To Report    Old Unacked Messages on Subscription `${SUBSCRIPTION_ID}`:\n${age.stdout}

Check Dead Letter Topic Configuration for `${SUBSCRIPTION_ID}`
    [Documentation]    Reports subscriptions without a dead-letter policy or retry policy.
    [Tags]    gcp    pubsub    config    access:read-only    data:config
    ${dlt}=    RW.CLI.Run Cli
    ...    cmd=gcloud auth activate-service-account --key-file=$GOOGLE_APPLICATION_CREDENTIALS >/dev/null 2>&1 && gcloud pubsub subscriptions describe ${SUBSCRIPTION_ID} --format=json | jq -r 'select(.deadLetterPolicy == null) | "no dead letter policy; ackDeadline=\\(.ackDeadlineSeconds)s"'
    ...    env=${env}
    ...    secret_file__gcp_credentials_json=${gcp_credentials_json}
    ...    timeout_seconds=180
    IF    len($dlt.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=4
        ...    expected=A dead-letter policy is set
        ...    actual=${dlt.stdout}
        ...    title=Subscription `${SUBSCRIPTION_ID}` Has No Dead-Letter Topic
        ...    reproduce_hint=${dlt.cmd}
        ...    details=${dlt.stdout}
        ...    next_steps=Add a dead-letter topic with max delivery attempts
    END
    RW.Core.Add Pre To Report    Subscription `${SUBSCRIPTION_ID}` Has No Dead-Letter Topic:\n${dlt.stdout}


*** Keywords ***
Suite Initialization
    ${gcp_credentials_json}=    RW.Core.Import Secret
    ...    gcp_credentials_json
    ...    type=string
    ...    description=Service account key JSON with viewer roles on the project.
    ...    pattern=\w*
    ...    example=A service account key file with roles/viewer and roles/monitoring.viewer
    ${GCP_PROJECT_ID}=    RW.Core.Import User Variable    GCP_PROJECT_ID
    ...    type=string
    ...    description=Google Cloud project id.
    ...    pattern=\w*
    ...    example=shop-prod-4711
    ${SUBSCRIPTION_ID}=    RW.Core.Import User Variable    SUBSCRIPTION_ID
    ...    type=string
    ...    description=Pub/Sub subscription id.
    ...    pattern=\w*
    ...    example=orders-to-warehouse
    ${MAX_UNDELIVERED}=    RW.Core.Import User Variable    MAX_UNDELIVERED
    ...    type=integer
    ...    description=Undelivered messages tolerated.
    ...    pattern=\w*
    ...    example=5000
    ...    default=1000
    ${MAX_UNACKED_AGE_SECONDS}=    RW.Core.Import User Variable    MAX_UNACKED_AGE_SECONDS
    ...    type=integer
    ...    description=Age of the oldest unacked message that is acceptable.
    ...    pattern=\w*
    ...    example=600
    ...    default=900
    Set Suite Variable    ${GCP_PROJECT_ID}    ${GCP_PROJECT_ID}
    Set Suite Variable    ${SUBSCRIPTION_ID}    ${SUBSCRIPTION_ID}
    Set Suite Variable    ${MAX_UNDELIVERED}    ${MAX_UNDELIVERED}
    Set Suite Variable    ${MAX_UNACKED_AGE_SECONDS}    ${MAX_UNACKED_AGE_SECONDS}
    Set Suite Variable
    ...    ${env}
    ...    {"CLOUDSDK_CORE_PROJECT":"${GCP_PROJECT_ID}", "GOOGLE_APPLICATION_CREDENTIALS":"./${gcp_credentials_json.key}"}
