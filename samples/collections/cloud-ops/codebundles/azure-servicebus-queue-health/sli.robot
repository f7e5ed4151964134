*** Settings ***
Documentation       Scores a Service Bus queue on active backlog and dead-letter count.
Metadata            Author    Hannah Lindqvist
Metadata            Display Name    AWS SQS Queue Depth
Metadata            Supports    Azure,ServiceBus,Messaging
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score Service Bus Queue Backlog for `${QUEUE_NAME}`
    [Documentation]    Scores 1 under the backlog limit.
    [Tags]    azure    servicebus    access:read-only
    ${a}=    RW.CLI.Run Cli
    ...    cmd=az account set --subscription ${AZURE_SUBSCRIPTION_ID} 2>/dev/null; az servicebus queue show -g ${AZ_RESOURCE_GROUP} --namespace-name ${SERVICEBUS_NAMESPACE} -n ${QUEUE_NAME} --query countDetails.activeMessageCount -o tsv
    ...    env=${env}
    ...    secret__azure_credentials=${azure_credentials}
    ...    timeout_seconds=120
    ${backlog_score}=    Evaluate    1 if int(${a.stdout}) <= ${MAX_ACTIVE_MESSAGES} else 0
    Set Global Variable    ${backlog_score}
    RW.Core.Push Metric    ${backlog_score}    sub_name=backlog

Score Dead-Letter Count for `${QUEUE_NAME}`
    [Documentation]    Scores 1 when nothing is dead-lettered.
    [Tags]    azure    servicebus    access:read-only
    ${d}=    RW.CLI.Run Cli
    ...    cmd=az account set --subscription ${AZURE_SUBSCRIPTION_ID} 2>/dev/null; az servicebus queue show -g ${AZ_RESOURCE_GROUP} --namespace-name ${SERVICEBUS_NAMESPACE} -n ${QUEUE_NAME} --query countDetails.deadLetterMessageCount -o tsv
    ...    env=${env}
    ...    secret__azure_credentials=${azure_credentials}
    ...    timeout_seconds=120
    ${dlq_score}=    Evaluate    1 if int(${d.stdout}) == 0 else 0
    Set Global Variable    ${dlq_score}
    RW.Core.Push Metric    ${dlq_score}    sub_name=dead_letter

Generate Service Bus Queue Score
    [Documentation]    Averages the sub-scores.
    [Tags]    score    access:read-only
    ${health_score}=    Evaluate    (${backlog_score} + ${dlq_score}) / 2
    ${health_score}=    Convert to Number    ${health_score}    2
    RW.Core.Add to Report    Service Bus score: ${health_score}
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
