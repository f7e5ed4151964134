*** Settings ***
Documentation       Reviews HorizontalPodAutoscalers in a namespace: saturation at maxReplicas, missing metrics and flapping.
Metadata            Author    Ana Lucía Ortega
Metadata            Display Name    Kubernetes Autoscaler Review
Metadata            Supports    Kubernetes,AKS,EKS,GKE,OpenShift
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
List HorizontalPodAutoscalers Pinned at Max Replicas in Namespace `${NAMESPACE}`
    [Documentation]    An autoscaler that sits at maxReplicas cannot add capacity when load grows further.
    [Tags]    hpa    capacity    access:read-only    data:config
    ${atmax}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get hpa -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r '.items[] | select(.status.currentReplicas >= .spec.maxReplicas) | .metadata.name + " current=" + (.status.currentReplicas|tostring) + " max=" + (.spec.maxReplicas|tostring)'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($atmax.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=Autoscalers keep headroom below maxReplicas
        ...    actual=Autoscalers are at maxReplicas
        ...    title=Autoscalers at Their Replica Ceiling in Namespace `${NAMESPACE}`
        ...    reproduce_hint=${atmax.cmd}
        ...    details=${atmax.stdout}
        ...    next_steps=Raise maxReplicas if the cluster has room\nProfile the workload for per-pod efficiency
    END
    RW.Core.Add Pre To Report    Autoscalers at Their Replica Ceiling in Namespace `${NAMESPACE}`:\n${atmax.stdout}

Check HPA Metric Availability in Namespace `${NAMESPACE}`
    [Documentation]    Reports autoscalers whose ScalingActive condition is False, usually because metrics cannot be read.
    [Tags]    hpa    metrics    access:read-only    data:config
    ${nomet}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get hpa -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r '.items[] | .metadata.name as $h | .status.conditions[]? | select(.type=="ScalingActive" and .status=="False") | $h + ": " + .reason + " " + .message'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($nomet.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=ScalingActive is True
        ...    actual=ScalingActive is False
        ...    title=Autoscalers Cannot Read Their Metrics in Namespace `${NAMESPACE}`
        ...    reproduce_hint=${nomet.cmd}
        ...    details=${nomet.stdout}
        ...    next_steps=Verify metrics-server or the custom metrics adapter\nCheck that target pods declare CPU requests
    END
    RW.Core.Add Pre To Report    Autoscalers Cannot Read Their Metrics in Namespace `${NAMESPACE}`:\n${nomet.stdout}

Detect Replica Flapping from Scaling Events in Namespace `${NAMESPACE}`
    [Documentation]    Counts SuccessfulRescale events per autoscaler; many in a short window means the target thrashes.
    [Tags]    hpa    events    access:read-only    data:events
    ${resc}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get events -n ${NAMESPACE} --context ${CONTEXT} --field-selector reason=SuccessfulRescale -o json | jq -r '[.items[] | .involvedObject.name] | group_by(.) | map(select(length > 6) | "\\(.[0]) rescaled \\(length) times") | .[]'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    IF    len($resc.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=4
        ...    expected=Replica count changes a few times per hour at most
        ...    actual=${resc.stdout}
        ...    title=Autoscaler Replica Count Is Flapping in Namespace `${NAMESPACE}`
        ...    reproduce_hint=${resc.cmd}
        ...    details=${resc.stdout}
        ...    next_steps=Add a scale-down stabilization window\nUse a less noisy target metric
    END

Verify metrics-server Is Serving Resource Metrics
    [Documentation]    Runs `top pods` to confirm the resource metrics API answers.
    [Tags]    metrics-server    access:read-only    data:metrics
    ${top}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} top pods -n ${NAMESPACE} --context ${CONTEXT} --no-headers
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    IF    ${top.returncode} != 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=kubectl top returns pod usage
        ...    actual=${top.stderr}
        ...    title=Resource Metrics API Is Not Answering
        ...    reproduce_hint=${top.cmd}
        ...    details=${top.stderr}
        ...    next_steps=Check the metrics-server Deployment in kube-system and its APIService
    END


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
    Set Suite Variable    ${CONTEXT}    ${CONTEXT}
    Set Suite Variable    ${NAMESPACE}    ${NAMESPACE}
    Set Suite Variable    ${KUBECTL}    ${KUBECTL}
    Set Suite Variable
    ...    ${env}
    ...    {"KUBECONFIG":"./${kubeconfig.key}", "NAMESPACE":"${NAMESPACE}", "CONTEXT":"${CONTEXT}"}
