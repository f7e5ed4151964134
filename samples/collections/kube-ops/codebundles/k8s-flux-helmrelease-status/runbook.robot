*** Settings ***
Documentation       Reports Flux HelmReleases and Kustomizations that are not reconciling, with failed Helm actions and broken sources.
Metadata            Author    Sven Aalto
Metadata            Display Name    Flux HelmRelease and Kustomization Status
Metadata            Supports    Kubernetes,FluxCD,Helm,GitOps
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
List HelmReleases Not Ready in Namespace `${NAMESPACE}`
    [Documentation]    Shows every HelmRelease whose Ready condition is not True, with the reconciliation message.
    [Tags]    flux    helm    access:read-only    data:config
    ${hr}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get helmreleases.helm.toolkit.fluxcd.io -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r '.items[] | .metadata.name as $h | .status.conditions[]? | select(.type=="Ready" and .status!="True") | $h + ": " + .message'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($hr.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=HelmReleases are Ready
        ...    actual=HelmReleases are not Ready
        ...    title=HelmReleases Failing to Reconcile in Namespace `${NAMESPACE}`
        ...    reproduce_hint=${hr.cmd}
        ...    details=${hr.stdout}
        ...    next_steps=Check the chart values diff and the Helm history of the release
    END
    RW.Core.Add Pre To Report    HelmReleases Failing to Reconcile in Namespace `${NAMESPACE}`:\n${hr.stdout}

Show Failed Helm Upgrade and Rollback History for HelmReleases in Namespace `${NAMESPACE}`
    [Documentation]    Prints the Helm history recorded in the HelmRelease status for releases with failures.
    [Tags]    helm    history    access:read-only    data:config
    ${hist}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get helmreleases.helm.toolkit.fluxcd.io -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r '.items[] | select((.status.failures // 0) > 0 or (.status.upgradeFailures // 0) > 0) | .metadata.name + " failures=" + ((.status.failures // 0)|tostring) + " lastAttempted=" + (.status.lastAttemptedRevision // "?") + " history=" + ([.status.history[]? | .chartVersion + ":" + .status] | join(","))'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    RW.Core.Add Pre To Report    ${hist.stdout}

Check Kustomizations With Reconciliation Errors in Namespace `${NAMESPACE}`
    [Documentation]    Reports Kustomizations that fail to build or apply, such as invalid manifests or dependency waits.
    [Tags]    flux    kustomize    access:read-only    data:config
    ${ks}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get kustomizations.kustomize.toolkit.fluxcd.io -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r '.items[] | .metadata.name as $k | .status.conditions[]? | select(.type=="Ready" and .status=="False") | $k + ": " + .reason + " " + .message'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($ks.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Kustomizations apply cleanly
        ...    actual=Kustomizations report errors
        ...    title=Kustomizations Failing in Namespace `${NAMESPACE}`
        ...    reproduce_hint=${ks.cmd}
        ...    details=${ks.stdout}
        ...    next_steps=Validate the manifests in the source path\nCheck dependsOn targets
    END
    RW.Core.Add Pre To Report    Kustomizations Failing in Namespace `${NAMESPACE}`:\n${ks.stdout}

Verify Source Objects Are Fetching in Namespace `${NAMESPACE}`
    [Documentation]    Checks GitRepository, HelmRepository and OCIRepository objects for fetch or authentication errors.
    [Tags]    flux    source    access:read-only    data:config
    ${src}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get gitrepositories.source.toolkit.fluxcd.io,helmrepositories.source.toolkit.fluxcd.io,ocirepositories.source.toolkit.fluxcd.io -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r '.items[] | .kind + "/" + .metadata.name as $s | .status.conditions[]? | select(.type=="Ready" and .status=="False") | $s + ": " + .message'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($src.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Sources fetch new revisions
        ...    actual=Sources report errors
        ...    title=Flux Sources Cannot Fetch in Namespace `${NAMESPACE}`
        ...    reproduce_hint=${src.cmd}
        ...    details=${src.stdout}
        ...    next_steps=Check deploy keys, tokens and the repository URL
    END
    RW.Core.Add Pre To Report    Flux Sources Cannot Fetch in Namespace `${NAMESPACE}`:\n${src.stdout}

Detect Suspended Flux Objects in Namespace `${NAMESPACE}`
    [Documentation]    Lists HelmReleases and Kustomizations left suspended.
    [Tags]    flux    access:read-only    data:config
    ${susp}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get helmreleases.helm.toolkit.fluxcd.io,kustomizations.kustomize.toolkit.fluxcd.io -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r '.items[] | select(.spec.suspend==true) | .kind + "/" + .metadata.name'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($susp.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=4
        ...    expected=Reconciliation is not suspended
        ...    actual=Objects are suspended
        ...    title=Suspended Flux Objects in Namespace `${NAMESPACE}`
        ...    reproduce_hint=${susp.cmd}
        ...    details=${susp.stdout}
        ...    next_steps=Resume reconciliation once the manual change is merged to Git
    END
    RW.Core.Add Pre To Report    Suspended Flux Objects in Namespace `${NAMESPACE}`:\n${susp.stdout}


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
    ...    example=flux-system
    ...    default=flux-system
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
