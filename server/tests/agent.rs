//! The agent through the real HTTP edge, offline (no LLM), on the sample registry:
//! routing, follow-ups over two and three turns, no-match, citations and cards,
//! and that every turn is saved.

mod common;

use app::api::ChatEvent;
use common::{TestServer, answer_text, ask, cards, session_of};
use serde_json::json;
use std::collections::HashSet;

fn citations(events: &[(String, ChatEvent)]) -> Vec<String> {
    events
        .iter()
        .filter_map(|(_, e)| match e {
            ChatEvent::Citations { citations } => {
                Some(citations.iter().map(|c| c.id.clone()).collect::<Vec<_>>())
            }
            _ => None,
        })
        .flatten()
        .collect()
}

fn done(events: &[(String, ChatEvent)]) -> (&'static str, f32, bool) {
    events
        .iter()
        .find_map(|(_, e)| match e {
            ChatEvent::Done {
                source,
                confidence,
                no_match,
                ..
            } => Some((source.as_str(), *confidence, *no_match)),
            _ => None,
        })
        .expect("done")
}

fn stages(events: &[(String, ChatEvent)]) -> Vec<String> {
    events
        .iter()
        .filter_map(|(_, e)| match e {
            ChatEvent::Stage { name, .. } => Some(name.clone()),
            _ => None,
        })
        .collect()
}

