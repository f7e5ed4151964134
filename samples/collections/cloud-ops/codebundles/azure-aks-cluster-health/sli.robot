*** Settings ***
Documentation       Scores an AKS cluster on provisioning state and node pool state.
Metadata            Author    Hannah Lindqvist
Metadata            Display Name    Azure AKS Cluster Score
Metadata            Supports    Azure,AKS,Kubernetes
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score AKS Cluster `${AKS_CLUSTER}` Provisioning State
    [Documentation]    Scores 1 when Succeeded and Running.
    [Tags]    azure    aks    access:read-only
    ${ps}=    RW.CLI.Run Cli
    ...    cmd=az account set --subscription ${AZURE_SUBSCRIPTION_ID} 2>/dev/null; az aks show -g ${AZ_RESOURCE_GROUP} -n ${AKS_CLUSTER} --query '[provisioningState, powerState.code]' -o tsv | paste -sd' '
    ...    env=${env}
    ...    secret__azure_credentials=${azure_credentials}
    ...    timeout_seconds=120
    ${cluster_score}=    Evaluate    1 if "${ps.stdout}".strip() == "Succeeded Running" else 0
    Set Global Variable    ${cluster_score}
    RW.Core.Push Metric    ${cluster_score}    sub_name=cluster_state

Score Node Pools in Succeeded State for `${AKS_CLUSTER}`
    [Documentation]    Fraction of node pools that Succeeded.
    [Tags]    azure    aks    access:read-only
    ${nps}=    RW.CLI.Run Cli
    ...    cmd=az account set --subscription ${AZURE_SUBSCRIPTION_ID} 2>/dev/null; az aks nodepool list -g ${AZ_RESOURCE_GROUP} --cluster-name ${AKS_CLUSTER} -o json | jq 'if length == 0 then 1 else ([.[] | select(.provisioningState=="Succeeded")] | length) / length end'
    ...    env=${env}
    ...    secret__azure_credentials=${azure_credentials}
    ...    timeout_seconds=120
    ${pool_score}=    Evaluate    float(${nps.stdout})
    Set Global Variable    ${pool_score}
    RW.Core.Push Metric    ${pool_score}    sub_name=node_pools

Generate AKS Cluster Score for `${AKS_CLUSTER}`
    [Documentation]    Averages the sub-scores.
    [Tags]    score    access:read-only
    ${health_score}=    Evaluate    (${cluster_score} + ${pool_score}) / 2
    ${health_score}=    Convert to Number    ${health_score}    2
    RW.Core.Add to Report    AKS score: ${health_score}
    RW.Core.Push Metric    ${health_score}


*** Keywords ***
Suite Initialization
    ${azure_credentials}=    RW.Core.Import Secret
    ...    azure_credentials
    ...    type=string
    ...    description=Service principal credentials (tenant, client id, secret, subscription).
    ...    pattern=\w*
    ...    example=A secret with AZURE_CLIENT_ID, AZURE_TENANT_ID, AZURE_CLIENT_SECRET, AZURE_SUBSCRIPTION_ID
    ${AZ_RESOURCE_GROUP}=    RW.Core.Import User Variable    AZ_RESOURCE_GROUP
    ...    type=string
    ...    description=Resource group that holds the resource.
    ...    pattern=\w*
    ...    example=rg-shop-prod
    ${AZURE_SUBSCRIPTION_ID}=    RW.Core.Import User Variable    AZURE_SUBSCRIPTION_ID
    ...    type=string
    ...    description=Subscription id. Empty means the default subscription of the credentials.
    ...    pattern=\w*
    ...    example=00000000-0000-0000-0000-000000000000
    ...    default=
    ${AKS_CLUSTER}=    RW.Core.Import User Variable    AKS_CLUSTER
    ...    type=string
    ...    description=Name of the AKS cluster.
    ...    pattern=\w*
    ...    example=aks-shop-weu
    Set Suite Variable    ${AZ_RESOURCE_GROUP}    ${AZ_RESOURCE_GROUP}
    Set Suite Variable    ${AZURE_SUBSCRIPTION_ID}    ${AZURE_SUBSCRIPTION_ID}
    Set Suite Variable    ${AKS_CLUSTER}    ${AKS_CLUSTER}
    Set Suite Variable
    ...    ${env}
    ...    {"AZ_RESOURCE_GROUP":"${AZ_RESOURCE_GROUP}", "AZURE_SUBSCRIPTION_ID":"${AZURE_SUBSCRIPTION_ID}"}
