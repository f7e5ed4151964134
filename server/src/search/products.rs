//! Products: a bundle named for one product ("GCP Cloud Spanner Backup
//! Governance") is about that product, and a question that names another one it
//! covers ("… and google cloud sql?") is not asking for it, however many of the
//! question's other words (carried from earlier turns, or its concepts) it shares.
//! Platforms (aws, gcp, kubernetes, eks) are where products run, not products.

use super::BundleMeta;
use crate::query::phrase::words;
use crate::query::{LEXICON, MAJOR_PLATFORMS, Query};

/// A platform's other names and its command-line tools: a bundle named
/// "k8s-kubectl-get" or "gcloud-…" is about the platform, not a product on it.
const PLATFORM_NAMES: &[&str] = &[
    "k8s",
    "kube",
    "kubectl",
    "gcloud",
    "gsutil",
    "az",
    "google",
    "amazon",
    "microsoft",
];

/// Whether `name` (a lexicon technology) is a product rather than a platform.
/// Managed services are products here ("cloud sql", "spanner", "rds"), though the
/// platform lexicon reads them as cues of their cloud.
fn is_product(name: &str) -> bool {
    !MAJOR_PLATFORMS.contains(&name)
        && !PLATFORM_NAMES.contains(&name)
        && !LEXICON.managed_kubernetes.contains_key(name)
}

/// The products `text` names, one word ("spanner") or two joined ("cloud sql" is
/// cloudsql).
fn products_in(text: &str) -> Vec<String> {
    let ws = words(&text.replace('-', " "));
    let mut out: Vec<String> = LEXICON
        .joined_technologies(&ws)
        .into_iter()
        .map(|(_, name)| name)
        .chain(
            ws.iter()
                .filter(|w| LEXICON.technologies.contains(*w))
                .cloned(),
        )
        .filter(|n| is_product(n))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The products a bundle's slug and display name name.
pub(super) fn named_by(slug: &str, display_name: &str) -> Vec<String> {
    products_in(&format!("{slug} {display_name}"))
}

/// Whether a bundle named for other products still speaks of one the question
/// asks about, in its description, tags, resource kinds or task names: the EBS
/// bundle's volumes are EC2's, the Alertmanager handler's alerts Prometheus's.
/// Such a bundle works with that product and is not held back.
pub(super) fn speaks_of(
    bundle: &BundleMeta,
    task_stems: &std::collections::HashSet<String>,
    asked: &[&str],
) -> bool {
    let text = format!(
        "{} {} {}",
        bundle.description,
        bundle.tags.join(" "),
        bundle.resource_types.join(" ")
    );
    let found = products_in(&text);
    asked
        .iter()
        .any(|a| found.iter().any(|f| f == a) || task_stems.contains(*a))
}

/// The covered products the question names (not those only qualifying an
/// uncovered one: "redis" in "memorystore redis").
pub(super) fn asked(query: &Query) -> Vec<&str> {
    query
        .technologies
        .iter()
        .filter(|t| is_product(t) && !query.qualified.contains(t))
        .map(String::as_str)
        .collect()
}

/// The bundle is named for products, none of them one the question names.
pub(super) fn names_another(bundle_products: &[String], asked: &[&str]) -> bool {
    !asked.is_empty()
        && !bundle_products.is_empty()
        && !bundle_products.iter().any(|p| asked.contains(&p.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bundle_is_named_for_the_products_in_its_name_not_its_platform() {
        let spanner = named_by(
            "gcp-cloudspanner-backup-governance",
            "GCP Cloud Spanner Backup Governance",
        );
        assert_eq!(spanner, vec!["spanner".to_string()]);
        let sql = named_by("gcp-cloud-sql-health", "GCP Cloud SQL Health");
        assert_eq!(sql, vec!["cloudsql".to_string()]);
        assert!(named_by("k8s-namespace-healthcheck", "Kubernetes Namespace Health").is_empty());
        assert!(named_by("k8s-kubectl-get", "Kubectl Get").is_empty());
        assert!(names_another(&spanner, &["cloudsql"]));
        assert!(!names_another(&sql, &["cloudsql"]));
        assert!(
            !names_another(&[], &["cloudsql"]),
            "a generic bundle is no other product"
        );
        assert!(
            !names_another(&spanner, &[]),
            "nothing asked, nothing excluded"
        );
    }
}
