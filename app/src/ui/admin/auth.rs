//! The admin token: typed once per browser session, checked against the server
//! before it is kept, and kept in sessionStorage (not localStorage) so it leaves
//! with the tab instead of lingering on a shared machine.

use super::client;
use crate::api::{ApiError, ErrorCode};
use leptos::html::Input;
use leptos::prelude::*;
use leptos::task::spawn_local;

const KEY: &str = "registry-chat-admin-token";

pub const INVALID_TOKEN: &str = "That token is not valid.";

/// Why a token cannot work, in words an operator can act on.
pub fn explain(e: &ApiError) -> String {
    match e.code {
        ErrorCode::Unauthorized => INVALID_TOKEN.to_string(),
        ErrorCode::AdminDisabled => "The admin area is disabled: the server has no admin token \
             configured. Set admin.token in the config file, or the REGISTRY_CHAT_ADMIN_TOKEN \
             environment variable (16 characters or more), and restart the server."
            .to_string(),
        _ => e.message.clone(),
    }
}

fn storage() -> Option<web_sys::Storage> {
    window().session_storage().ok().flatten()
}

/// The console's sign-in state, provided as context to every tab.
#[derive(Clone, Copy)]
pub struct Admin {
    pub token: RwSignal<Option<String>>,
    /// Why the user is looking at the sign-in form (bad token, admin disabled).
    pub notice: RwSignal<Option<String>>,
}

impl Admin {
    pub fn new() -> Self {
        let stored = storage()
            .and_then(|s| s.get_item(KEY).ok().flatten())
            .filter(|t| !t.trim().is_empty());
        Admin {
            token: RwSignal::new(stored),
            notice: RwSignal::new(None),
        }
    }

    pub fn get() -> Self {
        expect_context::<Admin>()
    }

    fn sign_in(self, token: String) {
        if let Some(s) = storage() {
            let _ = s.set_item(KEY, &token);
        }
        self.notice.set(None);
        self.token.set(Some(token));
    }

    pub fn sign_out(self, notice: Option<String>) {
        if let Some(s) = storage() {
            let _ = s.remove_item(KEY);
        }
        self.notice.set(notice);
        self.token.set(None);
    }
}

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
