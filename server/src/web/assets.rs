//! The browser app: Trunk's `dist/` embedded in the release binary (one file to
//! deploy), or read from `server.assets_dir` for the dev loop. Unknown paths without a
//! file extension get `index.html`, so client-side routes survive a reload.

use crate::config::Config;
use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;
use std::borrow::Cow;
use std::path::{Component, Path, PathBuf};

#[derive(RustEmbed)]
#[folder = "../dist"]
#[allow_missing = true]
#[exclude = ".stamp"]
struct Dist;

#[derive(Clone)]
pub enum Assets {
    Embedded,
    Disk(PathBuf),
}

impl Assets {
    pub fn from_config(config: &Config) -> Self {
        match &config.server.assets_dir {
            Some(dir) => Assets::Disk(dir.clone()),
            None => Assets::Embedded,
        }
    }

    async fn get(&self, path: &str) -> Option<Cow<'static, [u8]>> {
        match self {
            Assets::Embedded => Dist::get(path).map(|f| f.data),
            Assets::Disk(dir) => tokio::fs::read(dir.join(path)).await.ok().map(Cow::Owned),
        }
    }
}

pub async fn serve(State(assets): State<Assets>, uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    if !is_safe(path) {
        return StatusCode::NOT_FOUND.into_response();
    }
    if !path.is_empty() {
        if let Some(body) = assets.get(path).await {
            return file_response(path, body);
        }
        // A missing file with an extension is a real 404, not an app route.
        if Path::new(path).extension().is_some() {
            return StatusCode::NOT_FOUND.into_response();
        }
    }
    match assets.get("index.html").await {
        Some(body) => file_response("index.html", body),
        None => not_built(),
    }
}

fn file_response(path: &str, body: Cow<'static, [u8]>) -> Response {
    let mime = mime_guess::from_path(path).first_or_octet_stream();
    let cache = if path == "index.html" {
        "no-cache"
    } else if is_fingerprinted(path) {
        "public, max-age=31536000, immutable"
    } else {
        "public, max-age=3600"
    };
    let mut res = (StatusCode::OK, body.into_owned()).into_response();
    let headers = res.headers_mut();
    if let Ok(v) = HeaderValue::from_str(mime.as_ref()) {
        headers.insert(header::CONTENT_TYPE, v);
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    res
}

/// Trunk names built files `name-<16 hex>.ext`; those never change content.
fn is_fingerprinted(path: &str) -> bool {
    let stem = Path::new(path)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("");
    let stem = stem.strip_suffix("_bg").unwrap_or(stem);
    stem.rsplit_once('-')
        .is_some_and(|(_, hash)| hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn is_safe(path: &str) -> bool {
    Path::new(path)
        .components()
        .all(|c| matches!(c, Component::Normal(_)))
}

fn not_built() -> Response {
    let body = "<!doctype html><title>Registry Chat</title><h1>Registry Chat</h1>\
        <p>The web UI is not built into this binary. Run <code>scripts/start</code>, or build it \
        with <code>trunk build --release</code> and set <code>server.assets_dir</code> to <code>dist</code>.</p>\
        <p>The API is up: see <a href=\"/health\">/health</a>.</p>";
    (
        StatusCode::SERVICE_UNAVAILABLE,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        body,
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_and_traversal() {
        assert!(is_fingerprinted("app-1a2b3c4d5e6f7a8b.js"));
        assert!(is_fingerprinted("app-1a2b3c4d5e6f7a8b_bg.wasm"));
        assert!(!is_fingerprinted("favicon.svg"));
        assert!(is_safe("a/b.js"));
        assert!(!is_safe("../etc/passwd"));
        assert!(!is_safe("a/../../b"));
    }
}
