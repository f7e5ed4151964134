//! Rows moving between the SQLite file and Postgres, column by column: what each
//! column holds, and its value converted either way. Shared by `migrate` (the
//! conversations and requests of a deployment) and the published catalog.

use crate::store::StoreError;
use rusqlite::types::Value;
use tokio_postgres::types::{ToSql, Type};

#[derive(Clone, Copy, Debug)]
pub enum Kind {
    Text,
    Int,
    Real,
    Bool,
    Blob,
}

pub struct Table {
    pub name: &'static str,
    pub columns: &'static [(&'static str, Kind)],
}

impl Table {
    pub fn column_list(&self) -> String {
        let names: Vec<&str> = self.columns.iter().map(|(n, _)| *n).collect();
        names.join(", ")
    }

    /// One SQLite row, selected in `columns` order, as Postgres values.
    pub fn to_pg(&self, r: &rusqlite::Row) -> Result<Vec<PgValue>, StoreError> {
        self.columns
            .iter()
            .enumerate()
            .map(|(i, (_, kind))| convert(r.get::<_, Value>(i)?, *kind))
            .collect()
    }

    /// One Postgres row, selected in `columns` order, back as SQLite values.
    pub fn to_sqlite(&self, r: &tokio_postgres::Row) -> Result<Vec<Value>, StoreError> {
        self.columns
            .iter()
            .enumerate()
            .map(|(i, (_, kind))| to_sqlite(r, i, *kind))
            .collect()
    }

    /// The Postgres types of its columns, for a binary `COPY`.
    pub fn pg_types(&self) -> Vec<Type> {
        self.columns
            .iter()
            .map(|(_, k)| match k {
                Kind::Text => Type::TEXT,
                Kind::Int => Type::INT8,
                Kind::Real => Type::FLOAT8,
                Kind::Bool => Type::BOOL,
                Kind::Blob => Type::BYTEA,
            })
            .collect()
    }
}

/// A value bound to a Postgres statement or `COPY`.
pub type PgValue = Box<dyn ToSql + Sync + Send>;

/// The parameter list the driver takes, borrowed from a row's values.
pub fn params(values: &[PgValue]) -> Vec<&(dyn ToSql + Sync)> {
    values
        .iter()
        .map(|v| v.as_ref() as &(dyn ToSql + Sync))
        .collect()
}

/// A SQLite value as the Postgres column wants it; NULL stays NULL.
fn convert(v: Value, kind: Kind) -> Result<PgValue, StoreError> {
    use Kind::*;
    Ok(match (v, kind) {
        (Value::Null, Text) => Box::new(None::<String>),
        (Value::Null, Int) => Box::new(None::<i64>),
        (Value::Null, Real) => Box::new(None::<f64>),
        (Value::Null, Bool) => Box::new(None::<bool>),
        (Value::Null, Blob) => Box::new(None::<Vec<u8>>),
        (Value::Text(t), Text) => Box::new(t),
        (Value::Integer(i), Int) => Box::new(i),
        (Value::Integer(i), Bool) => Box::new(i != 0),
        (Value::Integer(i), Real) => Box::new(i as f64),
        (Value::Real(r), Real) => Box::new(r),
        (Value::Blob(b), Blob) => Box::new(b),
        (v, _) => {
            return Err(StoreError::Corrupt(format!(
                "unexpected value {v:?} in the SQLite file"
            )));
        }
    })
}

/// A Postgres column back as the SQLite value it was.
fn to_sqlite(r: &tokio_postgres::Row, i: usize, kind: Kind) -> Result<Value, StoreError> {
    use Kind::*;
    Ok(match kind {
        Text => r
            .try_get::<_, Option<String>>(i)?
            .map_or(Value::Null, Value::Text),
        Int => r
            .try_get::<_, Option<i64>>(i)?
            .map_or(Value::Null, Value::Integer),
        Real => r
            .try_get::<_, Option<f64>>(i)?
            .map_or(Value::Null, Value::Real),
        Bool => r
            .try_get::<_, Option<bool>>(i)?
            .map_or(Value::Null, |b| Value::Integer(b as i64)),
        Blob => r
            .try_get::<_, Option<Vec<u8>>>(i)?
            .map_or(Value::Null, Value::Blob),
    })
}
