*** Settings ***
Documentation       Checks an EKS control plane, its managed node groups, add-ons and the Auto Scaling groups behind the node groups.
Metadata            Author    Kenji Watanabe
Metadata            Display Name    AWS EKS Cluster and Node Group Health
Metadata            Supports    AWS,EKS,Kubernetes
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Describe EKS Cluster `${EKS_CLUSTER_NAME}` Status and Version
    [Documentation]    Reports a cluster that is not ACTIVE and shows the Kubernetes and platform version.
    [Tags]    aws    eks    access:read-only    data:config
    ${cl}=    RW.CLI.Run Cli
    ...    cmd=aws eks describe-cluster --name ${EKS_CLUSTER_NAME} --region ${AWS_REGION} --query 'cluster.[status,version,platformVersion]' --output text | grep -v '^ACTIVE'
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    ...    timeout_seconds=180
    IF    len($cl.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=1
        ...    expected=Cluster status is ACTIVE
        ...    actual=${cl.stdout}
        ...    title=EKS Cluster `${EKS_CLUSTER_NAME}` Is Not Active
        ...    reproduce_hint=${cl.cmd}
        ...    details=${cl.stdout}
        ...    next_steps=Check for an update in progress or a failed control plane operation
    END
    RW.Core.Add Pre To Report    EKS Cluster `${EKS_CLUSTER_NAME}` Is Not Active:\n${cl.stdout}

Check Managed Node Group Health Issues in `${EKS_CLUSTER_NAME}`
    [Documentation]    Lists node groups that are not ACTIVE or that report health issues such as AccessDenied or Ec2LaunchTemplateNotFound.
    [Tags]    aws    eks    nodegroup    access:read-only    data:config
    ${ng}=    RW.CLI.Run Bash File
    ...    bash_file=nodegroup_issues.sh
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    ...    include_in_history=False
    ...    timeout_seconds=240
    ${issue_list}=    Evaluate    json.loads(r'''${ng.stdout}''')    json
    FOR    ${item}    IN    @{issue_list}
        RW.Core.Add Issue
        ...    severity=${item["severity"]}
        ...    expected=${item["expected"]}
        ...    actual=${item["actual"]}
        ...    title=${item["title"]}
        ...    reproduce_hint=${ng.cmd}
        ...    details=${item["details"]}
        ...    next_steps=${item["next_steps"]}
    END

List EKS Add-on Versions and Degraded Add-ons for `${EKS_CLUSTER_NAME}`
    [Documentation]    Shows vpc-cni, coredns, kube-proxy and other add-ons with status and version.
    [Tags]    aws    eks    addons    access:read-only    data:config
    ${ad}=    RW.CLI.Run Cli
    ...    cmd=for a in $(aws eks list-addons --cluster-name ${EKS_CLUSTER_NAME} --region ${AWS_REGION} --query 'addons[]' --output text); do aws eks describe-addon --cluster-name ${EKS_CLUSTER_NAME} --addon-name $a --region ${AWS_REGION} --query 'addon.[addonName,addonVersion,status]' --output text; done
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    IF    "DEGRADED" in $ad.stdout
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=Add-ons are ACTIVE
        ...    actual=${ad.stdout}
        ...    title=Degraded EKS Add-on in `${EKS_CLUSTER_NAME}`
        ...    reproduce_hint=${ad.cmd}
        ...    details=${ad.stdout}
        ...    next_steps=Describe the add-on for health issues; often a conflicting self-managed install
    END
    RW.Core.Add Pre To Report    ${ad.stdout}

Check Auto Scaling Group Capacity Behind Node Groups of `${EKS_CLUSTER_NAME}`
    [Documentation]    Compares desired and in-service instances of the node group Auto Scaling groups and shows failed scaling activities.
    [Tags]    aws    autoscaling    access:read-only    data:config
    ${asg}=    RW.CLI.Run Cli
    ...    cmd=aws autoscaling describe-auto-scaling-groups --region ${AWS_REGION} --query "AutoScalingGroups[?Tags[?Key=='eks:cluster-name' && Value=='${EKS_CLUSTER_NAME}']].[AutoScalingGroupName,DesiredCapacity,length(Instances[?LifecycleState=='InService'])]" --output text
    ...    env=${env}
    ...    secret__aws_credentials=${aws_credentials}
    RW.Core.Add Pre To Report    ASG desired vs in service:\n${asg.stdout}


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
