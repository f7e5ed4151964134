//! Query understanding: the question is read once into a [`Query`] that every stage
//! uses — classify, rewrite, plan, search, coverage and the answer writers — instead
//! of each re-tokenising the text its own way.
//!
//! What it finds: the words and their stems, spelling corrections towards the
//! catalog's words, the registry's role words in either vocabulary ("skill template",
//! "monitor"), the mechanism terms the concept lexicon adds, the platform intent,
//! technologies (covered or not), words the catalog never uses, resource kinds,
//! catalog names (bundles, keywords, libraries, collections), an access constraint
//! and the changes the user asks to have performed.

pub mod lexicon;
pub mod phrase;
pub mod platform;
pub mod vocab;

pub use lexicon::{LEXICON, Lexicon, Role, Vocabulary, Words};
pub use platform::{PlatformIntent, PlatformSource, prior as platform_prior};
pub use vocab::{BundleFacts, CorpusVocab, MAJOR_PLATFORMS, NameKind, NameRef, loose_names};

use crate::index::text::is_stopword;
use phrase::Phrase;
use serde::Serialize;
use std::sync::LazyLock;

pub use app::api::catalog::Access;

#[derive(Clone, Debug, Default, Serialize)]
pub struct Query {
    pub text: String,
    /// Lower-case words, spelling-corrected towards the catalog.
    pub words: Vec<String>,
    pub stems: Vec<String>,
    /// (as typed, corrected)
    pub corrections: Vec<(String, String)>,
    /// Content words for keyword search: no stopwords, no role words.
    pub terms: Vec<String>,
    /// Mechanism terms from the concept lexicon ("padlock" → tls certificate).
    pub concepts: Vec<String>,
    pub platforms: PlatformIntent,
    /// Technologies named that the catalog covers / does not cover.
    pub technologies: Vec<String>,
    pub uncovered: Vec<String>,
    /// Covered technologies named as part of an uncovered product: "redis" in
    /// "memorystore redis" is a managed service the catalog does not check.
    pub qualified: Vec<String>,
    /// Name-like words (not common English) the catalog never uses.
    pub unknown: Vec<String>,
    pub resource_kinds: Vec<String>,
    pub names: Vec<NameRef>,
    /// A bundle's own settings the question writes as the catalog does
    /// ("SQS_QUEUE_URLS", not "sqs_queue_urls" or "sqs queue urls"): see
    /// `CorpusVocab::settings`.
    pub settings: Vec<String>,
    pub access: Option<Access>,
    /// Changes the user asks to have done ("restore", "scale"), by action name.
    pub actions: Vec<String>,
    pub roles: Vec<Role>,
}

/// How settings are written: words joined by underscores ("VERCEL_PROJECT_ID"),
/// compared with the catalog's as typed: in lower case the same text is as often
/// an identifier of some other code ("region_name").
static SETTING_NAME: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(r"\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b").expect("valid pattern")
});

/// Words that put a verb in request position: "how do i restore", "please scale".
static REQUEST_LEADS: LazyLock<Vec<Phrase>> = LazyLock::new(|| {
    [
        "how do i",
        "how can i",
        "how to",
        "how would i",
        "can you",
        "could you",
        "please",
        "need to",
        "want to",
        "have to",
        "help me",
        "i need",
        "lets",
        "let s",
        "go",
        "then",
        "and",
    ]
    .iter()
    .map(|p| Phrase::new(p))
    .collect()
});

/// Kubernetes workload kinds (as written or by stem). Workloads are named after
/// what they run, so "the kafka statefulset" is the user's statefulset: a question
/// about it is answered by the bundles for statefulsets, whether or not the catalog
/// knows Kafka. Kinds other platforms share ("job", "workload": a Jenkins or
/// Databricks job) are left out: there the name is the product.
const WORKLOAD_KINDS: &[&str] = &[
    "pod",
    "deploy",
    "deployment",
    "daemonset",
    "statefulset",
    "sts",
    "replicaset",
    "cronjob",
    "container",
    "sidecar",
];

