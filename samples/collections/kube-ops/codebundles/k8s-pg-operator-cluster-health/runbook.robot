*** Settings ***
Documentation       Health checks for a highly available PostgreSQL cluster run by the Zalando postgres-operator:
...                 custom resource status, member roles, streaming lag of each standby, connection headroom,
...                 backups and database log errors.
Metadata            Author    Yusuf Demir
Metadata            Display Name    Postgres Operator Cluster Health
Metadata            Supports    Kubernetes,PostgreSQL,Patroni,Zalando
Force Tags          postgres    database    kubernetes
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Check Postgres Cluster Resource Status for `${PG_CLUSTER_NAME}`
    [Documentation]    Reads status.PostgresClusterStatus of the custom resource; anything but Running means the operator could not apply the spec.
    [Tags]    postgres    operator    access:read-only    data:config
    ${crs}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get postgresqls.acid.zalan.do ${PG_CLUSTER_NAME} -n ${NAMESPACE} --context ${CONTEXT} -o jsonpath='{.status.PostgresClusterStatus}' | grep -v '^Running$'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($crs.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Status is Running
        ...    actual=Status is ${crs.stdout}
        ...    title=Postgres Cluster `${PG_CLUSTER_NAME}` Resource Is Not Running
        ...    reproduce_hint=${crs.cmd}
        ...    details=${crs.stdout}
        ...    next_steps=Read the operator logs for the sync error
    END
    RW.Core.Add Pre To Report    Postgres Cluster `${PG_CLUSTER_NAME}` Resource Is Not Running:\n${crs.stdout}

Identify Leader and Standby Members of `${PG_CLUSTER_NAME}`
    [Documentation]    Runs patronictl list in the first pod to show roles, state, timeline and lag of each member.
    [Tags]    postgres    members    access:read-only    data:config
    ${members}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} exec ${PG_CLUSTER_NAME}-0 -n ${NAMESPACE} --context ${CONTEXT} -c postgres -- patronictl list -f json
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ${m}=    Evaluate    json.loads(r'''${members.stdout}''')    json
    ${leaders}=    Evaluate    [x for x in ${m} if x["Role"] == "Leader"]
    ${count}=    Get Length    ${leaders}
    IF    ${count} != 1
        RW.Core.Add Issue
        ...    severity=1
        ...    expected=Exactly one leader
        ...    actual=${count} leaders
        ...    title=Postgres Cluster `${PG_CLUSTER_NAME}` Has ${count} Leaders
        ...    reproduce_hint=${members.cmd}
        ...    details=${members.stdout}
        ...    next_steps=Check the DCS (Kubernetes endpoints) and Patroni logs on every member
    END
    RW.Core.Add Pre To Report    ${members.stdout}

Measure Standby Replay Lag in MB for `${PG_CLUSTER_NAME}`
    [Documentation]    Queries pg_stat_replication on the leader and reports standbys whose replay position trails by more than MAX_LAG_MB.
    [Tags]    postgres    replication    lag    access:read-only    data:metrics
    ${lag}=    RW.CLI.Run Bash File
    ...    bash_file=standby_lag.sh
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    include_in_history=False
    ...    timeout_seconds=240
    ${issue_list}=    Evaluate    json.loads(r'''${lag.stdout}''')    json
    FOR    ${item}    IN    @{issue_list}
        RW.Core.Add Issue
        ...    severity=${item["severity"]}
        ...    expected=${item["expected"]}
        ...    actual=${item["actual"]}
        ...    title=${item["title"]}
        ...    reproduce_hint=${lag.cmd}
        ...    details=${item["details"]}
        ...    next_steps=${item["next_steps"]}
    END
    RW.Core.Add Pre To Report    Replication state\n${lag.stderr}

Count Client Connections Against max_connections on `${PG_CLUSTER_NAME}`
    [Documentation]    Compares the number of backends with max_connections and lists the busiest users and applications.
    [Tags]    postgres    connections    access:read-only    data:metrics
    ${conn}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} exec ${PG_CLUSTER_NAME}-0 -n ${NAMESPACE} --context ${CONTEXT} -c postgres -- psql -U postgres -tAc "select count(*)*100/current_setting('max_connections')::int from pg_stat_activity"
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    IF    int($conn.stdout.strip() or 0) >= ${CONNECTION_WARN_PERCENT}
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Below ${CONNECTION_WARN_PERCENT}% of max_connections
        ...    actual=${conn.stdout}% of max_connections in use
        ...    title=Connections Near the Limit on `${PG_CLUSTER_NAME}`
        ...    reproduce_hint=${conn.cmd}
        ...    details=${conn.stdout}
        ...    next_steps=Add or tune a connection pooler\nLook for idle-in-transaction sessions
    END

