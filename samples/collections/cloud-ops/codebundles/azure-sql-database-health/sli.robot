*** Settings ***
Documentation       Scores an Azure SQL database on compute and storage headroom.
Metadata            Author    Ravi Shankar
Metadata            Display Name    Azure SQL Database Score
Metadata            Supports    Azure,SQL,Database
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score Compute Headroom for `${SQL_DATABASE}`
    [Documentation]    Scores 1 below the utilisation limit.
    [Tags]    azure    sql    access:read-only
    ${c}=    RW.CLI.Run Cli
    ...    cmd=az account set --subscription ${AZURE_SUBSCRIPTION_ID} 2>/dev/null; az monitor metrics list --resource $(az sql db show -g ${AZ_RESOURCE_GROUP} -s ${SQL_SERVER} -n ${SQL_DATABASE} --query id -o tsv) --metric cpu_percent --aggregation Average --interval PT5M --offset 15m -o json | jq '[.value[0].timeseries[0].data[].average // 0] | max'
    ...    env=${env}
    ...    secret__azure_credentials=${azure_credentials}
    ...    timeout_seconds=120
    ${cpu_score}=    Evaluate    1 if float(${c.stdout}) < ${UTILISATION_LIMIT} else 0
    Set Global Variable    ${cpu_score}
    RW.Core.Push Metric    ${cpu_score}    sub_name=compute

Score Storage Headroom for `${SQL_DATABASE}`
    [Documentation]    Scores 1 below 90% storage.
    [Tags]    azure    sql    access:read-only
    ${s}=    RW.CLI.Run Cli
    ...    cmd=az account set --subscription ${AZURE_SUBSCRIPTION_ID} 2>/dev/null; az monitor metrics list --resource $(az sql db show -g ${AZ_RESOURCE_GROUP} -s ${SQL_SERVER} -n ${SQL_DATABASE} --query id -o tsv) --metric storage_percent --aggregation Maximum --interval PT5M --offset 15m -o json | jq '[.value[0].timeseries[0].data[].maximum // 0] | max'
    ...    env=${env}
    ...    secret__azure_credentials=${azure_credentials}
    ...    timeout_seconds=120
    ${storage_score}=    Evaluate    1 if float(${s.stdout}) < 90 else 0
    Set Global Variable    ${storage_score}
    RW.Core.Push Metric    ${storage_score}    sub_name=storage

Generate Azure SQL Score
    [Documentation]    Averages the sub-scores.
    [Tags]    score    access:read-only
    ${health_score}=    Evaluate    (${cpu_score} + ${storage_score}) / 2
    ${health_score}=    Convert to Number    ${health_score}    2
    RW.Core.Add to Report    Azure SQL score: ${health_score}
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