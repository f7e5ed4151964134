//! The sign-in form: the admin token is checked against the server before it is
//! kept (see `session`).

use super::client;
use super::session::{Admin, explain};
use leptos::html::Input;
use leptos::prelude::*;
use leptos::task::spawn_local;

#[component]
pub fn Login() -> impl IntoView {
    let admin = Admin::get();
    let draft = RwSignal::new(String::new());
    let checking = RwSignal::new(false);
    let input = NodeRef::<Input>::new();
    Effect::new(move |_| {
        if let Some(i) = input.get() {
            let _ = i.focus();
        }
    });
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let token = draft.get_untracked().trim().to_string();
        if token.is_empty() {
            admin
                .notice
                .set(Some("Enter the admin token first.".into()));
            return;
        }
        if checking.get_untracked() {
            return;
        }
        checking.set(true);
        admin.notice.set(None);
        spawn_local(async move {
            match client::check(&token).await {
                Ok(()) => admin.sign_in(token),
                Err(e) => {
                    admin.notice.set(Some(explain(&e)));
                    draft.set(String::new());
                }
            }
            checking.set(false);
        });
    };
    view! {
        <form class="admin-login" on:submit=submit data-testid="admin-login-form">
            <h1>"Admin sign-in"</h1>
            <p class="muted">
                "Enter the admin token configured on the server (" <code>"admin.token"</code>
                "). It is kept for this browser tab only and sent with every admin request."
            </p>
            <label for="admin-token">"Admin token"</label>
            <input id="admin-token" type="password" autocomplete="current-password" node_ref=input
                data-testid="admin-token" spellcheck="false"
                prop:value=move || draft.get() on:input=move |e| draft.set(event_target_value(&e)) />
            {move || admin.notice.get().map(|n| view! {
                <p class="error" role="alert" data-testid="admin-error">{n}</p>
            })}
            <button type="submit" class="button primary" data-testid="admin-login" disabled=move || checking.get()>
                {move || if checking.get() { "Checking…" } else { "Sign in" }}
            </button>
        </form>
    }
}
