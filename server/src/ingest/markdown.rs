//! Markdown split into sections by heading, with GitHub-style anchors and plain text
//! for retrieval (code blocks left out of the text to embed, kept for display).

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Heading {
    pub level: u8,
    pub text: String,
    pub anchor: String,
    pub line: usize,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Section {
    /// `None` for the text before the first heading.
    pub heading: Option<Heading>,
    /// Headings above this one, outermost first ("Configuration › Secrets").
    pub trail: Vec<String>,
    /// The section's markdown as written (for display).
    pub markdown: String,
    /// Plain text without code blocks (for retrieval).
    pub text: String,
    pub line_start: usize,
    pub line_end: usize,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Document {
    pub title: Option<String>,
    pub headings: Vec<Heading>,
    pub sections: Vec<Section>,
}

impl Document {
    /// All plain text, sections joined.
    pub fn plain_text(&self) -> String {
        self.sections
            .iter()
            .map(|s| s.text.as_str())
            .filter(|t| !t.is_empty())
            .collect::<Vec<_>>()
            .join("\n\n")
    }
}

/// GitHub's anchor rule: lower-case, drop punctuation except `-` and `_`, spaces
/// become `-`; repeats get `-1`, `-2`, ...
pub fn anchor(text: &str, seen: &mut HashMap<String, usize>) -> String {
    let base: String = text
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect();
    let n = seen.entry(base.clone()).or_insert(0);
    let out = if *n == 0 {
        base.clone()
    } else {
        format!("{base}-{n}")
    };
    *n += 1;
    out
}

pub fn parse(source: &str) -> Document {
    let blanked = without_front_matter(source);
    let source = blanked.as_deref().unwrap_or(source);
    let line_of = LineIndex::new(source);
    let mut seen = HashMap::new();
    let mut headings: Vec<(Heading, usize)> = Vec::new(); // with byte offset
    // Plain text pieces with their byte offsets, excluding code blocks.
    let mut pieces: Vec<(usize, String)> = Vec::new();
    let mut in_heading: Option<(u8, usize, String)> = None;
    let mut in_code_block = false;

    let opts = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    for (event, range) in Parser::new_ext(source, opts).into_offset_iter() {
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                in_heading = Some((level as u8, range.start, String::new()))
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some((level, start, text)) = in_heading.take() {
                    let text = text.trim().to_string();
                    let a = anchor(&text, &mut seen);
                    headings.push((
                        Heading {
                            level,
                            text,
                            anchor: a,
                            line: line_of.line(start),
                        },
                        start,
                    ));
                }
            }
            Event::Start(Tag::CodeBlock(_)) => in_code_block = true,
            Event::End(TagEnd::CodeBlock) => in_code_block = false,
            Event::Text(t) | Event::Code(t) => {
                if let Some((_, _, h)) = in_heading.as_mut() {
                    h.push_str(&t);
                } else if !in_code_block {
                    pieces.push((range.start, t.to_string()));
                }
            }
            // Raw HTML is kept as literal text: the UI renders it escaped.
            Event::Html(t) | Event::InlineHtml(t) if in_heading.is_none() && !in_code_block => {
                pieces.push((range.start, t.to_string()));
            }
            Event::SoftBreak | Event::HardBreak => pieces.push((range.start, " ".into())),
            Event::End(
                TagEnd::Paragraph | TagEnd::Item | TagEnd::TableRow | TagEnd::BlockQuote(_),
            ) => pieces.push((range.end.saturating_sub(1), "\n".into())),
            Event::End(TagEnd::TableCell) => {
                pieces.push((range.end.saturating_sub(1), " | ".into()))
            }
            _ => {}
        }
    }

    // Section boundaries: the start of each heading.
    let mut bounds: Vec<(Option<Heading>, usize)> = Vec::new();
    if headings
        .first()
        .is_none_or(|(_, off)| !source[..*off].trim().is_empty())
    {
        bounds.push((None, 0));
    }
    bounds.extend(headings.iter().map(|(h, off)| (Some(h.clone()), *off)));

    let mut sections = Vec::new();
    let mut stack: Vec<(u8, String)> = Vec::new();
    for (i, (heading, start)) in bounds.iter().enumerate() {
        let end = bounds.get(i + 1).map_or(source.len(), |(_, s)| *s);
        let text: String = pieces
            .iter()
            .filter(|(off, _)| *off >= *start && *off < end)
            .map(|(_, t)| t.as_str())
            .collect();
        let text = tidy(&text);
        let trail = match heading {
            Some(h) => {
                while stack.last().is_some_and(|(l, _)| *l >= h.level) {
                    stack.pop();
                }
                let trail = stack.iter().map(|(_, t)| t.clone()).collect();
                stack.push((h.level, h.text.clone()));
                trail
            }
            None => Vec::new(),
        };
        let markdown = source[*start..end].trim_end().to_string();
        if heading.is_none() && markdown.trim().is_empty() {
            continue;
        }
        sections.push(Section {
            heading: heading.clone(),
            trail,
            line_start: line_of.line(*start),
            line_end: line_of.line(end.saturating_sub(1).max(*start)),
            markdown,
            text,
        });
    }
    let title = headings
        .iter()
        .find(|(h, _)| h.level == 1)
        .or(headings.first())
        .map(|(h, _)| h.text.clone());
    Document {
        title,
        headings: headings.into_iter().map(|(h, _)| h).collect(),
        sections,
    }
}

