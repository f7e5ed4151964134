//! Indexing against real files: the sample registry, incremental reindex, crash
//! safety, git sources, and the parser against Robot Framework's own task lists.

use registry_chat::catalog;
use registry_chat::ingest::{
    self, CollectionSource, DocSource, IndexOptions, IndexRequest, IngestError, Location,
};
use registry_chat::store::Db;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

fn collection(name: &str, root: &Path) -> CollectionSource {
    CollectionSource {
        name: name.into(),
        location: Location::Path(root.to_path_buf()),
    }
}

fn open(dir: &Path) -> Db {
    Db::open(&dir.join("t.db")).unwrap()
}

fn index(db: &Db, data: &Path, req: &IndexRequest) -> ingest::IndexReport {
    ingest::run(db, data, req, &IndexOptions::default()).expect("index run")
}

fn detail(db: &Db, c: &str, s: &str) -> app::api::catalog::BundleDetail {
    db.read_blocking(|conn| catalog::detail(conn, c, s))
        .unwrap()
        .unwrap_or_else(|| panic!("{c}/{s} missing"))
}

#[test]
fn indexes_the_bundled_sample_registry() {
    let dir = tempfile::tempdir().unwrap();
    let db = open(dir.path());
    let req = ingest::sample_request(dir.path()).unwrap();
    let report = index(&db, dir.path(), &req);
    assert!(report.wrote);
    let (bundles, tasks, slis, docs, keywords, _) = report.totals();
    assert_eq!(bundles, 54);
    assert_eq!(
        tasks + slis,
        313,
        "Robot Framework counts 313 tasks in the samples"
    );
    assert!(docs >= 70, "doc sections: {docs}");
    assert!(keywords >= 8, "keywords: {keywords}");
    let names: Vec<&str> = report.collections.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, vec!["cloud-ops", "kube-ops", "platform-ops"]);

    // Same slug in two collections, different content.
    let a = detail(&db, "kube-ops", "k8s-daemonset-health");
    let b = detail(&db, "platform-ops", "k8s-daemonset-health");
    assert_ne!(a.summary.display_name, b.summary.display_name);

    // Tags on continuation lines win over the wrong generated manifest.
    let ops = detail(&db, "kube-ops", "k8s-workload-ops");
    assert_eq!(
        (
            ops.summary.access.as_str(),
            ops.derived_from.access.as_str()
        ),
        ("read-write", "task-tags")
    );
    // No tags at all: destructive verbs decide.
    let chaos = detail(&db, "kube-ops", "k8s-chaos-pod-killer");
    assert_eq!(
        (
            chaos.summary.access.as_str(),
            chaos.derived_from.access.as_str()
        ),
        ("read-write", "task-verbs")
    );
    assert_eq!(
        detail(&db, "kube-ops", "k8s-pod-crashloop-triage")
            .summary
            .access
            .as_str(),
        "read-only"
    );

    // Platform from generation rules, including a rules file without an extension.
    let run = detail(&db, "cloud-ops", "gcp-cloudrun-service-health");
    assert_eq!(
        (
            run.summary.platform.as_str(),
            run.derived_from.platform.as_str()
        ),
        ("gcp", "generation-rules")
    );
    let kv = detail(&db, "cloud-ops", "azure-keyvault-secret-expiry");
    assert_eq!(
        kv.derived_from.platform, "generation-rules",
        "a `<slug>-yaml` rules file is read"
    );

    // The one-space-indented task is its own task, named as Robot names it.
    let alarms = detail(&db, "cloud-ops", "aws-cloudwatch-alarm-review");
    assert_eq!(alarms.summary.tasks.len(), 4);
    assert!(
        alarms
            .summary
            .tasks
            .iter()
            .any(|t| t.name.starts_with(" Show Alarm State History"))
    );

    // Missing pieces are warnings, not failures.
    let slo = detail(&db, "platform-ops", "slo-error-budget");
    assert!(slo.summary.tasks.is_empty() && slo.summary.slis.is_empty());
    assert!(slo.readme.is_some());
    assert!(
        slo.warnings
            .iter()
            .any(|w| w.contains("no runbook.robot or sli.robot"))
    );
    let sli_only = detail(&db, "kube-ops", "k8s-pod-readiness-sli");
    assert!(
        sli_only.summary.tasks.is_empty()
            && !sli_only.summary.slis.is_empty()
            && sli_only.readme.is_none()
    );
    let drift = detail(&db, "platform-ops", "dns-record-drift");
    assert!(drift.warnings.iter().any(|w| w.contains("not valid UTF-8")));
    assert!(
        drift.readme.as_deref().unwrap().contains('\u{FFFD}'),
        "decoded lossily"
    );

    // Junk and secrets are never read.
    for (c, s) in [
        ("platform-ops", "gh-actions-workflow-failures"),
        ("platform-ops", "chat-notify-sender"),
        ("cloud-ops", "azure-appservice-health"),
        ("cloud-ops", "gcp-cloudsql-instance-health"),
        ("cloud-ops", "aws-lambda-error-rate"),
    ] {
        for f in detail(&db, c, s).files {
            let hidden = f
                .path
                .split('/')
                .any(|p| p.starts_with('.') && p != ".runwhen");
            let junk = f.path.contains("/None/")
                || f.path.ends_with(".tmp")
                || f.path.ends_with("workflow_runs_dump.json");
            assert!(
                !hidden && !junk && !f.path.contains("api_token"),
                "{} should have been skipped",
                f.path
            );
        }
    }

    // Variables with attributes; duplicate secret imported once.
    let ns = detail(&db, "kube-ops", "k8s-namespace-overview");
    assert!(
        ns.variables
            .iter()
            .any(|v| v.enum_values == vec!["kubectl", "oc"])
    );
    let aks = detail(&db, "cloud-ops", "azure-aks-cluster-health");
    assert_eq!(
        aks.variables
            .iter()
            .filter(|v| v.name == "azure_credentials")
            .count(),
        1
    );

    // Keyword libraries: in-repo libraries resolve and link; RW.Core is external.
    let triage = detail(&db, "kube-ops", "k8s-pod-crashloop-triage");
    let kt = triage
        .libraries
        .iter()
        .find(|l| l.name == "RW.KubeTriage")
        .expect("imports RW.KubeTriage");
    assert!(!kt.external);
    assert!(
        kt.keywords_used
            .iter()
            .any(|k| k == "Summarize Pod Restarts"),
        "{:?}",
        kt.keywords_used
    );
    assert!(
        triage
            .libraries
            .iter()
            .any(|l| l.name == "RW.Core" && l.external)
    );

    // Health reads the catalog.
    let summary = db.read_blocking(catalog::index_summary).unwrap();
    assert_eq!(
        (summary.state.as_str(), summary.collections, summary.bundles),
        ("ready", 3, 54)
    );
}

