//! Requests wherever shared state lives (`store::Shared`): the SQLite functions
//! of this module, or their Postgres counterparts. The closest bundles' names and
//! links always come from this replica's catalog.

use super::{Claim, RequestError, tracker};
use crate::store::{Db, Shared};
use app::api::requests::{RequestInput, RequestSaved, RequestSummary};

#[derive(Clone)]
pub struct Requests {
    shared: Shared,
    catalog: Db,
}

impl Requests {
    pub fn new(shared: Shared, catalog: Db) -> Self {
        Requests { shared, catalog }
    }

    /// Validates and saves; returns what the form shows after saving.
    pub async fn create(
        &self,
        input: RequestInput,
        owner: Option<String>,
    ) -> Result<RequestSaved, RequestError> {
        match &self.shared {
            Shared::Sqlite(db) => {
                db.write(move |c| Ok(super::create(c, &input, owner.as_deref())))
                    .await?
            }
            Shared::Postgres(p) => {
                let input = super::validate(&input)?;
                let id = super::pg::insert(p, &input, owner.as_deref()).await?;
                self.saved(id).await
            }
        }
    }

    pub async fn saved(&self, id: i64) -> Result<RequestSaved, RequestError> {
        match &self.shared {
            Shared::Sqlite(db) => db.read(move |c| Ok(super::saved(c, id))).await?,
            Shared::Postgres(p) => Ok(RequestSaved {
                request: super::pg::summary(p, id).await?,
                markdown: self.markdown(id).await?,
                tracker: None,
            }),
        }
    }

    pub async fn similar(
        &self,
        problem: String,
        limit: usize,
    ) -> Result<Vec<RequestSummary>, RequestError> {
        match &self.shared {
            Shared::Sqlite(db) => {
                db.read(move |c| Ok(super::similar(c, &problem, limit)))
                    .await?
            }
            Shared::Postgres(p) => super::pg::similar(p, &problem, limit).await,
        }
    }

    pub async fn list(&self, status: Option<String>) -> Result<Vec<RequestSummary>, RequestError> {
        match &self.shared {
            Shared::Sqlite(db) => {
                db.read(move |c| Ok(super::list(c, status.as_deref())))
                    .await?
            }
            Shared::Postgres(p) => super::pg::list(p, status.as_deref()).await,
        }
    }

    pub async fn set_status(&self, id: i64, status: String) -> Result<(), RequestError> {
        match &self.shared {
            Shared::Sqlite(db) => {
                db.write(move |c| Ok(super::set_status(c, id, &status)))
                    .await?
            }
            Shared::Postgres(p) => {
                let status = super::parse_status(&status)?;
                match super::pg::set_status(p, id, status.as_str()).await? {
                    true => Ok(()),
                    false => Err(RequestError::NotFound(id)),
                }
            }
        }
    }

    /// The registry's own copy, with contact and conversation id.
    pub async fn markdown(&self, id: i64) -> Result<String, RequestError> {
        match &self.shared {
            Shared::Sqlite(db) => db.read(move |c| Ok(super::markdown(c, id))).await?,
            Shared::Postgres(p) => {
                let rec = super::pg::record(p, id).await?;
                let links = self.links(rec.closest.clone()).await?;
                Ok(super::render(id, &rec, &links, true))
            }
        }
    }

    pub async fn owned_by(&self, id: i64, owner: Option<String>) -> Result<bool, RequestError> {
        match &self.shared {
            Shared::Sqlite(db) => {
                db.read(move |c| Ok(super::owned_by(c, id, owner.as_deref())))
                    .await?
            }
            Shared::Postgres(p) => super::pg::owned_by(p, id, owner.as_deref()).await,
        }
    }

    pub async fn claim_filing(&self, id: i64) -> Result<(tracker::Filing, Claim), RequestError> {
        match &self.shared {
            Shared::Sqlite(db) => db.write(move |c| Ok(super::claim_filing(c, id))).await?,
            Shared::Postgres(p) => {
                let rec = super::pg::record(p, id).await?;
                let links = self.links(rec.closest.clone()).await?;
                let filing = super::filing(id, &rec, &links);
                Ok((filing, super::pg::claim(p, id).await?))
            }
        }
    }

    pub async fn release_filing(
        &self,
        id: i64,
        candidate: Option<u64>,
    ) -> Result<(), RequestError> {
        match &self.shared {
            Shared::Sqlite(db) => {
                db.write(move |c| Ok(super::release_filing(c, id, candidate)))
                    .await?
            }
            Shared::Postgres(p) => super::pg::release(p, id, candidate).await,
        }
    }

    pub async fn finish_filing(&self, id: i64, url: Option<String>) -> Result<(), RequestError> {
        match &self.shared {
            Shared::Sqlite(db) => {
                db.write(move |c| Ok(super::finish_filing(c, id, url.as_deref())))
                    .await?
            }
            Shared::Postgres(p) => super::pg::finish(p, id, url.as_deref()).await,
        }
    }

    async fn links(&self, closest: Vec<String>) -> Result<Vec<super::Link>, RequestError> {
        Ok(self
            .catalog
            .read(move |c| super::links(c, &closest))
            .await?)
    }
}
