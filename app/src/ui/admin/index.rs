//! The index as the server sees it (collections, counts, commit, stale bundles,
//! warnings, embedder) and a reindex button. A reindex runs in the background on
//! the server; the page polls its progress every second until it ends, and picks
//! up a run that is already going (started elsewhere or before a reload).

use super::session::Admin;
use super::widgets::{LoadError, Loading, short_commit};
use crate::api::ErrorCode;
use crate::api::admin::{IndexStatus, JobState, ReindexJob};
use crate::api::catalog::CollectionStatus;
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::time::Duration;

const POLL: Duration = Duration::from_secs(1);

#[component]
pub fn IndexTab() -> impl IntoView {
    let admin = Admin::get();
    let status = LocalResource::new(move || admin.get_json::<IndexStatus>("/api/admin/index"));
    // The job as last seen (from the status, the reindex answer or a poll).
    let job = RwSignal::new(None::<ReindexJob>);
    let polling = RwSignal::new(false);
    let in_flight = StoredValue::new(false);
    let notice = RwSignal::new(None::<String>);
    let poll_error = RwSignal::new(None::<String>);

    // The first status load: adopt its job, and follow it if it is running.
    Effect::new(move |_| {
        if let Some(Ok(s)) = status.get() {
            if s.job.state == JobState::Running {
                polling.set(true);
            }
            job.set(Some(s.job));
        }
    });

    let handle = set_interval_with_handle(
        move || {
            if !polling.get_untracked() || in_flight.get_value() {
                return;
            }
            in_flight.set_value(true);
            spawn_local(async move {
                // The job alone: the full status hashes every file for staleness.
                match admin.get_json::<ReindexJob>("/api/admin/reindex").await {
                    Ok(j) => {
                        poll_error.set(None);
                        let running = j.state == JobState::Running;
                        job.set(Some(j));
                        if !running {
                            polling.set(false);
                            // The finished run changed the counts: show them.
                            status.refetch();
                        }
                    }
                    // Kept polling: a restart or a blip should not lose the run.
                    Err(e) => poll_error.set(Some(e.message)),
                }
                in_flight.try_set_value(false);
            });
        },
        POLL,
    )
    .ok();
    on_cleanup(move || {
        if let Some(h) = handle {
            h.clear();
        }
    });

    let reindex = move |_| {
        notice.set(None);
        spawn_local(async move {
            match admin.post_empty::<ReindexJob>("/api/admin/reindex").await {
                Ok(j) => {
                    polling.set(j.state == JobState::Running);
                    job.set(Some(j));
                }
                Err(e) if e.code == ErrorCode::IndexBusy => {
                    notice.set(Some(
                        "A reindex is already running; following its progress.".into(),
                    ));
                    polling.set(true);
                }
                Err(e) => notice.set(Some(e.message)),
            }
        });
    };
    let running = move || {
        polling.get() || job.with(|j| j.as_ref().is_some_and(|j| j.state == JobState::Running))
    };

    view! {
        <div class="admin-section">
            <section class="admin-card">
                <div class="admin-toolbar">
                    <h2>"Reindex"</h2>
                    <button type="button" class="button primary" data-testid="reindex"
                        disabled=running on:click=reindex
                        title="Re-read every configured source; unchanged bundles are skipped">
                        {move || if running() { "Reindexing…" } else { "Reindex now" }}
                    </button>
                </div>
                <p class="muted small">
                    "Re-reads every configured collection and docs folder. Unchanged bundles are skipped, and the "
                    "current index keeps serving until the run commits."
                </p>
                {move || notice.get().map(|n| view! { <p class="note" role="status" data-testid="reindex-notice">{n}</p> })}
                {move || job.get().map(|j| view! { <JobView job=j /> })}
                {move || poll_error.get().map(|e| view! {
                    <p class="error small" role="alert">{format!("Could not read the progress ({e}); still trying.")}</p>
                })}
            </section>
            {move || match status.get() {
                None => view! { <Loading text="Loading the index status…" /> }.into_any(),
                Some(Err(e)) => view! { <LoadError error=e retry=move || status.refetch() /> }.into_any(),
                Some(Ok(s)) => view! { <Collections s=s /> }.into_any(),
            }}
        </div>
    }
}

