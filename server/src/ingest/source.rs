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
    /// Where this run reads the files: for a git source a staging checkout of the
    /// fetched commit, so the live checkout moves only after the catalog commits.
    pub root: PathBuf,
    /// What the catalog records and tools read from.
    pub live_root: PathBuf,
    /// The commit to check out in `live_root` once the catalog has committed.
    pub staged: Option<String>,
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
    let (root, live_root, staged, git_url, git_ref) = match &source.location {
        Location::Path(p) => {
            if !p.is_dir() {
                return Err(fail(format!("{} is not a directory", p.display())));
            }
            (p.clone(), p.clone(), None, None, None)
        }
        Location::Git { url, reference } => {
            // Absolute: git runs inside the repository, where a relative staging
            // path (`./data/…`, the default data dir) would land inside the checkout.
            let dir = std::path::absolute(
                data_dir
                    .join("collections")
                    .join(checkout_folder(&source.name)),
            )
            .map_err(|e| fail(format!("cannot resolve the data dir: {e}")))?;
            let (staging, sha) = sync_git(url, reference.as_deref(), &dir)
                .map_err(|e| fail(redact_text(&e, url)))?;
            (
                staging,
                dir,
                Some(sha),
                Some(url.clone()),
                reference.clone(),
            )
        }
    };
    if !root.join("codebundles").is_dir() {
        if staged.is_some() {
            drop_staging(&live_root, &root);
        }
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
        live_root,
        staged,
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

/// The folder under `collections/` where a git collection named `name` is checked
/// out; distinct names can share one, which `run` refuses.
pub fn checkout_folder(name: &str) -> String {
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

/// `https://user:TOKEN@host/x.git` → `https://***@host/x.git`: credentials never
/// reach a log line, an error message or an API answer.
pub fn redact(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut u) if !u.username().is_empty() || u.password().is_some() => {
            let _ = u.set_password(None);
            let _ = u.set_username("***");
            u.to_string()
        }
        Ok(_) => url.to_string(),
        // Not a URL (`git@host:o/r.git`, a path): drop anything before an `@`.
        Err(_) => match url.rsplit_once('@') {
            Some((user, rest)) if user.contains(':') && !user.contains('/') => {
                format!("***@{rest}")
            }
            _ => url.to_string(),
        },
    }
}

