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
    /// Accept the request and never answer.
    Hang,
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
}

pub struct Scripted {
    pub url: String,
    seen: Arc<Mutex<Vec<Recorded>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Scripted {
    pub async fn start(replies: Vec<Reply>) -> Scripted {
        let script = Script {
            replies: Arc::new(Mutex::new(replies)),
            seen: Arc::new(Mutex::new(Vec::new())),
        };
        let seen = script.seen.clone();
        let app = Router::new().fallback(handle).with_state(script);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let task = tokio::spawn(async move {
            axum::serve(listener, app).await.ok();
        });
        Scripted { url, seen, task }
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.seen.lock().unwrap().clone()
    }
}

impl Drop for Scripted {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn handle(State(s): State<Script>, req: axum::extract::Request) -> Response {
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
    let reply = {
        let mut r = s.replies.lock().unwrap();
        if r.len() > 1 {
            r.remove(0)
        } else {
            r.first().cloned().unwrap_or(Reply::Hang)
        }
    };
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
        Reply::Stream(pieces) => {
            let stream = futures::stream::unfold(pieces.into_iter(), |mut it| async move {
                let (pause, text) = it.next()?;
                tokio::time::sleep(pause).await;
                Some((Ok::<_, std::convert::Infallible>(Bytes::from(text)), it))
            });
            Response::builder()
                .header("content-type", "text/event-stream")
                .body(Body::from_stream(stream))
                .unwrap()
        }
        Reply::Hang => {
            std::future::pending::<()>().await;
            unreachable!()
        }
    }
}
