//! Platform, resource types and access level, each with the source that decided it.
//!
//! Precedence (first source with an answer wins):
//! - platform: generation-rules `spec.platform` (or the kind of its resource types)
//!   → template auth snippet → slug prefix → `Metadata Supports` → library imports and
//!   secret names → the first non-noise `Supports` token (a tool such as `redis`)
//!   → `generic`.
//! - resource types: generation rules → SKILL-TEMPLATE `resource_types` (when not a
//!   placeholder like `kubernetes_resource`) → kinds named in the slug and task names.
//! - access: read-write when any evidence of writing exists, checked in this order:
//!   a task tagged `access:read-write`, the SLX template's `access` tag, a destructive
//!   verb leading an untagged task's name. Otherwise read-only, decided by the task
//!   tags when every task has one, else the SLX tag, else the verbs. Manifests
//!   (SKILL-TEMPLATE.md, meta.yaml) are hints and never decide: they are known to be
//!   wrong for bundles whose tags sit on `...` continuation lines.

use super::runwhen::{GenerationRules, ManifestHints, TemplateHints};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Derived {
    pub platform: String,
    pub platform_source: String,
    pub resource_types: Vec<String>,
    pub resource_types_source: String,
    pub access: Access,
    pub access_source: String,
}

pub struct Inputs<'a> {
    pub slug: &'a str,
    pub rules: &'a [GenerationRules],
    pub templates: &'a [TemplateHints],
    pub supports: &'a [String],
    pub libraries: &'a [String],
    pub secrets: &'a [String],
    /// (task name, its own tags) for runbook tasks and SLIs.
    pub tasks: &'a [TaskFacts],
    pub skill: Option<&'a ManifestHints>,
}

/// What access derivation needs to know about one task.
#[derive(Clone, Debug, Default)]
pub struct TaskFacts {
    pub name: String,
    pub tags: Vec<String>,
    /// Write commands found in the body (see `robot::writes`).
    pub writes: Vec<String>,
}

pub use app::api::catalog::Access;

pub fn derive(inp: &Inputs) -> Derived {
    let (platform, platform_source) = platform(inp);
    let (resource_types, resource_types_source) = resource_types(inp);
    let (access, access_source) = access(inp);
    Derived {
        platform,
        platform_source: platform_source.into(),
        resource_types,
        resource_types_source: resource_types_source.into(),
        access,
        access_source: access_source.into(),
    }
}

/// Maps a free-form platform word to the vocabulary used for filters.
pub fn normalize_platform(token: &str) -> Option<&'static str> {
    let t = token.trim().to_lowercase().replace([' ', '_'], "-");
    Some(match t.as_str() {
        "kubernetes" | "k8s" | "aks" | "eks" | "gke" | "openshift" | "kube" | "k3s" => "kubernetes",
        "aws" | "amazon" | "amazon-web-services" => "aws",
        "azure" | "microsoft-azure" => "azure",
        "gcp" | "google" | "google-cloud" | "googlecloud" | "gcloud" => "gcp",
        "azure-devops" | "azuredevops" | "ado" => "azure_devops",
        "github" | "gh" => "github",
        "gitlab" => "gitlab",
        "jenkins" => "jenkins",
        "vercel" => "vercel",
        "terraform" | "terraform-cloud" => "terraform",
        _ => return None,
    })
}

/// Words in `Supports` that are not platforms or tools.
const NOISE: &[&str] = &[
    "health",
    "healthcheck",
    "triage",
    "cost",
    "check",
    "checks",
    "monitor",
    "monitoring",
    "ops",
    "operations",
    "sli",
    "slo",
    "runbook",
    "taskset",
    "chaos",
    "engineering",
    "namespace",
    "generic",
    "cli",
    "api",
    "cloud",
    "status",
    "metrics",
    "logs",
    "security",
    "performance",
    "latency",
    "availability",
    "and",
    "the",
    "of",
];

fn supports_tokens(supports: &[String]) -> Vec<String> {
    supports
        .iter()
        .flat_map(|s| s.split(|c: char| c == ',' || c.is_whitespace()))
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
        .collect()
}

const K8S_KINDS: &[&str] = &[
    "namespace",
    "deployment",
    "statefulset",
    "daemonset",
    "pod",
    "ingress",
    "service",
    "persistentvolumeclaim",
    "pvc",
    "node",
    "job",
    "cronjob",
    "horizontalpodautoscaler",
    "hpa",
    "configmap",
    "replicaset",
    "cluster",
];

fn platform_of_resource(rt: &str) -> Option<&'static str> {
    let rt = rt.to_lowercase();
    if rt.starts_with("azure_devops") {
        Some("azure_devops")
    } else if rt.starts_with("azure_") {
        Some("azure")
    } else if rt.starts_with("aws_") {
        Some("aws")
    } else if rt.starts_with("gcp_") {
        Some("gcp")
    } else if K8S_KINDS.contains(&rt.as_str()) || rt.contains('.') {
        // CRDs (`helmreleases.helm.toolkit.fluxcd.io`) are Kubernetes resources too.
        Some("kubernetes")
    } else {
        None
    }
}

