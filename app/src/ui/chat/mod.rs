//! The conversation: transcript, composer and the stream that feeds them.

mod composer;
mod exchange;
mod transcript;
mod transport;

use crate::api::{ChatEvent, ChatRequest};
use exchange::Exchange;
use leptos::prelude::*;
use leptos::task::spawn_local;

#[component]
pub fn ChatPage() -> impl IntoView {
    let exchanges = RwSignal::new(Vec::<Exchange>::new());
    let busy = RwSignal::new(false);
    let abort = StoredValue::new_local(None::<web_sys::AbortController>);

    let ask = move |question: String| {
        if busy.get_untracked() {
            return;
        }
        let ex = Exchange::new(question.clone());
        exchanges.update(|v| v.push(ex.clone()));
        busy.set(true);
        let controller = web_sys::AbortController::new().ok();
        let signal = controller.as_ref().map(|c| c.signal());
        abort.set_value(controller);
        spawn_local(async move {
            let request = ChatRequest {
                question,
                session_id: None,
            };
            let result =
                transport::stream_turn(&request, signal.as_ref(), |ev| apply(&ex, ev)).await;
            if let Err(e) = result {
                if ex.stopped.get_untracked() {
                    ex.stage.set(None);
                } else {
                    ex.fail(e.message);
                }
            }
            ex.streaming.set(false);
            busy.set(false);
            abort.set_value(None);
        });
    };

    let stop = move || {
        if let Some(c) = abort.get_value() {
            if let Some(ex) = exchanges.get_untracked().last() {
                ex.stopped.set(true);
            }
            c.abort();
        }
    };

    view! {
        <div class="app">
            <header class="topbar">
                <h1 class="brand">{crate::PRODUCT_NAME}</h1>
            </header>
            <super::health::HealthBanner />
            <main class="chat">
                <transcript::Transcript exchanges=exchanges />
                <composer::Composer busy=busy on_ask=ask on_stop=stop />
            </main>
        </div>
    }
}

fn apply(ex: &Exchange, ev: ChatEvent) {
    match ev {
        ChatEvent::Stage { detail, .. } => ex.stage.set(Some(detail)),
        ChatEvent::Token { text } => ex.answer.update(|a| a.push_str(&text)),
        ChatEvent::Done { .. } => {
            ex.stage.set(None);
            ex.done.set(true);
        }
        ChatEvent::Error { message, .. } => ex.fail(message),
        // Rendered by the cards and request features.
        ChatEvent::Cards { .. }
        | ChatEvent::Citations { .. }
        | ChatEvent::RequestCodebundle { .. } => {}
    }
}
