//! Parsed bundles wait for the commit on disk, not in memory.
//!
//! A run parses every changed bundle before it writes anything (so a failure
//! leaves the old catalog serving). Holding those records in memory made a cold
//! run's peak grow with the registry; spooled to an unnamed file in the data dir
//! (never the system temp dir, which may be RAM), memory holds one bundle per
//! collection being planned (they are planned side by side) whatever the
//! registry's size. The file disappears when the run ends,
//! crash included.

use super::IngestError;
use super::record::BundleRecord;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Seek, SeekFrom, Write};
use std::path::Path;

/// Parsed bundles with their fingerprints, one JSON line each.
pub(super) struct Spool {
    out: Option<BufWriter<File>>,
    len: usize,
}

impl Spool {
    /// An empty spool that has not touched the disk yet (unchanged collections
    /// never create a file).
    pub fn new() -> Self {
        Spool { out: None, len: 0 }
    }

    pub fn push(
        &mut self,
        dir: &Path,
        record: &BundleRecord,
        fingerprint: &str,
    ) -> Result<(), IngestError> {
        if self.out.is_none() {
            let file = tempfile::tempfile_in(dir).map_err(IngestError::Spool)?;
            self.out = Some(BufWriter::new(file));
        }
        let Some(out) = self.out.as_mut() else {
            unreachable!("created above")
        };
        serde_json::to_writer(&mut *out, &(record, fingerprint))
            .map_err(|e| IngestError::Spool(e.into()))?;
        out.write_all(b"\n").map_err(IngestError::Spool)?;
        self.len += 1;
        Ok(())
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// Reads the records back in the order they were pushed. Call once, after
    /// the last push.
    pub fn drain(&mut self) -> Result<Drain, IngestError> {
        let Some(out) = self.out.take() else {
            return Ok(Drain { lines: None });
        };
        let mut file = out.into_inner().map_err(|e| IngestError::Spool(e.into()))?;
        file.seek(SeekFrom::Start(0)).map_err(IngestError::Spool)?;
        Ok(Drain {
            lines: Some(BufReader::new(file)),
        })
    }
}

pub(super) struct Drain {
    lines: Option<BufReader<File>>,
}

impl Iterator for Drain {
    type Item = Result<(BundleRecord, String), IngestError>;

    fn next(&mut self) -> Option<Self::Item> {
        let reader = self.lines.as_mut()?;
        let mut line = String::new();
        match reader.read_line(&mut line) {
            Ok(0) => None,
            Ok(_) => Some(serde_json::from_str(&line).map_err(|e| IngestError::Spool(e.into()))),
            Err(e) => Some(Err(IngestError::Spool(e))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_come_back_whole_and_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let mut spool = Spool::new();
        assert_eq!(spool.drain().unwrap().count(), 0);
        let mut spool = Spool::new();
        for i in 0..3 {
            let record = BundleRecord {
                slug: format!("b{i}"),
                description: "multi\nline \u{2713}".into(),
                ..Default::default()
            };
            spool.push(dir.path(), &record, &format!("fp{i}")).unwrap();
        }
        assert_eq!(spool.len(), 3);
        let back: Vec<_> = spool.drain().unwrap().map(Result::unwrap).collect();
        assert_eq!(back.len(), 3);
        assert_eq!(back[2].0.slug, "b2");
        assert_eq!(back[2].1, "fp2");
        assert_eq!(back[0].0.description, "multi\nline \u{2713}");
        // Unnamed: nothing is left in the data dir.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
