//! The hand-written lexicons: general SRE knowledge kept as data files under
//! `server/lexicon/` (compiled into the binary, so one file still deploys). Each
//! entry is a whole word or phrase (see `phrase`). What the catalog itself says
//! (names, tags, which words go with which platform) is not here: it is derived from
//! the index in `vocab`. A test keeps golden questions out of these files.

use super::phrase::Phrase;
pub use crate::config::Vocabulary;
use app::api::vocabulary::{Part, title};
use serde::Deserialize;
use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

pub const CONCEPTS_TOML: &str = include_str!("../../lexicon/concepts.toml");
pub const PLATFORMS_TOML: &str = include_str!("../../lexicon/platforms.toml");
pub const TECHNOLOGIES_TXT: &str = include_str!("../../lexicon/technologies.txt");
pub const ACTIONS_TOML: &str = include_str!("../../lexicon/actions.toml");
pub const REGISTRY_TERMS_TOML: &str = include_str!("../../lexicon/registry-terms.toml");
pub const CONSTRAINTS_TOML: &str = include_str!("../../lexicon/constraints.toml");
pub const PURPOSES_TOML: &str = include_str!("../../lexicon/purposes.toml");

/// Everyday phrasing → the mechanism words bundles use.
#[derive(Debug)]
pub struct Concept {
    pub phrases: Vec<Phrase>,
    pub terms: Vec<String>,
}

/// A change the user may ask for ("restore", "scale", "rotate").
#[derive(Debug)]
pub struct Action {
    pub name: String,
    pub forms: Vec<Phrase>,
    /// Other words a bundle's name or tasks use for the same change ("Update Helm
    /// Release" performs an upgrade); never read as a request in a question.
    pub performed_by: Vec<String>,
}

/// What the registry calls its parts, in both vocabularies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Codebundle,
    Task,
    Taskset,
    Sli,
    Collection,
}

impl Role {
    fn parse(s: &str) -> Option<Role> {
        Some(match s {
            "codebundle" => Role::Codebundle,
            "task" => Role::Task,
            "taskset" => Role::Taskset,
            "sli" => Role::Sli,
            "collection" => Role::Collection,
            _ => return None,
        })
    }
}

#[derive(Debug)]
pub struct RoleWords {
    pub role: Role,
    pub phrases: Vec<Phrase>,
}

#[derive(Debug)]
pub struct Lexicon {
    pub concepts: Vec<Concept>,
    /// (cue, platform) — general names of the four major platforms' products.
    pub platform_cues: Vec<(Phrase, String)>,
    /// Managed Kubernetes names (AKS, EKS, GKE) → their cloud; they mean both.
    pub managed_kubernetes: HashMap<String, String>,
    /// A cloud vendor's products that are not its cloud ("google chat"): where
    /// one starts, the company name is no platform cue.
    pub vendor_products: Vec<Phrase>,
    /// Company names that are cues only as written ("google", not "googled").
    pub companies: HashSet<String>,
    pub technologies: HashSet<String>,
    pub actions: Vec<Action>,
    pub roles: Vec<RoleWords>,
    pub read_only: Vec<Phrase>,
    pub read_write: Vec<Phrase>,
    /// What a bundle can be for, besides fixing what the question describes
    /// (`purposes.toml`): cost, fault injection.
    pub purposes: Vec<BundlePurpose>,
}

/// A purpose a bundle can be named for, and how a question asks about it; both
/// as stems.
#[derive(Debug, Default)]
pub struct BundlePurpose {
    /// The table's name ("cost"), which names the signal of a result held back.
    pub name: String,
    pub bundle: HashSet<String>,
    pub question: HashSet<String>,
}

impl BundlePurpose {
    /// Whether a bundle whose name (display name and slug) has these stems is for
    /// this purpose.
    pub fn names(&self, name_stems: &HashSet<String>) -> bool {
        name_stems.iter().any(|s| self.bundle.contains(s))
    }

    /// Whether a question with these stems asks about it.
    pub fn asked(&self, question_stems: &[String]) -> bool {
        question_stems.iter().any(|s| self.question.contains(s))
    }
}

#[derive(Deserialize)]
struct ConceptsFile {
    concept: Vec<ConceptRow>,
}
#[derive(Deserialize)]
struct ConceptRow {
    phrases: Vec<String>,
    terms: String,
}
#[derive(Deserialize)]
struct PlatformsFile {
    platform: Vec<PlatformRow>,
    #[serde(default)]
    managed_kubernetes: HashMap<String, String>,
    #[serde(default)]
    vendor_products: VendorProducts,
}
#[derive(Deserialize, Default)]
struct VendorProducts {
    companies: Vec<String>,
    phrases: Vec<String>,
}
#[derive(Deserialize)]
struct PlatformRow {
    name: String,
    cues: Vec<String>,
}
#[derive(Deserialize)]
struct ActionsFile {
    action: Vec<ActionRow>,
}
#[derive(Deserialize)]
struct ActionRow {
    name: String,
    forms: Vec<String>,
    #[serde(default)]
    performed_by: Vec<String>,
}
#[derive(Deserialize)]
struct TermsFile {
    role: Vec<RoleRow>,
}
#[derive(Deserialize)]
struct RoleRow {
    name: String,
    #[serde(default)]
    ours: Vec<String>,
    #[serde(default)]
    theirs: Vec<String>,
}
/// Purposes by name (a `BTreeMap`: sorted by name).
type PurposesFile = std::collections::BTreeMap<String, PurposeRow>;
#[derive(Deserialize)]
struct PurposeRow {
    bundle: Vec<String>,
    question: Vec<String>,
}
#[derive(Deserialize)]
struct ConstraintsFile {
    read_only: Vec<String>,
    read_write: Vec<String>,
}

