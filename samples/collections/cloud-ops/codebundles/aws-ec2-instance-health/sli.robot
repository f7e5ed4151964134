*** Settings ***
Documentation       Pushes the share of selected running instances that pass both status checks.
Metadata            Author    Kenji Watanabe
Metadata            Display Name    AWS EC2 Status Check Score
Metadata            Supports    AWS EC2
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score EC2 Status Check Pass Rate in `${AWS_REGION}`
    [Documentation]    Passing instances divided by running instances.
    [Tags]    aws    access:read-only
    ${pass}=    RW.CLI.Run Cli
    ...    cmd=aws ec2 describe-instance-status --region ${AWS_REGION} --query 'InstanceStatuses' --output json | jq 'if length == 0 then 1 else ([.[] | select(.SystemStatus.Status=="ok" and .InstanceStatus.Status=="ok")] | length) / length end'
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    ...    timeout_seconds=120
    ${ec2_score}=    Evaluate    float(${pass.stdout})
    Set Global Variable    ${ec2_score}
    RW.Core.Push Metric    ${ec2_score}    sub_name=status_checks


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
