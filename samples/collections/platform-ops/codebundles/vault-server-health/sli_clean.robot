*** Settings ***
Documentation       Scratch copy of the Vault SLI without the suite setup, used while debugging locally.
Library             RW.Core

*** Tasks ***
Probe Vault Health Endpoint Without Setup
    ${rsp}=    Evaluate    __import__("urllib.request").request.urlopen("http://127.0.0.1:8200/v1/sys/health").status
    RW.Core.Push Metric    ${rsp}
