//! Browser entry point, built by Trunk with `--features csr`.

#[cfg(feature = "csr")]
fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(app::ui::App);
}

#[cfg(not(feature = "csr"))]
fn main() {}
