*** Settings ***
Documentation       Checks a Cloud SQL instance: state, disk and auto-resize, CPU and memory, error log entries and backups.
Metadata            Author    Mei Chen
Metadata            Display Name    GCP Cloud SQL Instance Health
Metadata            Supports    GCP,CloudSQL,Database
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Check Cloud SQL Instance `${CLOUDSQL_INSTANCE}` State
    [Documentation]    Reports an instance that is not RUNNABLE or has a pending maintenance.
    [Tags]    gcp    cloudsql    access:read-only    data:config
    ${st}=    RW.CLI.Run Cli
    ...    cmd=gcloud auth activate-service-account --key-file=$GOOGLE_APPLICATION_CREDENTIALS >/dev/null 2>&1 && gcloud sql instances describe ${CLOUDSQL_INSTANCE} --format='value(state,scheduledMaintenance.startTime)' | awk '$1 != "RUNNABLE" || $2 != ""'
    ...    env=${env}
    ...    secret_file__gcp_credentials_json=${gcp_credentials_json}
    ...    timeout_seconds=180
    IF    len($st.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=RUNNABLE and no scheduled maintenance
        ...    actual=${st.stdout}
        ...    title=Cloud SQL Instance `${CLOUDSQL_INSTANCE}` Needs Attention
        ...    reproduce_hint=${st.cmd}
        ...    details=${st.stdout}
        ...    next_steps=Check the operations list for the instance
    END
    RW.Core.Add Pre To Report    Cloud SQL Instance `${CLOUDSQL_INSTANCE}` Needs Attention:\n${st.stdout}

Check Disk Utilisation and Auto Resize for `${CLOUDSQL_INSTANCE}`
    [Documentation]    Compares disk usage with the limit and reports whether storage auto-resize is enabled.
    [Tags]    gcp    cloudsql    disk    access:read-only    data:metrics
    ${disk}=    RW.CLI.Run Cli
    ...    cmd=gcloud auth activate-service-account --key-file=$GOOGLE_APPLICATION_CREDENTIALS >/dev/null 2>&1 && curl -s -H "Authorization: Bearer $(gcloud auth print-access-token)" "https://monitoring.googleapis.com/v3/projects/${GCP_PROJECT_ID}/timeSeries?filter=metric.type%3D%22cloudsql.googleapis.com%2Fdatabase%2Fdisk%2Futilization%22%20AND%20resource.labels.database_id%3D%22${GCP_PROJECT_ID}%3A${CLOUDSQL_INSTANCE}%22&interval.startTime=$(date -u -d '-10 minutes' +%FT%TZ)&interval.endTime=$(date -u +%FT%TZ)&aggregation.alignmentPeriod=600s&aggregation.perSeriesAligner=ALIGN_MAX&aggregation.crossSeriesReducer=REDUCE_MAX" | jq '[.timeSeries[0].points[].value.doubleValue] | max * 100 | floor'
    ...    env=${env}
    ...    secret_file__gcp_credentials_json=${gcp_credentials_json}
    IF    int(${disk.stdout}) > ${DISK_LIMIT_PERCENT}
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Disk below ${DISK_LIMIT_PERCENT}%
        ...    actual=${disk.stdout}%
        ...    title=Cloud SQL `${CLOUDSQL_INSTANCE}` Disk Almost Full
        ...    reproduce_hint=${disk.cmd}
        ...    details=${disk.stdout}
        ...    next_steps=Enable storage auto-increase or resize the disk
    END

Check CPU and Memory Utilisation of `${CLOUDSQL_INSTANCE}`
    [Documentation]    Prints the maximum CPU and memory utilisation over the last hour.
    [Tags]    gcp    cloudsql    cpu    access:read-only    data:metrics
    ${cm}=    RW.CLI.Run Cli
    ...    cmd=gcloud auth activate-service-account --key-file=$GOOGLE_APPLICATION_CREDENTIALS >/dev/null 2>&1 && for m in cpu memory; do echo -n "$m="; curl -s -H "Authorization: Bearer $(gcloud auth print-access-token)" "https://monitoring.googleapis.com/v3/projects/${GCP_PROJECT_ID}/timeSeries?filter=metric.type%3D%22cloudsql.googleapis.com%2Fdatabase%2F$m%2Futilization%22%20AND%20resource.labels.database_id%3D%22${GCP_PROJECT_ID}%3A${CLOUDSQL_INSTANCE}%22&interval.startTime=$(date -u -d '-60 minutes' +%FT%TZ)&interval.endTime=$(date -u +%FT%TZ)&aggregation.alignmentPeriod=3600s&aggregation.perSeriesAligner=ALIGN_MAX&aggregation.crossSeriesReducer=REDUCE_MAX" | jq '[.timeSeries[0].points[].value.doubleValue] | max'; done
    ...    env=${env}
    ...    secret_file__gcp_credentials_json=${gcp_credentials_json}
    RW.Core.Add Pre To Report    ${cm.stdout}

Review Cloud SQL Error Log Entries for `${CLOUDSQL_INSTANCE}`
    [Documentation]    Reads ERROR and higher entries from the database log in Cloud Logging.
    [Tags]    gcp    cloudsql    logs    access:read-only    data:logs
    ${el}=    RW.CLI.Run Cli
    ...    cmd=gcloud auth activate-service-account --key-file=$GOOGLE_APPLICATION_CREDENTIALS >/dev/null 2>&1 && gcloud logging read 'resource.type="cloudsql_database" AND resource.labels.database_id="${GCP_PROJECT_ID}:${CLOUDSQL_INSTANCE}" AND severity>=ERROR' --freshness=1h --limit 30 --format='value(timestamp,textPayload)'
    ...    env=${env}
    ...    secret_file__gcp_credentials_json=${gcp_credentials_json}
    ...    timeout_seconds=180
    IF    len($el.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=No error entries
        ...    actual=Errors were logged
        ...    title=Errors in Cloud SQL Log for `${CLOUDSQL_INSTANCE}`
        ...    reproduce_hint=${el.cmd}
        ...    details=${el.stdout}
        ...    next_steps=Group by message; connection limit and auth errors need different fixes
    END
    RW.Core.Add Pre To Report    Errors in Cloud SQL Log for `${CLOUDSQL_INSTANCE}`:\n${el.stdout}

Check Backup Runs for `${CLOUDSQL_INSTANCE}`
    [Documentation]    Raises an issue when the latest backup run did not succeed or is older than a day.
    [Tags]    gcp    cloudsql    backup    access:read-only    data:config
    ${bk}=    RW.CLI.Run Cli
    ...    cmd=gcloud auth activate-service-account --key-file=$GOOGLE_APPLICATION_CREDENTIALS >/dev/null 2>&1 && gcloud sql backups list --instance ${CLOUDSQL_INSTANCE} --limit 1 --format=json | jq -r '.[0] | select(.status != "SUCCESSFUL" or ((now - (.endTime | sub("\\.[0-9]+Z$"; "Z") | fromdateiso8601)) > 90000)) | "status=\\(.status) end=\\(.endTime)"'
    ...    env=${env}
    ...    secret_file__gcp_credentials_json=${gcp_credentials_json}
    ...    timeout_seconds=180
    IF    len($bk.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=A successful backup within 25h
        ...    actual=${bk.stdout}
        ...    title=Latest Backup of `${CLOUDSQL_INSTANCE}` Failed or Is Old
        ...    reproduce_hint=${bk.cmd}
        ...    details=${bk.stdout}
        ...    next_steps=Check the backup configuration and the operations log
    END
    RW.Core.Add Pre To Report    Latest Backup of `${CLOUDSQL_INSTANCE}` Failed or Is Old:\n${bk.stdout}


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
