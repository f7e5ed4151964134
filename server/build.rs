// The release binary embeds Trunk's `dist/` (see web/assets.rs). Rebuild whenever it
// changes, including when it appears after a build made without it.
fn main() {
    println!("cargo:rerun-if-changed=../dist");
}