Check Recent Base Backup and WAL Archiving for `${PG_CLUSTER_NAME}`
    [Documentation]    Reads pg_stat_archiver for failed WAL archive attempts and the age of the last archived segment.
    [Tags]    postgres    backup    access:read-only    data:metrics
    ${arch}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} exec ${PG_CLUSTER_NAME}-0 -n ${NAMESPACE} --context ${CONTEXT} -c postgres -- psql -U postgres -tAc "select failed_count, last_failed_wal, now()-last_archived_time from pg_stat_archiver where failed_count > 0 or now()-last_archived_time > interval '1 hour'"
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($arch.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=WAL segments archive continuously
        ...    actual=Archiving failures or delays
        ...    title=WAL Archiving Is Failing or Stalled on `${PG_CLUSTER_NAME}`
        ...    reproduce_hint=${arch.cmd}
        ...    details=${arch.stdout}
        ...    next_steps=Check object storage credentials used by WAL-G or WAL-E
    END
    RW.Core.Add Pre To Report    WAL Archiving Is Failing or Stalled on `${PG_CLUSTER_NAME}`:\n${arch.stdout}

Scan Database Pod Logs for FATAL and PANIC Entries in `${PG_CLUSTER_NAME}`
    [Documentation]    Greps the last hour of postgres container logs on every member.
    [Tags]    postgres    logs    access:read-only    data:logs-regexp
    ${plog}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} logs -l cluster-name=${PG_CLUSTER_NAME} -n ${NAMESPACE} --context ${CONTEXT} -c postgres --since=1h --tail=-1 | grep -E 'FATAL|PANIC|could not|out of memory' | tail -n 40
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($plog.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=No FATAL or PANIC entries
        ...    actual=Errors were logged
        ...    title=Errors in Postgres Logs for `${PG_CLUSTER_NAME}`
        ...    reproduce_hint=${plog.cmd}
        ...    details=${plog.stdout}
        ...    next_steps=Group the messages by type; authentication failures and OOM need different fixes
    END
    RW.Core.Add Pre To Report    Errors in Postgres Logs for `${PG_CLUSTER_NAME}`:\n${plog.stdout}


*** Keywords ***
Suite Initialization
    ${kubeconfig}=    RW.Core.Import Secret
    ...    kubeconfig
    ...    type=string
    ...    description=Kubeconfig with read access to the target cluster.
    ...    pattern=\w*
    ...    example=Upload a kubeconfig file for a read-only service account
    ${CONTEXT}=    RW.Core.Import User Variable    CONTEXT
    ...    type=string
    ...    description=Kubeconfig context that selects the cluster to inspect.
    ...    pattern=\w*
    ...    example=prod-eu-west-1
    ${NAMESPACE}=    RW.Core.Import User Variable    NAMESPACE
    ...    type=string
    ...    description=Namespace whose workloads are inspected.
    ...    pattern=\w*
    ...    example=databases
    ${KUBECTL}=    RW.Core.Import User Variable    KUBECTL
    ...    type=string
    ...    description=Command line binary used to reach the cluster API.
    ...    pattern=\w*
    ...    example=kubectl
    ...    default=kubectl
    ${PG_CLUSTER_NAME}=    RW.Core.Import User Variable    PG_CLUSTER_NAME
    ...    type=string
    ...    description=Name of the postgresql custom resource (the database cluster).
    ...    pattern=\w*
    ...    example=orders-db
    ${MAX_LAG_MB}=    RW.Core.Import User Variable    MAX_LAG_MB
    ...    type=integer
    ...    description=Replay lag in megabytes above which a replica is considered behind.
    ...    pattern=\w*
    ...    example=64
    ...    default=100
    ${CONNECTION_WARN_PERCENT}=    RW.Core.Import User Variable    CONNECTION_WARN_PERCENT
    ...    type=integer
    ...    description=Share of max_connections in use that triggers an issue.
    ...    pattern=\w*
    ...    example=80
    ...    default=80
    Set Suite Variable    ${CONTEXT}    ${CONTEXT}
    Set Suite Variable    ${NAMESPACE}    ${NAMESPACE}
    Set Suite Variable    ${KUBECTL}    ${KUBECTL}
    Set Suite Variable    ${PG_CLUSTER_NAME}    ${PG_CLUSTER_NAME}
    Set Suite Variable    ${MAX_LAG_MB}    ${MAX_LAG_MB}
    Set Suite Variable    ${CONNECTION_WARN_PERCENT}    ${CONNECTION_WARN_PERCENT}
    Set Suite Variable
    ...    ${env}
    ...    {"KUBECONFIG":"./${kubeconfig.key}", "NAMESPACE":"${NAMESPACE}", "CONTEXT":"${CONTEXT}", "PG_CLUSTER_NAME":"${PG_CLUSTER_NAME}", "MAX_LAG_MB":"${MAX_LAG_MB}"}
