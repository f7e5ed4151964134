//! What kind of question this is: meta (about the assistant), catalog (about the
//! registry as a whole: overviews, counts, filtered lists, what changed, where to
//! start), follow-up, keyword-library, documentation or general.
//!
//! Offline: word-boundary rules first (never bare substrings: "they" is not "hey",
//! "podman" is not a pod, "library" alone is not a keyword question), then a vote
//! of the labelled example questions nearest by embedding when the rules are
//! silent (`examples`). With an LLM, the LLM decides when the session has history
//! (where follow-ups hide); otherwise the rules stand, saving a round trip.

use crate::index::embed::{Embedder, Purpose};
use crate::memory::SessionContext;
use crate::query::{NameKind, Query, Role};
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::sync::LazyLock;

mod docs_fit;
mod examples;
mod named_bundle;
mod readme;
mod small_talk;
pub use docs_fit::answered_by_docs;
pub use examples::ExampleIndex;
pub use readme::answered_by_readme;
pub use small_talk::small_talk;

pub use app::api::conversation::Category;

/// A category as a model writes it: any case, `_` for `-`, and the short names
/// ("followup", "keyword", "library", "docs").
pub fn category_named(s: &str) -> Option<Category> {
    Some(match s.trim().to_lowercase().replace('_', "-").as_str() {
        "followup" => Category::FollowUp,
        "keyword" | "library" => Category::KeywordLibrary,
        "docs" => Category::Documentation,
        other => return Category::parse(other),
    })
}

/// What decided a question's category.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClassifyMethod {
    /// The phrase rules.
    #[default]
    Rules,
    /// The vote of the nearest example questions.
    Examples,
    /// The model.
    Llm,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Classification {
    pub category: Category,
    pub method: ClassifyMethod,
    pub reason: String,
}

fn re(p: &str) -> Regex {
    Regex::new(p).expect("valid pattern")
}

static GREETING: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^\s*(hi|hello|hey|hey there|hi there|hello there|yo|howdy|good (morning|afternoon|evening)|thanks|thank you|thx|ty|cheers|thanks a lot|thank you so much|ok thanks|great thanks)(,? (that|this) (helped|helps)( a lot)?)?[\s!.?]*$|^\W*((ok(ay)?|great|perfect|awesome|nice|cool)[,!. ]+)?(thanks|thank you|thx|ty|cheers)[,!. ]+(that|this|it) ?(did it|did the trick|worked|fixed it|sorted it|(is|was|'s) (exactly |just )?what (i|we) (needed|wanted|was looking for|were looking for))([,!. ]+(thanks|thank you|thx|ty|cheers))*[\s!.]*$",
    )
});
/// A bare acknowledgement ("ok", "got it", "haha nice"): nothing to search for.
static ACKNOWLEDGEMENT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^\W*((ok(ay)?|k|kk|cool|nice|great|neat|sweet|awesome|perfect|alright|all right|got it|gotcha|understood|makes sense|i see|sure|right|lol|lmao|haha+|heh|wow|interesting|fair enough|noted)[\s,!.]*)+$",
    )
});
/// Ending the conversation ("ok thanks, that's it for today", "we're done, bye"):
/// the whole message is a closing, so there is nothing to search for. Not a
/// question: "that's it?" after a list of results asks for more.
static CLOSING: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^\W*((ok(ay)?|great|cool|perfect|awesome|nice|got it|alright|all right)[,!. ]+)?((thanks|thank you|thx|ty|cheers)( (a lot|so much|again))?[,!. ]*)?((that'?s|that is|that'?ll be|that will be) (all|it|everything)( (i|we) (needed|wanted|need|want|was after|were after))?( for (now|today|me))?|(i'?m|we'?re|i am|we are) (done|good|all set)( (here|for (now|today)))?|nothing else|(bye|goodbye|bye bye|see (you|ya)( later)?|later|cya))([,!. ]+(thanks|thank you|thx|ty|cheers|bye|goodbye|bye bye|see (you|ya)( later)?|later|cya))*[\s!.]*$",
    )
});
/// Whether a message only acknowledges (the meta answer asks what is next).
pub fn is_acknowledgement(text: &str) -> bool {
    ACKNOWLEDGEMENT.is_match(&normalized(text))
}

/// Whether a message asks what the user asked before (the meta answer points at
/// the conversation, which keeps it).
pub fn asks_what_was_asked(text: &str) -> bool {
    let q = normalized(text);
    WHAT_WAS_ASKED.is_match(&GREETING_LEAD.replace(&q, ""))
}

static WHAT_WAS_ASKED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^\W*what (did|was it) (i|we) (just |last |first |earlier )?(ask|asked|say|said|type|typed|write|wrote)( (you|u))?( (about|earlier|before|first))?\s*[?.!]*$",
    )
});

/// Whether a message only ends the conversation (the meta answer says goodbye).
pub fn is_closing(lowercase: &str) -> bool {
    CLOSING.is_match(lowercase)
}

/// How to use the assistant itself. Only at the start of a conversation: after
/// an answer, asking how to use "this" is about the bundle shown.
static HOW_TO_USE_ME: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\bhow (am i|are we) (supposed|meant|expected) to use (this|you)\b|^\W*how (do|should|can) (i|we) use (this|you)( (chat |ai )?(thing|bot|assistant|app|chat|tool))?\s*[?.!]*$",
    )
});
/// Who or what the assistant is, what it can do, how it chooses, how good its
/// answers are and how to report a bad one.
static ABOUT_ME: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(who|what) ((exactly|really|even) )?(are|r) (you|u)\b|\bwhat (can|could) (you|u)( (actually|really|even|possibly|exactly))? (do|help( me| us)? with)\b|\bhow can (you|u) help\b|\bwhat do (you|u) do\b|\bwhat are (you|u) (for|able to do|good at)\b|\byour capabilit(y|ies)\b|\bwhat (kind|sort|kinds|sorts) of (questions|things) can (you|u|i|we|it|this (bot|assistant|tool|thing|chat))\b|\bhow do (you|u) (pick|choose|decide|recommend|rank|work|search|find|know)\b|\bcan (you|u) (see|access|read) (what'?s|what is|anything)( \w+){0,3} (in|on) (my|our) (workspace|clusters?|accounts?|subscriptions?|environments?)\b|\b(are|r) (you|u) (chat ?gpt|gpt|an? (ai|bot|chat ?bot|llm|robot|human|machine|person|real person|real human)|(a )?(real|human|person))\b|\bwho (made|built|created|wrote) (you|u|this)\b|\bwhat('s| is) registry chat\b|^\W*(so,? )?what('s| is) this (thing|tool|bot|assistant|app|chat)( for| about| and what (can|does) it do)?\s*[?.!]*$|^\W*(can|could|do) (you|u) (see|access|read|reach|connect to|log ?in to) (my|our|the) (workspace|clusters?|accounts?|subscriptions?|environments?|infra\w*|systems?)( (in|on|of) (my|our|the) \w+)?\s*[?.!]*$|\bwhat do you know\b|\b(can|could) (you|u) (see|access|read|index|search) (my|our) (private |own |internal )?(codecollections?|collections?|repos|repositories)\b|^\s*help\s*[?!.]*$|\bthat helped\b|\bthanks?\b.*\b(helped|useful)\b|\b(what|which) (sources?|data|information|docs|documents|repos|repositories|knowledge) (do|does|are|did) (you|u)( \w+)? (use|using|draw on|rely on|search|read|learn from|based on)\b|\bdo (you|u) (keep|store|save|log|retain|share) (my|our)\b|\bhow (accurate|reliable|trustworthy|confident|sure|good) (are|is) (you|u|your)\b|\bwhat('s| is) this (bot|assistant|chat|chat ?bot)( (actually|really|even|exactly))? (for|about)\s*[?.!]*$|\b(how|where|can|could) (do |can |should |could )?(i|we) (report|flag|rate|complain about|give feedback on) (an? |the |this |that |your )?((bad|wrong|poor|incorrect|unhelpful|useless|good|great|helpful) )?(answers?|repl(y|ies))\b",
    )
});
static FOLLOW_START: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^\s*(and|also|what about|how about|and what about|and how about|ok(ay)?,? (and|so|but|what|how)|but (what|how)|same\b|now (for|on)|anything (else|similar)|what else|and on|which one|which of (them|those|these))\b",
    )
});
static REFERENCE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(it|its|it's|that one|this one|that bundle|this bundle|those|these|them|the same|the first one|the second one|the last one|the other one|that|this)\b|\bsimilar\b|\binstead\b|\bthe (slis?|tasks?|variables?|secrets?|readme|author)\b|\b(in|on|at|from|over|out) there\b|\w+ there\s*[?.!]*$",
    )
});
static AUTHORING: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\bhow (do|can|should|would) (i|we) (write|create|build|make|add|publish|structure|test|package) (my|our|a|an|the)( own| new| custom)? (keyword|library|codebundle|code bundle|bundle|task|sli|runbook|codecollection)",
    )
});

/// Asking the assistant itself to run something the conversation already named
/// ("could you simply run that for me now?"): it recommends, it does not
/// execute, so the answer is about what it can do. A request that names what to
/// run ("could you run a dns check for prod") is a search. Asking it to open a
/// ticket, with nothing after but "for this", is also about what it can do ("…
/// out of each failing run" asks for the bundle that does).
static RUN_FOR_ME: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^\W*(can|could|will|would) (you|u)( (just|please|actually|simply|also))? (run|execute|trigger|launch|kick off|start) (it|this|that|them|these|those|the (check|checks|bundle|bundles|codebundle|runbook|runbooks|task|tasks|sli|tool|tools|skill template|fix))\b|^\W*(can|could|will|would) (you|u)( (just|please|also))? (open|file|create|raise|log|submit|cut) (a|an|the)( [\w-]+){0,2} (ticket|issue|incident|bug|case)( for (this|that|it|me|us))?\s*[?.!]*$",
    )
});

/// Asking for entertainment rather than help ("write me a haiku about etcd"):
/// nothing in a registry answers it, so the answer says what the assistant is for
/// instead of offering the bundles whose words happen to match the topic.
static OFF_TOPIC: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^\W*((please|pls|plz|can|could|would|will) )?((you|u) )?(tell|write|give|make|compose|share|sing|recite)(( me| us)( (an?|some|another|one more|a (short|funny|little)))?|( (an?|some|another|one more|a (short|funny|little)))) (joke|poem|haiku|limerick|story|song|riddle|pun|rap)s?\b|^\W*(what('?s| is)|how('?s| is)) the weather( like)?( (in|at|for|today|tomorrow|tonight|outside|this week)\b[\w ,.'-]{0,30})?\W*$|^\W*(the )?weather (forecast )?(in|for|today|tomorrow)\b[\w ,.'-]{0,30}\W*$|^\W*(what('?s| is)|calculate|compute) \d+(\.\d+)? ?(times|plus|minus|divided by|multiplied by|x|\*|\+|-|/) ?\d+(\.\d+)?\W*$",
    )
});

/// The act is to be done by automation, not now by the assistant ("page the
/// on-call from a task", "… whenever the check fails"): a search for the bundle.
static BY_AUTOMATION: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(from|in|inside|within|via|through|as part of) (a |an |the |my |our )?(task|runbook|bundle|codebundle|sli|robot|tool|skill template|workflow|pipeline|schedule)s?\b|\b(when|whenever|if|automatically|every|each time)\b",
    )
});

/// Asking the assistant to act on the user's systems itself, with the change and
/// its target named ("can you just bounce the api deployment for us", "run the
/// dns check on prod now and tell me what it finds", "page the on-call for
/// billing"): it recommends and never executes, so the answer says so. Only when
/// the message is addressed to the assistant ("for me", "tell me the result", a
/// bare "X now please"): "scale the node pool to 10 nodes" is a search for the
/// bundle that does it.
static ACT_FOR_ME: LazyLock<Regex> = LazyLock::new(|| {
    let verb = r"(restart|rerun|run|execute|trigger|launch|kick off|scale|delete|roll ?back|reboot|kill|deploy|bounce|drain|cordon|rotate|fail ?over|apply|fix|page|ping|notify)";
    let to_me = r"(for (me|us)|and (tell|show|send|give|report)( (me|us))?( \w+){0,3} (result|results|output|outcome|answer|findings)|and (tell|show) (me|us) what (it|they) (finds?|found|says?))";
    let lead = r"(please |pls |just |quickly |go ahead and )?";
    // Aimed at the user's own systems ("against our cluster", "in our
    // workspace", "on prod"), or to be done now: addressed to the assistant.
    let target = r"(against|on|in|inside) (our|my) (cluster|clusters|workspace|account|accounts|subscription|project|namespace|env|environment|prod|production|staging)\b";
    let now = r"(now|right now|immediately|asap)( please| pls)?\W*$";
    // The act is asked of "you", or its verb takes an object ("restart the …"):
    // "deploy keeps failing for us" reports trouble with a deploy.
    re(&format!(
        r"^\W*(can|could|would|will) (you|u) {lead}{verb}\b.*\b{to_me}\b|^\W*{lead}{verb} (the|our|my|this|that|these|those|it|them|all)\b.*\b{to_me}\b|^\W*(can|could|would|will) (you|u) {lead}{verb}\b.*\b{target}|^\W*{lead}{verb} (the|our|my|this|that)\b.{{0,60}}\b{now}|^\W*(please|pls) {verb} (the|our|my|this|that)\b.*\b{target}|^\W*(please )?page (whoever|the on.?call|someone|somebody|an? on.?call)\b|^\W*(please )?(restart|reboot|bounce|kill|delete|roll ?back|redeploy) (the |our |my )?[\w.-]+( [\w.-]+)? (now|right now|immediately|asap)( please| pls)?\W*$"
    ))
});

