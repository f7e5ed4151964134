//! The three embedders: MiniLM on the real model files, the hash embedder, and an
//! OpenAI-compatible endpoint through a scripted server on loopback.

mod common;

use common::scripted::{Reply, Scripted};
use registry_chat::config::{EmbedderConfig, LlmProvider, Secret};
use registry_chat::index::embed::{Embedder, HashEmbedder, MiniLm, OpenAiEmbedder, Purpose};
use serde_json::json;
use std::path::PathBuf;

/// Installed by scripts/setup; tests fail (not skip) without it.
fn model_dir() -> PathBuf {
    std::env::var_os("REGISTRY_CHAT_EMBEDDER_MODEL_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../data/models/all-MiniLM-L6-v2"
            ))
        })
}

fn cos(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn texts(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[tokio::test]
async fn minilm_puts_paraphrases_close_and_unrelated_text_far() {
    let m = MiniLm::load(&model_dir()).expect("MiniLM files (run scripts/setup)");
    let input = texts(&[
        "The pods in the payments namespace keep restarting",
        "Containers in payments are crash looping over and over",
        "How do I bake sourdough bread at home?",
        "Our TLS certificate expires next week",
        "The HTTPS cert for the website is about to run out",
    ]);
    let v = m.embed(&input, Purpose::Passage).await.unwrap();
    assert_eq!(v.len(), 5);
    for x in &v {
        assert_eq!(x.len(), 384);
        assert!((cos(x, x) - 1.0).abs() < 1e-4, "unit length");
    }
    let para1 = cos(&v[0], &v[1]);
    let para2 = cos(&v[3], &v[4]);
    let unrelated = cos(&v[0], &v[2]).max(cos(&v[3], &v[2]));
    assert!(para1 > 0.5 && para2 > 0.5, "paraphrases {para1} {para2}");
    assert!(unrelated < 0.2, "unrelated {unrelated}");
    assert!(para1 - unrelated > 0.35);
}

#[tokio::test]
async fn minilm_batching_and_padding_do_not_change_vectors() {
    let m = MiniLm::load(&model_dir()).unwrap();
    let long = "word ".repeat(400);
    let input = texts(&[
        "short one",
        "a considerably longer sentence about nodes running out of disk space",
        &long,
    ]);
    // Counters only grow (other tests in this binary embed too).
    let pieces = |kind: &str| {
        registry_chat::metrics::METRICS
            .embed_pieces
            .with_label_values(&["document", kind])
            .get()
    };
    let (text, padding) = (pieces("text"), pieces("padding"));
    let batch = m.embed(&input, Purpose::Passage).await.unwrap();
    // The pass's work shows in `/metrics`: the short texts were padded to the long one.
    // The long text is cut to 256 pieces; the two short ones pad to it.
    assert!(pieces("text") >= text + 256 && pieces("padding") >= padding + 400);
    for (i, t) in input.iter().enumerate() {
        let alone = m
            .embed(std::slice::from_ref(t), Purpose::Passage)
            .await
            .unwrap();
        let d = cos(&batch[i], &alone[0]);
        assert!(d > 0.9999, "text {i}: {d}");
    }
}

#[tokio::test]
async fn hash_embedder_is_deterministic_and_unit_length() {
    let h = HashEmbedder;
    let v = h
        .embed(
            &texts(&[
                "CrashLoopBackOff in payments",
                "crash loop back off payments",
            ]),
            Purpose::Query,
        )
        .await
        .unwrap();
    assert!((cos(&v[0], &v[0]) - 1.0).abs() < 1e-4);
    assert!(
        cos(&v[0], &v[1]) > 0.3,
        "identifier parts match their spelled-out words"
    );
    assert_eq!(h.id(), "hash-v1-384");
}

fn openai_config(url: &str) -> EmbedderConfig {
    EmbedderConfig {
        base_url: Some(format!("{url}/v1")),
        model: Some("text-embed-test".into()),
        api_key: Some(Secret::new("sk-test")),
        batch_size: 2,
        max_retries: 3,
        ..EmbedderConfig::default()
    }
}

#[tokio::test]
async fn openai_embeddings_batch_retry_and_reorder() {
    let server = Scripted::start(vec![
        Reply::Json {
            status: 429,
            body: json!({"error": {"message": "slow down"}}),
            headers: vec![("retry-after".into(), "0".into())],
        },
        // out of order on purpose: `index` says which input each vector is for
        Reply::ok(json!({"data": [{"index": 1, "embedding": [0.0, 2.0]}, {"index": 0, "embedding": [3.0, 0.0]}], "model": "x", "usage": {}})),
        Reply::ok(json!({"data": [{"embedding": [0.0, 0.0, 5.0]}]})),
    ])
    .await;
    let e = OpenAiEmbedder::new(&openai_config(&server.url)).unwrap();
    let v = e
        .embed(&texts(&["a", "b", "c"]), Purpose::Passage)
        .await
        .unwrap();
    assert_eq!(
        v,
        vec![vec![1.0, 0.0], vec![0.0, 1.0], vec![0.0, 0.0, 1.0]],
        "ordered by index and normalised"
    );
    let reqs = server.requests();
    assert_eq!(reqs.len(), 3, "one 429, then two batches");
    assert_eq!(reqs[0].path, "/v1/embeddings");
    assert_eq!(reqs[1].body["input"], json!(["a", "b"]));
    assert_eq!(reqs[1].body["model"], "text-embed-test");
    assert_eq!(reqs[2].body["input"], json!(["c"]));
    assert_eq!(reqs[0].headers["authorization"], "Bearer sk-test");
    assert_eq!(e.id(), "openai-text-embed-test");
}

#[tokio::test]
async fn openai_embeddings_give_up_with_a_clear_error() {
    let server = Scripted::start(vec![Reply::status(500, json!({"error": "boom"}))]).await;
    let mut cfg = openai_config(&server.url);
    cfg.max_retries = 1;
    let e = OpenAiEmbedder::new(&cfg).unwrap();
    let err = e
        .embed(&texts(&["a"]), Purpose::Query)
        .await
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("after 2 attempts") && err.contains("HTTP 500"),
        "{err}"
    );
    assert_eq!(server.requests().len(), 2);

    let bad = Scripted::start(vec![Reply::ok(json!({"data": [{"embedding": []}]}))]).await;
    let e = OpenAiEmbedder::new(&openai_config(&bad.url)).unwrap();
    assert!(
        e.embed(&texts(&["a"]), Purpose::Query).await.is_err(),
        "empty vectors are refused"
    );
    let wrong = Scripted::start(vec![Reply::ok(json!({"nope": 1}))]).await;
    let e = OpenAiEmbedder::new(&openai_config(&wrong.url)).unwrap();
    assert!(
        e.embed(&texts(&["a"]), Purpose::Query)
            .await
            .unwrap_err()
            .to_string()
            .contains("unreadable")
    );
}

#[tokio::test]
async fn azure_embeddings_use_the_deployment_url_and_api_key_header() {
    let server = Scripted::start(vec![Reply::ok(
        json!({"data": [{"index": 0, "embedding": [1.0]}]}),
    )])
    .await;
    let cfg = EmbedderConfig {
        provider: LlmProvider::Azure,
        base_url: Some(server.url.clone()),
        deployment: Some("embed-dep".into()),
        api_version: Some("2024-06-01".into()),
        api_key: Some(Secret::new("azure-key")),
        ..EmbedderConfig::default()
    };
    let e = OpenAiEmbedder::new(&cfg).unwrap();
    e.embed(&texts(&["x"]), Purpose::Query).await.unwrap();
    let r = &server.requests()[0];
    assert_eq!(r.path, "/openai/deployments/embed-dep/embeddings");
    assert_eq!(r.query.as_deref(), Some("api-version=2024-06-01"));
    assert_eq!(r.headers["api-key"], "azure-key");
    assert!(r.headers.get("authorization").is_none());
    assert!(r.body.get("model").is_none());
}

/// Components 0, 24, 48, … of the vectors candle-transformers' `BertModel` gave for
/// these texts (it matches sentence-transformers to 1.5·10⁻⁷), before the binary
/// ran its own encoder: the encoder must give the same vectors.
#[tokio::test]
async fn minilm_matches_the_reference_bert_vectors() {
    const REFERENCE: [[f32; 16]; 3] = [
        [
            0.054760, 0.048561, 0.035447, 0.021844, 0.010722, 0.045332, -0.076480, 0.025863,
            0.001190, -0.061763, -0.049139, 0.066458, 0.043571, 0.027080, -0.012695, -0.016567,
        ],
        [
            -0.080166, -0.106370, -0.007465, 0.005241, -0.040547, -0.045316, -0.069929, 0.020859,
            0.047170, -0.024730, -0.065214, 0.028214, 0.038381, 0.027402, -0.050665, 0.005110,
        ],
        [
            0.015632, 0.021961, -0.020029, -0.075120, 0.012968, 0.024204, -0.004374, -0.085978,
            0.000590, -0.030991, 0.056025, 0.021803, 0.011658, -0.009591, -0.024546, -0.071160,
        ],
    ];
    let m = MiniLm::load(&model_dir()).unwrap();
    let long = "the node pool ran out of disk space while the kubelet evicted pods ".repeat(30);
    let input = texts(&[
        "pods in payments keep restarting",
        "How do I rotate a TLS certificate for the ingress controller in a namespace?",
        &long,
    ]);
    let passages = m.embed(&input, Purpose::Passage).await.unwrap();
    let query = m.embed(&input[..1], Purpose::Query).await.unwrap();
    for (v, want) in passages.iter().chain(&query).zip(REFERENCE.iter().cycle()) {
        for (k, w) in want.iter().enumerate() {
            let got = v[k * 24];
            assert!((got - w).abs() < 2e-6, "component {}: {got} vs {w}", k * 24);
        }
    }
}