#[component]
fn JobView(job: ReindexJob) -> impl IntoView {
    let running = job.state == JobState::Running;
    let (text, class) = match job.state {
        JobState::Running => ("Running".to_string(), "running"),
        JobState::Done => ("Done".to_string(), "done"),
        JobState::Failed => ("Failed".to_string(), "failed"),
        JobState::Idle => (
            "No reindex has run since the server started.".to_string(),
            "idle",
        ),
    };
    let when = job
        .finished_at
        .as_deref()
        .or(job.started_at.as_deref())
        .map(crate::ui::time::from_iso);
    view! {
        {running.then(|| {
            let (done, total) = (job.done, job.total);
            let label = if total > 0 {
                format!("{}: {done} of {total}", job.stage)
            } else {
                format!("{}…", job.stage)
            };
            view! {
                <div class="progress" data-testid="reindex-progress">
                    <progress max=total.max(1).to_string() value=done.to_string() aria-label="Reindex progress"></progress>
                    <span class="small">{label}</span>
                </div>
            }
        })}
        <p class=format!("job-state job-{class}") data-testid="reindex-state" data-state=job.state.as_str() role="status">
            <strong>{text}</strong>
            {when.map(|w| view! { <span class="muted small">{format!(" · {w}")}</span> })}
            {job.message.clone().filter(|m| !m.is_empty()).map(|m| view! { <span class="job-message">{format!(" — {m}")}</span> })}
        </p>
    }
}

#[component]
fn Collections(s: IndexStatus) -> impl IntoView {
    view! {
        <section class="admin-card">
            <h2>"Collections"</h2>
            <p class="muted small" data-testid="index-embedder">
                {format!("Embedder: {} · {} vectors", if s.embedder.is_empty() { "—" } else { &s.embedder }, s.vectors)}
            </p>
            {if s.collections.is_empty() {
                view! { <p class="admin-empty">"Nothing is indexed yet: press Reindex, or run `registry-chat index`."</p> }.into_any()
            } else {
                view! {
                    <div class="table-scroll">
                        <table class="admin-table" data-testid="collections-table">
                            <thead>
                                <tr>
                                    <th scope="col">"Collection"</th>
                                    <th scope="col">"Commit"</th>
                                    <th scope="col" class="num">"Bundles"</th>
                                    <th scope="col" class="num">"Tasks"</th>
                                    <th scope="col" class="num">"SLIs"</th>
                                    <th scope="col" class="num">"Docs"</th>
                                    <th scope="col" class="num">"Keywords"</th>
                                    <th scope="col" class="num">"Warnings"</th>
                                    <th scope="col">"Stale"</th>
                                    <th scope="col">"Indexed"</th>
                                </tr>
                            </thead>
                            <tbody>
                                {s.collections.into_iter().map(|c| view! { <CollectionRow c=c /> }).collect_view()}
                            </tbody>
                        </table>
                    </div>
                }.into_any()
            }}
        </section>
    }
}

#[component]
fn CollectionRow(c: CollectionStatus) -> impl IntoView {
    let commit = short_commit(c.commit.as_deref());
    let has_warnings = c.warnings > 0;
    let full_commit = c.commit.clone().unwrap_or_default();
    let name = match c.web_url.clone() {
        Some(url) => {
            view! { <a href=url target="_blank" rel="noopener noreferrer">{c.name.clone()}</a> }
                .into_any()
        }
        None => view! { <span>{c.name.clone()}</span> }.into_any(),
    };
    let stale = if c.stale.is_empty() {
        view! { <span class="muted">"—"</span> }.into_any()
    } else {
        let n = c.stale.len();
        view! {
            <details class="stale">
                <summary>{format!("{n} bundle{}", if n == 1 { "" } else { "s" })}</summary>
                <ul>{c.stale.into_iter().map(|s| view! { <li class="mono small">{s}</li> }).collect_view()}</ul>
            </details>
        }.into_any()
    };
    view! {
        <tr data-testid="collection-row" data-name=c.name.clone()>
            <td><strong>{name}</strong></td>
            <td class="mono" title=full_commit>{commit}</td>
            <td class="num">{c.bundles}</td>
            <td class="num">{c.tasks}</td>
            <td class="num">{c.slis}</td>
            <td class="num">{c.docs}</td>
            <td class="num">{c.keywords}</td>
            <td class="num" class:warn=has_warnings>{c.warnings}</td>
            <td>{stale}</td>
            <td class="nowrap">{crate::ui::time::from_iso(&c.indexed_at)}</td>
        </tr>
    }
}