/// Whether the message asks the assistant to act (`ACT_FOR_ME`) rather than
/// reporting trouble that merely happens "for us" ("ping fails for me from the
/// bastion", "page load is slow for us"), or asking for automation that acts.
fn acts_for_me(text: &str) -> bool {
    ACT_FOR_ME.is_match(text)
        && !BY_AUTOMATION.is_match(text)
        && !SYMPTOM.is_match(text)
        && !TROUBLE.is_match(text)
}

/// A meta message that asks for something the assistant does not do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Request {
    /// Run or change something on the user's systems (`RUN_FOR_ME`, `ACT_FOR_ME`):
    /// the answer says it only recommends.
    Act,
    /// Entertainment, the weather, arithmetic (`OFF_TOPIC`).
    OffTopic,
    /// Whether it can see or reach the user's systems (`ACCESS_ASKED`).
    Access,
}

/// Asking whether the assistant can see or reach the user's own systems ("could
/// you read the logs of the prod servers", "will you look at the staging
/// namespaces"): it reads the registry only, and says so. A report of trouble
/// is a search.
static ACCESS_ASKED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^\W*(can|could|do|does|will|would) (you|u)( \w+)? (see|access|reach|read|query|connect to|log ?in ?to|look at|have access to|get into) (my|our|the|their) ([\w-]+ ){0,2}(clusters?|accounts?|clouds?|systems?|infra\w*|environments?|envs?|prod\w*|servers?|logs|subscriptions?|projects?|tenants?|namespaces?|databases?|machines?|nodes?|metrics|dashboards?)\b",
    )
});

/// The message as the rules read it: lower-case, with straight apostrophes
/// (phones and word processors type a curly one: "what’s there for").
fn normalized(text: &str) -> String {
    text.to_lowercase().replace('\u{2019}', "'")
}

/// What a message asks of the assistant that it does not do, read as `by_rules`
/// reads it (normalized, a greeting in front dropped), so the meta answer says
/// what routed it there.
pub fn request_of(text: &str) -> Option<Request> {
    let q = normalized(text);
    request_in(&GREETING_LEAD.replace(&q, ""))
}

/// `request_of` on text already normalized, greeting dropped.
fn request_in(rest: &str) -> Option<Request> {
    if RUN_FOR_ME.is_match(rest) {
        Some(Request::Act)
    } else if OFF_TOPIC.is_match(rest) && !SYMPTOM.is_match(rest) && !TROUBLE.is_match(rest) {
        Some(Request::OffTopic)
    } else if acts_for_me(rest) {
        Some(Request::Act)
    } else if ACCESS_ASKED.is_match(rest)
        && !SYMPTOM.is_match(rest)
        && !TROUBLE.is_match(rest)
        && !MISBEHAVES.is_match(rest)
    {
        Some(Request::Access)
    } else {
        None
    }
}

/// What the assistant remembers and where its knowledge comes from: "you" or
/// "your" with memory verbs or the assistant's own data, not the user's
/// ("do you recall…", "how fresh is your index", "can you also read other repos"),
/// and whether the user's own messages are stored when talking to it or by it
/// ("is our data stored encrypted in s3", "are our messages kept in the dlq after
/// you replay them": the user's systems, a search).
static MEMORY_AND_DATA: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(do|can|will|would|did) (you|u)( \w+)? (remember|recall|forget) (what (i|we)|anything|our (conversation|chat)s?|this (conversation|chat)|(my|our) (earlier |previous |past |last )?questions|me)\b|\byour (knowledge|data|information|info|index|answers|sources|training data)( \w+){0,3} (come from|comes from|built from|based on|updated|refreshed|synced|rebuilt|up to date)\b|\b(how|where|when)( \w+){0,3} (is|are|was|were|does|do) your (knowledge|data|information|info|index|answers|sources)\b|\bhow (up[- ]to[- ]date|current|fresh|recent|old|stale|complete|accurate) (is|are) (what (you|u) know|everything (you|u) know|your (knowledge|data|information|info|index|catalog|answers|sources))\b|\b(can|could|will|would) (you|u)( also| even| ever)? (index|crawl|search|read|include|add|cover) (our|my|other|random|any|private|internal|additional|third[- ]party)( \w+){0,2} (repos|repositories|registries|github)(\s*[?.!]*$|,? (too|as well|also|besides|than|or (only|just)|other than|beyond)\b)|\b(is|are|does|do|will) (my|our) (data|questions|chats?|conversations?|messages|history|prompts?|input)( \w+){0,2} (stored|kept|saved|logged|retained|shared|sent|used)\b(.{0,30}\b(when|while|if) (i|we) (ask|talk to|chat with|write to|type to|use) (you|u|this (chat|bot|assistant)|the (assistant|bot))\b| (by|with) (you|u|this (chat|bot|assistant)|the (assistant|bot))\b)",
    )
});

/// Small talk after a greeting ("hi, new here", "hello, just trying this out",
/// who is writing: "an sre on the platform team"): nothing to search for, so the
/// greeting is answered. Any other word (a technology, a problem, a resource)
/// makes it a question.
const SMALL_TALK: &[&str] = &[
    "a",
    "admin",
    "again",
    "all",
    "am",
    "an",
    "and",
    "are",
    "around",
    "as",
    "assistant",
    "back",
    "bot",
    "chat",
    "checking",
    "curious",
    "day",
    "dev",
    "developer",
    "developers",
    "devops",
    "engineer",
    "engineering",
    "engineers",
    "everyone",
    "exploring",
    "first",
    "folks",
    "for",
    "getting",
    "going",
    "here",
    "hope",
    "how",
    "i",
    "i'm",
    "i've",
    "im",
    "intern",
    "joined",
    "joining",
    "just",
    "last",
    "looking",
    "me",
    "month",
    "my",
    "new",
    "newbie",
    "of",
    "ok",
    "okay",
    "on",
    "onboarding",
    "oncall",
    "ops",
    "our",
    "out",
    "platform",
    "playing",
    "poking",
    "so",
    "sre",
    "sres",
    "started",
    "starting",
    "team",
    "test",
    "testing",
    "the",
    "there",
    "thing",
    "this",
    "time",
    "to",
    "today",
    "try",
    "trying",
    "using",
    "we",
    "we're",
    "week",
    "well",
    "what's",
    "with",
    "you",
];

fn only_small_talk(rest: &str) -> bool {
    let mut words = message_words(rest).peekable();
    words.peek().is_some() && words.all(|w| SMALL_TALK.contains(&w))
}

/// A message's words with their apostrophes ("we're", "i've"), as `SMALL_TALK`
/// lists them.
fn message_words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
}

/// A greeting in front of a real question ("hello! what can you do for us").
static GREETING_LEAD: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^\s*(hi|hello|hey|hey there|hi there|hello there|yo|howdy|good (morning|afternoon|evening))\b[\s!,.]*",
    )
});

/// Questions about the catalog as a whole. General English about registries and
/// listings; the values they filter on (platforms, access, technologies) are read
/// by `query`.
static CATALOG_OVERVIEW: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(break|split)\b.{0,40}\b(collections?|codecollections?|catalog|registry)\b.{0,10}\bdown by\b|\bbreakdown (by|per) (cloud|platform|provider|collection)s?\b|\b(overview|summary|summari[sz]e|tour)\b.*\b(catalog|registry|collections?|codecollections?|everything|all)\b|\b(which|what) (code ?)?collections\b|\bwhich (code ?)?collection (should|would|do|can) (i|we) (browse|use|look at|look in|look into|start with|try)\b|\bwhat('s| is) (in|inside) (the|this|your) (catalog|registry)\b|\bwhat do you (have|cover|know about)\s*[?.!]*$|\b(overview|summary|rundown) of (what|everything) (is |'s |you )?(indexed|available|have|know|cover)\b|\bwhat (areas|topics|domains|technologies|platforms|kinds of (things|problems|systems)) (does|do) (the |this |your )?(registry|catalog|collections?|you) (cover|support|handle)\b",
    )
});
static CATALOG_RECENT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(what'?s|what is|anything|something) new\b|\b(recently|lately) (added|changed|updated|published)\b|\b(added|changed|updated|new|published) (recently|lately|this (week|month|year|quarter|spring|summer|fall|autumn|winter))\b|\b(bundles?|codebundles?|skill templates?|tools|runbooks|monitors)\b.{0,20}\b(added|published) most recently\b|^\W*(show|list|which|what)( me| us)?( are)?( the)? (newest|latest|most recently added|recently added) (\w+ )?(bundles?|codebundles?|skill templates?|tools|runbooks|monitors|additions)\b|\bwhat (has )?(changed|was added|got added)\b|\blatest (additions|changes|updates)\b|^\W*(the )?(newest|latest|most recent) (\w+ )?(bundles|codebundles|skill templates|tools|runbooks|monitors)\b|\b(bundles|codebundles|skill templates|tools|runbooks|monitors) (were |got |have been )?(added|published) (since|in the last|this|last)\b|\banything (new|fresh) (in|since|this|lately|recently)\b|\bwhat('s| has| have)? been (added|changed|updated|published)\b.{0,60}\b(recently|lately|this (week|month|year))\b",
    )
});
static CATALOG_START: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(good|best|top|useful|recommended|popular|essential)( (\d+|few|three|five|ten))? (ones?|bundles?|codebundles?|skill templates?|tools|runbooks|monitors|places?|things|checks) (to|for) (start|begin|try|get started|getting started)|\b(ones?|bundles?|codebundles?|skill templates?|tools) (are|is|would be) (good|best|useful|recommended) (to|for) (start|begin|try|get started)|\bmost (useful|popular|used)\b|\b(new to|getting started with) (the |this )?(catalog|registry|runwhen|codebundles|skill templates)\b|\bi'?m new\b|\b(newcomers?|beginners?)\b.{0,40}\b(bundles|codebundles|tools|runbooks|skill templates|checks)\b|\b(bundles|codebundles|tools|runbooks|skill templates|checks)\b.{0,30}\b(try|use|run) first\b|\bbeginner[- ]friendly\b|^\W*(i'?m |we'?re )?new to (this|it|all this)\b|\bwhere (should|do) (i|we) (start|begin) (with|in) (the |this )?(catalog|registry)\b",
    )
});
static CATALOG_LIST: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(list|show|give|enumerate)( me| us)?( \w+){0,2} everything\b|\beverything (you have |you've got |there is )?(for|on|about)\b|^\W*everything (related to|relating to|regarding|concerning|to do with) ([\w.-]+ ?){1,3}\s*[?.!]*$|\beverything (you have|you've got|there is) in\b|\b(list|show|give|enumerate)( me| us)?\b.*\b(all|every)( the| of the)?(\s+[\w-]+(\s*[/&+,]\s*[\w-]+)*){0,3} (bundles?|codebundles?|skill templates?|tools?|tasks?|monitors?|slis?|runbooks?|checks?|automations?)\b|\b(which|what|any)\b.*\b(all (the |of the )?(bundles|codebundles|skill templates|tools|monitors|slis|runbooks)|every (bundle|codebundle|skill template|tool|monitor|sli|runbook))\b",
    )
});
/// "what cost stuff do you have", "list all the azure things you've got": a vague
/// collective noun asks for the inventory.
static CATALOG_STUFF: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(what|list|show|give|enumerate) (\S+ ){0,4}(stuff|things) (do |that )?(you|u)( ?'ve| have)? (have|offer|cover|got)\b",
    )
});
/// "where should i start?" with nothing else asked (`is_catalog`): the catalog's
/// good places to start. Beside a problem ("pods crashlooping, where do i
/// start?") it asks where to start on the problem: a search.
static START_ASKED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\bwhere (should|do|can|would|could) (i|we) (start|begin)\b|\bwhat should (i|we) (start|begin) with\b|\bhow (should|do) (i|we) get started\b",
    )
});
/// "what do you offer for azure", "any runbooks for databases", "which monitors do
/// you have for kubernetes": asks what the registry holds for a subject. Only when
/// nothing but filters remains (`is_catalog`): "any bundles for pods stuck in
/// pending" or "what do you have for crashlooping pods" ask for a search.
static CATALOG_OFFER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\bwhat (\w+ ){0,3}(do|does) (you|u|the registry|the catalog) (have|offer|cover|got) (for|on|about|in)\b|\bwhat('s| is) available (for|on|in)\b|\b(do|does) (you|u|the registry|the catalog) (have|offer|cover|got) (many|much|any|some|a lot of|lots of) (things|stuff|bundles?|codebundles?|skill templates?|tools|runbooks|monitors|checks)\b|^\W*do we have (any |many |some )?(integrations|templates|skill templates|bundles|codebundles|runbooks|monitors) (for|with|covering)\b|\b(bundles?|codebundles?|skill templates?|tools|runbooks|monitors|slis|checks) (do )?(you|u) (have|offer|got)\b|^\W*(any|are there any|is there any) (bundles?|codebundles?|skill templates?|tools|runbooks|monitors|slis|checks) (for|on|about|covering)\b",
    )
});
/// How much of an area the registry covers ("how well do you cover gcp", "your
/// coverage of kafka", "what is there in the registry for backups", "everything
/// you have that touches redis"): an inventory, not a search. The bare word
/// counts only in a short question (`COVERAGE_WORD`): "backup coverage for our
/// rds instances" is about the user's backups.
static CATALOG_COVERAGE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(your|the (registry|catalog|collections?)'?s?) coverage\b|\bcoverage (of|in|across|from) (the |your |all )?(registry|catalog|collections?|codecollections?|bundles|codebundles|skill templates)\b|\bhow (well|much|good) (do |does )?(you|u|the (registry|catalog|collections?)|it) covers?\b|\bwhat('?s| is) (available|there) (across|in|among) (the |all )?(collections?|codecollections?|registry|catalog)\b|\beverything (you have|you've got|you got|there is)( \w+){0,2} (that |which )?(touch|touches|cover|covers|mention|mentions|involve|involves|relates? to|deals? with|is about)\b|\b(what|which|anything)( \w+){0,3} (covers?|handles?|supports?) ([\w.-]+, ){2,}",
    )
});
/// More ways of asking for a slice of the catalog rather than the one best bundle:
/// "all the backup templates", "every queue-type bundle", counts compared ("more
/// azure runbooks or more aws ones?"), a collection broken down, the same area
/// "across all the clouds", "the full set", the catalog's gaps, how big a
/// collection is, how well an area is covered, good first picks.
static CATALOG_SLICE: LazyLock<Regex> = LazyLock::new(|| {
    let parts = r"(bundles?|codebundles?|templates?|skill templates?|tools|runbooks|monitors|checks|integrations)";
    re(&format!(
        r"\b(more|fewer|less) ([\w-]+ ){{0,2}}{parts}\b.*\b(or|than|vs|versus)\b|\bacross (all |every |each )?(the )?(clouds?|collections?|codecollections?|platforms?|providers?|vendors?)\b|\b(the )?(full|complete|whole|entire) (set|list|inventory)\b|\b(where|what) are the gaps\b|\bareas? of the (catalog|registry|collections?) (are|is) (thin|weak|sparse|missing)\b|\bhow (big|large) is (the |this )?[\w-]+ (collection|codecollection)\b|\bhow (well|much|thoroughly|good) (is|are) ([\w-]+ ){{1,3}}covered\b|\b(good|best|sensible|recommended) (first|starter|starting) (picks?|choices?|{parts})\b|\beverything (we|you|u) (have|'ve got|got)\b|\bwhat('?s| is) out there\b|\b(rundown|overview|summary|tour) (on|of) (each|every|all the) (collection|codecollection)s?\b|\bwhat (sorts?|kinds?|types?) of (things|stuff|bundles|tools|templates|skill templates) (are|is|live) (in|inside)\b|\b(any|anything) (changed|new|added) in (the |this |your )?(catalog|registry|collections?)\b"
    ))
});

