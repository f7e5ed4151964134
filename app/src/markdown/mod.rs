//! Markdown to HTML for answers, READMEs and docs, safe by construction: raw HTML in
//! the source (from an LLM or from the corpus) is shown as text, links may only be
//! http(s), mailto, in-page or relative, images become links (nothing loads from a
//! third party), and citations (`[bundle:…]`, `[doc:…]`, `[kw:…]`) become numbered
//! chips. Plain Rust, so it runs in the browser and in host tests alike.

mod highlight;

use pulldown_cmark::{
    BrokenLink, CodeBlockKind, CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd,
};

/// What the renderer knows about a citation id (`bundle:kube-ops/x`).
#[derive(Clone, Debug, PartialEq)]
pub struct CiteInfo {
    pub label: String,
    pub url: Option<String>,
}

/// How citations in the text are shown.
pub enum Citations<'a> {
    /// Still streaming: every citation-shaped marker is a (pending) chip.
    Pending,
    /// Validated: known ids are chips, anything else is dropped.
    Known(&'a dyn Fn(&str) -> Option<CiteInfo>),
}

const CITE_SCHEME: &str = "cite:";

pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Only these link targets survive; everything else (`javascript:`, `data:`, …)
/// becomes plain text.
fn safe_href(dest: &str) -> Option<String> {
    let d = dest.trim();
    let lower = d.to_ascii_lowercase();
    let ok = lower.starts_with("https://")
        || lower.starts_with("http://")
        || lower.starts_with("mailto:")
        || lower.starts_with('#')
        || (lower.starts_with('/') && !lower.starts_with("//"))
        || (!lower.contains(':') && !lower.starts_with("//"));
    ok.then(|| escape(d))
}

fn is_cite(reference: &str) -> bool {
    ["bundle:", "doc:", "kw:"]
        .iter()
        .any(|p| reference.starts_with(p) && reference.len() > p.len())
}

/// Citation ids in order of first appearance (numbering follows this order).
pub fn citation_order(markdown: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for ev in parser(markdown) {
        if let Event::Start(Tag::Link { dest_url, .. }) = ev
            && let Some(id) = dest_url.strip_prefix(CITE_SCHEME)
            && !out.iter().any(|x| x == id)
        {
            out.push(id.to_string());
        }
    }
    out
}

fn parser<'a>(
    markdown: &'a str,
) -> Parser<'a, impl FnMut(BrokenLink<'a>) -> Option<(CowStr<'a>, CowStr<'a>)>> {
    let mut options = Options::empty();
    options.insert(Options::ENABLE_TABLES);
    options.insert(Options::ENABLE_STRIKETHROUGH);
    options.insert(Options::ENABLE_TASKLISTS);
    Parser::new_with_broken_link_callback(
        markdown,
        options,
        Some(|link: BrokenLink<'a>| {
            let r = link.reference.trim();
            is_cite(r).then(|| (CowStr::from(format!("{CITE_SCHEME}{r}")), CowStr::from("")))
        }),
    )
}

enum Open {
    Cite,
    Link,
    Skip,
}

/// Renders markdown to HTML that is safe to assign to `innerHTML`.
pub fn render(markdown: &str, citations: Citations<'_>) -> String {
    render_at(markdown, citations, 2)
}

