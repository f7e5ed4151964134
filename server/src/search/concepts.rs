//! Everyday words → the vocabulary codebundles use. Users describe what they see
//! ("the padlock warning", "keeps getting killed for memory"); bundles are named after
//! mechanisms (TLS certificate expiry, OOMKilled). This lexicon is general SRE
//! knowledge, independent of any registry; it adds terms, never removes them.

/// (any of these phrases in the question, terms to add)
const CONCEPTS: &[(&[&str], &str)] = &[
    (
        &[
            "padlock",
            "not secure",
            "browser warning",
            "https warning",
            "ssl error",
            "cert error",
            "insecure connection",
            "handshake",
        ],
        "tls certificate expiry ssl https",
    ),
    (
        &["expire", "expiring", "expired", "renew", "renewal"],
        "expiry expiration certificate secret rotation",
    ),
    (
        &[
            "respawn",
            "keeps dying",
            "falling over",
            "falls over",
            "keeps crashing",
            "crash",
            "bounce",
            "bouncing",
            "flapping",
            "restart loop",
        ],
        "crashloop restart crashloopbackoff container restarts",
    ),
    (
        &[
            "hogging ram",
            "out of memory",
            "ran out of memory",
            "memory hog",
            "killed for memory",
            "oom",
            "too much memory",
            "memory leak",
            "shot down",
        ],
        "oomkilled memory limit oom",
    ),
    (
        &[
            "way behind",
            "falling behind",
            "lagging",
            "behind the primary",
            "out of sync",
            "stale replica",
            "follower",
        ],
        "replication lag replica standby",
    ),
    (
        &[
            "slow query",
            "queries are slow",
            "db is slow",
            "database is slow",
            "sluggish database",
        ],
        "slow queries postgres database performance",
    ),
    (
        &[
            "too many connections",
            "connection limit",
            "connections exhausted",
            "pool exhausted",
        ],
        "connections connection limit saturation",
    ),
    (
        &[
            "disk full",
            "out of space",
            "running out of disk",
            "no space left",
            "volume full",
            "storage full",
            "filling up",
        ],
        "storage capacity disk pvc volume usage",
    ),
    (
        &[
            "can't resolve",
            "cannot resolve",
            "name resolution",
            "lookup fails",
            "nxdomain",
            "hostname not found",
            "resolving",
        ],
        "dns resolution coredns records",
    ),
    (
        &[
            "dns record",
            "wrong ip",
            "points to the wrong",
            "record changed",
        ],
        "dns record drift",
    ),
    (
        &[
            "frozen",
            "stuck rollout",
            "half the",
            "rollout stuck",
            "not all replicas",
            "only some replicas",
            "update seems",
        ],
        "rollout deployment replicas available progress",
    ),
    (
        &["scale", "scaling", "autoscal", "more pods", "not scaling"],
        "autoscaling hpa replicas scale",
    ),
    (
        &[
            "node is",
            "nodes are",
            "worker",
            "memory pressure",
            "disk pressure",
            "notready",
            "not ready node",
        ],
        "node pressure conditions kubelet",
    ),
    (
        &[
            "queue piling",
            "messages piling",
            "backlog",
            "piling up",
            "consumers can't keep up",
            "unacked",
            "unprocessed messages",
        ],
        "queue depth backlog messages consumers",
    ),
    (
        &["bill", "spend", "cost", "expensive", "budget"],
        "cost spend budget",
    ),
    (
        &["error budget", "burn rate", "slo"],
        "slo error budget burn",
    ),
    (
        &[
            "latency",
            "slow site",
            "slow endpoint",
            "response time",
            "site is slow",
            "website is slow",
            "timeouts",
        ],
        "latency response time http endpoint",
    ),
    (
        &[
            "site down",
            "website down",
            "endpoint down",
            "uptime",
            "is it up",
            "availability",
        ],
        "availability uptime http endpoint health",
    ),
    (
        &[
            "pipeline",
            "build failing",
            "builds failing",
            "ci failing",
            "ci is red",
            "workflow failed",
            "actions failing",
        ],
        "ci pipeline workflow build failures",
    ),
    (
        &[
            "deploy failed",
            "sync failed",
            "out of sync app",
            "gitops",
            "drift",
        ],
        "gitops sync argocd flux helmrelease",
    ),
    (
        &["scheduled job", "cron", "nightly job", "batch job"],
        "cronjob job failures schedule",
    ),
    (
        &[
            "ingress",
            "load balancer",
            "502",
            "503",
            "504",
            "bad gateway",
            "gateway timeout",
        ],
        "ingress nginx upstream errors",
    ),
    (
        &["secret", "password", "credential", "key vault", "vault"],
        "secret credentials vault keyvault",
    ),
    (
        &[
            "access key",
            "iam key",
            "old keys",
            "stale keys",
            "rotate keys",
        ],
        "iam access key age rotation",
    ),
    (
        &[
            "public bucket",
            "bucket is public",
            "open bucket",
            "exposed bucket",
        ],
        "bucket public access posture s3 gcs",
    ),
    (
        &["alarm", "alarms", "alert firing", "alerts firing", "paging"],
        "alarms alerts monitoring",
    ),
    (
        &["serverless", "function errors", "lambda", "cloud function"],
        "lambda function errors invocations",
    ),
    (
        &[
            "notify",
            "notification",
            "post a message",
            "ping the team",
            "chat message",
            "slack",
            "teams",
        ],
        "notify message chat slack teams send",
    ),
    (
        &[
            "chaos",
            "break things",
            "kill random",
            "resilience test",
            "game day",
        ],
        "chaos kill pods resilience",
    ),
    (
        &[
            "restart the",
            "roll back",
            "rollback",
            "bounce the deployment",
            "scale down",
            "scale up",
        ],
        "restart rollback scale operations",
    ),
    (
        &[
            "quota",
            "limits",
            "limit range",
            "resource quota",
            "capacity of the namespace",
        ],
        "resource quota limits namespace capacity",
    ),
    (
        &[
            "pending pods",
            "unschedulable",
            "can't schedule",
            "stuck pending",
            "not starting",
            "won't start",
            "wont start",
        ],
        "pending scheduling pods readiness",
    ),
    (
        &["readiness", "not ready", "health check failing", "probe"],
        "readiness probe ready pods",
    ),
    (
        &["image pull", "pull error", "imagepull", "can't pull"],
        "image pull imagepullbackoff",
    ),
    (
        &["cache", "evictions", "keyspace", "redis"],
        "redis cache memory evictions",
    ),
    (
        &["postgres", "postgresql", "psql", "pg "],
        "postgres postgresql database",
    ),
    (
        &[
            "copies",
            "instances of my app",
            "app instances",
            "number of copies",
            "replica count",
        ],
        "replicas pods",
    ),
    (
        &[
            "grew",
            "grow",
            "traffic doubled",
            "traffic went up",
            "load went up",
            "more traffic",
            "traffic spike",
        ],
        "autoscaling hpa scale replicas",
    ),
    (
        &[
            "blow away",
            "randomly kill",
            "kill some",
            "delete random",
            "pull the plug",
            "knock out",
        ],
        "chaos kill delete pods resilience",
    ),
    (
        &[
            "numbered",
            "ordinal",
            "members 0",
            "-0 ",
            "pod-0",
            "stable identities",
        ],
        "statefulset ordinal replicas",
    ),
    (
        &[
            "worker machine",
            "worker machines",
            "machine dropped",
            "node died",
            "node went away",
            "host died",
        ],
        "node notready cordon schedulable",
    ),
    (
        &[
            "its disk",
            "get its disk",
            "volume",
            "disk attached",
            "attach",
        ],
        "volume pvc storage persistentvolumeclaim",
    ),
    (
        &[
            "everything under",
            "sweep",
            "overview",
            "what's going on in",
            "whats going on in",
            "health of a namespace",
        ],
        "namespace overview summary",
    ),
    (
        &[
            "one-liner",
            "my own command",
            "custom command",
            "my command",
            "command output",
            "prints anything",
            "open a ticket when",
        ],
        "command stdout issue kubectl generic",
    ),
    (
        &[
            "version before",
            "previous version",
            "undo the deploy",
            "go back to",
            "roll it back",
            "revert",
        ],
        "rollback restart rollout",
    ),
    (
        &[
            "outside name",
            "public name",
            "domain points",
            "points at",
            "name points",
            "dns name",
        ],
        "dns record resolution",
    ),
    (
        &["load balancer", "old load balancer"],
        "dns ingress endpoint",
    ),
    (
        &[
            "cache box",
            "cache server",
            "cache hit",
            "cache miss",
            "lookups miss",
            "keeps missing",
        ],
        "redis cache hit ratio evictions",
    ),
    (
        &["secrets store", "secret store", "sealed", "unseal"],
        "vault secrets",
    ),
    (
        &[
            "old java",
            "java ci",
            "ci server",
            "build agents",
            "build executors",
        ],
        "jenkins builds executors",
    ),
    (
        &[
            "monitoring rules",
            "alarm rules",
            "alert rules",
            "notify anybody",
            "no one gets notified",
        ],
        "alarms notifications actions",
    ),
    (
        &[
            "parked",
            "poison",
            "dead letter",
            "dead-letter",
            "deadletter",
        ],
        "dead-letter queue messages",
    ),
    (
        &[
            "sit waiting",
            "waiting longer",
            "picks them up",
            "pick them up",
            "not being consumed",
            "no worker",
        ],
        "queue backlog depth consumers messages",
    ),
    (
        &[
            "won't schedule",
            "wont schedule",
            "cant schedule",
            "won't be scheduled",
            "nowhere to run",
        ],
        "pending unschedulable node scheduling",
    ),
    (
        &[
            "managed k8s",
            "managed kubernetes",
            "control plane version",
            "cluster version",
            "upgrade nag",
        ],
        "cluster version upgrade control plane",
    ),
    (&["k8s", "kube", "cluster"], "kubernetes"),
    (&["aks"], "azure aks kubernetes"),
    (&["eks"], "aws eks kubernetes"),
    (&["gke"], "gcp gke kubernetes"),
];

/// Terms to add for the concepts the question mentions.
pub fn expand(question: &str) -> Vec<String> {
    let q = format!(" {} ", question.to_lowercase());
    let mut out: Vec<String> = Vec::new();
    for (phrases, terms) in CONCEPTS {
        if phrases.iter().any(|p| q.contains(p)) {
            for t in terms.split_whitespace() {
                if !out.iter().any(|o| o == t) {
                    out.push(t.to_string());
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn everyday_words_map_to_mechanisms() {
        let t = super::expand("users get a scary browser screen about our site's padlock");
        assert!(t.contains(&"tls".to_string()) && t.contains(&"certificate".to_string()));
        assert!(super::expand("what is the weather").is_empty());
    }
}