/// "all the backup templates", "every queue-type bundle": a slice of the catalog,
/// unless the parts are the user's own ("all our uptime checks went quiet").
static CATALOG_ALL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^\W*(all|every) (the |of the )?([\w/-]+,? ){0,4}(bundles?|codebundles?|templates?|skill templates?|tools|runbooks|monitors|checks|integrations)\b",
    )
});

/// "kafka coverage?", "is spanner covered?": in a question of a few words that
/// names nothing of the user's own.
static COVERAGE_WORD: LazyLock<Regex> = LazyLock::new(|| re(r"\bcoverage\b|\bcovered\s*[?.!]*$"));
/// Coverage of the user's code by tests, not the registry's of a subject.
static TEST_COVERAGE: LazyLock<Regex> =
    LazyLock::new(|| re(r"\b((unit|code|integration|e2e) )?tests? coverage\b|\bcode coverage\b"));

/// Whether the question asks how much the registry covers (`CATALOG_COVERAGE`,
/// `COVERAGE_WORD`), with nothing wrong reported.
fn asks_coverage(text: &str) -> bool {
    let short = text.split_whitespace().count() <= 5 && !OWN.is_match(text);
    (CATALOG_COVERAGE.is_match(text) || (short && COVERAGE_WORD.is_match(text)))
        && !SYMPTOM.is_match(text)
        && !TROUBLE.is_match(text)
        && !TEST_COVERAGE.is_match(text)
}

static CATALOG_COUNT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^\W*how many (are for|target|cover|support|exist for) (aws|azure|gcp|google cloud|kubernetes|k8s|openshift)\b|\bhow many (\w+ ){0,3}(bundles|codebundles|code bundles|skill templates|tools|tasks|monitors|slis|runbooks|checks|collections|codecollections)\b|\bhow much (\w+ ){0,3}(stuff|content|coverage) (is|are|do|does|is there)\b",
    )
});
/// A set of the catalog's parts, asked for any way (`asks_for_parts`): an explicit
/// listing or count ("inventory of …", "total number of runbooks", "breakdown by
/// cloud") with a plural part anywhere, or "which / what / any … <parts> <exist, are
/// for, cover, work with …>" and "what's there for", "got anything for". A part's
/// function ("what bundles check certificates") is not an inventory word: that asks
/// for the best fit, a search.
static PARTS_LISTED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^\W*(list|show|enumerate|give me)\b|\b(inventory|catalogue?|rundown|breakdown|tally|count|number) (of|by|per) (the |all )?([\w/-]+ ){0,2}(bundles|codebundles|code bundles|tools|skill templates|runbooks|monitors|checks|automations|tasksets|slis|ones|stuff|everything)\b|\bhow many\b",
    )
});
static PARTS_ASKED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(which|what|any|got any)\b( [\w/-]+){0,3} (bundles|codebundles|code bundles|tools|skill templates|runbooks|monitors|checks|automations|integrations|tasksets|slis|ones|stuff|things) (are there|exist|are available|(do )?(you|u) (have|got)|cover|covers|support|work with|target|touch|are for|for|about|on|related to)\b|\bwhat('?s| is) (there|available) (for|on|about)\b|\b(got|have) (any|anything)( [\w/-]+){0,2} (for|on|about|stuff)\b|\bdo (you|u) have anything (for|on|about)\b|\bwhat (have|'ve) (you|u) got (for|on|about)\b",
    )
});
static PART_PLURAL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(bundles|codebundles|code bundles|tools|skill templates|runbooks|monitors|checks|automations|integrations|tasksets|slis|ones|stuff|everything)\b",
    )
});
/// What a report of trouble says beside `SYMPTOM`'s words ("alerted overnight",
/// "firing", "the 502s", "CI is red"), and asking for advice rather than parts
/// ("got any ideas why…"): the rules that read a set of parts, recency or the
/// project into a question skip such messages.
static TROUBLE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(alert(ed|ing)|firing|fired|paged|paging|flapping|slow|slowness|latency|pressure|oom\w*|[45]\d\d'?s?|red|hangs?|hanging|hung|times? out|timing out|timed out|throttl\w*|why|ideas?|clue)\b|\bthere for (me|us) to\b",
    )
});
/// A thing running badly rather than wrongly ("the pvc check is slow", "it hangs
/// at the second task"): trouble to solve with it, not a question about how a
/// named bundle is meant to behave. (Not all of `TROUBLE`: "why does the X bundle
/// need …" asks about the bundle.)
static MISBEHAVES: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(slow|slowness|sluggish|hangs?|hanging|hung|times? out|timing out|timed out|throttl\w*|flapping|flaky|crashed|crashes|crashing|crashlooping|refused|refusing|unreachable|unable to)\b|\b(can'?t|cannot|won'?t) (connect|reach|resolve|start|pull|mount|write|read|log ?in|authenticate|talk)\b",
    )
});
/// Where the user's own systems are the scope ("in prod", "to the cluster",
/// "since the deploy"): what changed there is not the catalog's news.
static USER_SCOPE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(in|to|on|from) (prod|production|staging|the cluster|the namespace|the ns|the account|the subscription|the project)\b|\bdeploy(ment|s|ed)?\b",
    )
});
/// The user's own things ("my cluster", "our buckets"): a problem of theirs.
static OWN: LazyLock<Regex> = LazyLock::new(|| re(r"\b(my|our|mine|ours)\b"));
/// One part named ("the redis bundle", "this runbook"): a question about it.
static ONE_PART: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(the|this|that|its|a|an|one) ([\w-]+ ){0,3}(bundle|codebundle|tool|skill template|runbook|monitor|sli)\b",
    )
});
/// Asked for one part ("which bundle …", "is there a runbook that …"): the
/// best fit, a search. Narrower than `ONE_PART`, for the example vote: "a
/// breakdown of bundle counts" is still a listing.
static ONE_PART_ASKED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(which|what|is there an?|any) (bundle|codebundle|tool|skill template|runbook|monitor|task)\b",
    )
});

/// Whether the question asks for a set of the catalog's parts (`PARTS_LISTED`,
/// `PARTS_ASKED`) and says nothing of a problem, a change to make, the user's own
/// systems or one part: at most three words beside its filters, which the catalog
/// answer then matches against the bundles' names, tags and descriptions. The
/// bundles that call a keyword or library it names are that keyword's users: a
/// keyword question.
fn asks_for_parts(q: &Query, text: &str) -> bool {
    let listed = PARTS_LISTED.is_match(text) && PART_PLURAL.is_match(text);
    let names_keyword = q
        .names
        .iter()
        .any(|n| matches!(n.kind, NameKind::Keyword | NameKind::Library));
    (listed || PARTS_ASKED.is_match(text))
        && !names_keyword
        && !problem_or_change(q, text)
        && !ONE_PART.is_match(text)
        && residual_terms(q).len() <= 3
}

/// What no listing of the catalog asks about: a problem, the user's own systems
/// or a change to make. Both ways to a catalog answer (its rules and the example
/// vote) refuse these.
fn problem_or_change(q: &Query, text: &str) -> bool {
    SYMPTOM.is_match(text) || TROUBLE.is_match(text) || OWN.is_match(text) || !q.actions.is_empty()
}

static KIND_CONTRAST: LazyLock<Regex> =
    LazyLock::new(|| re(r"\b(only|just|no|without|but not|lacking)\b"));
static LISTING_CUE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"^\s*(which|what|any|list|show|are there|is there|do you have)\b|\bhow many\b")
});
/// Words a listing question uses beside its filters ("which read-only tools
/// exist for gcp", "any bundles with just a monitor").
const LISTING_FILLER: &[&str] = &[
    "list",
    "show",
    "things",
    "available",
    "exist",
    "exists",
    "cover",
    "covers",
    "support",
    "supports",
    "run",
    "runs",
    "only",
    "never",
    "change",
    "changes",
    "modify",
    "anything",
    "total",
    "permissions",
    "permission",
    "privileges",
    "minimal",
    "access",
    "write",
    "safe",
    "based",
    "many",
    "count",
    "number",
    "currently",
    "registry",
    "catalog",
    "offer",
    "provide",
    "read",
    "readonly",
    "sort",
    "sorts",
    "kind",
    "kinds",
    "type",
    "types",
    // What the user wants kept safe, beside the filters ("nothing that would
    // alter production").
    "mutate",
    "mutates",
    "touch",
    "touches",
    "alter",
    "alters",
    "prod",
    "production",
    "nothing",
    // The link between a filter and the part ("cost related checks"), and chat
    // filler the stopwords lack.
    "related",
    "checks",
    "plz",
];

/// What a catalog question asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CatalogKind {
    Overview,
    Recent,
    Start,
    Count,
    List,
}

pub fn catalog_kind(q: &Query) -> CatalogKind {
    let text = q.text.to_lowercase();
    if CATALOG_RECENT.is_match(&text) {
        CatalogKind::Recent
    } else if CATALOG_START.is_match(&text) || START_ASKED.is_match(&text) {
        CatalogKind::Start
    } else if CATALOG_COUNT.is_match(&text) || text.contains("how many") {
        CatalogKind::Count
    } else if CATALOG_OVERVIEW.is_match(&text) {
        CatalogKind::Overview
    } else {
        CatalogKind::List
    }
}