/// Cards are exactly the cited bundles, and every cited id appears in the text.
fn check_grounding(events: &[(String, ChatEvent)]) {
    let text = answer_text(events);
    let cited = citations(events);
    for id in &cited {
        assert!(
            text.contains(&format!("[{id}]")),
            "citation {id} is in the text"
        );
    }
    let cited_bundles: HashSet<String> = cited
        .iter()
        .filter_map(|c| c.strip_prefix("bundle:").map(str::to_string))
        .collect();
    let card_keys: HashSet<String> = cards(events).into_iter().collect();
    assert_eq!(card_keys, cited_bundles, "cards match citations");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn meta_questions_get_system_answers_without_search() {
    let server = TestServer::start_indexed(|_| {}).await;
    for q in [
        "hey there",
        "who made you",
        "what can you do?",
        "thanks, that helped a lot",
        "ok we're done here, bye",
        "are you a real person?",
    ] {
        let ev = ask(&server.url, json!({"question": q})).await;
        assert!(
            !stages(&ev).contains(&"search".to_string()),
            "{q}: no search"
        );
        assert!(cards(&ev).is_empty(), "{q}: no cards");
        assert_eq!(done(&ev).0, "system", "{q}");
        assert!(!answer_text(&ev).is_empty());
    }
    let bye = ask(&server.url, json!({"question": "that's everything, cya"})).await;
    assert!(
        answer_text(&bye).starts_with("Glad to help"),
        "{}",
        answer_text(&bye)
    );
    // "they" is not "hey": a real question is searched and answered with bundles.
    let ev = ask(
        &server.url,
        json!({"question": "they say the pods in payments keep restarting"}),
    )
    .await;
    assert!(stages(&ev).contains(&"search".to_string()));
    assert_eq!(
        cards(&ev).first().map(String::as_str),
        Some("kube-ops/k8s-pod-crashloop-triage")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_focused_answer_is_grounded_in_cited_bundles() {
    let server = TestServer::start_indexed(|_| {}).await;
    let ev = ask(
        &server.url,
        json!({"question": "pods in payments keep restarting, where do I start?"}),
    )
    .await;
    check_grounding(&ev);
    let text = answer_text(&ev);
    assert!(
        text.contains("Start with Kubernetes Pod Crashloop Triage"),
        "{text}"
    );
    assert!(
        text.contains("Run first") && text.contains("kubeconfig"),
        "tasks to run and what to set: {text}"
    );
    let (source, confidence, no_match) = done(&ev);
    assert!(source == "codebundles" || source == "mixed", "{source}");
    assert!(
        confidence > 0.7 && !no_match,
        "confidence {confidence}, no match {no_match}"
    );
    // Next questions: two or three, each naming a real bundle, none of them a
    // bundle the answer already shows except the top one's SLI; sent before done.
    let (at, suggestions) = ev
        .iter()
        .enumerate()
        .find_map(|(i, (_, e))| match e {
            ChatEvent::Suggestions { questions } => Some((i, questions.clone())),
            _ => None,
        })
        .expect("suggestions");
    assert!(at < ev.len() - 1, "before done");
    assert!((2..=3).contains(&suggestions.len()), "{suggestions:?}");
    assert!(
        suggestions[0].contains("SLIs of Kubernetes Pod Crashloop Triage"),
        "the top bundle's SLI to watch: {suggestions:?}"
    );
    let shown: Vec<String> = ev
        .iter()
        .filter_map(|(_, e)| match e {
            ChatEvent::Cards { cards } => Some(cards.clone()),
            _ => None,
        })
        .flatten()
        .map(|c| c.bundle.display_name)
        .collect();
    for q in &suggestions[1..] {
        assert!(
            !shown.iter().any(|n| q.contains(n.as_str())),
            "{q} repeats a card"
        );
    }
    let catalog: serde_json::Value = common::client()
        .post(server.at("/api/bundles"))
        .json(&json!({"filter": {}}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let names: Vec<String> = catalog
        .as_array()
        .map(|a| a.to_vec())
        .unwrap_or_default()
        .iter()
        .filter_map(|b| b["display_name"].as_str().map(String::from))
        .collect();
    for q in &suggestions {
        assert!(
            names.iter().any(|n| q.contains(n.as_str())),
            "{q} names no bundle of {names:?}"
        );
    }
    // Stages arrive before any text, so the UI can show progress.
    let first_token = ev
        .iter()
        .position(|(_, e)| matches!(e, ChatEvent::Token { .. }))
        .unwrap();
    assert!(
        ev[..first_token]
            .iter()
            .any(|(_, e)| matches!(e, ChatEvent::Stage { .. }))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn follow_ups_over_two_and_three_turns() {
    let server = TestServer::start_indexed(|_| {}).await;
    let first = ask(
        &server.url,
        json!({"question": "pods in payments keep restarting"}),
    )
    .await;
    let sid = session_of(&first);
    let top = cards(&first)[0].clone();

    let second = ask(
        &server.url,
        json!({"question": "what about its SLIs?", "session_id": sid}),
    )
    .await;
    assert_eq!(session_of(&second), sid, "same conversation");
    assert_eq!(
        cards(&second),
        vec![top.clone()],
        "its = the bundle recommended before"
    );
    assert!(answer_text(&second).contains("SLI"));
    check_grounding(&second);

    let third = ask(
        &server.url,
        json!({"question": "does that one change anything?", "session_id": sid}),
    )
    .await;
    assert_eq!(cards(&third), vec![top.clone()]);
    let t = answer_text(&third);
    assert!(t.contains("only reads") && t.contains("read-only"), "{t}");

    // A topic follow-up changes the platform and keeps the topic.
    // (The first question names its cluster plainly: this test is about the
    // follow-ups, not about ranking a paraphrase.)
    let gke = ask(
        &server.url,
        json!({"question": "our gke cluster keeps nagging that its control plane version is old"}),
    )
    .await;
    assert_eq!(
        cards(&gke).first().map(String::as_str),
        Some("cloud-ops/gcp-gke-cluster-health")
    );
    let sid2 = session_of(&gke);
    let aks = ask(
        &server.url,
        json!({"question": "anything similar for AKS?", "session_id": sid2}),
    )
    .await;
    assert_eq!(
        cards(&aks).first().map(String::as_str),
        Some("cloud-ops/azure-aks-cluster-health"),
        "{}",
        answer_text(&aks)
    );
    let eks = ask(
        &server.url,
        json!({"question": "and on the aws side?", "session_id": sid2}),
    )
    .await;
    assert_eq!(
        cards(&eks).first().map(String::as_str),
        Some("cloud-ops/aws-eks-nodegroup-health"),
        "{}",
        answer_text(&eks)
    );

    // The conversation is saved: three turns in the first session, with the rewrite
    // traced.
    let db = server.state.db.clone();
    let s = sid.clone();
    let rows: Vec<(String, String, String)> = db
        .read(move |c| {
            let mut st = c.prepare(
                "SELECT category, rewritten, status FROM turns WHERE session_id = ?1 ORDER BY seq",
            )?;
            let v = st
                .query_map([&s], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(v)
        })
        .await
        .unwrap();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[1].0, "follow-up");
    assert!(
        rows[1].1.contains("Kubernetes Pod Crashloop Triage"),
        "{}",
        rows[1].1
    );
    assert!(rows.iter().all(|r| r.2 == "complete"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slis_of_a_runbook_only_bundle_point_at_one_that_has_them() {
    let server = TestServer::start_indexed(|_| {}).await;
    let first = ask(
        &server.url,
        json!({"question": "our statefulset has replicas that never become ready"}),
    )
    .await;
    assert_eq!(
        cards(&first).first().map(String::as_str),
        Some("kube-ops/k8s-statefulset-health")
    );
    let second = ask(
        &server.url,
        json!({"question": "what about its SLIs?", "session_id": session_of(&first)}),
    )
    .await;
    let t = answer_text(&second);
    assert!(t.contains("has no SLI"), "{t}");
    let shown = cards(&second);
    assert_eq!(shown.len(), 2, "{t}");
    assert_eq!(shown[0], "kube-ops/k8s-statefulset-health");
    // The second card is a bundle with SLIs, cited with its SLI tasks.
    let snap = server.state.agent.searcher().snapshot();
    let other = &snap.bundles[snap.bundle_by_key[&shown[1]] as usize];
    assert!(other.sli_count > 0, "{}", shown[1]);
    check_grounding(&second);
}

/// Small talk no rule knows is searched, and when it names nothing and nothing
/// fits, answered by what the assistant is for: no cards, no request offer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn small_talk_nothing_fits_gets_what_the_assistant_is_for() {
    let server = TestServer::start_indexed(|_| {}).await;
    for q in ["what's the capital of peru", "you are not very smart"] {
        let ev = ask(&server.url, json!({"question": q})).await;
        assert!(stages(&ev).contains(&"search".to_string()), "{q}: searched");
        assert!(cards(&ev).is_empty(), "{q}: no cards");
        assert_eq!(done(&ev).0, "system", "{q}");
        assert!(
            !ev.iter()
                .any(|(_, e)| matches!(e, ChatEvent::RequestCodebundle { .. })),
            "{q}: no request offered"
        );
        assert!(answer_text(&ev).contains("Registry Chat"), "{q}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_match_says_so_and_offers_a_request() {
    let server = TestServer::start_indexed(|_| {}).await;
    let ev = ask(
        &server.url,
        json!({"question": "kafka consumers fall further behind on the payments topic"}),
    )
    .await;
    let text = answer_text(&ev);
    assert!(
        text.starts_with("I couldn't find a codebundle") && text.contains("Kafka"),
        "{text}"
    );
    let (_, confidence, no_match) = done(&ev);
    assert!(no_match && confidence <= 0.4);
    let draft = ev
        .iter()
        .find_map(|(_, e)| match e {
            ChatEvent::RequestCodebundle { draft } => Some(draft.clone()),
            _ => None,
        })
        .expect("request_codebundle event");
    assert_eq!(
        draft.problem,
        "kafka consumers fall further behind on the payments topic"
    );
    assert!(!draft.closest.is_empty() && draft.context.contains("kafka"));
    check_grounding(&ev);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keyword_and_documentation_questions_cite_their_sources() {
    let server = TestServer::start_indexed(|_| {}).await;
    let ev = ask(&server.url, json!({"question": "which keyword summarizes pod restarts and what arguments does it take?"})).await;
    let cited = citations(&ev);
    assert!(
        cited
            .iter()
            .any(|c| c == "kw:RW.KubeTriage.Summarize Pod Restarts"),
        "{cited:?}"
    );
    assert!(answer_text(&ev).contains("Arguments"));
    check_grounding(&ev);
    let ev = ask(&server.url, json!({"question": "whats the difference between an sli and a runbook, and which of the two is scheduled"})).await;
    assert!(
        citations(&ev)
            .iter()
            .any(|c| c.starts_with("doc:registry-docs:runbooks-vs-slis.md")),
        "{:?}",
        citations(&ev)
    );
    assert_eq!(done(&ev).0, "documentation");
}

/// How one bundle works is answered from its README: the section quoted and
/// cited, with the bundle beside it; a problem report about the same resource
/// still gets the bundles to run.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_question_about_how_a_bundle_works_quotes_its_readme() {
    let server = TestServer::start_indexed(|_| {}).await;
    let ev = ask(
        &server.url,
        json!({"question": "what azure permissions does the key vault expiry check require?"}),
    )
    .await;
    let cited = citations(&ev);
    assert!(
        cited.iter().any(|c| c
            == "doc:cloud-ops:codebundles/azure-keyvault-secret-expiry/README.md#requirements"),
        "{cited:?}"
    );
    assert!(
        cited
            .iter()
            .any(|c| c == "bundle:cloud-ops/azure-keyvault-secret-expiry"),
        "{cited:?}"
    );
    let text = answer_text(&ev);
    assert!(text.starts_with("From **"), "{text}");
    assert!(text.contains("Key Vault Reader"), "{text}");
    assert!(
        !text.contains("## Requirements"),
        "the heading is not quoted twice: {text}"
    );
    check_grounding(&ev);

    // A README whose title line the parser cannot read (it starts with a byte-order
    // mark) still has its sections.
    let ev = ask(
        &server.url,
        json!({"question": "which iam permissions does the eks node group health bundle need?"}),
    )
    .await;
    let cited = citations(&ev);
    assert!(
        cited
            .iter()
            .any(|c| c
                == "doc:cloud-ops:codebundles/aws-eks-nodegroup-health/README.md#requirements"),
        "{cited:?}"
    );

    let ev = ask(
        &server.url,
        json!({"question": "secrets in our key vault kv-shop-prod expire next week"}),
    )
    .await;
    assert!(
        !citations(&ev).iter().any(|c| c.contains("README.md#")),
        "{:?}",
        citations(&ev)
    );
    assert!(!cards(&ev).is_empty());

    // A setting only one bundle takes, written as configured: the section of
    // that bundle's README about it (a search alone answered with the bundle).
    let ev = ask(
        &server.url,
        json!({"question": "can TAG_FILTER be left empty?"}),
    )
    .await;
    let cited = citations(&ev);
    assert!(
        cited
            .iter()
            .any(|c| c
                == "doc:cloud-ops:codebundles/aws-ec2-instance-health/README.md#configuration"),
        "{cited:?}"
    );
    assert!(
        cited
            .iter()
            .any(|c| c == "bundle:cloud-ops/aws-ec2-instance-health"),
        "{cited:?}"
    );
}

/// A question about what to run that also asks what a section of the bundle's
/// README covers gets the bundle *and* that section; the other sections of the
/// README, each of which scores near the top, are not listed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bundle_answer_names_the_readme_section_the_question_asks_about() {
    let server = TestServer::start_indexed(|_| {}).await;
    let ev = ask(
        &server.url,
        json!({"question": "jenkins builds keep failing on the main job, can I try the check locally before wiring it up?"}),
    )
    .await;
    let text = answer_text(&ev);
    assert!(text.starts_with("**Start with Jenkins"), "{text}");
    let readme: Vec<String> = citations(&ev)
        .into_iter()
        .filter(|c| c.contains("README.md#"))
        .collect();
    assert_eq!(
        readme,
        ["doc:platform-ops:codebundles/jenkins-job-health/README.md#trying-it-locally"]
    );
    assert!(
        text.contains("In the README of Jenkins Controller and Job Health: *Trying it locally*"),
        "{text}"
    );
    check_grounding(&ev);

    // The same bundle for a symptom alone: no README section's heading says it.
    let ev = ask(
        &server.url,
        json!({"question": "jenkins jobs keep failing"}),
    )
    .await;
    assert!(
        !citations(&ev).iter().any(|c| c.contains("README.md#")),
        "{:?}",
        citations(&ev)
    );
}

/// A keyword answer also points at the documentation section that fits best: the
/// question may be as much about the collection's conventions as about a keyword.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_keyword_answer_offers_the_documentation_that_fits() {
    let server = TestServer::start_indexed(|_| {}).await;
    let ev = ask(
        &server.url,
        json!({"question": "which keyword raises an issue from a task, and how should I pick its severity?"}),
    )
    .await;
    let cited = citations(&ev);
    assert!(
        cited.first().is_some_and(|c| c.starts_with("kw:")),
        "{cited:?}"
    );
    assert!(
        cited
            .iter()
            .any(|c| c.starts_with("doc:registry-docs:writing-tasks-and-issues.md#")),
        "{cited:?}"
    );
    assert!(answer_text(&ev).contains("\nFurther reading: *"));
    check_grounding(&ev);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_keyword_answer_points_at_real_calls_of_it() {
    let server = TestServer::start_indexed(|_| {}).await;
    // RW.CLI is not shipped by the sample registry: the keyword is known from calls.
    let ev = ask(
        &server.url,
        json!({"question": "which keyword runs our own bash script file from a task?"}),
    )
    .await;
    let cited = citations(&ev);
    assert!(
        cited.iter().any(|c| c == "kw:RW.CLI.Run Bash File"),
        "{cited:?}"
    );
    let text = answer_text(&ev);
    // "- **Name** [bundle:collection/slug] — `codebundles/…/runbook.robot:42`"
    let at =
        regex::Regex::new(r"\[bundle:([\w.-]+)/[\w.-]+\] — `(codebundles/[\w./-]+\.robot):(\d+)`")
            .unwrap();
    let calls: Vec<_> = at.captures_iter(&text).collect();
    assert!(!calls.is_empty(), "{text}");
    // The users shown are cards, and each line shown calls the keyword. They are
    // there because they call it, not ranked against the question: no relevance.
    assert!(!cards(&ev).is_empty());
    for (_, e) in &ev {
        if let ChatEvent::Cards { cards } = e {
            assert!(cards.iter().all(|c| c.relevance.is_none()), "{cards:?}");
        }
    }
    check_grounding(&ev);
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/collections");
    for c in calls {
        let line: usize = c[3].parse().unwrap();
        let source = std::fs::read_to_string(root.join(&c[1]).join(&c[2])).unwrap();
        let at = source.lines().nth(line - 1).unwrap();
        assert!(at.contains("Run Bash File"), "{}:{line} is `{at}`", &c[2]);
    }
}

/// Of the seventeen callers of Run Bash File, the one on the platform the question
/// names is shown first; the question's other words do not reorder them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_keyword_answer_shows_first_the_callers_on_the_platform_asked_about() {
    let server = TestServer::start_indexed(|_| {}).await;
    let ev = ask(
        &server.url,
        json!({"question": "which keyword runs our own bash script file from a task? show me a gcp bundle that does it"}),
    )
    .await;
    let cited = citations(&ev);
    assert!(
        cited.iter().any(|c| c == "kw:RW.CLI.Run Bash File"),
        "{cited:?}"
    );
    let text = answer_text(&ev);
    let at = regex::Regex::new(r"\[bundle:([\w.-]+/[\w.-]+)\] — `").unwrap();
    let first = at.captures(&text).map(|c| c[1].to_string());
    assert_eq!(
        first.as_deref(),
        Some("cloud-ops/gcp-cloudrun-service-health"),
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_interrupted_turn_is_saved_as_interrupted() {
    let server = TestServer::start_indexed(|_| {}).await;
    let res = common::client()
        .post(server.at("/api/chat"))
        .json(&json!({"question": "pods in payments keep restarting, where do I start?"}))
        .send()
        .await
        .unwrap();
    let mut body = res.bytes_stream();
    use futures::StreamExt;
    let _first = body.next().await;
    drop(body); // the browser tab closes
    let db = server.state.db.clone();
    let mut status = String::new();
    for _ in 0..100 {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        let s: Option<String> = db
            .read(|c| {
                Ok(rusqlite::OptionalExtension::optional(c.query_row(
                    "SELECT status FROM turns",
                    [],
                    |r| r.get(0),
                ))?)
            })
            .await
            .unwrap();
        if let Some(s) = s {
            status = s;
            break;
        }
    }
    assert_eq!(status, "interrupted");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_session_starts_a_new_conversation() {
    let server = TestServer::start_indexed(|_| {}).await;
    let ev = ask(
        &server.url,
        json!({"question": "what about its SLIs?", "session_id": "deleted-or-made-up"}),
    )
    .await;
    let sid = session_of(&ev);
    assert_ne!(sid, "deleted-or-made-up");
    assert_eq!(sid.len(), 32, "128 random bits in hex");
    assert!(!stages(&ev).is_empty());
}

/// Catalog questions are answered from the catalog (counted, not searched), greetings
/// with a question are meta, and the RunWhen vocabulary setting changes the words.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn catalog_meta_and_vocabulary() {
    let server = TestServer::start_indexed(|_| {}).await;
    let overview = ask(
        &server.url,
        json!({"question": "i would like an overview of every collection"}),
    )
    .await;
    let t = answer_text(&overview);
    assert!(t.contains("3 codecollections"), "{t}");
    for c in ["cloud-ops", "kube-ops", "platform-ops"] {
        assert!(t.contains(c), "{c} in {t}");
    }
    assert!(
        !stages(&overview).contains(&"search".to_string()),
        "no search"
    );

    let aws = ask(
        &server.url,
        json!({"question": "how many codebundles are there for aws?"}),
    )
    .await;
    let t = answer_text(&aws);
    let n_aws = server
        .state
        .db
        .read(|c| {
            Ok(c.query_row(
                "SELECT count(*) FROM bundles WHERE platform = 'aws'",
                [],
                |r| r.get::<_, i64>(0),
            )?)
        })
        .await
        .unwrap();
    assert!(t.starts_with(&format!("**{n_aws}**")), "{t}");

    // A collection named by its one distinctive word and "collection": all of its
    // bundles, not those whose text happens to hold the word.
    let kube = ask(
        &server.url,
        json!({"question": "how many bundles does the kube collection have"}),
    )
    .await;
    let t = answer_text(&kube);
    let n_kube = server
        .state
        .db
        .read(|c| {
            Ok(c.query_row(
                "SELECT count(*) FROM bundles b JOIN collections c ON c.id = b.collection_id
                 WHERE c.name = 'kube-ops'",
                [],
                |r| r.get::<_, i64>(0),
            )?)
        })
        .await
        .unwrap();
    assert!(t.starts_with(&format!("**{n_kube}** codebundles")), "{t}");
    assert!(t.contains("in kube-ops)"), "{t}");

    let ro = ask(
        &server.url,
        json!({"question": "which read-only skill templates are there for azure?"}),
    )
    .await;
    let t = answer_text(&ro);
    assert!(t.contains("Azure, read-only"), "{t}");
    assert!(!t.contains("read-write"), "{t}");

    let hi = ask(
        &server.url,
        json!({"question": "hello! what can you do for us?"}),
    )
    .await;
    assert!(cards(&hi).is_empty(), "meta answers have no cards");
    assert!(!stages(&hi).contains(&"search".to_string()));

    let theirs = TestServer::start_indexed(|c| {
        c.vocabulary = registry_chat::query::Vocabulary::SkillTemplate;
    })
    .await;
    let t = answer_text(
        &ask(
            &theirs.url,
            json!({"question": "i would like an overview of every collection"}),
        )
        .await,
    );
    assert!(
        t.contains("Skill Templates") && t.contains("Monitors"),
        "{t}"
    );
    assert!(!t.contains("codebundles"), "{t}");
}
