*** Settings ***
Documentation       Pushes 1 when nothing in the vault expires within the window, else 0.
Metadata            Author    Ravi Shankar
Metadata            Display Name    Azure Key Vault Expiry Score
Metadata            Supports    Azure,KeyVault,Secrets
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score Key Vault Items Outside Expiry Window for `${KEYVAULT_NAME}`
    [Documentation]    Scores 1 when no secret or certificate is close to expiry.
    [Tags]    azure    keyvault    access:read-only
    ${n}=    RW.CLI.Run Cli
    ...    cmd=az account set --subscription ${AZURE_SUBSCRIPTION_ID} 2>/dev/null; (az keyvault secret list --vault-name ${KEYVAULT_NAME} -o json; az keyvault certificate list --vault-name ${KEYVAULT_NAME} -o json) | jq -s --argjson d ${EXPIRY_WINDOW_DAYS} '[.[][] | select(.attributes.expires) | select(((.attributes.expires | sub("\\+00:00$"; "Z") | fromdateiso8601) - now) < ($d * 86400))] | length'
    ...    env=${env}
    ...    secret__azure_credentials=${azure_credentials}
    ...    timeout_seconds=120
    ${expiry_score}=    Evaluate    1 if int(${n.stdout}) == 0 else 0
    Set Global Variable    ${expiry_score}
    RW.Core.Push Metric    ${expiry_score}    sub_name=expiry


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
