//! The real `registry-chat` binary: configuration handling and the serve lifecycle.

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use common::binary as bin;

fn run(cmd: &mut Command) -> (bool, String, String) {
    let out = cmd.output().expect("run registry-chat");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn config_prints_effective_settings_with_secrets_masked() {
    let dir = tempfile::tempdir().unwrap();
    let (ok, out, err) = run(bin()
        .args(["config", "--json", "--data-dir"])
        .arg(dir.path())
        .env("REGISTRY_CHAT_LLM_BASE_URL", "http://127.0.0.1:11434/v1")
        .env("REGISTRY_CHAT_LLM_MODEL", "llama3")
        .env("REGISTRY_CHAT_LLM_API_KEY", "sk-supersecret-123")
        .env("REGISTRY_CHAT_ADMIN_TOKEN", "0123456789012345678"));
    assert!(ok, "{err}");
    assert!(!out.contains("sk-supersecret") && !err.contains("sk-supersecret"));
    assert!(
        !out.contains("0123456789012345678"),
        "numeric-looking token is still masked"
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["llm"]["model"], "llama3");
    assert_eq!(v["llm"]["api_key"], "********");
    assert_eq!(v["admin"]["token"], "********");
    assert_eq!(v["data_dir"], dir.path().to_str().unwrap());
}

#[test]
fn flags_beat_env_which_beats_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("rc.toml");
    std::fs::write(
        &file,
        "[server]\naddr = \"127.0.0.1:4001\"\n[llm]\ntemperature = 0.5\nmax_tokens = 10\n",
    )
    .unwrap();
    let (ok, out, err) = run(bin()
        .args(["--config"])
        .arg(&file)
        .arg("--data-dir")
        .arg(dir.path())
        .args(["config", "--json"])
        .env("REGISTRY_CHAT_LLM_MAX_TOKENS", "20"));
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["server"]["addr"], "127.0.0.1:4001", "from the file");
    assert_eq!(v["llm"]["temperature"], 0.5, "from the file");
    assert_eq!(v["llm"]["max_tokens"], 20, "env beats the file");
}

#[test]
fn wrong_settings_fail_with_the_setting_its_source_and_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let (ok, _, err) = run(bin()
        .arg("--data-dir")
        .arg(dir.path())
        .arg("config")
        .env("REGISTRY_CHAT_LLM_BASE_URL", "htp:/nowhere")
        .env("REGISTRY_CHAT_LLM_MODEL", "m")
        .env("REGISTRY_CHAT_LLM_TEMPERATURE", "7")
        .env("REGISTRY_CHAT_ADMIN_TOKEN", "short")
        .env("REGISTRY_CHAT_DATABASE_URL", "mysql://root:hunter2@db/chat")
        .env(
            "REGISTRY_CHAT_LLM_CA_FILE",
            dir.path().join("missing-ca.pem"),
        ));
    assert!(!ok);
    assert!(
        err.contains("llm.ca_file") && err.contains("cannot read the file"),
        "{err}"
    );
    assert!(err.contains("llm.base_url"), "{err}");
    assert!(err.contains("REGISTRY_CHAT_"), "names the source: {err}");
    assert!(err.contains("scheme must be http or https"), "{err}");
    assert!(
        err.contains("llm.temperature") && err.contains("between 0 and 2"),
        "{err}"
    );
    assert!(
        err.contains("admin.token") && !err.contains("short\""),
        "token value is masked: {err}"
    );
    assert!(
        err.contains("database.url") && err.contains("only `postgres://"),
        "{err}"
    );
    assert!(
        !err.contains("hunter2"),
        "the URL's password is masked: {err}"
    );
}

/// A Postgres that does not answer stops `serve` with a message naming the
/// setting's effect, and never the password in the URL.
#[test]
fn an_unreachable_postgres_fails_serve_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let (ok, _, err) = run(bin()
        .args(["serve", "--addr", "127.0.0.1:0", "--data-dir"])
        .arg(dir.path())
        .env(
            "REGISTRY_CHAT_DATABASE_URL",
            format!("postgres://chat:hunter2@127.0.0.1:{port}/chat?connect_timeout=2"),
        ));
    assert!(!ok);
    assert!(err.contains("postgres"), "{err}");
    assert!(!err.contains("hunter2"), "{err}");
}

