"""Send messages to chat systems through incoming webhooks.

Used as ``Library    RW.Notify``. Public methods are keywords:
``Send Chat Message``, ``Build Incident Card``, ``Post Teams Card`` and
``Format Issue Digest``. Webhook URLs are secrets; they are never logged.
"""
import json
import urllib.request

_SEVERITY_COLOURS = {"1": "#b00020", "2": "#e65100", "3": "#f9a825", "4": "#546e7a"}
_SEVERITY_LABELS = {"1": "critical", "2": "major", "3": "minor", "4": "informational"}


def _redact_url(url):
    """Keep scheme and host of a webhook URL, hide the token path."""
    try:
        scheme, rest = url.split("://", 1)
        return f"{scheme}://{rest.split('/', 1)[0]}/***"
    except ValueError:
        return "***"


def _post_json(url, payload, timeout=10):
    data = json.dumps(payload).encode("utf-8")
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=timeout) as resp:  # nosec - URL comes from a secret
        return resp.status, resp.read().decode("utf-8", "replace")


class Notify:
    """Keywords for posting to Slack and Teams."""

    ROBOT_LIBRARY_SCOPE = "GLOBAL"

    def send_chat_message(self, webhook_url, text=None, channel=None, platform="slack", blocks=None):
        """Post a message to a Slack or Teams incoming webhook.

        ``text`` is plain text (Slack mrkdwn is allowed). ``blocks`` may carry a
        card built by ``Build Incident Card``. ``channel`` is only honoured by
        legacy Slack webhooks. Returns ``"<status> <body>"`` from the chat API and
        raises ``RuntimeError`` for any status other than 2xx.
        """
        if platform == "teams":
            payload = blocks or {"text": text or ""}
        else:
            payload = {"text": text or ""}
            if blocks:
                payload.update(blocks)
            if channel:
                payload["channel"] = channel
        status, body = _post_json(webhook_url, payload)
        if status // 100 != 2:
            raise RuntimeError(f"chat webhook {_redact_url(webhook_url)} answered {status}: {body}")
        return f"{status} {body}"

    def build_incident_card(self, title, severity="3", summary="", link=None, platform="slack"):
        """Build an incident card payload.

        For Slack this is a dict with ``attachments`` (coloured by severity); for
        Teams it is a MessageCard. Pass the result to ``Send Chat Message`` (Slack,
        as ``blocks``) or ``Post Teams Card``.
        """
        sev = str(severity)
        colour = _SEVERITY_COLOURS.get(sev, "#546e7a")
        label = _SEVERITY_LABELS.get(sev, "unknown")
        if platform == "teams":
            card = {"@type": "MessageCard", "@context": "https://schema.org/extensions",
                    "themeColor": colour.lstrip("#"), "title": f"[sev {sev} {label}] {title}",
                    "text": summary}
            if link:
                card["potentialAction"] = [{"@type": "OpenUri", "name": "Open",
                                            "targets": [{"os": "default", "uri": link}]}]
            return card
        fields = [{"title": "Severity", "value": f"{sev} ({label})", "short": True}]
        if link:
            fields.append({"title": "Link", "value": link, "short": True})
        return {"attachments": [{"color": colour, "title": title, "text": summary, "fields": fields}]}

    def post_teams_card(self, webhook_url, card):
        """Post a MessageCard (from ``Build Incident Card`` with ``platform=teams``) to a Teams webhook."""
        return self.send_chat_message(webhook_url, platform="teams", blocks=card)

    def format_issue_digest(self, issues, max_items=10):
        """Turn a list of issue dicts into a short text digest, most severe first.

        Each issue needs ``severity`` and ``title``; ``details`` is ignored to keep
        the message short. Issues beyond ``max_items`` are counted, not listed.
        """
        items = sorted(issues or [], key=lambda i: int(i.get("severity", 4)))
        lines = [f"{len(items)} open issue(s)"]
        for issue in items[: int(max_items)]:
            lines.append(f"- [sev {issue.get('severity', '?')}] {issue.get('title', '(untitled)')}")
        hidden = len(items) - int(max_items)
        if hidden > 0:
            lines.append(f"... and {hidden} more")
        return "\n".join(lines)
