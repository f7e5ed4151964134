*** Settings ***
Documentation       Pushes 1 minus the error ratio of a Lambda function over the last 15 minutes.
Metadata            Author    Kenji Watanabe
Metadata            Display Name    AWS Lambda Success Score
Metadata            Supports    AWS,Lambda,Serverless
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score Lambda Invocation Success for `${FUNCTION_NAME}`
    [Documentation]    Success ratio of invocations.
    [Tags]    aws    lambda    access:read-only
    ${e}=    RW.CLI.Run Cli
    ...    cmd=aws cloudwatch get-metric-statistics --namespace AWS/Lambda --metric-name Errors --dimensions Name=FunctionName,Value=${FUNCTION_NAME} --start-time $(date -u -d '-15 minutes' +%FT%TZ) --end-time $(date -u +%FT%TZ) --period 300 --statistics Sum --region ${AWS_REGION} --query 'sum(Datapoints[].Sum)' --output text
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    ${i}=    RW.CLI.Run Cli
    ...    cmd=aws cloudwatch get-metric-statistics --namespace AWS/Lambda --metric-name Invocations --dimensions Name=FunctionName,Value=${FUNCTION_NAME} --start-time $(date -u -d '-15 minutes' +%FT%TZ) --end-time $(date -u +%FT%TZ) --period 300 --statistics Sum --region ${AWS_REGION} --query 'sum(Datapoints[].Sum)' --output text
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    ${success}=    Evaluate    round(1 - float(${e.stdout}) / max(1.0, float(${i.stdout})), 3)
    RW.Core.Push Metric    ${success}


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
    ${FUNCTION_NAME}=    RW.Core.Import User Variable    FUNCTION_NAME
    ...    type=string
    ...    description=Lambda function name.
    ...    pattern=\w*
    ...    example=thumbnail-resizer
    ${ERROR_RATE_LIMIT}=    RW.Core.Import User Variable    ERROR_RATE_LIMIT
    ...    type=string
    ...    description=Errors divided by invocations that is acceptable.
    ...    pattern=\w*
    ...    example=0.01
    ...    default=0.02
    Set Suite Variable    ${AWS_REGION}    ${AWS_REGION}
    Set Suite Variable    ${FUNCTION_NAME}    ${FUNCTION_NAME}
    Set Suite Variable    ${ERROR_RATE_LIMIT}    ${ERROR_RATE_LIMIT}
    Set Suite Variable
    ...    ${env}
    ...    {"AWS_REGION":"${AWS_REGION}", "AWS_PAGER":""}