fn phrases(list: &[String]) -> Vec<Phrase> {
    list.iter()
        .map(|p| Phrase::new(p))
        .filter(|p| !p.is_empty())
        .collect()
}

impl Lexicon {
    pub fn parse() -> Result<Lexicon, String> {
        let concepts: ConceptsFile =
            toml::from_str(CONCEPTS_TOML).map_err(|e| format!("concepts.toml: {e}"))?;
        let platforms: PlatformsFile =
            toml::from_str(PLATFORMS_TOML).map_err(|e| format!("platforms.toml: {e}"))?;
        let actions: ActionsFile =
            toml::from_str(ACTIONS_TOML).map_err(|e| format!("actions.toml: {e}"))?;
        let terms: TermsFile =
            toml::from_str(REGISTRY_TERMS_TOML).map_err(|e| format!("registry-terms.toml: {e}"))?;
        let constraints: ConstraintsFile =
            toml::from_str(CONSTRAINTS_TOML).map_err(|e| format!("constraints.toml: {e}"))?;
        let purposes: PurposesFile =
            toml::from_str(PURPOSES_TOML).map_err(|e| format!("purposes.toml: {e}"))?;
        // Purposes are matched word by word, so an entry must be one word.
        let stemmed = |words: &[String]| -> Result<HashSet<String>, String> {
            words
                .iter()
                .map(|w| match super::phrase::words(w).as_slice() {
                    [one] => Ok(super::phrase::stem(one)),
                    _ => Err(format!("purposes.toml: {w:?} is not one word")),
                })
                .collect()
        };
        let mut roles = Vec::new();
        for r in terms.role {
            let role = Role::parse(&r.name).ok_or_else(|| format!("unknown role {}", r.name))?;
            let mut all = r.ours;
            all.extend(r.theirs);
            roles.push(RoleWords {
                role,
                phrases: phrases(&all),
            });
        }
        // Longest phrases first, so "skill template" wins over "template".
        for r in &mut roles {
            r.phrases.sort_by_key(|p| std::cmp::Reverse(p.len()));
        }
        Ok(Lexicon {
            concepts: concepts
                .concept
                .into_iter()
                .map(|c| Concept {
                    phrases: phrases(&c.phrases),
                    terms: c.terms.split_whitespace().map(str::to_lowercase).collect(),
                })
                .collect(),
            platform_cues: platforms
                .platform
                .iter()
                .flat_map(|p| {
                    p.cues
                        .iter()
                        .map(move |c| (Phrase::new(c), p.name.to_lowercase()))
                })
                .filter(|(p, _)| !p.is_empty())
                .collect(),
            managed_kubernetes: platforms
                .managed_kubernetes
                .into_iter()
                .map(|(k, v)| (k.to_lowercase(), v.to_lowercase()))
                .collect(),
            vendor_products: phrases(&platforms.vendor_products.phrases),
            companies: platforms
                .vendor_products
                .companies
                .iter()
                .map(|c| c.to_lowercase())
                .collect(),
            technologies: TECHNOLOGIES_TXT
                .lines()
                .map(|l| l.split('#').next().unwrap_or("").trim().to_lowercase())
                .filter(|l| !l.is_empty())
                .collect(),
            actions: actions
                .action
                .into_iter()
                .map(|a| Action {
                    name: a.name,
                    forms: phrases(&a.forms),
                    performed_by: a.performed_by,
                })
                .collect(),
            roles,
            read_only: phrases(&constraints.read_only),
            read_write: phrases(&constraints.read_write),
            purposes: purposes
                .into_iter()
                .map(|(name, row)| {
                    Ok(BundlePurpose {
                        bundle: stemmed(&row.bundle)?,
                        question: stemmed(&row.question)?,
                        name,
                    })
                })
                .collect::<Result<_, String>>()?,
        })
    }

