*** Settings ***
Documentation       Scores storage health of a namespace from pending claims and volume fill level.
Metadata            Author    Lena Fischbach
Metadata            Display Name    Kubernetes Namespace Capacity
Metadata            Supports    Kubernetes,AKS,EKS,GKE
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score Pending Claims in Namespace `${NAMESPACE}`
    [Documentation]    Scores 1 when no claim is Pending.
    [Tags]    pvc    access:read-only
    ${pc}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get pvc -n ${NAMESPACE} --context ${CONTEXT} -o json | jq '[.items[] | select(.status.phase=="Pending")] | length'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=120
    ${pending_score}=    Evaluate    1 if int(${pc.stdout}) == 0 else 0
    Set Global Variable    ${pending_score}
    RW.Core.Push Metric    ${pending_score}    sub_name=pending_claims

Score Volume Fill Level in Namespace `${NAMESPACE}`
    [Documentation]    Scores 1 when every volume is under the threshold.
    [Tags]    disk    access:read-only
    ${fill}=    RW.CLI.Run Bash File
    ...    bash_file=volume_fill_level.sh
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    include_in_history=False
    ...    timeout_seconds=240
    ${over}=    Evaluate    len(json.loads(r'''${fill.stdout}'''))    json
    ${fill_score}=    Evaluate    1 if ${over} == 0 else 0
    Set Global Variable    ${fill_score}
    RW.Core.Push Metric    ${fill_score}    sub_name=fill_level

Generate Namespace Storage Score
    [Documentation]    Averages the sub-scores.
    [Tags]    score    access:read-only
    ${health_score}=    Evaluate    (${pending_score} + ${fill_score}) / 2
    ${health_score}=    Convert to Number    ${health_score}    2
    RW.Core.Add to Report    Storage score: ${health_score}
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
    ${DISK_USAGE_THRESHOLD}=    RW.Core.Import User Variable    DISK_USAGE_THRESHOLD
    ...    type=integer
    ...    description=Filesystem usage percentage that counts as nearly full.
    ...    pattern=\w*
    ...    example=80
    ...    default=80
    Set Suite Variable    ${CONTEXT}    ${CONTEXT}
    Set Suite Variable    ${NAMESPACE}    ${NAMESPACE}
    Set Suite Variable    ${KUBECTL}    ${KUBECTL}
    Set Suite Variable    ${DISK_USAGE_THRESHOLD}    ${DISK_USAGE_THRESHOLD}
    Set Suite Variable
    ...    ${env}
    ...    {"KUBECONFIG":"./${kubeconfig.key}", "NAMESPACE":"${NAMESPACE}", "CONTEXT":"${CONTEXT}"}
