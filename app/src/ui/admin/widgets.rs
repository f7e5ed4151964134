//! Small pieces every admin tab uses: a failure with its retry button (so nothing
//! hangs silently), a loading line, stat tiles, and number formats.

use crate::api::ApiError;
use leptos::prelude::*;

#[component]
pub fn LoadError(error: ApiError, #[prop(into)] retry: Callback<()>) -> impl IntoView {
    view! {
        <div class="admin-alert" role="alert" data-testid="admin-load-error">
            <span>{error.message}</span>
            <button type="button" class="button" data-testid="admin-retry" on:click=move |_| retry.run(())>
                "Retry"
            </button>
        </div>
    }
}

#[component]
pub fn Loading(#[prop(default = "Loading…")] text: &'static str) -> impl IntoView {
    view! {
        <p class="admin-loading" role="status"><span class="spinner"></span>{text}</p>
    }
}

/// One figure: big value, label underneath; `raw` goes to `data-value` for tests
/// and scripts that want the number, not its formatting.
#[component]
pub fn Stat(
    testid: &'static str,
    label: &'static str,
    value: String,
    raw: String,
    #[prop(default = "")] hint: &'static str,
) -> impl IntoView {
    view! {
        <div class="stat" data-testid=testid data-value=raw title=hint>
            <span class="stat-value">{value}</span>
            <span class="stat-label">{label}</span>
        </div>
    }
}

/// 0.125 → "12.5%".
pub fn pct(x: f64) -> String {
    if x.is_finite() {
        format!("{:.1}%", x * 100.0)
    } else {
        "—".into()
    }
}

/// Milliseconds, as "85 ms" or "2.40 s".
pub fn ms(x: f64) -> String {
    if !x.is_finite() {
        "—".into()
    } else if x >= 1000.0 {
        format!("{:.2} s", x / 1000.0)
    } else if x >= 10.0 {
        format!("{x:.0} ms")
    } else {
        format!("{x:.1} ms")
    }
}

/// A commit hash as people quote it.
pub fn short_commit(c: Option<&str>) -> String {
    match c.map(str::trim).filter(|c| !c.is_empty()) {
        Some(c) => c.chars().take(7).collect(),
        None => "—".into(),
    }
}

/// The first line of free text, shortened for a table cell.
pub fn first_line(text: &str, max: usize) -> String {
    let line = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim();
    if line.chars().count() > max {
        let cut: String = line.chars().take(max).collect();
        format!("{}…", cut.trim_end())
    } else {
        line.to_string()
    }
}

/// Thumbs up / down / none (icons, not emoji: those depend on the fonts installed).
pub fn feedback_view(f: Option<i8>) -> AnyView {
    match f {
        Some(v) if v > 0 => view! {
            <span class="feedback-up">{crate::ui::icons::thumbs_up()}" up"</span>
        }
        .into_any(),
        Some(v) if v < 0 => view! {
            <span class="feedback-down">{crate::ui::icons::thumbs_down()}" down"</span>
        }
        .into_any(),
        _ => view! { <span class="muted">"—"</span> }.into_any(),
    }
}
