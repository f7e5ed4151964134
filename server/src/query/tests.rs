use super::*;
use std::collections::HashSet;

fn vocab() -> CorpusVocab {
    let tags = vec!["kubernetes".to_string()];
    let aks_tags = vec!["azure".to_string(), "aks".to_string()];
    let node = vec!["aws".to_string(), "eks".to_string()];
    let none: Vec<String> = Vec::new();
    let bundles = vec![
        BundleFacts {
            display_name: "Kubernetes Namespace Healthcheck",
            slug: "k8s-namespace-healthcheck",
            platform: "kubernetes",
            tags: &tags,
            resource_types: &none,
            tasks: vec![
                "Inspect Container Restarts In Namespace",
                "Restart Deployment",
                "List Eviction Events",
            ],
        },
        BundleFacts {
            display_name: "Kubernetes Pod Restarts",
            slug: "k8s-pod-restarts",
            platform: "kubernetes",
            tags: &tags,
            resource_types: &none,
            tasks: vec!["List Pods With Restarts"],
        },
        BundleFacts {
            display_name: "Kubernetes Pod Logs",
            slug: "k8s-pod-logs",
            platform: "kubernetes",
            tags: &tags,
            resource_types: &none,
            tasks: vec!["Fetch Pod Logs", "Check Kubelet Eviction"],
        },
        BundleFacts {
            display_name: "Kubernetes Node Pressure",
            slug: "k8s-node-pressure",
            platform: "kubernetes",
            tags: &tags,
            resource_types: &none,
            tasks: vec!["Check Kubelet Pressure", "Check Kubelet Eviction"],
        },
        BundleFacts {
            display_name: "Azure AKS Triage",
            slug: "azure-aks-triage",
            platform: "azure",
            tags: &aks_tags,
            resource_types: &none,
            tasks: vec!["Check Node Pool Cost"],
        },
        BundleFacts {
            display_name: "AWS EKS Nodegroup Health",
            slug: "aws-eks-nodegroup-health",
            platform: "aws",
            tags: &node,
            resource_types: &none,
            tasks: vec!["Check Nodegroup"],
        },
    ];
    let words: HashSet<String> = ["postgres", "database", "replica"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let common: HashSet<String> = ["weather", "sunday", "closed", "library", "cluster"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    CorpusVocab::build(
        &bundles,
        &[("RW.CLI", "Run Bash File")],
        &["rw-cli-codecollection"],
        words,
        Some(common),
    )
}

#[test]
fn the_bundled_lexicons_parse() {
    let lex = Lexicon::parse().unwrap();
    assert!(lex.concepts.len() > 20);
    assert!(!lex.technologies.is_empty() && !lex.actions.is_empty());
    // Purposes match by stem: "billing" in a name, "paying" in a question.
    let stems = |t: &str| phrase::stems(&phrase::words(t));
    let purpose = |name: &str| lex.purposes.iter().find(|p| p.name == name).unwrap();
    let names = |p: &str, n: &str| purpose(p).names(&stems(n).into_iter().collect());
    assert!(names("cost", "AWS Billing Tag Costs"));
    assert!(!names("cost", "Azure App Service Health"));
    assert!(purpose("cost").asked(&stems("why are we paying so much for idle vms")));
    assert!(!purpose("cost").asked(&stems("app service returns 502 errors")));
    // Breaking things on purpose is asked for in so many words; a symptom is not.
    assert!(names(
        "fault-injection",
        "Kubernetes Namespace Chaos Engineering"
    ));
    assert!(purpose("fault-injection").asked(&stems("kill pods deliberately to test failover")));
    assert!(!purpose("fault-injection").asked(&stems("workers got oom killed again")));
    assert!(!purpose("fault-injection").asked(&stems("istio sidecar injection failing")));
}

/// A display name can misspell what its slug says: what a bundle is for is read
/// from both, while product names stay the display name's.
#[test]
fn a_bundles_purpose_is_read_from_its_slug_too() {
    let none: Vec<String> = Vec::new();
    let v = CorpusVocab::build(
        &[BundleFacts {
            display_name: "Kubernetes Flux Choas Testing",
            slug: "k8s-chaos-flux",
            platform: "kubernetes",
            tags: &none,
            resource_types: &none,
            tasks: Vec::new(),
        }],
        &[],
        &[],
        HashSet::new(),
        None,
    );
    let lex = Lexicon::parse().unwrap();
    let chaos = lex
        .purposes
        .iter()
        .find(|p| p.name == "fault-injection")
        .unwrap();
    assert!(chaos.names(&v.bundle_label_stems[0]));
    assert!(!chaos.names(&v.bundle_name_stems[0]));
}

#[test]
fn whole_words_never_substrings() {
    let v = vocab();
    let q = Query::parse("this has been broken for weeks", &v);
    assert!(q.platforms.wanted.is_empty(), "{:?}", q.platforms);
    let q = Query::parse("memory leaks in the room", &v);
    assert!(!q.platforms.wanted.contains(&"azure".to_string()));
}

/// A cloud vendor's name is its cloud, except in its other products' names.
#[test]
fn company_names_mean_their_clouds() {
    let v = vocab();
    let wanted = |q: &str| Query::parse(q, &v).platforms.wanted;
    assert_eq!(
        wanted("the google side of our data warehouse is slow"),
        ["gcp"]
    );
    assert_eq!(
        wanted("microsoft's managed postgres keeps failing over"),
        ["azure"]
    );
    assert!(wanted("send the summary to a google chat room").is_empty());
    assert!(wanted("notify the microsoft teams channel when it fails").is_empty());
    assert!(wanted("i googled the error and found nothing").is_empty());
    assert!(
        !wanted("pods cannot reach google.com since this morning").contains(&"gcp".to_string())
    );
}

#[test]
fn managed_kubernetes_means_both() {
    let v = vocab();
    let q = Query::parse("our aks cluster looks degraded", &v);
    assert!(q.platforms.wanted.contains(&"azure".to_string()));
    assert!(q.platforms.wanted.contains(&"kubernetes".to_string()));
    assert_eq!(platform_prior(&q.platforms, "kubernetes"), 1.0);
    assert_eq!(platform_prior(&q.platforms, "aws"), -1.0);
    // Kubernetes named again further on is still that cloud's cluster.
    let q = Query::parse(
        "the gke cluster in europe-west4 lost two nodes overnight and the pods on them never came back on another k8s node",
        &v,
    );
    assert!(
        q.platforms.wanted.contains(&"gcp".to_string()),
        "{:?}",
        q.platforms
    );
    assert!(q.platforms.wanted.contains(&"kubernetes".to_string()));
}

#[test]
fn corpus_words_imply_a_platform() {
    let v = vocab();
    // "eviction" is only used by Kubernetes bundles in this catalog (and is no
    // platform name in the lexicon).
    let q = Query::parse("lots of eviction lately, where do i look", &v);
    assert_eq!(q.platforms.wanted, vec!["kubernetes".to_string()]);
    assert_eq!(q.platforms.source, Some(PlatformSource::Corpus));
}

#[test]
fn role_words_in_both_vocabularies_are_not_content() {
    let v = vocab();
    let q = Query::parse(
        "which other tools come with the recommended skill template?",
        &v,
    );
    assert!(
        q.mentions(Role::Task) && q.mentions(Role::Codebundle),
        "{:?}",
        q.roles
    );
    assert!(
        !q.terms
            .iter()
            .any(|t| t == "tools" || t == "skill" || t == "template")
    );
    let q = Query::parse("is there a monitor for cert expiry", &v);
    assert!(q.mentions(Role::Sli));
}

#[test]
fn actions_only_in_request_position() {
    let v = vocab();
    assert!(Query::parse("pods keep restarting", &v).actions.is_empty());
    assert_eq!(
        Query::parse("restore the prod database from last night", &v).actions,
        vec!["restore".to_string()]
    );
    assert!(
        Query::parse("how do i scale the node group to 10", &v)
            .actions
            .contains(&"scale".to_string())
    );
    // The alternative to a requested verb is requested too; an alternative to a
    // symptom is not.
    assert!(
        Query::parse("could a runbook check or purge the stale cache", &v)
            .actions
            .contains(&"purge".to_string())
    );
    let symptom = Query::parse("pods crashing or restart loops", &v);
    assert!(symptom.actions.is_empty(), "{:?}", symptom.actions);
}

/// A planned variation is judged on everything the user asked: the change they
/// want and the names the catalog lacks stay even when its words dropped them.
#[test]
fn variations_keep_the_questions_evidence() {
    let v = vocab();
    let question = Query::parse("purge the kafka queue, then restart the deployment", &v);
    assert_eq!(question.uncovered, vec!["kafka".to_string()]);
    let mut variation = Query::parse("queue deployment", &v);
    assert!(variation.actions.is_empty() && variation.uncovered.is_empty());
    variation.inherit_evidence(&question);
    assert_eq!(variation.actions, question.actions);
    assert!(variation.actions.contains(&"purge".to_string()));
    assert_eq!(variation.uncovered, vec!["kafka".to_string()]);
    assert_eq!(variation.text, "queue deployment", "its own words stay");
}

/// The name a user gave their own resource is not a technology they ask about.
#[test]
fn a_resource_named_like_a_technology_is_not_about_it() {
    let v = vocab();
    assert!(
        Query::parse("a statefulset called kafka never gets ready", &v)
            .uncovered
            .is_empty()
    );
    // Workloads are named after what they run: this is the user's statefulset.
    assert!(
        Query::parse("the kafka statefulset never gets ready", &v)
            .uncovered
            .is_empty()
    );
    assert!(
        Query::parse("the fluentd pods are pending", &v)
            .uncovered
            .is_empty()
    );
    assert_eq!(
        Query::parse("kafka consumers stall after a statefulset restart", &v).uncovered,
        vec!["kafka".to_string()]
    );
    // A deploy or a container is the product's own unless Kubernetes is spoken of.
    assert!(
        Query::parse(
            "the kafka deployment in namespace data keeps restarting",
            &v
        )
        .uncovered
        .is_empty()
    );
    assert_eq!(
        Query::parse("our kafka deploys break every friday", &v).uncovered,
        vec!["kafka".to_string()]
    );
}

/// A product the user moves away from is not the subject: the one they move to is.
#[test]
fn a_product_set_aside_is_not_the_subject() {
    let v = vocab();
    let q = Query::parse("send it to kafka instead of postgres", &v);
    assert_eq!(q.uncovered, vec!["kafka".to_string()]);
    assert!(q.technologies.is_empty() && !q.names_covered_product());
    let q = Query::parse("postgres rather than kafka", &v);
    assert!(q.uncovered.is_empty() && q.names_covered_product());
}

/// A cloud's managed service right before a covered product names its hosted
/// variant, which the catalog does not check; another product's name there does not.
#[test]
fn a_managed_variant_of_a_covered_product_is_not_covered() {
    let v = vocab();
    let q = Query::parse("aurora postgres failover takes minutes", &v);
    assert_eq!(q.uncovered, vec!["aurora".to_string()]);
    assert_eq!(q.qualified, vec!["postgres".to_string()]);
    assert!(!q.names_covered_product());
    // The variation planned from it keeps the evidence.
    let mut plain = Query::parse("postgres failover takes minutes", &v);
    assert!(plain.names_covered_product());
    plain.inherit_evidence(&q);
    assert!(!plain.names_covered_product());
    // Not adjacent, or not a managed service: the covered product is the subject.
    assert!(Query::parse("postgres on aurora fails over slowly", &v).names_covered_product());
    assert!(Query::parse("the kafka postgres connector lags", &v).names_covered_product());
}

/// A product named in two words is the lexicon's one-word name, covered when the
/// catalog's text names it (in either spelling) and uncovered otherwise; its words
/// are not judged one by one.
#[test]
fn two_word_technology_names() {
    let lex = Lexicon::parse().unwrap();
    let w = |t: &str| phrase::words(t);
    assert_eq!(
        lex.joined_technologies(&w("is new relic showing it")),
        vec![(1, "newrelic".to_string())]
    );
    assert_eq!(
        lex.joined_technologies(&w("a pub/sub topic and a step function")),
        vec![(1, "pubsub".to_string()), (6, "stepfunctions".to_string())]
    );
    assert!(
        lex.joined_technologies(&w("the next step is a new release"))
            .is_empty()
    );

    let v = vocab();
    let q = Query::parse("does new relic see the spike", &v);
    assert_eq!(q.uncovered, vec!["newrelic".to_string()]);
    assert!(!q.unknown.contains(&"relic".to_string()));

    let mut covered = vocab();
    covered.words.insert("newrelic".to_string());
    let q = Query::parse("does new relic see the spike", &covered);
    assert!(q.uncovered.is_empty() && q.technologies.contains(&"newrelic".to_string()));
}

#[test]
fn coverage_typos_and_names() {
    let v = vocab();
    let q = Query::parse("kafka consumer lag keeps growing", &v);
    assert_eq!(q.uncovered, vec!["kafka".to_string()]);
    let q = Query::parse("postgres replica is behind", &v);
    assert!(q.uncovered.is_empty() && q.technologies.contains(&"postgres".to_string()));
    let q = Query::parse("the namespase is unhealthy", &v);
    assert_eq!(
        q.corrections,
        vec![("namespase".into(), "namespace".into())]
    );
    let q = Query::parse("our frobnicator widget broke", &v);
    assert!(
        q.unknown.contains(&"frobnicator".to_string()),
        "{:?}",
        q.unknown
    );
    let q = Query::parse("how do I call run bash file from rw.cli", &v);
    assert!(q.names.iter().any(|n| n.kind == NameKind::Keyword));
    assert!(q.names.iter().any(|n| n.kind == NameKind::Library));
    // Hyphenated, it is the collection's short name.
    let q = Query::parse("where are the authoring notes kept in rw-cli", &v);
    assert!(!q.names.iter().any(|n| n.kind == NameKind::Library));
    // By its last part beside "library" or "lib", and only there.
    let library = |q: &str| {
        Query::parse(q, &v)
            .names
            .into_iter()
            .find(|n| n.kind == NameKind::Library)
            .map(|n| n.id)
    };
    assert_eq!(
        library("which bundles use the cli lib's bash file runner").as_deref(),
        Some("RW.CLI")
    );
    assert_eq!(
        library("the CLI library, what does it offer").as_deref(),
        Some("RW.CLI")
    );
    assert_eq!(library("our cli tool hangs on login"), None);
    assert_eq!(library("the cli module prints nothing"), None);
    assert_eq!(
        Query::parse("read-only checks please", &v).access,
        Some(Access::ReadOnly)
    );
    // The level a question turns away from asks for the other one.
    assert_eq!(
        Query::parse("tools that alter stuff rather than being read-only", &v).access,
        Some(Access::ReadWrite)
    );
    assert_eq!(
        Query::parse(
            "checks to remediate, or read only ones instead of remediation",
            &v
        )
        .access,
        Some(Access::ReadOnly)
    );
}

/// Lexicons are general knowledge or derived from the corpus, never copied from the
/// golden questions: a phrasing of two or more words (concepts, actions,
/// constraints) that occurs word for word in a golden question must also occur in
/// the sample registry's own text (then it is the registry's vocabulary, not the
/// question's), or be one of the listed overlaps with a golden question written after
/// the phrasing was in the lexicon by writers who never saw it
/// (`samples/golden/lexicon-overlaps.toml`). Single words are vocabulary; product
/// names and role names are names.
#[test]
fn no_golden_question_text_in_the_lexicons() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut questions: Vec<(String, Vec<String>)> = Vec::new();
    for entry in std::fs::read_dir(root.join("samples/golden")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "jsonl") {
            for line in std::fs::read_to_string(&path).unwrap().lines() {
                if let Ok(v) = serde_json::from_str::<serde_json::Value>(line) {
                    let id = v["id"].as_str().unwrap_or("").to_string();
                    questions.push((id, phrase::words(v["question"].as_str().unwrap_or(""))));
                }
            }
        }
    }
    assert!(questions.len() > 100, "golden sets found");
    let mut corpus = String::new();
    for dir in ["samples/collections", "samples/docs"] {
        collect_text(&root.join(dir), &mut corpus);
    }
    let corpus_words = phrase::words(&corpus);
    let contains = |hay: &[String], needle: &[String]| {
        needle.len() <= hay.len() && hay.windows(needle.len()).any(|w| w == needle)
    };
    #[derive(serde::Deserialize)]
    struct Overlaps {
        overlaps: Vec<Overlap>,
    }
    #[derive(serde::Deserialize)]
    struct Overlap {
        phrase: String,
        golden: String,
    }
    let listed: Overlaps = toml::from_str(
        &std::fs::read_to_string(root.join("samples/golden/lexicon-overlaps.toml")).unwrap(),
    )
    .unwrap();
    let listed: std::collections::BTreeSet<(String, String)> = listed
        .overlaps
        .into_iter()
        .map(|o| (o.phrase, o.golden))
        .collect();
    let mut unused = listed.clone();
    let lex = Lexicon::parse().unwrap();
    let mut copied = Vec::new();
    for p in lex.phrasings() {
        let words = phrase::words(p);
        if words.len() < 2 || contains(&corpus_words, &words) {
            continue;
        }
        for (id, _) in questions.iter().filter(|(_, q)| contains(q, &words)) {
            let pair = (p.to_string(), id.clone());
            unused.remove(&pair);
            if !listed.contains(&pair) && !copied.contains(&pair) {
                copied.push(pair);
            }
        }
    }
    assert!(
        copied.is_empty(),
        "lexicon phrases found in golden questions: {copied:?}"
    );
    assert!(
        unused.is_empty(),
        "listed overlaps that no longer occur (remove them): {unused:?}"
    );
}

