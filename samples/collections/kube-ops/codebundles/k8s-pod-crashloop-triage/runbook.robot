*** Settings ***
Documentation       Triages containers that keep crashing in one namespace: crash loops, memory kills, restart
...                 storms and the last logs written before each crash.
Metadata            Author    Priya Raman
Metadata            Display Name    Kubernetes Pod Crashloop Triage
Metadata            Supports    Kubernetes,AKS,EKS,GKE,OpenShift
Force Tags          kubernetes    pods    triage
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             RW.KubeTriage
Library             OperatingSystem
Library             Collections

Suite Setup         Suite Initialization


*** Tasks ***
List Containers Stuck in CrashLoopBackOff in Namespace `${NAMESPACE}`
    [Documentation]    Finds containers whose waiting reason is CrashLoopBackOff and raises one issue per container.
    [Tags]    pods    crashloop    containers    access:read-only    data:config
    ${pods}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get pods -n ${NAMESPACE} --context ${CONTEXT} -o json
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ${crashing}=    RW.KubeTriage.Find Crashlooping Containers    pods_json=${pods.stdout}    min_restarts=${RESTART_THRESHOLD}
    FOR    ${c}    IN    @{crashing}
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Container `${c["container"]}` in pod `${c["pod"]}` should stay running
        ...    actual=Container is in CrashLoopBackOff after ${c["restarts"]} restarts, last exit code ${c["exit_code"]}
        ...    title=Container `${c["container"]}` in Pod `${c["pod"]}` Is Crash Looping
        ...    reproduce_hint=${pods.cmd}
        ...    details=${c}
        ...    next_steps=Read the previous container logs for the crash reason\nCompare the image tag and config with the last working revision
    END
    ${count}=    Get Length    ${crashing}
    RW.Core.Add Pre To Report    ${count} container(s) in CrashLoopBackOff in ${NAMESPACE}

Detect OOMKilled Containers from Recent Events in Namespace `${NAMESPACE}`
    [Documentation]    Reads pod status and warning events and reports containers the kernel terminated for
    ...    exceeding their memory limit.
    [Tags]    oom    memory    events    access:read-only    data:events
    ${events}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get events -n ${NAMESPACE} --context ${CONTEXT} --field-selector type=Warning -o json
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ${pods}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get pods -n ${NAMESPACE} --context ${CONTEXT} -o json
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ${oom}=    RW.KubeTriage.Parse Events For Oom    events_json=${events.stdout}    pods_json=${pods.stdout}
    FOR    ${hit}    IN    @{oom}
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Container `${hit["container"]}` should fit inside its memory limit
        ...    actual=Container `${hit["container"]}` in pod `${hit["pod"]}` was OOMKilled (limit ${hit["limit"]})
        ...    title=Pod `${hit["pod"]}` Terminated for Exceeding Memory Limit
        ...    reproduce_hint=${events.cmd}
        ...    details=${hit}
        ...    next_steps=Compare actual memory usage with the configured limit\nRaise the limit or fix the leak in the application
    END

Summarize Pod Restart Counts Above `${RESTART_THRESHOLD}` in Namespace `${NAMESPACE}`
    [Documentation]    Builds a table of pods whose containers restarted more often than the threshold, worst first.
    [Tags]    restarts    pods    access:read-only    data:config
    ${pods}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get pods -n ${NAMESPACE} --context ${CONTEXT} -o json
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ${summary}=    RW.KubeTriage.Summarize Pod Restarts    pods_json=${pods.stdout}    threshold=${RESTART_THRESHOLD}
    IF    ${summary["over_threshold"]} > 0
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=Containers restart fewer than ${RESTART_THRESHOLD} times
        ...    actual=${summary["over_threshold"]} container(s) restarted more than ${RESTART_THRESHOLD} times
        ...    title=Frequent Container Restarts in Namespace `${NAMESPACE}`
        ...    reproduce_hint=${pods.cmd}
        ...    details=${summary["table"]}
        ...    next_steps=Check the previous logs of the listed containers\nLook for failing liveness probes
    END
    RW.Core.Add Pre To Report    ${summary["table"]}

Fetch Previous Container Logs for Crashing Pods in Namespace `${NAMESPACE}`
    [Documentation]    Collects the last lines written by the previous instance of every restarting container.
    [Tags]    logs    crashloop    access:read-only    data:logs-tail
    ${prev_logs}=    RW.CLI.Run Bash File
    ...    bash_file=collect_previous_logs.sh
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    include_in_history=False
    ...    timeout_seconds=240
    RW.Core.Add Pre To Report    Previous container logs:\n${prev_logs.stdout}

Show Exit Codes and Termination Reasons for Pods in Namespace `${NAMESPACE}`
    [Documentation]    Lists the last termination state of every container that has terminated at least once.
    [Tags]    exit-code    pods    access:read-only    data:config
    ${term}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get pods -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r '.items[] | .metadata.name as $p | .status.containerStatuses[]? | select(.lastState.terminated) | [$p, .name, .lastState.terminated.exitCode, .lastState.terminated.reason, .lastState.terminated.finishedAt] | @tsv'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    RW.Core.Add Pre To Report    POD\tCONTAINER\tEXIT\tREASON\tFINISHED\n${term.stdout}


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
    ${RESTART_THRESHOLD}=    RW.Core.Import User Variable    RESTART_THRESHOLD
    ...    type=integer
    ...    description=Restart count above which a container is treated as unstable.
    ...    pattern=\w*
    ...    example=3
    ...    default=3
    ${EVENT_LOOKBACK}=    RW.Core.Import User Variable    EVENT_LOOKBACK
    ...    type=string
    ...    description=How far back to read events and logs, as a kubectl duration.
    ...    pattern=\w*
    ...    example=1h
    ...    default=2h
    Set Suite Variable    ${CONTEXT}    ${CONTEXT}
    Set Suite Variable    ${NAMESPACE}    ${NAMESPACE}
    Set Suite Variable    ${KUBECTL}    ${KUBECTL}
    Set Suite Variable    ${RESTART_THRESHOLD}    ${RESTART_THRESHOLD}
    Set Suite Variable    ${EVENT_LOOKBACK}    ${EVENT_LOOKBACK}
    Set Suite Variable
    ...    ${env}
    ...    {"KUBECONFIG":"./${kubeconfig.key}", "NAMESPACE":"${NAMESPACE}", "CONTEXT":"${CONTEXT}"}
