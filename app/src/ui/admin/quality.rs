//! How the assistant is doing over a window of days: the rates that say whether
//! people find what they need, where the time goes per stage, the worst turns to
//! read, and advice for figures past their threshold. The golden-set download
//! turns this window's thumbs-down and no-match turns into eval lines.

use super::session::Admin;
use super::widgets::{LoadError, Loading, Stat, ms, pct};
use crate::api::admin::Quality;
use crate::ui::download::save_text;
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::NavigateOptions;
use leptos_router::hooks::use_navigate;

const WINDOWS: [u32; 4] = [1, 7, 30, 90];
const GOLDEN_FILE: &str = "golden-from-feedback.jsonl";

#[component]
pub fn QualityTab() -> impl IntoView {
    let admin = Admin::get();
    let days = RwSignal::new(7u32);
    let data = LocalResource::new(move || {
        let d = days.get();
        async move {
            admin
                .get_json::<Quality>(&format!("/api/admin/quality?days={d}"))
                .await
        }
    });
    view! {
        <div class="admin-section">
            <div class="admin-toolbar">
                <label for="quality-days">"Window"</label>
                <select id="quality-days" data-testid="quality-days"
                    on:change=move |e| if let Ok(d) = event_target_value(&e).parse() { days.set(d) }>
                    {WINDOWS.iter().map(|d| view! {
                        <option value=d.to_string() selected=move || days.get() == *d>
                            {if *d == 1 { "Last 24 hours".to_string() } else { format!("Last {d} days") }}
                        </option>
                    }).collect_view()}
                </select>
                <button type="button" class="button subtle" data-testid="quality-refresh"
                    on:click=move |_| data.refetch()>"Refresh"</button>
                <GoldenDownload days=days />
            </div>
            {move || match data.get() {
                None => view! { <Loading text="Computing quality figures…" /> }.into_any(),
                Some(Err(e)) => view! { <LoadError error=e retry=move || data.refetch() /> }.into_any(),
                Some(Ok(q)) => view! { <QualityReport q=q /> }.into_any(),
            }}
        </div>
    }
}

#[component]
fn GoldenDownload(days: RwSignal<u32>) -> impl IntoView {
    let admin = Admin::get();
    let busy = RwSignal::new(false);
    let status = RwSignal::new(None::<(bool, String)>);
    let download = move |_| {
        if busy.get_untracked() {
            return;
        }
        busy.set(true);
        status.set(None);
        let d = days.get_untracked();
        spawn_local(async move {
            let result = admin.get_text(&format!("/api/admin/golden?days={d}")).await;
            let outcome = match result {
                Ok(text) if text.trim().is_empty() => (
                    false,
                    "Nothing to export: no thumbs-down or no-match turns in this window.".into(),
                ),
                Ok(text) => match save_text(GOLDEN_FILE, "application/x-ndjson", &text) {
                    Ok(()) => {
                        let n = text.lines().filter(|l| !l.trim().is_empty()).count();
                        (
                            true,
                            format!(
                                "Saved {n} line{} as {GOLDEN_FILE}.",
                                if n == 1 { "" } else { "s" }
                            ),
                        )
                    }
                    Err(e) => (false, e),
                },
                Err(e) => (false, e.message),
            };
            status.set(Some(outcome));
            busy.set(false);
        });
    };
    view! {
        <button type="button" class="button" data-testid="golden-download" disabled=move || busy.get()
            title="Thumbs-down and no-match turns of this window as eval lines (JSONL), for a person to complete"
            on:click=download>
            {move || if busy.get() { "Preparing…" } else { "Download golden set" }}
        </button>
        {move || status.get().map(|(ok, m)| view! {
            <span class=if ok { "small success" } else { "small error" } role="status" data-testid="golden-status">{m}</span>
        })}
    }
}

