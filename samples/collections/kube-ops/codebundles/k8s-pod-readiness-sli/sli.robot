*** Settings ***
Documentation       Measures readiness and restart stability of the pods selected by a label in one namespace.
Metadata            Author    Daniel Okafor
Metadata            Display Name    Labeled Pod Readiness
Metadata            Supports    Kubernetes
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score Ready Pods Matching `${LABEL_SELECTOR}` in Namespace `${NAMESPACE}`
    [Documentation]    Fraction of selected pods that are Ready.
    [Tags]    pods    access:read-only    data:config
    ${rp}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get pods -n ${NAMESPACE} --context ${CONTEXT} -l ${LABEL_SELECTOR} -o json | jq '(.items | length) as $n | if $n == 0 then 0 else ([.items[] | select([.status.conditions[]? | select(.type=="Ready" and .status=="True")] | length > 0)] | length) / $n end'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=120
    ${ready_score}=    Evaluate    float(${rp.stdout})
    Set Global Variable    ${ready_score}
    RW.Core.Push Metric    ${ready_score}    sub_name=ready

Score Pods Without Recent Restarts Matching `${LABEL_SELECTOR}`
    [Documentation]    Scores 1 when no selected container restarted in the last hour.
    [Tags]    restarts    access:read-only    data:config
    ${rr}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get pods -n ${NAMESPACE} --context ${CONTEXT} -l ${LABEL_SELECTOR} -o json | jq '[.items[].status.containerStatuses[]? | select(.lastState.terminated.finishedAt) | select((now - (.lastState.terminated.finishedAt | fromdateiso8601)) < 3600)] | length'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=120
    ${restart_score}=    Evaluate    1 if int(${rr.stdout}) == 0 else 0
    Set Global Variable    ${restart_score}
    RW.Core.Push Metric    ${restart_score}    sub_name=restarts

Generate Labeled Pod Readiness Score
    [Documentation]    Averages the sub-scores.
    [Tags]    score    access:read-only
    ${health_score}=    Evaluate    (${ready_score} + ${restart_score}) / 2
    ${health_score}=    Convert to Number    ${health_score}    2
    RW.Core.Add to Report    Labeled pod readiness: ${health_score}
    RW.Core.Push Metric    ${health_score}


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
    ${LABEL_SELECTOR}=    RW.Core.Import User Variable    LABEL_SELECTOR
    ...    type=string
    ...    description=Label selector of the pods to measure.
    ...    pattern=\w*
    ...    example=tier=frontend
    Set Suite Variable    ${CONTEXT}    ${CONTEXT}
    Set Suite Variable    ${NAMESPACE}    ${NAMESPACE}
    Set Suite Variable    ${KUBECTL}    ${KUBECTL}
    Set Suite Variable    ${LABEL_SELECTOR}    ${LABEL_SELECTOR}
    Set Suite Variable
    ...    ${env}
    ...    {"KUBECONFIG":"./${kubeconfig.key}", "NAMESPACE":"${NAMESPACE}", "CONTEXT":"${CONTEXT}"}
