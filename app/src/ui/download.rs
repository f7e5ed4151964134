//! Saves text as a file from the page: a Blob, an object URL and a temporary
//! `<a download>`. Used where the text is already in hand (a saved request's
//! markdown) or came from a call a plain link cannot make (the admin API needs a
//! bearer header), so nothing has to be served again under a guessable URL.

use leptos::prelude::*;
use std::time::Duration;
use wasm_bindgen::{JsCast, JsValue};

/// Offers `text` as a download named `file_name`.
pub fn save_text(file_name: &str, mime: &str, text: &str) -> Result<(), String> {
    let fail = |_: JsValue| "The browser could not save the file.".to_string();
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).map_err(fail)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(fail)?;
    let link: web_sys::HtmlAnchorElement = document()
        .create_element("a")
        .map_err(fail)?
        .unchecked_into();
    link.set_href(&url);
    link.set_download(file_name);
    let _ = link.set_attribute("hidden", "");
    let body = document()
        .body()
        .ok_or_else(|| "The page has no body.".to_string())?;
    body.append_child(&link).map_err(fail)?;
    link.click();
    link.remove();
    // Revoked later: the browser reads the blob after the click returns.
    set_timeout(
        move || {
            let _ = web_sys::Url::revoke_object_url(&url);
        },
        Duration::from_secs(30),
    );
    Ok(())
}

/// `REQ-0007` → `req-0007.md`.
pub fn request_file_name(reference: &str) -> String {
    format!("{}.md", reference.to_ascii_lowercase())
}
