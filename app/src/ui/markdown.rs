//! Safe markdown in the page: the HTML comes from `crate::markdown::render`, which
//! escapes raw HTML and filters links, so assigning it as inner HTML is safe.

use crate::markdown::{Citations, render};
use leptos::prelude::*;

/// A README or doc section (no citations).
#[component]
pub fn Markdown(#[prop(into)] source: Signal<String>) -> impl IntoView {
    let html = Memo::new(move |_| source.with(|s| render(s, Citations::Pending)));
    view! { <div class="md" inner_html=move || html.get()></div> }
}
