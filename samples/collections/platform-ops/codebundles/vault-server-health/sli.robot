*** Settings ***
Documentation       Scores Vault on the /sys/health endpoint: initialized, unsealed and active or standby.
Metadata            Author    Ravi Shankar
Metadata            Display Name    HashiCorp Vault Availability
Metadata            Supports    HashiCorp Vault,Secrets
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score Vault Health Endpoint at `${VAULT_ADDR}`
    [Documentation]    Scores 1 for 200 (active) or 429 (standby), else 0.
    [Tags]    vault    access:read-only
    ${h}=    RW.CLI.Run Cli
    ...    cmd=curl -s -o /dev/null -w '%{http_code}' ${VAULT_ADDR}/v1/sys/health
    ...    env=${env}
    ...    timeout_seconds=120
    ${vault_score}=    Evaluate    1 if "${h.stdout}" in ("200", "429") else 0
    Set Global Variable    ${vault_score}
    RW.Core.Push Metric    ${vault_score}    sub_name=health


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
