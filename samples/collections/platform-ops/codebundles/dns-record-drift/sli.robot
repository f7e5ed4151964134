*** Settings ***
Documentation       Pushes the share of expectations that every public resolver answers correctly.
Metadata            Author    René Dubois
Metadata            Display Name    External DNS Consistency
Metadata            Supports    DNS,Route53,CloudDNS,AzureDNS
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score Matching DNS Answers
    [Documentation]    Correct expectations divided by all expectations.
    [Tags]    dns    access:read-only
    ${drift}=    RW.CLI.Run Bash File
    ...    bash_file=dns_drift.sh
    ...    env=${env}
    ...    include_in_history=False
    ...    timeout_seconds=240
    ${bad}=    Evaluate    len(json.loads(r'''${drift.stdout}'''))    json
    @{all}=    Split String    ${DNS_EXPECTATIONS}    ;
    ${dns_score}=    Evaluate    round(1 - min(${bad}, len(${all})) / len(${all}), 2)
    RW.Core.Push Metric    ${dns_score}


*** Keywords ***
Suite Initialization
    ${DNS_EXPECTATIONS}=    RW.Core.Import User Variable    DNS_EXPECTATIONS
    ...    type=string
    ...    description=Semicolon separated list of name,type,expected-value entries.
    ...    pattern=\w*
    ...    example=www.example.com,CNAME,shop-lb.example.net.;api.example.com,A,203.0.113.10
    ${PUBLIC_RESOLVERS}=    RW.Core.Import User Variable    PUBLIC_RESOLVERS
    ...    type=string
    ...    description=Comma separated resolvers to query.
    ...    pattern=\w*
    ...    example=1.1.1.1,8.8.8.8,9.9.9.9
    ...    default=1.1.1.1,8.8.8.8
    ${AUTHORITATIVE_SERVER}=    RW.Core.Import User Variable    AUTHORITATIVE_SERVER
    ...    type=string
    ...    description=One authoritative name server of the zone, used for the SOA check.
    ...    pattern=\w*
    ...    example=ns-101.awsdns-12.com
    ...    default=
    Set Suite Variable    ${DNS_EXPECTATIONS}    ${DNS_EXPECTATIONS}
    Set Suite Variable    ${PUBLIC_RESOLVERS}    ${PUBLIC_RESOLVERS}
    Set Suite Variable    ${AUTHORITATIVE_SERVER}    ${AUTHORITATIVE_SERVER}
    Set Suite Variable
    ...    ${env}
    ...    {"DNS_EXPECTATIONS":"${DNS_EXPECTATIONS}", "PUBLIC_RESOLVERS":"${PUBLIC_RESOLVERS}"}
