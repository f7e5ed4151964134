*** Settings ***
Documentation       Finds Key Vault secrets, keys and certificates that expire soon or never expire, and checks vault throttling.
Metadata            Author    Ravi Shankar
Metadata            Display Name    Azure Key Vault Expiry Check
Metadata            Supports    Azure,KeyVault,Secrets
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
List Key Vault Secrets Expiring Within `${EXPIRY_WINDOW_DAYS}` Days in `${KEYVAULT_NAME}`
    [Documentation]    Compares the expires attribute of every enabled secret with the window.
    [Tags]    azure    keyvault    secrets    access:read-only    data:config
    ${sx}=    RW.CLI.Run Cli
    ...    cmd=az account set --subscription ${AZURE_SUBSCRIPTION_ID} 2>/dev/null; az keyvault secret list --vault-name ${KEYVAULT_NAME} -o json | jq -r --argjson d ${EXPIRY_WINDOW_DAYS} '.[] | select(.attributes.enabled and .attributes.expires) | select(((.attributes.expires | sub("\\+00:00$"; "Z") | fromdateiso8601) - now) < ($d * 86400)) | .name + " expires " + .attributes.expires'
    ...    env=${env}
    ...    secret__azure_credentials=${azure_credentials}
    ...    timeout_seconds=180
    IF    len($sx.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=No secret expires within ${EXPIRY_WINDOW_DAYS} days
        ...    actual=${sx.stdout}
        ...    title=Key Vault `${KEYVAULT_NAME}` Secrets Expire Soon
        ...    reproduce_hint=${sx.cmd}
        ...    details=${sx.stdout}
        ...    next_steps=Rotate the secret and update every consumer\nSet a new expiry date
    END
    RW.Core.Add Pre To Report    Key Vault `${KEYVAULT_NAME}` Secrets Expire Soon:\n${sx.stdout}

List Certificates in Key Vault `${KEYVAULT_NAME}` Nearing Expiry
    [Documentation]    Same check for certificates, including those with auto-renew disabled.
    [Tags]    azure    keyvault    certificates    access:read-only    data:config
    ${cx}=    RW.CLI.Run Cli
    ...    cmd=az account set --subscription ${AZURE_SUBSCRIPTION_ID} 2>/dev/null; az keyvault certificate list --vault-name ${KEYVAULT_NAME} -o json | jq -r --argjson d ${EXPIRY_WINDOW_DAYS} '.[] | select(.attributes.expires) | select(((.attributes.expires | sub("\\+00:00$"; "Z") | fromdateiso8601) - now) < ($d * 86400)) | .name + " expires " + .attributes.expires'
    ...    env=${env}
    ...    secret__azure_credentials=${azure_credentials}
    ...    timeout_seconds=180
    IF    len($cx.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Certificates renew before the window
        ...    actual=${cx.stdout}
        ...    title=Key Vault `${KEYVAULT_NAME}` Certificates Expire Soon
        ...    reproduce_hint=${cx.cmd}
        ...    details=${cx.stdout}
        ...    next_steps=Check the issuer policy and auto-renew lifetime action
    END
    RW.Core.Add Pre To Report    Key Vault `${KEYVAULT_NAME}` Certificates Expire Soon:\n${cx.stdout}

Find Secrets Without an Expiration Date in `${KEYVAULT_NAME}`
    [Documentation]    Secrets that never expire are never rotated.
    [Tags]    azure    keyvault    hygiene    access:read-only    data:config
    ${nx}=    RW.CLI.Run Cli
    ...    cmd=az account set --subscription ${AZURE_SUBSCRIPTION_ID} 2>/dev/null; az keyvault secret list --vault-name ${KEYVAULT_NAME} --query "[?attributes.enabled && attributes.expires==null].name" -o tsv
    ...    env=${env}
    ...    secret__azure_credentials=${azure_credentials}
    ...    timeout_seconds=180
    IF    len($nx.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=4
        ...    expected=Every secret has an expiry date
        ...    actual=${nx.stdout}
        ...    title=Secrets Without Expiry in Key Vault `${KEYVAULT_NAME}`
        ...    reproduce_hint=${nx.cmd}
        ...    details=${nx.stdout}
        ...    next_steps=Set an expiry and a rotation reminder
    END
    RW.Core.Add Pre To Report    Secrets Without Expiry in Key Vault `${KEYVAULT_NAME}`:\n${nx.stdout}

Check Key Vault `${KEYVAULT_NAME}` Throttling and Availability Metrics
    [Documentation]    Reports throttled (429) requests and availability below 100%.
    [Tags]    azure    keyvault    access:read-only    data:metrics
    ${kvm}=    RW.CLI.Run Cli
    ...    cmd=az account set --subscription ${AZURE_SUBSCRIPTION_ID} 2>/dev/null; az monitor metrics list --resource $(az keyvault show -n ${KEYVAULT_NAME} --query id -o tsv) --metric Availability --aggregation Average --interval PT5M --offset 1h -o json | jq '[.value[0].timeseries[0].data[].average // 100] | min'
    ...    env=${env}
    ...    secret__azure_credentials=${azure_credentials}
    IF    float(${kvm.stdout}) < 100
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=100% availability
        ...    actual=${kvm.stdout}%
        ...    title=Key Vault `${KEYVAULT_NAME}` Availability Dropped
        ...    reproduce_hint=${kvm.cmd}
        ...    details=${kvm.stdout}
        ...    next_steps=Check for throttling from a hot loop reading secrets; cache them in the application
    END


*** Keywords ***
Suite Initialization
    ${azure_credentials}=    RW.Core.Import Secret
    ...    azure_credentials
    ...    type=string
    ...    description=Service principal credentials (tenant, client id, secret, subscription).
    ...    pattern=\w*
    ...    example=A secret with AZURE_CLIENT_ID, AZURE_TENANT_ID, AZURE_CLIENT_SECRET, AZURE_SUBSCRIPTION_ID
    ${AZ_RESOURCE_GROUP}=    RW.Core.Import User Variable    AZ_RESOURCE_GROUP
    ...    type=string
    ...    description=Resource group that holds the resource.
    ...    pattern=\w*
    ...    example=rg-shop-prod
    ${AZURE_SUBSCRIPTION_ID}=    RW.Core.Import User Variable    AZURE_SUBSCRIPTION_ID
    ...    type=string
    ...    description=Subscription id. Empty means the default subscription of the credentials.
    ...    pattern=\w*
    ...    example=00000000-0000-0000-0000-000000000000
    ...    default=
    ${KEYVAULT_NAME}=    RW.Core.Import User Variable    KEYVAULT_NAME
    ...    type=string
    ...    description=Key Vault name.
    ...    pattern=\w*
    ...    example=kv-shop-prod
    ${EXPIRY_WINDOW_DAYS}=    RW.Core.Import User Variable    EXPIRY_WINDOW_DAYS
    ...    type=integer
    ...    description=Items expiring within this many days are reported.
    ...    pattern=\w*
    ...    example=30
    ...    default=30
    Set Suite Variable    ${AZ_RESOURCE_GROUP}    ${AZ_RESOURCE_GROUP}
    Set Suite Variable    ${AZURE_SUBSCRIPTION_ID}    ${AZURE_SUBSCRIPTION_ID}
    Set Suite Variable    ${KEYVAULT_NAME}    ${KEYVAULT_NAME}
    Set Suite Variable    ${EXPIRY_WINDOW_DAYS}    ${EXPIRY_WINDOW_DAYS}
    Set Suite Variable
    ...    ${env}
    ...    {"AZ_RESOURCE_GROUP":"${AZ_RESOURCE_GROUP}", "AZURE_SUBSCRIPTION_ID":"${AZURE_SUBSCRIPTION_ID}"}