/// No six words in a row of any golden question appear in the code, its tests or its
/// lexicons (comments and test inputs included): the product is measured on
/// questions it has never seen, and test inputs copied from the golden sets would
/// make the sets' figures about our own examples.
#[test]
fn no_golden_question_text_in_the_code() {
    const RUN: usize = 6;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut runs: HashSet<Vec<String>> = HashSet::new();
    for entry in std::fs::read_dir(root.join("samples/golden")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "jsonl") {
            for line in std::fs::read_to_string(&path).unwrap().lines() {
                if let Ok(v) = serde_json::from_str::<serde_json::Value>(line) {
                    let w = phrase::words(v["question"].as_str().unwrap_or(""));
                    runs.extend(w.windows(RUN).map(<[String]>::to_vec));
                }
            }
        }
    }
    assert!(runs.len() > 1000, "golden sets found");
    let mut copied = Vec::new();
    for dir in [
        "server/src",
        "server/tests",
        "server/lexicon",
        "app/src",
        "end2end/tests",
    ] {
        let mut files = Vec::new();
        source_files(&root.join(dir), &mut files);
        for f in files {
            let words = phrase::words(&std::fs::read_to_string(&f).unwrap_or_default());
            if let Some(w) = words.windows(RUN).find(|w| runs.contains(*w)) {
                copied.push(format!("{}: {}", f.display(), w.join(" ")));
            }
        }
    }
    assert!(
        copied.is_empty(),
        "golden question text in the code: {copied:#?}"
    );
}

