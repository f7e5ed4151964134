*** Settings ***
Documentation       Scores a cluster on ready nodes and nodes free of resource pressure.
Metadata            Author    Tomasz Wilk
Metadata            Display Name    Cluster Node Readiness
Metadata            Supports    Kubernetes,AKS,EKS,GKE
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score Ready Node Ratio in Cluster `$${CONTEXT}`
    [Documentation]    Fraction of nodes that are Ready.
    [Tags]    nodes    access:read-only
    ${rn}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get nodes --context ${CONTEXT} -o json | jq '([.items[] | select([.status.conditions[] | select(.type=="Ready" and .status=="True")] | length > 0)] | length) / (.items | length)'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=120
    ${ready_score}=    Evaluate    float(${rn.stdout})
    Set Global Variable    ${ready_score}
    RW.Core.Push Metric    ${ready_score}    sub_name=ready_nodes

Score Pressure-Free Nodes in Cluster `${CONTEXT}`
    [Documentation]    Scores 1 when no node reports pressure.
    [Tags]    pressure    access:read-only
    ${pf}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get nodes --context ${CONTEXT} -o json | jq '[.items[].status.conditions[] | select(.type | test("Pressure")) | select(.status=="True")] | length'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=120
    ${pressure_score}=    Evaluate    1 if int(${pf.stdout}) == 0 else 0
    Set Global Variable    ${pressure_score}
    RW.Core.Push Metric    ${pressure_score}    sub_name=pressure

Generate Node Health Score for Cluster `${CONTEXT}`
    [Documentation]    Averages the sub-scores.
    [Tags]    score    access:read-only
    ${health_score}=    Evaluate    (${ready_score} + ${pressure_score}) / 2
    ${health_score}=    Convert to Number    ${health_score}    2
    RW.Core.Add to Report    Node health: ${health_score}
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
