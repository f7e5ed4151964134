//! Keyboard: `/` focuses the question box (unless you are typing), Esc closes the
//! drawer or dialog, or else stops the answer in flight.

use super::state::Shared;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

fn typing(ev: &web_sys::KeyboardEvent) -> bool {
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|e| {
            let tag = e.tag_name().to_ascii_lowercase();
            tag == "input"
                || tag == "textarea"
                || tag == "select"
                || e.has_attribute("contenteditable")
        })
}

pub fn install(shared: Shared) {
    let handle = window_event_listener(leptos::ev::keydown, move |ev| match ev.key().as_str() {
        "/" if !typing(&ev) && !ev.ctrl_key() && !ev.meta_key() => {
            if let Some(input) = document()
                .get_element_by_id("question")
                .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
            {
                ev.prevent_default();
                let _ = input.focus();
            }
        }
        "Escape" => {
            if shared.drawer.get_untracked().is_some() {
                shared.drawer.set(None);
            } else if shared.request.get_untracked().is_some() {
                shared.request.set(None);
            } else if shared.sidebar_open.get_untracked() {
                shared.sidebar_open.set(false);
            } else if shared.busy.get_untracked()
                && let Some(stop) = shared.stop.get_value()
            {
                stop.run(());
            }
        }
        _ => {}
    });
    on_cleanup(move || handle.remove());
}
