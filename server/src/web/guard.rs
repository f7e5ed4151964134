//! What every request passes before a handler: the `Host` allow-list (a web page
//! cannot reach a local server through DNS rebinding), a cross-site check on
//! state-changing requests (a JSON body or a same-origin `Origin`, so a form on
//! another site cannot post here), and who is asking — the browser's owner cookie
//! (HttpOnly, SameSite=Strict, random) or, only from a configured proxy address, the
//! single sign-on user header — which decides whose conversations a caller sees.

use super::{ApiFailure, AppState};
use crate::memory::Owner;
use app::api::ErrorCode;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::{IpAddr, SocketAddr};

pub const OWNER_COOKIE: &str = "rc_owner";
/// A year: the browser keeps its conversations across restarts.
const COOKIE_MAX_AGE: u64 = 365 * 24 * 3600;

/// Who is asking, and the key their rate limit is counted under.
#[derive(Clone, Debug)]
pub struct Caller {
    pub owner: Owner,
    pub rate_key: String,
}

/// The settings the guard needs, read once.
#[derive(Clone, Debug)]
pub struct GuardConfig {
    any_host: bool,
    hosts: Vec<String>,
    trusted: Vec<IpAddr>,
    user_headers: Vec<String>,
}

impl GuardConfig {
    pub fn new(c: &crate::config::ServerConfig) -> GuardConfig {
        let hosts = c.allowed_hosts();
        GuardConfig {
            any_host: hosts.iter().any(|h| h == "*"),
            hosts: hosts.iter().map(|h| h.to_lowercase()).collect(),
            trusted: c.trusted_proxies(),
            user_headers: vec![c.user_header.to_lowercase(), "x-forwarded-email".into()],
        }
    }
}

/// `Host: example.org:3000` → `example.org`; `[::1]:3000` → `::1`.
fn host_name(host: &str) -> &str {
    let h = host.trim();
    if let Some(rest) = h.strip_prefix('[') {
        return rest.split(']').next().unwrap_or(rest);
    }
    h.rsplit_once(':')
        .filter(|(_, port)| port.chars().all(|c| c.is_ascii_digit()))
        .map_or(h, |(name, _)| name)
}

fn header<'a>(h: &'a HeaderMap, name: &str) -> Option<&'a str> {
    h.get(name).and_then(|v| v.to_str().ok()).map(str::trim)
}

/// A state-changing request is same-site when its body is JSON (a cross-site form
/// cannot send that without a CORS preflight, which this server never answers) or
/// its `Origin` is this server's own.
///
/// Only POST is checked: a cross-site form can send nothing else, and a cross-site
/// `fetch` with DELETE or PUT needs a CORS preflight this server never answers. MCP
/// clients end their session with a plain DELETE (no `Origin`), which must pass.
fn same_site(method: &Method, h: &HeaderMap) -> bool {
    if *method != Method::POST {
        return true;
    }
    let json = header(h, header::CONTENT_TYPE.as_str())
        .is_some_and(|c| c.to_lowercase().starts_with("application/json"));
    let origin_host = header(h, header::ORIGIN.as_str())
        .and_then(|o| url::Url::parse(o).ok())
        .map(|u| match u.port() {
            Some(p) => format!("{}:{p}", u.host_str().unwrap_or("")),
            None => u.host_str().unwrap_or("").to_string(),
        });
    let host = header(h, header::HOST.as_str()).unwrap_or("");
    json || origin_host.is_some_and(|o| o.eq_ignore_ascii_case(host))
}

fn cookie(h: &HeaderMap, name: &str) -> Option<String> {
    h.get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_string())
        .filter(|v| v.len() == 32 && v.chars().all(|c| c.is_ascii_hexdigit()))
}

