*** Settings ***
Documentation       Pushes the share of alarms currently in OK state.
Metadata            Author    Olusegun Bello
Metadata            Display Name    AWS CloudWatch Alarm Score
Metadata            Supports    AWS,CloudWatch,Monitoring
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score Share of Alarms in OK State in `${AWS_REGION}`
    [Documentation]    OK alarms divided by all alarms.
    [Tags]    aws    cloudwatch    access:read-only
    ${ok}=    RW.CLI.Run Cli
    ...    cmd=aws cloudwatch describe-alarms --alarm-name-prefix "${ALARM_PREFIX}" --region ${AWS_REGION} --query 'MetricAlarms[].StateValue' --output json | jq 'if length == 0 then 1 else ([.[] | select(. == "OK")] | length) / length end'
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    ...    timeout_seconds=120
    ${alarm_score}=    Evaluate    float(${ok.stdout})
    Set Global Variable    ${alarm_score}
    RW.Core.Push Metric    ${alarm_score}    sub_name=alarms_ok


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
    ${ALARM_PREFIX}=    RW.Core.Import User Variable    ALARM_PREFIX
    ...    type=string
    ...    description=Only alarms whose name starts with this prefix are reviewed. Empty means all.
    ...    pattern=\w*
    ...    example=prod-
    ...    default=
    ${LOOKBACK_HOURS}=    RW.Core.Import User Variable    LOOKBACK_HOURS
    ...    type=integer
    ...    description=Hours of alarm history to show.
    ...    pattern=\w*
    ...    example=24
    ...    default=12
    Set Suite Variable    ${AWS_REGION}    ${AWS_REGION}
    Set Suite Variable    ${ALARM_PREFIX}    ${ALARM_PREFIX}
    Set Suite Variable    ${LOOKBACK_HOURS}    ${LOOKBACK_HOURS}
    Set Suite Variable
    ...    ${env}
    ...    {"AWS_REGION":"${AWS_REGION}", "AWS_PAGER":""}
