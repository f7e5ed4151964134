//! The admin token: typed once per browser session and kept in sessionStorage (not
//! localStorage) so it leaves with the tab instead of lingering on a shared machine.
//! The sign-in form (`auth`) and the API client (`client`) both use this state;
//! neither depends on the other for it.

use crate::api::{ApiError, ErrorCode};
use leptos::prelude::*;

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

    pub fn sign_in(self, token: String) {
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