/// Parts asked for by what they may do ("which runbooks only read", "which
/// bundles change things vs just read"): with an access the question asks for
/// (`Query::access`) and no action or problem, a listing filtered by access.
static PARTS_BY_ACCESS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^\W*(which|what|list|show me|any)( \w+){0,2} (bundles|codebundles|runbooks|tools|skill templates|templates|checks|ones|automations)\b|^\W*(read[- ]?only|read[- ]write|safe|non[- ]mutating|mutating|write) (stuff|things|bundles|tools|runbooks|templates|skill templates|ones|checks)\b",
    )
});

/// The registry's integrations of a kind asked for as a list ("which alerting
/// integrations exist", "messaging integrations: email, sms, push?"): products are
/// often ordinary words ("teams"), so `several_products` misses such lists. After
/// a colon, a list of two or more: "pagerduty integrations: incidents stay open"
/// reports trouble.
static INTEGRATIONS_ASKED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^\W*(what|which|any|list|show( me)?)( [\w/&-]+){0,3} integrations( (are there|exist|do (you|u) (have|support|offer)|are (available|supported)))?\s*[?.!]*$|^\W*([\w/&-]+ ){0,3}integrations\s*:\s*[\w .-]+(,\s*[\w .-]+)+",
    )
});

/// Kinds of integration that are also words for trouble.
static INTEGRATION_KINDS: LazyLock<Regex> =
    LazyLock::new(|| re(r"\b(alerting|alert|paging|incident|on-?call)\b"));

/// Three or more products, covered or not, named in a list, with no change asked
/// for.
fn several_products(q: &Query) -> bool {
    let mut named: Vec<&String> = q.technologies.iter().chain(&q.uncovered).collect();
    named.sort();
    named.dedup();
    named.len() >= 3 && q.actions.is_empty() && q.text.matches(',').count() >= 2
}

/// `opening`: nothing searched yet in the conversation (only greetings or catalog
/// turns). After a search, "where do i start?" asks where to start on it.
fn is_catalog(q: &Query, text: &str, opening: bool) -> Option<&'static str> {
    if CATALOG_OVERVIEW.is_match(text) {
        return Some("asks for an overview of the catalog");
    }
    // "what changed in my cluster", "what's new in the ingress errors": the
    // user's own systems, a problem.
    if CATALOG_RECENT.is_match(text)
        && !OWN.is_match(text)
        && !SYMPTOM.is_match(text)
        && !TROUBLE.is_match(text)
        && !USER_SCOPE.is_match(text)
    {
        return Some("asks what changed in the catalog");
    }
    if CATALOG_START.is_match(text) && !SYMPTOM.is_match(text) && !TROUBLE.is_match(text) {
        return Some("asks where to start in the catalog");
    }
    // "bundles with just a monitor and no runbook": parts by kind.
    if q.mentions(Role::Sli) && q.mentions(Role::Taskset) && KIND_CONTRAST.is_match(text) {
        return Some("asks for bundles by kind");
    }
    if CATALOG_COUNT.is_match(text) {
        return Some("counts bundles");
    }
    if (CATALOG_SLICE.is_match(text) || CATALOG_ALL.is_match(text))
        && !OWN.is_match(text)
        && !SYMPTOM.is_match(text)
        && !TROUBLE.is_match(text)
        && !MISBEHAVES.is_match(text)
        && q.actions.is_empty()
    {
        return Some("asks for a slice of the catalog");
    }
    if asks_coverage(text) {
        return Some("asks how much the registry covers");
    }
    // "notification integrations: slack, teams, discord?": several products at
    // once, nothing wrong with any, nothing to do: what the registry has for them.
    if several_products(q)
        && !SYMPTOM.is_match(text)
        && !TROUBLE.is_match(text)
        && !MISBEHAVES.is_match(text)
    {
        return Some("asks about several products at once");
    }
    // A kind of integration may be a symptom's word ("alerting", "paging"): those
    // words are masked before looking for trouble ("any failing integrations?").
    if INTEGRATIONS_ASKED.is_match(text) {
        let masked = INTEGRATION_KINDS.replace_all(text, "");
        if !OWN.is_match(text)
            && !SYMPTOM.is_match(&masked)
            && !TROUBLE.is_match(&masked)
            && !MISBEHAVES.is_match(&masked)
        {
            return Some("asks which integrations the registry has");
        }
    }
    if PARTS_BY_ACCESS.is_match(text)
        && q.access.is_some()
        && q.actions.is_empty()
        && !SYMPTOM.is_match(text)
        && !TROUBLE.is_match(text)
    {
        return Some("asks for parts by what they may do");
    }
    if CATALOG_LIST.is_match(text) || CATALOG_STUFF.is_match(text) {
        return Some("asks for a list");
    }
    if opening && START_ASKED.is_match(text) && only_who_and_what_they_run(text) {
        return Some("asks where to start in the catalog");
    }
    if CATALOG_OFFER.is_match(text) && residual_beyond_kinds(q).is_empty() {
        return Some("asks what the registry holds for a subject");
    }
    // "what's in workspace utils?", "show me the aws c7n collection": a collection
    // named, and nothing asked about it but what it holds.
    if asks_about_a_collection(q, text) {
        return Some("asks what a collection holds");
    }
    // "which read-only tools exist for gcp": a listing of parts whose only
    // content is filters (platform, access, technology) and no action asked for.
    let filtered =
        !q.platforms.wanted.is_empty() || q.access.is_some() || !q.technologies.is_empty();
    if LISTING_CUE.is_match(text)
        // "list the gcp ones": the parts by a pronoun, with a filter.
        && (about_parts(q) || q.words.iter().any(|w| w == "ones"))
        && filtered
        && q.actions.is_empty()
        && residual_terms(q).is_empty()
    {
        return Some("asks for a filtered list");
    }
    if asks_for_parts(q, text) {
        return Some("asks for a set of the catalog's parts");
    }
    None
}

/// Besides asking where to start, the message says only who is asking and what
/// they run ("just joined the team, we mostly use aks"). Word by word on the text,
/// not on the question's terms: those drop stopwords and platform words, and "prod
/// is down" or "pods in crashloopbackoff" are problems to start on, not the
/// catalog's places to start.
fn only_who_and_what_they_run(text: &str) -> bool {
    const ALLOWED: &[&str] = &[
        "where",
        "should",
        "do",
        "can",
        "could",
        "would",
        "start",
        "begin",
        "with",
        "mostly",
        "mainly",
        "use",
        "using",
        "run",
        "running",
        "we",
        "is",
        "are",
        "in",
        "a",
        "the",
        "k8s",
        "google",
        "cloud",
        "mix",
        "mixed",
        "both",
        "or",
        "we've",
        "you",
        "recommend",
        "hi",
        "hello",
        "hey",
        // Who they are and what they run, in a few more words ("brand new
        // here, our stack is mostly aks").
        "if",
        "our",
        "my",
        "stack",
        "setup",
        "infra",
        "on",
        "brand",
        "new",
        "here",
        "team",
    ];
    let rest = START_ASKED.replace_all(text, " ");
    message_words(&rest).all(|w| {
        ALLOWED.contains(&w)
            || SMALL_TALK.contains(&w)
            || crate::query::MAJOR_PLATFORMS.contains(&w)
            || crate::query::LEXICON.managed_kubernetes.contains_key(w)
    })
}

/// Asks for a collection's contents. Its purpose alone ("what is X for?") is
/// answered by its README: documentation.
static CONTENTS_CUE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\bwhat'?s in\b|\bwhat (is|are) in\b|\bin it\b|\binside\b|\bcontains?\b|\bholds?\b|\bshow\b|\blist\b|\bwhich\b|\boverview\b",
    )
});

fn asks_about_a_collection(q: &Query, text: &str) -> bool {
    use crate::query::phrase::{stem, words};
    let named: Vec<String> = q
        .collections()
        .into_iter()
        .flat_map(words)
        .map(|w| stem(&w))
        .collect();
    !named.is_empty()
        && CONTENTS_CUE.is_match(text)
        && q.actions.is_empty()
        && residual_terms(q)
            .iter()
            .all(|t| named.contains(&stem(t)) || COLLECTION_ASKED.contains(&t.as_str()))
}

/// Words of a question about a collection's contents or purpose.
const COLLECTION_ASKED: &[&str] = &[
    "contain",
    "contains",
    "inside",
    "hold",
    "holds",
    "collection",
];

/// The question's content words that are not filters or listing words.
pub fn residual_terms(q: &Query) -> Vec<String> {
    let filters: Vec<String> = q.technologies.iter().chain(&q.uncovered).cloned().collect();
    q.terms
        .iter()
        .filter(|t| {
            !filters.contains(t)
                && !LISTING_FILLER.contains(&t.as_str())
                && !crate::query::LEXICON
                    .platform_cues
                    .iter()
                    .any(|(p, _)| p.text == **t)
                && !crate::query::LEXICON
                    .managed_kubernetes
                    .contains_key(t.as_str())
                && !t.chars().all(|c| c.is_ascii_digit())
        })
        .cloned()
        .collect()
}

/// `residual_terms` less the kinds of resource: asked what the registry offers,
/// a kind filters as a technology does ("which database checks do you have").
/// Elsewhere a kind stays content: "what bundles check certificates" asks for
/// the best fit, a search.
fn residual_beyond_kinds(q: &Query) -> Vec<String> {
    residual_terms(q)
        .into_iter()
        .filter(|t| !q.resource_kinds.contains(&crate::query::phrase::stem(t)))
        .collect()
}

/// Pronouns that point back (not "this"/"that", which are often determiners).
static PRONOUN: LazyLock<Regex> =
    LazyLock::new(|| re(r"\b(it|its|it's|them|those|these|that one|this one|the same)\b"));

/// A question that opens on a pronoun ("it actually runs in k8s…", "those are
/// on azure…"), or asks about one ("does it require cluster-admin…",
/// "could that be a monitor…"),
/// continues the conversation even when it names a subject too.
static LEADING_REFERENCE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^\s*((does|do|did|is|are|was|were|can|could|will|would|should|has|have) (it|they|those|these|that|this one)|it|its|it's|they|their|those|these|them)\b",
    )
});

/// "is it possible…", "does it make sense to…": an "it" that points at nothing.
static DUMMY_IT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^\s*(is|does|was|would|will|can) it (possible|safe|normal|ok|okay|a good idea|make sense|worth|matter|true|necessary|common|expected|bad|help)\b",
    )
});

static QUANTIFIED_THEM: LazyLock<Regex> = LazyLock::new(|| {
    re(r"\b(some|a few|few|many|most|all|one|two|several|none|each|any) of (them|those|these)\b")
});

/// References that point back whatever the question's length. A quantifier over
/// "them" counts only near the start ("a few of them read from SQS"): later in a
/// sentence it points inside it ("40 cronjobs and some of them fail").
static STRONG_REFERENCE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\binstead\b|\b(that|this|which) one\b|^\s*(\S+\s+){0,3}(some|a few|few|many|most|all|one|two|several|none|each|any) of (them|those|these)\b|\bthe ones\b|\bthose (ones|bundles)\b|\bsame thing\b|\bthe (first|second|third|last|other) one\b|\b(that|this) (cluster|namespace|database|db|instance|server|app|service|bucket|account|project|subscription|deployment|node pool|vm|function|queue|repo|pipeline|workspace|domain|zone|replica)\b",
    )
});
static KEYWORD_WORD: LazyLock<Regex> =
    LazyLock::new(|| re(r"\bkeywords?\b|\brw\.[a-z]\w*|\bpython (library|module|function)\b"));
/// "kw" is chat shorthand for keyword, but not inside a name ("kw-api",
/// "kw.example.com") nor as one ("the kw namespace", "ns kw").
static KW_SHORTHAND: LazyLock<Regex> = LazyLock::new(|| re(r"(^|[^\w./-])kws?([^\w./-]|$)"));
static KW_AS_NAME: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\bkws? (namespace|ns|service|svc|cluster|app|pods?|deployment|database|db|team|env|environment|project|account|bucket|queue|topic)s?\b|\b(namespace|ns|service|svc|cluster|app|project|account) kws?\b",
    )
});
static LIBRARY_CONTEXT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\blibrar(y|ies)\b.*\b(robot|python|keyword|import|call|function|method)\b|\b(robot|python|keyword|import|call)\b.*\blibrar(y|ies)\b|\blibs?\b.*\b(robot|keywords?|rw\.\w+)|\b(robot|keywords?|rw\.\w+).*\blibs?\b",
    )
});
static DOC_QUESTION: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\bhow (do|can|should|would) (i|we|you) (write|create|make|declare|add|define|import|test|structure|name|tag|publish|contribute|mark|set up|document)\b|\bwhat (is|are|does) (a |an |the )?(runbook|sli|slo|slx|codebundle|code bundle|codecollection|code collection|generation rules?|taskset|severity|user variables?|secrets?|access level)s?\b|\bwhat (does|do) .{1,40} mean\b|\b(the|your|in|see|per) docs?\b|\bdocs? (say|says|for|on|about)\b|\bdocumentation\b|\bhow does (discovery|generation|indexing)\b|\b(how|where)\b.{0,60}\breadmes?\b|\bwhat (should|goes|must)\b.{0,40}\breadmes?\b|\breadmes?\b.{0,60}\b(generated|built|laid out|structured|sections?|table|indexed)\b|\bhow (do|can|should) (i|we) run (the |its |their )?(\w+ )?(tests|test suite)\b",
    )
});

