//! What the indexed catalog itself says, derived at every snapshot load: the words it
//! uses (for typo correction and coverage), which words go with one platform (the
//! registry's own vocabulary: if every bundle that says "nodegroup" is an AWS bundle,
//! a question saying it is about AWS), the names of its bundles, keywords, libraries
//! and collections, its resource kinds and the actions its tasks perform.

use super::phrase::{Phrase, is_inflection, snowball, stem, stems, words};
use std::collections::{HashMap, HashSet};

/// Platforms that contradict one another (a result on one is wrong for a question
/// about another).
pub const MAJOR_PLATFORMS: &[&str] = &["kubernetes", "aws", "azure", "gcp"];

/// The facts of one bundle the vocabulary is built from.
pub struct BundleFacts<'a> {
    pub display_name: &'a str,
    pub slug: &'a str,
    pub platform: &'a str,
    pub tags: &'a [String],
    pub resource_types: &'a [String],
    pub tasks: Vec<&'a str>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum NameKind {
    Bundle,
    Keyword,
    Library,
    Collection,
}

/// A catalog name the question mentions.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct NameRef {
    pub kind: NameKind,
    /// Bundle key, `Library.Keyword`, library or collection name.
    pub id: String,
}

/// Below this many bundles a word says nothing reliable about a platform.
const PLATFORM_MIN_BUNDLES: usize = 3;
/// Share of those bundles that must be on one platform.
const PLATFORM_MIN_SHARE: f32 = 0.9;

#[derive(Default)]
pub struct CorpusVocab {
    /// Every word of the catalog's text, lower-case.
    pub words: HashSet<String>,
    pub stems: HashSet<String>,
    /// Short words bundles are named, tagged or tasked with (three letters or
    /// fewer: acronyms such as "ACM", "EKS"), by their Snowball stem, with how many
    /// bundles use them. Acronyms do not inflect: a longer word reaching one only
    /// through a stemmer ("acme" → "acm") is another word, which keyword search
    /// (Porter-stemmed) would still conflate.
    pub acronyms: HashMap<String, (String, u32)>,
    /// Words sorted for typo correction, with how many bundles use them.
    pub spelling: Vec<(String, u32)>,
    /// stem → the one major platform its bundles are on.
    pub platform_of: HashMap<String, String>,
    pub names: Vec<(Phrase, NameRef)>,
    /// A dotted library's last part, lower-case ("k8slog" → RW.K8sLog): people say
    /// "the K8sLog library". Only parts that are neither everyday English nor a
    /// product ("http", "vault", "prometheus" are not kept), and read only beside
    /// such a word (see `Query::parse`).
    pub library_short: HashMap<String, String>,
    pub resource_stems: HashSet<String>,
    /// Per bundle (snapshot order): stems of its task and SLI names and its display
    /// name: the words for what it does ("Restart Deployment").
    pub bundle_task_stems: Vec<HashSet<String>>,
    /// Per bundle: stems of its display name alone, what it is for ("Helm Update").
    pub bundle_name_stems: Vec<HashSet<String>>,
    /// Per bundle: stems of its display name and slug, for what it is for
    /// (`purposes.toml`). Not for telling products by name: slugs are full of
    /// words like "cmd" and "json" that name no product.
    pub bundle_label_stems: Vec<HashSet<String>>,
    /// Common English words (the embedder's whole-word vocabulary), when known.
    pub common: Option<HashSet<String>>,
    /// Settings (user variables and secrets) written with underscores that at
    /// most `SETTING_MAX_BUNDLES` bundles take, as the catalog writes them →
    /// those bundles' keys.
    /// A question that writes one asks about that bundle's configuration; a
    /// setting many bundles share (`RW_LOOKBACK_WINDOW`) is a convention instead.
    pub settings: HashMap<String, Vec<String>>,
}

/// A setting more bundles take than this is a shared convention, not one
/// bundle's configuration.
const SETTING_MAX_BUNDLES: usize = 3;

/// The words of a resource type identifier that name the kind of resource. A
/// provider-service-kind identifier names it last ("gcp_run_services" is about
/// services, not "run"); a custom resource first ("postgresqls.acid.zalan.do" is
/// about postgresqls, not "do"); a short one ("stateful_set") with all its words.
fn resource_kind_words(r: &str) -> Vec<String> {
    if r.contains('.') {
        return words(r.split('.').next().unwrap_or(""));
    }
    let w = words(r);
    if w.len() >= 3 {
        w.into_iter().last().into_iter().collect()
    } else {
        w
    }
}

