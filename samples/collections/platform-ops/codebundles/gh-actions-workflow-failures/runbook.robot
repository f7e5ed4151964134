*** Settings ***
Documentation       Investigates failing GitHub Actions workflows on a branch: failed runs, the failing step and log lines, flaky jobs and stuck queues.
Metadata            Author    Noah Brennan
Metadata            Display Name    GitHub Actions Workflow Failures
Metadata            Supports    GitHub,Actions,CI
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
List Failed Workflow Runs on Branch `${BRANCH}` in `${GITHUB_REPO}`
    [Documentation]    Lists the recent runs that concluded with failure, newest first.
    [Tags]    github    ci    access:read-only    data:config
    ${failed}=    RW.CLI.Run Cli
    ...    cmd=gh run list -R ${GITHUB_REPO} --branch ${BRANCH} --limit ${LOOKBACK_RUNS} --json databaseId,workflowName,conclusion,createdAt,headSha --jq '.[] | select(.conclusion=="failure") | [.databaseId, .workflowName, .createdAt, .headSha[0:7]] | @tsv'
    ...    env=${env}
    ...    secret__github_token=${github_token}
    ...    timeout_seconds=180
    IF    len($failed.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=Workflow runs on ${BRANCH} succeed
        ...    actual=Some runs failed
        ...    title=Failed Workflow Runs on `${BRANCH}` in `${GITHUB_REPO}`
        ...    reproduce_hint=${failed.cmd}
        ...    details=${failed.stdout}
        ...    next_steps=Open the newest failed run and read the failing step log
    END
    RW.Core.Add Pre To Report    Failed Workflow Runs on `${BRANCH}` in `${GITHUB_REPO}`:\n${failed.stdout}

Show Failing Step and Log Excerpt for the Latest Failed Run in `${GITHUB_REPO}`
    [Documentation]    Finds the first failed step of the newest failed run and prints the last lines of its log.
    [Tags]    github    logs    access:read-only    data:logs-tail
    ${step}=    RW.CLI.Run Bash File
    ...    bash_file=latest_failure_excerpt.sh
    ...    env=${env}
    ...    secret__github_token=${github_token}
    ...    include_in_history=False
    ...    timeout_seconds=240
    RW.Core.Add Pre To Report    ${step.stdout}

Detect Flaky Jobs That Pass on Re-run in `${GITHUB_REPO}`
    [Documentation]    Jobs whose attempts alternate between failure and success are reported as flaky.
    [Tags]    github    flaky    access:read-only    data:config
    ${flaky}=    RW.CLI.Run Cli
    ...    cmd=gh api 'repos/${GITHUB_REPO}/actions/runs?branch=${BRANCH}&per_page=${LOOKBACK_RUNS}' --jq '.workflow_runs[] | select(.run_attempt > 1 and .conclusion=="success") | "\\(.name) run \\(.id) passed on attempt \\(.run_attempt)"'
    ...    env=${env}
    ...    secret__github_token=${github_token}
    ...    timeout_seconds=180
    IF    len($flaky.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=4
        ...    expected=Runs pass on the first attempt
        ...    actual=${flaky.stdout}
        ...    title=Flaky Workflows in `${GITHUB_REPO}`
        ...    reproduce_hint=${flaky.cmd}
        ...    details=${flaky.stdout}
        ...    next_steps=Quarantine or fix the flaky test; retries hide real regressions
    END
    RW.Core.Add Pre To Report    Flaky Workflows in `${GITHUB_REPO}`:\n${flaky.stdout}

Check Queued Runs Waiting for Runners in `${GITHUB_REPO}`
    [Documentation]    Runs queued for more than 15 minutes usually mean self-hosted runners are offline.
    [Tags]    github    runners    access:read-only    data:config
    ${queued}=    RW.CLI.Run Cli
    ...    cmd=gh run list -R ${GITHUB_REPO} --status queued --json databaseId,workflowName,createdAt --jq '.[] | select((now - (.createdAt | fromdateiso8601)) > 900) | "\\(.workflowName) queued since \\(.createdAt)"'
    ...    env=${env}
    ...    secret__github_token=${github_token}
    ...    timeout_seconds=180
    IF    len($queued.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Runs start within 15 minutes
        ...    actual=${queued.stdout}
        ...    title=Workflow Runs Stuck in Queue in `${GITHUB_REPO}`
        ...    reproduce_hint=${queued.cmd}
        ...    details=${queued.stdout}
        ...    next_steps=Check self-hosted runner status and labels\nCheck org concurrency limits
    END
    RW.Core.Add Pre To Report    Workflow Runs Stuck in Queue in `${GITHUB_REPO}`:\n${queued.stdout}


*** Keywords ***
Suite Initialization
    ${github_token}=    RW.Core.Import Secret
    ...    github_token
    ...    type=string
    ...    description=GitHub token with actions:read on the repository.
    ...    pattern=\w*
    ...    example=A fine-grained personal access token
    ${GITHUB_REPO}=    RW.Core.Import User Variable    GITHUB_REPO
    ...    type=string
    ...    description=Repository in owner/name form.
    ...    pattern=\w*
    ...    example=acme/storefront
    ${BRANCH}=    RW.Core.Import User Variable    BRANCH
    ...    type=string
    ...    description=Branch whose workflow runs are checked.
    ...    pattern=\w*
    ...    example=main
    ...    default=main
    ${LOOKBACK_RUNS}=    RW.Core.Import User Variable    LOOKBACK_RUNS
    ...    type=integer
    ...    description=Number of recent runs to examine.
    ...    pattern=\w*
    ...    example=50
    ...    default=30
    ${MAX_FAILURE_RATE}=    RW.Core.Import User Variable    MAX_FAILURE_RATE
    ...    type=string
    ...    description=Share of failed runs that is acceptable.
    ...    pattern=\w*
    ...    example=0.1
    ...    default=0.2
    Set Suite Variable    ${GITHUB_REPO}    ${GITHUB_REPO}
    Set Suite Variable    ${BRANCH}    ${BRANCH}
    Set Suite Variable    ${LOOKBACK_RUNS}    ${LOOKBACK_RUNS}
    Set Suite Variable    ${MAX_FAILURE_RATE}    ${MAX_FAILURE_RATE}
    Set Suite Variable
    ...    ${env}
    ...    {"GITHUB_REPO":"${GITHUB_REPO}", "GH_PAGER":""}
