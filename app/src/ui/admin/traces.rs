//! Every saved turn, newest first, searchable and filterable down to the ones
//! worth reading (no match, low confidence, thumbs-down, errors, follow-ups), a
//! page at a time. A row opens the turn's full trace.

use super::client::encode;
use super::session::Admin;
use super::trace_detail::TraceDrawer;
use super::widgets::{LoadError, Loading, feedback_view, first_line, ms, pct};
use crate::api::admin::{TracePage, TraceQuery, TraceSummary};
use leptos::prelude::*;
use leptos_router::NavigateOptions;
use leptos_router::hooks::use_navigate;

pub const PAGE: u32 = 50;

fn url(q: &TraceQuery) -> String {
    let mut parts = Vec::new();
    if let Some(text) = q.q.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        parts.push(format!("q={}", encode(text)));
    }
    for (on, name) in [
        (q.no_match, "no_match"),
        (q.low_confidence, "low_confidence"),
        (q.thumbs_down, "thumbs_down"),
        (q.errors, "errors"),
        (q.follow_ups, "follow_ups"),
    ] {
        if on {
            parts.push(format!("{name}=true"));
        }
    }
    parts.push(format!("limit={}", q.limit.unwrap_or(PAGE)));
    parts.push(format!("offset={}", q.offset.unwrap_or(0)));
    format!("/api/admin/traces?{}", parts.join("&"))
}

/// The filter checkboxes: `data-testid` and label, in `flags` order.
const FILTERS: [(&str, &str); 5] = [
    ("filter-no-match", "No match"),
    ("filter-low-confidence", "Low confidence"),
    ("filter-thumbs-down", "Thumbs-down"),
    ("filter-errors", "Errors"),
    ("filter-follow-ups", "Follow-ups"),
];

fn flags(q: &TraceQuery) -> [bool; 5] {
    [
        q.no_match,
        q.low_confidence,
        q.thumbs_down,
        q.errors,
        q.follow_ups,
    ]
}

fn set_flag(q: &mut TraceQuery, i: usize, on: bool) {
    match i {
        0 => q.no_match = on,
        1 => q.low_confidence = on,
        2 => q.thumbs_down = on,
        3 => q.errors = on,
        _ => q.follow_ups = on,
    }
}

#[component]
pub fn TracesTab(#[prop(into)] turn: Signal<Option<String>>) -> impl IntoView {
    let admin = Admin::get();
    let navigate = use_navigate();
    let typed = RwSignal::new(String::new());
    let query = RwSignal::new(TraceQuery {
        limit: Some(PAGE),
        offset: Some(0),
        ..Default::default()
    });
    let page = LocalResource::new(move || {
        let path = url(&query.get());
        async move { admin.get_json::<TracePage>(&path).await }
    });
    let search = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let text = typed.get_untracked().trim().to_string();
        query.update(|q| {
            q.q = Some(text).filter(|t| !t.is_empty());
            q.offset = Some(0);
        });
    };
    let open = {
        let navigate = navigate.clone();
        Callback::new(move |id: String| {
            navigate(&format!("/admin/traces/{id}"), NavigateOptions::default())
        })
    };
    let close = Callback::new(move |_: ()| navigate("/admin/traces", NavigateOptions::default()));
    let offset = move || query.with(|q| q.offset.unwrap_or(0));
    let step = move |forward: bool| {
        query.update(|q| {
            let o = q.offset.unwrap_or(0);
            q.offset = Some(if forward {
                o + PAGE
            } else {
                o.saturating_sub(PAGE)
            });
        })
    };

    view! {
        <div class="admin-section">
            <form class="trace-filters" role="search" on:submit=search>
                <div class="search-line">
                    <label class="visually-hidden" for="trace-search">"Search questions, rewrites and answers"</label>
                    <input id="trace-search" type="search" data-testid="trace-search"
                        placeholder="Search questions, rewrites and answers"
                        prop:value=move || typed.get() on:input=move |e| typed.set(event_target_value(&e)) />
                    <button type="submit" class="button" data-testid="trace-search-submit">"Search"</button>
                </div>
                <fieldset class="filter-set">
                    <legend class="visually-hidden">"Show only"</legend>
                    {FILTERS.iter().enumerate().map(|(i, (testid, label))| view! {
                        <label class="filter">
                            <input type="checkbox" data-testid=*testid
                                prop:checked=move || query.with(|q| flags(q)[i])
                                on:change=move |e| {
                                    let on = event_target_checked(&e);
                                    query.update(|q| { set_flag(q, i, on); q.offset = Some(0); });
                                } />
                            {*label}
                        </label>
                    }).collect_view()}
                </fieldset>
                <button type="button" class="button subtle" data-testid="traces-refresh"
                    on:click=move |_| page.refetch()>"Refresh"</button>
            </form>
            {move || match page.get() {
                None => view! { <Loading text="Loading traces…" /> }.into_any(),
                Some(Err(e)) => view! { <LoadError error=e retry=move || page.refetch() /> }.into_any(),
                Some(Ok(p)) => {
                    let from = offset() as u64;
                    let shown = p.traces.len() as u64;
                    let total = p.total;
                    view! {
                        <p class="muted small" data-testid="trace-total" data-value=total.to_string()>
                            {if shown == 0 {
                                format!("{total} turn{} match.", if total == 1 { "" } else { "s" })
                            } else {
                                format!("Turns {}–{} of {total}", from + 1, from + shown)
                            }}
                        </p>
                        {if p.traces.is_empty() {
                            view! { <p class="admin-empty" data-testid="traces-empty">"No turns match these filters."</p> }.into_any()
                        } else {
                            view! { <TraceTable rows=p.traces turn=turn open=open /> }.into_any()
                        }}
                        <div class="pager">
                            <button type="button" class="button" data-testid="trace-prev"
                                disabled={from == 0} on:click=move |_| step(false)>"← Newer"</button>
                            <button type="button" class="button" data-testid="trace-next"
                                disabled={from + shown >= total} on:click=move |_| step(true)>"Older →"</button>
                        </div>
                    }.into_any()
                }
            }}
        </div>
        {move || turn.get().map(|id| view! { <TraceDrawer id=id on_close=close /> })}
    }
}