fn platform(inp: &Inputs) -> (String, &'static str) {
    for r in inp.rules {
        if let Some(p) = r.platform.as_deref().and_then(normalize_platform) {
            return (p.into(), "generation-rules");
        }
    }
    for r in inp.rules {
        if let Some(p) = r
            .resource_types
            .iter()
            .find_map(|t| platform_of_resource(t))
        {
            return (p.into(), "generation-rules");
        }
    }
    if let Some(p) = inp.templates.iter().flat_map(|t| t.auth.iter()).next() {
        return (p.clone(), "template-auth");
    }
    let prefixes: &[(&str, &str)] = &[
        ("k8s-", "kubernetes"),
        ("kubernetes-", "kubernetes"),
        ("azure-devops-", "azure_devops"),
        ("ado-", "azure_devops"),
        ("azure-", "azure"),
        ("aks-", "azure"),
        ("aws-", "aws"),
        ("eks-", "aws"),
        ("gcp-", "gcp"),
        ("gke-", "gcp"),
        ("gcloud-", "gcp"),
        ("gh-", "github"),
        ("github-", "github"),
        ("gitlab-", "gitlab"),
        ("jenkins-", "jenkins"),
        ("vercel-", "vercel"),
        ("terraform-", "terraform"),
    ];
    if let Some((_, p)) = prefixes.iter().find(|(pre, _)| inp.slug.starts_with(pre)) {
        return ((*p).into(), "slug");
    }
    let tokens = supports_tokens(inp.supports);
    if let Some(p) = tokens.iter().find_map(|t| normalize_platform(t)) {
        return (p.into(), "supports");
    }
    let evidence = inp
        .libraries
        .iter()
        .chain(inp.secrets.iter())
        .map(|s| s.to_lowercase());
    for e in evidence {
        let p = if e.contains("kubeconfig") || e.starts_with("rw.k8s") {
            "kubernetes"
        } else if e.contains("aws") {
            "aws"
        } else if e.contains("azure") {
            "azure"
        } else if e.contains("gcp") || e.contains("gcloud") {
            "gcp"
        } else {
            continue;
        };
        return (p.into(), "imports");
    }
    if let Some(t) = tokens
        .iter()
        .find(|t| !NOISE.contains(&t.to_lowercase().as_str()) && t.len() > 1)
    {
        return (t.to_lowercase(), "supports");
    }
    ("generic".into(), "none")
}

/// Resource words recognised in slugs and task names, with their canonical form.
const RESOURCE_WORDS: &[(&str, &str)] = &[
    ("deployment", "deployment"),
    ("deployments", "deployment"),
    ("statefulset", "statefulset"),
    ("statefulsets", "statefulset"),
    ("daemonset", "daemonset"),
    ("daemonsets", "daemonset"),
    ("pod", "pod"),
    ("pods", "pod"),
    ("namespace", "namespace"),
    ("ns", "namespace"),
    ("ingress", "ingress"),
    ("pvc", "persistentvolumeclaim"),
    ("persistentvolumeclaim", "persistentvolumeclaim"),
    ("node", "node"),
    ("nodes", "node"),
    ("job", "job"),
    ("jobs", "job"),
    ("cronjob", "cronjob"),
    ("cronjobs", "cronjob"),
    ("hpa", "horizontalpodautoscaler"),
    ("certificate", "certificate"),
    ("certificates", "certificate"),
    ("helmrelease", "helmrelease"),
    ("service", "service"),
    ("ec2", "aws_ec2_instances"),
    ("rds", "aws_rds_instances"),
    ("s3", "aws_s3_buckets"),
    ("lambda", "aws_lambda_functions"),
    ("sqs", "aws_sqs_queues"),
    ("eks", "aws_eks_clusters"),
    ("aks", "azure_containerservice_managed_clusters"),
    ("keyvault", "azure_keyvault_vaults"),
    ("appservice", "azure_appservice_web_apps"),
    ("gke", "gcp_container_clusters"),
    ("cloudsql", "gcp_sql_instances"),
    ("cloudrun", "gcp_run_services"),
    ("pubsub", "gcp_pubsub_subscriptions"),
    ("gcs", "gcp_storage_buckets"),
];

