*** Settings ***
Documentation    Pushes the number of nodes missing a ready agent pod.
Metadata    Author    Farah Haddad
Metadata    Display Name    Kubernetes DaemonSet Health
Metadata    Supports    Kubernetes
Library    RW.Core
Library    RW.CLI
Library    RW.platform
Library    OperatingSystem
Library    String

Suite Setup    Suite Initialization


*** Tasks ***
Count Nodes Missing a Ready Agent Pod
    ${miss}=    RW.CLI.Run Cli
    ...    cmd=kubectl get daemonset ${DAEMONSET_NAME} -n ${NAMESPACE} --context ${CONTEXT} -o jsonpath='{.status.desiredNumberScheduled} {.status.numberReady}' | awk '{print $1 - $2}'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    RW.Core.Push Metric    ${miss.stdout}


*** Keywords ***
Suite Initialization
    ${kubeconfig}=    RW.Core.Import Secret
    ...    kubeconfig
    ...    type=string
    ...    description=Kubeconfig for the cluster.
    ...    pattern=\w*
    ...    example=Upload a kubeconfig
    ${NAMESPACE}=    RW.Core.Import User Variable    NAMESPACE
    ...    type=string
    ...    description=Namespace of the agent DaemonSet.
    ...    pattern=\w*
    ...    example=logging
    ...    default=logging
    ${DAEMONSET_NAME}=    RW.Core.Import User Variable    DAEMONSET_NAME
    ...    type=string
    ...    description=DaemonSet of the node agent (log shipper, exporter).
    ...    pattern=\w*
    ...    example=fluent-bit
    ${CONTEXT}=    RW.Core.Import User Variable    CONTEXT
    ...    type=string
    ...    description=Kubeconfig context.
    ...    pattern=\w*
    ...    example=prod
    Set Suite Variable    ${NAMESPACE}    ${NAMESPACE}
    Set Suite Variable    ${DAEMONSET_NAME}    ${DAEMONSET_NAME}
    Set Suite Variable    ${CONTEXT}    ${CONTEXT}
    Set Suite Variable
    ...    ${env}
    ...    {"KUBECONFIG":"./${kubeconfig.key}"}