fn source_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if p.is_dir() && name != "node_modules" && !name.starts_with('.') {
            source_files(&p, out);
        } else if ["rs", "ts", "toml", "txt"]
            .iter()
            .any(|x| p.extension().is_some_and(|e| e == *x))
        {
            out.push(p);
        }
    }
}

fn collect_text(dir: &std::path::Path, out: &mut String) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect_text(&p, out);
        } else if let Ok(t) = std::fs::read_to_string(&p) {
            out.push_str(&t);
            out.push('\n');
        }
    }
}

#[test]
fn answers_speak_either_vocabulary() {
    let theirs = Words::new(Vocabulary::SkillTemplate);
    assert_eq!(theirs.plural(Role::Codebundle), "Skill Templates");
    assert_eq!(theirs.count(Role::Sli, 1), "Monitor");
    assert_eq!(
        theirs.apply("This codebundle has 3 tasks and 1 SLI; see `codebundles/x` and [the task](http://h/task)."),
        "This Skill Template has 3 Tools and 1 Monitor; see `codebundles/x` and [the Tool](http://h/task)."
    );
    let ours = Words::new(Vocabulary::Codebundle);
    assert_eq!(ours.apply("3 tasks"), "3 tasks");
    assert_eq!(
        Vocabulary::parse("skill-template"),
        Some(Vocabulary::SkillTemplate)
    );
}

