*** Settings ***
Documentation       Scores autoscalers in a namespace on headroom and metric availability.
Metadata            Author    Ana Lucía Ortega
Metadata            Display Name    Autoscaler Headroom Score
Metadata            Supports    Kubernetes,AKS,EKS,GKE,OpenShift
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score Autoscalers With Headroom in Namespace `${NAMESPACE}`
    [Documentation]    Fraction of autoscalers below maxReplicas.
    [Tags]    hpa    access:read-only
    ${hr}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get hpa -n ${NAMESPACE} --context ${CONTEXT} -o json | jq '(.items | length) as $n | if $n == 0 then 1 else ([.items[] | select(.status.currentReplicas < .spec.maxReplicas)] | length) / $n end'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=120
    ${headroom_score}=    Evaluate    float(${hr.stdout})
    Set Global Variable    ${headroom_score}
    RW.Core.Push Metric    ${headroom_score}    sub_name=headroom

Score Autoscaler Metric Health in Namespace `${NAMESPACE}`
    [Documentation]    Scores 1 when every autoscaler can read metrics.
    [Tags]    hpa    access:read-only
    ${mh}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get hpa -n ${NAMESPACE} --context ${CONTEXT} -o json | jq '[.items[].status.conditions[]? | select(.type=="ScalingActive" and .status=="False")] | length'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=120
    ${metric_score}=    Evaluate    1 if int(${mh.stdout}) == 0 else 0
    Set Global Variable    ${metric_score}
    RW.Core.Push Metric    ${metric_score}    sub_name=metrics

Generate Autoscaler Score for Namespace `${NAMESPACE}`
    [Documentation]    Averages the sub-scores.
    [Tags]    score    access:read-only
    ${health_score}=    Evaluate    (${headroom_score} + ${metric_score}) / 2
    ${health_score}=    Convert to Number    ${health_score}    2
    RW.Core.Add to Report    Autoscaler score: ${health_score}
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
    Set Suite Variable    ${CONTEXT}    ${CONTEXT}
    Set Suite Variable    ${NAMESPACE}    ${NAMESPACE}
    Set Suite Variable    ${KUBECTL}    ${KUBECTL}
    Set Suite Variable
    ...    ${env}
    ...    {"KUBECONFIG":"./${kubeconfig.key}", "NAMESPACE":"${NAMESPACE}", "CONTEXT":"${CONTEXT}"}
