*** Settings ***
Documentation       Checks a Vault cluster: seal state, HA leader, raft peers and autopilot health, lease growth and audit devices.
Metadata            Author    Ravi Shankar
Metadata            Display Name    HashiCorp Vault Server Health
Metadata            Supports    HashiCorp Vault,Secrets
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Check Seal Status of Vault at `${VAULT_ADDR}`
    [Documentation]    A sealed Vault serves no secrets; every dependent application fails to start.
    [Tags]    vault    seal    access:read-only    data:config
    ${seal}=    RW.CLI.Run Cli
    ...    cmd=VAULT_TOKEN=$vault_token vault status | jq -r 'select(.sealed) | "sealed=true progress=\\(.progress)/\\(.t)"'
    ...    env=${env}
    ...    secret__vault_token=${vault_token}
    ...    timeout_seconds=180
    IF    len($seal.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=1
        ...    expected=Vault is unsealed
        ...    actual=${seal.stdout}
        ...    title=Vault at `${VAULT_ADDR}` Is Sealed
        ...    reproduce_hint=${seal.cmd}
        ...    details=${seal.stdout}
        ...    next_steps=Check the auto-unseal KMS key and its permissions\nUnseal with key shares if manual
    END
    RW.Core.Add Pre To Report    Vault at `${VAULT_ADDR}` Is Sealed:\n${seal.stdout}

Verify HA Leader and Standby Nodes of `${VAULT_ADDR}`
    [Documentation]    Shows the active node and the standbys known to it.
    [Tags]    vault    ha    access:read-only    data:config
    ${ha}=    RW.CLI.Run Cli
    ...    cmd=VAULT_TOKEN=$vault_token vault operator members 2>/dev/null || VAULT_TOKEN=$vault_token vault read sys/leader
    ...    env=${env}
    ...    secret__vault_token=${vault_token}
    RW.Core.Add Pre To Report    ${ha.stdout}

Check Raft Autopilot Health for `${VAULT_ADDR}`
    [Documentation]    Reports unhealthy raft servers and a cluster that lost failure tolerance.
    [Tags]    vault    raft    access:read-only    data:config
    ${ap}=    RW.CLI.Run Cli
    ...    cmd=VAULT_TOKEN=$vault_token vault operator raft autopilot state | jq -r 'select(.healthy|not) or (.failure_tolerance < 1) | "healthy=\\(.healthy) failure_tolerance=\\(.failure_tolerance)"' 2>/dev/null; VAULT_TOKEN=$vault_token vault operator raft autopilot state | jq -r '.servers[] | select(.healthy|not) | .id + " unhealthy, last contact " + .last_contact'
    ...    env=${env}
    ...    secret__vault_token=${vault_token}
    ...    timeout_seconds=180
    IF    len($ap.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=All raft peers healthy, failure tolerance at least 1
        ...    actual=${ap.stdout}
        ...    title=Vault Raft Cluster Degraded at `${VAULT_ADDR}`
        ...    reproduce_hint=${ap.cmd}
        ...    details=${ap.stdout}
        ...    next_steps=Check the unhealthy peer host and disk latency
    END
    RW.Core.Add Pre To Report    Vault Raft Cluster Degraded at `${VAULT_ADDR}`:\n${ap.stdout}

Check Active Lease Count on `${VAULT_ADDR}`
    [Documentation]    Lease explosions slow Vault down and usually come from a client requesting credentials in a loop.
    [Tags]    vault    leases    access:read-only    data:metrics
    ${leases}=    RW.CLI.Run Cli
    ...    cmd=curl -s -H "X-Vault-Token: $vault_token" ${VAULT_ADDR}/v1/sys/metrics?format=prometheus | grep '^vault_expire_num_leases' | awk '{print $2}'
    ...    env=${env}
    ...    secret__vault_token=${vault_token}
    IF    int(float(${leases.stdout} or 0)) > ${LEASE_COUNT_LIMIT}
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=Fewer than ${LEASE_COUNT_LIMIT} leases
        ...    actual=${leases.stdout}
        ...    title=Excessive Active Leases on Vault `${VAULT_ADDR}`
        ...    reproduce_hint=${leases.cmd}
        ...    details=${leases.stdout}
        ...    next_steps=Find the auth method or role creating leases\nShorten TTLs or reuse tokens in the client
    END

Verify an Audit Device Is Enabled on `${VAULT_ADDR}`
    [Documentation]    Without an audit device there is no record of who read which secret.
    [Tags]    vault    audit    access:read-only    data:config
    ${aud}=    RW.CLI.Run Cli
    ...    cmd=VAULT_TOKEN=$vault_token vault audit list | jq -r 'if length == 0 then "no audit device enabled" else empty end'
    ...    env=${env}
    ...    secret__vault_token=${vault_token}
    ...    timeout_seconds=180
    IF    len($aud.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=At least one audit device
        ...    actual=${aud.stdout}
        ...    title=No Audit Device on Vault `${VAULT_ADDR}`
        ...    reproduce_hint=${aud.cmd}
        ...    details=${aud.stdout}
        ...    next_steps=Enable a file or socket audit device
    END
    RW.Core.Add Pre To Report    No Audit Device on Vault `${VAULT_ADDR}`:\n${aud.stdout}


*** Keywords ***
Suite Initialization
    ${vault_token}=    RW.Core.Import Secret
    ...    vault_token
    ...    type=string
    ...    description=Token with read on sys/ paths (a monitoring policy).
    ...    pattern=\w*
    ...    example=hvs.CAES...
    ${VAULT_ADDR}=    RW.Core.Import User Variable    VAULT_ADDR
    ...    type=string
    ...    description=Vault API address.
    ...    pattern=\w*
    ...    example=https://vault.internal:8200
    ${LEASE_COUNT_LIMIT}=    RW.Core.Import User Variable    LEASE_COUNT_LIMIT
    ...    type=integer
    ...    description=Number of active leases considered excessive.
    ...    pattern=\w*
    ...    example=200000
    ...    default=100000
    Set Suite Variable    ${VAULT_ADDR}    ${VAULT_ADDR}
    Set Suite Variable    ${LEASE_COUNT_LIMIT}    ${LEASE_COUNT_LIMIT}
    Set Suite Variable
    ...    ${env}
    ...    {"VAULT_ADDR":"${VAULT_ADDR}", "VAULT_FORMAT":"json"}
