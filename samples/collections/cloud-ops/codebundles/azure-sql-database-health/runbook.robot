*** Settings ***
Documentation       Checks an Azure SQL database for compute saturation, storage use, deadlocks, failed connections and geo-replication state.
Metadata            Author    Ravi Shankar
Metadata            Display Name    Azure SQL Database Health
Metadata            Supports    Azure,SQL,Database
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Check DTU or vCore Utilisation for Azure SQL Database `${SQL_DATABASE}`
    [Documentation]    Reads dtu_consumption_percent or cpu_percent, whichever the tier reports.
    [Tags]    azure    sql    cpu    access:read-only    data:metrics
    ${cpu}=    RW.CLI.Run Cli
    ...    cmd=az account set --subscription ${AZURE_SUBSCRIPTION_ID} 2>/dev/null; id=$(az sql db show -g ${AZ_RESOURCE_GROUP} -s ${SQL_SERVER} -n ${SQL_DATABASE} --query id -o tsv); for m in dtu_consumption_percent cpu_percent; do az monitor metrics list --resource $id --metric $m --aggregation Maximum --offset 1h -o json 2>/dev/null | jq '[.value[0].timeseries[0].data[].maximum // 0] | max'; done | sort -n | tail -1
    ...    env=${env}
    ...    secret__azure_credentials=${azure_credentials}
    IF    float(${cpu.stdout}) > ${UTILISATION_LIMIT}
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Below ${UTILISATION_LIMIT}%
        ...    actual=${cpu.stdout}%
        ...    title=Azure SQL Database `${SQL_DATABASE}` Is Compute Saturated
        ...    reproduce_hint=${cpu.cmd}
        ...    details=${cpu.stdout}
        ...    next_steps=Use Query Performance Insight for the top queries\nScale up the service objective
    END

Check Storage Used for Azure SQL Database `${SQL_DATABASE}`
    [Documentation]    Compares storage_percent with 90%.
    [Tags]    azure    sql    storage    access:read-only    data:metrics
    ${stor}=    RW.CLI.Run Cli
    ...    cmd=az account set --subscription ${AZURE_SUBSCRIPTION_ID} 2>/dev/null; az monitor metrics list --resource $(az sql db show -g ${AZ_RESOURCE_GROUP} -s ${SQL_SERVER} -n ${SQL_DATABASE} --query id -o tsv) --metric storage_percent --aggregation Maximum --interval PT5M --offset 1h -o json | jq '[.value[0].timeseries[0].data[].maximum // 0] | max | select(. > 90)'
    ...    env=${env}
    ...    secret__azure_credentials=${azure_credentials}
    ...    timeout_seconds=180
    IF    len($stor.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Below 90% of max size
        ...    actual=${stor.stdout}%
        ...    title=Azure SQL Database `${SQL_DATABASE}` Storage Almost Full
        ...    reproduce_hint=${stor.cmd}
        ...    details=${stor.stdout}
        ...    next_steps=Raise max size or purge old data
    END
    RW.Core.Add Pre To Report    Azure SQL Database `${SQL_DATABASE}` Storage Almost Full:\n${stor.stdout}

Count Deadlocks and Failed Connections for `${SQL_DATABASE}`
    [Documentation]    Sums the deadlock and connection_failed metrics over the last hour.
    [Tags]    azure    sql    access:read-only    data:metrics
    ${dl}=    RW.CLI.Run Cli
    ...    cmd=az account set --subscription ${AZURE_SUBSCRIPTION_ID} 2>/dev/null; id=$(az sql db show -g ${AZ_RESOURCE_GROUP} -s ${SQL_SERVER} -n ${SQL_DATABASE} --query id -o tsv); for m in deadlock connection_failed blocked_by_firewall; do echo -n "$m="; az monitor metrics list --resource $id --metric $m --aggregation Total --offset 1h -o json | jq '[.value[0].timeseries[0].data[].total // 0] | add'; done
    ...    env=${env}
    ...    secret__azure_credentials=${azure_credentials}
    RW.Core.Add Pre To Report    ${dl.stdout}

Check Geo-Replication Link State for `${SQL_DATABASE}`
    [Documentation]    Reports replication links that are not CATCH_UP.
    [Tags]    azure    sql    replication    access:read-only    data:config
    ${geo}=    RW.CLI.Run Cli
    ...    cmd=az account set --subscription ${AZURE_SUBSCRIPTION_ID} 2>/dev/null; az sql db replica list-links -g ${AZ_RESOURCE_GROUP} -s ${SQL_SERVER} -n ${SQL_DATABASE} --query "[?replicationState!='CATCH_UP'].[partnerServer, replicationState, role]" -o tsv
    ...    env=${env}
    ...    secret__azure_credentials=${azure_credentials}
    ...    timeout_seconds=180
    IF    len($geo.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Links in CATCH_UP state
        ...    actual=${geo.stdout}
        ...    title=Geo-Replication of `${SQL_DATABASE}` Is Not Caught Up
        ...    reproduce_hint=${geo.cmd}
        ...    details=${geo.stdout}
        ...    next_steps=Check the partner server and network between regions
    END
    RW.Core.Add Pre To Report    Geo-Replication of `${SQL_DATABASE}` Is Not Caught Up:\n${geo.stdout}


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
    ${SQL_SERVER}=    RW.Core.Import User Variable    SQL_SERVER
    ...    type=string
    ...    description=Logical SQL server name.
    ...    pattern=\w*
    ...    example=sql-shop-weu
    ${SQL_DATABASE}=    RW.Core.Import User Variable    SQL_DATABASE
    ...    type=string
    ...    description=Database name.
    ...    pattern=\w*
    ...    example=orders
    ${UTILISATION_LIMIT}=    RW.Core.Import User Variable    UTILISATION_LIMIT
    ...    type=integer
    ...    description=DTU or vCore percentage considered saturated.
    ...    pattern=\w*
    ...    example=80
    ...    default=85
    Set Suite Variable    ${AZ_RESOURCE_GROUP}    ${AZ_RESOURCE_GROUP}
    Set Suite Variable    ${AZURE_SUBSCRIPTION_ID}    ${AZURE_SUBSCRIPTION_ID}
    Set Suite Variable    ${SQL_SERVER}    ${SQL_SERVER}
    Set Suite Variable    ${SQL_DATABASE}    ${SQL_DATABASE}
    Set Suite Variable    ${UTILISATION_LIMIT}    ${UTILISATION_LIMIT}
    Set Suite Variable
    ...    ${env}
    ...    {"AZ_RESOURCE_GROUP":"${AZ_RESOURCE_GROUP}", "AZURE_SUBSCRIPTION_ID":"${AZURE_SUBSCRIPTION_ID}"}