/// What a setting defaults to, what a file must contain, which of a bundle's modes
/// to pick, the idea behind a design: a README or doc section answers these, not
/// a bundle run. (Checked on the tuning halves: it fired on documentation
/// questions only.)
static ABOUT_SETTINGS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\bwhat('s| is| are) the defaults? (values? )?(for|of)\b|\bwhat does \S+ default to\b|\bwhich (mode|option|setting|variant|auth method)s? should (i|we) (use|pick|choose|set)\b|\bmodes?,? which (one )?should (i|we) (use|pick|choose)\b|\b(needs?|has) to look like\b|\bwhich fields\b|\bfields? (are|is) (required|mandatory|optional)\b|\b(required|mandatory|optional) fields\b|\b(format|schema|shape) of (the|a|an|my|our|its) (\w+ )?(config|configuration|settings|file|json|yaml|payload|input|issues? file|variables?)\b|\b(idea|philosophy|reasoning|thinking) behind\b",
    )
});

/// What one of the catalog's tools needs or accepts: its variables, secrets,
/// roles, formats, set-up ("environment variables for the redis bundle", "what
/// scopes does the repository check want"): the tool is "the" one of its kind
/// after the attribute. Secrets, roles or settings of the user's own systems
/// ("settings for the jvm garbage collection") name no such tool, and a message
/// that reports a symptom (`SYMPTOM`) is a problem, whatever it names. (On the
/// tuning halves it fired on documentation questions only.)
static ABOUT_A_TOOLS_SETUP: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(env(ironment)?\s*var(iable)?s?|secrets?|api\s+keys?|tokens?|roles?|permissions?|scopes?|config(uration)?|settings?|variables?|inputs?|params|parameters|format|schema|fields?|field order|syntax|quickstart|setup|install(ation)?|guide|guidance|instructions|requirements?|prerequisites?|prereqs?|limitations?)\s+(for|of|in|does|do)\s+(the\s+|running\s+a\s+|writing\s+|using\s+the\s+)([\w./-]+\s+){0,4}(bundles?|codebundles?|checks?|sli|slis|handlers?|runbooks?|skill templates?)\b",
    )
});

/// A probe's check is the user's own configuration, not a tool of the catalog.
static PROBE_CHECK: LazyLock<Regex> =
    LazyLock::new(|| re(r"\b(readiness|liveness|startup)\s+(probes?|checks?)\b"));

/// Words that report something wrong: "the token for the status check expired"
/// is a problem to solve, not a question about what the check needs.
static SYMPTOM: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(expired?|expiring|wrong|broken|break(s|ing)?|fail(s|ed|ing|ure)?|missing|errors?|denied|invalid|rejected|stale|leak(ed|ing)?|down|stuck|not working|doesn'?t work|stopped)\b",
    )
});

/// About the collections as software projects: licence, changelog, releases,
/// contributing, the versions they need, running or trying a bundle on one's own
/// machine, what one of their files is for, and how two kinds of part differ.
/// (Guarded by `SYMPTOM`: "runs fine locally but fails in prod" is a problem.)
static ABOUT_THE_PROJECT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(what|which|under) (kind of |sort of )?licen[cs]e\b|\blicen[cs]ed under\b|\blicen[cs]e (of|for) (the|these|this|those) (repos?|repositories|collections?|codecollections?|bundles?|codebundles?|code)\b|\bcommercially\b|\b(changelog|release notes|code of conduct|contributor guide|semver)\b|\bcontributing (guide|guidelines|to (the|these|this) (repos?|collections?|codecollections?|project))\b|\bhow (do|can) (i|we) contribute\b|\b(release|publish)(s|ed)? (process|cadence)\b|\b(which|what) (python|robot( framework)?|pip|package|library)( / [\w ]+)? versions?\b|\b(run|test|try)( [^\s.,;]+){0,5} (locally|on my (laptop|machine|computer|mac)|in (a |the )?dev ?container)\b|\bwhat('?s| is| are) (the )?[\w.-]+\.(ya?ml|md|robot|json|toml|txt)\b|\b(runbooks?|slis?|tasksets?|codebundles?|bundles?|monitors?|skill templates?) (vs\.?|versus|different from|compared to) (an? |the )?(runbooks?|slis?|tasksets?|codebundles?|bundles?|monitors?|skill templates?)\b",
    )
});

/// "The docs site", "docs deploys": a website the user runs, not documentation.
static DOCS_AS_A_PLACE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"\bdocs? (site|website|portal|app|server|domain|deploys?|deployments?|builds?)\b")
});

/// How things are meant to be done, whatever they name (a library, a keyword): the
/// house rules and the differences between parts are documentation.
static DOC_CONVENTION: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(conventions?|guidelines?|best practices?|style guide|naming rules?)\b|\bdifference between\b|\bwhere (does|do) (the |a |an |this |that |its )?(\w+ )?(variables?|secrets?|severity|values?|settings?|config|templates?|issues?|next steps?)( \w+){0,3} come from\b|\bwhy (do|does|are|is) (the |these |those |all )?(\w+ ){0,2}(libs?|librar(y|ies)|modules?|codebundles?|bundles?|codecollections?|collections?) (have|use|need|ship|come|keep|contain|split|include|repeat)\b",
    )
});

/// Rules only (no model): `None` when they do not decide.
pub fn by_rules(query: &Query, ctx: &SessionContext) -> Option<Classification> {
    let q = normalized(&query.text);
    let words = q.split_whitespace().count();
    let rule = |c: Category, reason: &str| {
        Some(Classification {
            category: c,
            method: ClassifyMethod::Rules,
            reason: reason.into(),
        })
    };
    if GREETING.is_match(&q) {
        return rule(Category::Meta, "greeting or thanks");
    }
    if CLOSING.is_match(&q) {
        return rule(Category::Meta, "ends the conversation");
    }
    if ACKNOWLEDGEMENT.is_match(&q) {
        return rule(Category::Meta, "acknowledges");
    }
    let rest = GREETING_LEAD.replace(&q, "");
    // Only to open a conversation: after an answer, "how is it doing" is about it.
    // "hi, what's new this month" asks what changed in the catalog.
    if ctx.turns.is_empty()
        && rest.len() < q.len()
        && only_small_talk(&rest)
        && !CATALOG_RECENT.is_match(&rest)
    {
        return rule(Category::Meta, "greeting with small talk");
    }
    if ABOUT_ME.is_match(&q)
        || ABOUT_ME.is_match(&rest)
        || MEMORY_AND_DATA.is_match(&q)
        || WHAT_WAS_ASKED.is_match(&rest)
        || (ctx.turns.is_empty() && HOW_TO_USE_ME.is_match(&rest))
    {
        return rule(Category::Meta, "question about the assistant");
    }
    match request_in(&rest) {
        Some(Request::Act) => {
            return rule(
                Category::Meta,
                "asks the assistant to run or change something",
            );
        }
        Some(Request::OffTopic) => return rule(Category::Meta, "asks for something off-topic"),
        Some(Request::Access) => {
            return rule(
                Category::Meta,
                "asks whether the assistant can reach its systems",
            );
        }
        None => {}
    }
    // A reference back ("does it also…") in a short question, or in any question
    // that names no subject of its own.
    // Only a platform the question names counts as its own subject: words the
    // catalog happens to use on one platform ("restarts", "instances") do not.
    let own_subject = !query.platforms.named().is_empty()
        || !query.technologies.is_empty()
        || !query.uncovered.is_empty();
    // "is it possible to…": that "it" refers to nothing; "40 cronjobs and some of
    // them fail": past the start, "them" points inside the sentence.
    let r = DUMMY_IT.replace(&q, "");
    let strong = STRONG_REFERENCE.is_match(&r);
    let r = QUANTIFIED_THEM.replace_all(&r, "");
    if !ctx.turns.is_empty()
        && (FOLLOW_START.is_match(&r)
            || LEADING_REFERENCE.is_match(&r)
            || strong
            || (words <= 12 && REFERENCE.is_match(&r))
            || (!own_subject && PRONOUN.is_match(&r)))
    {
        return rule(Category::FollowUp, "continues the previous turn");
    }
    // Before anything was searched ("hi" → reply → "where should i start?"), the
    // conversation is still at its opening.
    let opening = ctx
        .turns
        .iter()
        .all(|t| matches!(t.category, Category::Meta | Category::Catalog));
    if let Some(reason) = is_catalog(query, &q, opening) {
        return rule(Category::Catalog, reason);
    }
    // Writing your own library is a documentation question, not a keyword lookup.
    if AUTHORING.is_match(&q) {
        return rule(
            Category::Documentation,
            "asks how to write or build something",
        );
    }
    if DOC_CONVENTION.is_match(&q)
        || (AUTHOR_CONTEXT.is_match(&q) && ASKS_WHAT_IS_RIGHT.is_match(&q))
        || (ABOUT_THE_PROJECT.is_match(&q) && !SYMPTOM.is_match(&q) && !TROUBLE.is_match(&q))
    {
        return rule(
            Category::Documentation,
            "asks about conventions or differences",
        );
    }
    let names_keyword = query
        .names
        .iter()
        .any(|n| matches!(n.kind, NameKind::Keyword | NameKind::Library));
    let kw = KW_SHORTHAND.is_match(&q) && !KW_AS_NAME.is_match(&q);
    if KEYWORD_WORD.is_match(&q) || kw || LIBRARY_CONTEXT.is_match(&q) || names_keyword {
        return rule(
            Category::KeywordLibrary,
            "asks about keywords or a keyword library",
        );
    }
    if named_bundle::asks_about_named_bundle(
        query,
        &q,
        SYMPTOM.is_match(&q) || MISBEHAVES.is_match(&q),
    ) {
        return rule(
            Category::Documentation,
            "asks how a bundle it names behaves or what it needs",
        );
    }
    if DOC_QUESTION.is_match(&DOCS_AS_A_PLACE.replace_all(&q, "site")) {
        return rule(
            Category::Documentation,
            "asks how things work or are written",
        );
    }
    if (IN_A_TASK.is_match(&q) && !OTHER_TASKS.is_match(&q))
        || RUN_A_SCRIPT.is_match(&q)
        || (AUTHOR_CONTEXT.is_match(&q) && HOW_OR_WHICH.is_match(&q))
        || HELPER.is_match(&q)
        || robot_code(&q)
        || PART_MECHANICS.is_match(&q)
    {
        return rule(
            Category::KeywordLibrary,
            "asks how to do something from inside a task",
        );
    }
    // "is TAG_FILTER required?": a setting at most three bundles take is asked
    // about in their READMEs (tuning halves: all seven questions writing one
    // were documentation questions), unless something is wrong; how a task
    // reads one is a keyword question, decided above.
    if !query.settings.is_empty() && !SYMPTOM.is_match(&q) && !MISBEHAVES.is_match(&q) {
        return rule(
            Category::Documentation,
            "asks about a setting a bundle takes",
        );
    }
    if ABOUT_SETTINGS.is_match(&q)
        || (ABOUT_A_TOOLS_SETUP.is_match(&q) && !PROBE_CHECK.is_match(&q) && !SYMPTOM.is_match(&q))
    {
        return rule(
            Category::Documentation,
            "asks about defaults, formats, modes, design or what a tool needs",
        );
    }
    None
}

/// "how do i push a metric from an sli", "how do i run my script inside a task":
/// what a task can call is a keyword question.
static IN_A_TASK: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(how (do|can|should|would) (i|we)|is there a way to|what'?s the way to|which call)\b.*\b(from|in|inside|within|into) (a |an |the |my |our )?(robot( framework)?( task| file| suite)?|suite (setup|init\w*)|task|sli|runbook|codebundle|code bundle|bundle|skill template|tool)\b|^\s*(in|from|inside) (a |an |the |my |our )?(\w+ )?(robot( framework)?( task| file)?|suite (setup|init\w*)|task|sli|runbook|codebundle|bundle|skill template|tool)\b,? how (do|can) (i|we)\b",
    )
});

