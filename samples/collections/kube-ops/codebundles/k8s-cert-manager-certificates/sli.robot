*** Settings ***
Documentation       Scores the share of Certificates that are Ready and outside the renewal window.
Metadata            Author    Ines Carvalho
Metadata            Display Name    cert-manager Certificate Readiness
Metadata            Supports    Kubernetes,cert-manager,TLS
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score Ready Certificates in Namespace `${NAMESPACE}`
    [Documentation]    Fraction of Certificates that are Ready.
    [Tags]    certificates    access:read-only
    ${rc}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get certificates.cert-manager.io -n ${NAMESPACE} --context ${CONTEXT} -o json | jq '(.items | length) as $n | if $n == 0 then 1 else ([.items[] | select([.status.conditions[]? | select(.type=="Ready" and .status=="True")] | length > 0)] | length) / $n end'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=120
    ${ready_score}=    Evaluate    float(${rc.stdout})
    Set Global Variable    ${ready_score}
    RW.Core.Push Metric    ${ready_score}    sub_name=ready

Score Certificates Outside Renewal Window in Namespace `${NAMESPACE}`
    [Documentation]    Scores 1 when none are close to expiry.
    [Tags]    expiry    access:read-only
    ${ew}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get certificates.cert-manager.io -n ${NAMESPACE} --context ${CONTEXT} -o json | jq --argjson d ${RENEW_WINDOW_DAYS} '[.items[] | select(.status.notAfter) | select((.status.notAfter | fromdateiso8601) - now < ($d * 86400))] | length'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=120
    ${expiry_score}=    Evaluate    1 if int(${ew.stdout}) == 0 else 0
    Set Global Variable    ${expiry_score}
    RW.Core.Push Metric    ${expiry_score}    sub_name=expiry

Generate Certificate Score
    [Documentation]    Averages the sub-scores.
    [Tags]    score    access:read-only
    ${health_score}=    Evaluate    (${ready_score} + ${expiry_score}) / 2
    ${health_score}=    Convert to Number    ${health_score}    2
    RW.Core.Add to Report    Certificate score: ${health_score}
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
