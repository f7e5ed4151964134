*** Settings ***
Documentation       Scores a Pub/Sub subscription on undelivered messages and oldest unacked age.
...                 Thresholds come from user variables; the metric window is fixed in the Variables section.
Metadata            Author    Lucas Ferreira
Metadata            Display Name    GCP Pub/Sub Backlog Score
Metadata            Supports    GCP,PubSub,Messaging
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score Subscription Backlog for `${SUBSCRIPTION_ID}`
    [Documentation]    Scores 1 under the undelivered limit.
    [Tags]    gcp    pubsub    access:read-only
    ${u}=    RW.CLI.Run Cli
    ...    cmd=gcloud auth activate-service-account --key-file=$GOOGLE_APPLICATION_CREDENTIALS >/dev/null 2>&1 && curl -s -H "Authorization: Bearer $(gcloud auth print-access-token)" "https://monitoring.googleapis.com/v3/projects/${GCP_PROJECT_ID}/timeSeries?filter=metric.type%3D%22pubsub.googleapis.com%2Fsubscription%2Fnum_undelivered_messages%22%20AND%20resource.labels.subscription_id%3D%22${SUBSCRIPTION_ID}%22&interval.startTime=$(date -u -d '-10 minutes' +%FT%TZ)&interval.endTime=$(date -u +%FT%TZ)&aggregation.alignmentPeriod=600s&aggregation.perSeriesAligner=ALIGN_MAX&aggregation.crossSeriesReducer=REDUCE_MAX" | jq '[.timeSeries[0].points[].value.int64Value | tonumber] | max // 0'
    ...    env=${env}
    ...    secret_file__gcp_credentials_json=${gcp_credentials_json}
    ...    timeout_seconds=120
    ${backlog_score}=    Evaluate    1 if int(${u.stdout}) <= ${MAX_UNDELIVERED} else 0
    Set Global Variable    ${backlog_score}
    RW.Core.Push Metric    ${backlog_score}    sub_name=undelivered

Score Oldest Unacked Age for `${SUBSCRIPTION_ID}`
    [Documentation]    Scores 1 under the age limit.
    [Tags]    gcp    pubsub    access:read-only
    ${a}=    RW.CLI.Run Cli
    ...    cmd=gcloud auth activate-service-account --key-file=$GOOGLE_APPLICATION_CREDENTIALS >/dev/null 2>&1 && curl -s -H "Authorization: Bearer $(gcloud auth print-access-token)" "https://monitoring.googleapis.com/v3/projects/${GCP_PROJECT_ID}/timeSeries?filter=metric.type%3D%22pubsub.googleapis.com%2Fsubscription%2Foldest_unacked_message_age%22%20AND%20resource.labels.subscription_id%3D%22${SUBSCRIPTION_ID}%22&interval.startTime=$(date -u -d '-10 minutes' +%FT%TZ)&interval.endTime=$(date -u +%FT%TZ)&aggregation.alignmentPeriod=600s&aggregation.perSeriesAligner=ALIGN_MAX&aggregation.crossSeriesReducer=REDUCE_MAX" | jq '[.timeSeries[0].points[].value.int64Value | tonumber] | max // 0'
    ...    env=${env}
    ...    secret_file__gcp_credentials_json=${gcp_credentials_json}
    ...    timeout_seconds=120
    ${age_score}=    Evaluate    1 if int(${a.stdout}) <= ${MAX_UNACKED_AGE_SECONDS} else 0
    Set Global Variable    ${age_score}
    RW.Core.Push Metric    ${age_score}    sub_name=oldest_unacked

Generate Pub/Sub Subscription Score
    [Documentation]    Averages the sub-scores.
    [Tags]    score    access:read-only
    ${health_score}=    Evaluate    (${backlog_score} + ${age_score}) / 2
    ${health_score}=    Convert to Number    ${health_score}    2
    RW.Core.Add to Report    Pub/Sub score: ${health_score}
    RW.Core.Push Metric    ${health_score}


*** Variables ***
${METRIC_WINDOW_MINUTES}    10
${ALIGNER}              ALIGN_MAX
@{SUB_METRICS}          undelivered    oldest_unacked


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
