//! Opt-in: the public golden sets over clones of the six public RunWhen
//! collections (CI has no network). With the clones in one folder:
//! `REGISTRY_CHAT_PUBLIC_CORPORA=/path/to/clones cargo test --release --test public_collections -- --ignored --nocapture`
//! (`scripts/eval-public` prints the full table). The floors sit under the figures
//! in the README so that a regression fails; held-out questions are never printed.

mod common;

use std::path::PathBuf;
use std::process::Command;

const REPOS: &[&str] = &[
    "rw-cli-codecollection",
    "rw-public-codecollection",
    "rw-generic-codecollection",
    "aws-c7n-codecollection",
    "azure-c7n-codecollection",
    "rw-workspace-utils",
];

fn run(data: &std::path::Path, args: &[String]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_registry-chat"))
        .args(args)
        .env("REGISTRY_CHAT_DATA_DIR", data)
        .env("REGISTRY_CHAT_EMBEDDER_MODEL_DIR", common::model_dir())
        .output()
        .expect("run registry-chat");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
#[ignore]
fn public_golden_sets_on_the_public_collections() {
    let root = PathBuf::from(
        std::env::var("REGISTRY_CHAT_PUBLIC_CORPORA").expect("REGISTRY_CHAT_PUBLIC_CORPORA"),
    );
    let dir = tempfile::tempdir().unwrap();
    let mut index = vec!["index".to_string()];
    for r in REPOS {
        index.push("--collection".into());
        index.push(root.join(r).display().to_string());
    }
    run(dir.path(), &index);
    // (set, half, mode, R@5 floor, follow-up MRR floor), a little under the README's
    // figures.
    for (set, half, mode, r5, fu) in [
        ("public", "tuning", "retrieval", 0.88, 0.0),
        ("public", "heldout", "retrieval", 0.82, 0.0),
        ("public", "tuning", "agent", 0.85, 0.8),
        ("public", "heldout", "agent", 0.80, 0.7),
        ("public2", "tuning", "retrieval", 0.84, 0.0),
        ("public2", "heldout", "retrieval", 0.80, 0.0),
        ("public2", "tuning", "agent", 0.80, 0.7),
        ("public2", "heldout", "agent", 0.76, 0.5),
        ("public3", "tuning", "retrieval", 0.76, 0.0),
        ("public3", "heldout", "retrieval", 0.80, 0.0),
        ("public3", "tuning", "agent", 0.82, 0.75),
        ("public3", "heldout", "agent", 0.83, 0.75),
        ("public4", "tuning", "agent", 0.80, 0.75),
        ("public4", "heldout", "agent", 0.85, 0.75),
        ("public5", "tuning", "agent", 0.85, 0.85),
        ("public5", "heldout", "agent", 0.85, 0.7),
        ("public6", "tuning", "agent", 0.85, 0.75),
        ("public6", "heldout", "agent", 0.85, 0.65),
        ("public7", "tuning", "agent", 0.85, 0.85),
        ("public7", "heldout", "agent", 0.80, 0.75),
        ("public8", "tuning", "agent", 0.90, 0.80),
        ("public8", "heldout", "agent", 0.90, 0.85),
        ("public9", "tuning", "agent", 0.88, 0.75),
        ("public9", "heldout", "agent", 0.90, 0.85),
        ("public10", "tuning", "agent", 0.88, 0.75),
        ("public10", "heldout", "agent", 0.86, 0.70),
        ("public11", "tuning", "agent", 0.84, 0.85),
        ("public11", "heldout", "agent", 0.90, 0.85),
        ("public12", "tuning", "agent", 0.82, 0.75),
        ("public12", "heldout", "agent", 0.82, 0.85),
        ("public13", "tuning", "agent", 0.80, 0.75),
        ("public13", "heldout", "agent", 0.90, 0.80),
        ("public14", "tuning", "agent", 0.90, 0.85),
        ("public14", "heldout", "agent", 0.88, 0.70),
        ("public15", "tuning", "agent", 0.80, 0.75),
        ("public15", "heldout", "agent", 0.80, 0.75),
        ("public16", "tuning", "agent", 0.90, 0.85),
        ("public16", "heldout", "agent", 0.90, 0.80),
        ("public17", "tuning", "agent", 0.78, 0.75),
        ("public17", "heldout", "agent", 0.90, 0.80),
        ("public18", "tuning", "agent", 0.90, 0.70),
        ("public18", "heldout", "agent", 0.90, 0.85),
        // Routing probes: single turns, no follow-ups.
        ("public19", "tuning", "agent", 0.85, 0.0),
        ("public19", "heldout", "agent", 0.85, 0.0),
        ("public20", "tuning", "agent", 0.85, 0.0),
        ("public20", "heldout", "agent", 0.85, 0.0),
        ("public21", "tuning", "agent", 0.85, 0.0),
        ("public21", "heldout", "agent", 0.85, 0.0),
        // Keyword questions by a writer who saw no code (R@5 0.717 / 0.648 when added).
        ("public22", "tuning", "agent", 0.65, 0.0),
        ("public22", "heldout", "agent", 0.60, 0.0),
    ] {
        let golden = format!(
            "{}/../samples/golden/{set}-{half}.jsonl",
            env!("CARGO_MANIFEST_DIR")
        );
        let out = run(
            dir.path(),
            &[
                "eval".into(),
                "--golden".into(),
                golden,
                "--mode".into(),
                mode.into(),
                "--json".into(),
            ],
        );
        let r: serde_json::Value = serde_json::from_str(&out).unwrap();
        let o = &r["overall"];
        let f = |v: &serde_json::Value| v.as_f64().unwrap_or(0.0);
        let fu_mrr = f(&r["by_category"]["follow-up"]["mrr@10"]);
        println!(
            "{set} {half} {mode}: R@1 {:.3} R@5 {:.3} MRR {:.3} follow-up MRR {fu_mrr:.3} no-match {:.3} rejected {:.3} routing {:.3}",
            f(&o["recall@1"]),
            f(&o["recall@5"]),
            f(&o["mrr@10"]),
            f(&o["no_match_accuracy"]),
            f(&o["false_no_match_rate"]),
            f(&o["routing_accuracy"]),
        );
        assert!(f(&o["recall@5"]) >= r5, "{set} {half} {mode} R@5");
        assert!(fu_mrr >= fu, "{set} {half} {mode} follow-up MRR");
        assert!(
            f(&o["false_no_match_rate"]) <= 0.07,
            "{set} {half} {mode} answerable questions rejected"
        );
    }
}
