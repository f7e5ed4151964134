//! Time windows for quality analysis and the golden export: the last N days, or
//! explicit `from`/`to` dates or timestamps, normalised by SQLite to the format
//! turns are stored in so comparisons are plain string comparisons.

use crate::store::StoreError;
use rusqlite::{Connection, OptionalExtension};

/// Longest window accepted: a decade.
const MAX_DAYS: u32 = 3650;

#[derive(Clone, Debug, Default, serde::Deserialize)]
pub struct WindowQuery {
    #[serde(default)]
    pub days: Option<u32>,
    #[serde(default)]
    pub from: Option<String>,
    #[serde(default)]
    pub to: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Window {
    /// Inclusive.
    pub from: String,
    /// Exclusive.
    pub to: String,
}

#[derive(Debug, thiserror::Error)]
pub enum WindowError {
    #[error("{0}")]
    Invalid(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

const FORMAT: &str = "'%Y-%m-%dT%H:%M:%fZ'";

/// `days` (default 7) counts back from now; `from`/`to` take `YYYY-MM-DD` (a `to`
/// date includes that whole day) or a full timestamp.
pub fn resolve(c: &Connection, q: &WindowQuery, default_days: u32) -> Result<Window, WindowError> {
    if q.from.is_some() || q.to.is_some() {
        if q.days.is_some() {
            return Err(WindowError::Invalid(
                "Give either days or from/to, not both.".into(),
            ));
        }
        let from = match &q.from {
            Some(f) => normalise(c, f, false)?,
            None => "0000-01-01T00:00:00.000Z".into(),
        };
        let to = match &q.to {
            Some(t) => normalise(c, t, true)?,
            None => until_now(c)?,
        };
        if from >= to {
            return Err(WindowError::Invalid("from must be before to.".into()));
        }
        return Ok(Window { from, to });
    }
    let days = q.days.unwrap_or(default_days);
    if days == 0 || days > MAX_DAYS {
        return Err(WindowError::Invalid(format!(
            "days must be between 1 and {MAX_DAYS}."
        )));
    }
    Ok(Window {
        from: one(
            c,
            &format!("SELECT strftime({FORMAT}, 'now', ?1)"),
            [format!("-{days} days")],
        )?,
        to: until_now(c)?,
    })
}

/// Exclusive end that still includes a turn saved in this very millisecond.
fn until_now(c: &Connection) -> Result<String, WindowError> {
    one(
        c,
        &format!("SELECT strftime({FORMAT}, 'now', '+1 second')"),
        [],
    )
}

fn normalise(c: &Connection, value: &str, end: bool) -> Result<String, WindowError> {
    let v = value.trim();
    let date_only = v.len() == 10;
    let modifier = if end && date_only {
        "+1 day"
    } else {
        "+0 days"
    };
    let parsed: Option<String> = c
        .query_row(
            &format!("SELECT strftime({FORMAT}, ?1, ?2)"),
            [v, modifier],
            |r| r.get(0),
        )
        .optional()
        .map_err(StoreError::from)?
        .flatten();
    parsed.ok_or_else(|| {
        WindowError::Invalid(format!(
            "{value:?} is not a date (YYYY-MM-DD) or timestamp (YYYY-MM-DDTHH:MM:SSZ)."
        ))
    })
}

fn one<P: rusqlite::Params>(c: &Connection, sql: &str, p: P) -> Result<String, WindowError> {
    Ok(c.query_row(sql, p, |r| r.get(0))
        .map_err(StoreError::from)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(days: Option<u32>, from: Option<&str>, to: Option<&str>) -> WindowQuery {
        WindowQuery {
            days,
            from: from.map(str::to_string),
            to: to.map(str::to_string),
        }
    }

    #[test]
    fn dates_timestamps_and_days() {
        let c = Connection::open_in_memory().unwrap();
        let w = resolve(&c, &q(None, Some("2026-01-02"), Some("2026-01-03")), 7).unwrap();
        assert_eq!(w.from, "2026-01-02T00:00:00.000Z");
        assert_eq!(w.to, "2026-01-04T00:00:00.000Z");
        let w = resolve(&c, &q(None, Some("2026-01-02T10:00:00Z"), None), 7).unwrap();
        assert_eq!(w.from, "2026-01-02T10:00:00.000Z");
        let w = resolve(&c, &q(Some(1), None, None), 7).unwrap();
        assert!(w.from < w.to);
        assert!(resolve(&c, &q(None, Some("yesterday"), None), 7).is_err());
        assert!(resolve(&c, &q(Some(0), None, None), 7).is_err());
        assert!(resolve(&c, &q(Some(3), Some("2026-01-01"), None), 7).is_err());
        assert!(resolve(&c, &q(None, Some("2026-01-05"), Some("2026-01-01")), 7).is_err());
    }
}
