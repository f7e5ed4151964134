//! Requests to `/api/admin/*` with the bearer token. Failures arrive as the API's
//! `{code, message}` body and become `ApiError`, so every tab shows the server's
//! own message. A 401 or 403 signs the console out: no other call will succeed
//! with that token either, and the sign-in form says why.

use super::session::{Admin, explain};
use crate::api::{ApiError, ErrorCode};
use gloo_net::http::{Request, RequestBuilder, Response};
use leptos::prelude::GetUntracked;
use serde::Serialize;
use serde::de::DeserializeOwned;

fn bearer(token: &str) -> String {
    format!("Bearer {token}")
}

/// A query-string value.
pub fn encode(value: &str) -> String {
    String::from(js_sys::encode_uri_component(value))
}

async fn failure(response: Response) -> ApiError {
    let status = response.status();
    let text = response.text().await.unwrap_or_default();
    serde_json::from_str::<ApiError>(&text).unwrap_or_else(|_| {
        let code = match status {
            401 => ErrorCode::Unauthorized,
            403 => ErrorCode::AdminDisabled,
            404 => ErrorCode::NotFound,
            503 => ErrorCode::Network,
            _ => ErrorCode::Internal,
        };
        ApiError::new(code, format!("The server answered with HTTP {status}."))
    })
}

async fn send(request: Result<Request, gloo_net::Error>) -> Result<Response, ApiError> {
    let request = request.map_err(|e| ApiError::new(ErrorCode::BadRequest, e.to_string()))?;
    let response = request
        .send()
        .await
        .map_err(|_| ApiError::from_code(ErrorCode::Network))?;
    if response.ok() {
        Ok(response)
    } else {
        Err(failure(response).await)
    }
}

fn unreadable() -> ApiError {
    ApiError::new(
        ErrorCode::Internal,
        "The server's answer could not be read (is the server the same version as this page?).",
    )
}

async fn json<T: DeserializeOwned>(response: Response) -> Result<T, ApiError> {
    response.json::<T>().await.map_err(|_| unreadable())
}

/// `GET /api/admin/check` with a token that is not kept yet.
pub async fn check(token: &str) -> Result<(), ApiError> {
    let response = send(
        Request::get("/api/admin/check")
            .header("authorization", &bearer(token))
            .build(),
    )
    .await?;
    json::<serde_json::Value>(response).await.map(|_| ())
}

impl Admin {
    fn authorized(self, builder: RequestBuilder) -> Result<RequestBuilder, ApiError> {
        let token = self
            .token
            .try_get_untracked()
            .flatten()
            .ok_or_else(|| ApiError::from_code(ErrorCode::Unauthorized))?;
        Ok(builder.header("authorization", &bearer(&token)))
    }

    async fn call(
        self,
        builder: RequestBuilder,
        body: Option<String>,
    ) -> Result<Response, ApiError> {
        let builder = self.authorized(builder)?;
        let request = match body {
            Some(b) => builder.header("content-type", "application/json").body(b),
            None => builder.build(),
        };
        let result = send(request).await;
        if let Err(e) = &result
            && matches!(e.code, ErrorCode::Unauthorized | ErrorCode::AdminDisabled)
        {
            self.sign_out(Some(explain(e)));
        }
        result
    }

    pub async fn get_json<T: DeserializeOwned>(self, path: &str) -> Result<T, ApiError> {
        json(self.call(Request::get(path), None).await?).await
    }

    /// A text body (markdown, JSON lines) to save as a file.
    pub async fn get_text(self, path: &str) -> Result<String, ApiError> {
        let response = self.call(Request::get(path), None).await?;
        response.text().await.map_err(|_| unreadable())
    }

    pub async fn post_json<B: Serialize, T: DeserializeOwned>(
        self,
        path: &str,
        body: &B,
    ) -> Result<T, ApiError> {
        let body = serde_json::to_string(body)
            .map_err(|e| ApiError::new(ErrorCode::BadRequest, e.to_string()))?;
        json(self.call(Request::post(path), Some(body)).await?).await
    }

    /// A POST without a body (an action such as reindex).
    pub async fn post_empty<T: DeserializeOwned>(self, path: &str) -> Result<T, ApiError> {
        json(self.call(Request::post(path), None).await?).await
    }
}
