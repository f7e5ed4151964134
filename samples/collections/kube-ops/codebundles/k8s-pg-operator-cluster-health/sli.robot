*** Settings ***
Documentation       Scores a postgres-operator cluster on member health, standby lag and connection headroom.
Metadata            Author    Yusuf Demir
Metadata            Display Name    Postgres Operator Cluster Score
Metadata            Supports    Kubernetes,PostgreSQL,Patroni,Zalando
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score Member Health for `${PG_CLUSTER_NAME}`
    [Documentation]    Scores 1 when every member is running or streaming.
    [Tags]    postgres    access:read-only
    ${mh}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} exec ${PG_CLUSTER_NAME}-0 -n ${NAMESPACE} --context ${CONTEXT} -c postgres -- patronictl list -f json | jq '[.[] | select(.State != "running" and .State != "streaming")] | length'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=120
    ${member_score}=    Evaluate    1 if int(${mh.stdout}) == 0 else 0
    Set Global Variable    ${member_score}
    RW.Core.Push Metric    ${member_score}    sub_name=members

Score Standby Lag Within `${MAX_LAG_MB}` MB for `${PG_CLUSTER_NAME}`
    [Documentation]    Scores 1 when all standbys are within the lag limit.
    [Tags]    postgres    replication    access:read-only
    ${lag}=    RW.CLI.Run Bash File
    ...    bash_file=standby_lag.sh
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    include_in_history=False
    ...    timeout_seconds=240
    ${behind}=    Evaluate    len(json.loads(r'''${lag.stdout}'''))    json
    ${lag_score}=    Evaluate    1 if ${behind} == 0 else 0
    Set Global Variable    ${lag_score}
    RW.Core.Push Metric    ${lag_score}    sub_name=replication_lag

Score Connection Headroom for `${PG_CLUSTER_NAME}`
    [Documentation]    Scores 1 when connections are under the warning level.
    [Tags]    postgres    connections    access:read-only
    ${ch}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} exec ${PG_CLUSTER_NAME}-0 -n ${NAMESPACE} --context ${CONTEXT} -c postgres -- psql -U postgres -tAc "select count(*)*100/current_setting('max_connections')::int from pg_stat_activity"
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=120
    ${conn_score}=    Evaluate    1 if int(${ch.stdout}) < ${CONNECTION_WARN_PERCENT} else 0
    Set Global Variable    ${conn_score}
    RW.Core.Push Metric    ${conn_score}    sub_name=connections

Generate Postgres Cluster Score for `${PG_CLUSTER_NAME}`
    [Documentation]    Averages the sub-scores.
    [Tags]    score    access:read-only
    ${health_score}=    Evaluate    (${member_score} + ${lag_score} + ${conn_score}) / 3
    ${health_score}=    Convert to Number    ${health_score}    2
    RW.Core.Add to Report    Postgres cluster score: ${health_score}
    RW.Core.Push Metric    ${health_score}


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
