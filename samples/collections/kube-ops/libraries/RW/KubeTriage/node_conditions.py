"""Helpers for node condition parsing (imported by KubeTriage users directly)."""


def _is_true(condition):
    return condition.get("status") == "True"


def nodes_with_pressure(nodes):
    """Return ``{node_name: [condition types]}`` for nodes with a *Pressure condition set to True."""
    out = {}
    for node in nodes.get("items", []):
        flagged = [c["type"] for c in node.get("status", {}).get("conditions", [])
                   if c.get("type", "").endswith("Pressure") and _is_true(c)]
        if flagged:
            out[node["metadata"]["name"]] = flagged
    return out


def not_ready_nodes(nodes):
    """Return the names of nodes whose Ready condition is not True."""
    names = []
    for node in nodes.get("items", []):
        ready = [c for c in node.get("status", {}).get("conditions", []) if c.get("type") == "Ready"]
        if not ready or not _is_true(ready[0]):
            names.append(node["metadata"]["name"])
    return names
