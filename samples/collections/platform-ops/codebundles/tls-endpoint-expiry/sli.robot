*** Settings ***
Documentation       Pushes the share of endpoints whose certificate is valid for longer than WARN_DAYS.
Metadata            Author    Ines Carvalho
Metadata            Display Name    Public TLS Expiry Score
Metadata            Supports    TLS,HTTPS,Certificates
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score Endpoints Outside the Expiry Warning Window
    [Documentation]    Healthy endpoints divided by all endpoints.
    [Tags]    tls    access:read-only
    ${n}=    Count Endpoints    ${TLS_ENDPOINTS}
    ${exp}=    RW.CLI.Run Bash File
    ...    bash_file=tls_expiry.sh
    ...    env=${env}
    ...    include_in_history=False
    ...    timeout_seconds=240
    ${bad}=    Evaluate    len(json.loads(r'''${exp.stdout}'''))    json
    ${tls_score}=    Evaluate    round(1 - ${bad} / ${n}, 2)
    RW.Core.Push Metric    ${tls_score}


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


*** Keywords ***
Count Endpoints
    [Arguments]    ${endpoints}
    @{items}=    Split String    ${endpoints}    ,
    ${count}=    Get Length    ${items}
    RETURN    ${count}
