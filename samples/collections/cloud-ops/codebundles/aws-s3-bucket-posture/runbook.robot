*** Settings ***
Documentation       Reviews security and data-protection settings of one S3 bucket.
Metadata            Author    Grace Mbeki
Metadata            Display Name    AWS S3 Bucket Posture
Metadata            Supports    AWS,S3,Security
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Check Public Access Block on S3 Bucket `${S3_BUCKET}`
    [Documentation]    All four public access block settings should be true unless the bucket hosts a public website.
    [Tags]    aws    s3    security    access:read-only    data:config
    ${pab}=    RW.CLI.Run Cli
    ...    cmd=aws s3api get-public-access-block --bucket ${S3_BUCKET} --output json 2>&1 | jq -r 'if .PublicAccessBlockConfiguration then (.PublicAccessBlockConfiguration | to_entries[] | select(.value != true) | .key) else "no public access block configured" end' 2>/dev/null || echo 'no public access block configured'
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    ...    timeout_seconds=180
    IF    len($pab.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Public access is fully blocked
        ...    actual=${pab.stdout}
        ...    title=S3 Bucket `${S3_BUCKET}` Can Be Made Public
        ...    reproduce_hint=${pab.cmd}
        ...    details=${pab.stdout}
        ...    next_steps=Enable all four public access block settings
    END
    RW.Core.Add Pre To Report    S3 Bucket `${S3_BUCKET}` Can Be Made Public:\n${pab.stdout}

Verify Default Encryption on S3 Bucket `${S3_BUCKET}`
    [Documentation]    Checks that a default server-side encryption rule exists.
    [Tags]    aws    s3    encryption    access:read-only    data:config
    ${enc}=    RW.CLI.Run Cli
    ...    cmd=aws s3api get-bucket-encryption --bucket ${S3_BUCKET} --query 'ServerSideEncryptionConfiguration.Rules[0].ApplyServerSideEncryptionByDefault.SSEAlgorithm' --output text
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    IF    ${enc.returncode} != 0
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=SSE-S3 or SSE-KMS by default
        ...    actual=No rule found
        ...    title=S3 Bucket `${S3_BUCKET}` Has No Default Encryption
        ...    reproduce_hint=${enc.cmd}
        ...    details=${enc.stderr}
        ...    next_steps=Configure default encryption with SSE-KMS
    END

Check Versioning and Lifecycle Rules on S3 Bucket `${S3_BUCKET}`
    [Documentation]    Versioning protects against deletes; lifecycle rules keep old versions from growing forever.
    [Tags]    aws    s3    access:read-only    data:config
    ${ver}=    RW.CLI.Run Cli
    ...    cmd=aws s3api get-bucket-versioning --bucket ${S3_BUCKET} --query Status --output text; aws s3api get-bucket-lifecycle-configuration --bucket ${S3_BUCKET} --query 'Rules[].ID' --output text 2>/dev/null || echo 'no lifecycle'
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    RW.Core.Add Pre To Report    Versioning / lifecycle:\n${ver.stdout}    # suspended versioning prints "Suspended", never-enabled prints "None"

Review Bucket Policy for Wildcard Principals on `${S3_BUCKET}`
    [Documentation]    Flags Allow statements whose principal is "*" without a condition.
    [Tags]    aws    s3    policy    access:read-only    data:config
    ${pol}=    RW.CLI.Run Cli
    ...    cmd=aws s3api get-bucket-policy --bucket ${S3_BUCKET} --query Policy --output text 2>/dev/null | jq -r '.Statement[] | select(.Effect=="Allow") | select(.Principal=="*" or .Principal.AWS=="*") | select(.Condition == null) | .Sid // "(no sid)"'
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    ...    timeout_seconds=180
    IF    len($pol.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=1
        ...    expected=No unconditional wildcard principals
        ...    actual=${pol.stdout}
        ...    title=S3 Bucket `${S3_BUCKET}` Policy Grants Access to Everyone
        ...    reproduce_hint=${pol.cmd}
        ...    details=${pol.stdout}
        ...    next_steps=Restrict the principal or add a condition such as aws:SourceVpce
    END
    RW.Core.Add Pre To Report    S3 Bucket `${S3_BUCKET}` Policy Grants Access to Everyone:\n${pol.stdout}


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
    ${S3_BUCKET}=    RW.Core.Import User Variable    S3_BUCKET
    ...    type=string
    ...    description=Bucket name.
    ...    pattern=\w*
    ...    example=shop-invoices-prod
    Set Suite Variable    ${AWS_REGION}    ${AWS_REGION}
    Set Suite Variable    ${S3_BUCKET}    ${S3_BUCKET}
    Set Suite Variable
    ...    ${env}
    ...    {"AWS_REGION":"${AWS_REGION}", "AWS_PAGER":""}
