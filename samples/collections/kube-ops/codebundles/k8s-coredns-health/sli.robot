*** Settings ***
Documentation       Scores in-cluster DNS from CoreDNS readiness and test lookups.
Metadata            Author    Daniel Okafor
Metadata            Display Name    Cluster DNS Availability
Metadata            Supports    Kubernetes,CoreDNS,DNS
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score CoreDNS Ready Replicas
    [Documentation]    Ratio of ready to desired CoreDNS replicas.
    [Tags]    coredns    access:read-only
    ${cr}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get deploy -n kube-system --context ${CONTEXT} -l k8s-app=kube-dns -o json | jq '[.items[] | (.status.readyReplicas // 0) / .spec.replicas] | min'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=120
    ${replica_score}=    Evaluate    float(${cr.stdout})
    Set Global Variable    ${replica_score}
    RW.Core.Push Metric    ${replica_score}    sub_name=replicas

Score Internal Lookup Success for `${TEST_HOSTNAMES}`
    [Documentation]    Fraction of test names that resolve.
    [Tags]    dns    access:read-only
    @{names}=    Split String    ${TEST_HOSTNAMES}    ,
    ${ok}=    Set Variable    ${0}
    FOR    ${name}    IN    @{names}
        ${res}=    RW.CLI.Run Cli
        ...    cmd=${KUBECTL} exec ${PROBE_POD} -n ${NAMESPACE} --context ${CONTEXT} -- nslookup ${name}
        ...    env=${env}
        ...    secret_file__kubeconfig=${kubeconfig}
        ${ok}=    IF    ${res.returncode} == 0    Evaluate    ${ok} + 1    ELSE    Set Variable    ${ok}
    END
    ${lookup_score}=    Evaluate    ${ok} / len(${names})
    Set Global Variable    ${lookup_score}
    RW.Core.Push Metric    ${lookup_score}    sub_name=lookups

Generate DNS Score
    [Documentation]    Averages the sub-scores.
    [Tags]    score    access:read-only
    ${health_score}=    Evaluate    (${replica_score} + ${lookup_score}) / 2
    ${health_score}=    Convert to Number    ${health_score}    2
    RW.Core.Add to Report    DNS score: ${health_score}
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