/// A slug's leading word that says where the bundle runs, not what it is.
const SLUG_PLATFORMS: &[&str] = &["k8s", "kubernetes", "aws", "azure", "gcp", "gcloud"];
/// A slug's last word that says what kind of bundle it is, not what it is about.
const SLUG_ENDINGS: &[&str] = &["health", "healthcheck", "check", "checks", "status"];

/// How people name a bundle without its platform or its generic ending:
/// "gcp-apigee-proxy-health" is "the apigee proxy bundle", "azure-aks-triage"
/// "the aks triage runbook". Two words at least: one ("redis") names a
/// technology, not a bundle.
pub fn loose_names(slug: &str) -> Vec<String> {
    let mut w: Vec<&str> = slug.split('-').filter(|x| !x.is_empty()).collect();
    let mut out = Vec::new();
    if w.first().is_some_and(|f| SLUG_PLATFORMS.contains(f)) {
        w.remove(0);
        if w.len() >= 2 {
            out.push(w.join(" "));
        }
    }
    if w.last().is_some_and(|l| SLUG_ENDINGS.contains(l)) {
        w.pop();
        if w.len() >= 2 {
            out.push(w.join(" "));
        }
    }
    out
}

impl CorpusVocab {
    /// Sets the catalog's settings from (setting name, bundle key) pairs.
    pub fn set_settings(&mut self, rows: impl IntoIterator<Item = (String, String)>) {
        let mut settings: HashMap<String, Vec<String>> = HashMap::new();
        for (name, key) in rows.into_iter().filter(|(n, _)| n.contains('_')) {
            let keys = settings.entry(name).or_default();
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
        settings.retain(|_, keys| keys.len() <= SETTING_MAX_BUNDLES);
        self.settings = settings;
    }

    pub fn build(
        bundles: &[BundleFacts],
        keywords: &[(&str, &str)],
        collections: &[&str],
        text_words: HashSet<String>,
        common: Option<HashSet<String>>,
    ) -> CorpusVocab {
        let mut v = CorpusVocab {
            common,
            ..Default::default()
        };
        let mut df: HashMap<String, u32> = HashMap::new();
        let mut loose_seen: HashMap<String, Vec<&str>> = HashMap::new();
        let mut by_platform: HashMap<String, HashMap<&str, usize>> = HashMap::new();
        for b in bundles {
            let mut own: Vec<String> = words(b.display_name);
            own.extend(words(b.slug));
            for t in b.tags.iter().chain(b.resource_types) {
                own.extend(words(t));
            }
            let mut task_stems = HashSet::new();
            for t in &b.tasks {
                let w = words(t);
                task_stems.extend(stems(&w));
                own.extend(w);
            }
            for r in b.resource_types {
                v.resource_stems.extend(stems(&resource_kind_words(r)));
            }
            let unique: HashSet<String> = own.into_iter().collect();
            for w in &unique {
                *df.entry(w.clone()).or_default() += 1;
            }
            let unique_stems: HashSet<String> = unique.iter().map(|w| stem(w)).collect();
            for s in unique_stems {
                *by_platform
                    .entry(s)
                    .or_default()
                    .entry(b.platform)
                    .or_default() += 1;
            }
            let name_stems: HashSet<String> = stems(&words(b.display_name)).into_iter().collect();
            task_stems.extend(name_stems.iter().cloned());
            // The slug too: a display name can misspell what its slug says
            // ("Choas Testing" in k8s-chaos-flux).
            let label_stems: HashSet<String> = name_stems
                .iter()
                .cloned()
                .chain(stems(&words(b.slug)))
                .collect();
            v.bundle_task_stems.push(task_stems);
            v.bundle_name_stems.push(name_stems);
            v.bundle_label_stems.push(label_stems);
            for name in [b.display_name, b.slug] {
                let p = Phrase::new(name);
                if p.len() >= 2 {
                    v.names.push((
                        p,
                        NameRef {
                            kind: NameKind::Bundle,
                            id: b.slug.to_string(),
                        },
                    ));
                }
            }
            for loose in loose_names(b.slug) {
                loose_seen.entry(loose).or_default().push(b.slug);
            }
        }
        // A loose name two bundles share names neither.
        for (loose, slugs) in loose_seen {
            if let [slug] = slugs[..] {
                v.names.push((
                    Phrase::new(&loose),
                    NameRef {
                        kind: NameKind::Bundle,
                        id: slug.to_string(),
                    },
                ));
            }
        }
        for (stem, counts) in by_platform {
            let total: usize = counts.values().sum();
            if total < PLATFORM_MIN_BUNDLES {
                continue;
            }
            if let Some((p, n)) = counts.iter().max_by_key(|(_, n)| **n)
                && MAJOR_PLATFORMS.contains(p)
                && *n as f32 >= PLATFORM_MIN_SHARE * total as f32
            {
                v.platform_of.insert(stem, p.to_string());
            }
        }
        let mut libraries: HashSet<&str> = HashSet::new();
        for (library, name) in keywords {
            libraries.insert(library);
            let p = Phrase::new(name);
            // A keyword is named only by a distinctive name: three words or more,
            // or two when one is not everyday English ("Run Cli" yes, "Health
            // Check" no, or every question about health checks would be about it).
            let w = words(name);
            let distinctive = w.len() >= 3
                || (w.len() == 2
                    && v.common
                        .as_ref()
                        .is_some_and(|c| w.iter().any(|x| !c.contains(x))));
            if distinctive {
                v.names.push((
                    p,
                    NameRef {
                        kind: NameKind::Keyword,
                        id: format!("{library}.{name}"),
                    },
                ));
            }
        }
        // Libraries by their dotted names only ("RW.CLI"): a library called "Azure"
        // must not turn every Azure question into a library question.
        for l in libraries.into_iter().filter(|l| l.contains('.')) {
            // Not a part that is also an English word or a product ("the http
            // library", "our vault module" are about other things).
            let short = l.rsplit('.').next().map(str::to_lowercase).filter(|p| {
                !p.contains('_')
                    && !crate::query::LEXICON.technologies.contains(p)
                    && v.common.as_ref().is_some_and(|c| !c.contains(p))
            });
            if let Some(last) = short {
                let e = v.library_short.entry(last).or_insert_with(|| l.to_string());
                if (l.len(), l) < (e.len(), e.as_str()) {
                    *e = l.to_string();
                }
            }
            v.names.push((
                Phrase::new(l),
                NameRef {
                    kind: NameKind::Library,
                    id: l.to_string(),
                },
            ));
        }
        for c in collections {
            v.names.push((
                Phrase::new(c),
                NameRef {
                    kind: NameKind::Collection,
                    id: c.to_string(),
                },
            ));
        }
        for (c, short) in collection_short_names(collections) {
            v.names.push((
                Phrase::new(&short),
                NameRef {
                    kind: NameKind::Collection,
                    id: c.to_string(),
                },
            ));
        }
        v.names.retain(|(p, _)| !p.is_empty());
        for w in text_words {
            df.entry(w).or_insert(0);
        }
        v.acronyms = df
            .iter()
            .filter(|(w, n)| **n > 0 && w.len() <= 3 && w.chars().all(|c| c.is_ascii_alphabetic()))
            .map(|(w, n)| (snowball(w), (w.clone(), *n)))
            .collect();
        v.stems = df.keys().map(|w| stem(w)).collect();
        v.words = df.keys().cloned().collect();
        // Only the words bundles are named and tagged with are corrected towards:
        // cheap enough for every question, and the words that matter for ranking.
        let mut spelling: Vec<(String, u32)> = df.into_iter().filter(|(_, n)| *n > 0).collect();
        spelling.sort();
        v.spelling = spelling;
        v
    }

    /// The acronym a resource name is glued onto, as naming conventions do
    /// ("acrsharedweu", "aksprod01" → "acr", "aks"): a word the catalog does not
    /// know that opens with a three-letter acronym bundles are named or tagged with
    /// and that is no everyday word.
    pub fn glued_acronym(&self, word: &str) -> Option<&str> {
        let head = word.get(..3)?;
        if word.len() < 7 || self.knows(word) || self.is_common(word) {
            return None;
        }
        let (acronym, uses) = self.acronyms.get(&snowball(head))?;
        (acronym == head && *uses >= 2 && !self.is_common(head)).then_some(acronym.as_str())
    }

    /// How many bundles use `word` in their names, tags or task names.
    pub fn bundles_using(&self, word: &str) -> u32 {
        self.spelling
            .binary_search_by(|(w, _)| w.as_str().cmp(word))
            .map_or(0, |i| self.spelling[i].1)
    }

    /// How many bundles have this word (by stem) in their display name.
    pub fn bundles_named_with(&self, word: &str) -> usize {
        let s = stem(word);
        self.bundle_name_stems
            .iter()
            .filter(|n| n.contains(&s))
            .count()
    }

    /// Bundles in the catalog the vocabulary was built from.
    pub fn bundle_count(&self) -> usize {
        self.bundle_task_stems.len()
    }

    /// Does the catalog use this word (or a word with its stem)?
    pub fn knows(&self, word: &str) -> bool {
        self.words.contains(word) || (self.stems.contains(&stem(word)) && !self.only_by_stem(word))
    }

    /// A word that shares its stem with an acronym bundles use more than the word
    /// itself, without being a form of it: "acme" (a company's name in a host
    /// name, and a protocol a README mentions) is not "ACM" (AWS Certificate
    /// Manager), though both stem to "acm" and keyword search would match them;
    /// "apis" and "vms" are forms of "api" and "vm".
    pub fn only_by_stem(&self, word: &str) -> bool {
        let Some((acronym, uses)) = self.acronyms.get(&snowball(word)) else {
            return false;
        };
        word.len() > acronym.len()
            && word.starts_with(acronym.as_str())
            && !is_inflection(&word[acronym.len()..], acronym)
            && *uses > self.bundles_using(word)
    }

    /// An ordinary English word, inflected or not ("nagging", "respawned").
    pub fn is_common(&self, word: &str) -> bool {
        let Some(c) = self.common.as_ref() else {
            return false;
        };
        c.contains(word)
            || c.contains(&stem(word))
            || word
                .strip_suffix("ies")
                .is_some_and(|w| c.contains(&format!("{w}y")))
            || ["ing", "ed", "es", "s", "er"].iter().any(|suffix| {
                word.strip_suffix(suffix).is_some_and(|w| {
                    w.len() >= 3 && (c.contains(w) || c.contains(&format!("{w}e")))
                })
            })
    }

    /// The closest catalog word within a length-dependent edit budget, preferring
    /// words more bundles use.
    pub fn correct(&self, word: &str) -> Option<&str> {
        use crate::index::text::{edit_distance, typo_budget};
        let budget = typo_budget(word.chars().count());
        if budget == 0 {
            return None;
        }
        self.spelling
            .iter()
            .filter(|(w, _)| w.len() >= 4 && !w.chars().all(|c| c.is_ascii_digit()))
            .filter_map(|(w, df)| {
                edit_distance(word, w, budget).map(|d| (d, std::cmp::Reverse(*df), w.as_str()))
            })
            .min()
            .map(|(_, _, w)| w)
    }
}

/// Words that, after a collection's distinctive word, say the word names it:
/// "the cli collection".
/// (Not "repo": "azure repos" is a product, "the workspace repo" the user's own.)
const COLLECTION_WORDS: &[&str] = &["collection", "codecollection"];

/// Collections as people say them: without the words most of the registry's
/// collection names share (`rw-…-codecollection` on the public collections), so
/// "workspace utils" names rw-workspace-utils and "aws c7n" aws-c7n-codecollection.
/// Alone, only forms of two words or more: "cli", "public" or "kube" are everyday
/// words long before they are names. One distinctive word names a collection when
/// a word for a collection follows it ("the cli collection"): without this the
/// catalog answered "count the bundles of the cli collection" with the 19 bundles
/// about a CLI.
fn collection_short_names<'a>(collections: &[&'a str]) -> Vec<(&'a str, String)> {
    let named: Vec<Vec<String>> = collections.iter().map(|c| words(c)).collect();
    let mut uses: HashMap<&str, usize> = HashMap::new();
    for ws in &named {
        for w in ws.iter().collect::<HashSet<_>>() {
            *uses.entry(w.as_str()).or_default() += 1;
        }
    }
    let shared = |w: &str| uses[w] >= 2 && uses[w] * 2 >= collections.len();
    collections
        .iter()
        .zip(&named)
        .filter_map(|(c, ws)| {
            let short: Vec<&str> = ws
                .iter()
                .map(String::as_str)
                .filter(|w| !shared(w))
                .collect();
            if short.len() >= ws.len() {
                return None;
            }
            // A word two collections share ("c7n") names neither: "the aws-c7n
            // collection" must not bring in the azure one. Nor does a platform or
            // product: "the aws collection" may mean all AWS bundles.
            let mut forms: Vec<(&str, String)> = short
                .iter()
                .filter(|w| {
                    uses[**w] == 1
                        && !MAJOR_PLATFORMS.contains(*w)
                        && !crate::query::LEXICON.technologies.contains(**w)
                })
                .flat_map(|w| {
                    COLLECTION_WORDS
                        .iter()
                        .map(move |k| (*c, format!("{w} {k}")))
                })
                .collect();
            if short.len() >= 2 {
                forms.push((*c, short.join(" ")));
            }
            Some(forms)
        })
        .flatten()
        .collect()
}
