*** Settings ***
Documentation       Offline test for the jq filter used by the backlog task.
Library             OperatingSystem
Library             Process

*** Test Cases ***
Backlog Filter Selects Only Large Queues
    ${fixture}=    Set Variable    [{"name":"a","messages_ready":10,"consumers":1},{"name":"b","messages_ready":9000,"consumers":0}]
    ${out}=    Run Process    jq    -r    --argjson    m    5000    .[] | select(.messages_ready > $m) | .name    stdin=${fixture}
    Should Be Equal    ${out.stdout}    b

Empty Queue List Produces No Output
    ${out}=    Run Process    jq    -r    .[] | .name    stdin=[]
    Should Be Empty    ${out.stdout}