/// Collapses runs of blank lines and trailing spaces.
fn tidy(text: &str) -> String {
    let mut out = String::new();
    let mut blank = 0;
    for line in text.lines() {
        let l = line.trim_end();
        if l.trim().is_empty() {
            blank += 1;
            continue;
        }
        if !out.is_empty() {
            out.push_str(if blank > 0 { "\n\n" } else { "\n" });
        }
        blank = 0;
        out.push_str(l.trim_start_matches(' '));
    }
    out
}

/// Byte offset → 1-based line number.
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { starts }
    }

    pub fn line(&self, offset: usize) -> usize {
        match self.starts.binary_search(&offset) {
            Ok(i) => i + 1,
            Err(i) => i,
        }
    }
}

/// YAML front matter (`---` lines around `key: value` lines at the very top, as
/// GitHub issue templates and generated docs begin) with its two delimiters blanked:
/// left in, the closing `---` turns the lines above it into a setext heading. Its
/// lines stay as the preamble's text, and offsets (so line numbers) are unchanged.
/// Only at the top (after a byte-order mark, if any), and only when every line up
/// to the closing one looks like YAML (a key, a list item, an indented or comment
/// line; no blank line, at most 50): a file opening with a plain rule keeps its
/// setext headings further down. pulldown-cmark's own metadata option would take
/// such a block anywhere in a file.
fn without_front_matter(source: &str) -> Option<String> {
    let bom = if source.starts_with('\u{feff}') {
        '\u{feff}'.len_utf8()
    } else {
        0
    };
    let top = &source[bom..];
    let body = top
        .strip_prefix("---\n")
        .or_else(|| top.strip_prefix("---\r\n"))?;
    let mut at = source.len() - body.len();
    for line in body.split_inclusive('\n').take(50) {
        let text = line.trim_end();
        if text == "---" {
            let mut out = source.to_string();
            out.replace_range(bom..bom + 3, "   ");
            out.replace_range(at..at + 3, "   ");
            return Some(out);
        }
        let yaml_like = line.starts_with([' ', '\t', '-', '#']) || text.contains(':');
        if text.is_empty() || !yaml_like {
            return None;
        }
        at += line.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_headings_and_anchors() {
        let md = "Intro text.\n\n# Title\n\nPurpose here.\n\n## Tasks\n- Check pods\n- Check events\n\n```sh\nkubectl get pods\n```\n\n## Tasks\n\nAgain <script>x</script>.\n";
        let doc = parse(md);
        assert_eq!(doc.title.as_deref(), Some("Title"));
        let anchors: Vec<&str> = doc.headings.iter().map(|h| h.anchor.as_str()).collect();
        assert_eq!(anchors, vec!["title", "tasks", "tasks-1"]);
        assert_eq!(doc.sections.len(), 4);
        assert!(doc.sections[0].heading.is_none());
        let tasks = &doc.sections[2];
        assert_eq!(tasks.trail, vec!["Title"]);
        assert!(tasks.text.contains("Check pods"));
        assert!(
            !tasks.text.contains("kubectl get pods"),
            "code blocks are not retrieval text"
        );
        assert!(
            tasks.markdown.contains("kubectl get pods"),
            "but stay in the display markdown"
        );
        assert_eq!(tasks.line_start, 7);
        assert!(
            doc.sections[3].text.contains("<script>"),
            "raw HTML kept as literal text"
        );
    }

    #[test]
    fn front_matter_is_text_not_a_heading() {
        let md = "---\nname: Codebundle\nabout: The scope\n---\n\n**Scope**\nDescribe it.\n\n## How this works\nA PR follows.\n\n---\nafter a rule\n";
        let doc = parse(md);
        let headings: Vec<&str> = doc.headings.iter().map(|h| h.text.as_str()).collect();
        assert_eq!(headings, vec!["How this works"]);
        assert!(doc.sections[0].text.contains("about: The scope"));
        assert_eq!(doc.headings[0].line, 9);
        // A rule further down stays a rule, and a file without front matter is
        // read as before.
        assert!(doc.sections[1].text.contains("after a rule"));
        assert_eq!(parse("Intro\n---\n").headings.len(), 1);
        // A rule at the top with prose after it is no front matter: the setext
        // heading below stays a heading.
        let ruled = parse("---\nSome prose here.\n\nTitle\n---\ntext\n");
        assert_eq!(ruled.headings.len(), 1);
        // A byte-order mark before the block.
        let bom = parse("\u{feff}---\nname: x\n---\n## Real\n");
        let headings: Vec<&str> = bom.headings.iter().map(|h| h.text.as_str()).collect();
        assert_eq!(headings, vec!["Real"]);
    }

    #[test]
    fn anchors_follow_github() {
        let mut seen = HashMap::new();
        assert_eq!(
            anchor("Runbooks vs. SLIs (what runs when?)", &mut seen),
            "runbooks-vs-slis-what-runs-when"
        );
        assert_eq!(
            anchor("user_variables & Secrets", &mut seen),
            "user_variables--secrets"
        );
    }
}
