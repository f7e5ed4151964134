*** Settings ***
Documentation       Probes an HTTP endpoint several times and breaks down where the time goes: DNS, connect, TLS, first byte.
Metadata            Author    Marcus Oyelaran
Metadata            Display Name    HTTP Endpoint Latency and Uptime
Metadata            Supports    HTTP,Web,SLI
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Measure Response Time Breakdown for `${TARGET_URL}`
    [Documentation]    Uses curl timing variables to split each request into DNS, TCP connect, TLS, server processing and transfer time.
    [Tags]    http    latency    access:read-only    data:metrics
    ${timing}=    RW.CLI.Run Cli
    ...    cmd=for i in $(seq ${SAMPLES}); do curl -s -o /dev/null -w '%{http_code} dns=%{time_namelookup} connect=%{time_connect} tls=%{time_appconnect} ttfb=%{time_starttransfer} total=%{time_total}\n' ${TARGET_URL}; done
    ...    env=${env}
    RW.Core.Add Pre To Report    ${timing.stdout}
    ${slow}=    Evaluate    [l for l in r'''${timing.stdout}'''.splitlines() if float(l.split("total=")[1]) * 1000 > ${LATENCY_TARGET_MS}]
    IF    len(${slow}) > 0
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=All samples under ${LATENCY_TARGET_MS} ms
        ...    actual=${slow}
        ...    title=Requests to `${TARGET_URL}` Exceed ${LATENCY_TARGET_MS} ms
        ...    reproduce_hint=${timing.cmd}
        ...    details=${timing.stdout}
        ...    next_steps=If ttfb dominates, look at the backend\nIf dns or connect dominate, look at the network path
    END

Check Status Codes Returned by `${TARGET_URL}`
    [Documentation]    Reports samples whose status code is not in EXPECTED_STATUS.
    [Tags]    http    status    access:read-only    data:config
    ${codes}=    RW.CLI.Run Cli
    ...    cmd=for i in $(seq ${SAMPLES}); do curl -s -o /dev/null -w '%{http_code}\n' ${TARGET_URL}; done | sort | uniq -c | awk -v ok=",${EXPECTED_STATUS}," 'index(ok, "," $2 ",") == 0'
    ...    env=${env}
    ...    timeout_seconds=180
    IF    len($codes.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Status in ${EXPECTED_STATUS}
        ...    actual=${codes.stdout}
        ...    title=Unexpected HTTP Status From `${TARGET_URL}`
        ...    reproduce_hint=${codes.cmd}
        ...    details=${codes.stdout}
        ...    next_steps=Check the service behind the URL and its recent deploys
    END
    RW.Core.Add Pre To Report    Unexpected HTTP Status From `${TARGET_URL}`:\n${codes.stdout}

Follow Redirect Chain for `${TARGET_URL}`
    [Documentation]    Prints each hop; long redirect chains add latency before the first byte.
    [Tags]    http    access:read-only    data:config
    ${redir}=    RW.CLI.Run Cli
    ...    cmd=curl -sIL -o /dev/null -w '%{num_redirects} redirects, final %{url_effective}\n' ${TARGET_URL}
    ...    env=${env}
    RW.Core.Add Pre To Report    ${redir.stdout}


*** Keywords ***
Suite Initialization
    ${TARGET_URL}=    RW.Core.Import User Variable    TARGET_URL
    ...    type=string
    ...    description=URL to probe.
    ...    pattern=\w*
    ...    example=https://www.example.com/healthz
    ${LATENCY_TARGET_MS}=    RW.Core.Import User Variable    LATENCY_TARGET_MS
    ...    type=integer
    ...    description=Response time budget in milliseconds.
    ...    pattern=\w*
    ...    example=400
    ...    default=500
    ${SAMPLES}=    RW.Core.Import User Variable    SAMPLES
    ...    type=integer
    ...    description=Number of requests per run.
    ...    pattern=\w*
    ...    example=10
    ...    default=5
    ${EXPECTED_STATUS}=    RW.Core.Import User Variable    EXPECTED_STATUS
    ...    type=string
    ...    description=Accepted HTTP status codes, comma separated.
    ...    pattern=\w*
    ...    example=200,204
    ...    default=200
    Set Suite Variable    ${TARGET_URL}    ${TARGET_URL}
    Set Suite Variable    ${LATENCY_TARGET_MS}    ${LATENCY_TARGET_MS}
    Set Suite Variable    ${SAMPLES}    ${SAMPLES}
    Set Suite Variable    ${EXPECTED_STATUS}    ${EXPECTED_STATUS}
    Set Suite Variable
    ...    ${env}
    ...    {"TARGET_URL":"${TARGET_URL}"}
