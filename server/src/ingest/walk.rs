//! Finding and reading the files of a collection. Junk is skipped by rule, never
//! by surprise: dot-files and dot-directories (except a bundle's `.runwhen/`),
//! `.test/`, credential-looking names, committed JSON dumps and temp files,
//! binaries and oversized files. Text is read as UTF-8; other bytes are decoded
//! lossily with a warning.

use super::Warning;
use std::path::{Path, PathBuf};

/// Files above this are listed as skipped, not read.
pub const MAX_FILE_BYTES: u64 = 1024 * 1024;

/// One readable file, with its content hash.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// Relative to the collection root, with `/` separators.
    pub rel: String,
    pub abs: PathBuf,
    pub size: u64,
    pub hash: String,
    pub text: String,
}

/// Why a file was not read.
#[derive(Clone, Debug, PartialEq)]
pub enum Skip {
    Hidden,
    Credential,
    Junk,
    Binary,
    TooLarge(u64),
}

impl Skip {
    /// Only the surprising skips deserve a warning; hidden and junk are routine.
    pub fn warning(&self) -> Option<String> {
        match self {
            Skip::TooLarge(size) => Some(format!(
                "skipped: {size} bytes is over the {MAX_FILE_BYTES}-byte limit"
            )),
            Skip::Binary => Some("skipped: binary file".into()),
            Skip::Credential => Some("skipped: the name looks like a credential".into()),
            Skip::Hidden | Skip::Junk => None,
        }
    }
}

/// Text formats the indexer reads. Credential-looking names are never read even
/// with these extensions, unless they are code or docs (a script called
/// `rotate_token.sh` is code, not a token).
const CODE_OR_DOCS: &[&str] = &[
    "robot", "md", "py", "sh", "yaml", "yml", "j2", "txt", "tf", "resource", "toml",
];

fn extension(name: &str) -> Option<String> {
    Path::new(name)
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| e.to_ascii_lowercase())
}

/// The path-level rules (no I/O).
pub fn classify(rel: &str) -> Option<Skip> {
    let parts: Vec<&str> = rel.split('/').collect();
    let name = parts.last().copied().unwrap_or("");
    for (i, part) in parts.iter().enumerate() {
        let is_last = i + 1 == parts.len();
        if part.starts_with('.') && *part != ".runwhen" {
            return Some(Skip::Hidden);
        }
        if !is_last && matches!(*part, "None" | "node_modules" | "__pycache__" | ".git") {
            return Some(Skip::Junk);
        }
    }
    let lower = name.to_ascii_lowercase();
    if lower.ends_with(".tmp")
        || lower.ends_with(".pyc")
        || lower.ends_with(".log")
        || lower.ends_with(".bak")
    {
        return Some(Skip::Junk);
    }
    let ext = extension(name);
    // Rules and templates under .runwhen/ often lack an extension and may be named
    // after secrets they check (`keyvault-secret-expiry-yaml`); they are never secrets.
    let runwhen = parts.contains(&".runwhen");
    if !runwhen
        && !ext.as_deref().is_some_and(|e| CODE_OR_DOCS.contains(&e))
        && looks_like_credential(&lower)
    {
        return Some(Skip::Credential);
    }
    None
}

fn looks_like_credential(lower_name: &str) -> bool {
    const EXTS: &[&str] = &[
        "pem", "key", "p12", "pfx", "jks", "kdbx", "crt", "der", "keystore",
    ];
    if extension(lower_name).is_some_and(|e| EXTS.contains(&e.as_str())) {
        return true;
    }
    let words: Vec<&str> = lower_name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    const WORDS: &[&str] = &[
        "secret",
        "secrets",
        "token",
        "tokens",
        "credential",
        "credentials",
        "password",
        "passwd",
        "apikey",
        "kubeconfig",
        "htpasswd",
        "id_rsa",
        "id_ed25519",
    ];
    words.iter().any(|w| WORDS.contains(w))
        || lower_name.contains("id_rsa")
        || lower_name.contains("api_key")
        || lower_name.contains("master_key")
        || lower_name.contains("private_key")
}

/// Walks `dir` (relative paths start at `root`), returning readable files and the
/// skips worth a warning. Symlinks are not followed.
pub fn walk(root: &Path, dir: &Path, warnings: &mut Vec<Warning>) -> Vec<SourceFile> {
    walk_matching(root, dir, |_| true, warnings)
}

