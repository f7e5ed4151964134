//! Where conversations live: the SQLite file beside the index (one process, the
//! default) or PostgreSQL (`database.url`), which replicas share so any of them
//! can continue any conversation. Callers see one set of async operations.

use super::sessions::{self, SessionSummary, TurnTrace};
use super::{Owner, SessionContext, SessionView, TurnRecord, pg};
use crate::store::{Shared, StoreError};

#[derive(Clone)]
pub struct Conversations(pub Shared);

impl Conversations {
    pub fn backend(&self) -> &'static str {
        self.0.backend()
    }

    /// The session's recent memory, or a new session (an unknown id or someone
    /// else's conversation starts a new one).
    pub async fn context(
        &self,
        id: Option<String>,
        owner: Owner,
    ) -> Result<SessionContext, StoreError> {
        match &self.0 {
            Shared::Sqlite(db) => {
                db.read(move |c| super::context(c, id.as_deref(), &owner))
                    .await
            }
            Shared::Postgres(p) => pg::context(p, id.as_deref(), &owner).await,
        }
    }

    pub async fn begin_turn(&self, t: TurnRecord) -> Result<(), StoreError> {
        match &self.0 {
            Shared::Sqlite(db) => db.write(move |c| super::begin_turn(c, &t)).await,
            Shared::Postgres(p) => pg::begin_turn(p, &t).await,
        }
    }

    pub async fn save_partial(&self, turn_id: String, answer: String) -> Result<(), StoreError> {
        match &self.0 {
            Shared::Sqlite(db) => {
                db.write(move |c| super::save_partial(c, &turn_id, &answer))
                    .await
            }
            Shared::Postgres(p) => pg::save_partial(p, &turn_id, &answer).await,
        }
    }

    /// Returns the session title.
    pub async fn save_turn(&self, t: TurnRecord) -> Result<String, StoreError> {
        match &self.0 {
            Shared::Sqlite(db) => db.write(move |c| super::save_turn(c, &t)).await,
            Shared::Postgres(p) => pg::save_turn(p, &t).await,
        }
    }

    /// Turns cut mid-stream. SQLite: every live turn at start-up (one process, so
    /// none is streaming). Postgres: live turns whose replica stopped renewing.
    pub async fn recover_interrupted(&self) -> Result<usize, StoreError> {
        match &self.0 {
            Shared::Sqlite(db) => db.write(super::recover_interrupted).await,
            Shared::Postgres(p) => pg::recover_interrupted(p).await,
        }
    }

    pub async fn owns(&self, id: String, owner: Owner) -> Result<bool, StoreError> {
        match &self.0 {
            Shared::Sqlite(db) => db.read(move |c| super::owns(c, &id, &owner)).await,
            Shared::Postgres(p) => pg::owns(&**p.client().await?, &id, &owner).await,
        }
    }

    pub async fn session(&self, id: String) -> Result<Option<SessionView>, StoreError> {
        match &self.0 {
            Shared::Sqlite(db) => db.read(move |c| super::session(c, &id)).await,
            Shared::Postgres(p) => pg::session(p, &id).await,
        }
    }

    /// The session as the browser renders it, if `owner` may see it.
    pub async fn conversation(
        &self,
        id: String,
        owner: Owner,
    ) -> Result<Option<app::api::conversation::Conversation>, StoreError> {
        if !self.owns(id.clone(), owner).await? {
            return Ok(None);
        }
        Ok(self
            .session(id)
            .await?
            .map(super::SessionView::into_conversation))
    }

    pub async fn list(
        &self,
        owner: Owner,
        limit: usize,
    ) -> Result<Vec<SessionSummary>, StoreError> {
        match &self.0 {
            Shared::Sqlite(db) => db.read(move |c| sessions::list(c, &owner, limit)).await,
            Shared::Postgres(p) => pg::list(p, &owner, limit).await,
        }
    }

    pub async fn rename(
        &self,
        owner: Owner,
        id: String,
        title: String,
    ) -> Result<bool, StoreError> {
        match &self.0 {
            Shared::Sqlite(db) => {
                db.write(move |c| sessions::rename(c, &owner, &id, &title))
                    .await
            }
            Shared::Postgres(p) => pg::rename(p, &owner, &id, &title).await,
        }
    }

    pub async fn delete(&self, owner: Owner, id: String) -> Result<bool, StoreError> {
        match &self.0 {
            Shared::Sqlite(db) => db.write(move |c| sessions::delete(c, &owner, &id)).await,
            Shared::Postgres(p) => pg::delete(p, &owner, &id).await,
        }
    }

    pub async fn set_feedback(
        &self,
        owner: Owner,
        turn_id: String,
        value: i64,
        note: Option<String>,
    ) -> Result<bool, StoreError> {
        match &self.0 {
            Shared::Sqlite(db) => {
                db.write(move |c| {
                    sessions::set_feedback(c, &owner, &turn_id, value, note.as_deref())
                })
                .await
            }
            Shared::Postgres(p) => {
                pg::set_feedback(p, &owner, &turn_id, value, note.as_deref()).await
            }
        }
    }

    pub async fn trace(&self, turn_id: String) -> Result<Option<TurnTrace>, StoreError> {
        match &self.0 {
            Shared::Sqlite(db) => db.read(move |c| sessions::trace(c, &turn_id)).await,
            Shared::Postgres(p) => pg::trace(p, &turn_id).await,
        }
    }

    /// (traces dropped, sessions deleted) under `retention.*`.
    pub async fn retention(
        &self,
        trace_days: u32,
        session_days: u32,
    ) -> Result<(usize, usize), StoreError> {
        match &self.0 {
            Shared::Sqlite(db) => {
                db.write(move |c| super::retention::apply(c, trace_days, session_days))
                    .await
            }
            Shared::Postgres(p) => pg::retention(p, trace_days, session_days).await,
        }
    }
}
