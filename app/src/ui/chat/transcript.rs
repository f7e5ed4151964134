use super::exchange::Exchange;
use leptos::prelude::*;

#[component]
pub fn Transcript(exchanges: RwSignal<Vec<Exchange>>) -> impl IntoView {
    view! {
        <section class="transcript" role="log" aria-label="Conversation" data-testid="transcript">
            <Show when=move || exchanges.with(Vec::is_empty)>
                <div class="empty" data-testid="empty-state">
                    <h2>"What are you troubleshooting?"</h2>
                    <p>"Describe the problem in your own words; I will point you to the codebundles that fit."</p>
                </div>
            </Show>
            <For each=move || exchanges.get() key=|ex| ex.id let:ex>
                <ExchangeView ex=ex />
            </For>
        </section>
    }
}

#[component]
fn ExchangeView(ex: Exchange) -> impl IntoView {
    let Exchange {
        question,
        answer,
        stage,
        error,
        done,
        stopped,
        ..
    } = ex;
    view! {
        <article class="exchange">
            <div class="msg msg-user" data-testid="question">{question}</div>
            <div class="msg msg-assistant" data-testid="answer" data-done=move || done.get().to_string()>
                {move || stage.get().map(|s| view! { <div class="stage" data-testid="stage">{s}</div> })}
                <div class="answer-text" data-testid="answer-text">{move || answer.get()}</div>
                {move || stopped.get().then(|| view! { <div class="note">"Stopped."</div> })}
                {move || error.get().map(|e| view! { <div class="error" role="alert" data-testid="answer-error">{e}</div> })}
            </div>
        </article>
    }
}
