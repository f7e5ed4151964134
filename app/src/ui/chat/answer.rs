//! One exchange: the question, the answer as it streams (safe markdown with
//! numbered citation chips), the recommended codebundles, the source tag and
//! confidence, and what you can do with it (copy, regenerate, rate, request a
//! codebundle).

use super::Chat;
use super::exchange::Exchange;
use super::feedback::FeedbackBar;
use crate::api::RequestDraft;
use crate::markdown::{Citations, CiteInfo, citation_order, render};
use crate::ui::cards::{CardList, card_dom_id};
use crate::ui::clipboard;
use crate::ui::state::{RequestContext, Shared};
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::collections::HashMap;
use std::time::Duration;
use wasm_bindgen::JsCast;

fn confidence_label(c: f32) -> &'static str {
    if c >= 0.75 {
        "High"
    } else if c >= 0.5 {
        "Medium"
    } else {
        "Low"
    }
}

fn flash_card(exchange: u64, key: &str) {
    let Some(el) = document().get_element_by_id(&card_dom_id(exchange, key)) else {
        return;
    };
    let options = web_sys::ScrollIntoViewOptions::new();
    options.set_block(web_sys::ScrollLogicalPosition::Nearest);
    options.set_behavior(web_sys::ScrollBehavior::Smooth);
    el.scroll_into_view_with_scroll_into_view_options(&options);
    let _ = el.class_list().add_1("flash");
    set_timeout(
        move || {
            let _ = el.class_list().remove_1("flash");
        },
        Duration::from_millis(1600),
    );
}

/// Citation chips' labels and links by id. Bundle chips point at their card, not
/// away.
fn known_citations(cs: &[crate::api::Citation]) -> HashMap<String, CiteInfo> {
    cs.iter()
        .map(|c| {
            (
                c.id.clone(),
                CiteInfo {
                    label: c.label.clone(),
                    url: if c.kind == crate::api::CitationKind::Bundle {
                        None
                    } else {
                        c.url.clone()
                    },
                },
            )
        })
        .collect()
}

