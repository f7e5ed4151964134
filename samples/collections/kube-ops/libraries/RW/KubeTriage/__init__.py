"""Kubernetes triage keywords for the kube-ops codecollection.

Robot Framework imports this package as ``Library    RW.KubeTriage`` and uses
the ``KubeTriage`` class below as the library.
"""
from .kube_triage import KubeTriage

__all__ = ["KubeTriage"]
