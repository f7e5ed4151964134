*** Settings ***
Documentation       A first look at a namespace: warning events, pods that are not running, services with no
...                 endpoints, leftover evicted pods and a count of objects by kind.
Metadata            Author    Priya Raman
Metadata            Display Name    Kubernetes Namespace Overview
Metadata            Supports    Kubernetes,AKS,EKS,GKE,OpenShift
Force Tags          kubernetes    namespace    overview
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             RW.KubeTriage
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Summarize Warning Events in Namespace `${NAMESPACE}`
    [Documentation]    Groups warning events by reason and object so the noisiest problems come first.
    [Tags]    events    access:read-only    data:events
    ${ev}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get events -n ${NAMESPACE} --context ${CONTEXT} --field-selector type=Warning -o json | jq -r '[.items[] | {r: .reason, o: (.involvedObject.kind + "/" + .involvedObject.name)}] | group_by(.r) | map({reason: .[0].r, count: length, objects: ([.[].o] | unique | .[0:5])}) | sort_by(-.count)'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ${groups}=    Evaluate    json.loads(r'''${ev.stdout}''')    json
    ${total}=    Evaluate    sum(g["count"] for g in ${groups})
    IF    ${total} > ${MAX_WARNING_EVENTS}
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=Fewer than ${MAX_WARNING_EVENTS} warning events
        ...    actual=${total} warning events were recorded
        ...    title=High Volume of Warning Events in Namespace `${NAMESPACE}`
        ...    reproduce_hint=${ev.cmd}
        ...    details=${ev.stdout}
        ...    next_steps=Start with the reason that has the highest count
    END
    RW.Core.Add Pre To Report    ${ev.stdout}

List Pods Not Running or Not Ready in Namespace `${NAMESPACE}`
    [Documentation]    Finds pods that are Pending, Failed, Unknown or Running with a container not ready.
    [Tags]    pods    access:read-only    data:config
    ${bad}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get pods -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r '.items[] | select(.status.phase != "Succeeded") | select(.status.phase != "Running" or ([.status.containerStatuses[]? | select(.ready|not)] | length > 0)) | .metadata.name + " " + .status.phase'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($bad.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=All pods are Running and ready
        ...    actual=Some pods are not ready
        ...    title=Pods Not Ready in Namespace `${NAMESPACE}`
        ...    reproduce_hint=${bad.cmd}
        ...    details=${bad.stdout}
        ...    next_steps=Describe each pod and read its events and container states
    END
    RW.Core.Add Pre To Report    Pods Not Ready in Namespace `${NAMESPACE}`:\n${bad.stdout}

Find Services Without Ready Endpoints in Namespace `${NAMESPACE}`
    [Documentation]    Reports Services whose selector matches no ready pod, which makes clients fail to connect.
    [Tags]    services    endpoints    access:read-only    data:config
    ${noep}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get endpoints -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r '.items[] | select(([.subsets[]?.addresses[]?] | length) == 0) | .metadata.name'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($noep.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Every Service has at least one ready endpoint
        ...    actual=Services have no endpoints
        ...    title=Services With No Ready Endpoints in Namespace `${NAMESPACE}`
        ...    reproduce_hint=${noep.cmd}
        ...    details=${noep.stdout}
        ...    next_steps=Compare the Service selector with the pod labels\nCheck readiness probes of the backing pods
    END
    RW.Core.Add Pre To Report    Services With No Ready Endpoints in Namespace `${NAMESPACE}`:\n${noep.stdout}

Count Workload Objects by Kind in Namespace `${NAMESPACE}`
    [Documentation]    Produces a small inventory of deployments, statefulsets, jobs, services and configmaps.
    [Tags]    inventory    access:read-only    data:config
    ${inv}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get deploy,sts,ds,job,cronjob,svc,cm,secret,pvc -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r '[.items[].kind] | group_by(.) | map("\\(.[0]): \\(length)") | .[]'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    RW.Core.Add Pre To Report    Objects in ${NAMESPACE}:\n${inv.stdout}

Rank Workloads by Container Restarts in Namespace `${NAMESPACE}`
    [Documentation]    Groups restarts by owning ReplicaSet, StatefulSet, DaemonSet or Job and lists the five worst owners.
    [Tags]    restarts    workloads    access:read-only    data:config
    ${pods}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get pods -n ${NAMESPACE} --context ${CONTEXT} -o json
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ${ranked}=    RW.KubeTriage.Rank Restarting Workloads    pods_json=${pods.stdout}    top=5
    FOR    ${row}    IN    @{ranked}
        RW.Core.Add Pre To Report    ${row["owner"]}: ${row["restarts"]} restarts
    END

Check for Evicted or Terminated Pods Left in Namespace `${NAMESPACE}`
    [Documentation]    Lists pods left behind in Failed phase, typically evictions caused by node pressure.
    [Tags]    evicted    access:read-only    data:config
    ${ev2}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get pods -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r '.items[] | select(.status.phase=="Failed") | .metadata.name + " " + (.status.reason // "") + " " + (.status.message // "")'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($ev2.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=4
        ...    expected=No Failed pods remain
        ...    actual=Failed pods are still listed
        ...    title=Failed or Evicted Pods Left Behind in Namespace `${NAMESPACE}`
        ...    reproduce_hint=${ev2.cmd}
        ...    details=${ev2.stdout}
        ...    next_steps=Check node pressure at the time of eviction\nClean up the leftover pod objects
    END
    RW.Core.Add Pre To Report    Failed or Evicted Pods Left Behind in Namespace `${NAMESPACE}`:\n${ev2.stdout}


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
    ...    enum=[kubectl,oc]
    ...    example=kubectl
    ...    default=kubectl
    ${MAX_WARNING_EVENTS}=    RW.Core.Import User Variable    MAX_WARNING_EVENTS
    ...    type=int
    ...    description=Warning events tolerated before the namespace is flagged.
    ...    pattern=\w*
    ...    example=20
    ...    default=20
    Set Suite Variable    ${CONTEXT}    ${CONTEXT}
    Set Suite Variable    ${NAMESPACE}    ${NAMESPACE}
    Set Suite Variable    ${KUBECTL}    ${KUBECTL}
    Set Suite Variable    ${MAX_WARNING_EVENTS}    ${MAX_WARNING_EVENTS}
    Set Suite Variable
    ...    ${env}
    ...    {"KUBECONFIG":"./${kubeconfig.key}", "NAMESPACE":"${NAMESPACE}", "CONTEXT":"${CONTEXT}"}