/// Someone writing a bundle rather than running one: "my bundle", "in the suite
/// init", "writing a task", "how do the c7n bundles build…". Asked how,
/// what their bundle can call is a keyword question.
static AUTHOR_CONTEXT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(my|our) (own |new )?(bundle|codebundle|code bundle|suite|robot file|skill template)s?\b|\b(my|our) (custom|generic|first|shell|bash|python|robot|cli) (bundle|codebundle|code bundle|skill template)s?\b|\b(my|our) (script|task|sli|code|robot file) (in|inside|for) (a|an|my|our|the) (\w+ )?(bundle|codebundle|skill template)\b|\bsuite (init\w*|setup|teardown)\b|\b(writing|building|creating) (a|an|my|our|the) (\w+ )?(bundle|codebundle|task|sli|runbook|robot file|skill template)\b|\bhow (do|does) (the )?(\w+ ){0,2}(bundles|codebundles|skill templates)\b|\b(runbook|robot|sli) task\b",
    )
});
/// "what severity should issues use", "what should the folder be called": asked
/// while writing a bundle, the house rules answer it.
static ASKS_WHAT_IS_RIGHT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\bwhat (\w+ ){0,3}(should|must) ((my|our|the|its|their) ([\w']+ ){0,3})?(i|we|it|they|issues?|tasks?|slis?|bundles?|codebundles?|folders?|files?|names?) (use|be|have|get|go|look|contain|follow)\b|\bwhat (json|yaml|format|output|structure|fields?|schema|shape) (\w+ )?(do|should|must) (i|we|it) (write|put|return|output|emit|print|produce)\b",
    )
});
static HOW_OR_WHICH: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\bhow (do|does|can|should|would|to)\b|\bis there (a|an|any)\b|\b(which|what) (keyword|helper|function|call|library)\b",
    )
});

/// Doing something in Robot code ("…into epoch seconds inside robot"): what a
/// task can call. Not Google's "robot identities" (service accounts).
static ROBOT_CODE: LazyLock<Regex> =
    LazyLock::new(|| re(r"\b(from|in|inside|within|into) robot( framework)?\b(\s+(\w+))?"));

/// How a part of a bundle does its work ("how does a task push its score",
/// "how do runbooks read their secrets"), or what one the user writes must do
/// ("my sli has to send a score back"): the keywords it calls.
static PART_MECHANICS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\bhow (do|does) (a |an |the |each |every )?(slis?|tasks?|runbooks?|monitors?|tools?|skill templates?|bundles?|codebundles?) (send|push|report|raise|return|store|read|get|pass|emit|post|fetch|load|call|write)s?\b|\b(my|our) (own |new )?(sli|task|runbook|monitor|tool|skill template|bundle|codebundle) (needs to|has to|should|must|wants to) (send|push|report|raise|return|store|read|get|pass|emit|post|fetch|load|call|write)\b",
    )
});

fn robot_code(q: &str) -> bool {
    ROBOT_CODE.captures_iter(q).any(|c| {
        !c.get(4)
            .is_some_and(|w| w.as_str().starts_with("identit") || w.as_str().starts_with("account"))
    })
}

/// "is there a helper to prune them", "the custodian helper for rendering…".
static HELPER: LazyLock<Regex> = LazyLock::new(|| {
    re(r"\bis there (a|an|any) helpers?\b|\bhelpers? (keywords?|functions?|for|to|that)\b")
});

/// Tasks that are not a bundle's: a task queue, an ECS task definition, a CI runner.
static OTHER_TASKS: LazyLock<Regex> =
    LazyLock::new(|| re(r"\btasks? (queues?|definitions?|runners?|workers?|scheduler)\b"));

/// "how do i run my own bash script": running a script or command is what the
/// CLI library's keywords do, so it is a keyword question, not a bundle search.
static RUN_A_SCRIPT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\bhow (do|can|should|would) (i|we) (run|execute|call|invoke|launch) (a |an |my |our |the |this |that )?(own |custom |local )?(bash |shell |python |powershell |cli )?(script|command|one-liner|shell command|cli command)s?\b",
    )
});

/// A catalog vote is refused only for what no listing asks
/// (`problem_or_change`: "anything for mongodb replication that keeps
/// failing?"), something misbehaving, or one part asked for ("which bundle
/// restarts a deployment"). (Only one part asked for, not any named in the
/// singular: "a breakdown of bundle counts", "bundles that ship an sli" are
/// listings.) An older guard also wanted the parts named and
/// at most one content word; it refused most catalog questions no rule knew
/// ("anything for mongodb?", "what covers load balancers across the clouds":
/// set 21 tuning half, catalog routing 0.594 -> 0.938 without it; general
/// routing on the tuning halves unchanged, held out 0.980 -> 0.969).
fn refuses_a_catalog_vote(q: &Query) -> bool {
    let text = normalized(&q.text);
    problem_or_change(q, &text) || MISBEHAVES.is_match(&text) || ONE_PART_ASKED.is_match(&text)
}

/// The question names the registry's parts: bundles, tasks, task sets, SLIs or
/// collections, in either vocabulary.
fn about_parts(q: &Query) -> bool {
    [
        Role::Codebundle,
        Role::Task,
        Role::Taskset,
        Role::Sli,
        Role::Collection,
    ]
    .iter()
    .any(|r| q.mentions(*r))
}

/// The question's vector for the vote. The search will need it spelling-corrected
/// and with its concept words too: asked with the vote's text they share one
/// forward pass (a small batch costs little more than one text), and the search
/// finds them in the query cache, so a turn waits for one pass before searching
/// instead of two. Offline turn p50 49 → 42 ms, p95 81 → 76 ms on the public
/// collections; the embedding workers then run the texts side by side when
/// nothing else waits (see `index::embed::batcher`).
async fn embed_for_turn(
    query: &Query,
    embedder: &dyn Embedder,
) -> Result<Vec<f32>, crate::index::embed::EmbedError> {
    let mut texts = vec![query.text.clone()];
    let corrected = query.corrected_text();
    if corrected != query.text {
        texts.push(corrected);
    }
    texts.extend(query.expanded_text());
    embedder
        .embed(&texts, Purpose::Query)
        .await?
        .into_iter()
        .next()
        .ok_or_else(|| crate::index::embed::EmbedError::Model("no vector for the question".into()))
}

pub async fn offline(
    query: &Query,
    ctx: &SessionContext,
    examples: Option<&ExampleIndex>,
    embedder: &dyn Embedder,
) -> Classification {
    if let Some(c) = by_rules(query, ctx) {
        return c;
    }
    if let Some(ex) = examples.filter(|e| e.embedder_id() == embedder.id())
        && let Ok(v) = embed_for_turn(query, embedder).await
        && let Some(vote) = ex.vote(&v)
        && (vote.category != Category::Catalog || !refuses_a_catalog_vote(query))
    {
        return Classification {
            category: vote.category,
            method: ClassifyMethod::Examples,
            reason: format!("nearest examples ({:.2})", vote.best),
        };
    }
    // In a conversation, a question no rule placed and no example vote reached
    // goes on from what came before ("a standby lags far behind now", "any quota
    // limits as well?"): the rewrite keeps the subject unless the question names
    // its own. One the examples call an operational problem stays a search.
    if !ctx.turns.is_empty() {
        return Classification {
            category: Category::FollowUp,
            method: ClassifyMethod::Rules,
            reason: "in a conversation".into(),
        };
    }
    Classification {
        category: Category::General,
        method: ClassifyMethod::Rules,
        reason: DEFAULT_REASON.into(),
    }
}

/// Why a question nothing placed is a general one.
const DEFAULT_REASON: &str = "default";

