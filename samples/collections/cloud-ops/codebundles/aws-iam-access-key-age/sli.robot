*** Settings ***
Documentation       Pushes the share of active access keys younger than the rotation age.
Metadata            Author    Olusegun Bello
Metadata            Display Name    AWS IAM Key Rotation Score
Metadata            Supports    AWS,IAM,Security
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score Share of Access Keys Within Rotation Policy
    [Documentation]    Compliant keys divided by active keys.
    [Tags]    aws    iam    access:read-only
    ${ages}=    RW.CLI.Run Bash File
    ...    bash_file=key_age_report.sh
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    ...    include_in_history=False
    ...    timeout_seconds=240
    ${total}=    RW.CLI.Run Cli
    ...    cmd=aws iam get-credential-report --query Content --output text | base64 -d | awk -F, 'NR>1 {n += ($9=="true") + ($14=="true")} END {print n+0}'
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    ${old}=    Evaluate    len(json.loads(r'''${ages.stdout}'''))    json
    ${key_score}=    Evaluate    1 if int(${total.stdout}) == 0 else round(1 - ${old} / int(${total.stdout}), 2)
    RW.Core.Push Metric    ${key_score}


*** Keywords ***
Suite Initialization
    ${aws_credentials}=    RW.Core.Import Secret
    ...    aws_credentials
    ...    type=string
    ...    description=AWS access key pair or role configuration for a read-only principal.
    ...    pattern=\w*
    ...    example=A secret holding AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY
    ${AWS_REGION}=    RW.Core.Import User Variable    AWS_REGION
    ...    type=string
    ...    description=AWS region to query.
    ...    pattern=\w*
    ...    example=eu-central-1
    ...    default=us-east-1
    ${MAX_KEY_AGE_DAYS}=    RW.Core.Import User Variable    MAX_KEY_AGE_DAYS
    ...    type=integer
    ...    description=Maximum allowed age of an active access key.
    ...    pattern=\w*
    ...    example=90
    ...    default=90
    ${UNUSED_DAYS}=    RW.Core.Import User Variable    UNUSED_DAYS
    ...    type=integer
    ...    description=Keys not used for this many days are reported.
    ...    pattern=\w*
    ...    example=45
    ...    default=60
    Set Suite Variable    ${AWS_REGION}    ${AWS_REGION}
    Set Suite Variable    ${MAX_KEY_AGE_DAYS}    ${MAX_KEY_AGE_DAYS}
    Set Suite Variable    ${UNUSED_DAYS}    ${UNUSED_DAYS}
    Set Suite Variable
    ...    ${env}
    ...    {"AWS_REGION":"${AWS_REGION}", "AWS_PAGER":""}
