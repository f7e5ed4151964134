//! A scripted OpenAI-compatible server on 127.0.0.1: each request gets the next
//! reply from a script (the last one repeats), and every request is recorded.
//! Real HTTP, real SSE framing; only the model is fake.

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[derive(Clone, Debug)]
pub enum Reply {
    /// A complete JSON response.
    Json {
        status: u16,
        body: serde_json::Value,
        headers: Vec<(String, String)>,
    },
    /// A streamed `text/event-stream` body: (pause before, raw text) pieces.
    Stream(Vec<(Duration, String)>),
    /// A body streamed with this status (an error body that trickles forever).
    Trickle(u16, Vec<(Duration, String)>),
    /// Accept the request and never answer.
    Hang,
    /// Decide from the request body (a model that follows its prompts by rule).
    Respond(Responder),
}

#[derive(Clone)]
pub struct Responder(pub Arc<dyn Fn(&serde_json::Value) -> Reply + Send + Sync>);

impl std::fmt::Debug for Responder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Responder")
    }
}

impl Reply {
    pub fn ok(body: serde_json::Value) -> Reply {
        Reply::Json {
            status: 200,
            body,
            headers: vec![],
        }
    }

    pub fn status(status: u16, body: serde_json::Value) -> Reply {
        Reply::Json {
            status,
            body,
            headers: vec![],
        }
    }
}

#[derive(Clone, Debug)]
pub struct Recorded {
    pub path: String,
    pub query: Option<String>,
    pub headers: HeaderMap,
    pub body: serde_json::Value,
}

#[derive(Clone)]
struct Script {
    replies: Arc<Mutex<Vec<Reply>>>,
    seen: Arc<Mutex<Vec<Recorded>>>,
    open: Arc<std::sync::atomic::AtomicUsize>,
}

pub struct Scripted {
    pub url: String,
    seen: Arc<Mutex<Vec<Recorded>>>,
    open: Arc<std::sync::atomic::AtomicUsize>,
    task: tokio::task::JoinHandle<()>,
}

/// Counts a request as open until its handler (or its body stream) is dropped,
/// which happens when the client goes away.
struct Open(Arc<std::sync::atomic::AtomicUsize>);