/// As `render`, with the text's headings renumbered to start at `<h{base}>` and
/// go down one level at a time: an answer's `###` under the page's `<h1>` would
/// skip a level, which screen-reader users navigate by (axe `heading-order`).
pub fn render_at(markdown: &str, citations: Citations<'_>, base: u8) -> String {
    let order: Vec<String> = citation_order(markdown)
        .into_iter()
        .filter(|id| match &citations {
            Citations::Pending => true,
            Citations::Known(lookup) => lookup(id).is_some(),
        })
        .collect();
    let mut events: Vec<Event> = Vec::new();
    let mut open: Vec<Open> = Vec::new();
    let mut code: Option<(String, String)> = None;
    // Text inside a citation or image link is replaced, so it is skipped.
    let mut skipping = 0usize;
    for ev in parser(markdown) {
        if let Some((lang, body)) = code.as_mut() {
            match ev {
                Event::Text(t) => body.push_str(&t),
                Event::End(TagEnd::CodeBlock) => {
                    let (lang, body) = (lang.clone(), body.clone());
                    code = None;
                    events.push(Event::Html(code_block(&lang, &body).into()));
                }
                _ => {}
            }
            continue;
        }
        match ev {
            Event::Start(Tag::CodeBlock(kind)) => {
                let lang = match kind {
                    CodeBlockKind::Fenced(l) => {
                        l.split_whitespace().next().unwrap_or("").to_string()
                    }
                    CodeBlockKind::Indented => String::new(),
                };
                code = Some((lang, String::new()));
            }
            Event::Start(Tag::Link {
                dest_url, title, ..
            }) => {
                if let Some(id) = dest_url.strip_prefix(CITE_SCHEME) {
                    let n = order.iter().position(|x| x == id).map_or(0, |i| i + 1);
                    let chip = match &citations {
                        Citations::Pending => Some(format!(
                            "<a class=\"cite cite-pending\" href=\"#\" data-cite=\"{}\">{n}</a>",
                            escape(id)
                        )),
                        Citations::Known(lookup) => lookup(id).map(|info| {
                            let href = info.url.as_deref().and_then(safe_href).unwrap_or_else(|| "#".into());
                            format!(
                                "<a class=\"cite cite-{}\" href=\"{href}\" data-cite=\"{}\" title=\"{}\">{n}</a>",
                                id.split(':').next().unwrap_or(""),
                                escape(id),
                                escape(&info.label)
                            )
                        }),
                    };
                    if let Some(html) = chip {
                        events.push(Event::InlineHtml(html.into()));
                    }
                    open.push(Open::Cite);
                    skipping += 1;
                } else {
                    match safe_href(&dest_url) {
                        Some(href) => {
                            let external = href.starts_with("http");
                            events.push(Event::InlineHtml(
                                format!(
                                    "<a href=\"{href}\"{}{}>",
                                    if title.is_empty() {
                                        String::new()
                                    } else {
                                        format!(" title=\"{}\"", escape(&title))
                                    },
                                    if external {
                                        " target=\"_blank\" rel=\"noopener noreferrer\""
                                    } else {
                                        ""
                                    }
                                )
                                .into(),
                            ));
                            open.push(Open::Link);
                        }
                        None => open.push(Open::Skip),
                    }
                }
            }
            Event::End(TagEnd::Link) => match open.pop() {
                Some(Open::Cite) => skipping = skipping.saturating_sub(1),
                Some(Open::Link) => events.push(Event::InlineHtml("</a>".into())),
                _ => {}
            },
            // Images never load: they become a link to the image with its alt text.
            Event::Start(Tag::Image { dest_url, .. }) => {
                let href = safe_href(&dest_url).unwrap_or_else(|| "#".into());
                events.push(Event::InlineHtml(
                    format!("<a class=\"image-link\" href=\"{href}\" target=\"_blank\" rel=\"noopener noreferrer\">🖼 ").into(),
                ));
            }
            Event::End(TagEnd::Image) => events.push(Event::InlineHtml("</a>".into())),
            Event::Html(h) | Event::InlineHtml(h) => {
                if skipping == 0 {
                    events.push(Event::Text(h));
                }
            }
            Event::Text(_) | Event::Code(_) if skipping > 0 => {}
            other => events.push(other),
        }
    }
    renumber_headings(&mut events, base);
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, events.into_iter());
    html
}

fn renumber_headings(events: &mut [Event], base: u8) {
    let mut used: Vec<HeadingLevel> = events
        .iter()
        .filter_map(|e| match e {
            Event::Start(Tag::Heading { level, .. }) => Some(*level),
            _ => None,
        })
        .collect();
    used.sort();
    used.dedup();
    let to = |level: &HeadingLevel| {
        let rank = used.iter().position(|l| l == level).unwrap_or(0);
        HeadingLevel::try_from((base as usize + rank).min(6)).unwrap_or(HeadingLevel::H6)
    };
    for e in events.iter_mut() {
        match e {
            Event::Start(Tag::Heading { level, .. }) => *level = to(level),
            Event::End(TagEnd::Heading(level)) => *level = to(level),
            _ => {}
        }
    }
}

