*** Settings ***
Documentation       Pushes the share of samples that returned an expected status within the latency target.
Metadata            Author    Marcus Oyelaran
Metadata            Display Name    HTTP Endpoint Latency SLI
Metadata            Supports    HTTP,Web,SLI
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score Requests Within `${LATENCY_TARGET_MS}` ms for `${TARGET_URL}`
    [Documentation]    Good samples divided by all samples.
    [Tags]    http    latency    access:read-only
    ${s}=    RW.CLI.Run Cli
    ...    cmd=for i in $(seq ${SAMPLES}); do curl -s -o /dev/null -w '%{http_code} %{time_total}\n' ${TARGET_URL}; done
    ...    env=${env}
    ${good}=    Evaluate    sum(1 for l in r'''${s.stdout}'''.splitlines() if l.split()[0] in "${EXPECTED_STATUS}".split(",") and float(l.split()[1]) * 1000 <= ${LATENCY_TARGET_MS})
    ${latency_score}=    Evaluate    round(${good} / ${SAMPLES}, 2)
    RW.Core.Push Metric    ${latency_score}


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
