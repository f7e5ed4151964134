*** Settings ***
Documentation       Checks a NATS server through its monitoring port: slow consumers, route and cluster connectivity, and JetStream consumers falling behind.
Metadata            Author    Farah Haddad
Metadata            Display Name    NATS Server Health
Metadata            Supports    NATS,JetStream,Messaging
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Check Slow Consumers Reported by `${NATS_MONITOR_URL}`
    [Documentation]    Slow consumers are disconnected clients that could not keep up with their subscription.
    [Tags]    nats    access:read-only    data:metrics
    ${slow}=    RW.CLI.Run Cli
    ...    cmd=curl -sf ${NATS_MONITOR_URL}/varz | jq -r --argjson m ${MAX_SLOW_CONSUMERS} 'select(.slow_consumers > $m) | "slow_consumers=\\(.slow_consumers) connections=\\(.connections)"'
    ...    env=${env}
    ...    timeout_seconds=180
    IF    len($slow.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=At most ${MAX_SLOW_CONSUMERS} slow consumers
        ...    actual=${slow.stdout}
        ...    title=NATS Server Reports Slow Consumers
        ...    reproduce_hint=${slow.cmd}
        ...    details=${slow.stdout}
        ...    next_steps=Find the clients with large pending bytes in connz\nIncrease client buffers or scale subscribers
    END
    RW.Core.Add Pre To Report    NATS Server Reports Slow Consumers:\n${slow.stdout}

Check Cluster Routes From `${NATS_MONITOR_URL}`
    [Documentation]    Lists expected routes and reports when fewer peers are connected than configured.
    [Tags]    nats    cluster    access:read-only    data:config
    ${routes}=    RW.CLI.Run Cli
    ...    cmd=curl -sf ${NATS_MONITOR_URL}/routez | jq -r '"routes=\\(.num_routes)", (.routes[]? | "- \\(.remote_id) \\(.ip):\\(.port)")'
    ...    env=${env}
    RW.Core.Add Pre To Report    ${routes.stdout}

List JetStream Consumers With Pending Messages Above `${MAX_PENDING}`
    [Documentation]    Uses jsz to find durable consumers whose num_pending keeps growing.
    [Tags]    nats    jetstream    access:read-only    data:metrics
    ${pend}=    RW.CLI.Run Cli
    ...    cmd=curl -sf '${NATS_MONITOR_URL}/jsz?consumers=true' | jq -r --argjson m ${MAX_PENDING} '.account_details[]?.stream_detail[]? | .name as $s | .consumer_detail[]? | select(.num_pending > $m) | "\\($s)/\\(.name) pending=\\(.num_pending) ack_pending=\\(.num_ack_pending)"'
    ...    env=${env}
    ...    timeout_seconds=180
    IF    len($pend.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Consumers keep pending under ${MAX_PENDING}
        ...    actual=${pend.stdout}
        ...    title=JetStream Consumers Falling Behind
        ...    reproduce_hint=${pend.cmd}
        ...    details=${pend.stdout}
        ...    next_steps=Scale the consumer application\nCheck max_ack_pending and redelivery loops
    END
    RW.Core.Add Pre To Report    JetStream Consumers Falling Behind:\n${pend.stdout}


*** Keywords ***
Suite Initialization
    ${NATS_MONITOR_URL}=    RW.Core.Import User Variable    NATS_MONITOR_URL
    ...    type=string
    ...    description=HTTP monitoring endpoint of a NATS server.
    ...    pattern=\w*
    ...    example=http://nats.internal:8222
    ${MAX_SLOW_CONSUMERS}=    RW.Core.Import User Variable    MAX_SLOW_CONSUMERS
    ...    type=integer
    ...    description=Slow consumer count tolerated.
    ...    pattern=\w*
    ...    example=0
    ...    default=0
    ${MAX_PENDING}=    RW.Core.Import User Variable    MAX_PENDING
    ...    type=integer
    ...    description=Pending messages per JetStream consumer tolerated.
    ...    pattern=\w*
    ...    example=10000
    ...    default=1000
    Set Suite Variable    ${NATS_MONITOR_URL}    ${NATS_MONITOR_URL}
    Set Suite Variable    ${MAX_SLOW_CONSUMERS}    ${MAX_SLOW_CONSUMERS}
    Set Suite Variable    ${MAX_PENDING}    ${MAX_PENDING}
    Set Suite Variable
    ...    ${env}
    ...    {"NATS_MONITOR_URL":"${NATS_MONITOR_URL}"}
