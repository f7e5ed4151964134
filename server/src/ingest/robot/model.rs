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
    /// Commands in the body that change things (`kubectl apply`, `patronictl
    /// reinit`), found outside reporting keywords.
    pub writes: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct KeywordDef {
    pub name: String,
    pub line_start: usize,
    pub line_end: usize,
    pub calls: Vec<String>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VarKind {
    #[default]
    User,
    Secret,
    Service,
}

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