#[test]
fn task_lists_equal_robot_frameworks_own_parser_on_the_samples() {
    let dir = tempfile::tempdir().unwrap();
    let db = open(dir.path());
    let root = samples().join("collections");
    let req = IndexRequest {
        collections: ["cloud-ops", "kube-ops", "platform-ops"]
            .iter()
            .map(|n| collection(n, &root.join(n)))
            .collect(),
        docs: vec![],
    };
    index(&db, dir.path(), &req);
    let expected: BTreeMap<String, serde_json::Value> = serde_json::from_str(
        &std::fs::read_to_string(samples().join("expected-tasks.json")).unwrap(),
    )
    .unwrap();
    let bundles = db
        .read_blocking(|c| catalog::bundles(c, &Default::default()))
        .unwrap();
    let mut ours: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for b in &bundles {
        for t in b.tasks.iter().chain(&b.slis) {
            let file = t.file.rsplit('/').next().unwrap();
            ours.entry(format!("{}/{}/{file}", b.collection, b.slug))
                .or_default()
                .push(t.name.clone());
        }
    }
    assert_eq!(expected.len(), 97);
    for (key, v) in &expected {
        let want: Vec<String> = v["tasks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap().to_string())
            .collect();
        assert_eq!(ours.get(key).cloned().unwrap_or_default(), want, "{key}");
    }
}

fn db_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("t.db"))
        .map(|e| {
            (
                e.file_name().to_string_lossy().to_string(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn reindexing_with_no_change_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = open(dir.path());
    let req = ingest::sample_request(dir.path()).unwrap();
    index(&db, dir.path(), &req);
    // Flush the WAL so the files on disk are the whole story.
    db.write_blocking(|c| Ok(c.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")?))
        .unwrap();
    let before = db_files(dir.path());
    let report = index(&db, dir.path(), &req);
    assert!(!report.wrote);
    assert!(
        report
            .collections
            .iter()
            .all(|c| c.unchanged && c.parsed == 0)
    );
    assert_eq!(
        db_files(dir.path()),
        before,
        "the database files are byte-for-byte unchanged"
    );
    let changes: i64 = db
        .write_blocking(|c| Ok(c.query_row("SELECT total_changes()", [], |r| r.get(0))?))
        .unwrap();
    let _ = changes; // total_changes is per connection and includes the first run; the bytes above are the proof
}

#[test]
fn a_changed_bundle_is_reparsed_alone_and_a_removed_one_disappears() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("kube-ops");
    copy_dir(&samples().join("collections/kube-ops"), &work);
    let db = open(dir.path());
    let req = IndexRequest {
        collections: vec![collection("kube-ops", &work)],
        docs: vec![],
    };
    assert_eq!(index(&db, dir.path(), &req).collections[0].parsed, 20);

    let robot = work.join("codebundles/k8s-coredns-health/runbook.robot");
    let text = std::fs::read_to_string(&robot).unwrap();
    std::fs::write(
        &robot,
        text.replacen(
            "*** Tasks ***",
            "*** Tasks ***\nBrand New Task For Testing\n    Log    hi\n",
            1,
        ),
    )
    .unwrap();
    std::fs::remove_dir_all(work.join("codebundles/k8s-chaos-pod-killer")).unwrap();

    let stale = ingest::stale_bundles(&db, "kube-ops", &work).unwrap();
    assert_eq!(
        stale,
        vec![
            "k8s-coredns-health (changed)",
            "k8s-chaos-pod-killer (removed)"
        ]
    );

    let r = index(&db, dir.path(), &req);
    assert_eq!((r.collections[0].parsed, r.collections[0].removed), (1, 1));
    let coredns = detail(&db, "kube-ops", "k8s-coredns-health");
    assert_eq!(coredns.summary.tasks[0].name, "Brand New Task For Testing");
    assert!(
        db.read_blocking(|c| catalog::detail(c, "kube-ops", "k8s-chaos-pod-killer"))
            .unwrap()
            .is_none()
    );
    assert_eq!(r.collections[0].bundles, 19);
    // The keyword index follows the catalog: the new task is searchable, the removed
    // bundle is gone from it.
    let hits = db
        .read_blocking(|c| {
            Ok(registry_chat::index::fts::search_bundles(
                c,
                "\"brand\"",
                5,
            )?)
        })
        .unwrap();
    assert_eq!(hits.len(), 1);
    let fts_rows: i64 = db
        .read_blocking(|c| Ok(c.query_row("SELECT count(*) FROM bundle_fts", [], |r| r.get(0))?))
        .unwrap();
    assert_eq!(fts_rows, 19);
    assert!(
        ingest::stale_bundles(&db, "kube-ops", &work)
            .unwrap()
            .is_empty()
    );
}

#[test]
fn a_crash_mid_index_leaves_the_previous_catalog_intact() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("kube-ops");
    copy_dir(&samples().join("collections/kube-ops"), &work);
    let db = open(dir.path());
    let req = IndexRequest {
        collections: vec![collection("kube-ops", &work)],
        docs: vec![],
    };
    index(&db, dir.path(), &req);
    let before = db
        .read_blocking(|c| catalog::bundles(c, &Default::default()))
        .unwrap();

    // Change every bundle, then fail after half of them have been written.
    for e in std::fs::read_dir(work.join("codebundles"))
        .unwrap()
        .flatten()
    {
        let readme = e.path().join("README.md");
        if e.path().is_dir() {
            std::fs::write(
                &readme,
                "# Rewritten\n\nEvery bundle changed for the crash test.\n",
            )
            .unwrap();
        }
    }
    let err = ingest::run(
        &db,
        dir.path(),
        &req,
        &IndexOptions {
            fail_after_bundles: Some(10),
            ..Default::default()
        },
    )
    .expect_err("injected failure");
    assert!(matches!(err, IngestError::Injected(10)), "{err}");
    let after = db
        .read_blocking(|c| catalog::bundles(c, &Default::default()))
        .unwrap();
    assert_eq!(after, before, "the old catalog is still served unchanged");
    let status: String = db
        .read_blocking(|c| {
            Ok(c.query_row(
                "SELECT status FROM index_runs ORDER BY id DESC LIMIT 1",
                [],
                |r| r.get(0),
            )?)
        })
        .unwrap();
    assert_eq!(status, "ok", "the failed run left no trace either");

    // The next run completes the change.
    let r = index(&db, dir.path(), &req);
    assert_eq!(r.collections[0].parsed, 20);
    assert!(
        detail(&db, "kube-ops", "k8s-coredns-health")
            .readme
            .unwrap()
            .contains("Rewritten")
    );
}

fn git(dir: &Path, args: &[&str]) {
    let ok = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "user.name=Test",
            "-c",
            "user.email=test@example.invalid",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .status()
        .unwrap()
        .success();
    assert!(ok, "git {args:?}");
}

#[test]
fn git_sources_are_cloned_then_updated() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("upstream");
    copy_dir(&samples().join("collections/platform-ops"), &repo);
    git(&repo, &["init", "--quiet", "--initial-branch", "main"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "--quiet", "-m", "first"]);
    let url = format!("file://{}", repo.display());
    let data = dir.path().join("data");
    let db = open(dir.path());
    let req = IndexRequest {
        collections: vec![CollectionSource {
            name: "platform-ops".into(),
            location: Location::Git {
                url: url.clone(),
                reference: Some("main".into()),
            },
        }],
        docs: vec![],
    };
    let first = index(&db, &data, &req);
    assert_eq!(first.collections[0].bundles, 16);
    let c1 = first.collections[0]
        .commit
        .clone()
        .expect("commit recorded");
    assert!(
        data.join("collections/platform-ops/codebundles").is_dir(),
        "cloned into the data dir"
    );

    let robot = repo.join("codebundles/vault-server-health/runbook.robot");
    let text = std::fs::read_to_string(&robot).unwrap();
    std::fs::write(
        &robot,
        text.replace(
            "*** Tasks ***",
            "*** Tasks ***\nA Task Added Upstream\n    Log    hi\n",
        ),
    )
    .unwrap();
    git(&repo, &["commit", "--quiet", "-am", "second"]);
    let second = index(&db, &data, &req);
    let c2 = second.collections[0].commit.clone().unwrap();
    assert_ne!(c1, c2);
    assert_eq!(
        second.collections[0].parsed, 1,
        "only the changed bundle is parsed"
    );
    let vault = detail(&db, "platform-ops", "vault-server-health");
    assert!(
        vault
            .summary
            .tasks
            .iter()
            .any(|t| t.name == "A Task Added Upstream")
    );

    // The live checkout (what the catalog points at and tools read) moves only with
    // a committed catalog: a run that fails after fetching leaves it where it was.
    let live = data.join("collections/platform-ops");
    let head = |dir: &Path| {
        let out = Command::new("git")
            .args(["-C", &dir.to_string_lossy(), "rev-parse", "HEAD"])
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    };
    assert_eq!(head(&live), c2);
    std::fs::write(
        &robot,
        std::fs::read_to_string(&robot)
            .unwrap()
            .replace("A Task Added Upstream", "A Task Renamed Upstream"),
    )
    .unwrap();
    git(&repo, &["commit", "--quiet", "-am", "third"]);
    let crash = IndexOptions {
        fail_after_bundles: Some(0),
        ..Default::default()
    };
    ingest::run(&db, &data, &req, &crash).expect_err("injected failure");
    assert_eq!(head(&live), c2, "the checkout stays with the catalog");
    let live_robot = live.join("codebundles/vault-server-health/runbook.robot");
    assert!(
        std::fs::read_to_string(&live_robot)
            .unwrap()
            .contains("A Task Added Upstream")
    );
    assert!(
        !data.join("collections/platform-ops.next").exists(),
        "staging removed"
    );
    let third = index(&db, &data, &req);
    let c3 = third.collections[0].commit.clone().unwrap();
    assert_ne!(c3, c2);
    assert_eq!(head(&live), c3);
    assert!(
        std::fs::read_to_string(&live_robot)
            .unwrap()
            .contains("A Task Renamed Upstream")
    );
    assert!(!data.join("collections/platform-ops.next").exists());

    // A planning error in a later source ends the run without leaving the
    // earlier source's staging checkout behind.
    git(
        &repo,
        &["commit", "--quiet", "--allow-empty", "-m", "fourth"],
    );
    let not_a_collection = dir.path().join("not-a-collection");
    std::fs::create_dir_all(&not_a_collection).unwrap();
    let mut broken = req.clone();
    broken.collections.push(CollectionSource {
        name: "broken".into(),
        location: Location::Path(not_a_collection),
    });
    let err = ingest::run(&db, &data, &broken, &IndexOptions::default()).unwrap_err();
    assert!(err.to_string().contains("codebundles/"), "{err}");
    assert!(
        !data.join("collections/platform-ops.next").exists(),
        "staging removed after a planning error"
    );
    assert_eq!(head(&live), c3);

    // Another run holding the data dir's index lock (the admin Reindex while a
    // shell runs `index`) makes this one fail at once, touching nothing.
    let other = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(data.join("index.lock"))
        .unwrap();
    other.try_lock().unwrap();
    let err = ingest::run(&db, &data, &req, &IndexOptions::default()).unwrap_err();
    assert_eq!(err.code(), app::api::ErrorCode::IndexBusy);
    assert!(err.to_string().contains("another index run"), "{err}");
    assert_eq!(head(&live), c3);
    drop(other);
    assert_eq!(index(&db, &data, &req).collections[0].bundles, 16);

    // A bad URL fails cleanly and keeps the catalog.
    let bad = IndexRequest {
        collections: vec![CollectionSource {
            name: "platform-ops".into(),
            location: Location::Git {
                url: format!("file://{}/missing", dir.path().display()),
                reference: None,
            },
        }],
        docs: vec![],
    };
    let err = ingest::run(&db, &data, &bad, &IndexOptions::default()).expect_err("missing repo");
    assert!(err.to_string().contains("platform-ops"), "{err}");
    assert_eq!(
        db.read_blocking(catalog::index_summary).unwrap().bundles,
        16
    );
}

#[test]
fn sources_that_are_not_collections_are_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let db = open(dir.path());
    let req = IndexRequest {
        collections: vec![collection("nope", &dir.path().join("nope"))],
        docs: vec![DocSource {
            name: "d".into(),
            path: samples().join("docs"),
        }],
    };
    let err = ingest::run(&db, dir.path(), &req, &IndexOptions::default()).unwrap_err();
    assert!(
        err.to_string().contains("nope") && err.to_string().contains("not a directory"),
        "{err}"
    );
    let dup = IndexRequest {
        collections: vec![
            collection("x", &samples().join("collections/kube-ops")),
            collection("x", &samples().join("collections/cloud-ops")),
        ],
        docs: vec![],
    };
    assert!(matches!(
        ingest::run(&db, dir.path(), &dup, &IndexOptions::default()),
        Err(IngestError::DuplicateName(_))
    ));
    // Different names, one checkout folder: refused before anything is fetched,
    // since the two would be planned side by side in that folder.
    let clash = IndexRequest {
        collections: ["rw.ops", "rw ops"]
            .map(|name| CollectionSource {
                name: name.into(),
                location: Location::Git {
                    url: "file:///nowhere/ops.git".into(),
                    reference: None,
                },
            })
            .into(),
        docs: vec![],
    };
    let err = ingest::run(&db, dir.path(), &clash, &IndexOptions::default()).unwrap_err();
    assert!(matches!(err, IngestError::SharedCheckout(..)), "{err}");
    assert!(err.to_string().contains("rename one"), "{err}");
    assert_eq!(
        db.read_blocking(catalog::index_summary)
            .unwrap()
            .collections,
        0
    );
}

/// Runs only when pointed at clones of the public RunWhen collections and Robot
/// Framework's output for them (see README, "Checking the parser"):
/// `REGISTRY_CHAT_RF_CORPORA=/tmp/corpora cargo test --release -- --ignored`.
#[test]
#[ignore]
fn task_lists_equal_robot_framework_on_the_public_collections() {
    let root =
        PathBuf::from(std::env::var("REGISTRY_CHAT_RF_CORPORA").expect("REGISTRY_CHAT_RF_CORPORA"));
    let expected: BTreeMap<String, serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(root.join("rf-tasks.json")).unwrap())
            .unwrap();
    let mut names: Vec<String> = std::fs::read_dir(&root)
        .unwrap()
        .flatten()
        .filter(|e| e.path().join("codebundles").is_dir())
        .map(|e| e.file_name().to_string_lossy().to_string())
        .collect();
    names.sort();
    let dir = tempfile::tempdir().unwrap();
    let db = open(dir.path());
    let req = IndexRequest {
        collections: names.iter().map(|n| collection(n, &root.join(n))).collect(),
        docs: vec![],
    };
    index(&db, dir.path(), &req);
    let bundles = db
        .read_blocking(|c| catalog::bundles(c, &Default::default()))
        .unwrap();
    let mut ours: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for b in &bundles {
        for t in b.tasks.iter().chain(&b.slis) {
            ours.entry(format!(
                "{}/{}/{}",
                b.collection,
                b.slug,
                t.file.rsplit('/').next().unwrap()
            ))
            .or_default()
            .push(t.name.clone());
        }
    }
    let mut diffs = Vec::new();
    for (key, v) in &expected {
        let want: Vec<String> = v["tasks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap().to_string())
            .collect();
        if ours.get(key).cloned().unwrap_or_default() != want {
            diffs.push(key.clone());
        }
    }
    assert!(diffs.is_empty(), "{} files differ: {diffs:?}", diffs.len());
}

#[test]
fn keywords_no_collection_ships_are_known_from_their_calls() {
    let dir = tempfile::tempdir().unwrap();
    let db = open(dir.path());
    let req = ingest::sample_request(dir.path()).unwrap();
    index(&db, dir.path(), &req);
    let read = |db: &Db| {
        db.read_blocking(|c| {
            let external: Vec<(String, String, String, String, i64)> = c
                .prepare("SELECT library, name, args, file, line FROM keywords WHERE external = 1 ORDER BY 1, 2")?
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)))?
                .collect::<Result<_, _>>()?;
            let uses: Vec<(String, String, String, i64)> = c
                .prepare(
                    "SELECT co.root, k.name, u.file, u.line FROM keyword_uses u JOIN keywords k ON k.id = u.keyword_id
                     JOIN bundles b ON b.id = u.bundle_id JOIN collections co ON co.id = b.collection_id
                     WHERE k.library = 'RW.Core' ORDER BY 1, 2, 3, 4",
                )?
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
                .collect::<Result<_, _>>()?;
            Ok((external, uses))
        })
        .unwrap()
    };
    let (external, uses) = read(&db);
    // RW.Core comes with the runtime: no sample collection ships it.
    let push = external
        .iter()
        .find(|k| k.0 == "RW.Core" && k.1 == "Push Metric")
        .expect("RW.Core.Push Metric derived from its calls");
    assert!(
        push.2.contains("sub_name="),
        "arguments callers pass: {}",
        push.2
    );
    assert!(push.3.ends_with("sli.robot") && push.4 > 0, "{push:?}");
    // With no source, what callers pass says what it is for.
    let secret_doc: String = db
        .read_blocking(|c| {
            Ok(c.query_row(
                "SELECT doc FROM keywords WHERE library = 'RW.Core' AND name = 'Import Secret'",
                [],
                |r| r.get(0),
            )?)
        })
        .unwrap();
    assert!(
        secret_doc.contains("Called with: kubeconfig; aws credentials; azure credentials")
            && secret_doc
                .contains("Described as: Kubeconfig with read access to the target cluster.")
            && secret_doc.contains("Service principal credentials"),
        "{secret_doc}"
    );
    // Every use points at a line that really calls the keyword.
    assert!(uses.len() > 50, "{}", uses.len());
    for (root, name, file, line) in uses.iter().take(200) {
        let text = std::fs::read_to_string(Path::new(root).join(file)).unwrap();
        let at = text.lines().nth(*line as usize - 1).unwrap_or_default();
        assert!(
            at.to_lowercase().contains(&name.to_lowercase()),
            "{file}:{line} is `{at}`, not a call of {name}"
        );
    }
    // A reindex derives the same set, no duplicates.
    index(&db, dir.path(), &req);
    assert_eq!(read(&db).0, external);
}