#[test]
fn an_unusable_data_dir_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let blocker = dir.path().join("file");
    std::fs::write(&blocker, "not a dir").unwrap();
    let (ok, _, err) = run(bin()
        .arg("--data-dir")
        .arg(blocker.join("sub"))
        .arg("config"));
    assert!(!ok);
    assert!(
        err.contains("data_dir") && err.contains("cannot create the directory"),
        "{err}"
    );
}

#[test]
fn malformed_or_unknown_toml_is_reported_with_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("rc.toml");
    std::fs::write(&file, "[server]\nadress = \"x\"\n").unwrap();
    let (ok, _, err) = run(bin()
        .arg("--config")
        .arg(&file)
        .arg("--data-dir")
        .arg(dir.path())
        .arg("config"));
    assert!(!ok);
    assert!(err.contains("adress"), "{err}");

    std::fs::write(&file, "[server]\naddr = \"not an address\"\n").unwrap();
    let (ok, _, err) = run(bin()
        .arg("--config")
        .arg(&file)
        .arg("--data-dir")
        .arg(dir.path())
        .arg("config"));
    assert!(!ok);
    assert!(
        err.contains("server.addr") && err.contains("rc.toml"),
        "{err}"
    );

    let (ok, _, err) = run(bin()
        .arg("--config")
        .arg(dir.path().join("missing.toml"))
        .arg("config"));
    assert!(!ok);
    assert!(err.contains("does not exist"), "{err}");
}

#[test]
fn every_setting_is_listed_and_documented_in_the_readme() {
    let (ok, out, err) = run(bin()
        .args(["config", "--list", "--data-dir"])
        .arg(tempfile::tempdir().unwrap().path()));
    assert!(ok, "{err}");
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")).unwrap();
    for doc in registry_chat::config::setting_docs() {
        assert!(
            out.contains(&doc.env_var()),
            "config --list shows {}",
            doc.key
        );
        assert!(
            readme.contains(&format!("`{}`", doc.env_var())),
            "README documents {}",
            doc.env_var()
        );
    }
}

/// `serve` on a free port, and the URL it prints (without the trailing `/`).
fn serve(data_dir: &std::path::Path) -> (std::process::Child, String) {
    common::spawn_serve(
        bin()
            .args(["serve", "--addr", "127.0.0.1:0", "--data-dir"])
            .arg(data_dir),
    )
}

#[test]
fn serve_prints_its_url_answers_and_stops_cleanly_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let (mut child, url) = serve(dir.path());

    let rt = tokio::runtime::Runtime::new().unwrap();
    let health: serde_json::Value = rt.block_on(async {
        reqwest::get(format!("{url}/health"))
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    });
    assert_eq!(health["status"], "ok");

    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let started = Instant::now();
    let exit = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(
            started.elapsed() < Duration::from_secs(15),
            "did not stop after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(exit.success(), "exit status after SIGTERM: {exit:?}");
    assert!(dir.path().join("registry-chat.db").is_file());
}

