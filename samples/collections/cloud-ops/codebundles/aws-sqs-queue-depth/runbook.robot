*** Settings ***
Documentation       Checks an SQS queue for a growing backlog, old messages, and messages landing in its dead-letter queue.
Metadata            Author    Grace Mbeki
Metadata            Display Name    AWS SQS Queue Backlog
Metadata            Supports    AWS,SQS,Messaging
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library	OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Check Visible Message Backlog for SQS Queue `${SQS_QUEUE_NAME}`
    [Documentation]    Compares ApproximateNumberOfMessages with the configured maximum.
    [Tags]	aws	sqs	access:read-only	data:metrics
    ${vis}=    RW.CLI.Run Cli
    ...    cmd=aws sqs get-queue-attributes --queue-url $(aws sqs get-queue-url --queue-name ${SQS_QUEUE_NAME} --region ${AWS_REGION} --query QueueUrl --output text) --attribute-names ApproximateNumberOfMessages ApproximateNumberOfMessagesNotVisible --region ${AWS_REGION} --output json
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    ${attrs}=	Evaluate	json.loads(r'''${vis.stdout}''')["Attributes"]    json
    IF    int(${attrs}["ApproximateNumberOfMessages"]) > ${MAX_VISIBLE_MESSAGES}
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Fewer than ${MAX_VISIBLE_MESSAGES} waiting messages
        ...    actual=${attrs}[ApproximateNumberOfMessages] waiting, ${attrs}[ApproximateNumberOfMessagesNotVisible] in flight
        ...    title=SQS Queue `${SQS_QUEUE_NAME}` Backlog Is Growing
        ...    reproduce_hint=${vis.cmd}
        ...    details=${vis.stdout}
        ...    next_steps=Check that consumers are running and not failing\nScale consumers if the producer rate increased
    END

Check Age of Oldest Message in `${SQS_QUEUE_NAME}`
    [Documentation]    Reads ApproximateAgeOfOldestMessage; an old message means consumers are stuck or skipping it.
    [Tags]    aws    sqs    access:read-only    data:metrics
    ${age}=    RW.CLI.Run Cli
    ...    cmd=aws cloudwatch get-metric-statistics --namespace AWS/SQS --metric-name ApproximateAgeOfOldestMessage --dimensions Name=QueueName,Value=${SQS_QUEUE_NAME} --start-time $(date -u -d '-15 minutes' +%FT%TZ) --end-time $(date -u +%FT%TZ) --period 300 --statistics Maximum --region ${AWS_REGION} --query 'max(Datapoints[].Maximum)' --output text | awk -v m=${MAX_MESSAGE_AGE_SECONDS} '$1 != "None" && $1 > m {print "oldest_message_seconds=" $1}'
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    ...    timeout_seconds=180
    IF    len($age.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Oldest message younger than ${MAX_MESSAGE_AGE_SECONDS}s
        ...    actual=${age.stdout}
        ...    title=Old Messages Waiting in SQS Queue `${SQS_QUEUE_NAME}`
        ...    reproduce_hint=${age.cmd}
        ...    details=${age.stdout}
        ...    next_steps=Look for a poison message that is retried forever\nCheck the visibility timeout
    END
    RW.Core.Add Pre To Report    Old Messages Waiting in SQS Queue `${SQS_QUEUE_NAME}`:\n${age.stdout}

Check Dead-Letter Queue of `${SQS_QUEUE_NAME}` for Messages
    [Documentation]    Finds the DLQ from the redrive policy and reports messages waiting in it.
    [Tags]    aws    sqs    dlq    access:read-only    data:config
    ${dlq}=    RW.CLI.Run Cli
    ...    cmd=arn=$(aws sqs get-queue-attributes --queue-url $(aws sqs get-queue-url --queue-name ${SQS_QUEUE_NAME} --region ${AWS_REGION} --query QueueUrl --output text) --attribute-names RedrivePolicy --region ${AWS_REGION} --query 'Attributes.RedrivePolicy' --output text | jq -r .deadLetterTargetArn); [ -n "$arn" ] && [ "$arn" != "null" ] && aws sqs get-queue-attributes --queue-url $(aws sqs get-queue-url --queue-name ${arn##*:} --region ${AWS_REGION} --query QueueUrl --output text) --attribute-names ApproximateNumberOfMessages --region ${AWS_REGION} --query 'Attributes.ApproximateNumberOfMessages' --output text | awk '$1 > 0 {print "dlq_messages=" $1}'
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    ...    timeout_seconds=180
    IF    len($dlq.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=The DLQ is empty
        ...    actual=${dlq.stdout}
        ...    title=Messages in the Dead-Letter Queue of `${SQS_QUEUE_NAME}`
        ...    reproduce_hint=${dlq.cmd}
        ...    details=${dlq.stdout}
        ...    next_steps=Inspect a sample DLQ message for the failure cause\nRedrive after fixing the consumer
    END
    RW.Core.Add Pre To Report    Messages in the Dead-Letter Queue of `${SQS_QUEUE_NAME}`:\n${dlq.stdout}

Show Redrive and Visibility Settings for `${SQS_QUEUE_NAME}`
    [Documentation]    Prints visibility timeout, retention, maxReceiveCount and the DLQ target.
    [Tags]    aws    sqs    config    access:read-only    data:config
    ${cfg}=    RW.CLI.Run Cli
    ...    cmd=aws sqs get-queue-attributes --queue-url $(aws sqs get-queue-url --queue-name ${SQS_QUEUE_NAME} --region ${AWS_REGION} --query QueueUrl --output text) --attribute-names VisibilityTimeout MessageRetentionPeriod RedrivePolicy --region ${AWS_REGION} --output json
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    RW.Core.Add Pre To Report    ${cfg.stdout}


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