fn resource_types(inp: &Inputs) -> (Vec<String>, &'static str) {
    let mut from_rules: Vec<String> = Vec::new();
    for r in inp.rules {
        for t in &r.resource_types {
            let t = t.to_lowercase();
            if !from_rules.contains(&t) {
                from_rules.push(t);
            }
        }
    }
    if !from_rules.is_empty() {
        return (from_rules, "generation-rules");
    }
    if let Some(skill) = inp.skill {
        let useful: Vec<String> = skill
            .resource_types
            .iter()
            .map(|t| t.to_lowercase())
            .filter(|t| !t.ends_with("_resource") && !t.is_empty())
            .collect();
        if !useful.is_empty() {
            return (useful, "skill-template");
        }
    }
    let mut found: Vec<String> = Vec::new();
    let words = inp
        .slug
        .split('-')
        .map(str::to_string)
        .chain(inp.tasks.iter().flat_map(|t| {
            strip_placeholders(&t.name)
                .split(|c: char| !c.is_alphanumeric())
                .map(str::to_lowercase)
                .collect::<Vec<_>>()
        }))
        .collect::<Vec<_>>();
    for w in words {
        if let Some((_, canon)) = RESOURCE_WORDS.iter().find(|(k, _)| *k == w)
            && !found.iter().any(|f| f == canon)
        {
            found.push((*canon).to_string());
        }
    }
    let source = if found.is_empty() {
        "none"
    } else {
        "slug-and-task-names"
    };
    (found, source)
}

/// Verbs that change something when they lead a task name (or follow "and").
const WRITE_VERBS: &[&str] = &[
    "restart",
    "rollout",
    "scale",
    "rollback",
    "roll",
    "delete",
    "remove",
    "kill",
    "oomkill",
    "mangle",
    "fill",
    "reinitialize",
    "reinit",
    "failover",
    "sync",
    "apply",
    "send",
    "post",
    "notify",
    "create",
    "trigger",
    "patch",
    "cordon",
    "uncordon",
    "drain",
    "evict",
    "purge",
    "flush",
    "rotate",
    "reboot",
    "terminate",
    "redeploy",
    "resize",
    "cancel",
    "suspend",
    "resume",
    "update",
    "upgrade",
    "annotate",
    "label",
    "taint",
    "stop",
];

