*** Settings ***
Documentation       Reviews a Cloud Storage bucket: public access prevention, uniform access, size growth and retention/lifecycle.
Metadata            Author    Mei Chen
Metadata            Display Name    GCP Cloud Storage Bucket Review
Metadata            Supports    GCP,GCS,Storage
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Check Public Access Prevention on Bucket `${GCS_BUCKET}`
    [Documentation]    Reports buckets where public access prevention is not enforced or allUsers has a binding.
    [Tags]    gcp    gcs    security    access:read-only    data:config
    ${pub}=    RW.CLI.Run Cli
    ...    cmd=gcloud auth activate-service-account --key-file=$GOOGLE_APPLICATION_CREDENTIALS >/dev/null 2>&1 && gcloud storage buckets describe gs://${GCS_BUCKET} --format='value(public_access_prevention)' | grep -v enforced; gcloud storage buckets get-iam-policy gs://${GCS_BUCKET} --format=json | jq -r '.bindings[]? | select(.members[] | test("allUsers|allAuthenticatedUsers")) | .role'
    ...    env=${env}
    ...    secret_file__gcp_credentials_json=${gcp_credentials_json}
    ...    timeout_seconds=180
    IF    len($pub.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=1
        ...    expected=Public access prevention enforced
        ...    actual=${pub.stdout}
        ...    title=Bucket `${GCS_BUCKET}` Is or Can Become Public
        ...    reproduce_hint=${pub.cmd}
        ...    details=${pub.stdout}
        ...    next_steps=Remove allUsers bindings and enforce public access prevention
    END
    RW.Core.Add Pre To Report    Bucket `${GCS_BUCKET}` Is or Can Become Public:\n${pub.stdout}

Check Uniform Bucket-Level Access on `${GCS_BUCKET}`
    [Documentation]    Fine-grained ACLs are hard to audit; uniform access should be on.
    [Tags]    gcp    gcs    access:read-only    data:config
    ${ubla}=    RW.CLI.Run Cli
    ...    cmd=gcloud auth activate-service-account --key-file=$GOOGLE_APPLICATION_CREDENTIALS >/dev/null 2>&1 && gcloud storage buckets describe gs://${GCS_BUCKET} --format='value(uniform_bucket_level_access)' | grep -vi true
    ...    env=${env}
    ...    secret_file__gcp_credentials_json=${gcp_credentials_json}
    ...    timeout_seconds=180
    IF    len($ubla.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=4
        ...    expected=Uniform bucket-level access on
        ...    actual=${ubla.stdout}
        ...    title=Bucket `${GCS_BUCKET}` Uses Object ACLs
        ...    reproduce_hint=${ubla.cmd}
        ...    details=${ubla.stdout}
        ...    next_steps=Enable uniform bucket-level access after migrating ACLs to IAM
    END
    RW.Core.Add Pre To Report    Bucket `${GCS_BUCKET}` Uses Object ACLs:\n${ubla.stdout}

Check Bucket `${GCS_BUCKET}` Size and Object Count Growth
    [Documentation]    Shows total bytes and object count trend from Cloud Monitoring over the last week.
    [Tags]    gcp    gcs    cost    access:read-only    data:metrics
    ${size}=    RW.CLI.Run Cli
    ...    cmd=gcloud auth activate-service-account --key-file=$GOOGLE_APPLICATION_CREDENTIALS >/dev/null 2>&1 && gcloud storage du -s gs://${GCS_BUCKET} --readable-sizes
    ...    env=${env}
    ...    secret_file__gcp_credentials_json=${gcp_credentials_json}
    RW.Core.Add Pre To Report    ${size.stdout}

Check Retention and Lifecycle Policy on `${GCS_BUCKET}`
    [Documentation]    Prints retention policy, soft delete and lifecycle rules.
    [Tags]    gcp    gcs    access:read-only    data:config
    ${lc}=    RW.CLI.Run Cli
    ...    cmd=gcloud auth activate-service-account --key-file=$GOOGLE_APPLICATION_CREDENTIALS >/dev/null 2>&1 && gcloud storage buckets describe gs://${GCS_BUCKET} --format=json | jq '{retention: .retention_policy, soft_delete: .soft_delete_policy, lifecycle: .lifecycle_config}'
    ...    env=${env}
    ...    secret_file__gcp_credentials_json=${gcp_credentials_json}
    RW.Core.Add Pre To Report    ${lc.stdout}


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
