*** Settings ***
Documentation       Checks whether a single Deployment has the replicas it asked for and whether its latest rollout finished.
Metadata            Author    Marcus Oyelaran
Metadata            Display Name    Kubernetes Deployment Health
Metadata            Supports    Kubernetes,AKS,EKS,GKE,OpenShift
Force Tags          kubernetes    deployment
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             RW.KubeTriage
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Check Available Replicas for Deployment `${DEPLOYMENT_NAME}`
    [Documentation]    Compares desired replicas with available and ready replicas.
    [Tags]    deployment    replicas    access:read-only    data:config
    ${short}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get deployment ${DEPLOYMENT_NAME} -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r 'select((.status.availableReplicas // 0) < .spec.replicas) | "desired=\\(.spec.replicas) available=\\(.status.availableReplicas // 0) ready=\\(.status.readyReplicas // 0)"'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($short.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=All desired replicas of `${DEPLOYMENT_NAME}` are available
        ...    actual=Some replicas are unavailable
        ...    title=Deployment `${DEPLOYMENT_NAME}` Has Fewer Available Replicas Than Desired
        ...    reproduce_hint=${short.cmd}
        ...    details=${short.stdout}
        ...    next_steps=Look at pod status and events for the Deployment\nCheck node capacity and resource requests
    END
    RW.Core.Add Pre To Report    Deployment `${DEPLOYMENT_NAME}` Has Fewer Available Replicas Than Desired:\n${short.stdout}

Inspect Rollout Progress for Deployment `${DEPLOYMENT_NAME}`
    [Documentation]    Reports a rollout that exceeded its progress deadline or is still waiting on new pods.
    [Tags]    rollout    deployment    access:read-only    data:config
    ${progress}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get deployment ${DEPLOYMENT_NAME} -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r '.status.conditions[]? | select(.type=="Progressing" and .status=="False") | .reason + ": " + .message'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($progress.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=The newest ReplicaSet becomes available within the progress deadline
        ...    actual=The Progressing condition is False
        ...    title=Rollout of Deployment `${DEPLOYMENT_NAME}` Is Not Progressing
        ...    reproduce_hint=${progress.cmd}
        ...    details=${progress.stdout}
        ...    next_steps=Describe the newest ReplicaSet and its pods\nRoll back if the new revision cannot start
    END
    RW.Core.Add Pre To Report    Rollout of Deployment `${DEPLOYMENT_NAME}` Is Not Progressing:\n${progress.stdout}

List ReplicaSets and Revision History for Deployment `${DEPLOYMENT_NAME}`
    [Documentation]    Shows every ReplicaSet owned by the Deployment with revision number, image and replica counts.
    [Tags]    history    deployment    access:read-only    data:config
    ${rs}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get rs -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r --arg d ${DEPLOYMENT_NAME} '.items[] | select(.metadata.ownerReferences[]?.name==$d) | [.metadata.annotations["deployment.kubernetes.io/revision"], .metadata.name, .spec.template.spec.containers[0].image, .status.readyReplicas // 0] | @tsv'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    RW.Core.Add Pre To Report    REVISION\tREPLICASET\tIMAGE\tREADY\n${rs.stdout}

Review Warning Events for Deployment `${DEPLOYMENT_NAME}` Pods
    [Documentation]    Collects warning events for the Deployment, its ReplicaSets and pods.
    [Tags]    events    access:read-only    data:events
    ${ev}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get events -n ${NAMESPACE} --context ${CONTEXT} --field-selector type=Warning -o json | jq -r --arg d ${DEPLOYMENT_NAME} '.items[] | select(.involvedObject.name | startswith($d)) | "\\(.lastTimestamp) \\(.involvedObject.kind)/\\(.involvedObject.name) \\(.reason): \\(.message)"'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($ev.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=No warning events for the Deployment
        ...    actual=Warning events were recorded
        ...    title=Warning Events Found for Deployment `${DEPLOYMENT_NAME}`
        ...    reproduce_hint=${ev.cmd}
        ...    details=${ev.stdout}
        ...    next_steps=Read the event messages for scheduling, probe or image errors
    END
    RW.Core.Add Pre To Report    Warning Events Found for Deployment `${DEPLOYMENT_NAME}`:\n${ev.stdout}

Summarize Container Restarts for Deployment `${DEPLOYMENT_NAME}`
    [Documentation]    Uses the KubeTriage library to rank the Deployment pods by restart count.
    [Tags]    restarts    access:read-only    data:config
    ${pods}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get pods -n ${NAMESPACE} --context ${CONTEXT} -l app=${DEPLOYMENT_NAME} -o json
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ${summary}=    RW.KubeTriage.Summarize Pod Restarts    pods_json=${pods.stdout}    threshold=1
    RW.Core.Add Pre To Report    ${summary["table"]}


*** Keywords ***
Suite Initialization
    ${kubeconfig}=    RW.Core.Import Secret
    ...    kubeconfig
    ...    type=string
    ...    description=Kubeconfig with read access to the target cluster.
    ...    pattern=\w*
    ...    example=Upload a kubeconfig file for a read-only service account
    ${CONTEXT}=    RW.Core.Import User Variable    CONTEXT
    ...    type=string
    ...    description=Kubeconfig context that selects the cluster to inspect.
    ...    pattern=\w*
    ...    example=prod-eu-west-1
    ${NAMESPACE}=    RW.Core.Import User Variable    NAMESPACE
    ...    type=string
    ...    description=Namespace whose workloads are inspected.
    ...    pattern=\w*
    ...    example=checkout
    ${KUBECTL}=    RW.Core.Import User Variable    KUBECTL
    ...    type=string
    ...    description=Command line binary used to reach the cluster API.
    ...    pattern=\w*
    ...    example=kubectl
    ...    default=kubectl
    ${DEPLOYMENT_NAME}=    RW.Core.Import User Variable    DEPLOYMENT_NAME
    ...    type=string
    ...    description=Name of the Deployment to check.
    ...    pattern=\w*
    ...    example=cart-api
    Set Suite Variable    ${CONTEXT}    ${CONTEXT}
    Set Suite Variable    ${NAMESPACE}    ${NAMESPACE}
    Set Suite Variable    ${KUBECTL}    ${KUBECTL}
    Set Suite Variable    ${DEPLOYMENT_NAME}    ${DEPLOYMENT_NAME}
    Set Suite Variable
    ...    ${env}
    ...    {"KUBECONFIG":"./${kubeconfig.key}", "NAMESPACE":"${NAMESPACE}", "CONTEXT":"${CONTEXT}"}
