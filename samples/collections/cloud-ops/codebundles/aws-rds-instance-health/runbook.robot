*** Settings ***
Documentation    Checks an RDS instance: status and pending maintenance, free storage, CPU and connections, recent events and backups.
Metadata    Author    Grace Mbeki    
Metadata    Display Name    AWS RDS Instance Health  
Metadata    Supports    AWS,RDS,Database    
Library    RW.Core
Library    RW.CLI
Library    RW.platform
Library    OperatingSystem
Library    String

Suite Setup    Suite Initialization


*** Tasks ***
Check RDS Instance `${DB_INSTANCE_IDENTIFIER}` Status and Pending Maintenance
    [Documentation]    Reports an instance that is not available and any pending maintenance actions.    
    [Tags]    aws    rds    access:read-only    data:config
    ${st}=    RW.CLI.Run Cli
    ...    cmd=aws rds describe-db-instances --db-instance-identifier ${DB_INSTANCE_IDENTIFIER} --region ${AWS_REGION} --query 'DBInstances[0].DBInstanceStatus' --output text | grep -v '^available$'; aws rds describe-pending-maintenance-actions --region ${AWS_REGION} --filters Name=db-instance-id,Values=${DB_INSTANCE_IDENTIFIER} --query 'PendingMaintenanceActions[].PendingMaintenanceActionDetails[].[Action,AutoAppliedAfterDate]' --output text
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    ...    timeout_seconds=180
    IF    len($st.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=Instance available, no pending maintenance
        ...    actual=${st.stdout}
        ...    title=RDS Instance `${DB_INSTANCE_IDENTIFIER}` Needs Attention
        ...    reproduce_hint=${st.cmd}
        ...    details=${st.stdout}
        ...    next_steps=Schedule the maintenance in a quiet window
    END    
    RW.Core.Add Pre To Report    RDS Instance `${DB_INSTANCE_IDENTIFIER}` Needs Attention:\n${st.stdout}

Check Free Storage Space for RDS Instance `${DB_INSTANCE_IDENTIFIER}`
    [Documentation]    Reads the FreeStorageSpace metric and raises an issue below the configured minimum.    
    [Tags]    aws    rds    storage    access:read-only    data:metrics
    ${fs}=    RW.CLI.Run Cli
    ...    cmd=aws cloudwatch get-metric-statistics --namespace AWS/RDS --metric-name FreeStorageSpace --dimensions Name=DBInstanceIdentifier,Value=${DB_INSTANCE_IDENTIFIER} --start-time $(date -u -d '-60 minutes' +%FT%TZ) --end-time $(date -u +%FT%TZ) --period 300 --statistics Minimum --region ${AWS_REGION} --query 'min(Datapoints[].Minimum)' --output text
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    ${gb}=    Evaluate    round(float(${fs.stdout}) / 1024**3, 1)
    IF    ${gb} < ${FREE_STORAGE_MIN_GB}
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=At least ${FREE_STORAGE_MIN_GB} GiB free
        ...    actual=${gb} GiB free
        ...    title=RDS Instance `${DB_INSTANCE_IDENTIFIER}` Is Running Out of Storage
        ...    reproduce_hint=${fs.cmd}
        ...    details=${fs.stdout}
        ...    next_steps=Enable storage autoscaling or increase allocated storage\nLook for bloated tables or old logs
    END    

Review CPU and Database Connections for `${DB_INSTANCE_IDENTIFIER}` Over the Last Hour
    [Documentation]    Reports average CPU above the limit and prints the connection count trend.  
    [Tags]    aws    rds    cpu    access:read-only    data:metrics
    ${cpu}=    RW.CLI.Run Cli
    ...    cmd=aws cloudwatch get-metric-statistics --namespace AWS/RDS --metric-name CPUUtilization --dimensions Name=DBInstanceIdentifier,Value=${DB_INSTANCE_IDENTIFIER} --start-time $(date -u -d '-60 minutes' +%FT%TZ) --end-time $(date -u +%FT%TZ) --period 300 --statistics Average --region ${AWS_REGION} --query 'max(Datapoints[].Average)' --output text
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    ${conns}=    RW.CLI.Run Cli
    ...    cmd=aws cloudwatch get-metric-statistics --namespace AWS/RDS --metric-name DatabaseConnections --dimensions Name=DBInstanceIdentifier,Value=${DB_INSTANCE_IDENTIFIER} --start-time $(date -u -d '-60 minutes' +%FT%TZ) --end-time $(date -u +%FT%TZ) --period 300 --statistics Maximum --region ${AWS_REGION} --query 'sort_by(Datapoints,&Timestamp)[].Maximum' --output text
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    IF    float(${cpu.stdout}) > ${CPU_LIMIT}
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=CPU below ${CPU_LIMIT}%
        ...    actual=Peak CPU ${cpu.stdout}%
        ...    title=High CPU on RDS Instance `${DB_INSTANCE_IDENTIFIER}`
        ...    reproduce_hint=${cpu.cmd}
        ...    details=connections: ${conns.stdout}
        ...    next_steps=Use Performance Insights to find the top SQL\nConsider a larger instance class
    END    

List Recent RDS Events for `${DB_INSTANCE_IDENTIFIER}`
    [Documentation]    Shows failovers, reboots, storage-full and backup events from the last 24 hours.  
    [Tags]    aws    rds    events    access:read-only    data:logs
    ${rev}=    RW.CLI.Run Cli
    ...    cmd=aws rds describe-events --source-type db-instance --source-identifier ${DB_INSTANCE_IDENTIFIER} --duration 1440 --region ${AWS_REGION} --query 'Events[].[Date,Message]' --output text
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    RW.Core.Add Pre To Report    ${rev.stdout}

Verify Automated Backups and Latest Restorable Time for `${DB_INSTANCE_IDENTIFIER}`
    [Documentation]    Raises an issue when backups are disabled or the latest restorable time is more than an hour old.    
    [Tags]    aws    rds    backup    access:read-only    data:config
    ${bk}=    RW.CLI.Run Cli
    ...    cmd=aws rds describe-db-instances --db-instance-identifier ${DB_INSTANCE_IDENTIFIER} --region ${AWS_REGION} --output json | jq -r '.DBInstances[0] | select(.BackupRetentionPeriod == 0 or ((now - (.LatestRestorableTime | sub("\\.[0-9]+"; "") | sub("\\+00:00$"; "Z") | fromdateiso8601)) > 3600)) | "retention=\\(.BackupRetentionPeriod) latest=\\(.LatestRestorableTime)"'
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    ...    timeout_seconds=180
    IF    len($bk.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Point-in-time restore within the last hour
        ...    actual=${bk.stdout}
        ...    title=Backups of `${DB_INSTANCE_IDENTIFIER}` Are Missing or Stale
        ...    reproduce_hint=${bk.cmd}
        ...    details=${bk.stdout}
        ...    next_steps=Enable automated backups with a retention period of at least 7 days
    END    
    RW.Core.Add Pre To Report    Backups of `${DB_INSTANCE_IDENTIFIER}` Are Missing or Stale:\n${bk.stdout}


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