#[test]
fn a_word_meeting_an_acronym_only_through_the_stemmer_is_another_word() {
    let tags = vec!["aws".to_string()];
    let none: Vec<String> = Vec::new();
    let bundles = vec![BundleFacts {
        display_name: "AWS ACM Certificate Health",
        slug: "aws-acm-health",
        platform: "aws",
        tags: &tags,
        resource_types: &none,
        tasks: vec!["List Expiring Certificates"],
    }];
    // The catalog's text also says "acme" (cert-manager's issuer), less often.
    let text: HashSet<String> = ["acme".to_string()].into_iter().collect();
    let v = CorpusVocab::build(&bundles, &[], &[], text, None);
    let q = Query::parse(
        "is https://status.acme.io down? the acm certificate expired",
        &v,
    );
    assert!(!q.terms.contains(&"acme".to_string()), "{:?}", q.terms);
    assert!(q.terms.contains(&"acm".to_string()), "{:?}", q.terms);
    assert!(q.terms.contains(&"certificate".to_string()));
    assert!(v.only_by_stem("acme"));
    assert!(!v.only_by_stem("acms") && !v.only_by_stem("certificates"));
}

/// A resource named by convention with its kind's acronym glued on is searched
/// by that kind and is no unknown name; an everyday word is never split.
#[test]
fn a_name_glued_onto_an_acronym_is_searched_by_it() {
    let tags = vec!["azure".to_string(), "acr".to_string()];
    let none: Vec<String> = Vec::new();
    let facts = |name: &'static str, slug: &'static str| BundleFacts {
        display_name: name,
        slug,
        platform: "azure",
        tags: &tags,
        resource_types: &none,
        tasks: vec!["Check Registry"],
    };
    let bundles = vec![
        facts("Azure ACR Health", "azure-acr-health"),
        facts("Azure ACR Sync", "azure-acr-sync"),
    ];
    let common: HashSet<String> = ["across", "pull", "fail"]
        .iter()
        .map(|w| w.to_string())
        .collect();
    let v = CorpusVocab::build(&bundles, &[], &[], HashSet::new(), Some(common));
    assert_eq!(v.glued_acronym("acrsharedweu"), Some("acr"));
    assert_eq!(v.glued_acronym("across"), None, "too short and everyday");
    let q = Query::parse("pulls from acrsharedweu fail", &v);
    assert!(q.terms.contains(&"acr".to_string()), "{:?}", q.terms);
    assert!(q.unknown.is_empty(), "{:?}", q.unknown);
}

