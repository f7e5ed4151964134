*** Settings ***
Documentation       Reports Argo CD Applications that are out of sync or degraded and explains the last sync operation.
Metadata            Author    Sven Aalto
Metadata            Display Name    Argo CD Application Sync Status
Metadata            Supports    Kubernetes,ArgoCD,GitOps
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
List Argo CD Applications Out of Sync in Namespace `${ARGOCD_NAMESPACE}`
    [Documentation]    Lists Applications whose sync status is not Synced or whose health is not Healthy.
    [Tags]    argocd    gitops    access:read-only    data:config
    ${apps}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get applications.argoproj.io -n ${ARGOCD_NAMESPACE} --context ${CONTEXT} -o json | jq -r '.items[] | select(.status.sync.status != "Synced" or .status.health.status != "Healthy") | [.metadata.name, .status.sync.status, .status.health.status] | @tsv'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    IF    len($apps.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=Applications are Synced and Healthy
        ...    actual=Some applications are OutOfSync or unhealthy
        ...    title=Argo CD Applications Drifting From Git
        ...    reproduce_hint=${apps.cmd}
        ...    details=${apps.stdout}
        ...    next_steps=Open the application diff\nCheck for manual edits in the cluster
    END
    RW.Core.Add Pre To Report    ┌─ Applications needing attention ─────────────\n${apps.stdout}\n└──────────────────────────────────────────────

List Degraded or Missing Resources for Application `${APPLICATION_NAME}`
    [Documentation]    Shows the individual managed resources of one Application that are Degraded, Missing or OutOfSync.
    [Tags]    argocd    access:read-only    data:config
    ${res}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get applications.argoproj.io ${APPLICATION_NAME} -n ${ARGOCD_NAMESPACE} --context ${CONTEXT} -o json | jq -r '.status.resources[] | select(.status != "Synced" or ((.health.status // "Healthy") != "Healthy")) | "⚠️ " + .kind + "/" + .name + " sync=" + .status + " health=" + (.health.status // "n/a")'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($res.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=All managed resources are Synced and Healthy
        ...    actual=Some resources are degraded or missing
        ...    title=Resources of Application `${APPLICATION_NAME}` Are Not Healthy
        ...    reproduce_hint=${res.cmd}
        ...    details=${res.stdout}
        ...    next_steps=Look at the listed resources directly with kubectl describe
    END
    RW.Core.Add Pre To Report    Resources of Application `${APPLICATION_NAME}` Are Not Healthy:\n${res.stdout}

Show Last Sync Operation Result for Application `${APPLICATION_NAME}`
    [Documentation]    Prints phase, message and revision of the most recent sync operation.
    [Tags]    argocd    sync    access:read-only    data:config
    ${op}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get applications.argoproj.io ${APPLICATION_NAME} -n ${ARGOCD_NAMESPACE} --context ${CONTEXT} -o json | jq -r '.status.operationState | "phase=\\(.phase) revision=\\(.syncResult.revision // "?") finished=\\(.finishedAt // "running")\n\\(.message)"'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    IF    "Failed" in $op.stdout or "Error" in $op.stdout
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=The last sync succeeds
        ...    actual=${op.stdout}
        ...    title=Last Sync of `${APPLICATION_NAME}` Failed ❌
        ...    reproduce_hint=${op.cmd}
        ...    details=${op.stdout}
        ...    next_steps=Fix the manifest error shown in the message and sync again
    END
    RW.Core.Add Pre To Report    ✅ Last operation:\n${op.stdout}

Check Argo CD Repo Server and Application Controller Pods
    [Documentation]    Verifies the Argo CD control plane pods are ready; a crashed repo server stalls every sync.
    [Tags]    argocd    pods    access:read-only    data:config
    ${cp}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get pods -n ${ARGOCD_NAMESPACE} --context ${CONTEXT} -o json | jq -r '.items[] | select(.metadata.name | test("repo-server|application-controller|server")) | select([.status.containerStatuses[]? | select(.ready|not)] | length > 0) | .metadata.name'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($cp.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Repo server and controller are ready
        ...    actual=Control plane pods are not ready
        ...    title=Argo CD Control Plane Pods Not Ready
        ...    reproduce_hint=${cp.cmd}
        ...    details=${cp.stdout}
        ...    next_steps=Check memory limits of the repo server; large monorepos need more
    END
    RW.Core.Add Pre To Report    Argo CD Control Plane Pods Not Ready:\n${cp.stdout}


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
    ${KUBECTL}=    RW.Core.Import User Variable    KUBECTL
    ...    type=string
    ...    description=Command line binary used to reach the cluster API.
    ...    pattern=\w*
    ...    example=kubectl
    ...    default=kubectl
    ${ARGOCD_NAMESPACE}=    RW.Core.Import User Variable    ARGOCD_NAMESPACE
    ...    type=string
    ...    description=Namespace where Argo CD and its Application objects live.
    ...    pattern=\w*
    ...    example=argocd
    ...    default=argocd
    ${APPLICATION_NAME}=    RW.Core.Import User Variable    APPLICATION_NAME
    ...    type=string
    ...    description=Application to inspect in detail. Leave as ALL to only run the summary.
    ...    pattern=\w*
    ...    example=storefront
    ...    default=ALL
    Set Suite Variable    ${CONTEXT}    ${CONTEXT}
    Set Suite Variable    ${KUBECTL}    ${KUBECTL}
    Set Suite Variable    ${ARGOCD_NAMESPACE}    ${ARGOCD_NAMESPACE}
    Set Suite Variable    ${APPLICATION_NAME}    ${APPLICATION_NAME}
    Set Suite Variable
    ...    ${env}
    ...    {"KUBECONFIG":"./${kubeconfig.key}", "CONTEXT":"${CONTEXT}"}
