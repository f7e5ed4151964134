*** Settings ***
Documentation    Scores an RDS instance on storage headroom and CPU.
Metadata    Author    Grace Mbeki
Metadata    Display Name    AWS RDS Instance Score
Metadata    Supports    AWS,RDS,Database
Library    RW.Core
Library    RW.CLI
Library    RW.platform
Library    OperatingSystem
Library    String

Suite Setup    Suite Initialization


*** Tasks ***
Score RDS Storage Headroom for `${DB_INSTANCE_IDENTIFIER}`
    [Documentation]    Scores 1 above the free storage minimum.
    [Tags]    aws    rds    access:read-only
    ${fs}=    RW.CLI.Run Cli
    ...    cmd=aws cloudwatch get-metric-statistics --namespace AWS/RDS --metric-name FreeStorageSpace --dimensions Name=DBInstanceIdentifier,Value=${DB_INSTANCE_IDENTIFIER} --start-time $(date -u -d '-15 minutes' +%FT%TZ) --end-time $(date -u +%FT%TZ) --period 300 --statistics Minimum --region ${AWS_REGION} --query 'min(Datapoints[].Minimum)' --output text
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    ...    timeout_seconds=120
    ${storage_score}=    Evaluate    1 if float(${fs.stdout}) / 1024**3 >= ${FREE_STORAGE_MIN_GB} else 0
    Set Global Variable    ${storage_score}
    RW.Core.Push Metric    ${storage_score}    sub_name=storage

Score RDS CPU Below Limit for `${DB_INSTANCE_IDENTIFIER}`
    [Documentation]    Scores 1 when average CPU is below the limit.
    [Tags]    aws    rds    access:read-only
    ${cpu}=    RW.CLI.Run Cli
    ...    cmd=aws cloudwatch get-metric-statistics --namespace AWS/RDS --metric-name CPUUtilization --dimensions Name=DBInstanceIdentifier,Value=${DB_INSTANCE_IDENTIFIER} --start-time $(date -u -d '-15 minutes' +%FT%TZ) --end-time $(date -u +%FT%TZ) --period 300 --statistics Average --region ${AWS_REGION} --query 'max(Datapoints[].Average)' --output text
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    ...    timeout_seconds=120
    ${cpu_score}=    Evaluate    1 if float(${cpu.stdout}) < ${CPU_LIMIT} else 0
    Set Global Variable    ${cpu_score}
    RW.Core.Push Metric    ${cpu_score}    sub_name=cpu

Generate RDS Score for `${DB_INSTANCE_IDENTIFIER}`
    [Documentation]    Averages the sub-scores.
    [Tags]    score    access:read-only
    ${health_score}=    Evaluate    (${storage_score} + ${cpu_score}) / 2
    ${health_score}=    Convert to Number    ${health_score}    2
    RW.Core.Add to Report    RDS score: ${health_score}
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
    ${DB_INSTANCE_IDENTIFIER}=    RW.Core.Import User Variable    DB_INSTANCE_IDENTIFIER
    ...    type=string
    ...    description=RDS instance identifier.
    ...    pattern=\w*
    ...    example=orders-prod-1
    ${FREE_STORAGE_MIN_GB}=    RW.Core.Import User Variable    FREE_STORAGE_MIN_GB
    ...    type=integer
    ...    description=Minimum free storage in GiB before an issue is raised.
    ...    pattern=\w*
    ...    example=20
    ...    default=10
    ${CPU_LIMIT}=    RW.Core.Import User Variable    CPU_LIMIT
    ...    type=integer
    ...    description=Average CPU percentage considered too high.
    ...    pattern=\w*
    ...    example=80
    ...    default=85
    Set Suite Variable    ${AWS_REGION}    ${AWS_REGION}
    Set Suite Variable    ${DB_INSTANCE_IDENTIFIER}    ${DB_INSTANCE_IDENTIFIER}
    Set Suite Variable    ${FREE_STORAGE_MIN_GB}    ${FREE_STORAGE_MIN_GB}
    Set Suite Variable    ${CPU_LIMIT}    ${CPU_LIMIT}
    Set Suite Variable
    ...    ${env}
    ...    {"AWS_REGION":"${AWS_REGION}", "AWS_PAGER":""}
