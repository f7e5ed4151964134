//! UI state shared across features, provided once through context. Everything here
//! is a signal handle (`Copy`), so components take it by value.

use crate::api::RequestDraft;
use crate::api::vocabulary::Vocabulary;
use leptos::prelude::*;

/// What the request dialog was opened from.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RequestContext {
    pub draft: RequestDraft,
    pub session_id: Option<String>,
    pub turn_id: Option<String>,
}

#[derive(Clone, Copy)]
pub struct Shared {
    /// Bumped when the conversation list changed (new, renamed, deleted).
    pub sessions_version: RwSignal<u32>,
    /// The conversation on screen, once it has an id.
    pub session: RwSignal<Option<String>>,
    /// `collection/slug` of the bundle open in the detail drawer.
    pub drawer: RwSignal<Option<String>>,
    pub request: RwSignal<Option<RequestContext>>,
    /// Phone width: the sidebar slides over the conversation.
    pub sidebar_open: RwSignal<bool>,
    /// A turn is streaming.
    pub busy: RwSignal<bool>,
    /// Bumped by "New chat": the page clears even when the URL is already `/`.
    pub fresh: RwSignal<u32>,
    /// Stops the turn in flight (set by the chat page, used by the Esc key).
    pub stop: StoredValue<Option<Callback<()>>>,
    /// The words for the registry's parts, as the server's setting says (from
    /// `/health`; ours until it answers).
    pub vocabulary: RwSignal<Vocabulary>,
}

impl Shared {
    pub fn new() -> Self {
        Shared {
            sessions_version: RwSignal::new(0),
            session: RwSignal::new(None),
            drawer: RwSignal::new(None),
            request: RwSignal::new(None),
            sidebar_open: RwSignal::new(false),
            busy: RwSignal::new(false),
            fresh: RwSignal::new(0),
            stop: StoredValue::new(None),
            vocabulary: RwSignal::new(Vocabulary::default()),
        }
    }

    pub fn get() -> Self {
        expect_context::<Shared>()
    }

    pub fn sessions_changed(&self) {
        self.sessions_version.update(|v| *v += 1);
    }
}
