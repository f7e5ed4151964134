*** Settings ***
Documentation       Finds RabbitMQ queues that are backing up, have no consumers or grow unacked messages, and checks node alarms.
Metadata            Author    Farah Haddad
Metadata            Display Name    RabbitMQ Queue Backlog
Metadata            Supports    RabbitMQ,AMQP,Messaging
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
List Queues With More Than `${MAX_READY_MESSAGES}` Ready Messages in vhost `${VHOST}`
    [Documentation]    Ready messages are waiting for a consumer; a large count means consumers are slow or gone.
    [Tags]    rabbitmq    queues    access:read-only    data:metrics
    ${ready}=    RW.CLI.Run Cli
    ...    cmd=curl -sf -u ${RABBITMQ_USER}:$rabbitmq_password ${RABBITMQ_API}/queues/${VHOST} | jq -r --argjson m ${MAX_READY_MESSAGES} '.[] | select(.messages_ready > $m) | "\\(.name) ready=\\(.messages_ready) consumers=\\(.consumers) in=\\(.message_stats.publish_details.rate // 0)/s out=\\(.message_stats.deliver_get_details.rate // 0)/s"'
    ...    env=${env}
    ...    secret__rabbitmq_password=${rabbitmq_password}
    ...    timeout_seconds=180
    IF    len($ready.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Queues below ${MAX_READY_MESSAGES} ready messages
        ...    actual=${ready.stdout}
        ...    title=RabbitMQ Queues Backing Up in vhost `${VHOST}`
        ...    reproduce_hint=${ready.cmd}
        ...    details=${ready.stdout}
        ...    next_steps=Compare publish and deliver rates\nScale consumers or fix the failing consumer
    END
    RW.Core.Add Pre To Report    RabbitMQ Queues Backing Up in vhost `${VHOST}`:\n${ready.stdout}

Find Queues With Messages but No Consumers in vhost `${VHOST}`
    [Documentation]    Messages that nobody will ever read.
    [Tags]    rabbitmq    consumers    access:read-only    data:config
    ${nocons}=    RW.CLI.Run Cli
    ...    cmd=curl -sf -u ${RABBITMQ_USER}:$rabbitmq_password ${RABBITMQ_API}/queues/${VHOST} | jq -r '.[] | select(.consumers == 0 and .messages > 0) | .name + " messages=" + (.messages|tostring)'
    ...    env=${env}
    ...    secret__rabbitmq_password=${rabbitmq_password}
    ...    timeout_seconds=180
    IF    len($nocons.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Every non-empty queue has a consumer
        ...    actual=${nocons.stdout}
        ...    title=RabbitMQ Queues Without Consumers in vhost `${VHOST}`
        ...    reproduce_hint=${nocons.cmd}
        ...    details=${nocons.stdout}
        ...    next_steps=Check the consumer deployment\nDelete abandoned queues
    END
    RW.Core.Add Pre To Report    RabbitMQ Queues Without Consumers in vhost `${VHOST}`:\n${nocons.stdout}

Check Unacknowledged Message Growth in vhost `${VHOST}`
    [Documentation]    Many unacked messages mean consumers take messages but do not finish them.
    [Tags]    rabbitmq    access:read-only    data:metrics
    ${unack}=    RW.CLI.Run Cli
    ...    cmd=curl -sf -u ${RABBITMQ_USER}:$rabbitmq_password ${RABBITMQ_API}/queues/${VHOST} | jq -r 'sort_by(-.messages_unacknowledged) | .[0:10][] | "\\(.name) unacked=\\(.messages_unacknowledged) prefetch_consumers=\\(.consumers)"'
    ...    env=${env}
    ...    secret__rabbitmq_password=${rabbitmq_password}
    RW.Core.Add Pre To Report    Top queues by unacked messages:\n${unack.stdout}

Check Node Memory and Disk Alarms on the RabbitMQ Cluster
    [Documentation]    A memory or disk alarm blocks all publishers.
    [Tags]    rabbitmq    alarms    access:read-only    data:config
    ${alarm}=    RW.CLI.Run Cli
    ...    cmd=curl -sf -u ${RABBITMQ_USER}:$rabbitmq_password ${RABBITMQ_API}/nodes | jq -r '.[] | select(.mem_alarm or .disk_free_alarm or (.running|not)) | "\\(.name) running=\\(.running) mem_alarm=\\(.mem_alarm) disk_alarm=\\(.disk_free_alarm)"'
    ...    env=${env}
    ...    secret__rabbitmq_password=${rabbitmq_password}
    ...    timeout_seconds=180
    IF    len($alarm.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=1
        ...    expected=No node alarms
        ...    actual=${alarm.stdout}
        ...    title=RabbitMQ Node Alarm Is Blocking Publishers
        ...    reproduce_hint=${alarm.cmd}
        ...    details=${alarm.stdout}
        ...    next_steps=Free disk or memory on the node; publishers resume when the alarm clears
    END
    RW.Core.Add Pre To Report    RabbitMQ Node Alarm Is Blocking Publishers:\n${alarm.stdout}


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
