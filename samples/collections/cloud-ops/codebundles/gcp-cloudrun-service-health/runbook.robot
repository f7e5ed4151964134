*** Settings ***
Documentation       Checks a Cloud Run service: latest revision readiness, 5xx responses, container startup failures and instance limits.
Metadata            Author    Lucas Ferreira
Metadata            Display Name    GCP Cloud Run Service Health
Metadata            Supports    GCP,CloudRun,Serverless
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Check Latest Revision Readiness for Cloud Run Service `${CLOUD_RUN_SERVICE}`
    [Documentation]    Reports a service whose Ready condition is False or whose traffic is not on the latest ready revision.
    [Tags]    gcp    cloudrun    access:read-only    data:config
    ${rdy}=    RW.CLI.Run Cli
    ...    cmd=gcloud auth activate-service-account --key-file=$GOOGLE_APPLICATION_CREDENTIALS >/dev/null 2>&1 && gcloud run services describe ${CLOUD_RUN_SERVICE} --region ${CLOUD_RUN_REGION} --format=json | jq -r '(.status.conditions[] | select(.type=="Ready" and .status!="True") | "Ready=\\(.status): \\(.message)"), (select(.status.latestCreatedRevisionName != .status.latestReadyRevisionName) | "latest revision \\(.status.latestCreatedRevisionName) is not ready")'
    ...    env=${env}
    ...    secret_file__gcp_credentials_json=${gcp_credentials_json}
    ...    timeout_seconds=180
    IF    len($rdy.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=The latest revision is ready and serving
        ...    actual=${rdy.stdout}
        ...    title=Cloud Run Service `${CLOUD_RUN_SERVICE}` Has an Unready Revision
        ...    reproduce_hint=${rdy.cmd}
        ...    details=${rdy.stdout}
        ...    next_steps=Open the revision logs; the container most likely failed its startup probe
    END
    RW.Core.Add Pre To Report    Cloud Run Service `${CLOUD_RUN_SERVICE}` Has an Unready Revision:\n${rdy.stdout}

Count 5xx Responses for `${CLOUD_RUN_SERVICE}` in the Last Hour
    [Documentation]    Computes the 5xx share from request_count grouped by response_code_class.
    [Tags]    gcp    cloudrun    http    access:read-only    data:metrics
    ${rc}=    RW.CLI.Run Bash File
    ...    bash_file=cloudrun_5xx_ratio.sh
    ...    env=${env}
    ...    secret_file__gcp_credentials_json=${gcp_credentials_json}
    ...    include_in_history=False
    ...    timeout_seconds=240
    IF    float(${rc.stdout}) > ${MAX_5XX_RATIO}
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Below ${MAX_5XX_RATIO} of requests
        ...    actual=ratio=${rc.stdout}
        ...    title=Cloud Run Service `${CLOUD_RUN_SERVICE}` Returns 5xx
        ...    reproduce_hint=${rc.cmd}
        ...    details=${rc.stdout}
        ...    next_steps=Check the error logs and recent revisions\nLook for 429/503 from hitting max instances
    END

Scan Cloud Run Logs for Container Startup Failures in `${CLOUD_RUN_SERVICE}`
    [Documentation]    Looks for failed startup probes, port binding errors and crashes at start.
    [Tags]    gcp    cloudrun    logs    access:read-only    data:logs-regexp
    ${boot}=    RW.CLI.Run Cli
    ...    cmd=gcloud auth activate-service-account --key-file=$GOOGLE_APPLICATION_CREDENTIALS >/dev/null 2>&1 && gcloud logging read 'resource.type="cloud_run_revision" AND resource.labels.service_name="${CLOUD_RUN_SERVICE}" AND (textPayload:"failed to start" OR textPayload:"STARTUP TCP probe failed" OR textPayload:"listen on the port")' --freshness=6h --limit 20 --format='value(timestamp,textPayload)'
    ...    env=${env}
    ...    secret_file__gcp_credentials_json=${gcp_credentials_json}
    ...    timeout_seconds=180
    IF    len($boot.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Containers start and listen on $PORT
        ...    actual=Startup failures logged
        ...    title=Cloud Run Containers Failing at Startup for `${CLOUD_RUN_SERVICE}`
        ...    reproduce_hint=${boot.cmd}
        ...    details=${boot.stdout}
        ...    next_steps=Make the container listen on the PORT env variable\nIncrease startup probe timeout
    END
    RW.Core.Add Pre To Report    Cloud Run Containers Failing at Startup for `${CLOUD_RUN_SERVICE}`:\n${boot.stdout}

Check Instance Count Against Max Instances for `${CLOUD_RUN_SERVICE}`
    [Documentation]    Compares the peak instance count with the max-instances annotation.
    [Tags]    gcp    cloudrun    scaling    access:read-only    data:metrics
    ${inst}=    RW.CLI.Run Cli
    ...    cmd=gcloud auth activate-service-account --key-file=$GOOGLE_APPLICATION_CREDENTIALS >/dev/null 2>&1 && gcloud run services describe ${CLOUD_RUN_SERVICE} --region ${CLOUD_RUN_REGION} --format='value(spec.template.metadata.annotations."autoscaling.knative.dev/maxScale")'
    ...    env=${env}
    ...    secret_file__gcp_credentials_json=${gcp_credentials_json}
    RW.Core.Add Pre To Report    Configured max instances: ${inst.stdout}


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
    ${CLOUD_RUN_SERVICE}=    RW.Core.Import User Variable    CLOUD_RUN_SERVICE
    ...    type=string
    ...    description=Cloud Run service name.
    ...    pattern=\w*
    ...    example=checkout-api
    ${CLOUD_RUN_REGION}=    RW.Core.Import User Variable    CLOUD_RUN_REGION
    ...    type=string
    ...    description=Region of the service.
    ...    pattern=\w*
    ...    example=europe-west4
    ...    default=us-central1
    ${MAX_5XX_RATIO}=    RW.Core.Import User Variable    MAX_5XX_RATIO
    ...    type=string
    ...    description=Acceptable share of 5xx responses.
    ...    pattern=\w*
    ...    example=0.01
    ...    default=0.02
    Set Suite Variable    ${GCP_PROJECT_ID}    ${GCP_PROJECT_ID}
    Set Suite Variable    ${CLOUD_RUN_SERVICE}    ${CLOUD_RUN_SERVICE}
    Set Suite Variable    ${CLOUD_RUN_REGION}    ${CLOUD_RUN_REGION}
    Set Suite Variable    ${MAX_5XX_RATIO}    ${MAX_5XX_RATIO}
    Set Suite Variable
    ...    ${env}
    ...    {"CLOUDSDK_CORE_PROJECT":"${GCP_PROJECT_ID}", "GOOGLE_APPLICATION_CREDENTIALS":"./${gcp_credentials_json.key}"}
