//! Copy to the clipboard (answers, code blocks, request markdown).

pub async fn copy(text: &str) -> bool {
    let Some(w) = web_sys::window() else {
        return false;
    };
    let promise = w.navigator().clipboard().write_text(text);
    wasm_bindgen_futures::JsFuture::from(promise).await.is_ok()
}
