*** Settings ***
Documentation       Scores a PostgreSQL database on connection headroom and absence of blocked sessions.
Metadata            Author    Yusuf Demir
Metadata            Display Name    PostgreSQL Database Score
Metadata            Supports    PostgreSQL,RDS,CloudSQL,AzurePostgres
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score Connection Headroom on `${PGHOST}`
    [Documentation]    Scores 1 below 80% of max_connections.
    [Tags]    postgres    access:read-only
    ${c}=    RW.CLI.Run Cli
    ...    cmd=PGPASSWORD=$pg_password psql -h ${PGHOST} -p ${PGPORT} -U ${PGUSER} -d ${PGDATABASE} -X -A -t -F ' ' -c "select (count(*) * 100 / current_setting('max_connections')::int) from pg_stat_activity"
    ...    env=${env}
    ...    secret__pg_password=${pg_password}
    ...    timeout_seconds=120
    ${conn_score}=    Evaluate    1 if int(${c.stdout}) < 80 else 0
    Set Global Variable    ${conn_score}
    RW.Core.Push Metric    ${conn_score}    sub_name=connections

Score Absence of Blocked Sessions in `${PGDATABASE}`
    [Documentation]    Scores 1 when no session waits on a lock held by another.
    [Tags]    postgres    access:read-only
    ${b}=    RW.CLI.Run Cli
    ...    cmd=PGPASSWORD=$pg_password psql -h ${PGHOST} -p ${PGPORT} -U ${PGUSER} -d ${PGDATABASE} -X -A -t -F ' ' -c "select count(*) from pg_stat_activity where cardinality(pg_blocking_pids(pid)) > 0"
    ...    env=${env}
    ...    secret__pg_password=${pg_password}
    ...    timeout_seconds=120
    ${lock_score}=    Evaluate    1 if int(${b.stdout}) == 0 else 0
    Set Global Variable    ${lock_score}
    RW.Core.Push Metric    ${lock_score}    sub_name=blocked

Generate PostgreSQL Score
    [Documentation]    Averages the sub-scores.
    [Tags]    score    access:read-only
    ${health_score}=    Evaluate    (${conn_score} + ${lock_score}) / 2
    ${health_score}=    Convert to Number    ${health_score}    2
    RW.Core.Add to Report    PostgreSQL score: ${health_score}
    RW.Core.Push Metric    ${health_score}


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