/// Workload kinds other products also have: a Netlify or Vercel deploy, a Docker
/// container. They name a Kubernetes workload only in a question that speaks of
/// Kubernetes otherwise; "netlify deploys fail" asks about Netlify.
const SHARED_KINDS: &[&str] = &["deploy", "deployment", "container"];

/// The workload kind `w` is, as written or by stem.
fn workload_kind(w: &str) -> Option<&'static str> {
    let stem = phrase::stem(w);
    WORKLOAD_KINDS
        .iter()
        .find(|k| **k == w || **k == stem || **k == w.trim_end_matches('s'))
        .copied()
}

/// Whether the question speaks of Kubernetes: it names it or a managed cluster (the
/// platform intent keeps only the last cloud named, so the words count too), or a
/// workload kind only Kubernetes has, a namespace or kubectl.
fn speaks_of_kubernetes(q: &Query) -> bool {
    q.platforms.named().iter().any(|p| p == "kubernetes")
        || q.words.iter().any(|w| {
            workload_kind(w).is_some_and(|k| !SHARED_KINDS.contains(&k))
                || matches!(
                    w.as_str(),
                    "namespace"
                        | "namespaces"
                        | "kubectl"
                        | "kubernetes"
                        | "k8s"
                        | "aks"
                        | "eks"
                        | "gke"
                )
        })
}

/// The words `from..to` are a name given to the user's own resource, not a
/// technology they ask about: "a statefulset named kafka", "the app called
/// vault", "the fluentd daemonset".
fn names_own_resource(words: &[String], from: usize, to: usize, k8s: bool) -> bool {
    (from > 0 && matches!(words[from - 1].as_str(), "named" | "called"))
        || words
            .get(to)
            .and_then(|w| workload_kind(w))
            .is_some_and(|k| k8s || !SHARED_KINDS.contains(&k))
}

/// The word at `at` is what the user moves away from, not what they ask about:
/// "to teams instead of email", "rather than datadog". Such a product names no
/// subject the catalog covers.
///
/// One filler word may come between ("rather than being read-only", "instead of
/// just email").
fn set_aside(words: &[String], at: usize) -> bool {
    let turn = |i: usize| {
        i >= 2
            && matches!(
                (words[i - 2].as_str(), words[i - 1].as_str()),
                ("instead", "of") | ("rather", "than") | ("other", "than")
            )
    };
    turn(at)
        || (at >= 1
            && matches!(
                words[at - 1].as_str(),
                "being" | "be" | "just" | "only" | "plain" | "a" | "an" | "the"
            )
            && turn(at - 1))
}

/// Read-only said in a sentence rather than a phrase: a negated change verb
/// ("never changes anything", "won't modify") or the fewest rights ("minimal
/// permissions", "least privileges").
static READ_ONLY_GRAMMAR: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(
        r"\b(never|not|don'?t|doesn'?t|won'?t|without|no) (\w+ )?(chang|modif|writ|touch|mutat|alter)\w*|\b(minimal|minimum|least|lowest|fewest|limited) (\w+ )?(permissions?|privileges?|rights|access)\b",
    )
    .expect("valid pattern")
});

/// Words that make the name before them a library's.
const LIBRARY_WORDS: &[&str] = &["library", "libraries", "lib", "libs", "keywords"];

/// "in rw-cli": a library's name written with a hyphen is the short name of a
/// collection (`rw-cli-codecollection`), not the library (`RW.CLI`).
fn collection_short_name(q: &Query, name: &NameRef) -> bool {
    if name.kind != NameKind::Library {
        return false;
    }
    let text = q.text.to_lowercase();
    let id = name.id.to_lowercase();
    let hyphened = id.replace('.', "-");
    !text.contains(&id)
        && text.contains(&hyphened)
        && !Phrase::new(&name.id).matches(&phrase::stems(&phrase::words(
            &text.replace(&hyphened, " "),
        )))
}

