*** Settings ***
Documentation       Runs a kubectl command and pushes the number of output lines, so any non-zero value can alert.
Metadata            Author    Priya Raman
Metadata            Display Name    Kubectl Command Output Count
Metadata            Supports    Kubernetes,kubectl,Generic
Library             RW.Core
Library             RW.CLI
Library             RW.platform
Library             OperatingSystem
Library             String

Suite Setup         Suite Initialization


*** Tasks ***
${TASK_TITLE}
    [Documentation]    Pushes the number of lines printed by KUBECTL_COMMAND.
    [Tags]    kubectl    generic    access:read-only
    ${rsp}=    RW.CLI.Run Cli
    ...    cmd=${KUBECTL_COMMAND}
    ...    env=${env}
    ...    secret_file__kubeconfig=${kubeconfig}
    ...    timeout_seconds=300
    ${lines}=    Evaluate    len([l for l in r'''${rsp.stdout}'''.splitlines() if l.strip()])
    RW.Core.Push Metric    ${lines}


*** Keywords ***
Suite Initialization
    ${kubeconfig}=    RW.Core.Import Secret
    ...    kubeconfig
    ...    type=string
    ...    description=Kubeconfig used to run the command.
    ...    pattern=\w*
    ...    example=Upload a kubeconfig
    ${TASK_TITLE}=    RW.Core.Import User Variable    TASK_TITLE
    ...    type=string
    ...    description=Name shown for the task in reports.
    ...    pattern=\w*
    ...    example=Find pods without resource limits in payments
    ${KUBECTL_COMMAND}=    RW.Core.Import User Variable    KUBECTL_COMMAND
    ...    type=string
    ...    description=A complete kubectl command, pipes allowed. It should print nothing when all is well.
    ...    pattern=\w*
    ...    example=kubectl get pods -n payments -o json | jq -r '.items[] | select(.spec.containers[].resources.limits == null) | .metadata.name'
    ${ISSUE_TITLE}=    RW.Core.Import User Variable    ISSUE_TITLE
    ...    type=string
    ...    description=Title of the issue raised when the command prints something.
    ...    pattern=\w*
    ...    example=Pods without limits found
    ${ISSUE_SEVERITY}=    RW.Core.Import User Variable    ISSUE_SEVERITY
    ...    type=string
    ...    description=Severity 1 (critical) to 4 (informational).
    ...    pattern=\w*
    ...    enum=[1,2,3,4]
    ...    example=3
    ...    default=3
    ${ISSUE_NEXT_STEPS}=    RW.Core.Import User Variable    ISSUE_NEXT_STEPS
    ...    type=string
    ...    description=Next steps text added to the issue.
    ...    pattern=\w*
    ...    example=Add resource limits to the listed pods
    ...    default=Review the command output
    Set Suite Variable    ${TASK_TITLE}    ${TASK_TITLE}
    Set Suite Variable    ${KUBECTL_COMMAND}    ${KUBECTL_COMMAND}
    Set Suite Variable    ${ISSUE_TITLE}    ${ISSUE_TITLE}
    Set Suite Variable    ${ISSUE_SEVERITY}    ${ISSUE_SEVERITY}
    Set Suite Variable    ${ISSUE_NEXT_STEPS}    ${ISSUE_NEXT_STEPS}
    Set Suite Variable
    ...    ${env}
    ...    {"KUBECONFIG":"./${kubeconfig.key}"}