/// A collection shipping the Python keyword library `RW.Shell` with `source`.
fn shell_library(root: &Path, source: &str) {
    write_file(root, "libraries/RW/__init__.py", "");
    write_file(
        root,
        "libraries/RW/Shell/__init__.py",
        "from .shell import *\n",
    );
    write_file(root, "libraries/RW/Shell/shell.py", source);
}

/// A command run through a bundle's variable is the program the variable defaults
/// to: `${KUBE_BIN} get pods` with `default=kubectl` runs kubectl, which is the
/// word a question about running kubectl shares with the keyword. (Five callers:
/// fewer make no usage chunk.)
#[test]
fn a_command_variable_runs_the_program_it_defaults_to() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("demo");
    shell_library(
        &root,
        "def run_line(cmd: str):\n    \"\"\"Executes a line.\"\"\"\n    return None\n",
    );
    for i in 0..5 {
        write_file(
            &root,
            &format!("codebundles/check-{i}/runbook.robot"),
            &format!(
                "*** Settings ***\nDocumentation    Checks {i}.\nLibrary    RW.Shell\nLibrary    RW.Core\nSuite Setup    Suite Initialization\n\n\
                 *** Tasks ***\nCheck {i}\n    RW.Shell.Run Line    cmd=${{KUBE_BIN}} get pods\n\n\
                 *** Keywords ***\nSuite Initialization\n    ${{KUBE_BIN}}=    RW.Core.Import User Variable    KUBE_BIN\n    \
                 ...    type=string\n    ...    description=Which binary runs cluster commands.\n    ...    default=kubectl\n"
            ),
        );
    }
    let data = dir.path().join("data");
    let db = open(dir.path());
    let req = IndexRequest {
        collections: vec![collection("demo", &root)],
        docs: vec![],
    };
    index(&db, &data, &req);
    let usage: String = db
        .read_blocking(|c| {
            Ok(c.query_row(
                "SELECT embed_text FROM chunks WHERE kind = 'keyword_usage'",
                [],
                |r| r.get(0),
            )?)
        })
        .unwrap();
    assert!(usage.ends_with("Runs commands such as kubectl."), "{usage}");
}