/// The access level a question asks for. A level it turns away from ("change
/// things rather than being read-only") asks for the other one: there are two.
fn wanted_access(q: &Query, lex: &Lexicon) -> Option<Access> {
    let said = |list: &[Phrase]| -> (bool, bool) {
        let at: Vec<usize> = list.iter().filter_map(|p| p.find(&q.stems)).collect();
        let away = at.iter().filter(|&&i| set_aside(&q.words, i)).count();
        (at.len() > away, away > 0)
    };
    let (read_only, from_read_only) = said(&lex.read_only);
    let (read_write, from_read_write) = said(&lex.read_write);
    if read_only || READ_ONLY_GRAMMAR.is_match(&q.text.to_lowercase()) || from_read_write {
        Some(Access::ReadOnly)
    } else if read_write || from_read_only {
        Some(Access::ReadWrite)
    } else {
        None
    }
}

impl Query {
    /// Reads `text` against the bundled lexicons and the catalog's vocabulary.
    pub fn parse(text: &str, vocab: &CorpusVocab) -> Query {
        Query::parse_with(text, &LEXICON, vocab)
    }

    pub fn parse_with(text: &str, lex: &Lexicon, vocab: &CorpusVocab) -> Query {
        let raw = phrase::words(text);
        let mut q = Query {
            text: text.to_string(),
            ..Default::default()
        };
        let has_vocab = !vocab.words.is_empty();
        for w in &raw {
            let fix = (has_vocab
                && w.len() >= 5
                && w.chars().all(|c| c.is_ascii_alphabetic())
                && !is_stopword(w)
                && !vocab.knows(w)
                && !vocab.is_common(w)
                && !lex.technologies.contains(w))
            .then(|| vocab.correct(w))
            .flatten();
            match fix {
                Some(c) => {
                    q.corrections.push((w.clone(), c.to_string()));
                    q.words.push(c.to_string());
                }
                None => q.words.push(w.clone()),
            }
        }
        q.stems = phrase::stems(&q.words);

        // Role words, longest phrase first; their positions are not content.
        let mut role_pos = vec![false; q.words.len()];
        for r in &lex.roles {
            for p in &r.phrases {
                let mut from = 0;
                while let Some(i) = p.find(&q.stems[from..]).map(|i| i + from) {
                    if role_pos[i..i + p.len()].iter().all(|x| !x) {
                        role_pos[i..i + p.len()].iter_mut().for_each(|x| *x = true);
                        if !q.roles.contains(&r.role) {
                            q.roles.push(r.role);
                        }
                    }
                    from = i + 1;
                }
            }
        }
        let content: Vec<String> = q
            .words
            .iter()
            .zip(&role_pos)
            .filter(|(_, r)| !**r)
            .map(|(w, _)| w.clone())
            .collect();
        q.terms = crate::index::text::query_terms(&content.join(" "));
        q.terms.retain(|t| !vocab.only_by_stem(t));

        for c in &lex.concepts {
            if c.phrases.iter().any(|p| p.matches(&q.stems))
                || names_its_mechanism(c, &q.words, vocab)
            {
                for t in &c.terms {
                    if !q.concepts.contains(t) {
                        q.concepts.push(t.clone());
                    }
                }
            }
        }
        q.platforms = platform::detect(&q.words, &q.stems, lex, vocab);

        // Technologies by the words they span; two-word names first, so that their
        // words are not judged one by one ("relic").
        let mut spans: Vec<(usize, usize, String)> = lex
            .joined_technologies(&q.words)
            .into_iter()
            .map(|(i, name)| (i, i + 2, name))
            .collect();
        let k8s = speaks_of_kubernetes(&q);
        let mut in_name = vec![false; q.words.len()];
        for (from, to, _) in &spans {
            in_name[*from..*to].iter_mut().for_each(|x| *x = true);
        }
        for (i, w) in q.words.iter().enumerate() {
            if in_name[i] {
                continue;
            }
            if lex.technologies.contains(w) {
                spans.push((i, i + 1, w.clone()));
            } else if let Some(a) = vocab.glued_acronym(w) {
                // The user's resource: search for its kind, and it is no unknown name.
                if !q.terms.iter().any(|t| t == a) {
                    q.terms.push(a.to_string());
                }
            } else if has_vocab
                && vocab.common.is_some()
                && w.len() >= 4
                && w.chars().all(|c| c.is_ascii_alphabetic())
                && !is_stopword(w)
                && !vocab.knows(w)
                && !vocab.is_common(w)
                && !q.unknown.contains(w)
                && !names_own_resource(&q.words, i, i + 1, k8s)
                && !set_aside(&q.words, i)
            {
                q.unknown.push(w.clone());
            }
        }
        spans.retain(|(from, to, _)| {
            !names_own_resource(&q.words, *from, *to, k8s) && !set_aside(&q.words, *from)
        });
        spans.sort_by_key(|x| x.0);
        // (where it ends, whether it is a cloud's managed service the catalog lacks)
        let mut before: Option<(usize, bool)> = None;
        for (from, to, name) in &spans {
            let uncovered = has_vocab && !vocab.knows(name);
            q.note_technology(name, uncovered);
            // A cloud's managed service right before a covered product names its
            // hosted variant ("memorystore redis", "aurora postgres"), a different
            // thing to check. A vendor's name is not one ("jfrog artifactory").
            if !uncovered && before == Some((*from, true)) && !q.qualified.contains(name) {
                q.qualified.push(name.clone());
            }
            let managed = uncovered && lex.platform_cues.iter().any(|(p, _)| p.text == *name);
            before = Some((*to, managed));
        }
        for s in &q.stems {
            if vocab.resource_stems.contains(s)
                && !MAJOR_PLATFORMS.contains(&s.as_str())
                && !q.resource_kinds.contains(s)
            {
                q.resource_kinds.push(s.clone());
            }
        }
        for (p, name) in &vocab.names {
            if p.matches(&q.stems) && !q.names.contains(name) && !collection_short_name(&q, name) {
                q.names.push(name.clone());
            }
        }
        for m in SETTING_NAME.find_iter(&q.text) {
            let name = m.as_str();
            if vocab.settings.contains_key(name) && !q.settings.iter().any(|s| s == name) {
                q.settings.push(name.to_string());
            }
        }
        // "the K8sLog library", "the CLI lib's …": a library by its last part.
        for (i, w) in q.words.iter().enumerate() {
            let name = vocab.library_short.get(w).map(|id| NameRef {
                kind: NameKind::Library,
                id: id.clone(),
            });
            if let Some(name) = name
                && q.words
                    .get(i + 1)
                    .is_some_and(|n| LIBRARY_WORDS.contains(&n.as_str()))
                && !q.names.contains(&name)
            {
                q.names.push(name);
            }
        }
        q.access = wanted_access(&q, lex);
        q.actions = requested_actions(&q.words, &q.stems, lex);
        q
    }

