*** Settings ***
Documentation       Scores an nginx server on the share of non-5xx responses in recent traffic.
Metadata            Author    Tomasz Wilk
Metadata            Display Name    NGINX Web Server Score
Metadata            Supports    NGINX,Linux,WebServer
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Score Non-5xx Share on `${NGINX_HOST}`
    [Documentation]    Share of the last 2,000 requests that were not 5xx.
    [Tags]    nginx    access:read-only
    ${ok}=    RW.CLI.Run Cli
    ...    cmd=ssh -i $ssh_private_key -o StrictHostKeyChecking=accept-new ${SSH_USER}@${NGINX_HOST} "tail -n 2000 ${ACCESS_LOG} | awk '{n++} \$9 !~ /^5/ {ok++} END {printf \"%.3f\", (n ? ok/n : 1)}'"
    ...    env=${env}
    ...    secret_file__ssh_private_key=${ssh_private_key}
    ...    timeout_seconds=120
    ${nginx_score}=    Evaluate    float(${ok.stdout})
    Set Global Variable    ${nginx_score}
    RW.Core.Push Metric    ${nginx_score}    sub_name=non_5xx


*** Keywords ***
Suite Initialization
    ${ssh_private_key}=    RW.Core.Import Secret
    ...    ssh_private_key
    ...    type=string
    ...    description=Private key for SSH_USER on the web server.
    ...    pattern=\w*
    ...    example=-----BEGIN OPENSSH PRIVATE KEY----- ...
    ${NGINX_HOST}=    RW.Core.Import User Variable    NGINX_HOST
    ...    type=string
    ...    description=Host running nginx.
    ...    pattern=\w*
    ...    example=web-01.example.com
    ${SSH_USER}=    RW.Core.Import User Variable    SSH_USER
    ...    type=string
    ...    description=SSH user with read access to the logs and sudo for nginx -t.
    ...    pattern=\w*
    ...    example=ops
    ...    default=ops
    ${STATUS_URL}=    RW.Core.Import User Variable    STATUS_URL
    ...    type=string
    ...    description=stub_status URL reachable from the host itself.
    ...    pattern=\w*
    ...    example=http://127.0.0.1/nginx_status
    ...    default=http://127.0.0.1/nginx_status
    ${ACCESS_LOG}=    RW.Core.Import User Variable    ACCESS_LOG
    ...    type=string
    ...    description=Access log path.
    ...    pattern=\w*
    ...    example=/var/log/nginx/access.log
    ...    default=/var/log/nginx/access.log
    Set Suite Variable    ${NGINX_HOST}    ${NGINX_HOST}
    Set Suite Variable    ${SSH_USER}    ${SSH_USER}
    Set Suite Variable    ${STATUS_URL}    ${STATUS_URL}
    Set Suite Variable    ${ACCESS_LOG}    ${ACCESS_LOG}
    Set Suite Variable
    ...    ${env}
    ...    {"NGINX_HOST":"${NGINX_HOST}"}