/// A shipped keyword that several bundles call gets a second chunk saying how
/// they call it: what they pass and which fields of its result they read. One
/// caller is no consensus, and a reindex replaces the chunks rather than adding.
#[test]
fn how_bundles_call_a_shipped_keyword_is_indexed_beside_its_docstring() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("demo");
    shell_library(
        &root,
        "def run_line(cmd: str, env: dict = None):\n    \"\"\"Executes a line.\"\"\"\n    return None\n\n\
         def tidy(text: str):\n    \"\"\"Tidies text.\"\"\"\n    return text\n",
    );
    for i in 0..5 {
        let tidy = if i == 0 {
            "    RW.Shell.Tidy    x\n"
        } else {
            ""
        };
        write_file(
            &root,
            &format!("codebundles/check-{i}/runbook.robot"),
            &format!(
                "*** Settings ***\nDocumentation    Checks {i}.\nLibrary    RW.Shell\n\n*** Tasks ***\nCheck {i}\n    \
                 ${{out}}=    RW.Shell.Run Line    cmd=date    env=${{env}}\n    Log    ${{out.stdout}}\n{tidy}"
            ),
        );
    }
    let data = dir.path().join("data");
    let db = open(dir.path());
    let req = IndexRequest {
        collections: vec![collection("demo", &root)],
        docs: vec![],
    };
    let usage = |db: &Db| {
        db.read_blocking(|c| {
            Ok(c.prepare(
                "SELECT k.name, ch.embed_text FROM chunks ch JOIN keywords k ON k.id = ch.keyword_id
                 WHERE ch.kind = 'keyword_usage' ORDER BY 1",
            )?
            .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?
            .collect::<Result<Vec<_>, _>>()?)
        })
        .unwrap()
    };
    index(&db, &data, &req);
    let found = usage(&db);
    assert_eq!(
        found,
        vec![(
            "Run Line".to_string(),
            "Run Line (keyword in library RW.Shell). Called with: cmd=, env=. \
             Callers read from its result: stdout. Runs commands such as date."
                .to_string()
        )]
    );
    // One more caller changes the evidence; the run replaces the chunk.
    write_file(
        &root,
        "codebundles/check-5/runbook.robot",
        "*** Settings ***\nDocumentation    Checks 5.\nLibrary    RW.Shell\n\n*** Tasks ***\nCheck 5\n    \
         ${r}=    RW.Shell.Run Line    cmd=uptime    timeout=5\n    Log    ${r.returncode}\n",
    );
    index(&db, &data, &req);
    let found = usage(&db);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].1.contains("Called with: cmd=, env=, timeout=.")
            && found[0]
                .1
                .contains("read from its result: stdout, returncode."),
        "{found:?}"
    );
}

