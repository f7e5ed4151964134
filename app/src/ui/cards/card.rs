//! A recommended codebundle: name, collection, platform, access, calibrated
//! relevance, the tasks that matched, SLI count, tags and links. The number badge
//! matches the citation chip in the answer.

use crate::api::Card;
use crate::api::vocabulary::Part;
use crate::ui::state::Shared;
use leptos::prelude::*;

/// The DOM id of a card, so citation chips can find it.
pub fn card_dom_id(exchange: u64, key: &str) -> String {
    let safe: String = key
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    format!("card-{exchange}-{safe}")
}

#[component]
pub fn CardList(
    exchange: u64,
    #[prop(into)] cards: Signal<Vec<(Card, Option<usize>)>>,
    /// Nothing fits: these are only the closest bundles, shown as such.
    #[prop(into)]
    closest_only: Signal<bool>,
) -> impl IntoView {
    let vocabulary = Shared::get().vocabulary;
    let plural = move || vocabulary.get().words(Part::Codebundle).1;
    view! {
        <Show when=move || cards.with(|c| !c.is_empty())>
            <div class="cards" class:closest-only=move || closest_only.get() data-testid="cards">
                {move || if closest_only.get() {
                    view! { <p class="closest-label">{format!("Closest existing {} (not a match):", plural())}</p> }.into_any()
                } else {
                    view! { <h2 class="visually-hidden">{format!("Recommended {}", plural())}</h2> }.into_any()
                }}
                <For each=move || cards.get() key=|(c, n)| (c.key.clone(), *n) let:item>
                    <CardView exchange=exchange card=item.0 number=item.1 />
                </For>
            </div>
        </Show>
    }
}

/// Task titles read better without the backticks around `${VARIABLES}`.
fn plain_title(t: &str) -> String {
    t.replace('`', "")
}

#[component]
fn CardView(exchange: u64, card: Card, number: Option<usize>) -> impl IntoView {
    let shared = Shared::get();
    let key = card.key.clone();
    let read_write = card.access == crate::api::catalog::Access::ReadWrite;
    let tags: Vec<String> = card.tags.iter().take(5).cloned().collect();
    let matched: Vec<String> = card
        .matched_tasks
        .iter()
        .take(2)
        .map(|t| plain_title(t))
        .collect();
    view! {
        <div class="card" id=card_dom_id(exchange, &card.key) data-testid="card" data-key=card.key.clone()>
            <div class="card-head">
                {number.map(|n| view! { <span class="card-number" title="Cited as this number in the answer">{n}</span> })}
                <div class="card-title">
                    <button type="button" class="card-name link" data-testid="card-name"
                        title="Show tasks, variables and README"
                        on:click={
                            let key = key.clone();
                            move |_| shared.drawer.set(Some(key.clone()))
                        }>{card.display_name.clone()}</button>
                    <span class="card-collection" data-testid="card-collection">{card.collection.clone()}</span>
                </div>
                {match card.relevance_percent() {
                    Some(relevance) => view! {
                        <span class="relevance" data-testid="card-relevance"
                            title="Calibrated relevance: the estimated chance that this bundle is a right answer">
                            <span class="relevance-bar"><span style=format!("width: {relevance}%")></span></span>
                            {format!("{relevance}%")}
                        </span>
                    }.into_any(),
                    None => view! {
                        <span class="relevance unranked" data-testid="card-relevance"
                            title="Not ranked for this question: shown because it calls the keyword asked about, was the subject of an earlier answer, or is related to it">
                            "related"
                        </span>
                    }.into_any(),
                }}
            </div>
            <p class="card-description">{card.description.clone()}</p>
            <div class="badges">
                <span class="badge platform" data-testid="card-platform">{card.platform.clone()}</span>
                <span class=if read_write { "badge access rw" } else { "badge access ro" } data-testid="card-access"
                    title=if read_write { "Read-write: some tasks change things" } else { "Read-only: nothing is changed" }>
                    {if read_write { "read-write" } else { "read-only" }}
                </span>
                <span class="badge count" data-testid="card-tasks">{format!("{} task{}", card.task_count, if card.task_count == 1 { "" } else { "s" })}</span>
                <span class="badge count" data-testid="card-slis">{format!("{} SLI{}", card.sli_count, if card.sli_count == 1 { "" } else { "s" })}</span>
            </div>
            {(!matched.is_empty()).then(|| view! {
                <ul class="matched" data-testid="card-matched" aria-label="Tasks that matched your question">
                    {matched.into_iter().map(|t| view! { <li><mark>{t}</mark></li> }).collect_view()}
                </ul>
            })}
            <div class="card-foot">
                <div class="tags">
                    {tags.into_iter().map(|t| view! { <span class="tag">{t}</span> }).collect_view()}
                </div>
                <div class="card-links">
                    <button type="button" class="link" data-testid="card-details"
                        on:click=move |_| shared.drawer.set(Some(key.clone()))>"Details"</button>
                    {card.source_url.clone().map(|u| view! {
                        <a class="link" href=u target="_blank" rel="noopener noreferrer" data-testid="card-source">"Source ↗"</a>
                    })}
                </div>
            </div>
        </div>
    }
}
