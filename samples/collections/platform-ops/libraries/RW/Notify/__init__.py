"""Chat notification keywords (Slack and Microsoft Teams incoming webhooks)."""
from .notify import Notify

__all__ = ["Notify"]
