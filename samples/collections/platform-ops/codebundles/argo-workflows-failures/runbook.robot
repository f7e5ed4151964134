*** Settings ***
Documentation       Reviews Argo Workflows in a namespace: failed and errored workflows, the failing node, stuck pending pods and the controller.
Metadata            Author    Farah Haddad
Metadata            Display Name    Argo Workflows Failure Review
Metadata            Supports    Kubernetes,ArgoWorkflows
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
List Failed and Errored Workflows in Namespace `${NAMESPACE}`
    [Documentation]    Workflows whose phase is Failed or Error within the lookback window.
    [Tags]    argo    workflows    access:read-only    data:config
    ${wf}=    RW.CLI.Run Cli
    ...    cmd=kubectl get workflows.argoproj.io -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r --argjson h ${LOOKBACK_HOURS} '.items[] | select(.status.phase=="Failed" or .status.phase=="Error") | select((now - (.status.startedAt | fromdateiso8601)) < ($h * 3600)) | .metadata.name + " " + .status.phase + ": " + (.status.message // "")'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($wf.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=Workflows succeed
        ...    actual=${wf.stdout}
        ...    title=Failed Argo Workflows in Namespace `${NAMESPACE}`
        ...    reproduce_hint=${wf.cmd}
        ...    details=${wf.stdout}
        ...    next_steps=Run the next task to find the failing step
    END
    RW.Core.Add Pre To Report    Failed Argo Workflows in Namespace `${NAMESPACE}`:\n${wf.stdout}

Show the Failing Step of Each Failed Workflow in Namespace `${NAMESPACE}`
    [Documentation]    Prints the first failed node (template and message) of every failed workflow.
    [Tags]    argo    workflows    access:read-only    data:config
    ${nodes}=    RW.CLI.Run Cli
    ...    cmd=kubectl get workflows.argoproj.io -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r '.items[] | select(.status.phase=="Failed") | .metadata.name as $w | [.status.nodes[] | select(.phase=="Failed" and .type=="Pod")][0] | "\\($w): step \\(.displayName) template \\(.templateName): \\(.message)"'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    RW.Core.Add Pre To Report    ${nodes.stdout}

Find Workflow Pods Stuck in Pending in Namespace `${NAMESPACE}`
    [Documentation]    Workflow pods that cannot be scheduled keep the workflow Running forever.
    [Tags]    argo    pods    access:read-only    data:config
    ${pend}=    RW.CLI.Run Cli
    ...    cmd=kubectl get pods -n ${NAMESPACE} --context ${CONTEXT} -l workflows.argoproj.io/workflow --field-selector status.phase=Pending -o name
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($pend.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=Workflow pods are scheduled
        ...    actual=${pend.stdout}
        ...    title=Argo Workflow Pods Pending in `${NAMESPACE}`
        ...    reproduce_hint=${pend.cmd}
        ...    details=${pend.stdout}
        ...    next_steps=Describe a pending pod for the scheduling message
    END
    RW.Core.Add Pre To Report    Argo Workflow Pods Pending in `${NAMESPACE}`:\n${pend.stdout}

Check Workflow Controller Logs for Errors
    [Documentation]    Greps the workflow-controller log for errors in the last hour.
    [Tags]    argo    logs    access:read-only    data:logs-regexp
    ${ctl}=    RW.CLI.Run Cli
    ...    cmd=kubectl logs deploy/workflow-controller -n ${NAMESPACE} --context ${CONTEXT} --since=1h | grep -E 'level=error' | tail -n 30
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($ctl.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=No controller errors
        ...    actual=Errors found
        ...    title=Argo Workflow Controller Logged Errors
        ...    reproduce_hint=${ctl.cmd}
        ...    details=${ctl.stdout}
        ...    next_steps=Check controller RBAC and the artifact repository configuration
    END
    RW.Core.Add Pre To Report    Argo Workflow Controller Logged Errors:\n${ctl.stdout}


*** Keywords ***
Suite Initialization
    ${kubeconfig}=    RW.Core.Import Secret
    ...    kubeconfig
    ...    type=string
    ...    description=Kubeconfig with read access to workflows in the namespace.
    ...    pattern=\w*
    ...    example=Upload a kubeconfig
    ${CONTEXT}=    RW.Core.Import User Variable    CONTEXT
    ...    type=string
    ...    description=Kubeconfig context.
    ...    pattern=\w*
    ...    example=batch-cluster
    ${NAMESPACE}=    RW.Core.Import User Variable    NAMESPACE
    ...    type=string
    ...    description=Namespace where workflows run.
    ...    pattern=\w*
    ...    example=argo
    ...    default=argo
    ${LOOKBACK_HOURS}=    RW.Core.Import User Variable    LOOKBACK_HOURS
    ...    type=integer
    ...    description=Only workflows started within this many hours are considered.
    ...    pattern=\w*
    ...    example=24
    ...    default=24
    Set Suite Variable    ${CONTEXT}    ${CONTEXT}
    Set Suite Variable    ${NAMESPACE}    ${NAMESPACE}
    Set Suite Variable    ${LOOKBACK_HOURS}    ${LOOKBACK_HOURS}
    Set Suite Variable
    ...    ${env}
    ...    {"KUBECONFIG":"./${kubeconfig.key}", "NAMESPACE":"${NAMESPACE}", "CONTEXT":"${CONTEXT}"}
