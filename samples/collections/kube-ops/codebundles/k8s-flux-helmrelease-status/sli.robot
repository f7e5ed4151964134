*** Settings ***
Documentation       Scores the share of HelmReleases and Kustomizations that are Ready.
Metadata            Author    Sven Aalto
Metadata            Display Name    Flux Reconciliation Score
Metadata            Supports    Kubernetes,FluxCD,Helm,GitOps
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score Ready HelmReleases in Namespace `${NAMESPACE}`
    [Documentation]    Fraction of Ready HelmReleases.
    [Tags]    helm    access:read-only
    ${hrs}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get helmreleases.helm.toolkit.fluxcd.io -n ${NAMESPACE} --context ${CONTEXT} -o json | jq '(.items | length) as $n | if $n == 0 then 1 else ([.items[] | select([.status.conditions[]? | select(.type=="Ready" and .status=="True")] | length > 0)] | length) / $n end'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=120
    ${hr_score}=    Evaluate    float(${hrs.stdout})
    Set Global Variable    ${hr_score}
    RW.Core.Push Metric    ${hr_score}    sub_name=helmreleases

Score Ready Kustomizations in Namespace `${NAMESPACE}`
    [Documentation]    Fraction of Ready Kustomizations.
    [Tags]    kustomize    access:read-only
    ${kss}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get kustomizations.kustomize.toolkit.fluxcd.io -n ${NAMESPACE} --context ${CONTEXT} -o json | jq '(.items | length) as $n | if $n == 0 then 1 else ([.items[] | select([.status.conditions[]? | select(.type=="Ready" and .status=="True")] | length > 0)] | length) / $n end'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=120
    ${ks_score}=    Evaluate    float(${kss.stdout})
    Set Global Variable    ${ks_score}
    RW.Core.Push Metric    ${ks_score}    sub_name=kustomizations

Generate Flux Reconciliation Score
    [Documentation]    Averages the sub-scores.
    [Tags]    score    access:read-only
    ${health_score}=    Evaluate    (${hr_score} + ${ks_score}) / 2
    ${health_score}=    Convert to Number    ${health_score}    2
    RW.Core.Add to Report    Flux score: ${health_score}
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
    ...    example=flux-system
    ...    default=flux-system
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