#[test]
fn index_status_bundles_and_show_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap().to_string();
    let cli = |args: &[&str]| run(bin().args(["--data-dir", &data]).args(args));

    let (ok, out, err) = cli(&["index", "--quiet"]);
    assert!(ok, "{err}");
    assert!(
        out.contains("Indexed 3 collections and 1 doc sets"),
        "{out}"
    );
    assert!(out.contains("Total: 54 bundles"), "{out}");
    let (ok, out, _) = cli(&["index"]);
    assert!(ok && out.contains("Nothing changed"), "{out}");
    let (ok, _, err) = cli(&["index", "--if-empty"]);
    assert!(ok && err.contains("already has 3 collections"), "{err}");

    let (ok, out, err) = cli(&["status", "--json"]);
    assert!(ok, "{err}");
    let status: serde_json::Value = serde_json::from_str(&out).unwrap();
    let cols = status["collections"].as_array().unwrap();
    assert_eq!(cols.len(), 3);
    for c in cols {
        for key in [
            "name",
            "bundles",
            "tasks",
            "slis",
            "docs",
            "keywords",
            "warnings",
            "commit",
            "indexed_at",
        ] {
            assert!(c.get(key).is_some(), "status JSON has {key}: {c}");
        }
        assert_eq!(c["stale"], serde_json::json!([]));
    }
    assert_eq!(status["index"]["state"], "ready");

    let (ok, out, _) = cli(&["bundles", "--json", "--collection", "kube-ops"]);
    assert!(ok);
    let bundles: serde_json::Value = serde_json::from_str(&out).unwrap();
    let list = bundles.as_array().unwrap();
    assert_eq!(list.len(), 20);
    for b in list {
        for key in [
            "collection",
            "slug",
            "display_name",
            "platform",
            "access",
            "resource_types",
            "tasks",
            "slis",
        ] {
            assert!(b.get(key).is_some(), "bundles JSON has {key}");
        }
    }
    let t = &list
        .iter()
        .find(|b| b["slug"] == "k8s-pod-crashloop-triage")
        .unwrap()["tasks"][0];
    assert!(t["name"].is_string() && t["doc"].is_string() && t["tags"].is_array());

    let (ok, out, _) = cli(&["show", "kube-ops/k8s-pod-crashloop-triage"]);
    assert!(ok);
    assert!(
        out.contains("Tasks (runbook)")
            && out.contains("Variables:")
            && out.contains("RW.KubeTriage"),
        "{out}"
    );
    let (ok, _, err) = cli(&["show", "kube-ops/no-such-bundle"]);
    assert!(
        !ok && err.contains("no bundle kube-ops/no-such-bundle"),
        "{err}"
    );
    let (ok, _, err) = cli(&["index", "--collection", "/definitely/not/here"]);
    assert!(!ok && err.contains("not a directory"), "{err}");
    let (ok, out, _) = cli(&["status"]);
    assert!(
        ok && out.contains("Index: ready"),
        "a failed run keeps the catalog: {out}"
    );
}

#[test]
fn search_and_eval_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap().to_string();
    let cli = |args: &[&str]| {
        run(bin()
            .args(["--data-dir", &data])
            .env("REGISTRY_CHAT_EMBEDDER_KIND", "hash")
            .args(args))
    };
    let (ok, out, err) = cli(&["index", "--quiet"]);
    assert!(ok, "{err}");
    assert!(
        out.contains("Embedded") && out.contains("hash-v1-384"),
        "{out}"
    );

    let (ok, out, err) = cli(&[
        "search",
        "pods keep getting OOMKilled",
        "--json",
        "--k",
        "3",
    ]);
    assert!(ok, "{err}");
    let r: serde_json::Value = serde_json::from_str(&out).unwrap();
    let bundles = r["bundles"].as_array().unwrap();
    assert_eq!(bundles.len(), 3);
    assert_eq!(bundles[0]["key"], "kube-ops/k8s-pod-crashloop-triage");
    assert!(
        bundles
            .iter()
            .all(|b| (0.0..=1.0).contains(&b["score"].as_f64().unwrap()))
    );
    assert!(
        bundles[0]["signals"]["fired"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f == "bm25")
    );
    assert!(r["docs"].is_array() && r["keywords"].is_array() && r["no_match"] == false);
    let (ok, out, _) = cli(&[
        "search",
        "oracle tablespace almost full",
        "--platform",
        "aws",
    ]);
    assert!(ok && out.contains("No good match"), "{out}");
    let (ok, _, err) = cli(&["search", "   "]);
    assert!(!ok && err.contains("empty"), "{err}");

    let golden = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../samples/golden/sample.jsonl"
    );
    let (ok, out, err) = cli(&["eval", "--golden", golden, "--json"]);
    assert!(ok, "{err}");
    let rep: serde_json::Value = serde_json::from_str(&out).unwrap();
    for key in [
        "n",
        "recall@1",
        "recall@5",
        "recall@10",
        "mrr@10",
        "ndcg@10",
        "no_match_accuracy",
        "meta_accuracy",
        "p50_ms",
        "p95_ms",
    ] {
        assert!(rep["overall"].get(key).is_some(), "overall.{key}");
    }
    assert!(rep["by_category"]["no-match"]["no_match_accuracy"].is_number());
    let q = &rep["questions"][0];
    for key in ["id", "hit_rank", "top", "no_match", "ms"] {
        assert!(q.get(key).is_some(), "questions[].{key}");
    }
    assert!(
        rep["overall"]["recall@5"].as_f64().unwrap() > 0.7,
        "even the hash embedder finds most"
    );

    let bad = dir.path().join("bad.jsonl");
    std::fs::write(
        &bad,
        "{\"id\":\"a\",\"question\":\"x\",\"category\":\"general\",\"expected\":[]}\n{not json}\n",
    )
    .unwrap();
    let (ok, _, err) = cli(&["eval", "--golden", bad.to_str().unwrap()]);
    assert!(!ok && err.contains("bad.jsonl:2"), "{err}");
    std::fs::write(
        &bad,
        "{\"id\":\"a\",\"question\":\"x\",\"category\":\"weird\"}\n",
    )
    .unwrap();
    let (ok, _, err) = cli(&["eval", "--golden", bad.to_str().unwrap()]);
    assert!(!ok && err.contains("unknown category"), "{err}");
}

