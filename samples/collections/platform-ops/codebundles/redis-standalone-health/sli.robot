*** Settings ***
Documentation       Scores a Redis server on PING and hit ratio.
Metadata            Author    Yusuf Demir
Metadata            Display Name    Redis Server Score
Metadata            Supports    Redis,Cache
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score Redis PING on `${REDIS_HOST}`
    [Documentation]    Scores 1 when the server answers PONG.
    [Tags]    redis    access:read-only
    ${p}=    RW.CLI.Run Cli
    ...    cmd=REDISCLI_AUTH=$redis_password redis-cli -h ${REDIS_HOST} -p ${REDIS_PORT} ping
    ...    env=${env}
    ...    secret__redis_password=${redis_password}
    ...    timeout_seconds=120
    ${ping_score}=    Evaluate    1 if "${p.stdout}".strip() == "PONG" else 0
    Set Global Variable    ${ping_score}
    RW.Core.Push Metric    ${ping_score}    sub_name=ping

Score Keyspace Hit Ratio on `${REDIS_HOST}`
    [Documentation]    Scores 1 above the hit ratio minimum.
    [Tags]    redis    access:read-only
    ${st}=    RW.CLI.Run Cli
    ...    cmd=REDISCLI_AUTH=$redis_password redis-cli -h ${REDIS_HOST} -p ${REDIS_PORT} info stats | tr -d '\r' | grep -E '^keyspace_(hits|misses):'
    ...    env=${env}
    ...    secret__redis_password=${redis_password}
    ${hits}=    Get Info Field    ${st.stdout}    keyspace_hits
    ${misses}=    Get Info Field    ${st.stdout}    keyspace_misses
    ${hit_score}=    Evaluate    1 if int(${hits}) / max(1, int(${hits}) + int(${misses})) >= ${HIT_RATIO_MIN} else 0
    Set Global Variable    ${hit_score}
    RW.Core.Push Metric    ${hit_score}    sub_name=hit_ratio

Generate Redis Server Score
    [Documentation]    Averages the sub-scores.
    [Tags]    score    access:read-only
    ${health_score}=    Evaluate    (${ping_score} + ${hit_score}) / 2
    ${health_score}=    Convert to Number    ${health_score}    2
    RW.Core.Add to Report    Redis score: ${health_score}
    RW.Core.Push Metric    ${health_score}


*** Keywords ***
Suite Initialization
    ${redis_password}=    RW.Core.Import Secret
    ...    redis_password
    ...    type=string
    ...    description=Password (AUTH) for the Redis server. Leave empty if none.
    ...    pattern=\w*
    ...    example=********
    ...    optional=True
    ${REDIS_HOST}=    RW.Core.Import User Variable    REDIS_HOST
    ...    type=string
    ...    description=Hostname or IP of the Redis server.
    ...    pattern=\w*
    ...    example=cache-01.internal
    ${REDIS_PORT}=    RW.Core.Import User Variable    REDIS_PORT
    ...    type=int
    ...    description=TCP port.
    ...    pattern=\w*
    ...    example=6379
    ...    default=6379
    ${HIT_RATIO_MIN}=    RW.Core.Import User Variable    HIT_RATIO_MIN
    ...    type=string
    ...    description=Minimum keyspace hit ratio considered healthy.
    ...    pattern=\w*
    ...    example=0.8
    ...    default=0.7
    Set Suite Variable    ${REDIS_HOST}    ${REDIS_HOST}
    Set Suite Variable    ${REDIS_PORT}    ${REDIS_PORT}
    Set Suite Variable    ${HIT_RATIO_MIN}    ${HIT_RATIO_MIN}
    Set Suite Variable
    ...    ${env}
    ...    {"REDIS_HOST":"${REDIS_HOST}", "REDIS_PORT":"${REDIS_PORT}"}

Get Info Field
    [Documentation]    Returns the value of one field from redis INFO output.
    [Arguments]    ${info}    ${field}
    ${value}=    Evaluate    dict(l.split(":", 1) for l in r'''${info}'''.splitlines() if ":" in l).get("${field}", "0")
    [Return]    ${value}
