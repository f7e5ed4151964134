//! Example questions for the empty screen, drawn from what the catalog covers: one
//! per leading platform, phrased from a well-described bundle's own description
//! ("Triages containers that keep crashing…" → "Which codebundle triages containers
//! that keep crashing in one namespace?"), so every example has a good answer.

use crate::store::StoreError;
use rusqlite::Connection;
use std::collections::HashMap;

/// A description's first clause as a question, when it starts with a verb.
pub fn phrase(description: &str) -> Option<String> {
    let flat = description.split_whitespace().collect::<Vec<_>>().join(" ");
    let clause = flat
        .split([':', '.', ';', '(', '—'])
        .next()
        .unwrap_or("")
        .trim();
    let mut words: Vec<&str> = clause.split(' ').collect();
    while words.iter().map(|w| w.len() + 1).sum::<usize>() > 80 {
        words.pop();
    }
    // Do not end on punctuation ("…pods, deployments,?") or a dangling
    // connective ("…instances selected by"); removing one can expose the other.
    const DANGLING: &[&str] = &[
        "a", "an", "the", "and", "or", "of", "by", "for", "in", "on", "to", "with", "that", "from",
    ];
    while let Some(last) = words.last_mut() {
        let trimmed = last.trim_end_matches([',', '-', '–', '&', '/', '+']);
        if trimmed.is_empty() || DANGLING.contains(&trimmed.to_lowercase().as_str()) {
            words.pop();
            continue;
        }
        *last = trimmed;
        break;
    }
    if words.len() < 4 {
        return None;
    }
    let first = words[0];
    let rest = words[1..].join(" ");
    let lower = first.to_lowercase();
    let third_person = first.chars().next().is_some_and(char::is_uppercase)
        && lower.ends_with('s')
        && !matches!(lower.as_str(), "this" | "its" | "has" | "is" | "was" | "as");
    let imperative = matches!(
        lower.as_str(),
        "check"
            | "find"
            | "identify"
            | "review"
            | "list"
            | "inspect"
            | "detect"
            | "measure"
            | "validate"
    );
    if third_person {
        Some(format!("Which codebundle {lower} {rest}?"))
    } else if imperative {
        Some(format!("How do I {lower} {rest}?"))
    } else {
        None
    }
}

pub fn examples(c: &Connection, n: usize) -> Result<Vec<String>, StoreError> {
    let mut st = c.prepare(
        "SELECT platform, description, task_count + sli_count FROM bundles ORDER BY task_count + sli_count DESC, slug",
    )?;
    let rows: Vec<(String, String, i64)> = st
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<Result<_, _>>()?;
    let mut per_platform: HashMap<&str, usize> = HashMap::new();
    for (p, _, _) in &rows {
        *per_platform.entry(p.as_str()).or_default() += 1;
    }
    let mut platforms: Vec<(&str, usize)> = per_platform.into_iter().collect();
    platforms.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let mut out = Vec::new();
    for (platform, _) in platforms {
        if let Some(q) = rows
            .iter()
            .filter(|(p, _, _)| p == platform)
            .find_map(|(_, d, _)| phrase(d))
        {
            out.push(q);
        }
        if out.len() >= n {
            break;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::phrase;

    #[test]
    fn descriptions_become_questions() {
        assert_eq!(
            phrase(
                "Triages containers that keep crashing in one namespace: crash loops, memory kills."
            )
            .as_deref(),
            Some("Which codebundle triages containers that keep crashing in one namespace?")
        );
        assert_eq!(
            phrase("Check Azure App Service Plan health by identifying availability issues.")
                .as_deref(),
            Some(
                "How do I check Azure App Service Plan health by identifying availability issues?"
            )
        );
        assert_eq!(
            phrase("Checks the health of pods, deployments, statefulsets, daemonsets, cronjobs, services and ingresses together")
                .as_deref(),
            Some("Which codebundle checks the health of pods, deployments, statefulsets, daemonsets, cronjobs?"),
            "no comma before the question mark"
        );
        assert_eq!(
            phrase("Checks the health of pods, deployments, statefulsets, daemonsets, cronjobs, and services together")
                .as_deref(),
            Some("Which codebundle checks the health of pods, deployments, statefulsets, daemonsets, cronjobs?"),
            "nor after an Oxford comma's 'and'"
        );
        assert_eq!(phrase("This codebundle runs a kubectl get command."), None);
        assert_eq!(phrase("No robot file here."), None);
    }
}