#[test]
fn git_sources_work_under_a_relative_data_dir() {
    // The default data dir is `./data`: git runs inside the repository, so the
    // staging checkout must not be placed relative to it.
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("upstream");
    copy_dir(&samples().join("collections/platform-ops"), &repo);
    git(&repo, &["init", "--quiet", "--initial-branch", "main"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "--quiet", "-m", "first"]);
    let cwd = std::env::current_dir().unwrap();
    let here = tempfile::tempdir_in(&cwd).unwrap();
    let data = here.path().strip_prefix(&cwd).unwrap().join("data");
    assert!(data.is_relative());
    let db = open(here.path());
    let req = IndexRequest {
        collections: vec![CollectionSource {
            name: "platform-ops".into(),
            location: Location::Git {
                url: format!("file://{}", repo.display()),
                reference: Some("main".into()),
            },
        }],
        docs: vec![],
    };
    let report = index(&db, &data, &req);
    assert_eq!(report.collections[0].bundles, 16);
    let live = data.join("collections/platform-ops");
    assert!(
        live.join("codebundles/vault-server-health/runbook.robot")
            .is_file()
    );
    assert!(
        !live.join("data").exists(),
        "nothing staged inside the checkout"
    );
    assert!(!data.join("collections/platform-ops.next").exists());
}

