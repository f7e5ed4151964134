//! The conversation page: top bar, transcript and composer, and the stream that
//! feeds them. The URL (`/` or `/c/:id`) decides which conversation is shown; a new
//! conversation gets its URL when its first answer is saved.

mod answer;
mod composer;
mod exchange;
mod feedback;
mod transcript;
mod transport;

use super::state::Shared;
use crate::api::functions::get_conversation;
use crate::api::{ApiError, ChatEvent, ChatRequest, ErrorCode};
use exchange::{Exchange, Outcome};
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::NavigateOptions;
use leptos_router::hooks::{use_location, use_navigate};

/// Everything the transcript and answers need to act on the conversation.
#[derive(Clone, Copy)]
pub struct Chat {
    pub exchanges: RwSignal<Vec<Exchange>>,
    pub ask: Callback<String>,
    /// Re-asks a question whose answer failed, replacing that answer.
    pub retry: Callback<u64>,
}

fn session_in(path: &str) -> Option<String> {
    path.strip_prefix("/c/")
        .map(|s| s.trim_end_matches('/').to_string())
        .filter(|s| !s.is_empty())
}

#[component]
pub fn ChatPage() -> impl IntoView {
    let shared = Shared::get();
    let exchanges = RwSignal::new(Vec::<Exchange>::new());
    let title = RwSignal::new(None::<String>);
    let loading = RwSignal::new(false);
    let load_error = RwSignal::new(None::<String>);
    let announce = RwSignal::new(String::new());
    // Stop aborts the running turn's future, which drops its stream (see
    // `transport`).
    let abort = StoredValue::new_local(None::<futures::future::AbortHandle>);
    let location = use_location();
    let navigate = use_navigate();
    // Exchanges belong to the page, not to whichever button asked: an owner like
    // "Regenerate" is disposed as soon as the turn starts, and its signals with it.
    let owner = Owner::current().expect("the chat page has an owner");
    let owner2 = owner.clone();

    let stop = move || {
        if let Some(c) = abort.get_value() {
            if let Some(ex) = exchanges.get_untracked().last() {
                ex.stopped.set(true);
            }
            c.abort();
        }
    };
    shared.stop.set_value(Some(Callback::new(move |_| stop())));

    // The URL decides the conversation on screen.
    Effect::new(move |_| {
        let wanted = session_in(&location.pathname.get());
        if wanted == shared.session.get_untracked() {
            return;
        }
        if shared.busy.get_untracked() {
            stop();
        }
        load_error.set(None);
        shared.sidebar_open.set(false);
        match wanted {
            None => {
                exchanges.set(Vec::new());
                title.set(None);
                shared.session.set(None);
            }
            Some(id) => {
                loading.set(true);
                shared.session.set(Some(id.clone()));
                let owner2 = owner2.clone();
                spawn_local(async move {
                    match get_conversation(id.clone()).await {
                        Ok(c) if shared.session.get_untracked().as_deref() == Some(&id) => {
                            title.set(Some(c.title));
                            let saved =
                                owner2.with(|| c.turns.into_iter().map(Exchange::saved).collect());
                            exchanges.set(saved);
                        }
                        Ok(_) => {}
                        Err(e) => {
                            exchanges.set(Vec::new());
                            title.set(None);
                            load_error.set(Some(if e.code == ErrorCode::SessionNotFound {
                                "That conversation does not exist; it may have been deleted.".into()
                            } else {
                                e.message
                            }));
                        }
                    }
                    loading.set(false);
                });
            }
        }
    });

    // "New chat" while already at `/`.
    Effect::new(move |prev: Option<u32>| {
        let n = shared.fresh.get();
        if prev.is_some() {
            if shared.busy.get_untracked() {
                stop();
            }
            exchanges.set(Vec::new());
            title.set(None);
            load_error.set(None);
            shared.session.set(None);
        }
        n
    });

    let ask = {
        let navigate = navigate.clone();
        Callback::new(move |question: String| {
            if shared.busy.get_untracked() {
                return;
            }
            let ex = owner.with(|| Exchange::new(question.clone()));
            exchanges.update(|v| v.push(ex.clone()));
            shared.busy.set(true);
            announce.set(String::new());
            let (handle, registration) = futures::future::AbortHandle::new_pair();
            abort.set_value(Some(handle));
            let navigate = navigate.clone();
            spawn_local(async move {
                let request = ChatRequest {
                    question,
                    session_id: shared.session.get_untracked(),
                };
                let turn = transport::stream_turn(&request, |ev| {
                    if let ChatEvent::Done {
                        session_id: Some(sid),
                        title: t,
                        ..
                    } = &ev
                    {
                        if t.is_some() {
                            title.set(t.clone());
                        }
                        if shared.session.get_untracked().as_deref() != Some(sid) {
                            shared.session.set(Some(sid.clone()));
                            navigate(&format!("/c/{sid}"), NavigateOptions::default());
                        }
                        shared.sessions_changed();
                        announce.set("Answer complete".into());
                    }
                    apply(&ex, ev);
                });
                let result = futures::future::Abortable::new(turn, registration)
                    .await
                    .unwrap_or_else(|_aborted| {
                        Err(ApiError::new(ErrorCode::Network, "The answer was stopped."))
                    });
                if let Err(e) = result {
                    if ex.stopped.get_untracked() {
                        ex.stage.set(None);
                        announce.set("Answer stopped".into());
                    } else {
                        ex.fail(e.message);
                        announce.set("The answer failed".into());
                    }
                }
                ex.streaming.set(false);
                shared.busy.set(false);
                abort.set_value(None);
            });
        })
    };

    let retry = Callback::new(move |id: u64| {
        let Some(question) =
            exchanges.with_untracked(|v| v.iter().find(|e| e.id == id).map(|e| e.question.clone()))
        else {
            return;
        };
        exchanges.update(|v| v.retain(|e| e.id != id));
        ask.run(question);
    });

    let chat = Chat {
        exchanges,
        ask,
        retry,
    };
    provide_context(chat);

    view! {
        <header class="topbar">
            <button type="button" class="icon-button menu-button" aria-label="Conversations"
                data-testid="menu" on:click=move |_| shared.sidebar_open.update(|o| *o = !*o)>
                {super::icons::menu()}
            </button>
            <h1 class="conversation-title" data-testid="conversation-title">
                {move || title.get().unwrap_or_else(|| crate::PRODUCT_NAME.to_string())}
            </h1>
            <div class="topbar-actions">
                {move || shared.session.get().map(|id| view! {
                    <a class="button subtle" data-testid="export"
                        href=format!("/api/sessions/{id}/export?format=md") download
                        title="Download this conversation as a markdown report">"Export"</a>
                    <a class="button subtle hide-narrow" data-testid="export-json"
                        href=format!("/api/sessions/{id}/export?format=json") download
                        title="Download this conversation as JSON">"JSON"</a>
                })}
                <super::theme::ThemeToggle />
            </div>
        </header>
        <main class="chat" aria-busy=move || shared.busy.get().to_string()>
            {move || load_error.get().map(|e| view! {
                <div class="banner banner-error" role="alert" data-testid="load-error">
                    <span>{e}</span>
                    <a class="link" href="/">"Start a new conversation"</a>
                </div>
            })}
            <Show when=move || loading.get()>
                <p class="loading" data-testid="loading">"Loading the conversation…"</p>
            </Show>
            <transcript::Transcript />
            <composer::Composer busy=shared.busy on_ask=move |q| ask.run(q) on_stop=stop />
            <div class="visually-hidden" role="status" aria-live="polite" data-testid="announce">
                {move || announce.get()}
            </div>
        </main>
    }
}

fn apply(ex: &Exchange, ev: ChatEvent) {
    match ev {
        ChatEvent::Stage { detail, .. } => ex.stage.set(Some(detail)),
        ChatEvent::Token { text } => {
            if ex.first_token_ms.get_untracked().is_none() {
                ex.first_token_ms.set(Some(super::time::ms() - ex.sent_at));
            }
            ex.answer.update(|a| a.push_str(&text));
        }
        ChatEvent::Preview { text } => ex.preview.set(Some(text)),
        ChatEvent::Cards { cards } => ex.cards.set(cards),
        ChatEvent::Citations { citations } => ex.citations.set(citations),
        ChatEvent::RequestCodebundle { draft } => ex.request.set(Some(draft)),
        ChatEvent::Suggestions { questions } => ex.suggestions.set(questions),
        ChatEvent::Done {
            turn_id,
            elapsed_ms,
            source,
            confidence,
            no_match,
            ..
        } => {
            ex.stage.set(None);
            ex.turn_id.set(turn_id);
            ex.outcome.set(Some(Outcome {
                source,
                confidence,
                no_match,
                elapsed_ms: Some(elapsed_ms),
            }));
        }
        ChatEvent::Error { message, .. } => ex.fail(message),
    }
}
