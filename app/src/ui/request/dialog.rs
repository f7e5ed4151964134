use crate::api::functions::{create_request, similar_requests};
use crate::api::requests::{MAX_FIELD_CHARS, MAX_PROBLEM_CHARS, RequestInput, RequestSaved};
use crate::ui::state::{RequestContext, Shared};
use crate::ui::{clipboard, download};
use leptos::html::Textarea;
use leptos::prelude::*;
use leptos::task::spawn_local;

/// Platforms offered as suggestions (the field takes any value).
const PLATFORMS: &[&str] = &[
    "kubernetes",
    "aws",
    "azure",
    "gcp",
    "github",
    "linux",
    "postgresql",
    "redis",
    "kafka",
    "jenkins",
    "vault",
];

#[component]
pub fn RequestDialog() -> impl IntoView {
    let shared = Shared::get();
    view! {
        {move || shared.request.get().map(|ctx| view! { <RequestForm ctx=ctx /> })}
    }
}

#[component]
fn RequestForm(ctx: RequestContext) -> impl IntoView {
    let shared = Shared::get();
    let d = ctx.draft.clone();
    let problem = RwSignal::new(d.problem.clone());
    let platform = RwSignal::new(d.platform.clone().unwrap_or_default());
    let healthy = RwSignal::new(d.healthy.clone());
    let context = RwSignal::new(d.context.clone());
    let contact = RwSignal::new(String::new());
    let saving = RwSignal::new(false);
    let error = RwSignal::new(None::<String>);
    let saved = RwSignal::new(None::<RequestSaved>);
    let copied = RwSignal::new(false);
    let first = NodeRef::<Textarea>::new();
    Effect::new(move |_| {
        if let Some(t) = first.get() {
            let _ = t.focus();
        }
    });

    let initial_problem = d.problem.clone();
    let similar = LocalResource::new(move || {
        let p = initial_problem.clone();
        async move { similar_requests(p).await.unwrap_or_default() }
    });
    let closest = d.closest.clone();
    let closest_keys: Vec<String> = closest.iter().map(|c| c.key.clone()).collect();
    let mut platforms: Vec<String> = closest.iter().map(|c| c.platform.clone()).collect();
    platforms.extend(PLATFORMS.iter().map(|p| p.to_string()));
    platforms.dedup();

    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if saving.get_untracked() {
            return;
        }
        let input = RequestInput {
            problem: problem.get_untracked(),
            platform: Some(platform.get_untracked()).filter(|p| !p.trim().is_empty()),
            healthy: healthy.get_untracked(),
            context: context.get_untracked(),
            contact: Some(contact.get_untracked()).filter(|c| !c.trim().is_empty()),
            session_id: ctx.session_id.clone(),
            turn_id: ctx.turn_id.clone(),
            closest: closest_keys.clone(),
        };
        if input.problem.trim().is_empty() {
            error.set(Some("Describe the problem first.".into()));
            return;
        }
        saving.set(true);
        error.set(None);
        spawn_local(async move {
            match create_request(input).await {
                Ok(s) => saved.set(Some(s)),
                Err(e) => error.set(Some(e.message)),
            }
            saving.set(false);
        });
    };
    let close = move |_| shared.request.set(None);

    view! {
        <div class="scrim" on:click=close></div>
        <div class="dialog" role="dialog" aria-modal="true" aria-labelledby="request-title" data-testid="request-dialog">
            <div class="dialog-head">
                <h2 id="request-title">{move || shared.vocabulary.get().request_label()}</h2>
                <button type="button" class="icon-button" aria-label="Close" data-testid="request-close" on:click=close>{crate::ui::icons::close()}</button>
            </div>
            {move || match saved.get() {
                Some(s) => {
                    let md = s.markdown.clone();
                    let md_file = s.markdown.clone();
                    let file = download::request_file_name(&s.request.reference);
                    view! {
                        <div class="dialog-body" data-testid="request-saved">
                            <p class="success">"Saved as " <strong data-testid="request-reference">{s.request.reference.clone()}</strong>
                                ". The registry maintainers see it in the admin area."</p>
                            {s.tracker.clone().map(|t| view! { <super::tracker::TrackerNote outcome=t id=s.request.id saved=saved /> })}
                            <details open>
                                <summary>"Markdown for your issue tracker"</summary>
                                <pre class="request-markdown" data-testid="request-markdown">{md.clone()}</pre>
                            </details>
                            <div class="dialog-actions">
                                <button type="button" class="button" data-testid="request-copy" on:click=move |_| {
                                    let md = md.clone();
                                    spawn_local(async move { copied.set(clipboard::copy(&md).await); });
                                }>{move || if copied.get() { "Copied" } else { "Copy markdown" }}</button>
                                <button type="button" class="button" data-testid="request-download" on:click=move |_| {
                                    if let Err(e) = download::save_text(&file, "text/markdown", &md_file) {
                                        error.set(Some(e));
                                    }
                                }>"Download .md"</button>
                                <button type="button" class="button primary" on:click=close>"Done"</button>
                            </div>
                            {move || error.get().map(|e| view! { <p class="error" role="alert" data-testid="request-error">{e}</p> })}
                        </div>
                    }.into_any()
                }
                None => view! {
                    <form class="dialog-body" on:submit=submit.clone() data-testid="request-form">
                        {(!closest.is_empty()).then(|| view! {
                            <section class="closest" data-testid="request-closest">
                                <h3>"Is one of these what you need?"</h3>
                                <ul>
                                    {closest.iter().map(|c| {
                                        let key = c.key.clone();
                                        view! {
                                            <li>
                                                <button type="button" class="link" on:click=move |_| shared.drawer.set(Some(key.clone()))>
                                                    {c.display_name.clone()}
                                                </button>
                                                <span class="muted">{format!(" {} · {}{}", c.key, c.platform, c.relevance_percent().map(|p| format!(" · relevance {p}%")).unwrap_or_default())}</span>
                                            </li>
                                        }
                                    }).collect_view()}
                                </ul>
                            </section>
                        })}
                        {move || similar.get().filter(|s| !s.is_empty()).map(|list| view! {
                            <section class="similar" data-testid="request-similar">
                                <h3>"Similar earlier requests"</h3>
                                <ul>
                                    {list.into_iter().map(|r| view! {
                                        <li><strong>{r.reference}</strong>" " {r.problem} <span class="badge">{r.status.as_str()}</span></li>
                                    }).collect_view()}
                                </ul>
                            </section>
                        })}
                        <label for="req-problem">"The problem, in your words"</label>
                        <textarea id="req-problem" node_ref=first rows="3" required maxlength=MAX_PROBLEM_CHARS.to_string()
                            data-testid="request-problem"
                            prop:value=move || problem.get() on:input=move |e| problem.set(event_target_value(&e))></textarea>
                        <label for="req-platform">"Platform"</label>
                        <input id="req-platform" list="req-platforms" data-testid="request-platform"
                            prop:value=move || platform.get() on:input=move |e| platform.set(event_target_value(&e)) />
                        <datalist id="req-platforms">
                            {platforms.iter().map(|p| view! { <option value=p.clone()></option> }).collect_view()}
                        </datalist>
                        <label for="req-healthy">"What healthy looks like"</label>
                        <textarea id="req-healthy" rows="2" maxlength=MAX_FIELD_CHARS.to_string() data-testid="request-healthy"
                            prop:value=move || healthy.get() on:input=move |e| healthy.set(event_target_value(&e))></textarea>
                        <label for="req-context">"Context (environment, what you tried)"</label>
                        <textarea id="req-context" rows="3" maxlength=MAX_FIELD_CHARS.to_string() data-testid="request-context"
                            prop:value=move || context.get() on:input=move |e| context.set(event_target_value(&e))></textarea>
                        <label for="req-contact">"Contact (optional)"</label>
                        <input id="req-contact" type="text" placeholder="name, team or email" data-testid="request-contact"
                            prop:value=move || contact.get() on:input=move |e| contact.set(event_target_value(&e)) />
                        {move || error.get().map(|e| view! { <p class="error" role="alert" data-testid="request-error">{e}</p> })}
                        <div class="dialog-actions">
                            <button type="button" class="button" on:click=close>"Cancel"</button>
                            <button type="submit" class="button primary" data-testid="request-submit"
                                disabled=move || saving.get()>{move || if saving.get() { "Saving…" } else { "Submit request" }}</button>
                        </div>
                    </form>
                }.into_any(),
            }}
        </div>
    }
}
