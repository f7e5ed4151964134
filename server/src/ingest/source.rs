//! Where collections come from: a local directory, or a git repository cloned (or
//! updated) into the data dir with the system `git`. Also the commit and web URL
//! used for source links.

use super::IngestError;
use super::record::LinkBase;
use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(Clone, Debug, PartialEq)]
pub enum Location {
    Path(PathBuf),
    Git {
        url: String,
        reference: Option<String>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct CollectionSource {
    pub name: String,
    pub location: Location,
}

#[derive(Clone, Debug, PartialEq)]
pub struct DocSource {
    pub name: String,
    pub path: PathBuf,
}

#[derive(Clone, Debug)]
pub struct Resolved {
    pub name: String,
    pub root: PathBuf,
    pub git_url: Option<String>,
    pub git_ref: Option<String>,
    pub commit: Option<String>,
    pub links: Option<LinkBase>,
    /// Bundle slug → committer date of the newest commit touching its folder.
    pub bundle_dates: std::collections::HashMap<String, String>,
}

/// The default name of a collection: its directory (or repository) name.
pub fn default_name(location: &Location) -> String {
    let raw = match location {
        Location::Path(p) => p
            .canonicalize()
            .unwrap_or_else(|_| p.clone())
            .file_name()
            .map(|s| s.to_string_lossy().to_string()),
        Location::Git { url, .. } => url
            .trim_end_matches('/')
            .rsplit(['/', ':'])
            .next()
            .map(str::to_string),
    };
    raw.unwrap_or_else(|| "collection".into())
        .trim_end_matches(".git")
        .to_string()
}

pub fn resolve(source: &CollectionSource, data_dir: &Path) -> Result<Resolved, IngestError> {
    let fail = |reason: String| IngestError::Source {
        name: source.name.clone(),
        reason,
    };
    let (root, git_url, git_ref) = match &source.location {
        Location::Path(p) => {
            if !p.is_dir() {
                return Err(fail(format!("{} is not a directory", p.display())));
            }
            (p.clone(), None, None)
        }
        Location::Git { url, reference } => {
            let dir = data_dir
                .join("collections")
                .join(safe_dir_name(&source.name));
            sync_git(url, reference.as_deref(), &dir).map_err(fail)?;
            (dir, Some(url.clone()), reference.clone())
        }
    };
    if !root.join("codebundles").is_dir() {
        return Err(fail(format!(
            "{} has no codebundles/ directory",
            root.display()
        )));
    }
    let commit = git(&root, &["rev-parse", "HEAD"]).ok();
    let remote = git_url
        .clone()
        .or_else(|| git(&root, &["config", "--get", "remote.origin.url"]).ok());
    let links = match (remote.as_deref().and_then(web_url), &commit) {
        (Some(web), Some(c)) => Some(LinkBase {
            web,
            commit: c.clone(),
        }),
        _ => None,
    };
    let bundle_dates = if commit.is_some() {
        bundle_dates(&root)
    } else {
        Default::default()
    };
    Ok(Resolved {
        name: source.name.clone(),
        root,
        git_url,
        git_ref,
        commit,
        links,
        bundle_dates,
    })
}

/// One pass over the history of `codebundles/`, newest first: the first date seen
/// for a bundle's folder is its last change. A shallow clone knows only its one
/// commit; a failure leaves the dates unknown (they are informative only).
fn bundle_dates(root: &Path) -> std::collections::HashMap<String, String> {
    let mut out = std::collections::HashMap::new();
    let Ok(log) = git(
        root,
        &[
            "log",
            "--format=%x00%cI",
            "--name-only",
            "--no-renames",
            "--",
            "codebundles",
        ],
    ) else {
        return out;
    };
    let mut date = "";
    for line in log.lines() {
        if let Some(d) = line.strip_prefix('\0') {
            date = d.trim();
        } else if let Some(rest) = line.strip_prefix("codebundles/")
            && let Some((slug, _)) = rest.split_once('/')
            && !date.is_empty()
        {
            out.entry(slug.to_string())
                .or_insert_with(|| date.to_string());
        }
    }
    out
}

fn safe_dir_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Clones into `dir`, or fetches and checks out when it is already a clone. Works
/// for branch names, tags and (where the server allows) commit ids.
fn sync_git(url: &str, reference: Option<&str>, dir: &Path) -> Result<(), String> {
    let want = reference.unwrap_or("HEAD");
    if !dir.join(".git").is_dir() {
        if dir.exists() {
            std::fs::remove_dir_all(dir)
                .map_err(|e| format!("cannot clear {}: {e}", dir.display()))?;
        }
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        git(dir, &["init", "--quiet"])?;
        git(dir, &["remote", "add", "origin", url])?;
    } else {
        git(dir, &["remote", "set-url", "origin", url])?;
    }
    git(dir, &["fetch", "--quiet", "--depth", "1", "origin", want])
        .map_err(|e| format!("git fetch {url} {want} failed: {e}"))?;
    git(dir, &["checkout", "--quiet", "--force", "FETCH_HEAD"])?;
    Ok(())
}

fn git(dir: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_TERMINAL_PROMPT", "0")
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).trim().to_string())
    }
}

/// `git@github.com:o/r.git` or `https://github.com/o/r.git` → `https://github.com/o/r`.
/// Only hosts with a known blob URL layout get links.
pub fn web_url(remote: &str) -> Option<String> {
    let r = remote.trim().trim_end_matches('/').trim_end_matches(".git");
    let (host, path) = if let Some(rest) = r.strip_prefix("git@") {
        rest.split_once(':')?
    } else {
        let rest = r
            .strip_prefix("https://")
            .or_else(|| r.strip_prefix("http://"))?;
        let rest = rest.rsplit_once('@').map_or(rest, |(_, h)| h);
        rest.split_once('/')?
    };
    if !matches!(host, "github.com" | "gitlab.com" | "bitbucket.org")
        && !host.starts_with("github.")
        && !host.starts_with("gitlab.")
    {
        return None;
    }
    Some(format!("https://{host}/{path}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn web_urls() {
        assert_eq!(
            web_url("git@github.com:acme/ops.git").as_deref(),
            Some("https://github.com/acme/ops")
        );
        assert_eq!(
            web_url("https://github.com/acme/ops.git").as_deref(),
            Some("https://github.com/acme/ops")
        );
        assert_eq!(
            web_url("https://token@github.com/acme/ops").as_deref(),
            Some("https://github.com/acme/ops")
        );
        assert_eq!(web_url("/srv/mirror/ops"), None);
        assert_eq!(web_url("file:///tmp/x"), None);
    }

    #[test]
    fn names_default_to_the_directory() {
        assert_eq!(
            default_name(&Location::Git {
                url: "https://github.com/a/rw-cli-codecollection.git".into(),
                reference: None
            }),
            "rw-cli-codecollection"
        );
        assert_eq!(
            default_name(&Location::Path(PathBuf::from("/tmp/kube-ops/"))),
            "kube-ops"
        );
    }
}
