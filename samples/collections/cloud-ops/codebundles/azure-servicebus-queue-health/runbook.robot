*** Settings ***
Documentation       Checks a Service Bus queue for backlog and dead-lettered messages and the namespace for errors, throttling and size.
Metadata            Author    Hannah Lindqvist
Metadata            Display Name    Azure Service Bus Queue Health
Metadata            Supports    Azure,ServiceBus,Messaging
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Check Active Message Count for Service Bus Queue `${QUEUE_NAME}`
    [Documentation]    Compares countDetails.activeMessageCount with the limit.
    [Tags]    azure    servicebus    access:read-only    data:metrics
    ${act}=    RW.CLI.Run Cli
    ...    cmd=az account set --subscription ${AZURE_SUBSCRIPTION_ID} 2>/dev/null; az servicebus queue show -g ${AZ_RESOURCE_GROUP} --namespace-name ${SERVICEBUS_NAMESPACE} -n ${QUEUE_NAME} --query countDetails -o json
    ...    env=${env}
    ...    secret__azure_credentials=${azure_credentials}
    ${counts}=    Evaluate    json.loads(r'''${act.stdout}''')    json
    IF    ${counts["activeMessageCount"]} > ${MAX_ACTIVE_MESSAGES}
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Fewer than ${MAX_ACTIVE_MESSAGES} active messages
        ...    actual=${counts["activeMessageCount"]} active messages
        ...    title=Service Bus Queue `${QUEUE_NAME}` Is Backing Up
        ...    reproduce_hint=${act.cmd}
        ...    details=${act.stdout}
        ...    next_steps=Check that receivers are running and completing messages
    END

Check Dead-Lettered Messages in Service Bus Queue `${QUEUE_NAME}`
    [Documentation]    Any dead-lettered message means a receiver gave up on it.
    [Tags]    azure    servicebus    dlq    access:read-only    data:metrics
    ${dlq}=    RW.CLI.Run Cli
    ...    cmd=az account set --subscription ${AZURE_SUBSCRIPTION_ID} 2>/dev/null; az servicebus queue show -g ${AZ_RESOURCE_GROUP} --namespace-name ${SERVICEBUS_NAMESPACE} -n ${QUEUE_NAME} --query countDetails.deadLetterMessageCount -o tsv | awk '$1 > 0'
    ...    env=${env}
    ...    secret__azure_credentials=${azure_credentials}
    ...    timeout_seconds=180
    IF    len($dlq.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=No dead-lettered messages
        ...    actual=${dlq.stdout} messages
        ...    title=Dead-Lettered Messages in Queue `${QUEUE_NAME}`
        ...    reproduce_hint=${dlq.cmd}
        ...    details=${dlq.stdout}
        ...    next_steps=Peek the dead-letter sub-queue for DeadLetterReason\nResubmit after fixing the receiver
    END
    RW.Core.Add Pre To Report    Dead-Lettered Messages in Queue `${QUEUE_NAME}`:\n${dlq.stdout}

Check Server Errors and Throttled Requests for Namespace `${SERVICEBUS_NAMESPACE}`
    [Documentation]    Sums ServerErrors and ThrottledRequests over the last hour.
    [Tags]    azure    servicebus    access:read-only    data:metrics
    ${err}=    RW.CLI.Run Cli
    ...    cmd=az account set --subscription ${AZURE_SUBSCRIPTION_ID} 2>/dev/null; id=$(az servicebus namespace show -g ${AZ_RESOURCE_GROUP} -n ${SERVICEBUS_NAMESPACE} --query id -o tsv); for m in ServerErrors ThrottledRequests UserErrors; do echo -n "$m="; az monitor metrics list --resource $id --metric $m --aggregation Total --offset 1h -o json | jq '[.value[0].timeseries[0].data[].total // 0] | add'; done
    ...    env=${env}
    ...    secret__azure_credentials=${azure_credentials}
    RW.Core.Add Pre To Report    ${err.stdout}

Check Namespace `${SERVICEBUS_NAMESPACE}` Quota and Size
    [Documentation]    Shows SKU, capacity and the size of each queue relative to maxSizeInMegabytes.
    [Tags]    azure    servicebus    capacity    access:read-only    data:config
    ${size}=    RW.CLI.Run Cli
    ...    cmd=az account set --subscription ${AZURE_SUBSCRIPTION_ID} 2>/dev/null; az servicebus queue list -g ${AZ_RESOURCE_GROUP} --namespace-name ${SERVICEBUS_NAMESPACE} --query '[].{queue:name, sizeBytes:sizeInBytes, maxMB:maxSizeInMegabytes}' -o table
    ...    env=${env}
    ...    secret__azure_credentials=${azure_credentials}
    RW.Core.Add Pre To Report    ${size.stdout}


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
    ${SERVICEBUS_NAMESPACE}=    RW.Core.Import User Variable    SERVICEBUS_NAMESPACE
    ...    type=string
    ...    description=Service Bus namespace.
    ...    pattern=\w*
    ...    example=sb-shop-weu
    ${QUEUE_NAME}=    RW.Core.Import User Variable    QUEUE_NAME
    ...    type=string
    ...    description=Queue to check.
    ...    pattern=\w*
    ...    example=payments
    ${MAX_ACTIVE_MESSAGES}=    RW.Core.Import User Variable    MAX_ACTIVE_MESSAGES
    ...    type=integer
    ...    description=Active messages tolerated in the queue.
    ...    pattern=\w*
    ...    example=2000
    ...    default=1000
    Set Suite Variable    ${AZ_RESOURCE_GROUP}    ${AZ_RESOURCE_GROUP}
    Set Suite Variable    ${AZURE_SUBSCRIPTION_ID}    ${AZURE_SUBSCRIPTION_ID}
    Set Suite Variable    ${SERVICEBUS_NAMESPACE}    ${SERVICEBUS_NAMESPACE}
    Set Suite Variable    ${QUEUE_NAME}    ${QUEUE_NAME}
    Set Suite Variable    ${MAX_ACTIVE_MESSAGES}    ${MAX_ACTIVE_MESSAGES}
    Set Suite Variable
    ...    ${env}
    ...    {"AZ_RESOURCE_GROUP":"${AZ_RESOURCE_GROUP}", "AZURE_SUBSCRIPTION_ID":"${AZURE_SUBSCRIPTION_ID}"}
