//! What the calls of one keyword say about it: how bundles spell it, what they pass,
//! what they read from its result, where a typical call is. A keyword no collection
//! ships is known only this way (`external`); a shipped one gets it beside its
//! docstring (`usage`), because a docstring says how a keyword works, while its
//! calls say what people use it for ("cmd=", "secret_file__kubeconfig=", then
//! `${rsp.stdout}`).

use super::TaskKind;
use super::robot::CallSite;
use std::collections::{BTreeMap, HashMap, HashSet};

#[derive(Default)]
pub(super) struct Evidence {
    spellings: HashMap<String, usize>,
    pub(super) calls: usize,
    sli_calls: usize,
    pub(super) bundles: HashSet<i64>,
    named: HashMap<String, usize>,
    positional: HashMap<usize, usize>,
    /// What callers pass first (`kubeconfig`, `${score}`), as words, by how often.
    first_values: HashMap<String, usize>,
    /// The `description=` texts callers give, by how often.
    descriptions: HashMap<String, usize>,
    /// Fields later calls read from the result (`${rsp.stdout}` → `stdout`).
    fields: HashMap<String, usize>,
    /// The programs callers run through a command argument (`cmd=kubectl get
    /// pods` → `kubectl`), by how often.
    programs: HashMap<String, usize>,
    /// collection id → calls, and its first call site (file, line).
    by_collection: BTreeMap<i64, (usize, String, usize)>,
}

/// One call: where it is and what surrounds it.
pub(super) struct Call<'a> {
    pub collection: i64,
    pub kind: TaskKind,
    pub bundle: i64,
    pub file: &'a str,
    /// The task's calls, and which of them this is.
    pub sites: &'a [CallSite],
    pub at: usize,
    /// The keyword's name as this call writes it, without its library.
    pub name: &'a str,
    /// The bundle's variable defaults (see `program`).
    pub defaults: &'a HashMap<String, String>,
}

impl Evidence {
    pub(super) fn add(&mut self, call: &Call) {
        let site = &call.sites[call.at];
        *self.spellings.entry(call.name.to_string()).or_default() += 1;
        self.calls += 1;
        if call.kind == TaskKind::Sli {
            self.sli_calls += 1;
        }
        self.bundles.insert(call.bundle);
        for n in site.named() {
            *self.named.entry(n.to_string()).or_default() += 1;
        }
        *self.positional.entry(site.positional()).or_default() += 1;
        if let Some(first) = site
            .args
            .first()
            .filter(|a| site.named().all(|n| !a.starts_with(n)))
        {
            let words = crate::index::text::tokens(first).join(" ");
            if !words.is_empty() {
                *self.first_values.entry(words).or_default() += 1;
            }
        }
        for a in &site.args {
            if let Some(d) = a
                .strip_prefix("description=")
                .filter(|d| !d.trim().is_empty())
            {
                *self.descriptions.entry(d.trim().to_string()).or_default() += 1;
            }
            if let Some(p) = program(a, call.defaults) {
                *self.programs.entry(p).or_default() += 1;
            }
        }
        for f in fields_read(call.sites, call.at) {
            *self.fields.entry(f).or_default() += 1;
        }
        let e = self
            .by_collection
            .entry(call.collection)
            .or_insert_with(|| (0, call.file.to_string(), site.line));
        e.0 += 1;
    }

    /// The spelling most callers use (ties: the alphabetically first, for stable ids).
    pub(super) fn name(&self) -> String {
        let mut v: Vec<(&String, &usize)> = self.spellings.iter().collect();
        v.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
        v.first().map(|(s, _)| s.to_string()).unwrap_or_default()
    }

    /// Positional arguments as most calls pass them, then named ones by how often
    /// they are passed: `value, sub_name=`.
    pub(super) fn args(&self) -> String {
        let positional = self
            .positional
            .iter()
            .max_by(|a, b| a.1.cmp(b.1).then_with(|| b.0.cmp(a.0)))
            .map_or(0, |(n, _)| *n);
        (1..=positional)
            .map(|i| format!("arg{i}"))
            .chain(most_common(&self.named, 10).iter().map(|n| format!("{n}=")))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Where it is called: "in runbook tasks", "mostly in SLIs (…)".
    pub(super) fn used_in(&self) -> &'static str {
        let share = self.sli_calls as f32 / self.calls.max(1) as f32;
        if share >= 0.5 {
            "mostly in SLIs (service level indicators, which measure and report a metric)"
        } else if self.sli_calls > 0 {
            "in runbook tasks and SLIs"
        } else {
            "in runbook tasks"
        }
    }

    /// What callers pass first, most common first.
    pub(super) fn first_values(&self, n: usize) -> Vec<&str> {
        most_common(&self.first_values, n)
    }

    pub(super) fn descriptions(&self, n: usize) -> Vec<&str> {
        most_common(&self.descriptions, n)
    }

