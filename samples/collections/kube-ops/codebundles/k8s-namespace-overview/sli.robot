*** Settings ***
Documentation       Combines event volume, pod readiness and service endpoint coverage into one namespace score.
Metadata            Author    Priya Raman
Metadata            Display Name    Namespace Health Score
Metadata            Supports    Kubernetes,AKS,EKS,GKE,OpenShift
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score Warning Event Volume in Namespace `${NAMESPACE}`
    [Documentation]    Scores 1 when warnings are under the limit.
    [Tags]    events    access:read-only
    ${evc}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get events -n ${NAMESPACE} --context ${CONTEXT} --field-selector type=Warning -o json | jq '.items | length'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=120
    ${event_score}=    Evaluate    1 if int(${evc.stdout}) <= int(${MAX_WARNING_EVENTS}) else 0
    Set Global Variable    ${event_score}
    RW.Core.Push Metric    ${event_score}    sub_name=warning_events

Score Pod Readiness in Namespace `${NAMESPACE}`
    [Documentation]    Scores 1 when every pod is ready.
    [Tags]    pods    access:read-only
    ${nr}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get pods -n ${NAMESPACE} --context ${CONTEXT} -o json | jq '[.items[] | select(.status.phase=="Running") | select([.status.containerStatuses[]? | select(.ready|not)] | length > 0)] | length'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=120
    ${ready_score}=    Evaluate    1 if int(${nr.stdout}) == 0 else 0
    Set Global Variable    ${ready_score}
    RW.Core.Push Metric    ${ready_score}    sub_name=pod_readiness

Score Service Endpoint Coverage in Namespace `${NAMESPACE}`
    [Documentation]    Scores 1 when no Service lacks endpoints.
    [Tags]    services    access:read-only
    ${ep}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get endpoints -n ${NAMESPACE} --context ${CONTEXT} -o json | jq '[.items[] | select(([.subsets[]?.addresses[]?] | length) == 0)] | length'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=120
    ${endpoint_score}=    Evaluate    1 if int(${ep.stdout}) == 0 else 0
    Set Global Variable    ${endpoint_score}
    RW.Core.Push Metric    ${endpoint_score}    sub_name=endpoints

Generate Namespace Health Score for `${NAMESPACE}`
    [Documentation]    Averages the three sub-scores.
    [Tags]    score    access:read-only
    ${health_score}=    Evaluate    (${event_score} + ${ready_score} + ${endpoint_score}) / 3
    ${health_score}=    Convert to Number    ${health_score}    2
    RW.Core.Add to Report    Namespace health: ${health_score}
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
    ...    enum=[kubectl,oc]
    ...    example=kubectl
    ...    default=kubectl
    ${MAX_WARNING_EVENTS}=    RW.Core.Import User Variable    MAX_WARNING_EVENTS
    ...    type=int
    ...    description=Warning events tolerated before the namespace is flagged.
    ...    pattern=\w*
    ...    example=20
    ...    default=20
    Set Suite Variable    ${CONTEXT}    ${CONTEXT}
    Set Suite Variable    ${NAMESPACE}    ${NAMESPACE}
    Set Suite Variable    ${KUBECTL}    ${KUBECTL}
    Set Suite Variable    ${MAX_WARNING_EVENTS}    ${MAX_WARNING_EVENTS}
    Set Suite Variable
    ...    ${env}
    ...    {"KUBECONFIG":"./${kubeconfig.key}", "NAMESPACE":"${NAMESPACE}", "CONTEXT":"${CONTEXT}"}
