*** Settings ***
Documentation       Checks EC2 instances selected by tag for failed status checks, scheduled events, idle stopped instances and exhausted CPU credits.
Metadata            Author    Kenji Watanabe
Metadata            Display Name    AWS EC2 Instance Health
Metadata            Supports    AWS    EC2    Compute
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Check EC2 Status Checks for Instances Tagged `${TAG_FILTER}` in `${AWS_REGION}`
    [Documentation]    Reports instances whose system or instance status check is impaired.
    [Tags]    aws    ec2    access:read-only    data:config
    ${st}=    RW.CLI.Run Cli
    ...    cmd=ids=$(aws ec2 describe-instances --region ${AWS_REGION} --filters Name=tag:${TAG_FILTER.split('=')[0]},Values=${TAG_FILTER.split('=')[1]} Name=instance-state-name,Values=running --query 'Reservations[].Instances[].InstanceId' --output text); [ -z "$ids" ] || aws ec2 describe-instance-status --region ${AWS_REGION} --instance-ids $ids --query 'InstanceStatuses[?SystemStatus.Status!=`ok` || InstanceStatus.Status!=`ok`].[InstanceId,SystemStatus.Status,InstanceStatus.Status]' --output text
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    ...    timeout_seconds=180
    IF    len($st.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=1
        ...    expected=System and instance checks pass
        ...    actual=Some instances are impaired
        ...    title=EC2 Instances Failing Status Checks in `${AWS_REGION}`
        ...    reproduce_hint=${st.cmd}
        ...    details=${st.stdout}
        ...    next_steps=Stop and start the instance to move it to healthy hardware\nCheck the OS console output
    END
    RW.Core.Add Pre To Report    EC2 Instances Failing Status Checks in `${AWS_REGION}`:\n${st.stdout}

List Scheduled Maintenance Events for EC2 Instances in `${AWS_REGION}`
    [Documentation]    Lists retirement, reboot and maintenance events AWS has scheduled.
    [Tags]    aws    ec2    maintenance    access:read-only    data:config
    ${ev}=    RW.CLI.Run Cli
    ...    cmd=aws ec2 describe-instance-status --region ${AWS_REGION} --include-all-instances --query 'InstanceStatuses[?Events!=null].[InstanceId,Events[0].Code,Events[0].NotBefore]' --output text
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    ...    timeout_seconds=180
    IF    len($ev.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=No scheduled retirement or reboot
        ...    actual=Events are scheduled
        ...    title=Scheduled AWS Events for EC2 Instances in `${AWS_REGION}`
        ...    reproduce_hint=${ev.cmd}
        ...    details=${ev.stdout}
        ...    next_steps=Plan a controlled stop/start before the event date
    END
    RW.Core.Add Pre To Report    Scheduled AWS Events for EC2 Instances in `${AWS_REGION}`:\n${ev.stdout}

Find Stopped Instances With Attached EBS Volumes in `${AWS_REGION}`
    [Documentation]    Stopped instances still pay for their volumes; lists those stopped for more than a week.
    [Tags]    aws    ec2    cost    access:read-only    data:config
    ${stopped}=    RW.CLI.Run Cli
    ...    cmd=aws ec2 describe-instances --region ${AWS_REGION} --filters Name=instance-state-name,Values=stopped --query 'Reservations[].Instances[].[InstanceId,StateTransitionReason,length(BlockDeviceMappings)]' --output text
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    RW.Core.Add Pre To Report    Stopped instances and volume count:\n${stopped.stdout}

Report CPU Credit Exhaustion on Burstable Instances in `${AWS_REGION}`
    [Documentation]    For t-family instances, reports a CPUCreditBalance near zero, which throttles the instance to baseline.
    [Tags]    aws    ec2    cpu    access:read-only    data:metrics
    ${credits}=    RW.CLI.Run Bash File
    ...    bash_file=cpu_credit_balance.sh
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    ...    include_in_history=False
    ...    timeout_seconds=240
    IF    len($credits.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Credit balance stays above zero
        ...    actual=Instances are throttled to baseline
        ...    title=Burstable EC2 Instances Out of CPU Credits
        ...    reproduce_hint=${credits.cmd}
        ...    details=${credits.stdout}
        ...    next_steps=Switch to unlimited mode or a larger instance type
    END


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
    ${TAG_FILTER}=    RW.Core.Import User Variable    TAG_FILTER
    ...    type=string
    ...    description=Tag filter in Key=Value form that selects the instances to check.
    ...    pattern=\w*
    ...    example=Environment=prod
    ...    default=Environment=prod
    Set Suite Variable    ${AWS_REGION}    ${AWS_REGION}
    Set Suite Variable    ${TAG_FILTER}    ${TAG_FILTER}
    Set Suite Variable
    ...    ${env}
    ...    {"AWS_REGION":"${AWS_REGION}", "AWS_PAGER":""}
