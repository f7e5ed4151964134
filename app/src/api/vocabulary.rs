//! Which words the product speaks for the registry's parts: ours (codebundle, task,
//! runbook, SLI) or RunWhen's since 2026 (Skill Template, Tool, Runbook, Monitor).
//! The server's `vocabulary` setting chooses; answers and the UI both read the
//! words from this one table (the server sends the setting in `/health`).
//! Questions are understood in both vocabularies either way.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Vocabulary {
    #[default]
    Codebundle,
    SkillTemplate,
}

/// A part of the registry that has a name in each vocabulary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Codebundle,
    Task,
    Taskset,
    Sli,
    Collection,
}

impl Vocabulary {
    pub fn parse(s: &str) -> Option<Vocabulary> {
        match s.trim().to_lowercase().replace('_', "-").as_str() {
            "codebundle" | "ours" => Some(Vocabulary::Codebundle),
            "skill-template" | "runwhen" => Some(Vocabulary::SkillTemplate),
            _ => None,
        }
    }

    /// The part's name, singular and plural, as prose uses it.
    pub fn words(self, part: Part) -> (&'static str, &'static str) {
        use Part::*;
        match (self, part) {
            (Vocabulary::Codebundle, Codebundle) => ("codebundle", "codebundles"),
            (Vocabulary::Codebundle, Task) => ("task", "tasks"),
            (Vocabulary::Codebundle, Taskset) => ("runbook", "runbooks"),
            (Vocabulary::Codebundle, Sli) => ("SLI", "SLIs"),
            (Vocabulary::Codebundle, Collection) => ("codecollection", "codecollections"),
            (Vocabulary::SkillTemplate, Codebundle) => ("Skill Template", "Skill Templates"),
            (Vocabulary::SkillTemplate, Task) => ("Tool", "Tools"),
            (Vocabulary::SkillTemplate, Taskset) => ("Runbook", "Runbooks"),
            (Vocabulary::SkillTemplate, Sli) => ("Monitor", "Monitors"),
            (Vocabulary::SkillTemplate, Collection) => ("CodeCollection", "CodeCollections"),
        }
    }

    /// The plural as a heading ("Tasks", "Monitors").
    pub fn heading(self, part: Part) -> String {
        title(self.words(part).1)
    }

    /// The name of the request flow, as its button and dialog say it.
    pub fn request_label(self) -> &'static str {
        match self {
            Vocabulary::Codebundle => "Request a CodeBundle",
            Vocabulary::SkillTemplate => "Request a Skill Template",
        }
    }
}

/// The first letter in upper case.
pub fn title(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_vocabularies_name_every_part() {
        let ours = Vocabulary::Codebundle;
        let theirs = Vocabulary::SkillTemplate;
        assert_eq!(ours.heading(Part::Task), "Tasks");
        assert_eq!(theirs.heading(Part::Sli), "Monitors");
        assert_eq!(theirs.request_label(), "Request a Skill Template");
        assert_eq!(
            serde_json::to_string(&theirs).unwrap(),
            "\"skill-template\""
        );
        assert_eq!(Vocabulary::parse("RunWhen"), Some(theirs));
    }
}
