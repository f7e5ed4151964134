use crate::api::conversation::{MAX_TITLE_CHARS, SessionItem};
use crate::api::functions::{delete_session, list_sessions, rename_session};
use crate::ui::state::Shared;
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::NavigateOptions;
use leptos_router::hooks::use_navigate;

#[component]
pub fn Sidebar() -> impl IntoView {
    let shared = Shared::get();
    let navigate = use_navigate();
    let sessions = LocalResource::new(move || {
        shared.sessions_version.track();
        list_sessions()
    });
    let error = RwSignal::new(None::<String>);
    let new_chat = {
        let navigate = navigate.clone();
        move |_| {
            shared.fresh.update(|n| *n += 1);
            shared.sidebar_open.set(false);
            navigate("/", NavigateOptions::default());
        }
    };

    view! {
        <nav class="sidebar" aria-label="Conversations" data-testid="sidebar">
            <div class="sidebar-head">
                <a class="brand" href="/">{crate::PRODUCT_NAME}</a>
                <button type="button" class="button primary new-chat" data-testid="new-chat" on:click=new_chat>"+ New chat"</button>
            </div>
            {move || error.get().map(|e| view! { <p class="error small" role="alert">{e}</p> })}
            <ul class="session-list" data-testid="session-list">
                {move || match sessions.get() {
                    None => view! { <li class="muted small">"Loading…"</li> }.into_any(),
                    Some(Err(e)) => view! { <li class="error small">{e.message}</li> }.into_any(),
                    Some(Ok(list)) if list.is_empty() => view! {
                        <li class="muted small">"Your conversations will appear here."</li>
                    }.into_any(),
                    Some(Ok(list)) => list.into_iter().map(|s| view! {
                        <SessionRow s=s error=error navigate=navigate.clone() />
                    }).collect_view().into_any(),
                }}
            </ul>
            <div class="sidebar-foot">
                // A full page load: switching sides in place would dispose the
                // link's own component mid-navigation and leave the URL behind.
                <a class="admin-link" href="/admin" rel="external" data-testid="admin-link"
                    title="Quality, traces, index and requests (needs the admin token)">"Admin"</a>
            </div>
        </nav>
        <div class="sidebar-scrim" on:click=move |_| shared.sidebar_open.set(false)></div>
    }
}

#[component]
fn SessionRow(
    s: SessionItem,
    error: RwSignal<Option<String>>,
    navigate: impl Fn(&str, NavigateOptions) + Clone + Send + Sync + 'static,
) -> impl IntoView {
    let shared = Shared::get();
    let editing = RwSignal::new(false);
    let draft = RwSignal::new(s.title.clone());
    let id = s.id.clone();
    let active = {
        let id = id.clone();
        move || shared.session.get().as_deref() == Some(id.as_str())
    };
    let save = {
        let id = id.clone();
        move || {
            let title = draft.get_untracked().trim().to_string();
            editing.set(false);
            if title.is_empty() {
                return;
            }
            let id = id.clone();
            spawn_local(async move {
                match rename_session(id, title).await {
                    Ok(()) => shared.sessions_changed(),
                    Err(e) => error.set(Some(e.message)),
                }
            });
        }
    };
    let remove = {
        let id = id.clone();
        move |_| {
            let ok = window()
                .confirm_with_message("Delete this conversation? This cannot be undone.")
                .unwrap_or(false);
            if !ok {
                return;
            }
            let id = id.clone();
            let navigate = navigate.clone();
            spawn_local(async move {
                match delete_session(id.clone()).await {
                    Ok(()) => {
                        if shared.session.get_untracked().as_deref() == Some(id.as_str()) {
                            shared.fresh.update(|n| *n += 1);
                            navigate("/", NavigateOptions::default());
                        }
                        shared.sessions_changed();
                    }
                    Err(e) => error.set(Some(e.message)),
                }
            });
        }
    };
    let save_on_enter = save.clone();
    let save_on_blur = save.clone();
    let save_on_submit = save.clone();
    let href = format!("/c/{}", s.id);
    let title = s.title.clone();
    view! {
        <li class="session" class:active=active data-testid="session" data-id=s.id.clone()>
            <Show when=move || editing.get() fallback={
                let href = href.clone();
                let title = title.clone();
                move || view! {
                    <a class="session-link" href=href.clone() data-testid="session-link" title=title.clone()>{title.clone()}</a>
                }
            }>
                <form class="rename" on:submit={
                    let save = save_on_submit.clone();
                    move |ev| { ev.prevent_default(); save(); }
                }>
                    <label class="visually-hidden" for=format!("rename-{}", id)>"Conversation title"</label>
                    <input id=format!("rename-{}", id) data-testid="rename-input" maxlength=MAX_TITLE_CHARS.to_string()
                        prop:value=move || draft.get() on:input=move |e| draft.set(event_target_value(&e))
                        on:keydown={
                            let save = save_on_enter.clone();
                            move |e| if e.key() == "Escape" { e.stop_propagation(); editing.set(false); } else if e.key() == "Enter" { e.prevent_default(); save(); }
                        }
                        on:blur={
                            let save = save_on_blur.clone();
                            move |_| if editing.get_untracked() { save() }
                        } autofocus />
                </form>
            </Show>
            <span class="session-actions">
                <button type="button" class="icon-button small" data-testid="rename" title="Rename"
                    on:click=move |_| editing.set(true)>{crate::ui::icons::pencil()}<span class="visually-hidden">"Rename"</span></button>
                <button type="button" class="icon-button small" data-testid="delete" title="Delete"
                    on:click=remove>{crate::ui::icons::trash()}<span class="visually-hidden">"Delete"</span></button>
            </span>
        </li>
    }
}
