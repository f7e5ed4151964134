*** Settings ***
Documentation       Scores Redis pods on availability and memory headroom.
Metadata            Author    Yusuf Demir
Metadata            Display Name    Redis on Kubernetes Score
Metadata            Supports    Kubernetes,Redis
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score Redis Pod Availability in `${REDIS_STATEFULSET}`
    [Documentation]    Fraction of pods answering PING.
    [Tags]    redis    access:read-only
    ${av}=    RW.CLI.Run Cli
    ...    cmd=n=0; ok=0; for p in $(${KUBECTL} get pods -n ${NAMESPACE} --context ${CONTEXT} -l app.kubernetes.io/instance=${REDIS_STATEFULSET} -o name); do n=$((n+1)); [ "$(${KUBECTL} exec $p -n ${NAMESPACE} --context ${CONTEXT} -- redis-cli ping)" = "PONG" ] && ok=$((ok+1)); done; echo "scale=2; $ok/$n" | bc
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=120
    ${avail_score}=    Evaluate    float(${av.stdout})
    Set Global Variable    ${avail_score}
    RW.Core.Push Metric    ${avail_score}    sub_name=availability

Score Redis Memory Headroom in `${REDIS_STATEFULSET}`
    [Documentation]    Scores 1 when the primary is below the memory warning level.
    [Tags]    redis    memory    access:read-only
    ${mh}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} exec ${REDIS_STATEFULSET}-0 -n ${NAMESPACE} --context ${CONTEXT} -- redis-cli info memory | awk -F: '/^used_memory:/{u=$2} /^maxmemory:/{m=$2} END {print (m>0 ? int(100*u/m) : 0)}'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=120
    ${memory_score}=    Evaluate    1 if int(${mh.stdout}) < ${MEMORY_WARN_PERCENT} else 0
    Set Global Variable    ${memory_score}
    RW.Core.Push Metric    ${memory_score}    sub_name=memory

Generate Redis Score
    [Documentation]    Averages the sub-scores.
    [Tags]    score    access:read-only
    ${health_score}=    Evaluate    (${avail_score} + ${memory_score}) / 2
    ${health_score}=    Convert to Number    ${health_score}    2
    RW.Core.Add to Report    Redis score: ${health_score}
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
    ...    example=cache
    ${KUBECTL}=    RW.Core.Import User Variable    KUBECTL
    ...    type=string
    ...    description=Command line binary used to reach the cluster API.
    ...    pattern=\w*
    ...    example=kubectl
    ...    default=kubectl
    ${REDIS_STATEFULSET}=    RW.Core.Import User Variable    REDIS_STATEFULSET
    ...    type=string
    ...    description=StatefulSet running the Redis pods.
    ...    pattern=\w*
    ...    example=session-redis
    ${MEMORY_WARN_PERCENT}=    RW.Core.Import User Variable    MEMORY_WARN_PERCENT
    ...    type=integer
    ...    description=used_memory as a share of maxmemory that triggers an issue.
    ...    pattern=\w*
    ...    example=85
    ...    default=90
    Set Suite Variable    ${CONTEXT}    ${CONTEXT}
    Set Suite Variable    ${NAMESPACE}    ${NAMESPACE}
    Set Suite Variable    ${KUBECTL}    ${KUBECTL}
    Set Suite Variable    ${REDIS_STATEFULSET}    ${REDIS_STATEFULSET}
    Set Suite Variable    ${MEMORY_WARN_PERCENT}    ${MEMORY_WARN_PERCENT}
    Set Suite Variable
    ...    ${env}
    ...    {"KUBECONFIG":"./${kubeconfig.key}", "NAMESPACE":"${NAMESPACE}", "CONTEXT":"${CONTEXT}"}
