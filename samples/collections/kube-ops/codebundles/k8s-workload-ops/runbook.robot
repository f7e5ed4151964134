*** Settings ***
Documentation       Operational actions for workloads: rolling restart, scaling, rollback and pausing a rollout. These tasks change the cluster.
Metadata            Author    Marcus Oyelaran
Metadata            Display Name    Kubernetes Workload Operations
Metadata            Supports    Kubernetes,AKS,EKS,GKE,OpenShift
Force Tags          kubernetes    operations
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Restart Deployment `${DEPLOYMENT_NAME}` in Namespace `${NAMESPACE}`
    [Documentation]    Triggers a rolling restart and waits for the new pods to become ready.
    [Tags]
    ...    deployment    restart
    ...    access:read-write    data:config
    ${rr}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} rollout restart deployment/${DEPLOYMENT_NAME} -n ${NAMESPACE} --context ${CONTEXT} && ${KUBECTL} rollout status deployment/${DEPLOYMENT_NAME} -n ${NAMESPACE} --context ${CONTEXT} --timeout=300s
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=360
    IF    ${rr.returncode} != 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=New pods become ready
        ...    actual=Rollout did not finish in 300s
        ...    title=Rolling Restart of `${DEPLOYMENT_NAME}` Did Not Complete
        ...    reproduce_hint=${rr.cmd}
        ...    details=${rr.stderr}
        ...    next_steps=Check the new pods for crash or probe failures
    END
    RW.Core.Add Pre To Report    ${rr.stdout}

Scale Deployment `${DEPLOYMENT_NAME}` to `${TARGET_REPLICAS}` Replicas
    [Documentation]    Sets the replica count. Note that an HPA targeting the Deployment will override it.
    [Tags]
    ...    deployment    scale
    ...    access:read-write
    ${sc}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} scale deployment/${DEPLOYMENT_NAME} --replicas=${TARGET_REPLICAS} -n ${NAMESPACE} --context ${CONTEXT}
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    RW.Core.Add Pre To Report    ${sc.stdout}${sc.stderr}

Roll Back Deployment `${DEPLOYMENT_NAME}` to the Previous Revision
    [Documentation]    Undoes the last rollout and prints the revision history afterwards.
    [Tags]
    ...    deployment    rollback
    ...    access:read-write    data:config
    ${rb}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} rollout undo deployment/${DEPLOYMENT_NAME} -n ${NAMESPACE} --context ${CONTEXT} && ${KUBECTL} rollout history deployment/${DEPLOYMENT_NAME} -n ${NAMESPACE} --context ${CONTEXT}
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    IF    ${rb.returncode} != 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=The previous revision is restored
        ...    actual=${rb.stderr}
        ...    title=Rollback of `${DEPLOYMENT_NAME}` Failed
        ...    reproduce_hint=${rb.cmd}
        ...    details=${rb.stderr}
        ...    next_steps=Check that an earlier ReplicaSet still exists (revisionHistoryLimit)
    END
    RW.Core.Add Pre To Report    ${rb.stdout}

Restart StatefulSet `${STATEFULSET_NAME}` in Namespace `${NAMESPACE}`
    [Documentation]    Rolling restart of a StatefulSet, one ordinal at a time from the highest.
    [Tags]
    ...    statefulset    restart
    ...    access:read-write
    IF    "${STATEFULSET_NAME}" == ""
        RW.Core.Add Pre To Report    STATEFULSET_NAME is empty; nothing to restart.
    ELSE
        ${srr}=    RW.CLI.Run Cli
        ...    cmd=${KUBECTL} rollout restart statefulset/${STATEFULSET_NAME} -n ${NAMESPACE} --context ${CONTEXT}
        ...    env=${env}
        ...    secret_file__kubeconfig=${kubeconfig}
        RW.Core.Add Pre To Report    ${srr.stdout}
    END

Pause Rollout of Deployment `${DEPLOYMENT_NAME}`
    [Documentation]    Pauses the Deployment so that further spec changes do not roll out until resumed.
    [Tags]
    ...    deployment    pause
    ...    access:read-write
    ${pz}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} rollout pause deployment/${DEPLOYMENT_NAME} -n ${NAMESPACE} --context ${CONTEXT}
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    RW.Core.Add Pre To Report    ${pz.stdout}${pz.stderr}


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
    ${DEPLOYMENT_NAME}=    RW.Core.Import User Variable    DEPLOYMENT_NAME
    ...    type=string
    ...    description=Deployment to operate on.
    ...    pattern=\w*
    ...    example=cart-api
    ${STATEFULSET_NAME}=    RW.Core.Import User Variable    STATEFULSET_NAME
    ...    type=string
    ...    description=StatefulSet to restart, if any.
    ...    pattern=\w*
    ...    example=ledger-db
    ...    default=
    ${TARGET_REPLICAS}=    RW.Core.Import User Variable    TARGET_REPLICAS
    ...    type=integer
    ...    description=Replica count used by the scale task.
    ...    pattern=\w*
    ...    example=4
    ...    default=2
    Set Suite Variable    ${CONTEXT}    ${CONTEXT}
    Set Suite Variable    ${NAMESPACE}    ${NAMESPACE}
    Set Suite Variable    ${KUBECTL}    ${KUBECTL}
    Set Suite Variable    ${DEPLOYMENT_NAME}    ${DEPLOYMENT_NAME}
    Set Suite Variable    ${STATEFULSET_NAME}    ${STATEFULSET_NAME}
    Set Suite Variable    ${TARGET_REPLICAS}    ${TARGET_REPLICAS}
    Set Suite Variable
    ...    ${env}
    ...    {"KUBECONFIG":"./${kubeconfig.key}", "NAMESPACE":"${NAMESPACE}", "CONTEXT":"${CONTEXT}"}
