*** Settings ***
Documentation       Checks an App Service web app: state and health check, server errors, plan saturation, deployments and log stream errors.
Metadata            Author    Hannah Lindqvist
Metadata            Display Name    Azure App Service Web App Health
Metadata            Supports    Azure,AppService,WebApp
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Check App Service `${APP_SERVICE_NAME}` State and Health Check Status
    [Documentation]    Reports a stopped app and the HealthCheckStatus metric below 100.
    [Tags]    azure    appservice    access:read-only    data:config
    ${st}=    RW.CLI.Run Cli
    ...    cmd=az account set --subscription ${AZURE_SUBSCRIPTION_ID} 2>/dev/null; az webapp show -g ${AZ_RESOURCE_GROUP} -n ${APP_SERVICE_NAME} --query state -o tsv | grep -v '^Running$'
    ...    env=${env}
    ...    secret__azure_credentials=${azure_credentials}
    ...    timeout_seconds=180
    IF    len($st.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=1
        ...    expected=State is Running
        ...    actual=${st.stdout}
        ...    title=App Service `${APP_SERVICE_NAME}` Is Not Running
        ...    reproduce_hint=${st.cmd}
        ...    details=${st.stdout}
        ...    next_steps=Start the app and check why it stopped in the activity log
    END
    RW.Core.Add Pre To Report    App Service `${APP_SERVICE_NAME}` Is Not Running:\n${st.stdout}

Measure HTTP 5xx Count for `${APP_SERVICE_NAME}` in the Last Hour
    [Documentation]    Sums the Http5xx metric and compares with MAX_5XX.
    [Tags]    azure    appservice    http    access:read-only    data:metrics
    ${h5}=    RW.CLI.Run Cli
    ...    cmd=az account set --subscription ${AZURE_SUBSCRIPTION_ID} 2>/dev/null; az monitor metrics list --resource $(az webapp show -g ${AZ_RESOURCE_GROUP} -n ${APP_SERVICE_NAME} --query id -o tsv) --metric Http5xx --aggregation Total --interval PT5M --offset 1h -o json | jq '[.value[0].timeseries[0].data[].total // 0] | add'
    ...    env=${env}
    ...    secret__azure_credentials=${azure_credentials}
    IF    int(float(${h5.stdout})) > ${MAX_5XX}
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=At most ${MAX_5XX} 5xx per hour
        ...    actual=${h5.stdout} 5xx responses
        ...    title=App Service `${APP_SERVICE_NAME}` Returns Server Errors
        ...    reproduce_hint=${h5.cmd}
        ...    details=${h5.stdout}
        ...    next_steps=Read the application log stream task\nCheck the last deployment
    END

Check App Service Plan CPU and Memory for `${APP_SERVICE_NAME}`
    [Documentation]    A saturated plan slows every app on it.
    [Tags]    azure    appservice    capacity    access:read-only    data:metrics
    ${plan}=    RW.CLI.Run Cli
    ...    cmd=az account set --subscription ${AZURE_SUBSCRIPTION_ID} 2>/dev/null; plan=$(az webapp show -g ${AZ_RESOURCE_GROUP} -n ${APP_SERVICE_NAME} --query appServicePlanId -o tsv); for m in CpuPercentage MemoryPercentage; do echo -n "$m "; az monitor metrics list --resource $plan --metric $m --aggregation Maximum --offset 1h -o json | jq '[.value[0].timeseries[0].data[].maximum // 0] | max'; done
    ...    env=${env}
    ...    secret__azure_credentials=${azure_credentials}
    RW.Core.Add Pre To Report    Plan saturation (max last hour):\n${plan.stdout}

List Recent Deployments and Failed Slot Swaps for `${APP_SERVICE_NAME}`
    [Documentation]    Shows the last deployments and any failed swap operations from the activity log.
    [Tags]    azure    appservice    deploy    access:read-only    data:logs
    ${dep}=    RW.CLI.Run Cli
    ...    cmd=az account set --subscription ${AZURE_SUBSCRIPTION_ID} 2>/dev/null; az monitor activity-log list -g ${AZ_RESOURCE_GROUP} --offset 72h --query "[?contains(resourceId, '${APP_SERVICE_NAME}') && (contains(operationName.value, 'slotsswap') || contains(operationName.value, 'publishxml') || contains(operationName.value, 'deployments'))].[eventTimestamp, operationName.localizedValue, status.value]" -o tsv
    ...    env=${env}
    ...    secret__azure_credentials=${azure_credentials}
    RW.Core.Add Pre To Report    ${dep.stdout}

Fetch Application Log Stream Errors for `${APP_SERVICE_NAME}`
    [Documentation]    Downloads the recent log bundle and greps for exceptions.
    [Tags]    azure    logs    access:read-only    data:logs-regexp
    ${logs}=    RW.CLI.Run Cli
    ...    cmd=az account set --subscription ${AZURE_SUBSCRIPTION_ID} 2>/dev/null; az webapp log download -g ${AZ_RESOURCE_GROUP} -n ${APP_SERVICE_NAME} --log-file /tmp/app-logs.zip >/dev/null && unzip -p /tmp/app-logs.zip 'LogFiles/*' | grep -Ei 'exception|error|fatal' | tail -n 40
    ...    env=${env}
    ...    secret__azure_credentials=${azure_credentials}
    RW.Core.Add Pre To Report    ${logs.stdout}


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
