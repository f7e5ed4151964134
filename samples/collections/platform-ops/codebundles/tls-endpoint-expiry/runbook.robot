*** Settings ***
Documentation       Connects to public HTTPS endpoints and checks the served certificate: days to expiry, hostname match and chain completeness.
Metadata            Author    Ines Carvalho
Metadata            Display Name    Public TLS Endpoint Certificate Check
Metadata            Supports    TLS,HTTPS,Certificates
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Check Days Until Certificate Expiry for `${TLS_ENDPOINTS}`
    [Documentation]    Reads notAfter of the leaf certificate served on each endpoint.
    [Tags]    tls    expiry    access:read-only    data:config
    ${exp}=    RW.CLI.Run Bash File
    ...    bash_file=tls_expiry.sh
    ...    env=${env}
    ...    include_in_history=False
    ...    timeout_seconds=240
    ${issue_list}=    Evaluate    json.loads(r'''${exp.stdout}''')    json
    FOR    ${item}    IN    @{issue_list}
        RW.Core.Add Issue
        ...    severity=${item["severity"]}
        ...    expected=${item["expected"]}
        ...    actual=${item["actual"]}
        ...    title=${item["title"]}
        ...    reproduce_hint=${exp.cmd}
        ...    details=${item["details"]}
        ...    next_steps=${item["next_steps"]}
    END

Verify Certificate Hostname Matches for `${TLS_ENDPOINTS}`
    [Documentation]    Uses openssl verify_hostname so a certificate issued for the wrong name is reported.
    [Tags]    tls    hostname    access:read-only    data:config
    ${hn}=    RW.CLI.Run Cli
    ...    cmd=for ep in $(echo ${TLS_ENDPOINTS} | tr ',' ' '); do h=${ep%%:*}; echo | openssl s_client -connect $ep -servername $h -verify_hostname $h 2>/dev/null | grep -q 'Verify return code: 0' || echo "$ep: hostname or chain verification failed"; done
    ...    env=${env}
    ...    timeout_seconds=180
    IF    len($hn.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Certificates match the host and verify
        ...    actual=${hn.stdout}
        ...    title=TLS Verification Failed for Public Endpoints
        ...    reproduce_hint=${hn.cmd}
        ...    details=${hn.stdout}
        ...    next_steps=Check the SAN list of the certificate and the intermediate chain
    END
    RW.Core.Add Pre To Report    TLS Verification Failed for Public Endpoints:\n${hn.stdout}

Check Served Chain Completeness for `${TLS_ENDPOINTS}`
    [Documentation]    A server that omits intermediates works in some browsers and fails in others.
    [Tags]    tls    chain    access:read-only    data:config
    ${chain}=    RW.CLI.Run Cli
    ...    cmd=for ep in $(echo ${TLS_ENDPOINTS} | tr ',' ' '); do n=$(echo | openssl s_client -connect $ep -servername ${ep%%:*} -showcerts 2>/dev/null | grep -c 'BEGIN CERTIFICATE'); echo "$ep certificates_served=$n"; done
    ...    env=${env}
    RW.Core.Add Pre To Report    ${chain.stdout}


*** Keywords ***
Suite Initialization
    ${TLS_ENDPOINTS}=    RW.Core.Import User Variable    TLS_ENDPOINTS
    ...    type=string
    ...    description=Comma separated host:port list of public endpoints.
    ...    pattern=\w*
    ...    example=www.example.com:443,api.example.com:443
    ${WARN_DAYS}=    RW.Core.Import User Variable    WARN_DAYS
    ...    type=integer
    ...    description=Raise an issue when a certificate expires within this many days.
    ...    pattern=\w*
    ...    example=21
    ...    default=21
    Set Suite Variable    ${TLS_ENDPOINTS}    ${TLS_ENDPOINTS}
    Set Suite Variable    ${WARN_DAYS}    ${WARN_DAYS}
    Set Suite Variable
    ...    ${env}
    ...    {"TLS_ENDPOINTS":"${TLS_ENDPOINTS}"}
