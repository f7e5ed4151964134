*** Settings ***
Documentation       Measures replica availability and rollout condition of one Deployment as a 0-1 score.
Metadata            Author    Marcus Oyelaran
Metadata            Display Name    Deployment Availability Score
Metadata            Supports    Kubernetes,AKS,EKS,GKE,OpenShift
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score Ready Replica Ratio for Deployment `${DEPLOYMENT_NAME}`
    [Documentation]    Ready replicas divided by desired replicas, capped at 1.
    [Tags]    replicas    access:read-only
    ${ratio}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get deployment ${DEPLOYMENT_NAME} -n ${NAMESPACE} --context ${CONTEXT} -o json | jq '((.status.readyReplicas // 0) / (if .spec.replicas == 0 then 1 else .spec.replicas end))'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=120
    ${replica_score}=    Evaluate    min(1, float(${ratio.stdout}))
    Set Global Variable    ${replica_score}
    RW.Core.Push Metric    ${replica_score}    sub_name=ready_ratio

Score Rollout Condition for Deployment `${DEPLOYMENT_NAME}`
    [Documentation]    Scores 0 when the Progressing or Available condition is False.
    [Tags]    rollout    access:read-only
    ${cond}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get deployment ${DEPLOYMENT_NAME} -n ${NAMESPACE} --context ${CONTEXT} -o json | jq '[.status.conditions[]? | select(.status=="False")] | length'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=120
    ${condition_score}=    Evaluate    1 if int(${cond.stdout}) == 0 else 0
    Set Global Variable    ${condition_score}
    RW.Core.Push Metric    ${condition_score}    sub_name=conditions

Generate Deployment Availability Score
    [Documentation]    Averages the sub-scores.
    [Tags]    score    access:read-only
    ${health_score}=    Evaluate    (${replica_score} + ${condition_score}) / 2
    ${health_score}=    Convert to Number    ${health_score}    2
    RW.Core.Add to Report    Deployment availability: ${health_score}
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