    /// Technology names written as two words ("New Relic", "Step Functions",
    /// "Pub/Sub", "Key Vault") that the lexicon lists as one ("newrelic"): the
    /// joined name for each adjacent pair that forms one, by the position of its
    /// first word. A plural or singular second word still meets the name
    /// ("step function", "event hubs"). Used on both sides, the question and the
    /// catalog's text, so a product the catalog spells in two words is covered.
    pub fn joined_technologies(&self, words: &[String]) -> Vec<(usize, String)> {
        let mut out = Vec::new();
        for (i, pair) in words.windows(2).enumerate() {
            // A lone letter is a possessive or an initial ("kafka's"), not half a name.
            if pair.iter().any(|w| w.len() < 2) {
                continue;
            }
            let joined = format!("{}{}", pair[0], pair[1]);
            let forms = [
                Some(joined.clone()),
                Some(format!("{joined}s")),
                joined.strip_suffix('s').map(str::to_string),
            ];
            if let Some(name) = forms
                .into_iter()
                .flatten()
                .find(|f| self.technologies.contains(f))
            {
                out.push((i, name));
            }
        }
        out
    }

    /// Every phrasing the lexicons match (concepts, actions, constraints), for the
    /// provenance test. Product names (platform cues, technologies) and the
    /// registry's own role names are names, not phrasings, and are not included.
    pub fn phrasings(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for c in &self.concepts {
            out.extend(c.phrases.iter().map(|p| p.text.as_str()));
        }
        for a in &self.actions {
            out.extend(a.forms.iter().map(|p| p.text.as_str()));
        }
        out.extend(self.read_only.iter().map(|p| p.text.as_str()));
        out.extend(self.read_write.iter().map(|p| p.text.as_str()));
        out
    }
}

/// The bundled lexicons, parsed once (a unit test proves they parse).
pub static LEXICON: LazyLock<Lexicon> =
    LazyLock::new(|| Lexicon::parse().expect("the bundled lexicons are valid"));

/// The display words of one vocabulary.
#[derive(Clone, Copy, Debug, Default)]
pub struct Words {
    pub vocabulary: Vocabulary,
}

impl Words {
    pub fn new(vocabulary: Vocabulary) -> Words {
        Words { vocabulary }
    }

    fn pair(&self, role: Role) -> (String, String) {
        let part = match role {
            Role::Codebundle => Part::Codebundle,
            Role::Task => Part::Task,
            Role::Taskset => Part::Taskset,
            Role::Sli => Part::Sli,
            Role::Collection => Part::Collection,
        };
        let (one, many) = self.vocabulary.words(part);
        (one.to_string(), many.to_string())
    }

    pub fn singular(&self, role: Role) -> String {
        self.pair(role).0
    }

    pub fn plural(&self, role: Role) -> String {
        self.pair(role).1
    }

    /// Singular for one, plural otherwise.
    pub fn count(&self, role: Role, n: usize) -> String {
        if n == 1 {
            self.singular(role)
        } else {
            self.plural(role)
        }
    }

    pub fn singular_title(&self, role: Role) -> String {
        title(&self.singular(role))
    }

    pub fn plural_title(&self, role: Role) -> String {
        title(&self.plural(role))
    }

    /// Rewrites our words into this vocabulary in prose written with ours (the
    /// offline answers): whole words only, never inside code spans or links.
    pub fn apply(&self, text: &str) -> String {
        if self.vocabulary == Vocabulary::Codebundle {
            return text.to_string();
        }
        let ours = Words::new(Vocabulary::Codebundle);
        let mut pairs: Vec<(String, String)> = Vec::new();
        for role in [
            Role::Codebundle,
            Role::Task,
            Role::Taskset,
            Role::Sli,
            Role::Collection,
        ] {
            let (a1, a2) = ours.pair(role);
            let (b1, b2) = self.pair(role);
            pairs.push((a2.clone(), b2.clone()));
            pairs.push((a1.clone(), b1.clone()));
            pairs.push((title(&a2), title(&b2)));
            pairs.push((title(&a1), title(&b1)));
        }
        let mut out = String::with_capacity(text.len());
        // Outside `code` and (link targets), word by word.
        let mut in_code = false;
        let mut in_target = false;
        let mut word = String::new();
        let flush = |word: &mut String, out: &mut String| {
            if !word.is_empty() {
                let w = pairs
                    .iter()
                    .find(|(a, _)| a == word)
                    .map(|(_, b)| b.clone())
                    .unwrap_or_else(|| word.clone());
                out.push_str(&w);
                word.clear();
            }
        };
        let mut prev = ' ';
        for ch in text.chars() {
            if in_code || in_target {
                out.push(ch);
                if in_code && ch == '`' {
                    in_code = false;
                }
                if in_target && ch == ')' {
                    in_target = false;
                }
                prev = ch;
                continue;
            }
            if ch.is_alphanumeric() || ch == '-' && !word.is_empty() {
                word.push(ch);
            } else {
                flush(&mut word, &mut out);
                if ch == '`' {
                    in_code = true;
                } else if ch == '(' && prev == ']' {
                    in_target = true;
                }
                out.push(ch);
            }
            prev = ch;
        }
        flush(&mut word, &mut out);
        out
    }
}
