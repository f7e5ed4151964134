*** Settings ***
Documentation       Pushes 1 when public access prevention and uniform access are both enforced.
Metadata            Author    Mei Chen
Metadata            Display Name    GCP Cloud Storage Bucket Score
Metadata            Supports    GCP,GCS,Storage
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score Bucket Security Settings for `${GCS_BUCKET}`
    [Documentation]    Scores the two access settings.
    [Tags]    gcp    gcs    access:read-only
    ${sec}=    RW.CLI.Run Cli
    ...    cmd=gcloud auth activate-service-account --key-file=$GOOGLE_APPLICATION_CREDENTIALS >/dev/null 2>&1 && gcloud storage buckets describe gs://${GCS_BUCKET} --format=json | jq '((.public_access_prevention == "enforced") and (.uniform_bucket_level_access == true)) | if . then 1 else 0 end'
    ...    env=${env}
    ...    secret_file__gcp_credentials_json=${gcp_credentials_json}
    ...    timeout_seconds=120
    ${bucket_score}=    Evaluate    int(${sec.stdout})
    Set Global Variable    ${bucket_score}
    RW.Core.Push Metric    ${bucket_score}    sub_name=security


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
    ${GCS_BUCKET}=    RW.Core.Import User Variable    GCS_BUCKET
    ...    type=string
    ...    description=Bucket name without gs://.
    ...    pattern=\w*
    ...    example=shop-exports-prod
    Set Suite Variable    ${GCP_PROJECT_ID}    ${GCP_PROJECT_ID}
    Set Suite Variable    ${GCS_BUCKET}    ${GCS_BUCKET}
    Set Suite Variable
    ...    ${env}
    ...    {"CLOUDSDK_CORE_PROJECT":"${GCP_PROJECT_ID}", "GOOGLE_APPLICATION_CREDENTIALS":"./${gcp_credentials_json.key}"}