#[component]
fn TraceTable(
    rows: Vec<TraceSummary>,
    turn: Signal<Option<String>>,
    open: Callback<String>,
) -> impl IntoView {
    view! {
        <div class="table-scroll">
            <table class="admin-table traces" data-testid="trace-table">
                <thead>
                    <tr>
                        <th scope="col">"Time"</th>
                        <th scope="col">"Question"</th>
                        <th scope="col">"Category"</th>
                        <th scope="col">"Source"</th>
                        <th scope="col" class="num">"Confidence"</th>
                        <th scope="col" class="num">"Cards"</th>
                        <th scope="col" class="num">"Latency"</th>
                        <th scope="col">"Feedback"</th>
                        <th scope="col">"Status"</th>
                    </tr>
                </thead>
                <tbody>
                    {rows.into_iter().map(|t| {
                        let id = t.id.clone();
                        let active = {
                            let id = id.clone();
                            move || turn.with(|c| c.as_deref() == Some(id.as_str()))
                        };
                        view! {
                            <tr class="clickable" class:active=active data-testid="trace-row" data-id=t.id.clone()
                                on:click=move |_| open.run(id.clone())>
                                <td class="nowrap">{crate::ui::time::from_iso(&t.created_at)}</td>
                                <td class="question-cell">
                                    // The button makes the row reachable by keyboard; its click bubbles to the row.
                                    <button type="button" class="link" title=t.question.clone()>{first_line(&t.question, 120)}</button>
                                </td>
                                <td>{t.category.as_str()}</td>
                                <td>
                                    <span class=format!("chip source-{}", t.source)>{t.source.as_str()}</span>
                                    {t.no_match.then(|| view! { " " <span class="badge warn" data-testid="trace-no-match">"no match"</span> })}
                                </td>
                                <td class="num">{pct(t.confidence as f64)}</td>
                                <td class="num">{t.cards}</td>
                                <td class="num nowrap">{ms(t.latency_ms as f64)}</td>
                                <td class="nowrap">{feedback_view(t.feedback)}</td>
                                <td class="nowrap">
                                    <span class=format!("badge status-{}", t.status)>{t.status.as_str()}</span>
                                    {(t.errors > 0).then(|| view! {
                                        " " <span class="badge danger">{format!("{} error{}", t.errors, if t.errors == 1 { "" } else { "s" })}</span>
                                    })}
                                </td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}
