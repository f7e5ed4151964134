*** Settings ***
Documentation       Scores a vhost on queues under the ready-message limit and absence of alarms.
Metadata            Author    Farah Haddad
Metadata            Display Name    RabbitMQ Backlog Score
Metadata            Supports    RabbitMQ,AMQP,Messaging
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score Queues Under Backlog Limit in vhost `${VHOST}`
    [Documentation]    Fraction of queues under the limit.
    [Tags]    rabbitmq    access:read-only
    ${ql}=    RW.CLI.Run Cli
    ...    cmd=curl -sf -u ${RABBITMQ_USER}:$rabbitmq_password ${RABBITMQ_API}/queues/${VHOST} | jq --argjson m ${MAX_READY_MESSAGES} 'if length == 0 then 1 else ([.[] | select(.messages_ready <= $m)] | length) / length end'
    ...    env=${env}
    ...    secret__rabbitmq_password=${rabbitmq_password}
    ...    timeout_seconds=120
    ${queue_score}=    Evaluate    float(${ql.stdout})
    Set Global Variable    ${queue_score}
    RW.Core.Push Metric    ${queue_score}    sub_name=queues

Score Absence of Node Alarms
    [Documentation]    Scores 1 when no node has an alarm.
    [Tags]    rabbitmq    access:read-only
    ${na}=    RW.CLI.Run Cli
    ...    cmd=curl -sf -u ${RABBITMQ_USER}:$rabbitmq_password ${RABBITMQ_API}/nodes | jq '[.[] | select(.mem_alarm or .disk_free_alarm)] | length'
    ...    env=${env}
    ...    secret__rabbitmq_password=${rabbitmq_password}
    ...    timeout_seconds=120
    ${alarm_score}=    Evaluate    1 if int(${na.stdout}) == 0 else 0
    Set Global Variable    ${alarm_score}
    RW.Core.Push Metric    ${alarm_score}    sub_name=alarms

Generate RabbitMQ Score
    [Documentation]    Averages the sub-scores.
    [Tags]    score    access:read-only
    ${health_score}=    Evaluate    (${queue_score} + ${alarm_score}) / 2
    ${health_score}=    Convert to Number    ${health_score}    2
    RW.Core.Add to Report    RabbitMQ score: ${health_score}
    RW.Core.Push Metric    ${health_score}


*** Keywords ***
Suite Initialization
    ${rabbitmq_password}=    RW.Core.Import Secret
    ...    rabbitmq_password
    ...    type=string
    ...    description=Password of the monitoring user.
    ...    pattern=\w*
    ...    example=********
    ${RABBITMQ_API}=    RW.Core.Import User Variable    RABBITMQ_API
    ...    type=string
    ...    description=Management API base URL.
    ...    pattern=\w*
    ...    example=https://rabbit.internal:15671/api
    ${RABBITMQ_USER}=    RW.Core.Import User Variable    RABBITMQ_USER
    ...    type=string
    ...    description=Monitoring user.
    ...    pattern=\w*
    ...    example=monitoring
    ...    default=monitoring
    ${VHOST}=    RW.Core.Import User Variable    VHOST
    ...    type=string
    ...    description=Virtual host to inspect, URL encoded.
    ...    pattern=\w*
    ...    example=%2F
    ...    default=%2F
    ${MAX_READY_MESSAGES}=    RW.Core.Import User Variable    MAX_READY_MESSAGES
    ...    type=integer
    ...    description=Ready messages tolerated per queue.
    ...    pattern=\w*
    ...    example=10000
    ...    default=5000
    Set Suite Variable    ${RABBITMQ_API}    ${RABBITMQ_API}
    Set Suite Variable    ${RABBITMQ_USER}    ${RABBITMQ_USER}
    Set Suite Variable    ${VHOST}    ${VHOST}
    Set Suite Variable    ${MAX_READY_MESSAGES}    ${MAX_READY_MESSAGES}
    Set Suite Variable
    ...    ${env}
    ...    {"RABBITMQ_API":"${RABBITMQ_API}"}
