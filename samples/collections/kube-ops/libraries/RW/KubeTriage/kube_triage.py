"""Parse kubectl JSON output into triage findings.

Every public method of :class:`KubeTriage` is a Robot Framework keyword. Robot
turns the method name into the keyword name, so ``summarize_pod_restarts`` is
called as ``RW.KubeTriage.Summarize Pod Restarts`` in a robot file.

The methods take the raw ``stdout`` of a kubectl call (a JSON string) so the
robot file does not need to parse anything itself.
"""
import json
from datetime import datetime, timezone

_OOM_REASONS = ("OOMKilled", "OOMKilling")


def _load(doc):
    """Accept a JSON string, bytes or an already parsed dict."""
    if isinstance(doc, (bytes, bytearray)):
        doc = doc.decode("utf-8", "replace")
    if isinstance(doc, str):
        doc = doc.strip()
        return json.loads(doc) if doc else {"items": []}
    return doc or {"items": []}


def _container_statuses(pod):
    status = pod.get("status", {})
    return list(status.get("initContainerStatuses", [])) + list(status.get("containerStatuses", []))


def _memory_limit(pod, container_name):
    for c in pod.get("spec", {}).get("containers", []):
        if c.get("name") == container_name:
            return c.get("resources", {}).get("limits", {}).get("memory", "none")
    return "unknown"


def _age_minutes(timestamp):
    if not timestamp:
        return None
    ts = datetime.fromisoformat(timestamp.replace("Z", "+00:00"))
    return int((datetime.now(timezone.utc) - ts).total_seconds() // 60)


class KubeTriage:
    """Keywords that turn pod and event JSON into findings for issues and reports."""

    ROBOT_LIBRARY_SCOPE = "GLOBAL"

    def find_crashlooping_containers(self, pods_json, min_restarts=3):
        """Return containers waiting in CrashLoopBackOff with at least ``min_restarts`` restarts.

        Each item is a dict with ``pod``, ``container``, ``restarts``, ``exit_code``
        and ``reason`` (the last termination reason, e.g. ``Error`` or ``OOMKilled``).
        The list is sorted by restart count, highest first.
        """
        found = []
        for pod in _load(pods_json).get("items", []):
            for cs in _container_statuses(pod):
                waiting = cs.get("state", {}).get("waiting", {})
                if waiting.get("reason") != "CrashLoopBackOff":
                    continue
                if cs.get("restartCount", 0) < int(min_restarts):
                    continue
                last = cs.get("lastState", {}).get("terminated", {})
                found.append({
                    "pod": pod["metadata"]["name"],
                    "container": cs.get("name"),
                    "restarts": cs.get("restartCount", 0),
                    "exit_code": last.get("exitCode"),
                    "reason": last.get("reason", "unknown"),
                })
        return sorted(found, key=lambda x: x["restarts"], reverse=True)

    def parse_events_for_oom(self, events_json, pods_json=None):
        """Find containers terminated by the out-of-memory killer.

        Looks at two sources: ``OOMKilling`` / ``OOMKilled`` warning events, and the
        ``lastState.terminated.reason`` of containers in ``pods_json`` (optional).
        Returns one dict per container with ``pod``, ``container``, ``limit``,
        ``source`` and ``minutes_ago``. Duplicates from both sources are merged.
        """
        hits = {}
        for ev in _load(events_json).get("items", []):
            if ev.get("reason") not in _OOM_REASONS:
                continue
            obj = ev.get("involvedObject", {})
            key = (obj.get("name"), obj.get("fieldPath", ""))
            hits[key] = {
                "pod": obj.get("name"),
                "container": obj.get("fieldPath", "").replace("spec.containers{", "").rstrip("}") or "unknown",
                "limit": "unknown",
                "source": "event",
                "minutes_ago": _age_minutes(ev.get("lastTimestamp") or ev.get("eventTime")),
            }
        if pods_json:
            for pod in _load(pods_json).get("items", []):
                for cs in _container_statuses(pod):
                    term = cs.get("lastState", {}).get("terminated", {})
                    if term.get("reason") not in _OOM_REASONS:
                        continue
                    name = pod["metadata"]["name"]
                    hits[(name, cs.get("name"))] = {
                        "pod": name,
                        "container": cs.get("name"),
                        "limit": _memory_limit(pod, cs.get("name")),
                        "source": "pod status",
                        "minutes_ago": _age_minutes(term.get("finishedAt")),
                    }
        return list(hits.values())

    def summarize_pod_restarts(self, pods_json, threshold=3):
        """Summarise container restarts in a set of pods.

        Returns a dict with ``total_restarts``, ``over_threshold`` (number of
        containers with more than ``threshold`` restarts), ``rows`` (per-container
        dicts, worst first) and ``table`` (the rows as aligned plain text, ready for
        ``RW.Core.Add Pre To Report``).
        """
        rows = []
        for pod in _load(pods_json).get("items", []):
            for cs in _container_statuses(pod):
                rows.append({
                    "pod": pod["metadata"]["name"],
                    "container": cs.get("name"),
                    "restarts": cs.get("restartCount", 0),
                    "last_reason": cs.get("lastState", {}).get("terminated", {}).get("reason", "-"),
                })
        rows.sort(key=lambda r: r["restarts"], reverse=True)
        over = [r for r in rows if r["restarts"] > int(threshold)]
        return {
            "total_restarts": sum(r["restarts"] for r in rows),
            "over_threshold": len(over),
            "rows": rows,
            "table": self._format_table(rows),
        }

    def rank_restarting_workloads(self, pods_json, top=5):
        """Group restarts by owning workload (ReplicaSet, StatefulSet, DaemonSet, Job).

        Returns the ``top`` owners as ``[{"owner": "ReplicaSet/web-7d9f", "restarts": 42}, ...]``.
        Pods without an owner are grouped under ``Pod/<name>``.
        """
        totals = {}
        for pod in _load(pods_json).get("items", []):
            owners = pod["metadata"].get("ownerReferences") or [{"kind": "Pod", "name": pod["metadata"]["name"]}]
            key = f"{owners[0]['kind']}/{owners[0]['name']}"
            totals[key] = totals.get(key, 0) + sum(cs.get("restartCount", 0) for cs in _container_statuses(pod))
        ranked = sorted(totals.items(), key=lambda kv: kv[1], reverse=True)[: int(top)]
        return [{"owner": k, "restarts": v} for k, v in ranked if v > 0]

    @staticmethod
    def _format_table(rows):
        if not rows:
            return "no containers found"
        header = ("POD", "CONTAINER", "RESTARTS", "LAST REASON")
        data = [(r["pod"], r["container"], str(r["restarts"]), r["last_reason"]) for r in rows]
        widths = [max(len(x[i]) for x in [header] + data) for i in range(4)]
        lines = ["  ".join(v.ljust(widths[i]) for i, v in enumerate(row)) for row in [header] + data]
        return "\n".join(lines)
