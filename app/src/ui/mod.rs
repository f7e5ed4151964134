//! The single-page app. Components are grouped by feature; each talks to the server
//! through `api` (server functions) or `chat::transport` (the answer stream).

mod chat;
mod health;

use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes};
use leptos_router::path;

#[component]
pub fn App() -> impl IntoView {
    view! {
        <Router>
            <Routes fallback=|| view! { <p class="not-found">"Page not found."</p> }>
                <Route path=path!("/") view=chat::ChatPage />
            </Routes>
        </Router>
    }
}
