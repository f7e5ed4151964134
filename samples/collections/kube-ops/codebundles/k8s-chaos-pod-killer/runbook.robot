*** Settings ***
Documentation       Resilience experiments that delete pods on purpose and verify the workload recovers. Destructive by design.
Metadata            Author    Ana Lucía Ortega
Metadata            Display Name    Namespace Pod Chaos Experiments
Metadata            Supports    Kubernetes,Chaos,Resilience
Force Tags          chaos
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
# Every task below is destructive. Run only during a planned experiment.
Delete a Random Pod in Namespace `${NAMESPACE}`
    [Documentation]    Picks one running pod at random and deletes it without a grace period.
    # [Tags]    chaos    pods    access:read-write
    # Random selection uses shuf so repeated runs hit different pods.
    ${victim}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get pods -n ${NAMESPACE} --context ${CONTEXT} --field-selector status.phase=Running -o name | shuf -n 1
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ${del}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} delete ${victim.stdout} -n ${NAMESPACE} --context ${CONTEXT} --grace-period=0 --wait=false
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    RW.Core.Add Pre To Report    Deleted ${victim.stdout}

Kill All Pods Matching `${LABEL_SELECTOR}` in Namespace `${NAMESPACE}`
    [Documentation]    Deletes every pod that matches the selector at once to simulate a full replica loss.
    # [Tags]    chaos    access:read-write
    # This takes the whole workload down until the controller recreates the pods.
    ${all}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} delete pods -l ${LABEL_SELECTOR} -n ${NAMESPACE} --context ${CONTEXT} --wait=false
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    RW.Core.Add Pre To Report    ${all.stdout}

Wait for Pods Matching `${LABEL_SELECTOR}` to Recover in Namespace `${NAMESPACE}`
    [Documentation]    Waits until pods matching the selector are Ready again and raises an issue if they are not.
    ${wait}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} wait pods -l ${LABEL_SELECTOR} -n ${NAMESPACE} --context ${CONTEXT} --for=condition=Ready --timeout=${RECOVERY_TIMEOUT}s
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=600
    IF    ${wait.returncode} != 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Pods become Ready within ${RECOVERY_TIMEOUT}s
        ...    actual=Pods are still not Ready
        ...    title=Pods Matching `${LABEL_SELECTOR}` Did Not Recover After Chaos
        ...    reproduce_hint=${wait.cmd}
        ...    details=${wait.stderr}
        ...    next_steps=Check PodDisruptionBudgets, startup time and image pull speed
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
    ${LABEL_SELECTOR}=    RW.Core.Import User Variable    LABEL_SELECTOR
    ...    type=string
    ...    description=Label selector of the pods that may be killed.
    ...    pattern=\w*
    ...    example=app=cart-api
    ${RECOVERY_TIMEOUT}=    RW.Core.Import User Variable    RECOVERY_TIMEOUT
    ...    description=Seconds to wait for pods to come back before raising an issue.
    ...    pattern=\w*
    ...    example=180
    ...    default=180
    Set Suite Variable    ${CONTEXT}    ${CONTEXT}
    Set Suite Variable    ${NAMESPACE}    ${NAMESPACE}
    Set Suite Variable    ${KUBECTL}    ${KUBECTL}
    Set Suite Variable    ${LABEL_SELECTOR}    ${LABEL_SELECTOR}
    Set Suite Variable    ${RECOVERY_TIMEOUT}    ${RECOVERY_TIMEOUT}
    Set Suite Variable
    ...    ${env}
    ...    {"KUBECONFIG":"./${kubeconfig.key}", "NAMESPACE":"${NAMESPACE}", "CONTEXT":"${CONTEXT}"}
