*** Settings ***
Documentation       Checks the ingress-nginx controller and the Ingress objects of a namespace: backends, TLS secrets, 5xx from upstreams and reload errors.
Metadata            Author    Marcus Oyelaran
Metadata            Display Name    Ingress NGINX Controller Health
Metadata            Supports    Kubernetes,NGINX,Ingress
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Check Ingress Controller Pods in Namespace `${INGRESS_NAMESPACE}`
    [Documentation]    Verifies controller pods are ready and have not restarted recently.
    [Tags]    ingress    nginx    access:read-only    data:config
    ${ctl}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get pods -n ${INGRESS_NAMESPACE} --context ${CONTEXT} -l ${CONTROLLER_LABEL} -o json | jq -r '.items[] | select((.status.containerStatuses[0].ready|not) or .status.containerStatuses[0].restartCount > 2) | .metadata.name + " ready=" + (.status.containerStatuses[0].ready|tostring) + " restarts=" + (.status.containerStatuses[0].restartCount|tostring)'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($ctl.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=1
        ...    expected=Controller pods are ready and stable
        ...    actual=Controller pods are not ready or restarting
        ...    title=Ingress Controller Pods Unhealthy in `${INGRESS_NAMESPACE}`
        ...    reproduce_hint=${ctl.cmd}
        ...    details=${ctl.stdout}
        ...    next_steps=Read the controller logs\nCheck the admission webhook and config reloads
    END
    RW.Core.Add Pre To Report    Ingress Controller Pods Unhealthy in `${INGRESS_NAMESPACE}`:\n${ctl.stdout}

Find Ingress Rules With Missing Backend Services in Namespace `${NAMESPACE}`
    [Documentation]    Walks every rule of every Ingress and verifies the backend Service exists, exposes the port and
    ...    has ready endpoints; also flags unknown ingress classes and hosts claimed twice.
    [Tags]    ingress    backends    access:read-only    data:config
    ${rules}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get ingress -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r '[.items[] | .metadata.name as $ing | (.spec.rules // [])[] | .host as $host | (.http.paths // [])[] | {ingress: $ing, host: ($host // "*"), path: (.path // "/"), service: .backend.service.name, port: (.backend.service.port.number // .backend.service.port.name)}] | .[]' | while read -r row; do svc=$(echo "$row" | jq -r .service); ing=$(echo "$row" | jq -r .ingress); host=$(echo "$row" | jq -r .host); path=$(echo "$row" | jq -r .path); port=$(echo "$row" | jq -r .port); if ! ${KUBECTL} get service "$svc" -n ${NAMESPACE} --context ${CONTEXT} >/dev/null 2>&1; then echo "ingress=$ing host=$host path=$path backend=$svc:$port problem=service-missing"; continue; fi; ready=$(${KUBECTL} get endpoints "$svc" -n ${NAMESPACE} --context ${CONTEXT} -o json | jq '[.subsets[]?.addresses[]?] | length'); if [ "$ready" = "0" ]; then echo "ingress=$ing host=$host path=$path backend=$svc:$port problem=no-ready-endpoints"; continue; fi; ports=$(${KUBECTL} get service "$svc" -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r '[.spec.ports[] | (.port|tostring), (.name // empty)] | join(" ")'); case " $ports " in *" $port "*) : ;; *) echo "ingress=$ing host=$host path=$path backend=$svc:$port problem=port-not-exposed ports=[$ports]" ;; esac; done; for ing in $(${KUBECTL} get ingress -n ${NAMESPACE} --context ${CONTEXT} -o jsonpath='{.items[*].metadata.name}'); do cls=$(${KUBECTL} get ingress "$ing" -n ${NAMESPACE} --context ${CONTEXT} -o jsonpath='{.spec.ingressClassName}'); if [ -z "$cls" ]; then ann=$(${KUBECTL} get ingress "$ing" -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r '.metadata.annotations["kubernetes.io/ingress.class"] // empty'); if [ -z "$ann" ]; then echo "ingress=$ing problem=no-ingress-class note=`default class may or may not pick this up`"; fi; elif ! ${KUBECTL} get ingressclass "$cls" --context ${CONTEXT} >/dev/null 2>&1; then echo "ingress=$ing problem=unknown-ingress-class class=$cls"; fi; tlshosts=$(${KUBECTL} get ingress "$ing" -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r '[.spec.tls[]?.hosts[]?] | join(",")'); rulehosts=$(${KUBECTL} get ingress "$ing" -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r '[.spec.rules[]?.host // empty] | join(",")'); for h in $(echo "$rulehosts" | tr ',' ' '); do if [ -n "$tlshosts" ] && ! echo ",$tlshosts," | grep -q ",$h,"; then echo "ingress=$ing host=$h problem=host-not-in-tls-block"; fi; done; dup=$(${KUBECTL} get ingress -A --context ${CONTEXT} -o json | jq -r --arg i "$ing" --arg n ${NAMESPACE} '[.items[] | select(.metadata.name != $i or .metadata.namespace != $n) | .spec.rules[]?.host // empty] | join(" ")'); for h in $(echo "$rulehosts" | tr ',' ' '); do case " $dup " in *" $h "*) echo "ingress=$ing host=$h problem=host-claimed-by-another-ingress" ;; esac; done; proto=$(${KUBECTL} get ingress "$ing" -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r '.metadata.annotations["nginx.ingress.kubernetes.io/backend-protocol"] // "HTTP"'); if [ "$proto" = "HTTPS" ]; then for svc in $(${KUBECTL} get ingress "$ing" -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r '[.spec.rules[]?.http.paths[]?.backend.service.name] | unique | .[]'); do p443=$(${KUBECTL} get service "$svc" -n ${NAMESPACE} --context ${CONTEXT} -o json | jq '[.spec.ports[] | select(.port==443 or .name=="https")] | length'); [ "$p443" = "0" ] && echo "ingress=$ing backend=$svc problem=https-backend-protocol-but-no-https-port"; done; fi; done
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=300
    IF    len($rules.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Every Ingress path routes to a Service with ready endpoints
        ...    actual=Broken routes were found
        ...    title=Ingress Rules in `${NAMESPACE}` Point at Broken Backends
        ...    reproduce_hint=${rules.cmd}
        ...    details=${rules.stdout}
        ...    next_steps=Fix the Service name or port in the Ingress\nCheck readiness of the backend pods
    END
    RW.Core.Add Pre To Report    Ingress Rules in `${NAMESPACE}` Point at Broken Backends:\n${rules.stdout}

Scan Controller Access Logs for Upstream 5xx Responses
    [Documentation]    Samples the controller access log and computes the share of 502, 503 and 504 responses per upstream.
    [Tags]    logs    http    access:read-only    data:logs-regexp
    ${acc}=    RW.CLI.Run Bash File
    ...    bash_file=upstream_errors.sh
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    include_in_history=False
    ...    timeout_seconds=240
    ${stats}=    Evaluate    json.loads(r'''${acc.stdout}''')    json
    IF    ${stats["error_ratio"]} > ${ERROR_RATE_LIMIT}
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Fewer than ${ERROR_RATE_LIMIT} of sampled requests fail
        ...    actual=Error ratio is ${stats["error_ratio"]}
        ...    title=Upstreams Returning 5xx Through the Ingress Controller
        ...    reproduce_hint=${acc.cmd}
        ...    details=${stats}
        ...    next_steps=Check the upstream pods listed under worst_upstreams
    END

Validate TLS Secrets Referenced by Ingress Objects in Namespace `${NAMESPACE}`
    [Documentation]    Checks every secretName in Ingress tls blocks exists and is of type kubernetes.io/tls.
    [Tags]    tls    secrets    access:read-only    data:config
    ${tls}=    RW.CLI.Run Cli
    ...    cmd=for s in $(${KUBECTL} get ingress -n ${NAMESPACE} --context ${CONTEXT} -o jsonpath='{.items[*].spec.tls[*].secretName}'); do ${KUBECTL} get secret $s -n ${NAMESPACE} --context ${CONTEXT} -o jsonpath='{.type}' >/dev/null 2>&1 || echo "missing secret $s"; done
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($tls.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Referenced TLS secrets exist
        ...    actual=Secrets are missing
        ...    title=Ingress TLS Secret Missing in Namespace `${NAMESPACE}`
        ...    reproduce_hint=${tls.cmd}
        ...    details=${tls.stdout}
        ...    next_steps=Recreate the secret or fix the Certificate that should produce it
    END
    RW.Core.Add Pre To Report    Ingress TLS Secret Missing in Namespace `${NAMESPACE}`:\n${tls.stdout}

Report Controller Configuration Reload Failures
    [Documentation]    Searches controller logs for failed reloads and rejected configuration snippets.
    [Tags]    nginx    logs    access:read-only    data:logs-regexp
    ${rl}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} logs -n ${INGRESS_NAMESPACE} --context ${CONTEXT} -l ${CONTROLLER_LABEL} --since=1h --tail=-1 | grep -Ei 'error reloading|unexpected error|nginx: \[emerg\]' | tail -n 40
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($rl.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Reloads succeed
        ...    actual=Reload errors found
        ...    title=Ingress Controller Failed to Reload Its Configuration
        ...    reproduce_hint=${rl.cmd}
        ...    details=${rl.stdout}
        ...    next_steps=Find the Ingress annotation or snippet that produced invalid config
    END
    RW.Core.Add Pre To Report    Ingress Controller Failed to Reload Its Configuration:\n${rl.stdout}


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