    /// Files a technology the question names as covered or not.
    fn note_technology(&mut self, name: &str, uncovered: bool) {
        let list = if uncovered {
            &mut self.uncovered
        } else {
            &mut self.technologies
        };
        if !list.iter().any(|t| t == name) {
            list.push(name.to_string());
        }
    }

    /// Terms for keyword search: content terms, then the concept terms.
    pub fn keyword_terms(&self) -> Vec<String> {
        let mut out = self.terms.clone();
        for t in &self.concepts {
            if !out.contains(t) {
                out.push(t.clone());
            }
        }
        out
    }

    /// The question as typed with its spelling corrections made ("deplyoment" →
    /// "deployment"): the text to embed, since the model reads a misspelt word as
    /// noise where BM25 already searches the corrected one.
    pub fn corrected_text(&self) -> String {
        let mut out = self.text.clone();
        for (from, to) in &self.corrections {
            if let Ok(re) = regex::Regex::new(&format!(r"(?i)\b{}\b", regex::escape(from))) {
                out = re.replace_all(&out, to.as_str()).into_owned();
            }
        }
        out
    }

    /// The text to embed with the concept terms added (None when there are none).
    pub fn expanded_text(&self) -> Option<String> {
        (!self.concepts.is_empty())
            .then(|| format!("{} ({})", self.corrected_text(), self.concepts.join(" ")))
    }

    /// Takes on what `question` says about coverage: the changes it asks for and the
    /// names the catalog lacks. A planned variation (the question as typed, a rewrite)
    /// can drop the very word that shows nothing fits ("purge", "rabbitmq"), and its
    /// results would then be judged on less than the user asked.
    pub fn inherit_evidence(&mut self, question: &Query) {
        for (mine, theirs) in [
            (&mut self.actions, &question.actions),
            (&mut self.uncovered, &question.uncovered),
            (&mut self.qualified, &question.qualified),
            (&mut self.unknown, &question.unknown),
        ] {
            for x in theirs {
                if !mine.contains(x) {
                    mine.push(x.clone());
                }
            }
        }
    }

