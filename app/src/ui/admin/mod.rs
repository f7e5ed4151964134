//! The admin console at `/admin`: how the assistant is doing (quality), what it
//! did on each turn (traces), a question tried without saving it (test query), the
//! index and reindexing, and the codebundle requests people filed. It is a plain
//! client of `/api/admin/*` behind a bearer token and keeps no data of its own.
//! The tab lives in the URL (`/admin/traces/<turn>`), so reload, back and shared
//! links land on the same view.

mod auth;
mod client;
mod index;
mod quality;
mod requests;
mod session;
mod test_query;
mod trace_detail;
mod trace_view;
mod traces;
mod widgets;

use crate::routes::{Tab, route};
use leptos::prelude::*;
use leptos_router::NavigateOptions;
use leptos_router::hooks::{use_location, use_navigate};
use session::Admin;
use wasm_bindgen::JsCast;

#[component]
pub fn AdminConsole() -> impl IntoView {
    let admin = Admin::new();
    provide_context(admin);
    let signed_in = Memo::new(move |_| admin.token.with(Option::is_some));
    view! {
        <div class="admin-page" data-testid="admin-page">
            <header class="topbar admin-topbar">
                <a class="brand" href="/" rel="external">{crate::PRODUCT_NAME}</a>
                <span class="admin-label">"Admin"</span>
                <div class="topbar-actions">
                    <a class="button subtle" href="/" rel="external" data-testid="back-to-chat">"Back to chat"</a>
                    <Show when=move || signed_in.get()>
                        <button type="button" class="button subtle" data-testid="admin-logout"
                            on:click=move |_| admin.sign_out(None)>"Sign out"</button>
                    </Show>
                    <crate::ui::theme::ThemeToggle />
                </div>
            </header>
            <main class="admin-main">
                {move || if signed_in.get() {
                    view! { <Console /> }.into_any()
                } else {
                    view! { <auth::Login /> }.into_any()
                }}
            </main>
        </div>
    }
}

#[component]
fn Console() -> impl IntoView {
    let location = use_location();
    let navigate = use_navigate();
    let place = Memo::new(move |_| route(&location.pathname.get()));
    let tab = Memo::new(move |_| place.get().0);
    let turn = Memo::new(move |_| place.get().1);
    let go = Callback::new(move |t: Tab| {
        navigate(&format!("/admin/{}", t.slug()), NavigateOptions::default());
    });
    // Arrow keys move between tabs (the WAI-ARIA tabs pattern), focus follows.
    let keys = move |ev: leptos::ev::KeyboardEvent| {
        let i = Tab::ALL
            .iter()
            .position(|t| *t == tab.get_untracked())
            .unwrap_or(0);
        let n = Tab::ALL.len();
        let next = match ev.key().as_str() {
            "ArrowRight" => (i + 1) % n,
            "ArrowLeft" => (i + n - 1) % n,
            "Home" => 0,
            "End" => n - 1,
            _ => return,
        };
        ev.prevent_default();
        let t = Tab::ALL[next];
        go.run(t);
        if let Some(el) = document()
            .get_element_by_id(&format!("tab-{}", t.slug()))
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = el.focus();
        }
    };

    view! {
        <div class="admin-console" data-testid="admin-console">
            <div class="admin-tabs" role="tablist" aria-label="Admin sections" on:keydown=keys>
                {Tab::ALL.into_iter().map(|t| view! {
                    <button type="button" role="tab" class="admin-tab" id=format!("tab-{}", t.slug())
                        data-testid=format!("tab-{}", t.slug()) aria-controls="admin-panel"
                        aria-selected=move || (tab.get() == t).to_string()
                        tabindex=move || if tab.get() == t { "0" } else { "-1" }
                        on:click=move |_| go.run(t)>
                        {t.label()}
                    </button>
                }).collect_view()}
            </div>
            <section id="admin-panel" class="admin-panel" role="tabpanel"
                aria-labelledby=move || format!("tab-{}", tab.get().slug())>
                {move || match tab.get() {
                    Tab::Quality => view! { <quality::QualityTab /> }.into_any(),
                    Tab::Traces => view! { <traces::TracesTab turn=turn /> }.into_any(),
                    Tab::Test => view! { <test_query::TestQueryTab /> }.into_any(),
                    Tab::Index => view! { <index::IndexTab /> }.into_any(),
                    Tab::Requests => view! { <requests::RequestsTab /> }.into_any(),
                }}
            </section>
        </div>
    }
}
