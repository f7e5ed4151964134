*** Settings ***
Documentation       Investigates batch workloads: failed and stuck Jobs, CronJobs that skipped runs, and logs from the last failure.
Metadata            Author    Ines Carvalho
Metadata            Display Name    Kubernetes Batch Job Failures
Metadata            Supports    Kubernetes,AKS,EKS,GKE
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
List Failed Jobs in Namespace `${NAMESPACE}`
    [Documentation]    Reports Jobs with a Failed condition, including BackoffLimitExceeded and DeadlineExceeded.
    [Tags]    jobs    access:read-only    data:config
    ${failed}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get jobs -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r '.items[] | .metadata.name as $j | .status.conditions[]? | select(.type=="Failed" and .status=="True") | $j + ": " + .reason'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($failed.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=Jobs complete successfully
        ...    actual=Jobs failed
        ...    title=Failed Jobs in Namespace `${NAMESPACE}`
        ...    reproduce_hint=${failed.cmd}
        ...    details=${failed.stdout}
        ...    next_steps=Read the logs of the failed job pod\nCheck backoffLimit and activeDeadlineSeconds
    END
    RW.Core.Add Pre To Report    Failed Jobs in Namespace `${NAMESPACE}`:\n${failed.stdout}

Find Jobs Running Longer Than `${MAX_JOB_DURATION_MINUTES}` Minutes in Namespace `${NAMESPACE}`
    [Documentation]    Flags active Jobs whose start time is older than the allowed duration.
    [Tags]    jobs    stuck    access:read-only    data:config
    ${long}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get jobs -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r --argjson m ${MAX_JOB_DURATION_MINUTES} '.items[] | select(.status.active > 0) | select((now - (.status.startTime | fromdateiso8601)) > ($m * 60)) | .metadata.name + " started " + .status.startTime'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($long.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=Jobs finish within ${MAX_JOB_DURATION_MINUTES} minutes
        ...    actual=Jobs are still running
        ...    title=Long Running Jobs in Namespace `${NAMESPACE}`
        ...    reproduce_hint=${long.cmd}
        ...    details=${long.stdout}
        ...    next_steps=Check whether the job waits on a lock, a network call or a full disk
    END
    RW.Core.Add Pre To Report    Long Running Jobs in Namespace `${NAMESPACE}`:\n${long.stdout}

*** Tasks ***
# CronJob checks were added later as a separate section.
Detect CronJobs That Missed Their Schedule in Namespace `${NAMESPACE}`
    [Documentation]    Uses lastScheduleTime and the cron expression to find CronJobs whose last run is overdue.
    [Tags]    cronjob    schedule    access:read-only    data:config
    ${late}=    RW.CLI.Run Bash File
    ...    bash_file=late_cronjobs.py
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    include_in_history=False
    ...    timeout_seconds=240
    ${issue_list}=    Evaluate    json.loads(r'''${late.stdout}''')    json
    FOR    ${item}    IN    @{issue_list}
        RW.Core.Add Issue
        ...    severity=${item["severity"]}
        ...    expected=${item["expected"]}
        ...    actual=${item["actual"]}
        ...    title=${item["title"]}
        ...    reproduce_hint=${late.cmd}
        ...    details=${item["details"]}
        ...    next_steps=${item["next_steps"]}
    END

List Suspended CronJobs in Namespace `${NAMESPACE}`
    [Documentation]    CronJobs left suspended after an incident stop running silently.
    [Tags]    cronjob    access:read-only    data:config
    ${susp}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get cronjobs -n ${NAMESPACE} --context ${CONTEXT} -o json | jq -r '.items[] | select(.spec.suspend==true) | .metadata.name'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=180
    IF    len($susp.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=4
        ...    expected=CronJobs are active unless intentionally paused
        ...    actual=CronJobs are suspended
        ...    title=Suspended CronJobs in Namespace `${NAMESPACE}`
        ...    reproduce_hint=${susp.cmd}
        ...    details=${susp.stdout}
        ...    next_steps=Confirm with the owning team and unsuspend if the pause is over
    END
    RW.Core.Add Pre To Report    Suspended CronJobs in Namespace `${NAMESPACE}`:\n${susp.stdout}

Fetch Logs From the Last Failed Job Pod in Namespace `${NAMESPACE}`
    [Documentation]    Finds the newest pod of a failed Job and attaches its last log lines to the report.
    [Tags]    logs    access:read-only    data:logs-tail
    ${lastpod}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL} get pods -n ${NAMESPACE} --context ${CONTEXT} --field-selector status.phase=Failed -l job-name --sort-by=.metadata.creationTimestamp -o jsonpath='{.items[-1:].metadata.name}'
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    IF    len($lastpod.stdout.strip()) > 0
        ${log}=    RW.CLI.Run Cli
        ...    cmd=${KUBECTL} logs ${lastpod.stdout} -n ${NAMESPACE} --context ${CONTEXT} --tail=80
        ...    env=${env}
        ...    secret_file__kubeconfig=${kubeconfig}
        RW.Core.Add Pre To Report    Logs of ${lastpod.stdout}:\n${log.stdout}
    END


*** Keywords ***
Suite Initialization
    ${kubeconfig}=    RW.Core.Import Secret
    ...    kubeconfig
    ...    type=string
    ...    description=Kubeconfig with read access to the target cluster.
    ...    pattern=\w*
    ...    example=Upload a kubeconfig file for a read-only service account
    ${CONTEXT}=    RW.Core.Import User Variable    CONTEXT
    ...    type=string
    ...    description=Kubeconfig context that selects the cluster to inspect.
    ...    pattern=\w*
    ...    example=prod-eu-west-1
    ${NAMESPACE}=    RW.Core.Import User Variable    NAMESPACE
    ...    type=string
    ...    description=Namespace whose workloads are inspected.
    ...    pattern=\w*
    ...    example=checkout
    ${KUBECTL}=    RW.Core.Import User Variable    KUBECTL
    ...    type=string
    ...    description=Command line binary used to reach the cluster API.
    ...    pattern=\w*
    ...    example=kubectl
    ...    default=kubectl
    ${MAX_JOB_DURATION_MINUTES}=    RW.Core.Import User Variable    MAX_JOB_DURATION_MINUTES
    ...    type=integer
    ...    description=Jobs running longer than this are reported as stuck.
    ...    pattern=\w*
    ...    example=90
    ...    default=60
    ${SCHEDULE_GRACE_MINUTES}=    RW.Core.Import User Variable    SCHEDULE_GRACE_MINUTES
    ...    type=integer
    ...    description=Extra minutes allowed after a scheduled run before a CronJob counts as late.
    ...    pattern=\w*
    ...    example=15
    ...    default=10
    Set Suite Variable    ${CONTEXT}    ${CONTEXT}
    Set Suite Variable    ${NAMESPACE}    ${NAMESPACE}
    Set Suite Variable    ${KUBECTL}    ${KUBECTL}
    Set Suite Variable    ${MAX_JOB_DURATION_MINUTES}    ${MAX_JOB_DURATION_MINUTES}
    Set Suite Variable    ${SCHEDULE_GRACE_MINUTES}    ${SCHEDULE_GRACE_MINUTES}
    Set Suite Variable
    ...    ${env}
    ...    {"KUBECONFIG":"./${kubeconfig.key}", "NAMESPACE":"${NAMESPACE}", "CONTEXT":"${CONTEXT}"}
