//! Inline SVG icons (emoji depend on the fonts a machine has; these do not). They
//! take `currentColor` and are hidden from screen readers: the buttons carry text.

use leptos::prelude::*;

fn svg(path: &'static str) -> impl IntoView {
    view! {
        <svg class="icon" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false"
            fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">
            <path d=path />
        </svg>
    }
}

pub fn thumbs_up() -> impl IntoView {
    svg("M7 10v11H4V10h3zm0 0 4-8a3 3 0 0 1 3 3v4h5a2 2 0 0 1 2 2.3l-1.4 8A2 2 0 0 1 17.6 21H7")
}

pub fn thumbs_down() -> impl IntoView {
    svg("M17 14V3h3v11h-3zm0 0-4 8a3 3 0 0 1-3-3v-4H5a2 2 0 0 1-2-2.3l1.4-8A2 2 0 0 1 6.4 3H17")
}

pub fn menu() -> impl IntoView {
    svg("M4 6h16M4 12h16M4 18h16")
}

pub fn close() -> impl IntoView {
    svg("M6 6l12 12M18 6 6 18")
}

pub fn pencil() -> impl IntoView {
    svg("M4 20h4L19 9l-4-4L4 16v4zM14 6l4 4")
}

pub fn trash() -> impl IntoView {
    svg("M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13")
}

pub fn moon() -> impl IntoView {
    svg("M21 13A9 9 0 1 1 11 3a7 7 0 0 0 10 10z")
}

pub fn sun() -> impl IntoView {
    svg(
        "M12 4V2M12 22v-2M4 12H2M22 12h-2M5.6 5.6 4.2 4.2M19.8 19.8l-1.4-1.4M5.6 18.4l-1.4 1.4M19.8 4.2l-1.4 1.4M12 8a4 4 0 1 0 0 8 4 4 0 0 0 0-8z",
    )
}