#[component]
pub fn AnswerView(ex: Exchange) -> impl IntoView {
    let shared = Shared::get();
    let chat = expect_context::<Chat>();
    let ex_id = ex.id;
    let (answer, citations, outcome, cards) = (ex.answer, ex.citations, ex.outcome, ex.cards);
    let streaming = ex.streaming;

    let html = Memo::new(move |_| {
        let text = answer.get();
        if outcome.with(Option::is_some) {
            let known = citations.with(|cs| known_citations(cs));
            let lookup = |id: &str| known.get(id).cloned();
            render(&text, Citations::Known(&lookup))
        } else {
            render(&text, Citations::Pending)
        }
    });
    // The offline answer while a language model writes, until its text starts.
    let preview = ex.preview;
    let preview_html = Memo::new(move |_| {
        let text = preview.get()?;
        if !answer.with(String::is_empty) {
            return None;
        }
        let known = citations.with(|cs| known_citations(cs));
        let lookup = |id: &str| known.get(id).cloned();
        Some(render(&text, Citations::Known(&lookup)))
    });
    // Card badges carry the number of their citation chip.
    let numbered = Memo::new(move |_| {
        let known: Vec<String> = citations.with(|cs| cs.iter().map(|c| c.id.clone()).collect());
        let order: Vec<String> = answer
            .with(|a| citation_order(a))
            .into_iter()
            .filter(|id| known.is_empty() || known.contains(id))
            .collect();
        cards
            .get()
            .into_iter()
            .map(|c| {
                let n = order
                    .iter()
                    .position(|id| *id == format!("bundle:{}", c.key))
                    .map(|i| i + 1);
                (c, n)
            })
            .collect::<Vec<_>>()
    });

    let on_click = move |ev: leptos::ev::MouseEvent| {
        let Some(target) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        else {
            return;
        };
        if let Ok(Some(chip)) = target.closest("a.cite") {
            let id = chip.get_attribute("data-cite").unwrap_or_default();
            if let Some(key) = id.strip_prefix("bundle:") {
                ev.prevent_default();
                flash_card(ex_id, key);
            } else if chip.get_attribute("href").as_deref() == Some("#") {
                ev.prevent_default();
            }
            return;
        }
        if let Ok(Some(button)) = target.closest("[data-copy-code]") {
            let code = button
                .closest(".code")
                .ok()
                .flatten()
                .and_then(|c| c.query_selector("pre").ok().flatten())
                .and_then(|p| p.text_content())
                .unwrap_or_default();
            spawn_local(async move {
                if clipboard::copy(&code).await {
                    button.set_text_content(Some("Copied"));
                }
            });
        }
    };

    let copied = RwSignal::new(false);
    let copy_answer = move |_| {
        let text = answer.get_untracked();
        spawn_local(async move {
            if clipboard::copy(&text).await {
                copied.set(true);
                set_timeout(move || copied.set(false), Duration::from_millis(1500));
            }
        });
    };

    let ex_for_request = ex.clone();
    let open_request =
        move || {
            let ex = &ex_for_request;
            let draft = ex.request.get_untracked().unwrap_or_else(|| {
            let cards = ex.cards.get_untracked();
            RequestDraft {
                problem: ex.question.clone(),
                platform: None,
                healthy: String::new(),
                context: if cards.is_empty() {
                    "Asked in Registry Chat.".into()
                } else {
                    format!(
                        "Asked in Registry Chat; the answer suggested {}, which did not cover it.",
                        cards.iter().map(|c| c.key.as_str()).collect::<Vec<_>>().join(", ")
                    )
                },
                closest: cards,
            }
        });
            shared.request.set(Some(RequestContext {
                draft,
                session_id: shared.session.get_untracked(),
                turn_id: ex.turn_id.get_untracked(),
            }));
        };
    let open_request2 = open_request.clone();

    let is_last = move || {
        chat.exchanges
            .with(|v| v.last().map(|e| e.id) == Some(ex_id))
    };
    let question = ex.question.clone();
    let question_for_regen = ex.question.clone();
    let ex_stage = ex.stage;
    let ex_error = ex.error;
    let ex_stopped = ex.stopped;
    let ttft = ex.first_token_ms;
    let suggestions = ex.suggestions;
    let ex_feedback = ex.clone();

    view! {
        <article class="exchange" data-testid="exchange"
            data-ttft-ms=move || ttft.get().map(|t| format!("{t:.0}"))
            data-done=move || outcome.with(Option::is_some).to_string()>
            <div class="msg msg-user">
                <div class="msg-head"><span class="who">"You"</span><time>{ex.asked_at.clone()}</time></div>
                <div class="question" data-testid="question">{question}</div>
            </div>
            <div class="msg msg-assistant" data-testid="answer"
                data-done=move || outcome.with(Option::is_some).to_string()>
                {move || (streaming.get()).then(|| ex_stage.get()).flatten().map(|s| view! {
                    <div class="stage" data-testid="stage"><span class="spinner" aria-hidden="true"></span>{s}</div>
                })}
                {move || outcome.get().filter(|o| o.no_match).map(|_| {
                    let open = open_request2.clone();
                    view! {
                        <div class="no-match" data-testid="no-match">
                            <p><strong>"Nothing in the registry fits this yet."</strong>
                               " The bundles below are the closest, not a match."</p>
                            <button type="button" class="button primary" data-testid="no-match-cta"
                                on:click=move |_| open()>{move || shared.vocabulary.get().request_label()}</button>
                        </div>
                    }
                })}
                {move || preview_html.get().map(|h| view! {
                    <div class="preview" data-testid="preview">
                        <p class="preview-label">{move || if streaming.get() {
                            "From the catalog, while the language model writes:"
                        } else {
                            "From the catalog:"
                        }}</p>
                        <div class="md" on:click=on_click inner_html=h></div>
                    </div>
                })}
                <div class="answer-text md" data-testid="answer-text" on:click=on_click
                    inner_html=move || html.get()></div>
                <CardList exchange=ex_id cards=numbered
                    closest_only=Signal::derive(move || outcome.with(|o| o.as_ref().is_some_and(|o| o.no_match))) />
                {move || ex_stopped.get().then(|| view! { <div class="note" data-testid="stopped">"Stopped."</div> })}
                {move || ex_error.get().map(|e| view! {
                    <div class="answer-error" role="alert" data-testid="answer-error">
                        <span>{e}</span>
                        <button type="button" class="button" data-testid="retry"
                            on:click=move |_| chat.retry.run(ex_id)>"Retry"</button>
                    </div>
                })}
                {move || outcome.get().map(|o| {
                    let open = open_request.clone();
                    let q = question_for_regen.clone();
                    let ex = ex_feedback.clone();
                    view! {
                        <div class="answer-meta">
                            <span class=format!("chip source source-{}", o.source) data-testid="source-tag"
                                title="Where this answer comes from">{o.source.label()}</span>
                            <span class="confidence" data-testid="confidence"
                                title=format!("Confidence {:.0}%: how well the cited sources match the question", o.confidence * 100.0)>
                                <meter min="0" max="1" low="0.5" high="0.75" optimum="1" value=o.confidence.to_string()></meter>
                                {format!("{} confidence", confidence_label(o.confidence))}
                            </span>
                            {o.elapsed_ms.map(|ms| view! { <span class="muted">{format!("{:.1} s", ms as f64 / 1000.0)}</span> })}
                        </div>
                        <div class="answer-actions">
                            <button type="button" class="button subtle" data-testid="copy-answer" on:click=copy_answer>
                                {move || if copied.get() { "Copied" } else { "Copy" }}
                            </button>
                            <Show when=move || is_last() && !shared.busy.get()>
                                {
                                    let q = q.clone();
                                    view! {
                                        <button type="button" class="button subtle" data-testid="regenerate"
                                            on:click=move |_| chat.ask.run(q.clone())>"Regenerate"</button>
                                    }
                                }
                            </Show>
                            <FeedbackBar ex=ex />
                            <button type="button" class="button subtle" data-testid="request-button"
                                on:click=move |_| open()>{move || shared.vocabulary.get().request_label()}</button>
                        </div>
                    }
                })}
                {move || {
                    let list = suggestions.get();
                    (!list.is_empty() && !streaming.get()).then(|| view! {
                        <nav class="suggestions" aria-label="Suggested next questions" data-testid="suggestions">
                            <ul>
                                {list.into_iter().map(|q| {
                                    let ask = q.clone();
                                    view! {
                                        <li><button type="button" class="suggestion" data-testid="suggestion"
                                            disabled=move || shared.busy.get()
                                            on:click=move |_| chat.ask.run(ask.clone())>{q}</button></li>
                                    }
                                }).collect_view()}
                            </ul>
                        </nav>
                    })
                }}
            </div>
        </article>
    }
}
