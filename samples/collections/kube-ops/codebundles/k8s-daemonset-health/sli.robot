*** Settings ***
Documentation       Scores the fraction of target nodes that run a ready DaemonSet pod.
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
Score DaemonSet `${DAEMONSET_NAME}` Node Coverage
    [Documentation]    Pushes numberReady divided by desiredNumberScheduled.
    [Tags]    daemonset    access:read-only
    ${cov}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get daemonset ${DAEMONSET_NAME} -n ${NAMESPACE} --context ${CONTEXT} -o json | jq '.status.numberReady / (if .status.desiredNumberScheduled == 0 then 1 else .status.desiredNumberScheduled end)'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ${coverage}=    Convert to Number    ${cov.stdout}    2
    RW.Core.Push Metric    ${coverage}


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
