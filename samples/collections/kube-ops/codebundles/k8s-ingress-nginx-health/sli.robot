*** Settings ***
Documentation       Scores the ingress controller on upstream error ratio and backend availability.
Metadata            Author    Marcus Oyelaran
Metadata            Display Name    Ingress NGINX Error Rate
Metadata            Supports    Kubernetes,NGINX,Ingress
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score Upstream Error Ratio From Controller Logs
    [Documentation]    Scores 1 when the 5xx ratio is under the limit.
    [Tags]    http    access:read-only
    ${acc}=    RW.CLI.Run Bash File
    ...    bash_file=upstream_errors.sh
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    include_in_history=False
    ...    timeout_seconds=240
    ${stats}=    Evaluate    json.loads(r'''${acc.stdout}''')    json
    ${err_score}=    Evaluate    1 if ${stats["error_ratio"]} <= ${ERROR_RATE_LIMIT} else 0
    Set Global Variable    ${err_score}
    RW.Core.Push Metric    ${err_score}    sub_name=upstream_errors

Score Ingress Backends With Endpoints in Namespace `${NAMESPACE}`
    [Documentation]    Scores 1 when every backend has endpoints.
    [Tags]    backends    access:read-only
    ${be}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get endpoints -n ${NAMESPACE} --context ${CONTEXT} -o json | jq '[.items[] | select(([.subsets[]?.addresses[]?] | length) == 0)] | length'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=120
    ${backend_score}=    Evaluate    1 if int(${be.stdout}) == 0 else 0
    Set Global Variable    ${backend_score}
    RW.Core.Push Metric    ${backend_score}    sub_name=backends

Generate Ingress Score
    [Documentation]    Averages the sub-scores.
    [Tags]    score    access:read-only
    ${health_score}=    Evaluate    (${err_score} + ${backend_score}) / 2
    ${health_score}=    Convert to Number    ${health_score}    2
    RW.Core.Add to Report    Ingress score: ${health_score}
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
    ${INGRESS_NAMESPACE}=    RW.Core.Import User Variable    INGRESS_NAMESPACE
    ...    type=string
    ...    description=Namespace where the ingress-nginx controller runs.
    ...    pattern=\w*
    ...    example=ingress-nginx
    ...    default=ingress-nginx
    ${CONTROLLER_LABEL}=    RW.Core.Import User Variable    CONTROLLER_LABEL
    ...    type=string
    ...    description=Label selector of the controller pods.
    ...    pattern=\w*
    ...    example=app.kubernetes.io/name=ingress-nginx
    ...    default=app.kubernetes.io/name=ingress-nginx
    ${ERROR_RATE_LIMIT}=    RW.Core.Import User Variable    ERROR_RATE_LIMIT
    ...    type=string
    ...    description=Share of 5xx responses in the sampled access log that is acceptable.
    ...    pattern=\w*
    ...    example=0.02
    ...    default=0.05
    Set Suite Variable    ${CONTEXT}    ${CONTEXT}
    Set Suite Variable    ${NAMESPACE}    ${NAMESPACE}
    Set Suite Variable    ${KUBECTL}    ${KUBECTL}
    Set Suite Variable    ${INGRESS_NAMESPACE}    ${INGRESS_NAMESPACE}
    Set Suite Variable    ${CONTROLLER_LABEL}    ${CONTROLLER_LABEL}
    Set Suite Variable    ${ERROR_RATE_LIMIT}    ${ERROR_RATE_LIMIT}
    Set Suite Variable
    ...    ${env}
    ...    {"KUBECONFIG":"./${kubeconfig.key}", "NAMESPACE":"${NAMESPACE}", "CONTEXT":"${CONTEXT}", "INGRESS_NAMESPACE":"${INGRESS_NAMESPACE}"}
