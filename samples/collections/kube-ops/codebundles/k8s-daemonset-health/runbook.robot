*** Settings ***
Documentation       Checks that a DaemonSet runs a ready pod on every node it should cover.
Metadata            Author    Tomasz Wilk
Metadata            Display Name    Kubernetes DaemonSet Node Coverage
Metadata            Supports    Kubernetes,AKS,EKS,GKE
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Check Scheduled vs Ready Pods for DaemonSet `${DAEMONSET_NAME}`
    [Documentation]    Compares desiredNumberScheduled, numberReady and numberMisscheduled.
    [Tags]    daemonset    access:read-only    data:config
    ${ds}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get daemonset ${DAEMONSET_NAME} -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r '.status | select(.numberReady < .desiredNumberScheduled or .numberMisscheduled > 0) | "desired=\\(.desiredNumberScheduled) ready=\\(.numberReady) misscheduled=\\(.numberMisscheduled)"'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($ds.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=numberReady equals desiredNumberScheduled
        ...    actual=Some nodes lack a ready pod
        ...    title=DaemonSet `${DAEMONSET_NAME}` Is Not Ready on All Nodes
        ...    reproduce_hint=${ds.cmd}
        ...    details=${ds.stdout}
        ...    next_steps=Run the next task to see which nodes are missing a pod
    END
    RW.Core.Add Pre To Report    DaemonSet `${DAEMONSET_NAME}` Is Not Ready on All Nodes:\n${ds.stdout}

List Nodes Missing a DaemonSet `${DAEMONSET_NAME}` Pod
    [Documentation]    Prints nodes that have no pod from the DaemonSet, with their taints, to spot missing tolerations.
    [Tags]    nodes    tolerations    access:read-only    data:config
    ${missing}=    RW.CLI.Run Bash File
    ...    bash_file=nodes_without_ds_pod.sh
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    include_in_history=False
    ...    timeout_seconds=240
    RW.Core.Add Pre To Report    ${missing.stdout}

Check Update Rollout for DaemonSet `${DAEMONSET_NAME}`
    [Documentation]    Reports a DaemonSet whose updatedNumberScheduled lags the desired count.
    [Tags]    rollout    access:read-only    data:config
    ${upd}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get daemonset ${DAEMONSET_NAME} -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r '.status | select((.updatedNumberScheduled // 0) < .desiredNumberScheduled) | "updated=\\(.updatedNumberScheduled // 0) desired=\\(.desiredNumberScheduled)"'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($upd.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=All nodes run the newest template
        ...    actual=Some nodes still run an old template
        ...    title=DaemonSet `${DAEMONSET_NAME}` Rollout Is Incomplete
        ...    reproduce_hint=${upd.cmd}
        ...    details=${upd.stdout}
        ...    next_steps=Check maxUnavailable and pods stuck terminating
    END
    RW.Core.Add Pre To Report    DaemonSet `${DAEMONSET_NAME}` Rollout Is Incomplete:\n${upd.stdout}


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
    ...    example=kube-system
    ...    default=kube-system
    ${KUBECTL}=    RW.Core.Import User Variable    KUBECTL
    ...    type=string
    ...    description=Command line binary used to reach the cluster API.
    ...    pattern=\w*
    ...    example=kubectl
    ...    default=kubectl
    ${DAEMONSET_NAME}=    RW.Core.Import User Variable    DAEMONSET_NAME
    ...    type=string
    ...    description=Name of the DaemonSet to check.
    ...    pattern=\w*
    ...    example=node-exporter
    Set Suite Variable    ${CONTEXT}    ${CONTEXT}
    Set Suite Variable    ${NAMESPACE}    ${NAMESPACE}
    Set Suite Variable    ${KUBECTL}    ${KUBECTL}
    Set Suite Variable    ${DAEMONSET_NAME}    ${DAEMONSET_NAME}
    Set Suite Variable
    ...    ${env}
    ...    {"KUBECONFIG":"./${kubeconfig.key}", "NAMESPACE":"${NAMESPACE}", "CONTEXT":"${CONTEXT}"}
