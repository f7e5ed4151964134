*** Settings ***
Documentation       Pushes 1 when the cluster is RUNNING with all node pools RUNNING.
Metadata            Author    Mei Chen
Metadata            Display Name    GCP GKE Cluster Score
Metadata            Supports    GCP,GKE,Kubernetes
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score GKE Cluster `${GKE_CLUSTER}` Running State
    [Documentation]    Scores 1 when cluster and node pools are RUNNING.
    [Tags]    gcp    gke    access:read-only
    ${r}=    RW.CLI.Run Cli
    ...    cmd=gcloud auth activate-service-account --key-file=$GOOGLE_APPLICATION_CREDENTIALS >/dev/null 2>&1 && gcloud container node-pools list --cluster ${GKE_CLUSTER} --location ${GKE_LOCATION} --format='value(status)' | grep -vc RUNNING
    ...    env=${env}
    ...    secret_file__gcp_credentials_json=${gcp_credentials_json}
    ...    timeout_seconds=120
    ${gke_score}=    Evaluate    1 if int(${r.stdout}) == 0 else 0
    Set Global Variable    ${gke_score}
    RW.Core.Push Metric    ${gke_score}    sub_name=running


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
    ${GKE_CLUSTER}=    RW.Core.Import User Variable    GKE_CLUSTER
    ...    type=string
    ...    description=GKE cluster name.
    ...    pattern=\w*
    ...    example=gke-shop-euw1
    ${GKE_LOCATION}=    RW.Core.Import User Variable    GKE_LOCATION
    ...    type=string
    ...    description=Zone or region of the cluster.
    ...    pattern=\w*
    ...    example=europe-west1
    Set Suite Variable    ${GCP_PROJECT_ID}    ${GCP_PROJECT_ID}
    Set Suite Variable    ${GKE_CLUSTER}    ${GKE_CLUSTER}
    Set Suite Variable    ${GKE_LOCATION}    ${GKE_LOCATION}
    Set Suite Variable
    ...    ${env}
    ...    {"CLOUDSDK_CORE_PROJECT":"${GCP_PROJECT_ID}", "GOOGLE_APPLICATION_CREDENTIALS":"./${gcp_credentials_json.key}"}
