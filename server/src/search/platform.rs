//! The platform a question names or implies ("on amazon", "google's managed k8s",
//! "a plain vm, not kube"). Results on that platform gain, results on another major
//! platform lose; a question naming none changes nothing. In a follow-up the latest
//! mention wins ("and on the aws side?").

use crate::index::text::tokens;

/// Words that imply a platform, with the platform they imply.
const CUES: &[(&str, &str)] = &[
    ("kubernetes", "kubernetes"),
    ("k8s", "kubernetes"),
    ("kube", "kubernetes"),
    ("kubectl", "kubernetes"),
    ("pod", "kubernetes"),
    ("pods", "kubernetes"),
    ("namespace", "kubernetes"),
    ("namespaces", "kubernetes"),
    ("kubelet", "kubernetes"),
    ("helm", "kubernetes"),
    ("statefulset", "kubernetes"),
    ("daemonset", "kubernetes"),
    ("deployment", "kubernetes"),
    ("openshift", "kubernetes"),
    ("ingress", "kubernetes"),
    ("pvc", "kubernetes"),
    ("aws", "aws"),
    ("amazon", "aws"),
    ("ec2", "aws"),
    ("s3", "aws"),
    ("rds", "aws"),
    ("lambda", "aws"),
    ("sqs", "aws"),
    ("eks", "aws"),
    ("cloudwatch", "aws"),
    ("iam", "aws"),
    ("azure", "azure"),
    ("azrue", "azure"),
    ("microsoft", "azure"),
    ("aks", "azure"),
    ("entra", "azure"),
    ("gcp", "gcp"),
    ("google", "gcp"),
    ("gke", "gcp"),
    ("gcloud", "gcp"),
    ("bigquery", "gcp"),
    ("gcs", "gcp"),
    ("pubsub", "gcp"),
];

/// The big four: a result on one of these contradicts a question about another.
const MAJOR: &[&str] = &["kubernetes", "aws", "azure", "gcp"];

#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlatformIntent {
    pub wanted: Vec<String>,
    pub unwanted: Vec<String>,
}

pub fn detect(question: &str) -> PlatformIntent {
    let words = tokens(question);
    let mut intent = PlatformIntent::default();
    // Managed-cloud services: a cloud-specific platform wins over "kubernetes" when
    // both are named ("google's managed k8s" is GKE).
    let mut last_cloud: Option<(usize, &str)> = None;
    let mut last_any: Option<(usize, &str)> = None;
    for (i, w) in words.iter().enumerate() {
        let negated = i >= 1
            && matches!(
                words[i - 1].as_str(),
                "not" | "no" | "without" | "outside" | "non"
            )
            || i >= 2
                && words[i - 2] == "not"
                && matches!(words[i - 1].as_str(), "in" | "on" | "a");
        if let Some((_, p)) = CUES.iter().find(|(cue, _)| cue == w) {
            if negated {
                intent.unwanted.push(p.to_string());
                continue;
            }
            last_any = Some((i, p));
            if *p != "kubernetes" {
                last_cloud = Some((i, p));
            }
        }
    }
    let text = question.to_lowercase();
    if [
        "plain vm",
        "bare metal",
        "on-prem",
        "on prem",
        "self-hosted",
        "self hosted",
        "our own server",
        "a vm",
    ]
    .iter()
    .any(|c| text.contains(c))
    {
        for p in ["aws", "azure", "gcp"] {
            if last_cloud.is_none_or(|(_, c)| c != p) {
                intent.unwanted.push(p.to_string());
            }
        }
        if text.contains("plain vm") || text.contains("bare metal") || text.contains("not kube") {
            intent.unwanted.push("kubernetes".into());
        }
    }
    // Prefer the cloud when it comes after (or close to) a Kubernetes cue.
    let pick = match (last_cloud, last_any) {
        (Some((ci, c)), Some((ai, _))) if ai <= ci + 6 => Some(c),
        (_, Some((_, a))) => Some(a),
        (Some((_, c)), None) => Some(c),
        (None, None) => None,
    };
    if let Some(p) = pick {
        intent.wanted.push(p.to_string());
    }
    intent.unwanted.retain(|u| !intent.wanted.contains(u));
    intent.unwanted.dedup();
    intent
}

/// +1 on a wanted platform, −1 on an unwanted or another major one, else 0.
pub fn prior(intent: &PlatformIntent, platform: &str) -> f32 {
    let contradicted = intent.unwanted.iter().any(|u| u == platform)
        || (!intent.wanted.is_empty()
            && MAJOR.contains(&platform)
            && intent.wanted.iter().all(|w| MAJOR.contains(&w.as_str())));
    if intent.wanted.iter().any(|w| w == platform) {
        1.0
    } else if contradicted {
        -1.0
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn implied_platforms() {
        assert_eq!(
            detect("on amazon, order events sit waiting").wanted,
            vec!["aws"]
        );
        assert_eq!(
            detect("google's managed k8s keeps nagging").wanted,
            vec!["gcp"]
        );
        let i = detect("our cache box (a plain vm, not kube) keeps missing");
        assert!(
            i.wanted.is_empty() && i.unwanted.contains(&"kubernetes".to_string()),
            "{i:?}"
        );
        assert_eq!(
            detect("what about aks? and on the aws side?").wanted,
            vec!["aws"]
        );
        assert!(detect("what is the weather").wanted.is_empty());
        let i = detect("pods keep restarting");
        assert_eq!(prior(&i, "kubernetes"), 1.0);
        assert_eq!(prior(&i, "aws"), -1.0);
        assert_eq!(prior(&i, "rabbitmq"), 0.0);
    }
}
