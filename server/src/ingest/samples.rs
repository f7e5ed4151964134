//! The sample registry, embedded in the binary so a single file can start with a
//! useful index. `registry-chat index` with nothing configured unpacks it into the
//! data dir (writing only files that changed) and indexes it.

use rust_embed::RustEmbed;
use std::path::{Path, PathBuf};

#[derive(RustEmbed)]
#[folder = "../samples"]
#[include = "collections/**"]
#[include = "docs/**"]
struct Samples;

/// Unpacks into `<data_dir>/samples` and returns (collection roots, docs root).
pub fn unpack(data_dir: &Path) -> std::io::Result<(Vec<PathBuf>, PathBuf)> {
    let root = data_dir.join("samples");
    let mut wanted = std::collections::HashSet::new();
    for name in Samples::iter() {
        let Some(file) = Samples::get(&name) else {
            continue;
        };
        let path = root.join(name.as_ref());
        wanted.insert(path.clone());
        let same = std::fs::read(&path).is_ok_and(|b| b == file.data.as_ref());
        if !same {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            std::fs::write(&path, &file.data)?;
        }
    }
    remove_unwanted(&root, &wanted)?;
    let mut collections: Vec<PathBuf> = std::fs::read_dir(root.join("collections"))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("codebundles").is_dir())
        .collect();
    collections.sort();
    Ok((collections, root.join("docs")))
}

/// Files left from an older binary's samples would otherwise linger in the index.
fn remove_unwanted(dir: &Path, wanted: &std::collections::HashSet<PathBuf>) -> std::io::Result<()> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            remove_unwanted(&p, wanted)?;
            if std::fs::read_dir(&p)?.next().is_none() {
                std::fs::remove_dir(&p)?;
            }
        } else if !wanted.contains(&p) {
            std::fs::remove_file(&p)?;
        }
    }
    Ok(())
}

/// True when the binary carries the samples (it always should; a test checks it).
pub fn available() -> bool {
    Samples::iter().any(|n| n.ends_with("runbook.robot"))
}
