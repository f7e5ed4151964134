*** Settings ***
Documentation       Checks every node of a cluster for readiness, resource pressure, cordons and over-commitment.
Metadata            Author    Tomasz Wilk
Metadata            Display Name    Kubernetes Node Condition Check
Metadata            Supports    Kubernetes,AKS,EKS,GKE
Force Tags          kubernetes    nodes
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
List Nodes Not in Ready State in Cluster `${CONTEXT}`
    [Documentation]    Raises a severity 1 issue for every node whose Ready condition is not True.
    [Tags]    nodes    access:read-only    data:config
    ${nr}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get nodes --context ${CONTEXT} -o json | jq -r '.items[] | select([.status.conditions[] | select(.type=="Ready" and .status=="True")] | length == 0) | .metadata.name'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($nr.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=1
        ...    expected=All nodes report Ready
        ...    actual=Nodes are NotReady or Unknown
        ...    title=Nodes Not Ready in Cluster `${CONTEXT}`
        ...    reproduce_hint=${nr.cmd}
        ...    details=${nr.stdout}
        ...    next_steps=Check kubelet and container runtime on the node\nCheck the cloud provider instance status
    END
    RW.Core.Add Pre To Report    Nodes Not Ready in Cluster `${CONTEXT}`:\n${nr.stdout}

Find Nodes Reporting Memory, Disk or PID Pressure in Cluster `${CONTEXT}`
    [Documentation]    Looks for MemoryPressure, DiskPressure and PIDPressure conditions set to True.
    [Tags]    pressure    access:read-only    data:config
    ${pr}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get nodes --context ${CONTEXT} -o json | jq -r '.items[] | .metadata.name as $n | .status.conditions[] | select(.type | test("Pressure")) | select(.status=="True") | $n + " " + .type'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($pr.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=No pressure conditions are set
        ...    actual=Pressure conditions are True
        ...    title=Nodes Under Resource Pressure in Cluster `${CONTEXT}`
        ...    reproduce_hint=${pr.cmd}
        ...    details=${pr.stdout}
        ...    next_steps=Look for pods without limits on the node\nClean image cache or grow the disk
    END
    RW.Core.Add Pre To Report    Nodes Under Resource Pressure in Cluster `${CONTEXT}`:\n${pr.stdout}

Check Node Allocatable vs Requested Resources in Cluster `${CONTEXT}`
    [Documentation]    Sums pod requests per node and compares them with allocatable CPU and memory.
    [Tags]    capacity    access:read-only    data:config
    ${alloc}=    RW.CLI.Run Bash File
    ...    bash_file=node_request_ratio.sh
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    include_in_history=False
    ...    timeout_seconds=240
    RW.Core.Add Pre To Report    ${alloc.stdout}

List Cordoned or Unschedulable Nodes in Cluster `${CONTEXT}`
    [Documentation]    Nodes left cordoned after maintenance silently shrink the cluster.
    [Tags]    cordon    access:read-only    data:config
    ${cord}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get nodes --context ${CONTEXT} -o json | jq -r '.items[] | select(.spec.unschedulable==true) | .metadata.name'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($cord.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=4
        ...    expected=No node is left cordoned
        ...    actual=Nodes are unschedulable
        ...    title=Cordoned Nodes in Cluster `${CONTEXT}`
        ...    reproduce_hint=${cord.cmd}
        ...    details=${cord.stdout}
        ...    next_steps=Uncordon nodes whose maintenance has finished
    END
    RW.Core.Add Pre To Report    Cordoned Nodes in Cluster `${CONTEXT}`:\n${cord.stdout}

Review Kubelet Warning Events in Cluster `${CONTEXT}`
    [Documentation]    Collects node-level warning events such as image garbage collection failures and system OOMs.
    [Tags]    kubelet    events    access:read-only    data:events
    ${kev}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get events -A --context ${CONTEXT} --field-selector involvedObject.kind=Node,type=Warning -o json | jq -r '.items[] | .involvedObject.name + " " + .reason + ": " + .message'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    RW.Core.Add Pre To Report    ${kev.stdout}


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
    ${KUBECTL}=    RW.Core.Import User Variable    KUBECTL
    ...    type=string
    ...    description=Command line binary used to reach the cluster API.
    ...    pattern=\w*
    ...    example=kubectl
    ...    default=kubectl
    Set Suite Variable    ${CONTEXT}    ${CONTEXT}
    Set Suite Variable    ${KUBECTL}    ${KUBECTL}
    Set Suite Variable
    ...    ${env}
    ...    {"KUBECONFIG":"./${kubeconfig.key}", "CONTEXT":"${CONTEXT}"}
