//! Every request gets an id, a span and one access-log line: `x-request-id` is taken
//! from the client (or a proxy in front) when it is a sane token, otherwise
//! generated; it comes back on the response, is on every log line the request
//! writes (the span is entered by the handler and by the turn it starts) and in the
//! turn's trace. The same place counts requests for `/metrics`, by the route as
//! matched (`/api/sessions/{id}/export`), never the raw path.

use axum::extract::{MatchedPath, Request};
use axum::http::{HeaderName, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use std::time::Instant;
use tracing::Instrument;

pub static REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// A client-given id longer than this, or with other characters, is replaced.
const MAX_ID_LEN: usize = 128;

/// The request's id, for handlers (the turn's trace records it).
#[derive(Clone, Debug)]
pub struct RequestId(pub String);

fn acceptable(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_ID_LEN
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b':'))
}

pub async fn observe(mut req: Request, next: Next) -> Response {
    let started = Instant::now();
    let id = req
        .headers()
        .get(&REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .filter(|v| acceptable(v))
        .map_or_else(|| uuid::Uuid::new_v4().simple().to_string(), str::to_string);
    let method = req.method().clone();
    // Any token is a valid method to hyper: only the standard ones are labels.
    let method_label = match method.as_str() {
        m @ ("GET" | "HEAD" | "POST" | "PUT" | "DELETE" | "PATCH" | "OPTIONS") => m,
        _ => "other",
    };
    // Unmatched paths (the page, assets, probes for things that do not exist)
    // share one label so a scanner cannot create series.
    let mut route = req
        .extensions()
        .get::<MatchedPath>()
        .map_or("unmatched", |m| m.as_str())
        .to_string();
    // Server functions share one route; each registered one is its own label (a
    // closed set: unknown names are answered 404 and keep the shared label).
    if route == "/api/{*fn_name}"
        && leptos::server_fn::axum::server_fn_paths().any(|(p, _)| p == req.uri().path())
    {
        route = req.uri().path().to_string();
    }
    req.extensions_mut().insert(RequestId(id.clone()));
    let span = tracing::info_span!("request", id = %id, method = %method, route = %route);
    let mut res = next.run(req).instrument(span.clone()).await;
    let status = res.status();
    let elapsed = started.elapsed();
    if let Ok(v) = HeaderValue::from_str(&id) {
        res.headers_mut().insert(REQUEST_ID.clone(), v);
    }
    let m = &crate::metrics::METRICS;
    m.http_requests
        .with_label_values(&[&route, method_label, status.as_str()])
        .inc();
    m.http_seconds
        .with_label_values(&[&route])
        .observe(elapsed.as_secs_f64());
    span.in_scope(|| {
        tracing::info!(
            status = status.as_u16(),
            latency_ms = (elapsed.as_secs_f64() * 10_000.0).round() / 10.0,
            "{method} {route}"
        );
    });
    res
}

#[cfg(test)]
mod tests {
    use super::acceptable;

    #[test]
    fn only_sane_ids_are_kept() {
        assert!(acceptable("4bf92f3577b34da6a3ce929d0e0e4736"));
        assert!(acceptable("req-1.2:3_x"));
        assert!(!acceptable(""));
        assert!(!acceptable("a b"));
        assert!(!acceptable("x\u{7f}"));
        assert!(!acceptable(&"a".repeat(129)));
    }
}
