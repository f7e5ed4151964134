*** Settings ***
Documentation       Checks an AKS cluster from the Azure control plane: provisioning and power state, node pools, activity log failures, version support and Advisor findings.
Metadata            Author    Hannah Lindqvist
Metadata            Display Name    Azure AKS Cluster Health
Metadata            Supports    Azure,AKS,Kubernetes
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Check AKS Cluster `${AKS_CLUSTER}` Provisioning and Power State
    [Documentation]    Raises an issue when provisioningState is not Succeeded or the cluster is stopped.
    [Tags]    azure    aks    access:read-only    data:config
    ${ps}=    RW.CLI.Run Cli
    ...    cmd=az account set --subscription ${AZURE_SUBSCRIPTION_ID} 2>/dev/null; az aks show -g ${AZ_RESOURCE_GROUP} -n ${AKS_CLUSTER} --query '[provisioningState, powerState.code]' -o tsv | paste -sd' ' | grep -v '^Succeeded Running$'
    ...    env=${env}
    ...    secret__azure_credentials=${azure_credentials}
    ...    timeout_seconds=180
    IF    len($ps.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=1
        ...    expected=Succeeded and Running
        ...    actual=${ps.stdout}
        ...    title=AKS Cluster `${AKS_CLUSTER}` Is Not Healthy in Azure
        ...    reproduce_hint=${ps.cmd}
        ...    details=${ps.stdout}
        ...    next_steps=Check the activity log for the failed operation\nReconcile the cluster with az aks update
    END
    RW.Core.Add Pre To Report    AKS Cluster `${AKS_CLUSTER}` Is Not Healthy in Azure:\n${ps.stdout}

Check Node Pool Status and Autoscaler Settings for `${AKS_CLUSTER}`
    [Documentation]    Lists node pools with their provisioning state, count, min/max and VM size.
    [Tags]    azure    aks    nodepool    access:read-only    data:config
    ${np}=    RW.CLI.Run Cli
    ...    cmd=az account set --subscription ${AZURE_SUBSCRIPTION_ID} 2>/dev/null; az aks nodepool list -g ${AZ_RESOURCE_GROUP} --cluster-name ${AKS_CLUSTER} --query '[].{name:name,state:provisioningState,count:count,min:minCount,max:maxCount,size:vmSize}' -o table
    ...    env=${env}
    ...    secret__azure_credentials=${azure_credentials}
    IF    "Failed" in $np.stdout
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=All node pools Succeeded
        ...    actual=${np.stdout}
        ...    title=AKS Node Pool Provisioning Failed in `${AKS_CLUSTER}`
        ...    reproduce_hint=${np.cmd}
        ...    details=${np.stdout}
        ...    next_steps=Check VM quota in the region and subnet IP capacity
    END
    RW.Core.Add Pre To Report    ${np.stdout}

List Azure Activity Log Failures for `${AKS_CLUSTER}` in the Last 24 Hours
    [Documentation]    Failed write operations on the managed cluster resource.
    [Tags]    azure    activity-log    access:read-only    data:logs
    ${al}=    RW.CLI.Run Cli
    ...    cmd=az account set --subscription ${AZURE_SUBSCRIPTION_ID} 2>/dev/null; az monitor activity-log list --resource-id $(az aks show -g ${AZ_RESOURCE_GROUP} -n ${AKS_CLUSTER} --query id -o tsv) --offset 24h --query "[?status.value=='Failed'].[eventTimestamp, operationName.localizedValue, properties.statusMessage]" -o tsv
    ...    env=${env}
    ...    secret__azure_credentials=${azure_credentials}
    ...    timeout_seconds=180
    IF    len($al.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=No failed operations
        ...    actual=${al.stdout}
        ...    title=Failed Azure Operations on AKS Cluster `${AKS_CLUSTER}`
        ...    reproduce_hint=${al.cmd}
        ...    details=${al.stdout}
        ...    next_steps=Read statusMessage for the failing policy, quota or permission
    END
    RW.Core.Add Pre To Report    Failed Azure Operations on AKS Cluster `${AKS_CLUSTER}`:\n${al.stdout}

Check Kubernetes Version Support Window for `${AKS_CLUSTER}`
    [Documentation]    Compares the cluster version with the versions AKS still supports in the region.
    [Tags]    azure    aks    upgrade    access:read-only    data:config
    ${ver}=    RW.CLI.Run Bash File
    ...    bash_file=aks_version_support.sh
    ...    env=${env}
    ...    secret__azure_credentials=${azure_credentials}
    ...    include_in_history=False
    ...    timeout_seconds=240
    IF    len($ver.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=A supported minor version
        ...    actual=${ver.stdout}
        ...    title=AKS Cluster `${AKS_CLUSTER}` Runs an Unsupported Kubernetes Version
        ...    reproduce_hint=${ver.cmd}
        ...    details=${ver.stdout}
        ...    next_steps=Plan an upgrade; AKS upgrades one minor version at a time
    END

Review Azure Advisor Recommendations for `${AKS_CLUSTER}`
    [Documentation]    Prints Advisor reliability and security recommendations for the cluster.
    [Tags]    azure    advisor    access:read-only    data:config
    ${adv}=    RW.CLI.Run Cli
    ...    cmd=az account set --subscription ${AZURE_SUBSCRIPTION_ID} 2>/dev/null; az advisor recommendation list --ids $(az aks show -g ${AZ_RESOURCE_GROUP} -n ${AKS_CLUSTER} --query id -o tsv) --query '[].{category:category,impact:impact,problem:shortDescription.problem}' -o table
    ...    env=${env}
    ...    secret__azure_credentials=${azure_credentials}
    RW.Core.Add Pre To Report    ${adv.stdout}


*** Keywords ***
Suite Initialization
    ${azure_credentials}=    RW.Core.Import Secret
    ...    azure_credentials
    ...    type=string
    ...    description=Service principal credentials (tenant, client id, secret, subscription).
    ...    pattern=\w*
    ...    example=A secret with AZURE_CLIENT_ID, AZURE_TENANT_ID, AZURE_CLIENT_SECRET, AZURE_SUBSCRIPTION_ID
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