/// A ref git would take as a ref, never as an option (no leading `-`): a branch
/// or tag name that `git check-ref-format` accepts, or a commit id.
pub fn valid_ref(r: &str) -> bool {
    if r.is_empty() || r.starts_with('-') || r.len() > 200 {
        return false;
    }
    if r.len() >= 7 && r.chars().all(|c| c.is_ascii_hexdigit()) {
        return true;
    }
    // (check-ref-format takes no `--end-of-options`; a leading `-` is refused above.)
    Command::new("git")
        .args(["check-ref-format", "--allow-onelevel", r])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Fetches into the repository at `dir` (made on first use) and checks the fetched
/// commit out in a staging worktree next to it, leaving `dir`'s own checkout (what
/// the catalog and the tools read) as it was. Returns the staging path and the
/// commit. Works for branch names, tags and (where the server allows) commit ids.
fn sync_git(url: &str, reference: Option<&str>, dir: &Path) -> Result<(PathBuf, String), String> {
    let want = reference.unwrap_or("HEAD");
    if want != "HEAD" && !valid_ref(want) {
        return Err(format!("{want:?} is not a valid git ref"));
    }
    if url.starts_with('-') {
        return Err("the git URL must not start with '-'".into());
    }
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
    git(
        dir,
        &[
            "fetch",
            "--quiet",
            "--depth",
            "1",
            "--end-of-options",
            "origin",
            want,
        ],
    )
    .map_err(|e| {
        format!(
            "git fetch {} {want} failed: {}",
            redact(url),
            redact_text(&e, url)
        )
    })?;
    let sha = git(dir, &["rev-parse", "FETCH_HEAD"])?;
    let staging = staging_dir(dir);
    drop_staging(dir, &staging);
    git(
        dir,
        &[
            "worktree",
            "add",
            "--quiet",
            "--force",
            "--detach",
            &staging.to_string_lossy(),
            &sha,
        ],
    )?;
    Ok((staging, sha))
}

/// `collections/<name>.next`: beside the live checkout, never inside it.
fn staging_dir(live: &Path) -> PathBuf {
    let mut name = live.file_name().unwrap_or_default().to_os_string();
    name.push(".next");
    live.with_file_name(name)
}

/// Removes a staging worktree (a leftover from a run that died too).
fn drop_staging(live: &Path, staging: &Path) {
    if staging.exists()
        && git(
            live,
            &["worktree", "remove", "--force", &staging.to_string_lossy()],
        )
        .is_err()
    {
        let _ = std::fs::remove_dir_all(staging);
    }
    let _ = git(live, &["worktree", "prune"]);
}

/// After an index run: when the catalog committed (`committed`), the live
/// checkout moves to the commit that was indexed; either way the staging worktree
/// goes. A failed run leaves the live checkout where the catalog still points.
pub fn finish(r: &Resolved, committed: bool) -> Result<(), IngestError> {
    let Some(sha) = &r.staged else {
        return Ok(());
    };
    let moved = if committed {
        git(
            &r.live_root,
            &["checkout", "--quiet", "--force", "--detach", sha],
        )
        .map(|_| ())
    } else {
        Ok(())
    };
    drop_staging(&r.live_root, &r.root);
    moved.map_err(|reason| IngestError::Source {
        name: r.name.clone(),
        reason,
    })
}

/// Credentials of `url` removed from a text git printed.
fn redact_text(text: &str, url: &str) -> String {
    text.replace(url, &redact(url))
}

/// Longest a git command may run; a fetch that stalls below the low-speed limit
/// (1 KB/s for 30 s) is cut earlier by git itself.
const GIT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(600);

fn git(dir: &Path, args: &[&str]) -> Result<String, String> {
    let mut child = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_HTTP_LOW_SPEED_LIMIT", "1000")
        .env("GIT_HTTP_LOW_SPEED_TIME", "30")
        .env(
            "GIT_SSH_COMMAND",
            "ssh -o BatchMode=yes -o ConnectTimeout=30",
        )
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run git: {e}"))?;
    // Read both pipes on threads (a full pipe would stall git) while the clock runs.
    let mut stdout = child.stdout.take();
    let mut stderr = child.stderr.take();
    let out_t = std::thread::spawn(move || {
        let mut b = Vec::new();
        if let Some(s) = stdout.as_mut() {
            let _ = std::io::Read::read_to_end(s, &mut b);
        }
        b
    });
    let err_t = std::thread::spawn(move || {
        let mut b = Vec::new();
        if let Some(s) = stderr.as_mut() {
            let _ = std::io::Read::read_to_end(s, &mut b);
        }
        b
    });
    let started = std::time::Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() > GIT_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "git {} took longer than {} s and was stopped",
                    args.first().unwrap_or(&""),
                    GIT_TIMEOUT.as_secs()
                ));
            }
            Ok(None) => std::thread::sleep(std::time::Duration::from_millis(50)),
            Err(e) => return Err(format!("cannot wait for git: {e}")),
        }
    };
    let out = out_t.join().unwrap_or_default();
    let err = err_t.join().unwrap_or_default();
    if status.success() {
        Ok(String::from_utf8_lossy(&out).trim().to_string())
    } else {
        Err(String::from_utf8_lossy(&err).trim().to_string())
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
    fn credentials_and_refs() {
        assert_eq!(
            redact("https://user:TOKEN@github.com/o/r.git"),
            "https://***@github.com/o/r.git"
        );
        assert_eq!(
            redact("https://github.com/o/r.git"),
            "https://github.com/o/r.git"
        );
        assert!(!redact("https://x-access-token:ghp_abc@host/r").contains("ghp_abc"));
        assert!(valid_ref("main") && valid_ref("release/1.2") && valid_ref("v1.0.0"));
        assert!(valid_ref("0123456789abcdef0123456789abcdef01234567"));
        for bad in [
            "--upload-pack=touch /tmp/pwned",
            "-x",
            "",
            "a..b",
            "bad ref",
            "x~1",
        ] {
            assert!(!valid_ref(bad), "{bad}");
        }
    }

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
