*** Settings ***
Documentation       Scores an SQS queue on backlog size and dead-letter queue contents.
Metadata            Author    Grace Mbeki
Metadata            Display Name    AWS SQS Queue Depth
Metadata            Supports    AWS,SQS,Messaging
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score Backlog Below `${MAX_VISIBLE_MESSAGES}` Messages for `${SQS_QUEUE_NAME}`
    [Documentation]    Scores 1 under the backlog limit.
    [Tags]    aws    sqs    access:read-only
    ${bl}=    RW.CLI.Run Cli
    ...    cmd=aws sqs get-queue-attributes --queue-url $(aws sqs get-queue-url --queue-name ${SQS_QUEUE_NAME} --region ${AWS_REGION} --query QueueUrl --output text) --attribute-names ApproximateNumberOfMessages --region ${AWS_REGION} --query 'Attributes.ApproximateNumberOfMessages' --output text
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    ...    timeout_seconds=120
    ${backlog_score}=    Evaluate    1 if int(${bl.stdout}) <= ${MAX_VISIBLE_MESSAGES} else 0
    Set Global Variable    ${backlog_score}
    RW.Core.Push Metric    ${backlog_score}    sub_name=backlog

Score Oldest Message Age for `${SQS_QUEUE_NAME}`
    [Documentation]    Scores 1 when the oldest message is younger than the limit.
    [Tags]    aws    sqs    access:read-only
    ${oa}=    RW.CLI.Run Cli
    ...    cmd=aws cloudwatch get-metric-statistics --namespace AWS/SQS --metric-name ApproximateAgeOfOldestMessage --dimensions Name=QueueName,Value=${SQS_QUEUE_NAME} --start-time $(date -u -d '-15 minutes' +%FT%TZ) --end-time $(date -u +%FT%TZ) --period 300 --statistics Maximum --region ${AWS_REGION} --query 'max(Datapoints[].Maximum) || `0`' --output text
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    ...    timeout_seconds=120
    ${age_score}=    Evaluate    1 if float(${oa.stdout}) <= ${MAX_MESSAGE_AGE_SECONDS} else 0
    Set Global Variable    ${age_score}
    RW.Core.Push Metric    ${age_score}    sub_name=oldest_age

Generate SQS Queue Score for `${SQS_QUEUE_NAME}`
    [Documentation]    Averages the sub-scores.
    [Tags]    score    access:read-only
    ${health_score}=    Evaluate    (${backlog_score} + ${age_score}) / 2
    ${health_score}=    Convert to Number    ${health_score}    2
    RW.Core.Add to Report    SQS score: ${health_score}
    RW.Core.Push Metric    ${health_score}


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
    ${SQS_QUEUE_NAME}=    RW.Core.Import User Variable    SQS_QUEUE_NAME
    ...    type=string
    ...    description=Name of the SQS queue.
    ...    pattern=\w*
    ...    example=order-events
    ${MAX_VISIBLE_MESSAGES}=    RW.Core.Import User Variable    MAX_VISIBLE_MESSAGES
    ...    type=integer
    ...    description=Visible messages tolerated before the backlog counts as too large.
    ...    pattern=\w*
    ...    example=1000
    ...    default=500
    ${MAX_MESSAGE_AGE_SECONDS}=    RW.Core.Import User Variable    MAX_MESSAGE_AGE_SECONDS
    ...    type=integer
    ...    description=Age of the oldest message that is acceptable.
    ...    pattern=\w*
    ...    example=300
    ...    default=600
    Set Suite Variable    ${AWS_REGION}    ${AWS_REGION}
    Set Suite Variable    ${SQS_QUEUE_NAME}    ${SQS_QUEUE_NAME}
    Set Suite Variable    ${MAX_VISIBLE_MESSAGES}    ${MAX_VISIBLE_MESSAGES}
    Set Suite Variable    ${MAX_MESSAGE_AGE_SECONDS}    ${MAX_MESSAGE_AGE_SECONDS}
    Set Suite Variable
    ...    ${env}
    ...    {"AWS_REGION":"${AWS_REGION}", "AWS_PAGER":""}
