//! Saved requests in the team's issue tracker: a GitHub repository (after a
//! search of its open issues for one that asks the same, which the user may add
//! to instead) or any webhook that takes JSON. The request is always saved in
//! the registry first; a tracker that fails only loses the link.

use crate::config::RequestsConfig;
use app::api::requests::TrackerOutcome;
use serde_json::{Value, json};
use std::collections::HashSet;
use std::time::Duration;

/// What to file: the issue title and body, the request as JSON for a webhook.
pub struct Filing {
    /// The problem's first line: what the duplicate search looks for.
    pub summary: String,
    pub title: String,
    pub body: String,
    pub payload: Value,
}

pub enum Tracker {
    GitHub {
        http: reqwest::Client,
        api: String,
        repo: String,
        token: String,
        labels: Vec<String>,
    },
    Webhook {
        http: reqwest::Client,
        url: String,
    },
}

#[derive(Debug, thiserror::Error)]
pub enum TrackerError {
    #[error("the issue tracker could not be reached")]
    Unreachable(#[source] reqwest::Error),
    #[error("the issue tracker refused the request (HTTP {0})")]
    Refused(u16),
    #[error("the issue tracker answered with something unreadable")]
    Unreadable,
}

/// An open issue that may already ask for the same.
pub struct Candidate {
    pub number: u64,
    pub title: String,
    pub url: String,
}

impl Tracker {
    /// `None` when no tracker is configured (requests stay in the registry).
    pub fn from_config(c: &RequestsConfig) -> Option<Tracker> {
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(5))
            .timeout(Duration::from_secs(20))
            // Never carry the token to wherever a redirect points.
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("registry-chat/", env!("CARGO_PKG_VERSION")))
            .build()
            .ok()?;
        match (&c.github_repo, &c.github_token, &c.webhook_url) {
            (Some(repo), Some(token), _) => Some(Tracker::GitHub {
                http,
                api: c.github_api_url.trim_end_matches('/').to_string(),
                repo: repo.clone(),
                token: token.expose().to_string(),
                labels: c
                    .labels
                    .split(',')
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .map(String::from)
                    .collect(),
            }),
            (None, _, Some(url)) => Some(Tracker::Webhook {
                http,
                url: url.expose().to_string(),
            }),
            _ => None,
        }
    }

    /// The open issue most likely asking for the same (GitHub only).
    pub async fn duplicate(&self, f: &Filing) -> Result<Option<Candidate>, TrackerError> {
        let Tracker::GitHub {
            http,
            api,
            repo,
            token,
            ..
        } = self
        else {
            return Ok(None);
        };
        let words = content_words(&f.summary);
        if words.is_empty() {
            return Ok(None);
        }
        let terms: Vec<&str> = words.iter().take(8).map(String::as_str).collect();
        let q = format!("{} repo:{repo} is:issue is:open", terms.join(" "));
        let res = github(http.get(format!("{api}/search/issues")), token)
            .query(&[("q", q.as_str()), ("per_page", "5")])
            .send()
            .await
            .map_err(TrackerError::Unreachable)?;
        let found: Value = read(res).await?;
        let items = found["items"].as_array().cloned().unwrap_or_default();
        Ok(items
            .iter()
            .filter_map(|i| {
                let title = i["title"].as_str()?.to_string();
                let overlap = overlap(&words, &content_words(&title));
                if overlap < DUPLICATE_OVERLAP {
                    return None;
                }
                let candidate = Candidate {
                    number: i["number"].as_u64()?,
                    url: i["html_url"].as_str()?.to_string(),
                    title,
                };
                Some((overlap, candidate))
            })
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, c)| c))
    }

    /// Opens a new issue, or posts to the webhook.
    pub async fn open(&self, f: &Filing) -> Result<TrackerOutcome, TrackerError> {
        match self {
            Tracker::GitHub {
                http,
                api,
                repo,
                token,
                labels,
            } => {
                let res = github(http.post(format!("{api}/repos/{repo}/issues")), token)
                    .json(&json!({"title": f.title, "body": f.body, "labels": labels}))
                    .send()
                    .await
                    .map_err(TrackerError::Unreachable)?;
                let issue: Value = read(res).await?;
                let url = issue["html_url"].as_str().ok_or(TrackerError::Unreadable)?;
                Ok(TrackerOutcome::Filed { url: url.into() })
            }
            Tracker::Webhook { http, url } => {
                let res = http
                    .post(url)
                    .json(&f.payload)
                    .send()
                    .await
                    .map_err(TrackerError::Unreachable)?;
                if !res.status().is_success() {
                    return Err(TrackerError::Refused(res.status().as_u16()));
                }
                // Any JSON reply may name where the request went; none is fine.
                let reply: Value = read(res).await.unwrap_or(Value::Null);
                let url = ["html_url", "url"]
                    .iter()
                    .find_map(|k| reply[k].as_str())
                    .filter(|u| u.starts_with("https://") || u.starts_with("http://"))
                    .map(String::from);
                Ok(TrackerOutcome::Sent { url })
            }
        }
    }

    /// Adds the request to issue `number` as a comment (GitHub only).
    pub async fn comment(&self, number: u64, f: &Filing) -> Result<TrackerOutcome, TrackerError> {
        let Tracker::GitHub {
            http,
            api,
            repo,
            token,
            ..
        } = self
        else {
            return self.open(f).await;
        };
        let url = format!("{api}/repos/{repo}/issues/{number}/comments");
        let res = github(http.post(url), token)
            .json(&json!({"body": format!("Asked for again in Registry Chat:\n\n{}", f.body)}))
            .send()
            .await
            .map_err(TrackerError::Unreachable)?;
        let comment: Value = read(res).await?;
        let url = comment["html_url"]
            .as_str()
            .ok_or(TrackerError::Unreadable)?;
        Ok(TrackerOutcome::Commented {
            url: url.into(),
            number,
        })
    }
}

