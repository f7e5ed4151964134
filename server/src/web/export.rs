//! Downloads: a conversation as a report (`/api/sessions/{id}/export?format=md|json|txt`).
//! A plain GET with `Content-Disposition: attachment`, so a link in the page
//! downloads it; only the conversation's owner gets it.

use super::{ApiFailure, AppState};
use crate::report::{self, Format};
use app::api::ErrorCode;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct ExportQuery {
    #[serde(default)]
    format: Option<String>,
}

pub(super) fn attachment(body: String, filename: &str, mime: &'static str) -> Response {
    let mut res = body.into_response();
    let h = res.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(mime));
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{filename}\"")) {
        h.insert(header::CONTENT_DISPOSITION, v);
    }
    res
}

/// `report-<first words of the title>.md`, ASCII only.
fn file_stem(title: &str) -> String {
    let words: Vec<String> = title
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(6)
        .map(str::to_lowercase)
        .collect();
    if words.is_empty() {
        "conversation".into()
    } else {
        words.join("-")
    }
}

pub async fn session(
    State(state): State<AppState>,
    axum::Extension(caller): axum::Extension<super::guard::Caller>,
    Path(id): Path<String>,
    Query(q): Query<ExportQuery>,
) -> Result<Response, ApiFailure> {
    let format = match q.format.as_deref() {
        None => Format::Markdown,
        Some(f) => Format::parse(f).ok_or_else(|| {
            ApiFailure::client(ErrorCode::BadRequest, "format is one of md, json, txt.")
        })?,
    };
    // Someone else's conversation is answered like a missing one.
    let found = match state.conversations.owns(id.clone(), caller.owner).await? {
        true => report::export(&state.conversations, &state.db, id, format).await?,
        false => None,
    };
    let (title, body) = found.ok_or_else(|| {
        ApiFailure::client(
            ErrorCode::SessionNotFound,
            ErrorCode::SessionNotFound.default_message(),
        )
    })?;
    let mime = match format {
        Format::Markdown => "text/markdown; charset=utf-8",
        Format::Json => "application/json",
        Format::Text => "text/plain; charset=utf-8",
    };
    Ok(attachment(
        body,
        &format!("registry-chat-{}.{}", file_stem(&title), format.extension()),
        mime,
    ))
}

#[cfg(test)]
mod tests {
    #[test]
    fn file_names_are_ascii_words() {
        assert_eq!(
            super::file_stem("Pods in payments: restarting?"),
            "pods-in-payments-restarting"
        );
        assert_eq!(super::file_stem("ü"), "conversation");
    }
}
