//! Technologies the registry does not cover. A question about Kafka, Oracle or
//! vSphere should hear "nothing here covers that", not get the closest queue or
//! database bundle at high confidence. This is a general list of infrastructure
//! technologies; which of them are *covered* is decided by the catalog itself (the
//! names, slugs, tags, Supports, descriptions and task names of its bundles).

use std::collections::HashSet;

const TECHNOLOGIES: &[&str] = &[
    "kafka",
    "zookeeper",
    "oracle",
    "splunk",
    "mongodb",
    "mongo",
    "cassandra",
    "scylla",
    "elasticsearch",
    "opensearch",
    "kibana",
    "logstash",
    "snowflake",
    "vsphere",
    "vmware",
    "esxi",
    "vcenter",
    "iis",
    "hyper-v",
    "datadog",
    "newrelic",
    "dynatrace",
    "appdynamics",
    "sap",
    "hana",
    "mysql",
    "mariadb",
    "memcached",
    "consul",
    "nomad",
    "terraform",
    "ansible",
    "puppet",
    "chef",
    "jenkins",
    "gitlab",
    "github",
    "bitbucket",
    "teamcity",
    "circleci",
    "travis",
    "prometheus",
    "grafana",
    "loki",
    "tempo",
    "jaeger",
    "zipkin",
    "istio",
    "linkerd",
    "envoy",
    "traefik",
    "haproxy",
    "nginx",
    "apache",
    "tomcat",
    "jboss",
    "wildfly",
    "spark",
    "hadoop",
    "hive",
    "flink",
    "airflow",
    "dbt",
    "clickhouse",
    "couchbase",
    "couchdb",
    "dynamodb",
    "cosmosdb",
    "bigtable",
    "spanner",
    "firestore",
    "neo4j",
    "influxdb",
    "timescaledb",
    "rabbitmq",
    "nats",
    "activemq",
    "pulsar",
    "kinesis",
    "eventhub",
    "eventhubs",
    "pagerduty",
    "opsgenie",
    "okta",
    "ldap",
    "keycloak",
    "vault",
    "argocd",
    "flux",
    "helm",
    "docker",
    "podman",
    "containerd",
    "openshift",
    "rancher",
    "postgres",
    "postgresql",
    "redis",
    "minio",
    "ceph",
    "glusterfs",
    "backstage",
    "sonarqube",
    "artifactory",
    "nexus",
    "harbor",
    "quay",
    "vercel",
    "netlify",
    "cloudflare",
    "fastly",
    "akamai",
    "heroku",
    "twilio",
    "sendgrid",
    "mailgun",
    "stripe",
    "salesforce",
    "servicenow",
    "jira",
    "confluence",
    "sqlserver",
    "mssql",
    "db2",
    "teradata",
    "sharepoint",
    "citrix",
    "nutanix",
    "openstack",
    "proxmox",
    "kong",
    "apigee",
    "tyk",
    "redshift",
    "athena",
    "glue",
    "emr",
    "databricks",
    "synapse",
    "bigquery",
    "looker",
    "tableau",
];

/// The technologies the catalog's bundles are about.
pub fn covered(catalog_words: &HashSet<String>) -> HashSet<&'static str> {
    TECHNOLOGIES
        .iter()
        .copied()
        .filter(|t| catalog_words.contains(*t))
        .collect()
}

/// Technologies the question names that no bundle covers.
pub fn uncovered(question: &str, covered: &HashSet<&'static str>) -> Vec<String> {
    let words: HashSet<String> = crate::index::text::tokens(question).into_iter().collect();
    TECHNOLOGIES
        .iter()
        .filter(|t| words.contains(**t) && !covered.contains(**t))
        .map(|t| t.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalog_decides_coverage() {
        let words: HashSet<String> = ["rabbitmq", "queue", "postgres"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let c = covered(&words);
        assert_eq!(
            uncovered("kafka consumer lag keeps growing", &c),
            vec!["kafka"]
        );
        assert!(uncovered("rabbitmq queue backlog", &c).is_empty());
        assert!(uncovered("pods keep restarting", &c).is_empty());
    }
}