#[test]
fn asking_whether_a_bundle_can_do_it_is_asking_for_it() {
    let v = vocab();
    let q = Query::parse("will any runbook acknowledge the page after the fix?", &v);
    assert_eq!(q.actions, vec!["acknowledge".to_string()], "{q:?}");
    let q = Query::parse("the pager keeps acknowledging alerts late", &v);
    assert!(q.actions.is_empty(), "{:?}", q.actions);
}

/// A question that names the mechanism ("CrashLoopBackOff") instead of describing
/// it gets the concept's terms, because no bundle in this catalog uses that word;
/// a word the catalog names bundles with does not expand.
#[test]
fn a_concept_is_named_by_its_mechanism_when_the_catalog_does_not_use_it() {
    let v = vocab();
    let q = Query::parse("web pods in CrashLoopBackOff", &v);
    assert!(
        q.concepts.contains(&"restarts".to_string()),
        "{:?}",
        q.concepts
    );
    let q = Query::parse("kubernetes namespace overview", &v);
    assert!(
        !q.concepts.contains(&"restarts".to_string()),
        "{:?}",
        q.concepts
    );
}

/// A collection is also named without the words most collection names share:
/// "workspace utils" for rw-workspace-utils when two words or more are left,
/// "the cli collection" when one is.
#[test]
fn collections_are_named_without_their_shared_words() {
    let names = [
        "rw-cli-codecollection",
        "rw-public-codecollection",
        "rw-workspace-utils",
        "aws-c7n-codecollection",
        "azure-c7n-codecollection",
    ];
    let v = CorpusVocab::build(&[], &[], &names, HashSet::new(), None);
    let named = |q: &str| -> Vec<String> {
        Query::parse(q, &v)
            .names
            .iter()
            .filter(|n| n.kind == NameKind::Collection)
            .map(|n| n.id.clone())
            .collect()
    };
    assert_eq!(named("what's in workspace utils?"), ["rw-workspace-utils"]);
    assert_eq!(named("the aws c7n bundles"), ["aws-c7n-codecollection"]);
    assert_eq!(named("rw-cli-codecollection"), ["rw-cli-codecollection"]);
    // One word left is an everyday word first, unless a word for a collection
    // follows it; a word two collections share, or a platform, names none.
    assert!(named("is there a cli for it").is_empty());
    assert!(named("public endpoints").is_empty());
    assert_eq!(
        named("count the bundles of the cli collection?"),
        ["rw-cli-codecollection"]
    );
    assert_eq!(
        named("the public codecollection's readme"),
        ["rw-public-codecollection"]
    );
    assert!(named("bundles of the c7n collection").is_empty());
    assert!(named("the azure collection").is_empty());
    assert!(named("our azure repos").is_empty());
    assert_eq!(
        named("what the aws-c7n collection checks"),
        ["aws-c7n-codecollection"]
    );
    // Short forms of one word ("kube" of kube-ops) are not names.
    let v = CorpusVocab::build(&[], &[], &["kube-ops", "cloud-ops"], HashSet::new(), None);
    assert_eq!(Query::parse("kube ops", &v).names.len(), 1);
    assert!(Query::parse("kube", &v).names.is_empty());
    // Two collections: a word only one has is its own.
    let kube: Vec<String> = Query::parse("the kube collection", &v)
        .names
        .into_iter()
        .map(|n| n.id)
        .collect();
    assert_eq!(kube, ["kube-ops"]);
}

