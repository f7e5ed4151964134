*** Settings ***
Documentation       Resolves public DNS names through several public resolvers and compares the answers with what the records should be.
Metadata            Author    René Dubois
Metadata            Display Name    External DNS Record Drift
Metadata            Supports    DNS,Route53,CloudDNS,AzureDNS
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Compare Public DNS Answers With Expected Records
    [Documentation]    For each expectation, queries every resolver and reports answers that differ from the expected value.
    [Tags]    dns    drift    access:read-only    data:config
    ${drift}=    RW.CLI.Run Bash File
    ...    bash_file=dns_drift.sh
    ...    env=${env}
    ...    include_in_history=False
    ...    timeout_seconds=240
    ${issue_list}=    Evaluate    json.loads(r'''${drift.stdout}''')    json
    FOR    ${item}    IN    @{issue_list}
        RW.Core.Add Issue
        ...    severity=${item["severity"]}
        ...    expected=${item["expected"]}
        ...    actual=${item["actual"]}
        ...    title=${item["title"]}
        ...    reproduce_hint=${drift.cmd}
        ...    details=${item["details"]}
        ...    next_steps=${item["next_steps"]}
    END

Check That Names Resolve Through Every Resolver in `${PUBLIC_RESOLVERS}`
    [Documentation]    Reports NXDOMAIN or SERVFAIL from any resolver, which points at propagation or DNSSEC problems.
    [Tags]    dns    resolution    access:read-only    data:config
    ${rcode}=    RW.CLI.Run Cli
    ...    cmd=for e in $(echo "${DNS_EXPECTATIONS}" | tr ';' ' '); do n=${e%%,*}; for r in $(echo ${PUBLIC_RESOLVERS} | tr ',' ' '); do s=$(dig +noall +comments @$r $n | grep -o 'status: [A-Z]*' | cut -d' ' -f2); [ "$s" = "NOERROR" ] || echo "$n via $r: $s"; done; done
    ...    env=${env}
    ...    timeout_seconds=180
    IF    len($rcode.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=NOERROR everywhere
        ...    actual=${rcode.stdout}
        ...    title=Public Names Fail to Resolve on Some Resolvers
        ...    reproduce_hint=${rcode.cmd}
        ...    details=${rcode.stdout}
        ...    next_steps=Check DNSSEC signatures (SERVFAIL) and delegation at the registrar (NXDOMAIN)
    END
    RW.Core.Add Pre To Report    Public Names Fail to Resolve on Some Resolvers:\n${rcode.stdout}

Compare SOA Serial Between Authoritative and Public Resolvers
    [Documentation]    A public resolver serving an old serial still caches an old zone version.
    [Tags]    dns    soa    access:read-only    data:config
    ${soa}=    RW.CLI.Run Cli
    ...    cmd=zone=$(echo "${DNS_EXPECTATIONS}" | cut -d, -f1 | awk -F. '{print $(NF-1)"."$NF}'); echo "authoritative $(dig +short SOA $zone @${AUTHORITATIVE_SERVER} | awk '{print $3}')"; for r in $(echo ${PUBLIC_RESOLVERS} | tr ',' ' '); do echo "$r $(dig +short SOA $zone @$r | awk '{print $3}')"; done
    ...    env=${env}
    RW.Core.Add Pre To Report    SOA serials:\n${soa.stdout}


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
