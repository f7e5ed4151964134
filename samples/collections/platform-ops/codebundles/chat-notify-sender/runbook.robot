*** Settings ***
Documentation       Sends messages and incident cards to a Slack channel or a Microsoft Teams channel through an incoming webhook.
Metadata            Author    Noah Brennan
Metadata            Display Name    Chat Notification Sender
Metadata            Supports    Slack,Microsoft Teams,Notifications
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             RW.Notify
Library             Collections

Suite Setup         Suite Initialization


*** Tasks ***
Send Message to Chat Channel `${CHANNEL}`
    [Documentation]    Posts MESSAGE as plain text to the webhook.
    [Tags]    chat    notify
    ${resp}=    RW.Notify.Send Chat Message
    ...    webhook_url=${chat_webhook_url.value}
    ...    text=${MESSAGE}
    ...    channel=${CHANNEL}
    ...    platform=${CHAT_PLATFORM}
    RW.Core.Add Pre To Report    Chat API answered: ${resp}

Post Incident Card for `${INCIDENT_TITLE}`
    [Documentation]    Builds a formatted incident card (severity colour, summary, link) and posts it.
    [Tags]    chat    incident
    ${card}=    RW.Notify.Build Incident Card
    ...    title=${INCIDENT_TITLE}
    ...    severity=${INCIDENT_SEVERITY}
    ...    summary=${MESSAGE}
    ...    platform=${CHAT_PLATFORM}
    IF    "${CHAT_PLATFORM}" == "teams"
        ${resp}=    RW.Notify.Post Teams Card    webhook_url=${chat_webhook_url.value}    card=${card}
    ELSE
        ${resp}=    RW.Notify.Send Chat Message    webhook_url=${chat_webhook_url.value}    blocks=${card}    platform=slack
    END
    RW.Core.Add Pre To Report    Incident card sent: ${resp}

Send Digest of Open Issues to Chat Channel `${CHANNEL}`
    [Documentation]    Formats the issues raised earlier in this run session as a short digest and posts it.
    [Tags]    chat    digest
    ${issues}=    RW.Core.Get Session Issues
    ${digest}=    RW.Notify.Format Issue Digest    issues=${issues}    max_items=10
    ${resp}=    RW.Notify.Send Chat Message    webhook_url=${chat_webhook_url.value}    text=${digest}    platform=${CHAT_PLATFORM}
    RW.Core.Add Pre To Report    ${digest}


*** Keywords ***
Suite Initialization
    ${chat_webhook_url}=    RW.Core.Import Secret
    ...    chat_webhook_url
    ...    type=string
    ...    description=Incoming webhook URL of the Slack channel or Teams connector.
    ...    pattern=\w*
    ...    example=https://hooks.slack.com/services/T000/B000/XXXX
    ${CHAT_PLATFORM}=    RW.Core.Import User Variable    CHAT_PLATFORM
    ...    type=string
    ...    description=Which chat system the webhook belongs to.
    ...    pattern=\w*
    ...    enum=[slack,teams]
    ...    example=slack
    ...    default=slack
    ${CHANNEL}=    RW.Core.Import User Variable    CHANNEL
    ...    type=string
    ...    description=Channel name shown in the message header (Slack only).
    ...    pattern=\w*
    ...    example=#oncall-payments
    ...    default=
    ${MESSAGE}=    RW.Core.Import User Variable    MESSAGE
    ...    type=string
    ...    description=Text to send.
    ...    pattern=\w*
    ...    example=Deploy of cart-api 2.14 rolled back, investigating.
    ${INCIDENT_TITLE}=    RW.Core.Import User Variable    INCIDENT_TITLE
    ...    type=string
    ...    description=Title used for incident cards.
    ...    pattern=\w*
    ...    example=Checkout latency above SLO
    ...    default=
    ${INCIDENT_SEVERITY}=    RW.Core.Import User Variable    INCIDENT_SEVERITY
    ...    description=Severity label on the card.
    ...    pattern=\w*
    ...    example=2
    ...    default=3
    Set Suite Variable    ${CHAT_PLATFORM}    ${CHAT_PLATFORM}
    Set Suite Variable    ${CHANNEL}    ${CHANNEL}
    Set Suite Variable    ${MESSAGE}    ${MESSAGE}
    Set Suite Variable    ${INCIDENT_TITLE}    ${INCIDENT_TITLE}
    Set Suite Variable    ${INCIDENT_SEVERITY}    ${INCIDENT_SEVERITY}
    Set Suite Variable
    ...    ${env}
    ...    {}
