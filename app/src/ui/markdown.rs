//! Safe markdown in the page: the HTML comes from `crate::markdown::render`, which
//! escapes raw HTML and filters links, so assigning it as inner HTML is safe.

use crate::markdown::{Citations, render_at};
use leptos::prelude::*;

/// A README or doc section (no citations). `base`: the heading level its top
/// headings get, one below the heading it sits under.
#[component]
pub fn Markdown(
    #[prop(into)] source: Signal<String>,
    #[prop(default = 2)] base: u8,
) -> impl IntoView {
    let html = Memo::new(move |_| source.with(|s| render_at(s, Citations::Pending, base)));
    view! { <div class="md" inner_html=move || html.get()></div> }
}
