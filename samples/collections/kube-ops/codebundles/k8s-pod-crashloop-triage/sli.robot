*** Settings ***
Documentation       Pushes a 0-1 score describing how stable the containers in a namespace are.
Metadata            Author    Priya Raman
Metadata            Display Name    Pod Restart Stability Score
Metadata            Supports    Kubernetes,AKS,EKS,GKE,OpenShift
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             RW.KubeTriage
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Measure Containers in CrashLoopBackOff in Namespace `${NAMESPACE}`
    [Documentation]    Scores 1 when no container is crash looping, otherwise 0.
    [Tags]    crashloop    access:read-only    data:config
    ${cl}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get pods -n ${NAMESPACE} --context ${CONTEXT} -o json | jq '[.items[].status.containerStatuses[]? | select(.state.waiting.reason=="CrashLoopBackOff")] | length'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=120
    ${crashloop_score}=    Evaluate    1 if int(${cl.stdout}) == 0 else 0
    Set Global Variable    ${crashloop_score}
    RW.Core.Push Metric    ${crashloop_score}    sub_name=crashloop

Measure Pods Restarted Recently in Namespace `${NAMESPACE}`
    [Documentation]    Scores 1 when no container restarted more than the threshold.
    [Tags]    restarts    access:read-only    data:config
    ${pods}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get pods -n ${NAMESPACE} --context ${CONTEXT} -o json
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ${summary}=    RW.KubeTriage.Summarize Pod Restarts    pods_json=${pods.stdout}    threshold=${RESTART_THRESHOLD}
    ${restart_score}=    Evaluate    1 if ${summary["over_threshold"]} == 0 else 0
    Set Global Variable    ${restart_score}
    RW.Core.Push Metric    ${restart_score}    sub_name=restarts

Generate Pod Stability Score for Namespace `${NAMESPACE}`
    [Documentation]    Averages the sub-scores into the final metric.
    [Tags]    score    access:read-only
    ${health_score}=    Evaluate    (${crashloop_score} + ${restart_score}) / 2
    ${health_score}=    Convert to Number    ${health_score}    2
    RW.Core.Add to Report    Pod stability score: ${health_score}
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
