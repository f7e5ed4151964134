*** Settings ***
Documentation       Looks inside a PostgreSQL database: slowest statements, connection states, long transactions and locks, table bloat and autovacuum lag.
Metadata            Author    Yusuf Demir
Metadata            Display Name    PostgreSQL Database Health
Metadata            Supports    PostgreSQL,RDS,CloudSQL,AzurePostgres
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
List Slowest Statements by Mean Time in `${PGDATABASE}`
    [Documentation]    Reads pg_stat_statements and reports statements whose mean time is above SLOW_QUERY_MS.
    [Tags]    postgres    queries    access:read-only    data:metrics
    ${slow}=    RW.CLI.Run Cli
    ...    cmd=PGPASSWORD=$pg_password psql -h ${PGHOST} -p ${PGPORT} -U ${PGUSER} -d ${PGDATABASE} -X -A -t -F ' ' -c "select round(mean_exec_time) as mean_ms, calls, left(regexp_replace(query, '\\s+', ' ', 'g'), 120) from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database()) and mean_exec_time > ${SLOW_QUERY_MS} order by mean_exec_time desc limit 15"
    ...    env=${env}
    ...    secret__pg_password=${pg_password}
    ...    timeout_seconds=180
    IF    len($slow.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=Mean execution time under ${SLOW_QUERY_MS} ms
        ...    actual=${slow.stdout}
        ...    title=Slow Statements in Database `${PGDATABASE}`
        ...    reproduce_hint=${slow.cmd}
        ...    details=${slow.stdout}
        ...    next_steps=EXPLAIN ANALYZE the top statement\nCheck for missing indexes and sequential scans on large tables
    END
    RW.Core.Add Pre To Report    Slow Statements in Database `${PGDATABASE}`:\n${slow.stdout}

Show Connection Count by State Against max_connections on `${PGHOST}`
    [Documentation]    Groups pg_stat_activity by state and compares the total with max_connections.
    [Tags]    postgres    connections    access:read-only    data:metrics
    ${conn}=    RW.CLI.Run Cli
    ...    cmd=PGPASSWORD=$pg_password psql -h ${PGHOST} -p ${PGPORT} -U ${PGUSER} -d ${PGDATABASE} -X -A -t -F ' ' -c "select coalesce(state, 'background'), count(*) from pg_stat_activity group by 1 union all select 'max_connections', setting::int from pg_settings where name = 'max_connections'"
    ...    env=${env}
    ...    secret__pg_password=${pg_password}
    RW.Core.Add Pre To Report    ${conn.stdout}

Find Long Running Transactions and Blocking Locks in `${PGDATABASE}`
    [Documentation]    Lists transactions open for more than five minutes and sessions blocking others.
    [Tags]    postgres    locks    access:read-only    data:config
    ${locks}=    RW.CLI.Run Cli
    ...    cmd=PGPASSWORD=$pg_password psql -h ${PGHOST} -p ${PGPORT} -U ${PGUSER} -d ${PGDATABASE} -X -A -t -F ' ' -c "select pid, now() - xact_start as age, state, left(query, 80) from pg_stat_activity where xact_start < now() - interval '5 minutes' union all select blocked.pid, null, 'blocked by ' || array_to_string(pg_blocking_pids(blocked.pid), ','), left(blocked.query, 80) from pg_stat_activity blocked where cardinality(pg_blocking_pids(blocked.pid)) > 0"
    ...    env=${env}
    ...    secret__pg_password=${pg_password}
    ...    timeout_seconds=180
    IF    len($locks.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=No transaction older than 5 minutes and no blocked sessions
        ...    actual=${locks.stdout}
        ...    title=Long Transactions or Lock Waits in `${PGDATABASE}`
        ...    reproduce_hint=${locks.cmd}
        ...    details=${locks.stdout}
        ...    next_steps=Identify the application holding the transaction\nTerminate the blocker if it is idle in transaction
    END
    RW.Core.Add Pre To Report    Long Transactions or Lock Waits in `${PGDATABASE}`:\n${locks.stdout}

Estimate Table Bloat From Dead Tuples in `${PGDATABASE}`
    [Documentation]    Reports tables whose dead tuple share exceeds DEAD_TUPLE_RATIO, with the last autovacuum time.
    [Tags]    postgres    bloat    vacuum    access:read-only    data:metrics
    ${bloat}=    RW.CLI.Run Cli
    ...    cmd=PGPASSWORD=$pg_password psql -h ${PGHOST} -p ${PGPORT} -U ${PGUSER} -d ${PGDATABASE} -X -A -t -F ' ' -c "select relname, n_live_tup, n_dead_tup, last_autovacuum from pg_stat_user_tables where n_live_tup > 1000 and n_dead_tup::float / greatest(n_live_tup, 1) > ${DEAD_TUPLE_RATIO} order by n_dead_tup desc limit 20"
    ...    env=${env}
    ...    secret__pg_password=${pg_password}
    ...    timeout_seconds=180
    IF    len($bloat.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=Dead tuples below ${DEAD_TUPLE_RATIO} of live tuples
        ...    actual=${bloat.stdout}
        ...    title=Bloated Tables in `${PGDATABASE}`
        ...    reproduce_hint=${bloat.cmd}
        ...    details=${bloat.stdout}
        ...    next_steps=Check that autovacuum keeps up (cost limits, long transactions)\nConsider pg_repack for the worst tables
    END
    RW.Core.Add Pre To Report    Bloated Tables in `${PGDATABASE}`:\n${bloat.stdout}

Check Transaction ID Wraparound Headroom on `${PGHOST}`
    [Documentation]    Reports databases whose datfrozenxid age is above 1.5 billion.
    [Tags]    postgres    vacuum    access:read-only    data:metrics
    ${xid}=    RW.CLI.Run Cli
    ...    cmd=PGPASSWORD=$pg_password psql -h ${PGHOST} -p ${PGPORT} -U ${PGUSER} -d ${PGDATABASE} -X -A -t -F ' ' -c "select datname, age(datfrozenxid) from pg_database where age(datfrozenxid) > 1500000000"
    ...    env=${env}
    ...    secret__pg_password=${pg_password}
    ...    timeout_seconds=180
    IF    len($xid.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=1
        ...    expected=XID age well below 2 billion
        ...    actual=${xid.stdout}
        ...    title=Transaction ID Wraparound Approaching on `${PGHOST}`
        ...    reproduce_hint=${xid.cmd}
        ...    details=${xid.stdout}
        ...    next_steps=Run VACUUM FREEZE on the oldest tables now
    END
    RW.Core.Add Pre To Report    Transaction ID Wraparound Approaching on `${PGHOST}`:\n${xid.stdout}


*** Keywords ***
Suite Initialization
    ${pg_password}=    RW.Core.Import Secret
    ...    pg_password
    ...    type=string
    ...    description=Password of PGUSER.
    ...    pattern=\w*
    ...    example=********
    ${PGHOST}=    RW.Core.Import User Variable    PGHOST
    ...    type=string
    ...    description=Database host name.
    ...    pattern=\w*
    ...    example=pg-main.internal
    ${PGPORT}=    RW.Core.Import User Variable    PGPORT
    ...    type=int
    ...    description=Port.
    ...    pattern=\w*
    ...    example=5432
    ...    default=5432
    ${PGDATABASE}=    RW.Core.Import User Variable    PGDATABASE
    ...    type=string
    ...    description=Database to inspect.
    ...    pattern=\w*
    ...    example=shop
    ${PGUSER}=    RW.Core.Import User Variable    PGUSER
    ...    type=string
    ...    description=A user with pg_monitor.
    ...    pattern=\w*
    ...    example=monitoring
    ...    default=monitoring
    ${SLOW_QUERY_MS}=    RW.Core.Import User Variable    SLOW_QUERY_MS
    ...    type=integer
    ...    description=Mean execution time above which a statement is reported.
    ...    pattern=\w*
    ...    example=250
    ...    default=500
    ${DEAD_TUPLE_RATIO}=    RW.Core.Import User Variable    DEAD_TUPLE_RATIO
    ...    type=string
    ...    description=Dead to live tuple ratio that counts as bloated.
    ...    pattern=\w*
    ...    example=0.2
    ...    default=0.3
    Set Suite Variable    ${PGHOST}    ${PGHOST}
    Set Suite Variable    ${PGPORT}    ${PGPORT}
    Set Suite Variable    ${PGDATABASE}    ${PGDATABASE}
    Set Suite Variable    ${PGUSER}    ${PGUSER}
    Set Suite Variable    ${SLOW_QUERY_MS}    ${SLOW_QUERY_MS}
    Set Suite Variable    ${DEAD_TUPLE_RATIO}    ${DEAD_TUPLE_RATIO}
    Set Suite Variable
    ...    ${env}
    ...    {"PGHOST":"${PGHOST}", "PGPORT":"${PGPORT}", "PGDATABASE":"${PGDATABASE}"}