    /// Does the question name a product the catalog covers, other than a platform
    /// ("istio", "cloudwatch"; not "aws" or "azure")?
    pub fn names_covered_product(&self) -> bool {
        self.technologies.iter().any(|t| {
            !LEXICON.platform_cues.iter().any(|(p, _)| p.text == *t) && !self.qualified.contains(t)
        })
    }

    /// The collections the question names (by full or short name).
    pub fn collections(&self) -> Vec<&str> {
        self.names
            .iter()
            .filter(|n| n.kind == NameKind::Collection)
            .map(|n| n.id.as_str())
            .collect()
    }

    /// Does the question ask about one of the registry's roles (either vocabulary)?
    pub fn mentions(&self, role: Role) -> bool {
        self.roles.contains(&role)
    }
}

/// A question may name a concept by its mechanism instead of describing it:
/// "CrashLoopBackOff" rather than "keeps restarting". A concept's first term is that
/// mechanism; when it is a specialised word (not everyday English) that at most one
/// bundle uses in its names and tasks, the catalog describes it in other words
/// (container restarts), so the question takes the concept's terms as if a phrase
/// had matched. Words the catalog does use by name need no help.
fn names_its_mechanism(c: &lexicon::Concept, words: &[String], vocab: &CorpusVocab) -> bool {
    // The cheap test first: this runs for every concept on every parse.
    c.terms.first().is_some_and(|t| {
        words.iter().any(|w| w == t)
            && vocab.common.is_some()
            && !vocab.is_common(t)
            && vocab.bundles_using(t) <= 1
    })
}

/// "can a runbook …", "will any tool …": whether the registry can make the change
/// is asking for it (a modal, a determiner, then one of the registry's role words
/// in either vocabulary right before the verb).
fn asks_the_registry(i: usize, words: &[String], stems: &[String], lex: &Lexicon) -> bool {
    i >= 3
        && matches!(words[i - 3].as_str(), "can" | "could" | "will" | "would")
        && matches!(
            words[i - 2].as_str(),
            "a" | "an" | "the" | "any" | "some" | "one"
        )
        && lex
            .roles
            .iter()
            .flat_map(|r| &r.phrases)
            .any(|p| p.len() == 1 && p.find(&stems[i - 1..i]) == Some(0))
}

/// Is word `i` where a request's verb goes: the start of the question, after
/// "how do i", "can you", "need to", "i", "we", or "can a runbook"?
fn in_request_position(i: usize, words: &[String], stems: &[String], lex: &Lexicon) -> bool {
    i == 0
        || REQUEST_LEADS
            .iter()
            .any(|l| i >= l.len() && l.find(&stems[i - l.len()..i]) == Some(0))
        || (i >= 1 && matches!(words[i - 1].as_str(), "i" | "we" | "to" | "me"))
        || asks_the_registry(i, words, stems, lex)
}

/// Actions in request position: at the start of the question or a clause, or after
/// "how do i", "can you", "need to" … "pods keep restarting" describes a symptom;
/// "restart the pods" and "how do i restart them" ask for a change.
fn requested_actions(words: &[String], stems: &[String], lex: &Lexicon) -> Vec<String> {
    let mut out = Vec::new();
    for a in &lex.actions {
        for f in &a.forms {
            let mut from = 0;
            while let Some(i) = f.find(&stems[from..]).map(|i| i + from) {
                // Only the base form asks ("restore", not "restored" or "restoring").
                let base = words[i] == f.text.split_whitespace().next().unwrap_or("");
                // "close or ack the alert": a verb offered as the alternative to one
                // in request position is asked for too ("and" is a lead already).
                let lead = in_request_position(i, words, stems, lex)
                    || (i >= 2
                        && words[i - 1] == "or"
                        && in_request_position(i - 2, words, stems, lex));
                if base && lead && !out.contains(&a.name) {
                    out.push(a.name.clone());
                }
                from = i + 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