/// [`walk`], reading (and warning about) only the files whose relative path
/// `keep` accepts: a folder scanned for its markdown is not read in full.
pub fn walk_matching(
    root: &Path,
    dir: &Path,
    keep: impl Fn(&str) -> bool,
    warnings: &mut Vec<Warning>,
) -> Vec<SourceFile> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            warnings.push(Warning::new(
                rel_of(root, &d),
                None,
                "cannot read directory",
            ));
            continue;
        };
        let mut entries: Vec<_> = entries.flatten().collect();
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let path = entry.path();
            let rel = rel_of(root, &path);
            let Ok(ft) = entry.file_type() else { continue };
            if !ft.is_dir() && !keep(&rel) {
                continue;
            }
            if ft.is_symlink() {
                warnings.push(Warning::new(
                    rel,
                    None,
                    "symlink skipped (symlinks are not followed)",
                ));
                continue;
            }
            if let Some(skip) = classify(&rel) {
                if let Some(w) = skip.warning() {
                    warnings.push(Warning::new(rel, None, w));
                }
                continue;
            }
            if ft.is_dir() {
                stack.push(path);
            } else if ft.is_file() {
                match read(root, &path, warnings) {
                    Ok(Some(f)) => out.push(f),
                    Ok(None) => {}
                    Err(e) => warnings.push(Warning::new(rel, None, format!("cannot read: {e}"))),
                }
            }
        }
    }
    out.sort_by(|a, b| a.rel.cmp(&b.rel));
    out
}

/// The same files with their text read again (the scan keeps only hashes of
/// bundle files, see `plan::scan`). Warnings were given by the first read; a
/// file gone since keeps empty text, and the next run notices the change.
pub fn with_text(root: &Path, files: &[SourceFile]) -> Vec<SourceFile> {
    let mut ignored = Vec::new();
    files
        .iter()
        .map(|f| match read(root, &f.abs, &mut ignored) {
            Ok(Some(again)) => SourceFile {
                hash: f.hash.clone(),
                ..again
            },
            _ => f.clone(),
        })
        .collect()
}

/// Reads one file: size limit, binary check, BOM, lossy UTF-8.
pub fn read(
    root: &Path,
    path: &Path,
    warnings: &mut Vec<Warning>,
) -> std::io::Result<Option<SourceFile>> {
    let rel = rel_of(root, path);
    // Regular files under the root only (see `confine`).
    let size = match super::confine::check(root, path) {
        Ok(size) => size,
        Err(e) => {
            warnings.push(Warning::new(rel, None, e.to_string()));
            return Ok(None);
        }
    };
    let is_json = extension(&rel).as_deref() == Some("json");
    if size > MAX_FILE_BYTES || (is_json && size > 64 * 1024) {
        if !is_json {
            warnings.push(Warning::new(
                rel,
                None,
                Skip::TooLarge(size).warning().unwrap_or_default(),
            ));
        }
        return Ok(None);
    }
    let bytes = match super::confine::read(root, path, MAX_FILE_BYTES) {
        Ok(b) => b,
        Err(e) => {
            warnings.push(Warning::new(rel, None, e.to_string()));
            return Ok(None);
        }
    };
    let hash = blake3::hash(&bytes).to_hex().to_string();
    if bytes.iter().take(8192).any(|b| *b == 0) {
        return Ok(None);
    }
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    let text = match std::str::from_utf8(body) {
        Ok(s) => s.to_string(),
        Err(e) => {
            let line = body[..e.valid_up_to()]
                .iter()
                .filter(|b| **b == b'\n')
                .count()
                + 1;
            warnings.push(Warning::new(
                rel.clone(),
                Some(line),
                "not valid UTF-8; decoded lossily",
            ));
            String::from_utf8_lossy(body).into_owned()
        }
    };
    Ok(Some(SourceFile {
        rel,
        abs: path.to_path_buf(),
        size,
        hash,
        text,
    }))
}

pub fn rel_of(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skip_rules() {
        assert_eq!(
            classify("codebundles/x/.test/Taskfile.yaml"),
            Some(Skip::Hidden)
        );
        assert_eq!(classify("codebundles/x/.api_token"), Some(Skip::Hidden));
        assert_eq!(classify("codebundles/x/.runwhen/generation-rules/x"), None);
        assert_eq!(
            classify("codebundles/x/.runwhen/generation-rules/kv-secret-expiry-yaml"),
            None
        );
        assert_eq!(classify("codebundles/x/None/.cache/id"), Some(Skip::Junk));
        assert_eq!(classify("codebundles/x/None/deviceid"), Some(Skip::Junk));
        assert_eq!(
            classify("codebundles/x/error_logs.json.tmp"),
            Some(Skip::Junk)
        );
        assert_eq!(classify("codebundles/x/server.pem"), Some(Skip::Credential));
        assert_eq!(classify("codebundles/x/api_token"), Some(Skip::Credential));
        assert_eq!(
            classify("codebundles/x/rotate_token.sh"),
            None,
            "scripts are code"
        );
        assert_eq!(classify("codebundles/x/runbook.robot"), None);
    }
}
