*** Settings ***
Documentation       Checks a standalone Redis server or managed instance (ElastiCache, Memorystore, Azure Cache): latency, memory, hit ratio, clients and persistence.
Metadata            Author    Yusuf Demir
Metadata            Display Name    Redis Server Health
Metadata            Supports    Redis,Cache
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Measure Command Latency on `${REDIS_HOST}`
    [Documentation]    Samples round-trip latency with redis-cli --latency for a few seconds.
    [Tags]    redis    latency    access:read-only    data:metrics
    ${lat}=    RW.CLI.Run Cli
    ...    cmd=REDISCLI_AUTH=$redis_password redis-cli -h ${REDIS_HOST} -p ${REDIS_PORT} --latency -i 1 --raw 2>/dev/null & pid=$!; sleep 5; kill $pid 2>/dev/null; REDISCLI_AUTH=$redis_password redis-cli -h ${REDIS_HOST} -p ${REDIS_PORT} --intrinsic-latency 1 | tail -1
    ...    env=${env}
    ...    secret__redis_password=${redis_password}
    RW.Core.Add Pre To Report    ${lat.stdout}

Check Memory Fragmentation and Eviction Policy on `${REDIS_HOST}`
    [Documentation]    Reports fragmentation above 1.5 and evicted keys under a noeviction-less policy.
    [Tags]    redis    memory    access:read-only    data:metrics
    ${mem}=    RW.CLI.Run Cli
    ...    cmd=REDISCLI_AUTH=$redis_password redis-cli -h ${REDIS_HOST} -p ${REDIS_PORT} info memory | tr -d '\r' | grep -E '^(used_memory_human|maxmemory_human|maxmemory_policy|mem_fragmentation_ratio):'
    ...    env=${env}
    ...    secret__redis_password=${redis_password}
    ${frag}=    Get Info Field    ${mem.stdout}    mem_fragmentation_ratio
    IF    float(${frag}) > 1.5
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=mem_fragmentation_ratio below 1.5
        ...    actual=${frag}
        ...    title=High Memory Fragmentation on Redis `${REDIS_HOST}`
        ...    reproduce_hint=${mem.cmd}
        ...    details=${mem.stdout}
        ...    next_steps=Enable activedefrag or plan a restart during a quiet period
    END

Compute Keyspace Hit Ratio on `${REDIS_HOST}`
    [Documentation]    A falling hit ratio usually means keys expire too early or the cache is too small.
    [Tags]    redis    cache    access:read-only    data:metrics
    ${stats}=    RW.CLI.Run Cli
    ...    cmd=REDISCLI_AUTH=$redis_password redis-cli -h ${REDIS_HOST} -p ${REDIS_PORT} info stats | tr -d '\r' | grep -E '^keyspace_(hits|misses):'
    ...    env=${env}
    ...    secret__redis_password=${redis_password}
    ${hits}=    Get Info Field    ${stats.stdout}    keyspace_hits
    ${misses}=    Get Info Field    ${stats.stdout}    keyspace_misses
    ${ratio}=    Evaluate    int(${hits}) / max(1, int(${hits}) + int(${misses}))
    IF    ${ratio} < ${HIT_RATIO_MIN}
        RW.Core.Add Issue
        ...    severity=4
        ...    expected=Hit ratio above ${HIT_RATIO_MIN}
        ...    actual=${ratio}
        ...    title=Low Cache Hit Ratio on Redis `${REDIS_HOST}`
        ...    reproduce_hint=${stats.cmd}
        ...    details=${stats.stdout}
        ...    next_steps=Review TTLs and maxmemory; check for key name changes after a deploy
    END

Check Connected and Blocked Clients on `${REDIS_HOST}`
    [Documentation]    Prints connected, blocked and rejected connection counters.
    [Tags]    redis    clients    access:read-only    data:metrics
    ${cl}=    RW.CLI.Run Cli
    ...    cmd=REDISCLI_AUTH=$redis_password redis-cli -h ${REDIS_HOST} -p ${REDIS_PORT} info clients; REDISCLI_AUTH=$redis_password redis-cli -h ${REDIS_HOST} -p ${REDIS_PORT} info stats | grep rejected_connections
    ...    env=${env}
    ...    secret__redis_password=${redis_password}
    RW.Core.Add Pre To Report    ${cl.stdout}

Verify RDB and AOF Persistence Status on `${REDIS_HOST}`
    [Documentation]    Reports a failed last background save or AOF rewrite.
    [Tags]    redis    persistence    access:read-only    data:config
    ${pers}=    RW.CLI.Run Cli
    ...    cmd=REDISCLI_AUTH=$redis_password redis-cli -h ${REDIS_HOST} -p ${REDIS_PORT} info persistence | tr -d '\r' | grep -E '^(rdb_last_bgsave_status|aof_last_bgrewrite_status|aof_last_write_status):' | grep -v ':ok$'
    ...    env=${env}
    ...    secret__redis_password=${redis_password}
    ...    timeout_seconds=180
    IF    len($pers.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Last save and rewrite ok
        ...    actual=${pers.stdout}
        ...    title=Redis Persistence Failing on `${REDIS_HOST}`
        ...    reproduce_hint=${pers.cmd}
        ...    details=${pers.stdout}
        ...    next_steps=Check disk space and permissions of the data directory
    END
    RW.Core.Add Pre To Report    Redis Persistence Failing on `${REDIS_HOST}`:\n${pers.stdout}


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
    RETURN    ${value}