#[component]
fn QualityReport(q: Quality) -> impl IntoView {
    let navigate = use_navigate();
    let ratio = q.thumbs_ratio;
    let period = format!(
        "{} to {}",
        crate::ui::time::from_iso(&q.from),
        crate::ui::time::from_iso(&q.to)
    );
    view! {
        <p class="muted small" data-testid="quality-period">{period}</p>
        <div class="stats">
            <Stat testid="quality-turns" label="Turns" value=q.turns.to_string() raw=q.turns.to_string() />
            <Stat testid="quality-no-match" label="No-match rate" value=pct(q.no_match_rate) raw=q.no_match_rate.to_string()
                hint="Turns where nothing in the registry fit" />
            <Stat testid="quality-follow-up-failures" label="Follow-up failure rate" value=pct(q.follow_up_failure_rate)
                raw=q.follow_up_failure_rate.to_string()
                hint="Follow-ups that ended in no match, failed, or got a thumbs-down" />
            <Stat testid="quality-errors" label="Error rate" value=pct(q.error_rate) raw=q.error_rate.to_string() />
            <Stat testid="quality-avg-cards" label="Cards per answer" value=format!("{:.1}", q.avg_cards) raw=q.avg_cards.to_string() />
            <Stat testid="quality-avg-confidence" label="Average confidence" value=pct(q.avg_confidence) raw=q.avg_confidence.to_string() />
            <Stat testid="quality-thumbs-up" label="Thumbs up" value=q.thumbs_up.to_string() raw=q.thumbs_up.to_string() />
            <Stat testid="quality-thumbs-down" label="Thumbs down" value=q.thumbs_down.to_string() raw=q.thumbs_down.to_string() />
            <Stat testid="quality-thumbs-ratio" label="Thumbs-up ratio" value=ratio.map_or_else(|| "—".into(), pct)
                raw=ratio.map_or_else(String::new, |r| r.to_string()) hint="Up / (up + down)" />
        </div>

        <section class="admin-card">
            <h2>"Recommendations"</h2>
            {if q.recommendations.is_empty() {
                view! {
                    <p class="muted" data-testid="no-recommendations">
                        "No recommendations: every figure is within its threshold, or there are too few turns to judge."
                    </p>
                }.into_any()
            } else {
                view! {
                    <ul class="recommendations">
                        {q.recommendations.into_iter().map(|r| view! {
                            <li data-testid="recommendation">
                                <strong>{r.metric.replace('_', " ")}</strong>
                                <span class="muted small">{format!(" {} (threshold {})", fmt_metric(&r.metric, r.value), fmt_metric(&r.metric, r.threshold))}</span>
                                <p>{r.advice}</p>
                            </li>
                        }).collect_view()}
                    </ul>
                }.into_any()
            }}
        </section>

        <div class="admin-columns">
            <section class="admin-card">
                <h2>"Latency by stage"</h2>
                {if q.latency.is_empty() {
                    view! { <p class="muted">"No turns in this window."</p> }.into_any()
                } else {
                    view! {
                        <div class="table-scroll">
                            <table class="admin-table" data-testid="quality-latency">
                                <thead><tr><th scope="col">"Stage"</th><th scope="col" class="num">"p50"</th><th scope="col" class="num">"p95"</th></tr></thead>
                                <tbody>
                                    {q.latency.into_iter().map(|l| {
                                        let total = l.stage == "total";
                                        view! {
                                        <tr data-testid="latency-row" class:total=total>
                                            <td>{l.stage}</td><td class="num">{ms(l.p50_ms)}</td><td class="num">{ms(l.p95_ms)}</td>
                                        </tr>
                                    }}).collect_view()}
                                </tbody>
                            </table>
                        </div>
                    }.into_any()
                }}
            </section>
            <section class="admin-card">
                <h2>"Worst queries"</h2>
                {if q.worst.is_empty() {
                    view! { <p class="muted">"Nothing stands out."</p> }.into_any()
                } else {
                    view! {
                        <ol class="worst">
                            {q.worst.into_iter().map(|w| {
                                let navigate = navigate.clone();
                                let href = format!("/admin/traces/{}", w.turn_id);
                                view! {
                                    <li data-testid="worst-query">
                                        <button type="button" class="link" title="Open this turn's trace"
                                            on:click=move |_| navigate(&href, NavigateOptions::default())>{w.question}</button>
                                        <span class="muted small">{format!(" · {} · confidence {}", w.reason, pct(w.confidence as f64))}</span>
                                    </li>
                                }
                            }).collect_view()}
                        </ol>
                    }.into_any()
                }}
            </section>
        </div>
    }
}

/// Rates and shares as percentages, durations in ms, other figures as numbers.
fn fmt_metric(metric: &str, v: f64) -> String {
    if metric.ends_with("_ms") {
        ms(v)
    } else if ["_rate", "_share", "ratio", "confidence"]
        .iter()
        .any(|s| metric.contains(s))
    {
        pct(v)
    } else {
        format!("{v:.2}")
    }
}