pub async fn guard(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    let g = &state.guard;
    let h = req.headers();
    let host = header(h, header::HOST.as_str())
        .map(host_name)
        .unwrap_or("");
    if !g.any_host && !g.hosts.iter().any(|a| a.eq_ignore_ascii_case(host)) {
        return ApiFailure::client(
            ErrorCode::Forbidden,
            "This host name is not allowed (add it to server.allowed_hosts).",
        )
        .into_response();
    }
    if !same_site(req.method(), h) {
        return ApiFailure::client(
            ErrorCode::Forbidden,
            "A request that changes something needs a JSON body or a same-origin Origin header.",
        )
        .into_response();
    }
    let peer: Option<IpAddr> = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    let from_proxy = peer.is_some_and(|p| g.trusted.contains(&p));
    let user = from_proxy
        .then(|| {
            g.user_headers
                .iter()
                .find_map(|n| header(h, n).filter(|v| !v.is_empty() && v.len() <= 256))
        })
        .flatten()
        .map(str::to_string);
    // The client address: the proxy's forwarded one when the proxy is trusted.
    let client_ip = if from_proxy {
        header(h, "x-forwarded-for")
            .and_then(|v| v.split(',').next())
            .map(|v| v.trim().to_string())
    } else {
        None
    }
    .or(peer.map(|p| p.to_string()))
    .unwrap_or_else(|| "unknown".into());
    let secure = from_proxy && header(h, "x-forwarded-proto") == Some("https");
    let mut new_cookie = None;
    let owner = match (&user, cookie(h, OWNER_COOKIE)) {
        (Some(u), _) => Owner::Id(format!("u:{u}")),
        (None, Some(c)) => Owner::Id(format!("c:{c}")),
        (None, None) => {
            let id = crate::memory::new_id();
            new_cookie = Some(id.clone());
            Owner::Id(format!("c:{id}"))
        }
    };
    let rate_key = match &user {
        Some(u) => format!("u:{u}"),
        None => format!("ip:{client_ip}"),
    };
    req.extensions_mut().insert(Caller { owner, rate_key });
    let mut res = next.run(req).await;
    if let Some(id) = new_cookie
        && let Ok(v) = HeaderValue::from_str(&format!(
            "{OWNER_COOKIE}={id}; Path=/; HttpOnly; SameSite=Strict; Max-Age={COOKIE_MAX_AGE}{}",
            if secure { "; Secure" } else { "" }
        ))
    {
        res.headers_mut().append(header::SET_COOKIE, v);
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_cookies_and_origins() {
        assert_eq!(host_name("localhost:3000"), "localhost");
        assert_eq!(host_name("[::1]:3000"), "::1");
        assert_eq!(host_name("example.org"), "example.org");
        let mut h = HeaderMap::new();
        h.insert(
            header::COOKIE,
            "a=b; rc_owner=0123456789abcdef0123456789abcdef"
                .parse()
                .unwrap(),
        );
        assert_eq!(cookie(&h, OWNER_COOKIE).unwrap().len(), 32);
        h.insert(header::COOKIE, "rc_owner=../../etc".parse().unwrap());
        assert_eq!(cookie(&h, OWNER_COOKIE), None);
        let mut h = HeaderMap::new();
        h.insert(header::HOST, "127.0.0.1:3000".parse().unwrap());
        h.insert(
            header::CONTENT_TYPE,
            "application/x-www-form-urlencoded".parse().unwrap(),
        );
        assert!(!same_site(&Method::POST, &h), "a form without Origin");
        h.insert(header::ORIGIN, "http://evil.example".parse().unwrap());
        assert!(!same_site(&Method::POST, &h), "a form from another site");
        h.insert(header::ORIGIN, "http://127.0.0.1:3000".parse().unwrap());
        assert!(same_site(&Method::POST, &h), "a form from this page");
        h.remove(header::ORIGIN);
        h.insert(header::CONTENT_TYPE, "application/json".parse().unwrap());
        assert!(same_site(&Method::POST, &h), "JSON");
        assert!(same_site(&Method::GET, &HeaderMap::new()));
    }
}
