//! Syntax colouring for the code that appears in answers and READMEs: shell, Robot
//! Framework, YAML, JSON, Python and SQL. A full highlighter (syntect and its grammar
//! dumps) would add megabytes to the WASM bundle; the colours here only need
//! comments, strings, numbers, variables and each language's keywords. Every piece
//! of output is escaped.

use super::escape;

#[derive(Clone, Copy, PartialEq)]
enum Lang {
    Shell,
    Robot,
    Yaml,
    Json,
    Python,
    Sql,
    Plain,
}

fn lang(name: &str) -> Lang {
    match name.to_ascii_lowercase().as_str() {
        "bash" | "sh" | "shell" | "console" | "zsh" => Lang::Shell,
        "robot" | "robotframework" | "resource" => Lang::Robot,
        "yaml" | "yml" => Lang::Yaml,
        "json" | "jsonc" => Lang::Json,
        "python" | "py" => Lang::Python,
        "sql" | "psql" => Lang::Sql,
        _ => Lang::Plain,
    }
}

fn keywords(l: Lang) -> &'static [&'static str] {
    match l {
        Lang::Shell => &[
            "if", "then", "else", "elif", "fi", "for", "while", "do", "done", "case", "esac", "in",
            "function", "return", "export", "local", "echo", "set",
        ],
        Lang::Python => &[
            "def", "class", "return", "if", "elif", "else", "for", "while", "in", "import", "from",
            "as", "with", "try", "except", "finally", "raise", "None", "True", "False", "and",
            "or", "not", "lambda", "yield", "pass", "is",
        ],
        Lang::Sql => &[
            "select", "from", "where", "group", "by", "order", "limit", "join", "left", "on",
            "and", "or", "not", "as", "insert", "update", "delete", "count", "desc", "asc",
        ],
        Lang::Robot => &[
            "IF", "ELSE", "ELSE IF", "END", "FOR", "IN", "IN RANGE", "TRY", "EXCEPT", "RETURN",
            "VAR", "WHILE", "BREAK", "CONTINUE",
        ],
        Lang::Json | Lang::Yaml => &["true", "false", "null"],
        Lang::Plain => &[],
    }
}

fn span(out: &mut String, class: &str, text: &str) {
    out.push_str("<span class=\"tok-");
    out.push_str(class);
    out.push_str("\">");
    out.push_str(&escape(text));
    out.push_str("</span>");
}

pub fn highlight(language: &str, code: &str) -> String {
    let l = lang(language);
    if l == Lang::Plain {
        return escape(code);
    }
    let mut out = String::with_capacity(code.len() * 2);
    for (i, line) in code.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        line_tokens(l, line, &mut out);
    }
    out
}

fn line_tokens(l: Lang, line: &str, out: &mut String) {
    if l == Lang::Robot && line.trim_start().starts_with("***") {
        return span(out, "section", line);
    }
    let chars: Vec<char> = line.chars().collect();
    let mut i = 0;
    let mut plain = String::new();
    let flush = |plain: &mut String, out: &mut String| {
        if !plain.is_empty() {
            out.push_str(&escape(plain));
            plain.clear();
        }
    };
    while i < chars.len() {
        let c = chars[i];
        let comment = match l {
            Lang::Shell | Lang::Yaml | Lang::Python | Lang::Robot => {
                c == '#' && (i == 0 || chars[i - 1].is_whitespace())
            }
            Lang::Sql => c == '-' && chars.get(i + 1) == Some(&'-'),
            _ => false,
        };
        if comment {
            flush(&mut plain, out);
            span(out, "comment", &chars[i..].iter().collect::<String>());
            return;
        }
        if (c == '"' || (c == '\'' && l != Lang::Robot)) && l != Lang::Plain {
            flush(&mut plain, out);
            let mut j = i + 1;
            while j < chars.len() && chars[j] != c {
                if chars[j] == '\\' {
                    j += 1;
                }
                j += 1;
            }
            let end = (j + 1).min(chars.len());
            span(out, "string", &chars[i..end].iter().collect::<String>());
            i = end;
            continue;
        }
        // ${VAR}, @{LIST}, &{DICT} (Robot), ${VAR} and $VAR (shell).
        if (c == '$' || ((c == '@' || c == '&' || c == '%') && l == Lang::Robot))
            && chars.get(i + 1) == Some(&'{')
        {
            flush(&mut plain, out);
            let mut depth = 0;
            let mut j = i + 1;
            while j < chars.len() {
                match chars[j] {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            let end = (j + 1).min(chars.len());
            span(out, "variable", &chars[i..end].iter().collect::<String>());
            i = end;
            continue;
        }
        if c == '$'
            && l == Lang::Shell
            && chars
                .get(i + 1)
                .is_some_and(|n| n.is_alphabetic() || *n == '_')
        {
            flush(&mut plain, out);
            let mut j = i + 1;
            while j < chars.len() && (chars[j].is_alphanumeric() || chars[j] == '_') {
                j += 1;
            }
            span(out, "variable", &chars[i..j].iter().collect::<String>());
            i = j;
            continue;
        }
        if c.is_ascii_digit() && (i == 0 || !chars[i - 1].is_alphanumeric()) {
            flush(&mut plain, out);
            let mut j = i;
            while j < chars.len() && (chars[j].is_ascii_digit() || chars[j] == '.') {
                j += 1;
            }
            span(out, "number", &chars[i..j].iter().collect::<String>());
            i = j;
            continue;
        }
        if c.is_alphabetic() || c == '_' {
            let mut j = i;
            while j < chars.len()
                && (chars[j].is_alphanumeric() || chars[j] == '_' || chars[j] == '-')
            {
                j += 1;
            }
            let word: String = chars[i..j].iter().collect();
            let is_key = l == Lang::Yaml && chars.get(j) == Some(&':') && plain.trim().is_empty();
            let is_kw = keywords(l).iter().any(|k| {
                if l == Lang::Sql {
                    k.eq_ignore_ascii_case(&word)
                } else {
                    *k == word
                }
            });
            if is_key || is_kw {
                flush(&mut plain, out);
                span(out, if is_key { "key" } else { "keyword" }, &word);
            } else {
                plain.push_str(&word);
            }
            i = j;
            continue;
        }
        plain.push(c);
        i += 1;
    }
    flush(&mut plain, out);
}

#[cfg(test)]
mod tests {
    use super::highlight;

    #[test]
    fn tokens_are_classed_and_escaped() {
        let h = highlight("robot", "*** Tasks ***\nLog    ${NAME} <b>  # hi");
        assert!(h.contains("tok-section"));
        assert!(
            h.contains("<span class=\"tok-variable\">${NAME}</span>"),
            "{h}"
        );
        assert!(h.contains("&lt;b&gt;"));
        assert!(h.contains("tok-comment"));
        let y = highlight("yaml", "name: \"x\" # c\ncount: 3");
        assert!(y.contains("<span class=\"tok-key\">name</span>"), "{y}");
        assert!(y.contains("tok-number"), "{y}");
        assert_eq!(highlight("unknown", "<x>"), "&lt;x&gt;");
    }
}
