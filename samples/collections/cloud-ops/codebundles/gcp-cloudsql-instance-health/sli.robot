*** Settings ***
Documentation       Scores a Cloud SQL instance on availability and disk headroom.
Metadata            Author    Mei Chen
Metadata            Display Name    GCP Cloud SQL Score
Metadata            Supports    GCP,CloudSQL,Database
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score Cloud SQL Instance Availability for `${CLOUDSQL_INSTANCE}`
    [Documentation]    Scores 1 when RUNNABLE.
    [Tags]    gcp    cloudsql    access:read-only
    ${a}=    RW.CLI.Run Cli
    ...    cmd=gcloud auth activate-service-account --key-file=$GOOGLE_APPLICATION_CREDENTIALS >/dev/null 2>&1 && gcloud sql instances describe ${CLOUDSQL_INSTANCE} --format='value(state)'
    ...    env=${env}
    ...    secret_file__gcp_credentials_json=${gcp_credentials_json}
    ...    timeout_seconds=120
    ${avail_score}=    Evaluate    1 if "${a.stdout}".strip() == "RUNNABLE" else 0
    Set Global Variable    ${avail_score}
    RW.Core.Push Metric    ${avail_score}    sub_name=availability

Score Cloud SQL Disk Headroom for `${CLOUDSQL_INSTANCE}`
    [Documentation]    Scores 1 below the disk limit.
    [Tags]    gcp    cloudsql    access:read-only
    ${d}=    RW.CLI.Run Cli
    ...    cmd=gcloud auth activate-service-account --key-file=$GOOGLE_APPLICATION_CREDENTIALS >/dev/null 2>&1 && curl -s -H "Authorization: Bearer $(gcloud auth print-access-token)" "https://monitoring.googleapis.com/v3/projects/${GCP_PROJECT_ID}/timeSeries?filter=metric.type%3D%22cloudsql.googleapis.com%2Fdatabase%2Fdisk%2Futilization%22%20AND%20resource.labels.database_id%3D%22${GCP_PROJECT_ID}%3A${CLOUDSQL_INSTANCE}%22&interval.startTime=$(date -u -d '-10 minutes' +%FT%TZ)&interval.endTime=$(date -u +%FT%TZ)&aggregation.alignmentPeriod=600s&aggregation.perSeriesAligner=ALIGN_MAX&aggregation.crossSeriesReducer=REDUCE_MAX" | jq '[.timeSeries[0].points[].value.doubleValue] | max * 100 | floor'
    ...    env=${env}
    ...    secret_file__gcp_credentials_json=${gcp_credentials_json}
    ...    timeout_seconds=120
    ${disk_score}=    Evaluate    1 if int(${d.stdout}) <= ${DISK_LIMIT_PERCENT} else 0
    Set Global Variable    ${disk_score}
    RW.Core.Push Metric    ${disk_score}    sub_name=disk

Generate Cloud SQL Score
    [Documentation]    Averages the sub-scores.
    [Tags]    score    access:read-only
    ${health_score}=    Evaluate    (${avail_score} + ${disk_score}) / 2
    ${health_score}=    Convert to Number    ${health_score}    2
    RW.Core.Add to Report    Cloud SQL score: ${health_score}
    RW.Core.Push Metric    ${health_score}


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
    ${CLOUDSQL_INSTANCE}=    RW.Core.Import User Variable    CLOUDSQL_INSTANCE
    ...    type=string
    ...    description=Cloud SQL instance id.
    ...    pattern=\w*
    ...    example=orders-pg-prod
    ${DISK_LIMIT_PERCENT}=    RW.Core.Import User Variable    DISK_LIMIT_PERCENT
    ...    type=integer
    ...    description=Disk utilisation that triggers an issue.
    ...    pattern=\w*
    ...    example=85
    ...    default=85
    Set Suite Variable    ${GCP_PROJECT_ID}    ${GCP_PROJECT_ID}
    Set Suite Variable    ${CLOUDSQL_INSTANCE}    ${CLOUDSQL_INSTANCE}
    Set Suite Variable    ${DISK_LIMIT_PERCENT}    ${DISK_LIMIT_PERCENT}
    Set Suite Variable
    ...    ${env}
    ...    {"CLOUDSDK_CORE_PROJECT":"${GCP_PROJECT_ID}", "GOOGLE_APPLICATION_CREDENTIALS":"./${gcp_credentials_json.key}"}