/// A bundle with one task, for tests about everything around bundles.
const ONE_TASK: &str =
    "*** Settings ***\nDocumentation    Checks x.\n\n*** Tasks ***\nCheck X\n    Log    ok\n";

fn write_file(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// Indexes the collection at `root` into a fresh database; its doc sections as
/// (path, anchor).
fn doc_anchors_after_indexing(name: &str, root: &Path) -> Vec<(String, String)> {
    let data = tempfile::tempdir().unwrap();
    let db = open(data.path());
    let req = IndexRequest {
        collections: vec![collection(name, root)],
        docs: vec![],
    };
    index(&db, data.path(), &req);
    db.read_blocking(|c| {
        let mut st = c.prepare("SELECT path, anchor FROM docs ORDER BY path, anchor")?;
        let v = st
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?;
        Ok(v)
    })
    .unwrap()
}

#[test]
fn authoring_rules_files_are_documentation() {
    let root = tempfile::tempdir().unwrap();
    let write = |rel: &str, text: &str| write_file(root.path(), rel, text);
    write("codebundles/x-health/runbook.robot", ONE_TASK);
    write(
        "codebundles/.cursorrules",
        "# Codebundle rules\n\n## Common Files\n- runbook.robot and README.md\n\nDo not create `meta.yaml` files.\n",
    );
    write(
        ".cursorrules",
        "# Repository rules\n\n## Commits\nSign them.\n",
    );
    // Other dotfiles stay out.
    write("codebundles/.secrets", "# Not docs\n\ntext\n");
    let docs = doc_anchors_after_indexing("rules", root.path());
    assert!(
        docs.contains(&("codebundles/.cursorrules".into(), "common-files".into())),
        "{docs:?}"
    );
    assert!(
        docs.contains(&(".cursorrules".into(), "commits".into())),
        "{docs:?}"
    );
    assert!(docs.iter().all(|(p, _)| p != "codebundles/.secrets"));
}

/// Markdown in any top-level folder is documentation (a library folder's coding
/// conventions, examples, a test suite's README); code beside it and markdown in
/// hidden or junk folders are not.
#[test]
fn markdown_in_every_top_level_folder_is_documentation() {
    let root = tempfile::tempdir().unwrap();
    let write = |rel: &str, text: &str| write_file(root.path(), rel, text);
    write("codebundles/x-health/runbook.robot", ONE_TASK);
    write(
        "libraries/README.md",
        "# Coding Conventions\n\n## Core vs Utils\nCore comes from the platform.\n",
    );
    write("libraries/RW/X/x.py", "def helper():\n    pass\n");
    write(
        "examples/README.md",
        "# Examples\n\n## Issue JSON format\nWrite issues.json.\n",
    );
    write(
        "tests/contract/README.md",
        "# Contract tests\n\n## Run\nmake test\n",
    );
    write("docs/guide.md", "# Guide\n\n## Setup\nInstall it.\n");
    write(
        "examples/node_modules/pkg/README.md",
        "# Vendored\n\ntext\n",
    );
    write(
        "venv/lib/site-packages/pkg/README.md",
        "# Vendored\n\ntext\n",
    );
    write(".github/README.md", "# Hidden\n\ntext\n");
    let docs = doc_anchors_after_indexing("folders", root.path());
    for (path, anchor) in [
        ("libraries/README.md", "core-vs-utils"),
        ("examples/README.md", "issue-json-format"),
        ("tests/contract/README.md", "run"),
        ("docs/guide.md", "setup"),
    ] {
        assert!(
            docs.contains(&(path.into(), anchor.into())),
            "{path}#{anchor} missing: {docs:?}"
        );
    }
    assert!(
        docs.iter().all(|(p, _)| !p.contains("node_modules")
            && !p.starts_with("venv/")
            && !p.starts_with(".github")),
        "{docs:?}"
    );
}
