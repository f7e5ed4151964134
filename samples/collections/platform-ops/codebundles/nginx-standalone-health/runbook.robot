*** Settings ***
Documentation       Checks an nginx server on a VM over SSH: connection counters, 5xx and upstream errors in the logs, config validity and worker limits.
Metadata            Author    Tomasz Wilk
Metadata            Display Name    NGINX Web Server Health
Metadata            Supports    NGINX,Linux,WebServer
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
Query stub_status for Active and Waiting Connections on `${NGINX_HOST}`
    [Documentation]    Prints active, reading, writing and waiting connections.
    [Tags]    nginx    access:read-only    data:metrics
    ${st}=    RW.CLI.Run Cli
    ...    cmd=ssh -i $ssh_private_key -o StrictHostKeyChecking=accept-new ${SSH_USER}@${NGINX_HOST} curl -s ${STATUS_URL}
    ...    env=${env}
    ...    secret_file__ssh_private_key=${ssh_private_key}
    RW.Core.Add Pre To Report    ${st.stdout}

Count 5xx Responses in the Access Log on `${NGINX_HOST}`
    [Documentation]    Counts 5xx status codes in the last 10,000 log lines, grouped by request path.
    [Tags]    nginx    http    access:read-only    data:logs-regexp
    ${e5}=    RW.CLI.Run Cli
    ...    cmd=ssh -i $ssh_private_key -o StrictHostKeyChecking=accept-new ${SSH_USER}@${NGINX_HOST} "tail -n 10000 ${ACCESS_LOG} | awk '\$9 ~ /^5/ {print \$9, \$7}' | sort | uniq -c | sort -rn | head -n 20"
    ...    env=${env}
    ...    secret_file__ssh_private_key=${ssh_private_key}
    ...    timeout_seconds=180
    IF    len($e5.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=No 5xx in recent traffic
        ...    actual=${e5.stdout}
        ...    title=NGINX on `${NGINX_HOST}` Returns 5xx Responses
        ...    reproduce_hint=${e5.cmd}
        ...    details=${e5.stdout}
        ...    next_steps=Check the upstream application for the paths listed\nRead error.log for upstream timeouts
    END
    RW.Core.Add Pre To Report    NGINX on `${NGINX_HOST}` Returns 5xx Responses:\n${e5.stdout}

Scan error.log for Upstream Timeouts and Refused Connections on `${NGINX_HOST}`
    [Documentation]    Greps the error log for upstream timed out, connect() failed and no live upstreams.
    [Tags]    nginx    logs    access:read-only    data:logs-regexp
    ${el}=    RW.CLI.Run Cli
    ...    cmd=ssh -i $ssh_private_key -o StrictHostKeyChecking=accept-new ${SSH_USER}@${NGINX_HOST} "sudo tail -n 2000 /var/log/nginx/error.log | grep -E 'upstream timed out|connect\\(\) failed|no live upstreams' | tail -n 30"
    ...    env=${env}
    ...    secret_file__ssh_private_key=${ssh_private_key}
    ...    timeout_seconds=180
    IF    len($el.stdout.strip()) > 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=Upstreams answer in time
        ...    actual=Upstream errors logged
        ...    title=NGINX Upstream Errors on `${NGINX_HOST}`
        ...    reproduce_hint=${el.cmd}
        ...    details=${el.stdout}
        ...    next_steps=Check the backend pool health and proxy_read_timeout
    END
    RW.Core.Add Pre To Report    NGINX Upstream Errors on `${NGINX_HOST}`:\n${el.stdout}

Validate Configuration Syntax on `${NGINX_HOST}`
    [Documentation]    Runs nginx -t so a broken config is found before the next reload.
    [Tags]    nginx    config    access:read-only    data:config
    ${t}=    RW.CLI.Run Cli
    ...    cmd=ssh -i $ssh_private_key -o StrictHostKeyChecking=accept-new ${SSH_USER}@${NGINX_HOST} sudo nginx -t
    ...    env=${env}
    ...    secret_file__ssh_private_key=${ssh_private_key}
    IF    ${t.returncode} != 0
        RW.Core.Add Issue
        ...    severity=2
        ...    expected=nginx -t succeeds
        ...    actual=${t.stderr}
        ...    title=NGINX Configuration on `${NGINX_HOST}` Is Invalid
        ...    reproduce_hint=${t.cmd}
        ...    details=${t.stderr}
        ...    next_steps=Fix the file and line reported; the next reload will fail otherwise
    END

Check Worker Connection Limits on `${NGINX_HOST}`
    [Documentation]    Compares worker_processes * worker_connections with the current active connections and the open file limit.
    [Tags]    nginx    capacity    access:read-only    data:config
    ${wl}=    RW.CLI.Run Cli
    ...    cmd=ssh -i $ssh_private_key -o StrictHostKeyChecking=accept-new ${SSH_USER}@${NGINX_HOST} "sudo nginx -T 2>/dev/null | grep -E 'worker_(processes|connections|rlimit_nofile)'; ulimit -n"
    ...    env=${env}
    ...    secret_file__ssh_private_key=${ssh_private_key}
    RW.Core.Add Pre To Report    ${wl.stdout}


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
