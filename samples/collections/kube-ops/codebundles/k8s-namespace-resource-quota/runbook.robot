*** Settings ***
Documentation       Reviews ResourceQuota consumption, LimitRange defaults and pods without requests in a namespace.
Metadata            Author    Daniel Okafor
Metadata            Display Name    Kubernetes Namespace Capacity
Metadata            Supports    Kubernetes, Quota, Capacity
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Compare ResourceQuota Usage Against Hard Limits in Namespace `${NAMESPACE}`
    [Documentation]    Reports every quota resource whose used value is above the warning percentage of its hard value.
    [Tags]    quota    access:read-only    data:config
    ${quota}=    RW.CLI.Run Bash File
    ...    bash_file=quota_usage.sh
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    include_in_history=False
    ...    timeout_seconds=240
    ${issue_list}=    Evaluate    json.loads(r'''${quota.stdout}''')    json
    FOR    ${item}    IN    @{issue_list}
        RW.Core.Add Issue
        ...    severity=${item["severity"]}
        ...    expected=${item["expected"]}
        ...    actual=${item["actual"]}
        ...    title=${item["title"]}
        ...    reproduce_hint=${quota.cmd}
        ...    details=${item["details"]}
        ...    next_steps=${item["next_steps"]}
    END
    RW.Core.Add Pre To Report    Quota usage\n${quota.stderr}

List Pods Without CPU or Memory Requests in Namespace `${NAMESPACE}`
    [Documentation]    Pods without requests are scheduled blindly and are evicted first under pressure.
    [Tags]    requests    limits    access:read-only    data:config
    ${noreq}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get pods -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r '.items[] | .metadata.name as $p | .spec.containers[] | select(.resources.requests.cpu == null or .resources.requests.memory == null) | $p + "/" + .name'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($noreq.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=4
        ...    expected=Every container declares CPU and memory requests
        ...    actual=Some containers have no requests
        ...    title=Containers Without Resource Requests in Namespace `${NAMESPACE}`
        ...    reproduce_hint=${noreq.cmd}
        ...    details=${noreq.stdout}
        ...    next_steps=Add requests based on observed usage
    END
    RW.Core.Add Pre To Report    Containers Without Resource Requests in Namespace `${NAMESPACE}`:\n${noreq.stdout}

Show LimitRange Defaults Applied in Namespace `${NAMESPACE}`
    [Documentation]    Prints default requests and limits that the admission controller injects.
    [Tags]    limitrange    access:read-only    data:config
    ${lr}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get limitrange -n ${NAMESPACE} --context ${CONTEXT} -o yaml
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    RW.Core.Add Pre To Report    ${lr.stdout}

Find Pods Rejected by Quota Admission in Namespace `${NAMESPACE}`
    [Documentation]    Looks for "exceeded quota" and "forbidden" events from ReplicaSets and Jobs that could not create pods.
    [Tags]    quota    events    access:read-only    data:events
    ${rej}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get events -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r '.items[] | select(.reason=="FailedCreate") | select(.message | test("exceeded quota|forbidden")) | .involvedObject.name + ": " + .message'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($rej.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Controllers can create pods
        ...    actual=Pod creation was rejected by quota
        ...    title=Pod Creation Blocked by ResourceQuota in Namespace `${NAMESPACE}`
        ...    reproduce_hint=${rej.cmd}
        ...    details=${rej.stdout}
        ...    next_steps=Raise the quota or lower requests of the workload
    END
    RW.Core.Add Pre To Report    Pod Creation Blocked by ResourceQuota in Namespace `${NAMESPACE}`:\n${rej.stdout}


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
    ${QUOTA_WARN_PERCENT}=    RW.Core.Import User Variable    QUOTA_WARN_PERCENT
    ...    type=integer
    ...    description=Usage percentage of a quota that triggers an issue.
    ...    pattern=\w*
    ...    example=85
    ...    default=85
    Set Suite Variable    ${CONTEXT}    ${CONTEXT}
    Set Suite Variable    ${NAMESPACE}    ${NAMESPACE}
    Set Suite Variable    ${KUBECTL}    ${KUBECTL}
    Set Suite Variable    ${QUOTA_WARN_PERCENT}    ${QUOTA_WARN_PERCENT}
    Set Suite Variable
    ...    ${env}
    ...    {"KUBECONFIG":"./${kubeconfig.key}", "NAMESPACE":"${NAMESPACE}", "CONTEXT":"${CONTEXT}"}
