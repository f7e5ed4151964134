//! Codebundle cards under an answer, and the detail drawer they open.

mod card;
mod drawer;

pub use card::{CardList, card_dom_id};
pub use drawer::Drawer;
