*** Settings ***
Documentation       Scores Jenkins on online agents and an unblocked queue.
Metadata            Author    Noah Brennan
Metadata            Display Name    Jenkins Health Score
Metadata            Supports    Jenkins,CI
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score Online Agents on `${JENKINS_URL}`
    [Documentation]    Fraction of agents that are online.
    [Tags]    jenkins    access:read-only
    ${on}=    RW.CLI.Run Cli
    ...    cmd=curl -sf -u ${JENKINS_USER}:$jenkins_token "${JENKINS_URL}/computer/api/json?tree=computer[offline]" | jq '([.computer[] | select(.offline|not)] | length) / (.computer | length)'
    ...    env=${env}
    ...    secret__jenkins_token=${jenkins_token}
    ...    timeout_seconds=120
    ${agent_score}=    Evaluate    float(${on.stdout})
    Set Global Variable    ${agent_score}
    RW.Core.Push Metric    ${agent_score}    sub_name=agents

Score Build Queue Wait on `${JENKINS_URL}`
    [Documentation]    Scores 1 when no queue item waits too long.
    [Tags]    jenkins    access:read-only
    ${qw}=    RW.CLI.Run Cli
    ...    cmd=curl -sf -u ${JENKINS_USER}:$jenkins_token "${JENKINS_URL}/queue/api/json" | jq --argjson m ${MAX_QUEUE_MINUTES} '[.items[] | select((now * 1000 - .inQueueSince) > ($m * 60000))] | length'
    ...    env=${env}
    ...    secret__jenkins_token=${jenkins_token}
    ...    timeout_seconds=120
    ${queue_score}=    Evaluate    1 if int(${qw.stdout}) == 0 else 0
    Set Global Variable    ${queue_score}
    RW.Core.Push Metric    ${queue_score}    sub_name=queue

Generate Jenkins Score
    [Documentation]    Averages the sub-scores.
    [Tags]    score    access:read-only
    ${health_score}=    Evaluate    (${agent_score} + ${queue_score}) / 2
    ${health_score}=    Convert to Number    ${health_score}    2
    RW.Core.Add to Report    Jenkins score: ${health_score}
    RW.Core.Push Metric    ${health_score}


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
