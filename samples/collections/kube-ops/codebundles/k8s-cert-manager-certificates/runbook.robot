*** Settings ***
Documentation       Finds cert-manager Certificates that are not ready or close to expiry, and explains failed issuance.
Metadata            Author    Ines Carvalho
Metadata            Display Name    cert-manager Certificate Status
Metadata            Supports    Kubernetes,cert-manager,TLS
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
List Certificates Not Ready in Namespace `${NAMESPACE}`
    [Documentation]    Reports Certificate resources whose Ready condition is False with the condition message.
    [Tags]    certificates    cert-manager    access:read-only    data:config
    ${nr}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get certificates.cert-manager.io -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r '.items[] | .metadata.name as $c | .status.conditions[]? | select(.type=="Ready" and .status!="True") | $c + ": " + .reason + " - " + .message'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($nr.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Certificates are Ready
        ...    actual=Certificates are not Ready
        ...    title=cert-manager Certificates Not Ready in Namespace `${NAMESPACE}`
        ...    reproduce_hint=${nr.cmd}
        ...    details=${nr.stdout}
        ...    next_steps=Run the CertificateRequest task to see why issuance failed
    END
    RW.Core.Add Pre To Report    cert-manager Certificates Not Ready in Namespace `${NAMESPACE}`:\n${nr.stdout}

Find Certificates Expiring Within `${RENEW_WINDOW_DAYS}` Days in Namespace `${NAMESPACE}`
    [Documentation]    Compares status.notAfter with the renewal window; a certificate this close to expiry did not renew.
    [Tags]    certificates    expiry    access:read-only    data:config
    ${exp}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get certificates.cert-manager.io -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r --argjson d ${RENEW_WINDOW_DAYS} '.items[] | select(.status.notAfter) | select((.status.notAfter | fromdateiso8601) - now < ($d * 86400)) | .metadata.name + " expires " + .status.notAfter'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($exp.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Certificates renew well before ${RENEW_WINDOW_DAYS} days remain
        ...    actual=Certificates expire soon
        ...    title=Certificates Close to Expiry in Namespace `${NAMESPACE}`
        ...    reproduce_hint=${exp.cmd}
        ...    details=${exp.stdout}
        ...    next_steps=Check the Issuer and the latest CertificateRequest\nLook for ACME challenge failures
    END
    RW.Core.Add Pre To Report    Certificates Close to Expiry in Namespace `${NAMESPACE}`:\n${exp.stdout}

Inspect Failed CertificateRequests and ACME Orders in Namespace `${NAMESPACE}`
    [Documentation]    Shows CertificateRequests, Orders and Challenges that are not in a successful state.
    [Tags]    acme    issuance    access:read-only    data:config
    ${cr}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get certificaterequests,orders.acme.cert-manager.io,challenges.acme.cert-manager.io -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r '.items[] | select((.status.state // "") != "valid") | select([.status.conditions[]? | select(.type=="Ready" and .status=="True")] | length == 0) | .kind + "/" + .metadata.name + " " + (.status.state // "") + " " + (.status.reason // ([.status.conditions[]?.message] | join("; ")))'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    RW.Core.Add Pre To Report    Pending or failed issuance objects:\n${cr.stdout}

Check cert-manager Controller Logs for Issuer Errors
    [Documentation]    Greps the controller log for rate limits, DNS01/HTTP01 failures and issuer authentication errors.
    [Tags]    cert-manager    logs    access:read-only    data:logs-regexp
    ${cml}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} logs deploy/cert-manager -n ${CERT_MANAGER_NAMESPACE} --context ${CONTEXT} --since=6h | grep -Ei 'rateLimited|acme: error|failed to perform self check|issuer.*not ready|forbidden' | tail -n 30
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($cml.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=No issuer errors in the last 6h
        ...    actual=Issuer errors were logged
        ...    title=cert-manager Controller Reports Issuer Errors
        ...    reproduce_hint=${cml.cmd}
        ...    details=${cml.stdout}
        ...    next_steps=Check DNS provider credentials or HTTP01 solver ingress
    END
    RW.Core.Add Pre To Report    cert-manager Controller Reports Issuer Errors:\n${cml.stdout}

Verify ClusterIssuer and Issuer Readiness
    [Documentation]    Lists Issuers and ClusterIssuers that are not Ready.
    [Tags]    issuer    access:read-only    data:config
    ${iss}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get clusterissuers,issuers -A --context ${CONTEXT} -o json | jq -r '.items[] | select([.status.conditions[]? | select(.type=="Ready" and .status=="True")] | length == 0) | .kind + "/" + .metadata.name'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($iss.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Issuers are Ready
        ...    actual=Issuers are not Ready
        ...    title=Certificate Issuers Not Ready
        ...    reproduce_hint=${iss.cmd}
        ...    details=${iss.stdout}
        ...    next_steps=Check the ACME account secret or CA secret referenced by the issuer
    END
    RW.Core.Add Pre To Report    Certificate Issuers Not Ready:\n${iss.stdout}


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
    ${RENEW_WINDOW_DAYS}=    RW.Core.Import User Variable    RENEW_WINDOW_DAYS
    ...    type=integer
    ...    description=Certificates expiring within this many days are reported.
    ...    pattern=\w*
    ...    example=14
    ...    default=14
    ${CERT_MANAGER_NAMESPACE}=    RW.Core.Import User Variable    CERT_MANAGER_NAMESPACE
    ...    type=string
    ...    description=Namespace of the cert-manager controller.
    ...    pattern=\w*
    ...    example=cert-manager
    ...    default=cert-manager
    Set Suite Variable    ${CONTEXT}    ${CONTEXT}
    Set Suite Variable    ${NAMESPACE}    ${NAMESPACE}
    Set Suite Variable    ${KUBECTL}    ${KUBECTL}
    Set Suite Variable    ${RENEW_WINDOW_DAYS}    ${RENEW_WINDOW_DAYS}
    Set Suite Variable    ${CERT_MANAGER_NAMESPACE}    ${CERT_MANAGER_NAMESPACE}
    Set Suite Variable
    ...    ${env}
    ...    {"KUBECONFIG":"./${kubeconfig.key}", "NAMESPACE":"${NAMESPACE}", "CONTEXT":"${CONTEXT}"}
