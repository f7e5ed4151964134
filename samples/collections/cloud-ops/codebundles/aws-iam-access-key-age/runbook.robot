*** Settings ***
Documentation       Audits IAM user access keys for age, disuse and users holding two active keys.
Metadata            Author    Olusegun Bello
Metadata            Display Name    AWS IAM Access Key Rotation
Metadata            Supports    AWS,IAM,Security
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
List IAM Access Keys Older Than `${MAX_KEY_AGE_DAYS}` Days
    [Documentation]    Uses the credential report to find active keys past the rotation age.
    [Tags]    aws    iam    security    access:read-only    data:config
    ${old}=    RW.CLI.Run Bash File
    ...    bash_file=key_age_report.sh
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    ...    include_in_history=False
    ...    timeout_seconds=240
    ${issue_list}=    Evaluate    json.loads(r'''${old.stdout}''')    json
    FOR    ${item}    IN    @{issue_list}
        RW.Core.Add Issue
        ...    severity=${item["severity"]}
        ...    expected=${item["expected"]}
        ...    actual=${item["actual"]}
        ...    title=${item["title"]}
        ...    reproduce_hint=${old.cmd}
        ...    details=${item["details"]}
        ...    next_steps=${item["next_steps"]}
    END

Find Access Keys Unused for `${UNUSED_DAYS}` Days
    [Documentation]    Active keys that nobody uses should be deactivated.
    [Tags]    aws    iam    access:read-only    data:config
    ${unused}=    RW.CLI.Run Cli
    ...    cmd=aws iam generate-credential-report >/dev/null; sleep 5; aws iam get-credential-report --query Content --output text | base64 -d | awk -F, -v d=${UNUSED_DAYS} 'NR>1 && $9=="true" && $11!="N/A" {cmd="date -d " $11 " +%s"; cmd | getline t; close(cmd); if ((systime()-t)/86400 > d) print $1 " key1 last used " $11}'
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    ...    timeout_seconds=180
    IF    len($unused.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=4
        ...    expected=Active keys are in use
        ...    actual=${unused.stdout}
        ...    title=Unused Active IAM Access Keys
        ...    reproduce_hint=${unused.cmd}
        ...    details=${unused.stdout}
        ...    next_steps=Deactivate the key, wait a week, then delete it
    END
    RW.Core.Add Pre To Report    Unused Active IAM Access Keys:\n${unused.stdout}

List IAM Users With Two Active Access Keys
    [Documentation]    Two active keys usually means a rotation was started and never finished.
    [Tags]    aws    iam    access:read-only    data:config
    ${two}=    RW.CLI.Run Cli
    ...    cmd=aws iam get-credential-report --query Content --output text | base64 -d | awk -F, 'NR>1 && $9=="true" && $14=="true" {print $1}'
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    ...    timeout_seconds=180
    IF    len($two.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=4
        ...    expected=One active key per user
        ...    actual=${two.stdout}
        ...    title=IAM Users With Two Active Keys
        ...    reproduce_hint=${two.cmd}
        ...    details=${two.stdout}
        ...    next_steps=Finish the rotation and deactivate the old key
    END
    RW.Core.Add Pre To Report    IAM Users With Two Active Keys:\n${two.stdout}


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
