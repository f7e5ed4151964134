//! Nothing outside a collection's root is read: not at index time, not by any agent
//! or MCP tool. A path is read only when it is a regular file (symlinks are not
//! followed, whatever they point at), its canonical path lies under the root's
//! canonical path, and it is not larger than the caller allows. One set of checks
//! for every reader, so a hostile repository cannot leak `/etc/passwd` through a
//! symlinked `NOTES.md`, `docs/` or bundle file.

use std::io::Read;
use std::path::Path;

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum Refused {
    #[error("{0} is a symlink (symlinks are not followed)")]
    Symlink(String),
    #[error("{0} is not a regular file")]
    NotAFile(String),
    #[error("{0} is outside the collection")]
    Outside(String),
    #[error("{0} is larger than {1} bytes")]
    TooLarge(String, u64),
    #[error("cannot read {0}: {1}")]
    Io(String, String),
}

/// A directory that is really a directory here (not a symlink to one).
pub fn is_plain_dir(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_dir())
}

/// Is `path` a symlink (to anything, or dangling)?
pub fn is_symlink(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// Checks `path` (a file under `root`) and returns its size.
pub fn check(root: &Path, path: &Path) -> Result<u64, Refused> {
    let shown = path
        .strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string();
    let meta =
        std::fs::symlink_metadata(path).map_err(|e| Refused::Io(shown.clone(), e.to_string()))?;
    if meta.file_type().is_symlink() {
        return Err(Refused::Symlink(shown));
    }
    if !meta.file_type().is_file() {
        return Err(Refused::NotAFile(shown));
    }
    let root = root
        .canonicalize()
        .map_err(|e| Refused::Io(shown.clone(), e.to_string()))?;
    let real = path
        .canonicalize()
        .map_err(|e| Refused::Io(shown.clone(), e.to_string()))?;
    if !real.starts_with(&root) {
        return Err(Refused::Outside(shown));
    }
    Ok(meta.len())
}

/// Reads at most `max` bytes of a confined file (longer files are refused).
pub fn read(root: &Path, path: &Path, max: u64) -> Result<Vec<u8>, Refused> {
    let size = check(root, path)?;
    let shown = path
        .strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string();
    if size > max {
        return Err(Refused::TooLarge(shown, max));
    }
    let mut buf = Vec::with_capacity(size as usize);
    std::fs::File::open(path)
        .and_then(|f| f.take(max + 1).read_to_end(&mut buf))
        .map_err(|e| Refused::Io(shown.clone(), e.to_string()))?;
    if buf.len() as u64 > max {
        return Err(Refused::TooLarge(shown, max));
    }
    Ok(buf)
}

/// `rel` under `root`, as (lossy) text.
pub fn read_text(root: &Path, rel: &str, max: u64) -> Result<String, Refused> {
    read(root, &root.join(rel), max).map(|b| String::from_utf8_lossy(&b).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symlinks_and_escapes_are_refused() {
        let outside = tempfile::tempdir().unwrap();
        let secret = outside.path().join("secret.txt");
        std::fs::write(&secret, "TOP SECRET").unwrap();
        let root = tempfile::tempdir().unwrap();
        std::fs::write(root.path().join("ok.md"), "fine").unwrap();
        std::os::unix::fs::symlink(&secret, root.path().join("leak.md")).unwrap();
        std::os::unix::fs::symlink(outside.path(), root.path().join("docs")).unwrap();
        assert_eq!(read_text(root.path(), "ok.md", 100).unwrap(), "fine");
        assert!(matches!(
            read_text(root.path(), "leak.md", 100),
            Err(Refused::Symlink(_))
        ));
        // A real file reached through a symlinked directory is outside.
        assert!(matches!(
            read_text(root.path(), "docs/secret.txt", 100),
            Err(Refused::Outside(_))
        ));
        assert!(matches!(
            read_text(root.path(), "ok.md", 2),
            Err(Refused::TooLarge(..))
        ));
        assert!(!is_plain_dir(&root.path().join("docs")));
        assert!(is_symlink(&root.path().join("docs")));
    }
}
