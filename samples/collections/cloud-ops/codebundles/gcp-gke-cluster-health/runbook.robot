*** Settings ***
Documentation       Checks a GKE cluster from the Google Cloud side: status and conditions, node pool errors and auto-repairs, upgrades and failed operations.
Metadata            Author    Mei Chen
Metadata            Display Name    GCP GKE Cluster Health
Metadata            Supports    GCP,GKE,Kubernetes
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Check GKE Cluster `${GKE_CLUSTER}` Status and Conditions
    [Documentation]    Reports a cluster that is not RUNNING and any status conditions it carries.
    [Tags]    gcp    gke    access:read-only    data:config
    ${st}=    RW.CLI.Run Cli
    ...    cmd=gcloud auth activate-service-account --key-file=$GOOGLE_APPLICATION_CREDENTIALS >/dev/null 2>&1 && gcloud container clusters describe ${GKE_CLUSTER} --location ${GKE_LOCATION} --format=json | jq -r 'select(.status != "RUNNING" or (.conditions // [] | length > 0)) | "status=\\(.status) conditions=\\(.conditions // [] | map(.message) | join("; "))"'
    ...    env=${env}
    ...    secret_file__gcp_credentials_json=${gcp_credentials_json}
    ...    timeout_seconds=180
    IF    len($st.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=1
        ...    expected=RUNNING without conditions
        ...    actual=${st.stdout}
        ...    title=GKE Cluster `${GKE_CLUSTER}` Is Not Running Cleanly
        ...    reproduce_hint=${st.cmd}
        ...    details=${st.stdout}
        ...    next_steps=Check recent operations for a failed upgrade or repair
    END
    RW.Core.Add Pre To Report    GKE Cluster `${GKE_CLUSTER}` Is Not Running Cleanly:\n${st.stdout}

List Node Pools With Errors or Repairs in `${GKE_CLUSTER}`
    [Documentation]    Shows node pools not RUNNING and auto-repair operations from the last day.
    [Tags]    gcp    gke    nodepool    access:read-only    data:config
    ${np}=    RW.CLI.Run Cli
    ...    cmd=gcloud auth activate-service-account --key-file=$GOOGLE_APPLICATION_CREDENTIALS >/dev/null 2>&1 && gcloud container node-pools list --cluster ${GKE_CLUSTER} --location ${GKE_LOCATION} --format='value(name,status,version)' | awk '$2 != "RUNNING"'
    ...    env=${env}
    ...    secret_file__gcp_credentials_json=${gcp_credentials_json}
    ...    timeout_seconds=180
    IF    len($np.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Node pools RUNNING
        ...    actual=${np.stdout}
        ...    title=GKE Node Pools Not Running in `${GKE_CLUSTER}`
        ...    reproduce_hint=${np.cmd}
        ...    details=${np.stdout}
        ...    next_steps=Check instance group errors (quota, stockout) in the region
    END
    RW.Core.Add Pre To Report    GKE Node Pools Not Running in `${GKE_CLUSTER}`:\n${np.stdout}

Check Pending Upgrades and Release Channel for `${GKE_CLUSTER}`
    [Documentation]    Prints master and node versions, the release channel and available upgrades.
    [Tags]    gcp    gke    upgrade    access:read-only    data:config
    ${up}=    RW.CLI.Run Cli
    ...    cmd=gcloud auth activate-service-account --key-file=$GOOGLE_APPLICATION_CREDENTIALS >/dev/null 2>&1 && gcloud container clusters describe ${GKE_CLUSTER} --location ${GKE_LOCATION} --format='value(currentMasterVersion,currentNodeVersion,releaseChannel.channel)'; gcloud container get-server-config --location ${GKE_LOCATION} --format='value(validMasterVersions[0:3])'
    ...    env=${env}
    ...    secret_file__gcp_credentials_json=${gcp_credentials_json}
    RW.Core.Add Pre To Report    master / nodes / channel, newest valid versions:\n${up.stdout}

Review Recent GKE Operations for Failures in `${GKE_CLUSTER}`
    [Documentation]    Lists operations on the cluster that ended with an error.
    [Tags]    gcp    gke    operations    access:read-only    data:logs
    ${ops}=    RW.CLI.Run Cli
    ...    cmd=gcloud auth activate-service-account --key-file=$GOOGLE_APPLICATION_CREDENTIALS >/dev/null 2>&1 && gcloud container operations list --location ${GKE_LOCATION} --filter="targetLink~${GKE_CLUSTER} AND statusMessage:*" --format='value(operationType,startTime,statusMessage)' --limit 20
    ...    env=${env}
    ...    secret_file__gcp_credentials_json=${gcp_credentials_json}
    ...    timeout_seconds=180
    IF    len($ops.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=Operations finish without error
        ...    actual=${ops.stdout}
        ...    title=Failed Operations on GKE Cluster `${GKE_CLUSTER}`
        ...    reproduce_hint=${ops.cmd}
        ...    details=${ops.stdout}
        ...    next_steps=Read the statusMessage; quota and permission errors are the usual causes
    END
    RW.Core.Add Pre To Report    Failed Operations on GKE Cluster `${GKE_CLUSTER}`:\n${ops.stdout}


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
