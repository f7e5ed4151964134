*** Settings ***
Documentation       Pushes the share of successful runs among the recent completed runs on a branch.
Metadata            Author    Noah Brennan
Metadata            Display Name    GitHub Actions Success Rate
Metadata            Supports    GitHub,Actions,CI
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score Workflow Success Rate on `${BRANCH}` in `${GITHUB_REPO}`
    [Documentation]    Successful runs divided by completed runs.
    [Tags]    github    access:read-only
    ${rate}=    RW.CLI.Run Cli
    ...    cmd=gh run list -R ${GITHUB_REPO} --branch ${BRANCH} --status completed --limit ${LOOKBACK_RUNS} --json conclusion --jq 'if length == 0 then 1 else ([.[] | select(.conclusion=="success")] | length) / length end'
    ...    env=${env}
    ...    secret__github_token=${github_token}
    ...    timeout_seconds=120
    ${ci_score}=    Evaluate    float(${rate.stdout})
    Set Global Variable    ${ci_score}
    RW.Core.Push Metric    ${ci_score}    sub_name=success_rate


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
