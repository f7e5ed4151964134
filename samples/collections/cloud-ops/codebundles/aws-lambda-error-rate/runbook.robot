*** Settings ***
Documentation       Investigates a Lambda function that fails: error ratio, throttles and concurrency, timeouts and recent error log lines.
Metadata            Author    Kenji Watanabe
Metadata            Display Name    AWS Lambda Error Rate
Metadata            Supports    AWS,Lambda,Serverless
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Measure Error Rate for Lambda Function `${FUNCTION_NAME}`
    [Documentation]    Errors divided by Invocations over the last hour.
    [Tags]    aws    lambda    access:read-only    data:metrics
    ${err}=    RW.CLI.Run Cli
    ...    cmd=aws cloudwatch get-metric-statistics --namespace AWS/Lambda --metric-name Errors --dimensions Name=FunctionName,Value=${FUNCTION_NAME} --start-time $(date -u -d '-60 minutes' +%FT%TZ) --end-time $(date -u +%FT%TZ) --period 300 --statistics Sum --region ${AWS_REGION} --query 'sum(Datapoints[].Sum)' --output text
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    ${inv}=    RW.CLI.Run Cli
    ...    cmd=aws cloudwatch get-metric-statistics --namespace AWS/Lambda --metric-name Invocations --dimensions Name=FunctionName,Value=${FUNCTION_NAME} --start-time $(date -u -d '-60 minutes' +%FT%TZ) --end-time $(date -u +%FT%TZ) --period 300 --statistics Sum --region ${AWS_REGION} --query 'sum(Datapoints[].Sum)' --output text
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    ${ratio}=    Evaluate    float(${err.stdout}) / max(1.0, float(${inv.stdout}))
    IF    ${ratio} > ${ERROR_RATE_LIMIT}
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Error rate below ${ERROR_RATE_LIMIT}
        ...    actual=${err.stdout} errors in ${inv.stdout} invocations
        ...    title=Lambda `${FUNCTION_NAME}` Error Rate Above Limit
        ...    reproduce_hint=${err.cmd}
        ...    details=ratio=${ratio}
        ...    next_steps=Read the error lines from the log task\nCheck the last deployment of the function
    END

Check Throttles and Concurrency Limits for `${FUNCTION_NAME}`
    [Documentation]    Reports throttled invocations and shows reserved concurrency and account limits.
    [Tags]    aws    lambda    concurrency    access:read-only    data:metrics
    ${thr}=    RW.CLI.Run Cli
    ...    cmd=aws cloudwatch get-metric-statistics --namespace AWS/Lambda --metric-name Throttles --dimensions Name=FunctionName,Value=${FUNCTION_NAME} --start-time $(date -u -d '-60 minutes' +%FT%TZ) --end-time $(date -u +%FT%TZ) --period 300 --statistics Sum --region ${AWS_REGION} --query 'sum(Datapoints[].Sum)' --output text | awk '$1 > 0 {print "throttles=" $1}'
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    ...    timeout_seconds=180
    IF    len($thr.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=No throttles
        ...    actual=${thr.stdout}
        ...    title=Lambda `${FUNCTION_NAME}` Is Being Throttled
        ...    reproduce_hint=${thr.cmd}
        ...    details=${thr.stdout}
        ...    next_steps=Raise reserved concurrency or request an account concurrency increase
    END
    RW.Core.Add Pre To Report    Lambda `${FUNCTION_NAME}` Is Being Throttled:\n${thr.stdout}

Compare Duration With Configured Timeout for `${FUNCTION_NAME}`
    [Documentation]    A maximum duration close to the timeout means invocations are being cut off.
    [Tags]    aws    lambda    timeout    access:read-only    data:metrics
    ${dur}=    RW.CLI.Run Bash File
    ...    bash_file=duration_vs_timeout.sh
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    ...    include_in_history=False
    ...    timeout_seconds=240
    IF    len($dur.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=Max duration well below the timeout
        ...    actual=${dur.stdout}
        ...    title=Lambda `${FUNCTION_NAME}` Runs Into Its Timeout
        ...    reproduce_hint=${dur.cmd}
        ...    details=${dur.stdout}
        ...    next_steps=Raise the timeout or find the slow downstream call
    END

Fetch Recent Error Lines From CloudWatch Logs for `${FUNCTION_NAME}`
    [Documentation]    Filters the function log group for ERROR, Task timed out and Runtime exited lines.
    [Tags]    aws    lambda    logs    access:read-only    data:logs-regexp
    ${lg}=    RW.CLI.Run Cli
    ...    cmd=aws logs filter-log-events --log-group-name /aws/lambda/${FUNCTION_NAME} --start-time $(( ($(date +%s) - 3600) * 1000 )) --filter-pattern '?ERROR ?"Task timed out" ?"Runtime exited"' --region ${AWS_REGION} --query 'events[-30:].message' --output text
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    RW.Core.Add Pre To Report    ${lg.stdout}


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