#[test]
fn a_bundle_is_named_loosely_without_its_platform_or_generic_ending() {
    assert_eq!(
        crate::query::loose_names("gcp-apigee-proxy-health"),
        vec![
            "apigee proxy health".to_string(),
            "apigee proxy".to_string()
        ]
    );
    assert_eq!(
        crate::query::loose_names("azure-aks-triage"),
        vec!["aks triage".to_string()]
    );
    assert_eq!(
        crate::query::loose_names("k8s-redis-healthcheck"),
        vec!["redis healthcheck".to_string()],
        "one word left (\"redis\") names a technology, not the bundle"
    );
    let tags: Vec<String> = Vec::new();
    let facts = |slug: &'static str, name: &'static str| BundleFacts {
        display_name: name,
        slug,
        platform: "gcp",
        tags: &tags,
        resource_types: &tags,
        tasks: Vec::new(),
    };
    // A loose name two bundles share names neither.
    let v = CorpusVocab::build(
        &[
            facts("gcp-apigee-proxy-health", "GCP Apigee Proxy Health"),
            facts("gcp-bucket-health", "GCP Bucket Health"),
            facts("aws-bucket-health", "AWS Bucket Health"),
        ],
        &[],
        &[],
        HashSet::new(),
        None,
    );
    let named = |q: &str| -> Vec<String> {
        Query::parse(q, &v)
            .names
            .into_iter()
            .filter(|n| n.kind == NameKind::Bundle)
            .map(|n| n.id)
            .collect()
    };
    assert_eq!(
        named("what does the apigee proxy bundle need?"),
        vec!["gcp-apigee-proxy-health".to_string()]
    );
    assert!(named("which bucket health bundle is cheaper").is_empty());
}