    /// The result's fields callers read, most common first.
    pub(super) fn fields(&self, n: usize) -> Vec<&str> {
        most_common(&self.fields, n)
    }

    /// The collection with the most calls and its first call site.
    pub(super) fn home(&self) -> Option<(i64, &str, usize)> {
        self.by_collection
            .iter()
            .max_by(|a, b| a.1.0.cmp(&b.1.0).then_with(|| b.0.cmp(a.0)))
            .map(|(cid, (_, file, line))| (*cid, file.as_str(), *line))
    }

    /// "Called with: cmd=, env=. Callers read from its result: stdout, stderr." The
    /// words a question about using the keyword shares with its calls. Counts and
    /// where it is called stay out: every keyword's text would share them.
    pub(super) fn usage(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        let named = most_common(&self.named, 6);
        if !named.is_empty() {
            let named: Vec<String> = named.iter().map(|n| format!("{n}=")).collect();
            parts.push(format!("Called with: {}.", named.join(", ")));
        } else if let values @ [_, ..] = self.first_values(4).as_slice() {
            parts.push(format!("Called with: {}.", values.join("; ")));
        }
        let fields = self.fields(4);
        if !fields.is_empty() {
            parts.push(format!(
                "Callers read from its result: {}.",
                fields.join(", ")
            ));
        }
        // Programs run by at least two calls: one-off commands are noise.
        let programs: Vec<&str> = most_common(&self.programs, 6)
            .into_iter()
            .filter(|p| self.programs[*p] >= 2)
            .collect();
        if !programs.is_empty() {
            parts.push(format!("Runs commands such as {}.", programs.join(", ")));
        }
        parts.join(" ")
    }
}

/// The program a command argument runs (`cmd=kubectl get pods -n x` → `kubectl`):
/// the words a question about running that program shares with the keyword
/// ("which keyword runs kubectl for me"). Through a variable, the program is the
/// first word of the bundle's default for it (`${KUBERNETES_DISTRIBUTION_BINARY}`
/// defaults to `kubectl`: 43 bundles run kubectl that way, and the variable's own
/// first word, `kubernetes`, hid it), else the variable's first word
/// (`${GCLOUD_CMD}` → `gcloud`). Shell syntax, switches (`cmd_override=true`) and
/// numbers say nothing.
/// `defaults` are keyed by Robot's normalised name (`robot::normalize`).
fn program(arg: &str, defaults: &HashMap<String, String>) -> Option<String> {
    let (name, value) = arg.split_once('=')?;
    let name = name.trim().to_lowercase();
    if !(name == "cmd" || name == "command" || name.ends_with("_cmd") || name.ends_with("_command"))
    {
        return None;
    }
    let first = command_word(value)?;
    match first.strip_prefix("${").and_then(|v| v.strip_suffix('}')) {
        Some(var) => defaults
            .get(&super::robot::normalize(var))
            .and_then(|d| command_word(d))
            .filter(|d| !d.starts_with("${"))
            .and_then(program_named)
            .or_else(|| program_named(var.split('_').next()?)),
        None => program_named(first),
    }
}

/// The word of a command that says what runs: past quotes and leading environment
/// assignments (`KUBECONFIG=./kc kubectl …`).
fn command_word(command: &str) -> Option<&str> {
    command
        .trim_start_matches(['"', '\'', ' '])
        .split_whitespace()
        .find(|t| t.starts_with("${") || !t.contains('='))
}

/// A program's name from a command word (`/usr/bin/kubectl` → `kubectl`), unless
/// it is shell syntax, a generic word or not a name.
fn program_named(word: &str) -> Option<String> {
    const SYNTAX: &[&str] = &["if", "for", "while", "do", "then", "true", "false", "set"];
    const GENERIC: &[&str] = &["cmd", "command", "binary", "bin", "exec", "name", "the"];
    let word = word
        .trim_matches(['"', '\''])
        .rsplit('/')
        .next()?
        .to_lowercase();
    (word.len() >= 2
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        && word.chars().any(|c| c.is_ascii_alphabetic())
        && !SYNTAX.contains(&word.as_str())
        && !GENERIC.contains(&word.as_str()))
    .then_some(word)
}

/// The fields of call `at`'s result that the task's later calls read: `${rsp}=`
/// assigned there, `${rsp.stdout}` passed later gives `stdout`.
pub(super) fn fields_read(sites: &[CallSite], at: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for var in &sites[at].assigns {
        let prefix = format!("{{{var}.");
        for later in &sites[at + 1..] {
            if later.assigns.contains(var) {
                break; // reassigned: later reads are of another call's result
            }
            for arg in &later.args {
                for (i, _) in arg.match_indices(&prefix) {
                    let field: String = arg[i + prefix.len()..]
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    if !field.is_empty() && !out.contains(&field) {
                        out.push(field);
                    }
                }
            }
        }
    }
    out
}

