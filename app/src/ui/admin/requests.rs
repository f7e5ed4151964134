//! The codebundle requests people filed from the chat, with their triage status.
//! Contact details live only behind the admin token, so the markdown export (the
//! full request, for an issue tracker) is fetched here and saved from the page.

use super::session::Admin;
use super::widgets::{LoadError, Loading, first_line};
use crate::api::admin::{RequestList, StatusUpdate};
use crate::api::requests::{RequestStatus, RequestSummary};
use crate::ui::download::{request_file_name, save_text};
use leptos::prelude::*;
use leptos::task::spawn_local;

#[component]
pub fn RequestsTab() -> impl IntoView {
    let admin = Admin::get();
    let filter = RwSignal::new(String::new());
    let list = LocalResource::new(move || {
        let f = filter.get();
        let path = if f.is_empty() {
            "/api/admin/requests".to_string()
        } else {
            format!("/api/admin/requests?status={f}")
        };
        async move { admin.get_json::<RequestList>(&path).await }
    });
    view! {
        <div class="admin-section">
            <div class="admin-toolbar">
                <label for="request-filter">"Status"</label>
                <select id="request-filter" data-testid="request-filter"
                    on:change=move |e| filter.set(event_target_value(&e))>
                    <option value="" selected=move || filter.get().is_empty()>"All"</option>
                    {RequestStatus::ALL.iter().map(|s| s.as_str()).map(|s| view! {
                        <option value=s selected=move || filter.get() == s>{s}</option>
                    }).collect_view()}
                </select>
                <button type="button" class="button subtle" data-testid="requests-refresh"
                    on:click=move |_| list.refetch()>"Refresh"</button>
            </div>
            {move || match list.get() {
                None => view! { <Loading text="Loading requests…" /> }.into_any(),
                Some(Err(e)) => view! { <LoadError error=e retry=move || list.refetch() /> }.into_any(),
                Some(Ok(l)) if l.requests.is_empty() => view! {
                    <p class="admin-empty" data-testid="requests-empty">
                        {if filter.get_untracked().is_empty() {
                            "No requests yet. They are filed from the chat when nothing in the registry fits.".to_string()
                        } else {
                            format!("No {} requests.", filter.get_untracked())
                        }}
                    </p>
                }.into_any(),
                Some(Ok(l)) => view! {
                    <div class="table-scroll">
                        <table class="admin-table" data-testid="requests-table">
                            <thead>
                                <tr>
                                    <th scope="col">"Reference"</th>
                                    <th scope="col">"Problem"</th>
                                    <th scope="col">"Platform"</th>
                                    <th scope="col">"Created"</th>
                                    <th scope="col">"Status"</th>
                                    <th scope="col"><span class="visually-hidden">"Export"</span></th>
                                </tr>
                            </thead>
                            <tbody>
                                {l.requests.into_iter().map(|r| view! { <RequestRow r=r /> }).collect_view()}
                            </tbody>
                        </table>
                    </div>
                }.into_any(),
            }}
        </div>
    }
}

#[component]
fn RequestRow(r: RequestSummary) -> impl IntoView {
    let admin = Admin::get();
    let id = r.id;
    let reference = r.reference.clone();
    let status = RwSignal::new(r.status.as_str().to_string());
    let saving = RwSignal::new(false);
    let saved = RwSignal::new(false);
    let error = RwSignal::new(None::<String>);
    let exporting = RwSignal::new(false);

    let change = move |ev: leptos::ev::Event| {
        let next = event_target_value(&ev);
        let before = status.get_untracked();
        if next == before {
            return;
        }
        status.set(next.clone());
        saving.set(true);
        saved.set(false);
        error.set(None);
        spawn_local(async move {
            let body = StatusUpdate { status: next };
            match admin
                .post_json::<_, StatusUpdate>(&format!("/api/admin/requests/{id}/status"), &body)
                .await
            {
                Ok(u) => {
                    status.set(u.status);
                    saved.set(true);
                }
                Err(e) => {
                    status.set(before);
                    error.set(Some(e.message));
                }
            }
            saving.set(false);
        });
    };

    let export = {
        let reference = reference.clone();
        move |_| {
            if exporting.get_untracked() {
                return;
            }
            exporting.set(true);
            error.set(None);
            let file = request_file_name(&reference);
            spawn_local(async move {
                match admin
                    .get_text(&format!("/api/admin/requests/{id}/export"))
                    .await
                {
                    Ok(md) => {
                        if let Err(e) = save_text(&file, "text/markdown", &md) {
                            error.set(Some(e));
                        }
                    }
                    Err(e) => error.set(Some(e.message)),
                }
                exporting.set(false);
            });
        }
    };

    let select_id = format!("request-status-{id}");
    view! {
        <tr data-testid="request-row" data-id=id.to_string() data-reference=reference.clone()>
            <td class="mono nowrap" data-testid="request-ref">{reference.clone()}
                {r.issue_url.clone().filter(|u| u.starts_with("https://") || u.starts_with("http://")).map(|u| view! {
                    " " <a class="issue-link" href=u target="_blank" rel="noopener noreferrer" data-testid="request-issue-link"
                        title="The issue in the team's tracker">"issue ↗"</a>
                })}
            </td>
            <td class="problem-cell" title=r.problem.clone()>{first_line(&r.problem, 140)}</td>
            <td>{r.platform.clone().unwrap_or_else(|| "—".into())}</td>
            <td class="nowrap">{crate::ui::time::from_iso(&r.created_at)}</td>
            <td class="nowrap">
                <label class="visually-hidden" for=select_id.clone()>{format!("Status of {reference}")}</label>
                <select id=select_id data-testid="request-status" on:change=change disabled=move || saving.get()
                    prop:value=move || status.get()>
                    {RequestStatus::ALL.iter().map(|s| s.as_str()).map(|s| view! {
                        <option value=s selected=move || status.get() == s>{s}</option>
                    }).collect_view()}
                </select>
                {move || saving.get().then(|| view! { <span class="muted small">" saving…"</span> })}
                {move || saved.get().then(|| view! {
                    <span class="saved-tick" data-testid="request-saved-tick" role="status" title="Saved">" ✓ saved"</span>
                })}
                {move || error.get().map(|e| view! { <p class="error small" role="alert" data-testid="request-row-error">{e}</p> })}
            </td>
            <td>
                <button type="button" class="button subtle" data-testid="request-export" on:click=export
                    disabled=move || exporting.get()>"Download .md"</button>
            </td>
        </tr>
    }
}
