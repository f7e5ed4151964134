//! A banner shown when the server or its database is unhealthy or unreachable.

use crate::api::functions::get_health;
use leptos::prelude::*;

#[component]
pub fn HealthBanner() -> impl IntoView {
    let health = LocalResource::new(get_health);
    move || {
        let message = match health.get() {
            None => return None,
            Some(Ok(h)) if h.is_ok() => return None,
            Some(Ok(_)) => "The server is running but its database is not answering.".to_string(),
            Some(Err(e)) => format!("The server cannot be reached right now ({}).", e.message),
        };
        Some(view! {
            <div class="banner banner-error" role="alert" data-testid="health-banner">
                <span>{message}</span>
                <button class="link" on:click=move |_| health.refetch()>"Retry"</button>
            </div>
        })
    }
}
