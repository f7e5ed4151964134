*** Settings ***
Documentation       Scores the share of Argo CD Applications that are Synced and Healthy.
Metadata            Author    Sven Aalto
Metadata            Display Name    Argo CD Sync Health Score
Metadata            Supports    Kubernetes,ArgoCD,GitOps
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score Synced and Healthy Applications in `${ARGOCD_NAMESPACE}`
    [Documentation]    Pushes the fraction of Applications that are both Synced and Healthy.
    [Tags]    argocd    access:read-only
    ${sh}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get applications.argoproj.io -n ${ARGOCD_NAMESPACE} --context ${CONTEXT} -o json | jq '(.items | length) as $n | if $n == 0 then 1 else ([.items[] | select(.status.sync.status=="Synced" and .status.health.status=="Healthy")] | length) / $n end'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ${app_score}=    Convert to Number    ${sh.stdout}    2
    RW.Core.Push Metric    ${app_score}


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
    ${ARGOCD_NAMESPACE}=    RW.Core.Import User Variable    ARGOCD_NAMESPACE
    ...    type=string
    ...    description=Namespace where Argo CD and its Application objects live.
    ...    pattern=\w*
    ...    example=argocd
    ...    default=argocd
    ${APPLICATION_NAME}=    RW.Core.Import User Variable    APPLICATION_NAME
    ...    type=string
    ...    description=Application to inspect in detail. Leave as ALL to only run the summary.
    ...    pattern=\w*
    ...    example=storefront
    ...    default=ALL
    Set Suite Variable    ${CONTEXT}    ${CONTEXT}
    Set Suite Variable    ${KUBECTL}    ${KUBECTL}
    Set Suite Variable    ${ARGOCD_NAMESPACE}    ${ARGOCD_NAMESPACE}
    Set Suite Variable    ${APPLICATION_NAME}    ${APPLICATION_NAME}
    Set Suite Variable
    ...    ${env}
    ...    {"KUBECONFIG":"./${kubeconfig.key}", "CONTEXT":"${CONTEXT}"}
