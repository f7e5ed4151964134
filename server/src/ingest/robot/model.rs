//! What a robot file says, as far as the catalog cares.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RobotFile {
    /// Suite `Documentation`.
    pub documentation: String,
    /// `Metadata    Name    Value`, in file order.
    pub metadata: Vec<(String, String)>,
    /// `Force Tags` / `Test Tags` / `Task Tags`.
    pub force_tags: Vec<String>,
    pub default_tags: Vec<String>,
    pub libraries: Vec<LibraryImport>,
    pub suite_setup: Option<String>,
    pub tasks: Vec<TaskDef>,
    pub keywords: Vec<KeywordDef>,
    /// `Import User Variable` / `Import Secret` / `Import Service` calls anywhere.
    pub imports: Vec<VarImport>,
    /// `*** Variables ***` entries.
    pub suite_variables: Vec<(String, String)>,
    pub warnings: Vec<ParseWarning>,
}

impl RobotFile {
    /// The calls task `i` makes, directly, through the file's own keywords (each
    /// expanded once) and through BuiltIn runners (`Run Keyword If`), and for the
    /// first task also the suite setup's: a bundle that connects in `Suite
    /// Initialization` does use the connect keyword.
    pub fn sites_of(&self, i: usize) -> Vec<CallSite> {
        let Some(task) = self.tasks.get(i) else {
            return Vec::new();
        };
        let local: std::collections::HashMap<String, &KeywordDef> = self
            .keywords
            .iter()
            .map(|k| (normalize(&k.name), k))
            .collect();
        let mut out = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut todo: Vec<CallSite> = task.sites.iter().rev().cloned().collect();
        if i == 0
            && let Some(setup) = &self.suite_setup
        {
            todo.insert(
                0,
                CallSite {
                    name: setup.clone(),
                    ..Default::default()
                },
            );
        }
        while let Some(site) = todo.pop() {
            let name = normalize(&site.name);
            // `Run Keyword If    …    K`: K is called too, local or library.
            let run: Vec<CallSite> = super::runners::run_by(&name, &site.args)
                .into_iter()
                .map(|(name, args)| CallSite {
                    name,
                    line: site.line,
                    args,
                    assigns: Vec::new(),
                })
                .collect();
            match local.get(&name) {
                Some(k) if seen.insert(normalize(&k.name)) => {
                    todo.extend(k.sites.iter().rev().cloned());
                }
                Some(_) => {}
                None if site.line > 0 => out.push(site),
                None => {}
            }
            todo.extend(run.into_iter().rev());
        }
        out
    }

    /// The value of `Metadata    <name>`, compared case- and space-insensitively.
    pub fn metadata(&self, name: &str) -> Option<&str> {
        let want = normalize(name);
        self.metadata
            .iter()
            .find(|(k, _)| normalize(k) == want)
            .map(|(_, v)| v.as_str())
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LibraryImport {
    pub name: String,
    pub args: Vec<String>,
    pub line: usize,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TaskDef {
    /// Exactly as Robot reads it (a one-space indent stays in the name).
    pub name: String,
    pub doc: String,
    pub tags: Vec<String>,
    pub line_start: usize,
    pub line_end: usize,
    /// Keywords the body calls, as written (`RW.CLI.Run Bash File`).
    pub calls: Vec<String>,
    /// The same calls with where they are and what they pass: the evidence for
    /// "where is this keyword used" and for keywords no collection ships.
    pub sites: Vec<CallSite>,
    /// Commands in the body that change things (`kubectl apply`, `patronictl
    /// reinit`), found outside reporting keywords.
    pub writes: Vec<String>,
}

/// One keyword call in a task body.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallSite {
    pub name: String,
    pub line: usize,
    /// The arguments as written, each cut to [`CallSite::ARG_MAX`] characters and at
    /// most [`CallSite::ARGS_MAX`] of them (a call can carry a whole script).
    pub args: Vec<String>,
    /// Variables the call assigns (`${rsp}=` → `rsp`): where later calls read its
    /// result from.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assigns: Vec<String>,
}

impl CallSite {
    pub const ARG_MAX: usize = 80;
    pub const ARGS_MAX: usize = 8;

    /// `name=value` arguments' names (Robot's named-argument syntax).
    pub fn named(&self) -> impl Iterator<Item = &str> {
        self.args.iter().filter_map(|a| {
            let (n, _) = a.split_once('=')?;
            (!n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')).then_some(n)
        })
    }

    /// How many arguments are positional.
    pub fn positional(&self) -> usize {
        self.args.len() - self.named().count()
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct KeywordDef {
    pub name: String,
    pub line_start: usize,
    pub line_end: usize,
    pub calls: Vec<String>,
    pub sites: Vec<CallSite>,
}

/// Shared with the API, which shows it.
pub use app::api::catalog::VariableKind as VarKind;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct VarImport {
    pub name: String,
    pub kind: VarKind,
    pub var_type: Option<String>,
    pub description: Option<String>,
    pub pattern: Option<String>,
    pub example: Option<String>,
    pub default: Option<String>,
    pub enum_values: Vec<String>,
    pub optional: bool,
    pub line: usize,
    /// The name is itself a variable (`${secret_name}` from a FOR loop).
    pub dynamic: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ParseWarning {
    pub line: usize,
    pub message: String,
}

/// Robot's name normalisation: case, spaces and underscores do not matter.
pub fn normalize(name: &str) -> String {
    name.chars()
        .filter(|c| !c.is_whitespace() && *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}