/// `Check Pods in \`${NS}\`` → `Check Pods in`.
pub fn strip_placeholders(name: &str) -> String {
    let mut out = String::new();
    let mut chars = name.chars().peekable();
    while let Some(c) = chars.next() {
        if matches!(c, '$' | '@' | '&' | '%') && chars.peek() == Some(&'{') {
            let mut depth = 0;
            for n in chars.by_ref() {
                match n {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
            }
        } else if c != '`' {
            out.push(c);
        }
    }
    out.split_whitespace()
        .filter(|w| *w != "$")
        .collect::<Vec<_>>()
        .join(" ")
}

pub fn tag_access(tags: &[String]) -> Option<Access> {
    tags.iter().find_map(
        |t| match t.trim().to_lowercase().replace(' ', "").as_str() {
            "access:read-write" => Some(Access::ReadWrite),
            "access:read-only" => Some(Access::ReadOnly),
            _ => None,
        },
    )
}

/// A task's own access: its tag, else its verbs, else the commands its body runs.
pub fn task_access(t: &TaskFacts) -> (Access, &'static str) {
    match tag_access(&t.tags) {
        Some(a) => (a, "task-tags"),
        None if has_write_verb(&t.name) => (Access::ReadWrite, "task-verbs"),
        None if !t.writes.is_empty() => (Access::ReadWrite, "task-commands"),
        None => (Access::ReadOnly, "task-verbs"),
    }
}

pub fn has_write_verb(name: &str) -> bool {
    let clean = strip_placeholders(name).to_lowercase();
    let words: Vec<&str> = clean
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    // "Create Report ..." produces text, not a change.
    let report_only = words.len() > 1
        && matches!(
            words[1],
            "report" | "summary" | "table" | "list" | "inventory"
        );
    let leading = words.first().is_some_and(|w| WRITE_VERBS.contains(w)) && !report_only;
    let after_and = words
        .windows(2)
        .any(|p| p[0] == "and" && WRITE_VERBS.contains(&p[1]));
    // Starting work is a change too: "Start RunSession …", "Run SLX Tasks …",
    // "Add Tasks to RunSession …", "Run Canary Job".
    const STARTERS: &[&str] = &[
        "start", "run", "trigger", "launch", "add", "queue", "dispatch",
    ];
    const RUNS: &[&str] = &[
        "runsession",
        "runsessions",
        "job",
        "jobs",
        "workflow",
        "workflows",
        "pipeline",
        "pipelines",
        "build",
        "builds",
        "tasks",
    ];
    let starts_work = words.first().is_some_and(|w| STARTERS.contains(w))
        && words.iter().skip(1).any(|w| RUNS.contains(w));
    leading || after_and || starts_work
}

fn access(inp: &Inputs) -> (Access, &'static str) {
    if inp
        .tasks
        .iter()
        .any(|t| tag_access(&t.tags) == Some(Access::ReadWrite))
    {
        return (Access::ReadWrite, "task-tags");
    }
    let slx = inp
        .templates
        .iter()
        .find_map(|t| t.access.as_deref().and_then(Access::parse));
    if slx == Some(Access::ReadWrite) {
        return (Access::ReadWrite, "slx-template");
    }
    let untagged = || inp.tasks.iter().filter(|t| tag_access(&t.tags).is_none());
    if untagged().any(|t| has_write_verb(&t.name)) {
        return (Access::ReadWrite, "task-verbs");
    }
    if untagged().any(|t| !t.writes.is_empty()) {
        return (Access::ReadWrite, "task-commands");
    }
    if !inp.tasks.is_empty() && inp.tasks.iter().all(|t| tag_access(&t.tags).is_some()) {
        (Access::ReadOnly, "task-tags")
    } else if slx == Some(Access::ReadOnly) {
        (Access::ReadOnly, "slx-template")
    } else {
        (Access::ReadOnly, "task-verbs")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(name: &str, tags: &[&str]) -> TaskFacts {
        TaskFacts {
            name: name.into(),
            tags: tags.iter().map(|s| s.to_string()).collect(),
            writes: vec![],
        }
    }

    fn inputs<'a>(slug: &'a str, tasks: &'a [TaskFacts]) -> Inputs<'a> {
        Inputs {
            slug,
            rules: &[],
            templates: &[],
            supports: &[],
            libraries: &[],
            secrets: &[],
            tasks,
            skill: None,
        }
    }

    #[test]
    fn placeholders_are_stripped() {
        assert_eq!(
            strip_placeholders("Check Pods in Namespace `${NAMESPACE}`"),
            "Check Pods in Namespace"
        );
        assert_eq!(strip_placeholders("${TASK_TITLE}"), "");
        assert_eq!(strip_placeholders("Get $${X} logs"), "Get logs");
        assert_eq!(
            strip_placeholders("Query `{\"a\": ${B}}` now"),
            "Query {\"a\": } now"
        );
    }

    #[test]
    fn any_read_write_tag_wins() {
        let tasks = vec![
            t("Check", &["access:read-only"]),
            t("Restart", &["access:read-write"]),
        ];
        let d = derive(&inputs("k8s-x", &tasks));
        assert_eq!(
            (d.access, d.access_source.as_str()),
            (Access::ReadWrite, "task-tags")
        );
        assert_eq!(
            (d.platform.as_str(), d.platform_source.as_str()),
            ("kubernetes", "slug")
        );
    }

    #[test]
    fn verbs_decide_without_tags() {
        let tasks = vec![
            t("Kill Random Pods in `${NS}`", &[]),
            t("Check Status", &[]),
        ];
        assert_eq!(derive(&inputs("chaos", &tasks)).access, Access::ReadWrite);
        let tasks = vec![t("Start RunSession From Webhook Details", &[])];
        assert_eq!(derive(&inputs("handler", &tasks)).access, Access::ReadWrite);
        let tasks = vec![
            t("Check ArgoCD Sync Status", &[]),
            t("Create Report For Stale Buckets", &[]),
            t("List Failed Jobs", &[]),
        ];
        let d = derive(&inputs("x", &tasks));
        assert_eq!(
            (d.access, d.access_source.as_str()),
            (Access::ReadOnly, "task-verbs")
        );
        let mut lag = t("Measure Member Lag", &[]);
        lag.writes = vec!["patronictl reinit".into()];
        let d = derive(&inputs("x", std::slice::from_ref(&lag)));
        assert_eq!(
            (d.access, d.access_source.as_str()),
            (Access::ReadWrite, "task-commands")
        );
    }

    #[test]
    fn rules_beat_slug_and_supports() {
        let rules = vec![GenerationRules {
            platform: None,
            resource_types: vec!["deployment".into()],
            ..Default::default()
        }];
        let supports = vec!["AWS,EKS".to_string()];
        let tasks: Vec<TaskFacts> = vec![];
        let inp = Inputs {
            rules: &rules,
            supports: &supports,
            ..inputs("aws-thing", &tasks)
        };
        let d = derive(&inp);
        assert_eq!(
            (d.platform.as_str(), d.platform_source.as_str()),
            ("kubernetes", "generation-rules")
        );
        assert_eq!(d.resource_types, vec!["deployment"]);
    }

    #[test]
    fn tool_platform_from_supports() {
        let supports = vec!["RabbitMQ".to_string(), "Messaging Health".to_string()];
        let tasks: Vec<TaskFacts> = vec![];
        let inp = Inputs {
            supports: &supports,
            ..inputs("rabbitmq-queue-backlog", &tasks)
        };
        assert_eq!(derive(&inp).platform, "rabbitmq");
    }
}
