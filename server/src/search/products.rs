//! Products: a bundle named for one product ("GCP Cloud Spanner Backup
//! Governance") is about that product, and a question that names another one it
//! covers ("… and google cloud sql?") is not asking for it, however many of the
//! question's other words (carried from earlier turns, or its concepts) it shares.
//! Platforms (aws, gcp, kubernetes, eks) are where products run, not products.
//!
//! A bundle's products are read once per snapshot (`BundleProducts`), not per
//! candidate per search: ranking only compares lists.

use crate::query::phrase::words;
use crate::query::{LEXICON, MAJOR_PLATFORMS, Query};

/// A platform's command-line tools and short names that the technology list
/// holds: a bundle named "k8s-kubectl-get" or "gcloud-…" is about the platform,
/// not a product on it.
const PLATFORM_TOOLS: &[&str] = &["k8s", "kubectl", "gcloud", "gsutil"];

/// Whether `name` (a lexicon technology) is a product rather than a platform.
/// Managed services are products here ("cloud sql", "spanner", "rds"), though the
/// platform lexicon reads them as cues of their cloud.
fn is_product(name: &str) -> bool {
    !MAJOR_PLATFORMS.contains(&name)
        && !PLATFORM_TOOLS.contains(&name)
        && !LEXICON.managed_kubernetes.contains_key(name)
}

/// Whether a product is one of a major cloud's own services ("rds", "spanner"):
/// such a bundle is about the cloud a question's uncovered product may run on.
fn is_cloud_service(name: &str) -> bool {
    LEXICON.platform_cues.iter().any(|(p, _)| p.text == name)
}

/// One product under two spellings: a name and its longer form ("postgres" and
/// "postgresql", "mongo" and "mongodb", "argo" and "argocd").
fn same_product(a: &str, b: &str) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    short == long || (short.len() >= 4 && long.starts_with(short))
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

/// What one bundle says about products, read when the snapshot loads.
#[derive(Debug, Default, Clone)]
pub struct BundleProducts {
    /// The products its slug and display name name.
    pub named: Vec<String>,
    /// The products its description, tags, resource kinds and task names speak
    /// of: the EBS bundle's volumes are EC2's, the Alertmanager handler's alerts
    /// Prometheus's.
    pub spoken: Vec<String>,
}

impl BundleProducts {
    pub fn read(
        slug: &str,
        display_name: &str,
        description: &str,
        tags: &[String],
        resource_types: &[String],
        tasks: &[&str],
    ) -> BundleProducts {
        BundleProducts {
            named: products_in(&format!("{slug} {display_name}")),
            spoken: products_in(&format!(
                "{description} {} {} {}",
                tags.join(" "),
                resource_types.join(" "),
                tasks.join(" ")
            )),
        }
    }

    /// Named for products, none of them one the question names, and speaking of
    /// none of those either: a bundle for another product. A bundle that speaks
    /// of the asked product works with it and is not held back.
    pub fn another_than(&self, asked: &[&str]) -> bool {
        let among = |list: &[String]| {
            list.iter()
                .any(|p| asked.iter().any(|a| same_product(p, a)))
        };
        !asked.is_empty() && !self.named.is_empty() && !among(&self.named) && !among(&self.spoken)
    }

    /// Named for a product that is not a major cloud's own service
    /// ("mailgun-sending-domain-health", "k8s-jaeger-http-query"): when the
    /// question's subject is a product the catalog never mentions, such a bundle
    /// checks a different system than the user runs.
    pub fn names_a_third_party_product(&self) -> bool {
        self.named.iter().any(|p| !is_cloud_service(p))
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn named(slug: &str, name: &str) -> BundleProducts {
        BundleProducts::read(slug, name, "", &[], &[], &[])
    }

    #[test]
    fn a_bundle_is_named_for_the_products_in_its_name_not_its_platform() {
        let spanner = named(
            "gcp-cloudspanner-backup-governance",
            "GCP Cloud Spanner Backup Governance",
        );
        assert_eq!(spanner.named, vec!["spanner".to_string()]);
        let sql = named("gcp-cloud-sql-health", "GCP Cloud SQL Health");
        assert_eq!(sql.named, vec!["cloudsql".to_string()]);
        assert!(
            named("k8s-namespace-healthcheck", "Kubernetes Namespace Health")
                .named
                .is_empty()
        );
        assert!(named("k8s-kubectl-get", "Kubectl Get").named.is_empty());
        assert!(spanner.another_than(&["cloudsql"]));
        assert!(!sql.another_than(&["cloudsql"]));
        assert!(
            !named("k8s-namespace-healthcheck", "Namespace Health").another_than(&["cloudsql"]),
            "a generic bundle is no other product"
        );
        assert!(
            !spanner.another_than(&[]),
            "nothing asked, nothing excluded"
        );
    }

    #[test]
    fn two_spellings_of_a_product_are_one_product() {
        let pg = named("azure-db-postgresql-health", "Azure PostgreSQL Health");
        assert!(!pg.another_than(&["postgres"]));
        let mongo = named("k8s-mongodb-health", "MongoDB Health");
        assert!(!mongo.another_than(&["mongo"]));
        assert!(mongo.another_than(&["postgres"]));
        assert!(
            !same_product("sql", "sqlite"),
            "a short name is not a prefix"
        );
    }

    #[test]
    fn a_bundle_that_speaks_of_the_asked_product_in_its_tasks_is_not_held_back() {
        // Task names are words, joined names included ("Cloud SQL" is cloudsql).
        let ebs = BundleProducts::read(
            "aws-ebs-health",
            "AWS EBS Health",
            "",
            &[],
            &[],
            &[
                "List Unattached Volumes",
                "Check Snapshots of Cloud SQL Instances",
            ],
        );
        assert!(!ebs.another_than(&["cloudsql"]));
        assert!(named("aws-ebs-health", "AWS EBS Health").another_than(&["cloudsql"]));
    }

    #[test]
    fn a_third_party_product_is_not_a_clouds_own_service() {
        assert!(
            named("mailgun-sending-domain-health", "Mailgun Domain Health")
                .names_a_third_party_product()
        );
        assert!(named("k8s-jaeger-http-query", "Jaeger Query").names_a_third_party_product());
        for (slug, name) in [
            ("k8s-workload-ops", "Workload Ops"),
            ("gke-cluster-health", "GKE Cluster Health"),
            ("aws-eks-health", "EKS Health"),
            ("dns-health", "DNS Health"),
        ] {
            assert!(!named(slug, name).names_a_third_party_product(), "{slug}");
        }
    }
}
