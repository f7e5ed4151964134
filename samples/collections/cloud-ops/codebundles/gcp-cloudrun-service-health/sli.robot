*** Settings ***
Documentation       Pushes 1 minus the 5xx share of the service over the last 15 minutes.
Metadata            Author    Lucas Ferreira
Metadata            Display Name    GCP Cloud Run Request Success
Metadata            Supports    GCP,CloudRun,Serverless
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score Cloud Run Request Success Rate for `${CLOUD_RUN_SERVICE}`
    [Documentation]    Share of non-5xx responses.
    [Tags]    gcp    cloudrun    access:read-only
    ${rc}=    RW.CLI.Run Bash File
    ...    bash_file=cloudrun_5xx_ratio.sh
    ...    cmd_override=./cloudrun_5xx_ratio.sh 15
    ...    env=${env}
    ...    secret_file__gcp_credentials_json=${gcp_credentials_json}
    ...    include_in_history=False
    ...    timeout_seconds=240
    ${ok}=    Evaluate    round(1 - float(${rc.stdout}), 3)
    RW.Core.Push Metric    ${ok}


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