#[test]
fn shell_completions_need_no_configuration() {
    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef registry-chat"),
        ("fish", "complete -c registry-chat"),
    ] {
        // A broken setting does not stop completions from printing.
        let (ok, out, err) = run(bin()
            .args(["completions", shell])
            .env("REGISTRY_CHAT_SERVER_PORT_TYPO", "x")
            .env("REGISTRY_CHAT_LOG_LEVEL", "not-a-level"));
        assert!(ok, "{shell}: {err}");
        assert!(
            out.contains(marker),
            "{shell}: {}",
            &out[..out.len().min(200)]
        );
        for sub in ["serve", "index", "eval", "completions"] {
            assert!(out.contains(sub), "{shell} lacks {sub}");
        }
    }
    let (ok, _, err) = run(bin().args(["completions", "tcsh"]));
    assert!(!ok && err.contains("tcsh"), "{err}");
}

/// `bench load` drives real streams at a real server and checks its database;
/// the figures themselves are printed, never asserted.
#[test]
fn the_load_benchmark_streams_real_turns_and_finds_them_saved() {
    let dir = tempfile::tempdir().unwrap();
    let (ok, _, err) = run(bin().args(["index", "-q", "--data-dir"]).arg(dir.path()));
    assert!(ok, "{err}");
    // One address asks all the questions, more at once than the default allows:
    // lift the per-client rate and the streams limit.
    let (mut child, url) = common::spawn_serve(
        bin()
            .args(["serve", "--addr", "127.0.0.1:0", "--data-dir"])
            .arg(dir.path())
            .env("REGISTRY_CHAT_SERVER_TURNS_PER_MINUTE", "1000")
            .env("REGISTRY_CHAT_SERVER_MAX_CONCURRENT_TURNS", "64"),
    );
    let questions = dir.path().join("questions.txt");
    std::fs::write(
        &questions,
        "pods keep restarting\nis my TLS certificate about to expire?\n",
    )
    .unwrap();
    let db = dir.path().join("registry-chat.db");
    let (ok, out, err) = run(bin()
        .args([
            "bench",
            "load",
            // More streams than the turns the server lets compute at once (four
            // per core, up to 11 cores): the rest queue, and every one finishes.
            "--concurrency",
            "48",
            "--turns",
            "96",
            "--url",
            &url,
        ])
        .arg("--questions")
        .arg(&questions)
        .arg("--db")
        .arg(&db)
        .arg("--pid")
        .arg(child.id().to_string()));
    let _ = child.kill();
    let _ = child.wait();
    assert!(ok, "{err}");
    assert!(out.contains("96 done, 0 failed"), "{out}");
    for row in ["first byte", "first token", "done", "server RSS"] {
        assert!(out.contains(row), "no {row} row: {out}");
    }
    assert!(out.contains("saved: 96 of 96 completed turns"), "{out}");
}
