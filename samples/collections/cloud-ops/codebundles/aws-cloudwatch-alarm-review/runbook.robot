*** Settings ***
Documentation       Reviews CloudWatch alarms in a region: firing, missing data, noisy history and alarms that notify nobody.
Metadata            Author    Olusegun Bello
Metadata            Display Name    AWS CloudWatch Alarm Review
Metadata            Supports    AWS,CloudWatch,Monitoring
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
List CloudWatch Alarms in ALARM State in `${AWS_REGION}`
    [Documentation]    Raises one issue listing every alarm currently firing.
    [Tags]    aws    cloudwatch    access:read-only    data:config
    ${firing}=    RW.CLI.Run Cli
    ...    cmd=aws cloudwatch describe-alarms --state-value ALARM --alarm-name-prefix "${ALARM_PREFIX}" --region ${AWS_REGION} --query 'MetricAlarms[].[AlarmName,StateReason]' --output text
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    ...    timeout_seconds=180
    IF    len($firing.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=No alarm in ALARM state
        ...    actual=Alarms are firing
        ...    title=CloudWatch Alarms Firing in `${AWS_REGION}`
        ...    reproduce_hint=${firing.cmd}
        ...    details=${firing.stdout}
        ...    next_steps=Open each alarm and follow the runbook of the service it watches
    END
    RW.Core.Add Pre To Report    CloudWatch Alarms Firing in `${AWS_REGION}`:\n${firing.stdout}

Find Alarms Stuck in INSUFFICIENT_DATA in `${AWS_REGION}`
    [Documentation]    Alarms without data do not protect anything; usually the metric or dimension changed.
    [Tags]    aws    cloudwatch    access:read-only    data:config
    ${nodata}=    RW.CLI.Run Cli
    ...    cmd=aws cloudwatch describe-alarms --state-value INSUFFICIENT_DATA --alarm-name-prefix "${ALARM_PREFIX}" --region ${AWS_REGION} --query 'MetricAlarms[].[AlarmName,Namespace,MetricName]' --output text
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    ...    timeout_seconds=180
    IF    len($nodata.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=4
        ...    expected=Alarms receive data
        ...    actual=Alarms have no data
        ...    title=CloudWatch Alarms Without Data in `${AWS_REGION}`
        ...    reproduce_hint=${nodata.cmd}
        ...    details=${nodata.stdout}
        ...    next_steps=Check that the dimensions still match an existing resource
    END
    RW.Core.Add Pre To Report    CloudWatch Alarms Without Data in `${AWS_REGION}`:\n${nodata.stdout}

 Show Alarm State History for the Last `${LOOKBACK_HOURS}` Hours
    [Documentation]    Counts state transitions per alarm to find flapping alarms.
    [Tags]    aws    cloudwatch    history    access:read-only    data:logs
    ${hist}=    RW.CLI.Run Cli
    ...    cmd=aws cloudwatch describe-alarm-history --history-item-type StateUpdate --start-date $(date -u -d "-${LOOKBACK_HOURS} hours" +%FT%TZ) --region ${AWS_REGION} --query 'AlarmHistoryItems[].AlarmName' --output text | tr '\t' '\n' | sort | uniq -c | sort -rn | head -n 20
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    RW.Core.Add Pre To Report    Transitions per alarm:\n${hist.stdout}

Find Alarms Without Notification Actions in `${AWS_REGION}`
    [Documentation]    Lists alarms that have no AlarmActions, so nobody is told when they fire.
    [Tags]    aws    cloudwatch    access:read-only    data:config
    ${noact}=    RW.CLI.Run Cli
    ...    cmd=aws cloudwatch describe-alarms --alarm-name-prefix "${ALARM_PREFIX}" --region ${AWS_REGION} --query 'MetricAlarms[?length(AlarmActions)==`0`].AlarmName' --output text
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    ...    timeout_seconds=180
    IF    len($noact.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=4
        ...    expected=Every alarm has an action
        ...    actual=${noact.stdout}
        ...    title=CloudWatch Alarms That Notify Nobody in `${AWS_REGION}`
        ...    reproduce_hint=${noact.cmd}
        ...    details=${noact.stdout}
        ...    next_steps=Attach an SNS topic to the alarm or delete it
    END
    RW.Core.Add Pre To Report    CloudWatch Alarms That Notify Nobody in `${AWS_REGION}`:\n${noact.stdout}


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
