*** Settings ***
Documentation       Checks replica readiness, volume claims and ordered rollouts for one StatefulSet.
Metadata            Author    Lena Fischbach
Metadata            Display Name    Kubernetes StatefulSet Health
Metadata            Supports    Kubernetes,AKS,EKS,GKE
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


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
    ${STATEFULSET_NAME}=    RW.Core.Import User Variable    STATEFULSET_NAME
    ...    type=string
    ...    description=Name of the StatefulSet to check.
    ...    pattern=\w*
    ...    example=ledger-db
    Set Suite Variable    ${CONTEXT}    ${CONTEXT}
    Set Suite Variable    ${NAMESPACE}    ${NAMESPACE}
    Set Suite Variable    ${KUBECTL}    ${KUBECTL}
    Set Suite Variable    ${STATEFULSET_NAME}    ${STATEFULSET_NAME}
    Set Suite Variable
    ...    ${env}
    ...    {"KUBECONFIG":"./${kubeconfig.key}", "NAMESPACE":"${NAMESPACE}", "CONTEXT":"${CONTEXT}"}


*** Tasks ***
Compare Ready and Desired Replicas for StatefulSet `${STATEFULSET_NAME}`
    [Documentation]    Raises an issue when fewer pods are ready than the StatefulSet asks for.
    [Tags]    statefulset    replicas    access:read-only    data:config
    ${rep}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get statefulset ${STATEFULSET_NAME} -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r 'select((.status.readyReplicas // 0) < .spec.replicas) | "desired=\\(.spec.replicas) ready=\\(.status.readyReplicas // 0)"'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($rep.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Every ordinal of `${STATEFULSET_NAME}` is ready
        ...    actual=Some ordinals are not ready
        ...    title=StatefulSet `${STATEFULSET_NAME}` Is Missing Ready Pods
        ...    reproduce_hint=${rep.cmd}
        ...    details=${rep.stdout}
        ...    next_steps=Describe the lowest-numbered pod that is not ready; later ordinals wait for it
    END
    RW.Core.Add Pre To Report    StatefulSet `${STATEFULSET_NAME}` Is Missing Ready Pods:\n${rep.stdout}

Check PersistentVolumeClaims Bound to StatefulSet `${STATEFULSET_NAME}`
    [Documentation]    Verifies that every claim created from the volumeClaimTemplates is Bound.
    [Tags]    pvc    storage    access:read-only    data:config
    ${claims}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get pvc -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r --arg s ${STATEFULSET_NAME} '.items[] | select(.metadata.name | contains($s)) | select(.status.phase != "Bound") | .metadata.name + " " + .status.phase'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($claims.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=All claims are Bound
        ...    actual=One or more claims are not Bound
        ...    title=Unbound Volume Claims for StatefulSet `${STATEFULSET_NAME}`
        ...    reproduce_hint=${claims.cmd}
        ...    details=${claims.stdout}
        ...    next_steps=Check the StorageClass provisioner and zone of the claim
    END
    RW.Core.Add Pre To Report    Unbound Volume Claims for StatefulSet `${STATEFULSET_NAME}`:\n${claims.stdout}

Detect Stuck Ordered Rollout for StatefulSet `${STATEFULSET_NAME}`
    [Documentation]    Compares currentRevision with updateRevision and reports a rollout that has not advanced.
    [Tags]    rollout    access:read-only    data:config
    ${rev}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get statefulset ${STATEFULSET_NAME} -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r 'select(.status.currentRevision != .status.updateRevision) | "current=\\(.status.currentRevision) update=\\(.status.updateRevision) updated=\\(.status.updatedReplicas // 0)/\\(.spec.replicas) partition=\\(.spec.updateStrategy.rollingUpdate.partition // 0)"'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($rev.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=currentRevision equals updateRevision
        ...    actual=Pods still run an older revision
        ...    title=Rolling Update of StatefulSet `${STATEFULSET_NAME}` Has Not Completed
        ...    reproduce_hint=${rev.cmd}
        ...    details=${rev.stdout}
        ...    next_steps=Check the partition value and the readiness of the pod being replaced
    END
    RW.Core.Add Pre To Report    Rolling Update of StatefulSet `${STATEFULSET_NAME}` Has Not Completed:\n${rev.stdout}

Find Pods of StatefulSet `${STATEFULSET_NAME}` Pending Scheduling
    [Documentation]    Lists Pending pods and the scheduler message that explains why.
    [Tags]    scheduling    access:read-only    data:events
    ${pend}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get pods -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r --arg s ${STATEFULSET_NAME} '.items[] | select(.metadata.name | startswith($s)) | select(.status.phase=="Pending") | .metadata.name + ": " + ((.status.conditions[]? | select(.type=="PodScheduled") | .message) // "no message")'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($pend.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=All pods are scheduled
        ...    actual=Pods are Pending
        ...    title=Pods of StatefulSet `${STATEFULSET_NAME}` Cannot Be Scheduled
        ...    reproduce_hint=${pend.cmd}
        ...    details=${pend.stdout}
        ...    next_steps=Check node affinity, taints and volume zone constraints
    END
    RW.Core.Add Pre To Report    Pods of StatefulSet `${STATEFULSET_NAME}` Cannot Be Scheduled:\n${pend.stdout}
