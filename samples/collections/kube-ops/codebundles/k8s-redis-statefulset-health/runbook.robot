*** Settings ***
Documentation       Checks Redis pods of a StatefulSet: reachability, memory and evictions, replication links and slow commands.
Metadata            Author    Yusuf Demir
Metadata            Display Name    Redis on Kubernetes Health
Metadata            Supports    Kubernetes,Redis
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Ping Redis Pods in StatefulSet `${REDIS_STATEFULSET}`
    [Documentation]    Runs redis-cli PING in every pod of the StatefulSet.
    [Tags]    redis    access:read-only    data:config
    ${ping}=    RW.CLI.Run Cli
    ...    cmd=for p in $(${KUBECTL} get pods -n ${NAMESPACE} --context ${CONTEXT} -l app.kubernetes.io/instance=${REDIS_STATEFULSET} -o name); do r=$(${KUBECTL} exec $p -n ${NAMESPACE} --context ${CONTEXT} -- redis-cli ping 2>&1); [ "$r" = "PONG" ] || echo "$p: $r"; done
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($ping.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=1
        ...    expected=Every pod answers PONG
        ...    actual=Some pods did not answer
        ...    title=Redis Pods Not Answering in `${REDIS_STATEFULSET}`
        ...    reproduce_hint=${ping.cmd}
        ...    details=${ping.stdout}
        ...    next_steps=Check pod readiness and whether Redis is loading a large RDB file
    END
    RW.Core.Add Pre To Report    Redis Pods Not Answering in `${REDIS_STATEFULSET}`:\n${ping.stdout}

Check Memory Usage and Evictions for `${REDIS_STATEFULSET}`
    [Documentation]    Reads INFO memory and INFO stats to compare used_memory with maxmemory and count evicted keys.
    [Tags]    redis    memory    access:read-only    data:metrics
    ${mem}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} exec ${REDIS_STATEFULSET}-0 -n ${NAMESPACE} --context ${CONTEXT} -- sh -c 'redis-cli info memory; redis-cli info stats' | grep -E '^(used_memory|maxmemory|maxmemory_policy|evicted_keys|mem_fragmentation_ratio):'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ${vals}=    Evaluate    dict(l.strip().split(":", 1) for l in r'''${mem.stdout}'''.splitlines() if ":" in l)
    ${pct}=    Evaluate    100 * int(${vals}["used_memory"]) / max(1, int(${vals}["maxmemory"])) if int(${vals}["maxmemory"]) else 0
    IF    ${pct} > ${MEMORY_WARN_PERCENT} or int(${vals}["evicted_keys"]) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Memory below ${MEMORY_WARN_PERCENT}% and no evictions
        ...    actual=used=${pct}% evicted=${vals["evicted_keys"]}
        ...    title=Redis `${REDIS_STATEFULSET}` Is Near maxmemory or Evicting Keys
        ...    reproduce_hint=${mem.cmd}
        ...    details=${mem.stdout}
        ...    next_steps=Raise maxmemory and the container limit together\nShorten TTLs of large keys
    END

Verify Replication Links Between Redis Pods in `${REDIS_STATEFULSET}`
    [Documentation]    Checks INFO replication on each replica for master_link_status up and a small offset gap.
    [Tags]    redis    replication    access:read-only    data:config
    ${repl}=    RW.CLI.Run Cli
    ...    cmd=for p in $(${KUBECTL} get pods -n ${NAMESPACE} --context ${CONTEXT} -l app.kubernetes.io/instance=${REDIS_STATEFULSET} -o name); do ${KUBECTL} exec $p -n ${NAMESPACE} --context ${CONTEXT} -- redis-cli info replication | grep -q 'master_link_status:down' && echo "$p link down"; done
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($repl.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Replicas are connected to the primary
        ...    actual=A replica lost its link
        ...    title=Redis Replica Link Down in `${REDIS_STATEFULSET}`
        ...    reproduce_hint=${repl.cmd}
        ...    details=${repl.stdout}
        ...    next_steps=Check Sentinel or the operator that manages failover
    END
    RW.Core.Add Pre To Report    Redis Replica Link Down in `${REDIS_STATEFULSET}`:\n${repl.stdout}

Review Redis Slow Log on `${REDIS_STATEFULSET}`
    [Documentation]    Prints the ten slowest recent commands, which often explains latency spikes in callers.
    [Tags]    redis    latency    access:read-only    data:logs
    ${slow}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} exec ${REDIS_STATEFULSET}-0 -n ${NAMESPACE} --context ${CONTEXT} -- redis-cli slowlog get 10
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    RW.Core.Add Pre To Report    ${slow.stdout}


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
