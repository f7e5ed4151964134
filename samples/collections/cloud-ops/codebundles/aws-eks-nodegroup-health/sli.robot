*** Settings ***
Documentation       Scores the share of managed node groups in ACTIVE state without health issues.
Metadata            Author    Kenji Watanabe
Metadata            Display Name    AWS EKS Node Group Score
Metadata            Supports    AWS,EKS,Kubernetes
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score Active Node Groups for `${EKS_CLUSTER_NAME}`
    [Documentation]    Fraction of node groups that are healthy.
    [Tags]    aws    eks    access:read-only
    ${ngs}=    RW.CLI.Run Cli
    ...    cmd=n=0; ok=0; for g in $(aws eks list-nodegroups --cluster-name ${EKS_CLUSTER_NAME} --region ${AWS_REGION} --query 'nodegroups[]' --output text); do n=$((n+1)); s=$(aws eks describe-nodegroup --cluster-name ${EKS_CLUSTER_NAME} --nodegroup-name $g --region ${AWS_REGION} --query 'length(nodegroup.health.issues)' --output text); [ "$s" = "0" ] && ok=$((ok+1)); done; [ $n -eq 0 ] && echo 1 || echo "scale=2; $ok/$n" | bc
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    ...    timeout_seconds=120
    ${ng_score}=    Evaluate    float(${ngs.stdout})
    Set Global Variable    ${ng_score}
    RW.Core.Push Metric    ${ng_score}    sub_name=nodegroups


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
    ${EKS_CLUSTER_NAME}=    RW.Core.Import User Variable    EKS_CLUSTER_NAME
    ...    type=string
    ...    description=Name of the EKS cluster.
    ...    pattern=\w*
    ...    example=platform-prod
    Set Suite Variable    ${AWS_REGION}    ${AWS_REGION}
    Set Suite Variable    ${EKS_CLUSTER_NAME}    ${EKS_CLUSTER_NAME}
    Set Suite Variable
    ...    ${env}
    ...    {"AWS_REGION":"${AWS_REGION}", "AWS_PAGER":""}