impl Drop for Open {
    fn drop(&mut self) {
        self.0.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

type Seen = Arc<Mutex<Vec<Recorded>>>;
type OpenCount = Arc<std::sync::atomic::AtomicUsize>;

impl Scripted {
    /// The scripted routes, with handles on what they record.
    fn app(replies: Vec<Reply>) -> (Router, Seen, OpenCount) {
        let script = Script {
            replies: Arc::new(Mutex::new(replies)),
            seen: Arc::new(Mutex::new(Vec::new())),
            open: Arc::new(std::sync::atomic::AtomicUsize::new(0)),
        };
        let (seen, open) = (script.seen.clone(), script.open.clone());
        (
            Router::new().fallback(handle).with_state(script),
            seen,
            open,
        )
    }

    pub async fn start(replies: Vec<Reply>) -> Scripted {
        let (app, seen, open) = Self::app(replies);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let task = tokio::spawn(async move {
            axum::serve(listener, app).await.ok();
        });
        Scripted {
            url,
            seen,
            open,
            task,
        }
    }

    /// The same server over HTTPS with `cert` (a self-signed certificate for
    /// 127.0.0.1): a model server behind a private CA.
    #[allow(dead_code)]
    pub async fn start_tls(
        replies: Vec<Reply>,
        cert: &rcgen::CertifiedKey<rcgen::KeyPair>,
    ) -> Scripted {
        let (app, seen, open) = Self::app(replies);
        let key =
            rustls::pki_types::PrivateKeyDer::try_from(cert.signing_key.serialize_der()).unwrap();
        let tls = rustls::ServerConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(vec![cert.cert.der().clone()], key)
        .unwrap();
        let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(tls));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("https://{}", listener.local_addr().unwrap());
        let task = tokio::spawn(async move {
            while let Ok((tcp, _)) = listener.accept().await {
                let (acceptor, app) = (acceptor.clone(), app.clone());
                tokio::spawn(async move {
                    // A client that does not trust the certificate fails here.
                    let Ok(stream) = acceptor.accept(tcp).await else {
                        return;
                    };
                    let service = hyper_util::service::TowerToHyperService::new(app);
                    let _ = hyper_util::server::conn::auto::Builder::new(
                        hyper_util::rt::TokioExecutor::new(),
                    )
                    .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                    .await;
                });
            }
        });
        Scripted {
            url,
            seen,
            open,
            task,
        }
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.seen.lock().unwrap().clone()
    }

    /// Requests still being answered (a dropped client connection closes them).
    pub fn open_requests(&self) -> usize {
        self.open.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Reads a chat stream until the answer's request (the second: the first
    /// classifies) has reached the model, for tests that leave mid-answer.
    pub async fn read_until_answer_requested<S>(&self, body: &mut S)
    where
        S: futures::Stream + Unpin,
    {
        use futures::StreamExt;
        for _ in 0..100 {
            if self.requests().len() >= 2 {
                break;
            }
            let _ = tokio::time::timeout(Duration::from_millis(50), body.next()).await;
        }
    }

    /// Requests still open after up to 3 s of waiting for them to close.
    pub async fn open_after_leaving(&self) -> usize {
        let mut open = self.open_requests();
        for _ in 0..60 {
            if open == 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
            open = self.open_requests();
        }
        open
    }
}

impl Drop for Scripted {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn handle(State(s): State<Script>, req: axum::extract::Request) -> Response {
    s.open.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let guard = Open(s.open.clone());
    let (parts, body) = req.into_parts();
    let bytes: Bytes = axum::body::to_bytes(body, 10 * 1024 * 1024)
        .await
        .unwrap_or_default();
    s.seen.lock().unwrap().push(Recorded {
        path: parts.uri.path().to_string(),
        query: parts.uri.query().map(str::to_string),
        headers: parts.headers.clone(),
        body: serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null),
    });
    let mut reply = {
        let mut r = s.replies.lock().unwrap();
        if r.len() > 1 {
            r.remove(0)
        } else {
            r.first().cloned().unwrap_or(Reply::Hang)
        }
    };
    if let Reply::Respond(f) = &reply {
        let body: serde_json::Value = serde_json::from_slice(&bytes).unwrap_or_default();
        reply = (f.0)(&body);
    }
    match reply {
        Reply::Json {
            status,
            body,
            headers,
        } => {
            let mut res = (StatusCode::from_u16(status).unwrap(), axum::Json(body)).into_response();
            for (k, v) in headers {
                res.headers_mut().insert(
                    axum::http::HeaderName::from_bytes(k.as_bytes()).unwrap(),
                    v.parse().unwrap(),
                );
            }
            res
        }
        Reply::Trickle(status, pieces) => {
            let stream = futures::stream::unfold(
                (pieces.into_iter(), Some(guard)),
                |(mut it, g)| async move {
                    let (pause, text) = it.next()?;
                    tokio::time::sleep(pause).await;
                    Some((
                        Ok::<_, std::convert::Infallible>(Bytes::from(text)),
                        (it, g),
                    ))
                },
            );
            Response::builder()
                .status(status)
                .header("content-type", "application/json")
                .body(Body::from_stream(stream))
                .unwrap()
        }
        Reply::Stream(pieces) => {
            // The guard lives with the body: it drops when the stream ends or the
            // client disconnects.
            let stream = futures::stream::unfold(
                (pieces.into_iter(), Some(guard)),
                |(mut it, g)| async move {
                    let Some((pause, text)) = it.next() else {
                        drop(g);
                        return None;
                    };
                    tokio::time::sleep(pause).await;
                    Some((
                        Ok::<_, std::convert::Infallible>(Bytes::from(text)),
                        (it, g),
                    ))
                },
            );
            Response::builder()
                .header("content-type", "text/event-stream")
                .body(Body::from_stream(stream))
                .unwrap()
        }
        Reply::Respond(_) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            "responder returned a responder",
        )
            .into_response(),
        Reply::Hang => {
            let _guard = guard;
            std::future::pending::<()>().await;
            unreachable!()
        }
    }
}

/// SSE helpers for chat completions.
/// A model that writes "more " every 20 ms for 40 s: longer than any timeout in
/// the tests that use it.
pub fn endless_stream() -> Reply {
    Reply::Stream(
        (0..2000)
            .map(|_| (Duration::from_millis(20), sse::text("more ")))
            .collect(),
    )
}

pub mod sse {
    use super::Reply;
    use serde_json::{Value, json};
    use std::time::Duration;

    pub fn data(v: Value) -> String {
        format!("data: {v}\n\n")
    }

    pub fn text(t: &str) -> String {
        data(json!({"choices": [{"index": 0, "delta": {"content": t}, "finish_reason": null}]}))
    }

    pub fn finish(reason: &str) -> String {
        data(json!({"choices": [{"index": 0, "delta": {}, "finish_reason": reason}]}))
    }

    pub fn usage(p: u32, c: u32) -> String {
        data(json!({"choices": [], "usage": {"prompt_tokens": p, "completion_tokens": c}}))
    }

    pub fn done() -> String {
        "data: [DONE]\n\n".to_string()
    }

    /// A complete streamed reply: the pieces of text, a finish, usage and [DONE].
    pub fn reply(pieces: &[&str]) -> Reply {
        let mut out: Vec<(Duration, String)> = pieces
            .iter()
            .map(|p| (Duration::from_millis(5), text(p)))
            .collect();
        out.push((Duration::ZERO, finish("stop")));
        out.push((Duration::ZERO, usage(120, 40)));
        out.push((Duration::ZERO, done()));
        Reply::Stream(out)
    }

    /// A classification answer (JSON text, split in two pieces).
    pub fn classify(category: &str) -> Reply {
        let body = json!({"category": category, "reason": "scripted"}).to_string();
        let (a, b) = body.split_at(body.len() / 2);
        reply(&[a, b])
    }
}
