*** Settings ***
Documentation       Checks a Jenkins controller: failed jobs, long build queue, offline agents and builds that hang.
Metadata            Author    Noah Brennan
Metadata            Display Name    Jenkins Controller and Job Health
Metadata            Supports    Jenkins,CI
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
List Jobs Whose Last Build Failed on `${JENKINS_URL}`
    [Documentation]    Walks all jobs (including folders) and lists those with a red last build.
    [Tags]    jenkins    ci    access:read-only    data:config
    ${red}=    RW.CLI.Run Cli
    ...    cmd=curl -sf -u ${JENKINS_USER}:$jenkins_token "${JENKINS_URL}/api/json?tree=jobs[name,url,color,jobs[name,url,color]]" | jq -r '.. | objects | select(.color? == "red") | .url'
    ...    env=${env}
    ...    secret__jenkins_token=${jenkins_token}
    ...    timeout_seconds=180
    IF    len($red.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=Last builds succeed
        ...    actual=${red.stdout}
        ...    title=Jenkins Jobs Failing on `${JENKINS_URL}`
        ...    reproduce_hint=${red.cmd}
        ...    details=${red.stdout}
        ...    next_steps=Open the console log of the last build of each job
    END
    RW.Core.Add Pre To Report    Jenkins Jobs Failing on `${JENKINS_URL}`:\n${red.stdout}

Check Build Queue Length and Oldest Item on `${JENKINS_URL}`
    [Documentation]    Reports queue items that have waited longer than MAX_QUEUE_MINUTES and why they are blocked.
    [Tags]    jenkins    queue    access:read-only    data:config
    ${q}=    RW.CLI.Run Cli
    ...    cmd=curl -sf -u ${JENKINS_USER}:$jenkins_token "${JENKINS_URL}/queue/api/json" | jq -r --argjson m ${MAX_QUEUE_MINUTES} '.items[] | select((now * 1000 - .inQueueSince) > ($m * 60000)) | .task.name + ": " + .why'
    ...    env=${env}
    ...    secret__jenkins_token=${jenkins_token}
    ...    timeout_seconds=180
    IF    len($q.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Items start within ${MAX_QUEUE_MINUTES} minutes
        ...    actual=${q.stdout}
        ...    title=Jenkins Build Queue Is Stuck on `${JENKINS_URL}`
        ...    reproduce_hint=${q.cmd}
        ...    details=${q.stdout}
        ...    next_steps=Check agents with the required label\nCheck executor counts
    END
    RW.Core.Add Pre To Report    Jenkins Build Queue Is Stuck on `${JENKINS_URL}`:\n${q.stdout}

List Offline Agents on `${JENKINS_URL}`
    [Documentation]    Shows agents that are offline or temporarily offline with the reason.
    [Tags]    jenkins    agents    access:read-only    data:config
    ${off}=    RW.CLI.Run Cli
    ...    cmd=curl -sf -u ${JENKINS_USER}:$jenkins_token "${JENKINS_URL}/computer/api/json?tree=computer[displayName,offline,offlineCauseReason]" | jq -r '.computer[] | select(.offline) | .displayName + ": " + (.offlineCauseReason // "no reason")'
    ...    env=${env}
    ...    secret__jenkins_token=${jenkins_token}
    ...    timeout_seconds=180
    IF    len($off.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=Agents online
        ...    actual=${off.stdout}
        ...    title=Jenkins Agents Offline on `${JENKINS_URL}`
        ...    reproduce_hint=${off.cmd}
        ...    details=${off.stdout}
        ...    next_steps=Check the agent host, disk space and the JNLP/SSH connection
    END
    RW.Core.Add Pre To Report    Jenkins Agents Offline on `${JENKINS_URL}`:\n${off.stdout}

Find Builds Running Longer Than Their Usual Duration on `${JENKINS_URL}`
    [Documentation]    Compares running builds with the estimated duration and reports those at more than twice the estimate.
    [Tags]    jenkins    stuck    access:read-only    data:config
    ${slow}=    RW.CLI.Run Cli
    ...    cmd=curl -sf -u ${JENKINS_USER}:$jenkins_token "${JENKINS_URL}/computer/api/json?depth=2&tree=computer[executors[currentExecutable[url,timestamp,estimatedDuration]]]" | jq -r '.computer[].executors[].currentExecutable | select(. != null) | select(.estimatedDuration > 0 and (now * 1000 - .timestamp) > 2 * .estimatedDuration) | .url'
    ...    env=${env}
    ...    secret__jenkins_token=${jenkins_token}
    ...    timeout_seconds=180
    IF    len($slow.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=3
        ...    expected=Builds finish near their estimate
        ...    actual=${slow.stdout}
        ...    title=Hung Builds on `${JENKINS_URL}`
        ...    reproduce_hint=${slow.cmd}
        ...    details=${slow.stdout}
        ...    next_steps=Take a thread dump of the build or abort it
    END
    RW.Core.Add Pre To Report    Hung Builds on `${JENKINS_URL}`:\n${slow.stdout}


*** Keywords ***
Suite Initialization
    ${jenkins_token}=    RW.Core.Import Secret
    ...    jenkins_token
    ...    type=string
    ...    description=Jenkins API token of JENKINS_USER.
    ...    pattern=\w*
    ...    example=11a2b3c4d5e6f7...
    ${JENKINS_URL}=    RW.Core.Import User Variable    JENKINS_URL
    ...    type=string
    ...    description=Base URL of the Jenkins controller.
    ...    pattern=\w*
    ...    example=https://ci.example.com
    ${JENKINS_USER}=    RW.Core.Import User Variable    JENKINS_USER
    ...    type=string
    ...    description=User that owns the API token.
    ...    pattern=\w*
    ...    example=sre-bot
    ${MAX_QUEUE_MINUTES}=    RW.Core.Import User Variable    MAX_QUEUE_MINUTES
    ...    type=integer
    ...    description=Minutes an item may wait in the build queue.
    ...    pattern=\w*
    ...    example=20
    ...    default=15
    Set Suite Variable    ${JENKINS_URL}    ${JENKINS_URL}
    Set Suite Variable    ${JENKINS_USER}    ${JENKINS_USER}
    Set Suite Variable    ${MAX_QUEUE_MINUTES}    ${MAX_QUEUE_MINUTES}
    Set Suite Variable
    ...    ${env}
    ...    {"JENKINS_URL":"${JENKINS_URL}", "JENKINS_USER":"${JENKINS_USER}"}
