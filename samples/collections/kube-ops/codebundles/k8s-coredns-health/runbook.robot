*** Settings ***
Documentation       Checks CoreDNS replicas, resolves test names from inside the cluster and scans CoreDNS logs for failures.
Metadata            Author    Daniel Okafor
Metadata            Display Name    Cluster DNS (CoreDNS) Health
Metadata            Supports    Kubernetes,CoreDNS,DNS
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Check CoreDNS Deployment Replicas in `kube-system`
    [Documentation]    Verifies the CoreDNS Deployment has all replicas ready.
    [Tags]    coredns    access:read-only    data:config
    ${cd}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get deploy -n kube-system --context ${CONTEXT} -l k8s-app=kube-dns -o json | jq -r '.items[] | select((.status.readyReplicas // 0) < .spec.replicas) | .metadata.name + " ready=" + ((.status.readyReplicas // 0)|tostring) + "/" + (.spec.replicas|tostring)'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($cd.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=1
        ...    expected=All CoreDNS replicas are ready
        ...    actual=CoreDNS is degraded
        ...    title=CoreDNS Replicas Not Ready
        ...    reproduce_hint=${cd.cmd}
        ...    details=${cd.stdout}
        ...    next_steps=Describe the CoreDNS pods\nCheck for OOM kills under heavy query load
    END
    RW.Core.Add Pre To Report    CoreDNS Replicas Not Ready:\n${cd.stdout}

Resolve Test Hostnames From Pod `${PROBE_POD}` in Namespace `${NAMESPACE}`
    [Documentation]    Runs nslookup for each test name inside an existing pod and reports names that do not resolve.
    [Tags]    dns    resolution    access:read-only    data:config
    @{names}=    Split String    ${TEST_HOSTNAMES}    ,
    FOR    ${name}    IN    @{names}
        ${res}=    RW.CLI.Run Cli
        ...    cmd=${KUBECTL} exec ${PROBE_POD} -n ${NAMESPACE} --context ${CONTEXT} -- nslookup ${name}
        ...    env=${env}
        ...    secret_file__kubeconfig=${kubeconfig}
        IF    ${res.returncode} != 0
            RW.Core.Add Issue
            ...    severity=2
            ...    expected=`${name}` resolves from pods
            ...    actual=nslookup failed
            ...    title=Name `${name}` Does Not Resolve Inside the Cluster
            ...    reproduce_hint=${res.cmd}
            ...    details=${res.stdout}\n${res.stderr}
            ...    next_steps=Check CoreDNS logs and the upstream forwarders in the Corefile
        END
    END

Scan CoreDNS Logs for SERVFAIL and Upstream Timeouts
    [Documentation]    Reads the last hour of CoreDNS logs and stops early when no CoreDNS pod exists.
    [Tags]    coredns    logs    access:read-only    data:logs-regexp
    ${pods}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get pods -n kube-system --context ${CONTEXT} -l k8s-app=kube-dns -o name
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    IF    len($pods.stdout.strip()) == 0
        RW.Core.Add Pre To Report    No CoreDNS pods found; the cluster may use a different DNS add-on.
        RETURN
    END
    ${logs}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} logs -n kube-system --context ${CONTEXT} -l k8s-app=kube-dns --since=1h --tail=-1 | grep -E 'SERVFAIL|i/o timeout|no such host|plugin/errors' | sort | uniq -c | sort -rn | head -n 25
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($logs.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=No SERVFAIL or timeout entries
        ...    actual=Errors found in CoreDNS logs
        ...    title=CoreDNS Is Logging Resolution Errors
        ...    reproduce_hint=${logs.cmd}
        ...    details=${logs.stdout}
        ...    next_steps=Check reachability of the upstream resolvers\nLook for a noisy client causing query storms
    END
    RW.Core.Add Pre To Report    CoreDNS Is Logging Resolution Errors:\n${logs.stdout}

Review CoreDNS Corefile for Forwarders and Cache Settings
    [Documentation]    Prints the Corefile so forwarders, cache TTL and stub domains can be reviewed.
    [Tags]    coredns    config    access:read-only    data:config
    ${cf}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get configmap coredns -n kube-system --context ${CONTEXT} -o jsonpath='{.data.Corefile}'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    RW.Core.Add Pre To Report    ${cf.stdout}


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
    ...    example=checkout
    ${KUBECTL}=    RW.Core.Import User Variable    KUBECTL
    ...    type=string
    ...    description=Command line binary used to reach the cluster API.
    ...    pattern=\w*
    ...    example=kubectl
    ...    default=kubectl
    ${PROBE_POD}=    RW.Core.Import User Variable    PROBE_POD
    ...    type=string
    ...    description=An existing pod in NAMESPACE that has nslookup available, used to test resolution.
    ...    pattern=\w*
    ...    example=toolbox-0
    ${TEST_HOSTNAMES}=    RW.Core.Import User Variable    TEST_HOSTNAMES
    ...    type=string
    ...    description=Comma separated names to resolve from inside the cluster.
    ...    pattern=\w*
    ...    example=kubernetes.default.svc.cluster.local,example.com
    ...    default=kubernetes.default.svc.cluster.local
    Set Suite Variable    ${CONTEXT}    ${CONTEXT}
    Set Suite Variable    ${NAMESPACE}    ${NAMESPACE}
    Set Suite Variable    ${KUBECTL}    ${KUBECTL}
    Set Suite Variable    ${PROBE_POD}    ${PROBE_POD}
    Set Suite Variable    ${TEST_HOSTNAMES}    ${TEST_HOSTNAMES}
    Set Suite Variable
    ...    ${env}
    ...    {"KUBECONFIG":"./${kubeconfig.key}", "NAMESPACE":"${NAMESPACE}", "CONTEXT":"${CONTEXT}"}