impl Classification {
    /// Whether no rule, vote or model placed the question: general by default.
    pub fn is_default(&self) -> bool {
        self.category == Category::General
            && self.method == ClassifyMethod::Rules
            && self.reason == DEFAULT_REASON
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::PastTurn;

    fn with_history() -> SessionContext {
        SessionContext {
            turns: vec![PastTurn::default()],
            ..Default::default()
        }
    }

    fn vocab() -> crate::query::CorpusVocab {
        let tags = vec!["kubernetes".to_string()];
        let kinds = vec!["pod".to_string(), "database".to_string()];
        let bundles = vec![crate::query::BundleFacts {
            display_name: "Kubernetes Pod Health",
            slug: "k8s-pod-health",
            platform: "kubernetes",
            tags: &tags,
            resource_types: &kinds,
            tasks: vec!["Check Pods"],
        }];
        let mut v = crate::query::CorpusVocab::build(
            &bundles,
            &[("RW.CLI", "Run Bash File")],
            &["kube-ops"],
            Default::default(),
            None,
        );
        let shared = ["kube-ops/a", "kube-ops/b", "kube-ops/c", "kube-ops/d"];
        v.set_settings(
            std::iter::once(("POD_RESTART_LIMIT", "kube-ops/k8s-pod-health"))
                .chain(shared.iter().map(|k| ("SHARED_WINDOW", *k)))
                .map(|(n, k)| (n.to_string(), k.to_string())),
        );
        v
    }

    #[test]
    fn a_setting_one_bundle_takes_is_asked_about_in_its_docs() {
        let none = SessionContext::default();
        for q in [
            "what is POD_RESTART_LIMIT set to by default?",
            "can I leave POD_RESTART_LIMIT empty, and what happens then",
        ] {
            assert_eq!(cat(q, &none), Some(Category::Documentation), "{q}");
        }
        // Something wrong is a problem to search for; reading a setting from a
        // task is a keyword question.
        assert_eq!(
            cat("the pod check fails since we set POD_RESTART_LIMIT", &none),
            None
        );
        assert_eq!(
            cat("how do i read POD_RESTART_LIMIT from inside a task?", &none),
            Some(Category::KeywordLibrary)
        );
        // Written otherwise, or shared by many bundles, it names no bundle's
        // setting.
        for q in [
            "what is pod_restart_limit by default",
            "what is SHARED_WINDOW by default",
        ] {
            assert!(Query::parse(q, &vocab()).settings.is_empty(), "{q}");
        }
    }

    fn cat(q: &str, ctx: &SessionContext) -> Option<Category> {
        by_rules(&Query::parse(q, &vocab()), ctx).map(|c| c.category)
    }

    #[test]
    fn a_question_about_a_bundle_it_names_strongly_is_documentation() {
        let none = SessionContext::default();
        for q in [
            "does k8s-pod-health need cluster-admin?",
            "k8s pod health bundle: which env vars does it read",
            "k8s pod health check - what happens when the namespace is empty?",
            "which secrets does the pod health bundle read?",
        ] {
            assert_eq!(cat(q, &none), Some(Category::Documentation), "{q}");
        }
        // Named in passing, asked for another bundle, or a problem report.
        for q in [
            "pod health in payments looks bad",
            "is there a bundle like k8s-pod-health for azure vms?",
            "k8s-pod-health fails with forbidden errors, what now?",
            "k8s-pod-health check is slow",
        ] {
            assert_ne!(cat(q, &none), Some(Category::Documentation), "{q}");
        }
    }

    #[test]
    fn coverage_questions_are_about_the_catalog() {
        let none = SessionContext::default();
        for q in [
            "kafka coverage?",
            "how well do you cover gcp",
            "everything you have that touches redis",
            "what is there in the catalog for backups",
            "databases: postgres, redis, mysql, mongodb?",
            "which collection should we browse for gcp networking",
            "which alerting integrations exist?",
            "messaging integrations: email, sms, whatsapp?",
            "everything relating to spanner",
        ] {
            assert_eq!(cat(q, &none), Some(Category::Catalog), "{q}");
        }
        for q in [
            "all our uptime checks stopped reporting",
            "our test coverage job times out",
            "is our eks version still supported?",
            "postgres, redis, mysql all down since the upgrade",
            "backup coverage for our rds instances",
            "are our prod namespaces covered?",
            "unit test coverage dropped on main",
            "kafka, redis, postgres: can't connect from the new subnet",
            "redis, kafka, mongodb pods crashlooping",
            "which of our integrations are failing since the upgrade",
            "sso integrations: okta logins fail for half the users",
            "any failing integrations?",
            "pagerduty integrations: incidents stay open since monday",
            "everything to do with auth started failing at 3am",
            "which collection has the most writes in our mongo cluster",
        ] {
            assert_ne!(cat(q, &none), Some(Category::Catalog), "{q}");
        }
    }

    #[test]
    fn asking_the_assistant_to_act_or_to_chat_is_about_the_assistant() {
        let none = SessionContext::default();
        for q in [
            "ok",
            "haha nice",
            "what did i ask earlier?",
            "how do i use this ai tool",
            "could you execute the dns check against our cluster",
            "run the disk check on staging right now",
            "please trigger the backup task in our workspace",
            "can you just bounce the api deployment for us",
            "run the dns check on prod now and tell me what it finds",
            "page the on-call for billing",
            "restart checkout-api now please",
            "what's the weather in oslo",
            "what is 12 times 7",
            "could you file a servicenow incident for this",
            "will u raise a ticket",
        ] {
            assert_eq!(cat(q, &none), Some(Category::Meta), "{q}");
        }
        for q in [
            "page the on-call from my runbook if the probe fails",
            "scale the node pool to 10 nodes",
            "restart pods stuck in crashloop in payments",
            "weather api returns 500 since the deploy",
            "deploy keeps failing for us since monday",
            "page load is slow for us in eu",
            "ping fails for me from the bastion",
            "apply fails for us with 403",
            "weather forecast api returns 500",
            "what's the weather service p99 latency",
            "write story points back to jira",
            "how do you access the kubernetes dashboard?",
            "how would you query prometheus for pod restarts",
            "weather today is returning 503s",
            "could you run a dns check on prod",
            "could u create a gitlab issue out of each failing run",
        ] {
            assert_ne!(cat(q, &none), Some(Category::Meta), "{q}");
            assert_eq!(request_of(q), None, "{q}");
        }
        // The meta answer reads the request as the rules did, greeting and curly
        // apostrophe included.
        assert_eq!(request_of("Hi! Tell me a joke"), Some(Request::OffTopic));
        assert_eq!(
            request_of("will you look at the logs of our staging servers?"),
            Some(Request::Access)
        );
        assert_eq!(request_of("can you see why our nodes are failing"), None);
        assert_eq!(
            request_of("hey, what\u{2019}s the weather in oslo?"),
            Some(Request::OffTopic)
        );
        assert_eq!(
            request_of("hello, could you restart the api deployment for us"),
            Some(Request::Act)
        );
    }

    #[test]
    fn questions_about_settings_formats_and_design_are_documentation() {
        let none = SessionContext::default();
        for q in [
            "what is the default for the cron bundle's timeout, can i change it?",
            "which mode should i use for the loki bundle, proxy or direct?",
            "proxy or direct mode, which should we pick for the loki bundle?",
            "what does the config file need to look like, which fields are required?",
            "whats the idea behind the generic bundles?",
            // What one of the catalog's tools needs or accepts.
            "environment variables for the redis health bundle?",
            "token scopes for the github actions check",
            "which permissions does the storage account sli want",
            "install instructions for the postgres query bundle",
            // The collections as software projects.
            "under what licence are the collections published",
            "is there a changelog for each release",
            "can i try a codebundle in a devcontainer before shipping it",
            "what is generation-rules.yaml for",
            "monitor vs runbook, when do i write which",
        ] {
            assert_eq!(cat(q, &none), Some(Category::Documentation), "{q}");
        }

        // Problems to solve stay searches (a review's examples).
        for q in [
            "pods in payments keep restarting, where do I start?",
            "the default node pool in aks is out of capacity",
            "what's the default node pool doing? nodes are NotReady",
            "pods fall back to default values for memory limits and get OOMKilled",
            "the format of the logs is broken since the fluentd upgrade",
            "the schema of our postgres db drifted after the migration",
            "the shape of our traffic changed after the deploy",
            "which option do we have to drain a stuck node?",
            "disk pressure on our nodes, which one should I use?",
            "secrets in our key vault for the payments app expire next week",
            "the config of our readiness check for the api pods is wrong",
            "roles of the ci service account changed overnight",
            "which bundle checks the permissions of a service account",
            // A review's examples: settings of the user's own systems, symptoms.
            "config of the kube scheduler looks wrong, pods stay pending",
            "permissions for the cloud scheduler are missing",
            "the app works locally but fails in the cluster",
            "ado builds queue for hours, are we out of paid licenses?",
            "what's contributing to the latency on checkout",
            "our build pipeline takes 40 min since tuesday",
            "which postgres version do we need for logical replication",
            "i run the tests locally and they pass but CI is red",
            "settings for the jvm garbage collection are causing long pauses",
            "schema of the orders collection changed and queries fail",
            "config for our route53 health checks is broken",
            "token for the status page check expired",
            "secrets in our vault are expiring which check catches that",
        ] {
            assert_ne!(cat(q, &none), Some(Category::Documentation), "{q}");
        }
    }

    #[test]
    fn a_catalog_vote_is_refused_for_problems_own_systems_and_changes() {
        let refused = |q: &str| refuses_a_catalog_vote(&Query::parse(q, &vocab()));
        for q in [
            "which bundle restarts a deployment?",
            "anything for mongodb replication that keeps failing?",
            "do you have anything for our kafka consumer lag?",
            "tools for key vault secrets that expired",
            "gke bundles for pods stuck pending?",
        ] {
            assert!(refused(q), "{q}");
        }
        for q in [
            "anything for mongodb?",
            "what covers load balancers across the clouds",
            "gke bundles?",
            "which codecollections are indexed",
            "a breakdown of bundle counts by platform",
        ] {
            assert!(!refused(q), "{q}");
        }
    }

    /// What no rule or example places goes on from the conversation when there is
    /// one, and is a plain search when there is none.
    #[tokio::test]
    async fn an_unplaced_question_continues_a_conversation() {
        let q = Query::parse("any quota limits we could run into as well?", &vocab());
        let embedder = crate::index::embed::HashEmbedder;
        let got = offline(&q, &with_history(), None, &embedder).await;
        assert_eq!(got.category, Category::FollowUp);
        let got = offline(&q, &SessionContext::default(), None, &embedder).await;
        assert_eq!(got.category, Category::General);
        // A question the examples call an operational problem stays a search in a
        // conversation: the vote says general, it is not the default.
        let examples = ExampleIndex::build(&embedder).await.unwrap();
        // (Worded near a general example: the test embedder hashes words.)
        let q = Query::parse(
            "pods in the checkout namespace keep restarting again",
            &vocab(),
        );
        let got = offline(&q, &with_history(), Some(&examples), &embedder).await;
        assert_eq!(got.category, Category::General, "{got:?}");
    }

    #[test]
    fn catalog_questions() {
        let none = SessionContext::default();
        for q in [
            "i would like an overview of every collection",
            "which runbooks only read and never modify anything?",
            // A slice of the catalog, asked many ways.
            "all the queue related runbooks",
            "are there more azure runbooks than aws ones",
            "split the generic collection down by platform",
            "storage checks across all the clouds",
            "i want the full list for mongodb",
            "where are the gaps in what you cover",
            "how big is the public collection",
            "how well is gcp covered by now",
            "good starter picks for a gke team",
            "read-only templates for aws",
            "what chat integrations are there",
            "how many codebundles are there for aws?",
            "which read-only skill templates exist for azure",
            "anything new in the registry lately?",
            "what are good bundles to start with",
            "list every monitor for gcp",
            "what has been added to the azure collection recently?",
            "which tools modify stuff rather than being read-only",
            "how much kubernetes coverage is there",
            "what monitoring things do you have for azure",
            "which skill templates would be good to begin with on gcp",
            "new to all this - where would a team start?",
            "are there any monitors for redis?",
            "what does the registry offer on gcp",
            "top three tools to start with for azure",
            "give me a rundown of what is indexed",
            "what sort of bundles do you have for postgres",
            // Where to start, with who is asking and what they run; a listing
            // with a constraint restated; the inventory as "things".
            "just joined the team, we mostly use aks. where should we begin?",
            "where do i start?",
            "which tools are read-only? nothing that touches production please",
            "show me the aws things you've got",
            // Recency, filters split by slashes, elliptical counts, "ones".
            "which tools were published most recently?",
            "show the newest skill templates",
            "give me all the backup / restore related runbooks",
            "how many target gcp?",
            "list the azure ones please",
            "show the aws ones that just read and don't change stuff",
            // A set of parts asked for any way.
            "tally of skill templates per platform",
            "which monitors exist for postgres?",
            "got any gcp stuff",
            "the newest runbooks",
            "runbooks published since last quarter?",
            "beginner friendly tools for aks",
            "what's breakdown by platform look like",
            "what have you got for gcp?",
            "what\u{2019}s there for azure",
            "what database checks do you have",
        ] {
            assert_eq!(cat(q, &none), Some(Category::Catalog), "{q}");
        }
        assert_eq!(
            cat("hi, we're new here, where should we start?", &none),
            Some(Category::Catalog)
        );
        // After an answer, "where do i start?" is about what came before; after
        // a greeting nothing was searched yet.
        assert_ne!(
            cat("where do i start?", &with_history()),
            Some(Category::Catalog)
        );
        let greeted = SessionContext {
            turns: vec![PastTurn {
                category: Category::Meta,
                ..Default::default()
            }],
            ..Default::default()
        };
        assert_eq!(cat("where do i start?", &greeted), Some(Category::Catalog));
        for q in [
            "any bundles for pods stuck in pending in ns web",
            "what do you have for crashlooping pods?",
            "pods crash since we updated the base image last week",
            "checkout api returns 503s, which runbook would you recommend i run first?",
            "summary: deployment has 0 available replicas",
            "our prod database is slow, where should we begin",
            "prod is down, where do i start?",
            "pods in crashloopbackoff, where do i start?",
            "how many pods target the old image?",
            "which ones are failing?",
            "list the pods that restarted most recently",
            "what database errors do you see in the logs",
            // A review's examples: problems worded like listings.
            "show all pods in payments failing liveness checks",
            "give me all the errors from the backup tasks",
            "which deployment was updated most recently? pods started failing after",
            "which configmap changed most recently",
            "the latest checks failed on prod, why",
            "how many target groups have unhealthy hosts?",
            "how many run on spot nodes right now",
            "how many are on the old node pool?",
            // Worded like a request for parts, but a problem, the user's own
            // systems or one part.
            "what changed in our namespace since friday",
            "what's new in the gateway errors",
            "which runbooks restart the api deployment",
            "list the checks failing in the payments namespace",
            "which checks does the redis bundle run",
            "got any idea why the rollout is stuck?",
            "show the bundles calling RW.CLI.Run Bash File",
            // A review's examples.
            "show me monitors that alerted overnight",
            "what's there for me to do about the 502s",
            "got any ideas on why checkout is slow",
            "give me the number of checks that paged last night",
            "what changed in prod since the 14:00 deploy",
            "checkout is throwing 502s, which runbooks should i run first?",
        ] {
            assert_ne!(cat(q, &none), Some(Category::Catalog), "{q}");
        }
        assert_ne!(
            cat("are our messages retained in kafka after a restart?", &none),
            Some(Category::Meta)
        );
        assert_eq!(cat("how many pods are restarting in payments", &none), None);
        // A collection named for its contents is a catalog question; for its
        // purpose alone, its README answers (documentation).
        assert_eq!(cat("what's in kube-ops?", &none), Some(Category::Catalog));
        assert_eq!(
            cat("show me the kube-ops collection", &none),
            Some(Category::Catalog)
        );
        assert_ne!(cat("what is kube-ops for?", &none), Some(Category::Catalog));
        assert_ne!(
            cat("which kube-ops bundle restarts a deployment?", &none),
            Some(Category::Catalog)
        );
        assert_eq!(cat("which bundle checks pod restarts", &none), None);
        assert_eq!(cat("how much memory is the api using", &none), None);
        assert_eq!(
            cat("hello! what can you do for us?", &none),
            Some(Category::Meta)
        );
    }

    #[test]
    fn greetings_and_questions_about_the_assistant() {
        let none = SessionContext::default();
        for q in [
            "what's this assistant for",
            "which sources do you rely on",
            "do you keep my questions somewhere?",
            "how reliable are your answers",
            "who exactly are you",
            "r u a bot",
            "write me a haiku about etcd",
            "could you tell us a funny story about on-call",
            "so what is this bot really about",
            "where can i flag a wrong answer",
            "are my chats logged when i talk to you?",
        ] {
            assert_eq!(cat(q, &none), Some(Category::Meta), "{q}");
        }
        // Memory, the assistant's own data, a greeting with nothing to search.
        for q in [
            "will you still recall this conversation next month?",
            "how stale is your index, when was it rebuilt",
            "how current is everything you know about the collections",
            "can you also crawl other repositories than these",
            "hey! just poking around for the first time",
            "good afternoon, new on the team here",
            "hello, devops engineer here, joined last month",
            "ok cheers, that's everything we wanted",
        ] {
            assert_eq!(cat(q, &none), Some(Category::Meta), "{q}");
        }
        // A greeting in front of a problem, and "your"/"remember" about the user's
        // systems or the catalog, stay questions.
        for q in [
            "hi, the checkout pods are stuck in pending",
            "hello, new deployment fails its readiness probe",
            "hey, is the app up?",
            "hi, how is the web tier doing today",
            "hi, platform team here, our ingress is down",
            "is our data stored encrypted in the s3 bucket",
            "the api gives a wrong response to health probes",
            "are our messages kept in the dlq after you replay them",
            "coredns pods report wrong answers for svc records",
            "what is this app for, it's crashlooping in kube-system",
            "i remember a check for stale dns records, which was it",
            "can you recall which check covers certificate expiry",
            "could you search other collections for a consumer lag check",
            "from your index which bundles clean up old snapshots",
            "the kw-api deployment rolls back on every release",
            "pods in the kw namespace keep getting evicted",
            "kw.prod.example.net answers 502",
            "our python service crashloops since we bumped its libs",
            "tell me which story points the sprint board lost",
            "tell me why the jokes api returns 500",
        ] {
            assert_eq!(cat(q, &none), None, "{q}");
        }
        // After an answer, small talk and "do you remember the …" are about it.
        for q in [
            "hi again, how is it now",
            "do you remember the vault bundle, does it have slis",
        ] {
            assert_ne!(cat(q, &with_history()), Some(Category::Meta), "{q}");
        }
        // A greeting before "what's new" asks about the catalog.
        for q in ["hi, what's new this week", "hello, anything new lately?"] {
            assert_eq!(cat(q, &none), Some(Category::Catalog), "{q}");
        }
        assert_eq!(cat("hey there", &none), Some(Category::Meta));
        assert_eq!(
            cat("thanks, that helped a lot", &none),
            Some(Category::Meta)
        );
        // Thanks for something that worked, however it is put.
        for q in [
            "ty, that worked!",
            "thanks that fixed it",
            "cheers, that did the trick, thx",
            "thank you, this is just what we were looking for",
        ] {
            assert_eq!(cat(q, &none), Some(Category::Meta), "{q}");
        }
        // Not thanks: a question after it, or whether something works.
        for q in [
            "thanks, that worked for staging - what about prod?",
            "thanks, that works?",
        ] {
            assert_ne!(cat(q, &none), Some(Category::Meta), "{q}");
        }
        assert_eq!(cat("who built this thing", &none), Some(Category::Meta));
        assert_eq!(
            cat("how do you know what fits my problem?", &none),
            Some(Category::Meta)
        );
        assert_eq!(
            cat("can you see what is running in our clusters?", &none),
            Some(Category::Meta)
        );
        assert_eq!(
            cat("could you index our internal repos as well", &none),
            Some(Category::Meta)
        );
        assert_eq!(
            cat("how do you choose what to recommend?", &none),
            Some(Category::Meta)
        );
        assert_eq!(cat("yo what is this thing?", &none), Some(Category::Meta));
        assert_eq!(cat("hey 👋 what is this tool", &none), Some(Category::Meta));
        assert_eq!(
            cat("can you see the clusters in my workspace?", &none),
            Some(Category::Meta)
        );
        assert_eq!(
            cat("so what could u really do", &none),
            Some(Category::Meta)
        );
        assert_eq!(
            cat(
                "could you please execute the runbook on our prod cluster",
                &none
            ),
            Some(Category::Meta)
        );
        assert_eq!(
            cat("can you run it for me tonight", &none),
            Some(Category::Meta)
        );
        // Naming what to run is asking for it.
        assert_eq!(
            cat("could you run a dns lookup check for prod", &none),
            None
        );
        // Closings, and what the assistant is and how to use it.
        for q in [
            "ok cheers, that is everything",
            "we're done for today, bye",
            "great, thx. that'll be it",
            "nothing else, thank you",
            "that is all, see you later",
            "are you a real person?",
            "is this a human? are you a machine",
            "how am i meant to use this?",
            "how do i use this thing",
        ] {
            assert_eq!(cat(q, &none), Some(Category::Meta), "{q}");
        }
        assert_eq!(cat("how do i use this bundle on gke", &none), None);
        assert_eq!(cat("that's all the pods in crashloop", &none), None);
        // Asked, not said: more is wanted. After an answer, "this" is what it showed.
        assert_ne!(cat("that's it?", &none), Some(Category::Meta));
        assert_ne!(
            cat("how am i meant to use this?", &with_history()),
            Some(Category::Meta)
        );
        // "they" is not "hey"; a real problem is not a greeting.
        assert_eq!(cat("they say the pods keep restarting", &none), None);
        assert_eq!(cat("hello, our ingress returns 502", &none), None);
    }

    #[test]
    fn follow_ups_need_history() {
        // "there" at the end or after a preposition points back; "is there" does not.
        assert_eq!(
            cat("any quota trouble over there?", &with_history()),
            Some(Category::FollowUp)
        );
        assert_ne!(
            cat("is there a check for kafka lag", &with_history()),
            Some(Category::FollowUp)
        );
        assert_eq!(
            cat("what about its SLIs?", &with_history()),
            Some(Category::FollowUp)
        );
        assert_eq!(
            cat("does that one require admin rights?", &with_history()),
            Some(Category::FollowUp)
        );
        assert_eq!(
            cat(
                "could that be a monitor too, paging us below a threshold?",
                &with_history()
            ),
            Some(Category::FollowUp)
        );
        assert_eq!(
            cat("anything similar for AKS?", &with_history()),
            Some(Category::FollowUp)
        );
        assert_eq!(
            cat("and for the gcp side?", &with_history()),
            Some(Category::FollowUp)
        );
        assert_eq!(
            cat("same thing but for azure event grid", &with_history()),
            Some(Category::FollowUp)
        );
        assert_eq!(
            cat(
                "what if the database lives in the cluster under the zalando operator instead?",
                &with_history()
            ),
            Some(Category::FollowUp)
        );
        assert_eq!(
            cat(
                "which one covers the ones minted inside the cluster?",
                &with_history()
            ),
            Some(Category::FollowUp)
        );
        assert_eq!(
            cat("what about its SLIs?", &SessionContext::default()),
            None
        );
        for q in [
            "can finance get a cost breakdown of that cluster before we resize anything on azure?",
            "same checks for the gce machines on google cloud?",
            "does it require cluster-admin, or can a viewer role do?",
            "a few of them read from SQS queues, how do I see messages going to a dead-letter queue?",
        ] {
            assert_eq!(cat(q, &with_history()), Some(Category::FollowUp), "{q}");
        }
        // Opening on a pronoun continues the conversation even with a subject of
        // its own ("gke" names a platform).
        assert_eq!(
            cat(
                "it is hosted on gke by the way, is there something that watches its node pools and autoscaler settings?",
                &with_history()
            ),
            Some(Category::FollowUp)
        );
    }

    #[test]
    fn keywords_and_docs() {
        let none = SessionContext::default();
        assert_eq!(
            cat("which keyword runs a bash file?", &none),
            Some(Category::KeywordLibrary)
        );
        // Chat shorthand: "kw" and "lib".
        for q in [
            "what kw retries a flaky cli call",
            "which lib do i import in robot to get the k8s helpers",
        ] {
            assert_eq!(cat(q, &none), Some(Category::KeywordLibrary), "{q}");
        }
        // What a readme holds or how one is made is documentation; a bundle whose
        // readme mentions something is a search.
        for q in [
            "where does the collection's readme get its list of bundles from",
            "what should go in the README of a new bundle",
        ] {
            assert_eq!(cat(q, &none), Some(Category::Documentation), "{q}");
        }
        assert_ne!(
            cat(
                "is there a bundle whose readme mentions cert-manager",
                &none
            ),
            Some(Category::Documentation)
        );
        // House rules and design reasons are documentation, whatever part they name.
        assert_eq!(
            cat(
                "why does the rw library repeat each keyword in two modules",
                &none
            ),
            Some(Category::Documentation)
        );
        assert_eq!(
            cat(
                "building my own bundle: what names should tasks follow",
                &none
            ),
            Some(Category::Documentation)
        );
        assert_ne!(
            cat("why do my pods keep restarting", &none),
            Some(Category::Documentation)
        );
        // What a part the user writes must do is what it calls; what theirs does
        // when run is a problem report.
        assert_eq!(
            cat("our own monitor must push the value it measured", &none),
            Some(Category::KeywordLibrary)
        );
        assert_ne!(
            cat("our tasks get stuck in the celery queue", &none),
            Some(Category::KeywordLibrary)
        );
        assert_eq!(
            cat("how do I call Run Bash File with a secret", &none),
            Some(Category::KeywordLibrary)
        );
        assert_eq!(
            cat("our library is closed on sundays", &none),
            None,
            "library alone is not a keyword question"
        );
        assert_eq!(cat("podman containers keep dying", &none), None);
        assert_eq!(
            cat("parse an iso date into epoch seconds inside robot", &none),
            Some(Category::KeywordLibrary)
        );
        assert_eq!(
            cat("how do runbooks read the secrets they are given", &none),
            Some(Category::KeywordLibrary)
        );
        assert_eq!(
            cat(
                "gcp robot accounts with stale keys in robot framework land",
                &none
            ),
            Some(Category::KeywordLibrary)
        );
        assert_eq!(cat("old keys on google robot accounts", &none), None);
        assert_eq!(
            cat(
                "how can we execute our own python script next to the robot file",
                &none
            ),
            Some(Category::KeywordLibrary)
        );
        assert_eq!(
            cat("how do i run the kubernetes health check", &none),
            None,
            "running a bundle is not a keyword question"
        );
        assert_eq!(
            cat(
                "how should we build our own keyword library for robot suites",
                &none
            ),
            Some(Category::Documentation)
        );
        assert_eq!(
            cat(
                "how can i make a user variable mandatory for a bundle",
                &none
            ),
            Some(Category::Documentation)
        );
        assert_eq!(
            cat("whats the difference between an sli and a runbook", &none),
            Some(Category::Documentation)
        );
        assert_eq!(
            cat("what are the naming conventions for RW.CLI keywords", &none),
            Some(Category::Documentation),
            "house rules are documentation even when they name a library"
        );
        assert_eq!(
            cat(
                "how do we run the unit tests of a codebundle locally",
                &none
            ),
            Some(Category::Documentation)
        );
        assert_eq!(
            cat(
                "the job writes json docs to a bucket and some are missing",
                &none
            ),
            None,
            "docs can be documents"
        );
        assert_eq!(
            cat(
                "inside a runbook task, how can i attach a table to the report",
                &none
            ),
            Some(Category::KeywordLibrary)
        );
        assert_eq!(
            cat("how do i put a block of text into the task report", &none),
            Some(Category::KeywordLibrary)
        );
        // Writing a bundle: what it can call.
        for q in [
            "how should my bundle read an api token and a region setting?",
            "is there a helper that escapes quotes before they go into an issue?",
            "how do the gcp bundles authenticate before calling gcloud?",
            "while building a new sli, how do i report a number back?",
        ] {
            assert_eq!(cat(q, &none), Some(Category::KeywordLibrary), "{q}");
        }
    }

    /// Help-style and reference-like phrasings inside a real problem report stay
    /// searches: "can you read the logs of my crashing pod", "where does this 502
    /// come from", "list all pods stuck in pending", "is it possible to…".
    /// Asked while writing a bundle (its kind named in between), what is right by
    /// the house rules is documentation.
    #[test]
    fn house_rules_asked_while_writing_a_bundle() {
        let none = SessionContext::default();
        for q in [
            "what priority should our custom codebundle's issues get",
            "my task in a shell bundle has to report findings, what format do i emit",
        ] {
            assert_eq!(cat(q, &none), Some(Category::Documentation), "{q}");
        }
        // Operating one's own things is no bundle writing.
        for q in [
            "our test suite keeps timing out, how do i find which pod",
            "my app bundle won't deploy, how do i check the rollout",
        ] {
            assert_ne!(cat(q, &none), Some(Category::KeywordLibrary), "{q}");
        }
    }

    #[test]
    fn problem_reports_that_sound_like_something_else() {
        let none = SessionContext::default();
        for q in [
            "can you read the logs of my crashing pod and tell me why it fails",
            "can you access the cluster and check why pods are pending",
            "where does this 502 come from on our nginx ingress",
            "list all pods stuck in pending",
            "show me errors across all namespaces",
            "what is killing every task in my ecs service",
            "how can we push jobs into a task queue faster",
            "the docs site returns 404 since the last deploy",
        ] {
            assert_eq!(cat(q, &none), None, "{q}");
        }
        for q in [
            "is it possible to find out why our pods keep restarting",
            "we run 40 cronjobs on gke and some of them fail silently",
        ] {
            assert_ne!(cat(q, &with_history()), Some(Category::FollowUp), "{q}");
        }
        assert_eq!(
            cat("list every read-only bundle for azure", &none),
            Some(Category::Catalog)
        );
        assert_eq!(
            cat("where does the severity of an issue come from?", &none),
            Some(Category::Documentation)
        );
    }

    /// Listings need a listing verb near "all"; "every task failing" or "show ...
    /// all of them" inside a problem report is not a catalog question.
    #[test]
    fn listing_words_inside_a_problem_are_not_a_listing() {
        let none = SessionContext::default();
        assert_eq!(
            cat(
                "the nodes show a weird status and restarted overnight, can you check all of them?",
                &none
            ),
            None
        );
        assert_eq!(
            cat(
                "in my suite setup, how do i stop early instead of every task failing on its own",
                &none
            ),
            Some(Category::KeywordLibrary)
        );
        assert_eq!(
            cat("show me all bundles for gcp", &none),
            Some(Category::Catalog)
        );
        assert_eq!(
            cat(
                "we need everything in namespace billing deleted today",
                &none
            ),
            None,
            "everything in the user's namespace is not the catalog"
        );
        assert_eq!(
            cat(
                "which ones are read-only among all the tools for azure",
                &none
            ),
            Some(Category::Catalog)
        );
    }
}