fn code_block(lang: &str, body: &str) -> String {
    let label = if lang.is_empty() { "text" } else { lang };
    format!(
        "<div class=\"code\"><div class=\"code-head\"><span>{}</span><button type=\"button\" class=\"copy-code\" data-copy-code>Copy</button></div><pre tabindex=\"0\"><code class=\"lang-{}\">{}</code></pre></div>",
        escape(label),
        escape(&label.to_ascii_lowercase()),
        highlight::highlight(lang, body)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known(id: &str) -> Option<CiteInfo> {
        (id == "bundle:kube-ops/a").then(|| CiteInfo {
            label: "Pod <Triage>".into(),
            url: Some("javascript:alert(1)".into()),
        })
    }

    #[test]
    fn headings_start_at_the_base_and_never_skip_a_level() {
        let html = render_at(
            "# Title\n\n### Deep\n\ntext\n\n#### Deeper",
            Citations::Pending,
            4,
        );
        assert!(html.contains("<h4>Title</h4>"), "{html}");
        assert!(html.contains("<h5>Deep</h5>"), "{html}");
        assert!(html.contains("<h6>Deeper</h6>"), "{html}");
        let answer = render("### Run first\n\nx", Citations::Pending);
        assert!(answer.contains("<h2>Run first</h2>"), "{answer}");
    }

    #[test]
    fn raw_html_is_text() {
        let html = render(
            "Hi <script>window.__xss = 1</script><img src=x onerror=\"window.__xss=2\">\n\n<div onclick=x>block</div>",
            Citations::Pending,
        );
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("<img"), "{html}");
        assert!(!html.contains("<div onclick"), "{html}");
        assert!(html.contains("&lt;script&gt;"), "{html}");
    }

    #[test]
    fn only_safe_links_survive() {
        let html = render(
            "[a](javascript:alert(1)) [b](https://x.test/?q=\"1\") [c](/local) ![i](https://t.test/p.png)",
            Citations::Pending,
        );
        assert!(!html.contains("javascript:"), "{html}");
        assert!(
            html.contains("href=\"https://x.test/?q=&quot;1&quot;\""),
            "{html}"
        );
        assert!(html.contains("href=\"/local\""));
        assert!(!html.contains("<img"), "images never load: {html}");
    }

    #[test]
    fn citations_become_numbered_chips() {
        let text = "Use [bundle:kube-ops/a] and [doc:d:x.md#y], again [bundle:kube-ops/a]. `[bundle:in/code]`";
        assert_eq!(
            citation_order(text),
            vec!["bundle:kube-ops/a", "doc:d:x.md#y"]
        );
        let lookup = |id: &str| known(id);
        let html = render(text, Citations::Known(&lookup));
        assert!(html.contains("data-cite=\"bundle:kube-ops/a\""), "{html}");
        assert!(html.contains("title=\"Pod &lt;Triage&gt;\""), "{html}");
        assert!(
            !html.contains("javascript"),
            "unsafe citation urls are dropped: {html}"
        );
        assert!(
            !html.contains("doc:d:x.md"),
            "unknown citations are dropped once known: {html}"
        );
        assert!(
            html.contains("<code>[bundle:in/code]</code>"),
            "code spans stay code: {html}"
        );
        let pending = render(text, Citations::Pending);
        assert!(pending.contains(">2</a>"), "{pending}");
    }

    #[test]
    fn code_blocks_are_escaped_and_have_a_copy_button() {
        let html = render("```bash\necho \"<b>\" # note\n```", Citations::Pending);
        assert!(html.contains("data-copy-code"));
        assert!(!html.contains("<b>"), "{html}");
        assert!(html.contains("class=\"tok-comment\""), "{html}");
    }
}