/// The `n` most frequent values (ties alphabetically, for stable text).
fn most_common(counts: &HashMap<String, usize>, n: usize) -> Vec<&str> {
    let mut v: Vec<(&String, &usize)> = counts.iter().collect();
    v.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
    v.into_iter().take(n).map(|(s, _)| s.as_str()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(name: &str, assigns: &[&str], args: &[&str]) -> CallSite {
        CallSite {
            name: name.into(),
            line: 1,
            args: args.iter().map(|a| a.to_string()).collect(),
            assigns: assigns.iter().map(|a| a.to_string()).collect(),
        }
    }

    #[test]
    fn fields_read_are_those_of_this_calls_result_until_it_is_reassigned() {
        let sites = [
            site("RW.CLI.Run Cli", &["rsp"], &["cmd=kubectl get pods"]),
            site("Log", &[], &["${rsp.stdout} and ${rsp.returncode}"]),
            site("RW.CLI.Run Cli", &["rsp"], &["cmd=date"]),
            site("Log", &[], &["${rsp.stderr}"]),
        ];
        assert_eq!(fields_read(&sites, 0), vec!["stdout", "returncode"]);
        assert_eq!(fields_read(&sites, 2), vec!["stderr"]);
        assert!(fields_read(&sites, 1).is_empty());
    }

    #[test]
    fn usage_names_what_callers_pass_and_read() {
        let sites = [
            site(
                "RW.CLI.Run Cli",
                &["rsp"],
                &["cmd=kubectl get pods", "env=${env}"],
            ),
            site("Log", &[], &["${rsp.stdout}"]),
        ];
        let mut ev = Evidence::default();
        ev.add(&Call {
            collection: 1,
            kind: TaskKind::Task,
            bundle: 7,
            file: "runbook.robot",
            sites: &sites,
            at: 0,
            name: "Run Cli",
            defaults: &HashMap::new(),
        });
        assert_eq!(
            ev.usage(),
            "Called with: cmd=, env=. Callers read from its result: stdout."
        );
    }

    #[test]
    fn a_variable_runs_what_it_defaults_to_else_what_it_is_named_for() {
        let defaults = HashMap::from([
            (
                "kubernetesdistributionbinary".to_string(),
                "kubectl".to_string(),
            ),
            ("quoted".to_string(), "\"oc\"".to_string()),
            (
                "withenv".to_string(),
                "KUBECONFIG=./kc /usr/bin/helm".to_string(),
            ),
            ("nested".to_string(), "${OTHER}".to_string()),
        ]);
        let run = |cmd: &str| program(&format!("cmd={cmd} get pods"), &defaults);
        assert_eq!(
            run("${KUBERNETES_DISTRIBUTION_BINARY}").as_deref(),
            Some("kubectl")
        );
        // Robot's names ignore case and underscores.
        assert_eq!(
            run("${kubernetes_distribution_binary}").as_deref(),
            Some("kubectl")
        );
        assert_eq!(run("${QUOTED}").as_deref(), Some("oc"));
        assert_eq!(run("${WITH_ENV}").as_deref(), Some("helm"));
        // No usable default: the variable's first word.
        assert_eq!(run("${NESTED}").as_deref(), Some("nested"));
        assert_eq!(run("${GCLOUD_CMD}").as_deref(), Some("gcloud"));
    }

    #[test]
    fn usage_names_the_programs_callers_run() {
        let sites = [
            site("RW.CLI.Run Cli", &[], &["cmd=kubectl get pods -n x"]),
            site("RW.CLI.Run Cli", &[], &["cmd=/usr/bin/kubectl top nodes"]),
            site("RW.CLI.Run Cli", &[], &["cmd=${CMD}"]),
            site("RW.CLI.Run Cli", &[], &["cmd=date"]),
            site("RW.CLI.Run Cli", &[], &["env=kubectl", "cmd_override=true"]),
            site("RW.CLI.Run Cli", &[], &["cmd=${KUBECTL_BINARY} get pods"]),
            site("RW.CLI.Run Cli", &[], &["cmd=${DISTRIBUTION} get ns"]),
            site(
                "RW.CLI.Run Cli",
                &[],
                &["cmd=KUBECONFIG=./kc kubectl get ns"],
            ),
        ];
        // The bundle's default says what `${DISTRIBUTION}` runs.
        let defaults = HashMap::from([("distribution".to_string(), "kubectl".to_string())]);
        let mut ev = Evidence::default();
        for at in 0..sites.len() {
            ev.add(&Call {
                collection: 1,
                kind: TaskKind::Task,
                bundle: 7,
                file: "runbook.robot",
                sites: &sites,
                at,
                name: "Run Cli",
                defaults: &defaults,
            });
        }
        // kubectl five times (through a variable named for it or defaulting to
        // it, after an environment assignment); `date` once
        // (noise); a generic variable, a switch and a non-command never.
        assert!(
            ev.usage().ends_with("Runs commands such as kubectl."),
            "{}",
            ev.usage()
        );
    }
}
