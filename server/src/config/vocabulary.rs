//! Which words the product speaks: a setting (`vocabulary`), so it lives with the
//! configuration; `query::lexicon` holds the words themselves.

use serde::Deserialize;

/// Which words answers and the UI use for the registry's parts: ours (codebundle,
/// task, runbook, SLI) or RunWhen's since 2026 (Skill Template, Tool, Runbook,
/// Monitor). Questions are understood in both either way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Vocabulary {
    #[default]
    Codebundle,
    SkillTemplate,
}

impl Vocabulary {
    pub fn parse(s: &str) -> Option<Vocabulary> {
        match s.trim().to_lowercase().replace('_', "-").as_str() {
            "codebundle" | "ours" => Some(Vocabulary::Codebundle),
            "skill-template" | "runwhen" => Some(Vocabulary::SkillTemplate),
            _ => None,
        }
    }
}
