** Settings **
Documentation       Scores a NATS server on slow consumers and JetStream pending messages.
Metadata            Author    Farah Haddad
Metadata            Display Name    NATS Server Score
Metadata            Supports    NATS,JetStream,Messaging
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


** Tasks **
Score Slow Consumer Count
    [Documentation]    Scores 1 at or below the limit.
    [Tags]    nats    access:read-only
    ${sc}=    RW.CLI.Run Cli
    ...    cmd=curl -sf ${NATS_MONITOR_URL}/varz | jq .slow_consumers
    ...    env=${env}
    ...    timeout_seconds=120
    ${slow_score}=    Evaluate    1 if int(${sc.stdout}) <= ${MAX_SLOW_CONSUMERS} else 0
    Set Global Variable    ${slow_score}
    RW.Core.Push Metric    ${slow_score}    sub_name=slow_consumers

Score JetStream Pending Messages
    [Documentation]    Scores 1 when no consumer is above the pending limit.
    [Tags]    nats    access:read-only
    ${jp}=    RW.CLI.Run Cli
    ...    cmd=curl -sf '${NATS_MONITOR_URL}/jsz?consumers=true' | jq --argjson m ${MAX_PENDING} '[.account_details[]?.stream_detail[]?.consumer_detail[]? | select(.num_pending > $m)] | length'
    ...    env=${env}
    ...    timeout_seconds=120
    ${pending_score}=    Evaluate    1 if int(${jp.stdout}) == 0 else 0
    Set Global Variable    ${pending_score}
    RW.Core.Push Metric    ${pending_score}    sub_name=jetstream_pending

Generate NATS Score
    [Documentation]    Averages the sub-scores.
    [Tags]    score    access:read-only
    ${health_score}=    Evaluate    (${slow_score} + ${pending_score}) / 2
    ${health_score}=    Convert to Number    ${health_score}    2
    RW.Core.Add to Report    NATS score: ${health_score}
    RW.Core.Push Metric    ${health_score}


** Keywords ***
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
