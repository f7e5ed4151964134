//! Commands that change infrastructure, recognised in task bodies. The evidence
//! behind "read-write" when a bundle has no access tags and its task names do not
//! say what they do (a lag check that reinitialises replicas, a canary that applies
//! a Job).

use regex::Regex;
use std::sync::LazyLock;

static PATTERNS: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    [
        // kubectl or oc, also behind a variable such as `${KUBECTL}` / `${binary_name}`
        r"(?:\bkubectl|\boc|\$\{[A-Za-z_]+\})\s+(?:delete|apply|patch|scale|edit|label|annotate|cordon|uncordon|drain|taint|replace|create|set\s+image|rollout\s+(?:restart|undo))\b",
        r"\bpatronictl\s+(?:reinit|restart|failover|switchover|remove|reload)\b",
        r"\bhelm\s+(?:upgrade|install|uninstall|rollback|delete)\b",
        r"\baws\s+[a-z0-9-]+\s+(?:delete|terminate|stop|start|reboot|put|create|update|modify|attach|detach|send)-[a-z-]+",
        r"\baz\s+(?:[a-z-]+\s+){1,3}(?:delete|restart|stop|start|update|create|swap)\b",
        r"\bgcloud\s+(?:[a-z-]+\s+){1,4}(?:delete|create|update|restart|resize|reset|stop|start)\b",
        r"\bcurl\b[^|;]*\s-X\s*['\x22]?(?:POST|PUT|PATCH|DELETE)\b",
    ]
    .iter()
    .map(|p| Regex::new(p).expect("valid pattern"))
    .collect()
});

/// The first write command in `text`, normalised to a short form.
pub fn detect(text: &str) -> Option<String> {
    PATTERNS
        .iter()
        .find_map(|re| re.find(text))
        .map(|m| m.as_str().split_whitespace().collect::<Vec<_>>().join(" "))
}

#[cfg(test)]
mod tests {
    use super::detect;

    #[test]
    fn finds_writes_not_reads() {
        assert!(detect("cmd=${binary_name} exec p -- patronictl reinit c m --force").is_some());
        assert!(detect("cat job.yaml | ${KUBECTL} apply -n ns -f -").is_some());
        assert!(detect("kubectl rollout restart deployment/x").is_some());
        assert!(detect("aws ec2 terminate-instances --instance-ids i-1").is_some());
        assert!(detect("curl -s -X POST https://hooks.example.com").is_some());
        assert!(detect("kubectl get pods -o json").is_none());
        assert!(detect("kubectl rollout status deployment/x").is_none());
        assert!(detect("aws ec2 describe-instances").is_none());
        assert!(detect("az aks show -g rg -n c").is_none());
    }
}
