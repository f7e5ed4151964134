//! Real calls of a keyword, read from the robot files of bundles that use it: the
//! example a keyword answer shows next to the keyword's documentation.

use super::files::read_confined;
use super::{Registry, ToolError};
use serde::Serialize;
use std::collections::HashMap;
use std::path::PathBuf;

/// A real call of a keyword in an indexed bundle.
#[derive(Clone, Debug, Serialize)]
pub struct KeywordExample {
    pub keyword: String,
    pub bundle: String,
    pub task: String,
    /// `codebundles/<slug>/<file>:<line>`.
    pub location: String,
    pub call: String,
}

/// Robot matches keyword names ignoring case, spaces and underscores.
fn normalise(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace() && *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// The keyword a body line calls: its first cell after any `${var}=` assignments.
fn called_keyword(line: &str) -> Option<&str> {
    if !line.starts_with([' ', '\t']) {
        return None; // column 1 holds task names and settings, not calls
    }
    line.split("  ")
        .flat_map(|c| c.split('\t'))
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .find(|c| !(c.starts_with(['$', '@', '&']) && c.ends_with('=')))
        .filter(|c| !c.starts_with('#') && !c.starts_with("..."))
}

/// Bundles looked at per keyword, and examples kept per keyword.
const USERS_LOOKED_AT: usize = 6;
const EXAMPLES_PER_KEYWORD: usize = 2;

impl Registry {
    /// Up to two real calls per `(library, keyword)`, from the robot files of
    /// bundles that use it (by collection and slug).
    pub async fn keyword_examples(
        &self,
        keys: &[(String, String)],
    ) -> Result<Vec<KeywordExample>, ToolError> {
        let mut out = Vec::new();
        let mut roots: HashMap<String, PathBuf> = HashMap::new();
        for (library, name) in keys {
            let (l, n) = (library.clone(), name.clone());
            let mut users = self
                .db
                .read(move |c| crate::catalog::keyword_users(c, &l, &n))
                .await?;
            users.sort_by(|a, b| a.key.cmp(&b.key));
            let mut found = 0;
            for user in users.iter().take(USERS_LOOKED_AT) {
                if found == EXAMPLES_PER_KEYWORD {
                    break;
                }
                let Some((coll, slug)) = user.key.split_once('/') else {
                    continue;
                };
                let root = match roots.get(coll) {
                    Some(root) => root.clone(),
                    None => {
                        let root = self.collection_root(coll).await?;
                        roots.insert(coll.to_string(), root.clone());
                        root
                    }
                };
                for file in ["runbook.robot", "sli.robot"] {
                    let rel = format!("codebundles/{slug}/{file}");
                    let Ok(text) = read_confined(root.clone(), rel.clone()).await else {
                        continue;
                    };
                    if let Some((task, line, call)) = find_call(&text, name) {
                        out.push(KeywordExample {
                            keyword: name.clone(),
                            bundle: user.key.clone(),
                            task,
                            location: format!("{rel}:{line}"),
                            call,
                        });
                        found += 1;
                        break;
                    }
                }
            }
        }
        Ok(out)
    }
}

/// The first call of keyword `name` in a robot file: the task it is in, its
/// 1-based line and the call with up to five continuation lines.
fn find_call(text: &str, name: &str) -> Option<(String, usize, String)> {
    let wanted = normalise(name);
    let suffix = format!(".{wanted}");
    let lines: Vec<&str> = text.lines().collect();
    // Robot matches names ignoring case, spaces and underscores, with or without
    // the library prefix.
    let at = lines.iter().position(|l| {
        called_keyword(l).is_some_and(|k| {
            let k = normalise(k);
            k == wanted || k.ends_with(&suffix)
        })
    })?;
    let task = lines[..at]
        .iter()
        .rev()
        .find(|l| !l.is_empty() && !l.starts_with([' ', '\t', '#', '*']))
        .map(|l| l.trim().to_string())
        .unwrap_or_default();
    let mut call: Vec<&str> = vec![lines[at].trim()];
    call.extend(
        lines[at + 1..]
            .iter()
            .map(|l| l.trim())
            .take_while(|l| l.starts_with("..."))
            .take(5),
    );
    Some((task, at + 1, call.join("\n")))
}

#[cfg(test)]
mod tests {
    use super::called_keyword;

    #[test]
    fn the_called_keyword_is_the_first_cell_after_assignments() {
        assert_eq!(
            called_keyword("    ${out}=    RW.Kube.Summarize Pod Restarts    pods_json=${x}"),
            Some("RW.Kube.Summarize Pod Restarts")
        );
        assert_eq!(called_keyword("\tLog    hello"), Some("Log"));
        assert_eq!(called_keyword("Summarize Pod Restarts"), None);
        assert_eq!(called_keyword("    # Summarize Pod Restarts"), None);
        assert_eq!(called_keyword("    ...    more"), None);
    }
}
