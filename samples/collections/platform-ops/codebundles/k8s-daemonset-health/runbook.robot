*** Settings ***
Documentation    Quick triage for node agent DaemonSets such as log shippers: pods not running, agent errors and output retries.
Metadata    Author    Farah Haddad
Metadata    Display Name    Node Agent DaemonSet Triage
Metadata    Supports    Kubernetes
Library    RW.Core
Library    RW.CLI
Library    RW.platform
Library    OperatingSystem
Library    String

Suite Setup    Suite Initialization


*** Tasks ***
Get Agent Pods Not Running
    ${np}=    RW.CLI.Run Cli
    ...    cmd=kubectl get pods -n ${NAMESPACE} --context ${CONTEXT} -l app.kubernetes.io/name=${DAEMONSET_NAME} --field-selector status.phase!=Running -o wide
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    RW.Core.Add Pre To Report    ${np.stdout}

Grep Agent Logs for Output Retries and Buffer Overflows
    ${lg}=    RW.CLI.Run Cli
    ...    cmd=kubectl logs -n ${NAMESPACE} --context ${CONTEXT} -l app.kubernetes.io/name=${DAEMONSET_NAME} --since=30m --tail=500 --prefix | grep -Ei 'retry|buffer|overflow|chunk|backpressure' | tail -n 50
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    RW.Core.Add Pre To Report    ${lg.stdout}


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
