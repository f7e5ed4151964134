*** Settings ***
Documentation       Checks claims, attach and mount errors, and filesystem fill level of volumes used by pods in a namespace.
Metadata            Author    Lena Fischbach
Metadata            Display Name    Kubernetes Persistent Volume Health
Metadata            Supports    Kubernetes,AKS,EKS,GKE
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Find PersistentVolumeClaims Stuck in Pending in Namespace `${NAMESPACE}`
    [Documentation]    Lists claims that never bound and the provisioning events attached to them.
    [Tags]    pvc    access:read-only    data:config
    ${pend}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get pvc -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r '.items[] | select(.status.phase=="Pending") | .metadata.name + " storageClass=" + (.spec.storageClassName // "default")'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($pend.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=All claims are Bound
        ...    actual=Claims are Pending
        ...    title=Pending PersistentVolumeClaims in Namespace `${NAMESPACE}`
        ...    reproduce_hint=${pend.cmd}
        ...    details=${pend.stdout}
        ...    next_steps=Check the StorageClass, provisioner logs and cloud disk quota
    END
    RW.Core.Add Pre To Report    Pending PersistentVolumeClaims in Namespace `${NAMESPACE}`:\n${pend.stdout}

Measure Filesystem Usage of Mounted Volumes in Namespace `${NAMESPACE}`
    [Documentation]    Runs df inside one pod per claim and reports volumes above the usage threshold.
    [Tags]    disk    capacity    access:read-only    data:metrics
    ${usage}=    RW.CLI.Run Bash File
    ...    bash_file=volume_fill_level.sh
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    include_in_history=False
    ...    timeout_seconds=240
    ${issue_list}=    Evaluate    json.loads(r'''${usage.stdout}''')    json
    FOR    ${item}    IN    @{issue_list}
        RW.Core.Add Issue
        ...    severity=${item["severity"]}
        ...    expected=${item["expected"]}
        ...    actual=${item["actual"]}
        ...    title=${item["title"]}
        ...    reproduce_hint=${usage.cmd}
        ...    details=${item["details"]}
        ...    next_steps=${item["next_steps"]}
    END
    RW.Core.Add Pre To Report    Volume usage\n${usage.stderr}

Check Volume Attach and Mount Errors in Namespace `${NAMESPACE}`
    [Documentation]    Searches events for FailedAttachVolume, FailedMount and Multi-Attach errors.
    [Tags]    mount    events    access:read-only    data:events
    ${mnt}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get events -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r '.items[] | select(.reason | test("FailedAttachVolume|FailedMount|Multi-Attach")) | .involvedObject.name + " " + .reason + ": " + .message'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($mnt.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Volumes attach and mount cleanly
        ...    actual=Attach or mount errors were recorded
        ...    title=Volume Attach or Mount Failures in Namespace `${NAMESPACE}`
        ...    reproduce_hint=${mnt.cmd}
        ...    details=${mnt.stdout}
        ...    next_steps=A Multi-Attach error usually means the old node still holds the disk; check the previous pod
    END
    RW.Core.Add Pre To Report    Volume Attach or Mount Failures in Namespace `${NAMESPACE}`:\n${mnt.stdout}

List Released or Orphaned PersistentVolumes Referencing Namespace `${NAMESPACE}`
    [Documentation]    Shows PersistentVolumes in Released or Failed phase whose claimRef points at this namespace.
    [Tags]    pv    cost    access:read-only    data:config
    ${rel}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get pv --context ${CONTEXT} -o json | jq -r --arg n ${NAMESPACE} '.items[] | select(.spec.claimRef.namespace==$n) | select(.status.phase=="Released" or .status.phase=="Failed") | [.metadata.name, .status.phase, .spec.capacity.storage, .spec.persistentVolumeReclaimPolicy] | @tsv'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    RW.Core.Add Pre To Report    Released volumes:\n${rel.stdout}


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
    ${DISK_USAGE_THRESHOLD}=    RW.Core.Import User Variable    DISK_USAGE_THRESHOLD
    ...    type=integer
    ...    description=Filesystem usage percentage that counts as nearly full.
    ...    pattern=\w*
    ...    example=80
    ...    default=80
    Set Suite Variable    ${CONTEXT}    ${CONTEXT}
    Set Suite Variable    ${NAMESPACE}    ${NAMESPACE}
    Set Suite Variable    ${KUBECTL}    ${KUBECTL}
    Set Suite Variable    ${DISK_USAGE_THRESHOLD}    ${DISK_USAGE_THRESHOLD}
    Set Suite Variable
    ...    ${env}
    ...    {"KUBECONFIG":"./${kubeconfig.key}", "NAMESPACE":"${NAMESPACE}", "CONTEXT":"${CONTEXT}"}