/// A GitHub REST call with the token and the API version GitHub documents.
fn github(b: reqwest::RequestBuilder, token: &str) -> reqwest::RequestBuilder {
    b.bearer_auth(token)
        .header("accept", "application/vnd.github+json")
        .header("x-github-api-version", "2022-11-28")
}

/// Share of the request title's content words an issue title must have to be
/// offered as the same request.
const DUPLICATE_OVERLAP: f32 = 0.5;

async fn read(res: reqwest::Response) -> Result<Value, TrackerError> {
    let status = res.status();
    if !status.is_success() {
        return Err(TrackerError::Refused(status.as_u16()));
    }
    // Replies are small; a tracker that sends megabytes is not read to the end.
    let bytes = res.bytes().await.map_err(TrackerError::Unreachable)?;
    if bytes.len() > 1 << 20 {
        return Err(TrackerError::Unreadable);
    }
    serde_json::from_slice(&bytes).map_err(|_| TrackerError::Unreadable)
}

fn content_words(text: &str) -> Vec<String> {
    let mut seen = HashSet::new();
    crate::index::text::query_terms(text)
        .into_iter()
        .filter(|w| seen.insert(w.clone()))
        .collect()
}

fn overlap(ours: &[String], theirs: &[String]) -> f32 {
    if ours.is_empty() {
        return 0.0;
    }
    let theirs: HashSet<&String> = theirs.iter().collect();
    ours.iter().filter(|w| theirs.contains(w)).count() as f32 / ours.len() as f32
}

/// Files saved request `id`: `action` is `None` on first save (search for a
/// duplicate, else open an issue), then the user's choice after a duplicate.
/// Done once: the row is claimed before the tracker is called, so two calls
/// never open two issues. A tracker failure is an outcome, not an error: the
/// request is saved either way.
pub async fn file(
    requests: &super::Requests,
    tracker: &Tracker,
    id: i64,
    action: Option<app::api::requests::FileAction>,
) -> Result<TrackerOutcome, super::RequestError> {
    use app::api::requests::FileAction;
    let (filing, claim) = requests.claim_filing(id).await?;
    let candidate = match claim {
        super::Claim::Done(url) => {
            return Ok(match url {
                Some(url) => TrackerOutcome::Filed { url },
                None => TrackerOutcome::Sent { url: None },
            });
        }
        super::Claim::Running => {
            return Ok(TrackerOutcome::Failed {
                message: "This request is being filed already.".into(),
            });
        }
        super::Claim::Claimed { candidate } => candidate,
    };
    let release = |candidate: Option<u64>| requests.release_filing(id, candidate);
    let result = match action {
        None => match tracker.duplicate(&filing).await {
            Ok(Some(c)) => {
                release(Some(c.number)).await?;
                return Ok(TrackerOutcome::Duplicate {
                    number: c.number,
                    title: c.title,
                    url: c.url,
                });
            }
            Ok(None) => tracker.open(&filing).await,
            // A search that fails (GitHub limits search to ~30 a minute) must not
            // stop the request from being filed.
            Err(e) => {
                tracing::warn!(request = id, error = %e, "duplicate search failed; filing anyway");
                tracker.open(&filing).await
            }
        },
        Some(FileAction::New) => tracker.open(&filing).await,
        Some(FileAction::Comment) => match candidate {
            Some(n) => tracker.comment(n, &filing).await,
            None => {
                release(None).await?;
                return Err(super::RequestError::Invalid(
                    "No open issue was offered for this request.".into(),
                ));
            }
        },
    };
    match result {
        Ok(outcome) => {
            let url = match &outcome {
                TrackerOutcome::Filed { url } | TrackerOutcome::Commented { url, .. } => {
                    Some(url.clone())
                }
                TrackerOutcome::Sent { url } => url.clone(),
                _ => None,
            };
            requests.finish_filing(id, url).await?;
            Ok(outcome)
        }
        Err(e) => {
            release(None).await?;
            tracing::warn!(request = id, error = %e, "the request was saved but not filed in the tracker");
            Ok(TrackerOutcome::Failed {
                message: format!("Saved here, but {e}; try again later."),
            })
        }
    }
}
