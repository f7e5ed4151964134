//! Light and dark: follows the system until the user picks one with the toggle; the
//! choice is kept in localStorage and applied as `<html data-theme>` (index.html
//! applies it before the app loads, so there is no flash).

use leptos::prelude::*;

const KEY: &str = "registry-chat-theme";

fn root() -> Option<web_sys::HtmlElement> {
    document()
        .document_element()
        .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok())
}

fn stored() -> Option<String> {
    window()
        .local_storage()
        .ok()
        .flatten()
        .and_then(|s| s.get_item(KEY).ok().flatten())
        .filter(|v| v == "dark" || v == "light")
}

fn system_dark() -> bool {
    window()
        .match_media("(prefers-color-scheme: dark)")
        .ok()
        .flatten()
        .is_some_and(|m| m.matches())
}

/// The theme in effect: the stored choice, else the system's.
pub fn current() -> &'static str {
    match stored().as_deref() {
        Some("dark") => "dark",
        Some("light") => "light",
        _ if system_dark() => "dark",
        _ => "light",
    }
}

fn apply(theme: &str) {
    if let Some(r) = root() {
        let _ = r.set_attribute("data-theme", theme);
    }
}

pub fn init() {
    if let Some(t) = stored() {
        apply(&t);
    }
}

#[component]
pub fn ThemeToggle() -> impl IntoView {
    let theme = RwSignal::new(current().to_string());
    let toggle = move |_| {
        let next = if theme.get_untracked() == "dark" {
            "light"
        } else {
            "dark"
        };
        apply(next);
        if let Ok(Some(s)) = window().local_storage() {
            let _ = s.set_item(KEY, next);
        }
        theme.set(next.to_string());
    };
    view! {
        <button
            type="button"
            class="icon-button"
            data-testid="theme-toggle"
            aria-pressed=move || (theme.get() == "dark").to_string()
            title=move || if theme.get() == "dark" { "Switch to light mode" } else { "Switch to dark mode" }
            on:click=toggle
        >
            {move || if theme.get() == "dark" { crate::ui::icons::sun().into_any() } else { crate::ui::icons::moon().into_any() }}
            <span class="visually-hidden">"Dark mode"</span>
        </button>
    }
}
