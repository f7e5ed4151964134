*** Settings ***
Documentation       Scores a web app on 5xx volume and running state.
Metadata            Author    Hannah Lindqvist
Metadata            Display Name    Azure App Service Score
Metadata            Supports    Azure,AppService,WebApp
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score App Service 5xx Volume for `${APP_SERVICE_NAME}`
    [Documentation]    Scores 1 at or below MAX_5XX.
    [Tags]    azure    access:read-only
    ${h5}=    RW.CLI.Run Cli
    ...    cmd=az account set --subscription ${AZURE_SUBSCRIPTION_ID} 2>/dev/null; az monitor metrics list --resource $(az webapp show -g ${AZ_RESOURCE_GROUP} -n ${APP_SERVICE_NAME} --query id -o tsv) --metric Http5xx --aggregation Total --interval PT5M --offset 15m -o json | jq '[.value[0].timeseries[0].data[].total // 0] | add'
    ...    env=${env}
    ...    secret__azure_credentials=${azure_credentials}
    ...    timeout_seconds=120
    ${err_score}=    Evaluate    1 if float(${h5.stdout}) <= ${MAX_5XX} else 0
    Set Global Variable    ${err_score}
    RW.Core.Push Metric    ${err_score}    sub_name=http5xx

Score App Service Availability for `${APP_SERVICE_NAME}`
    [Documentation]    Scores 1 when the app is Running.
    [Tags]    azure    access:read-only
    ${run}=    RW.CLI.Run Cli
    ...    cmd=az account set --subscription ${AZURE_SUBSCRIPTION_ID} 2>/dev/null; az webapp show -g ${AZ_RESOURCE_GROUP} -n ${APP_SERVICE_NAME} --query state -o tsv
    ...    env=${env}
    ...    secret__azure_credentials=${azure_credentials}
    ...    timeout_seconds=120
    ${state_score}=    Evaluate    1 if "${run.stdout}".strip() == "Running" else 0
    Set Global Variable    ${state_score}
    RW.Core.Push Metric    ${state_score}    sub_name=state

Generate App Service Score
    [Documentation]    Averages the sub-scores.
    [Tags]    score    access:read-only
    ${health_score}=    Evaluate    (${err_score} + ${state_score}) / 2
    ${health_score}=    Convert to Number    ${health_score}    2
    RW.Core.Add to Report    App Service score: ${health_score}
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
    ${APP_SERVICE_NAME}=    RW.Core.Import User Variable    APP_SERVICE_NAME
    ...    type=string
    ...    description=Name of the web app.
    ...    pattern=\w*
    ...    example=shop-frontend-weu
    ${MAX_5XX}=    RW.Core.Import User Variable    MAX_5XX
    ...    type=integer
    ...    description=HTTP 5xx responses per hour that are acceptable.
    ...    pattern=\w*
    ...    example=25
    ...    default=10
    Set Suite Variable    ${AZ_RESOURCE_GROUP}    ${AZ_RESOURCE_GROUP}
    Set Suite Variable    ${AZURE_SUBSCRIPTION_ID}    ${AZURE_SUBSCRIPTION_ID}
    Set Suite Variable    ${APP_SERVICE_NAME}    ${APP_SERVICE_NAME}
    Set Suite Variable    ${MAX_5XX}    ${MAX_5XX}
    Set Suite Variable
    ...    ${env}
    ...    {"AZ_RESOURCE_GROUP":"${AZ_RESOURCE_GROUP}", "AZURE_SUBSCRIPTION_ID":"${AZURE_SUBSCRIPTION_ID}"}
