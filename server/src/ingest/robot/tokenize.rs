//! Robot Framework's tokenizer, reproduced: lines become data cells, comments are
//! dropped, and `...` continuation lines are folded into the statement they continue.
//! Matching Robot exactly here is what makes task lists equal to its own parser.

/// One data cell and the (1-based) line it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    pub value: String,
    pub line: usize,
}

/// A logical statement: the cells of one line plus its continuation lines.
pub type Statement = Vec<Cell>;

/// Splits like Python's `str.splitlines()`, which Robot uses: besides `\n` and
/// `\r\n`, a lone `\r`, vertical tab, form feed, file/group/record separators, NEL
/// and the Unicode line/paragraph separators all end a line.
pub fn split_lines(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let breaks = matches!(
            c,
            '\n' | '\r'
                | '\u{0b}'
                | '\u{0c}'
                | '\u{1c}'
                | '\u{1d}'
                | '\u{1e}'
                | '\u{85}'
                | '\u{2028}'
                | '\u{2029}'
        );
        if breaks {
            out.push(&text[start..i]);
            let mut next = i + c.len_utf8();
            if c == '\r' && matches!(chars.peek(), Some((_, '\n'))) {
                chars.next();
                next += 1;
            }
            start = next;
        }
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// Data cells of one line, before comment and continuation handling.
fn split_line(line: &str) -> Vec<String> {
    let line = line.trim_end();
    if line.starts_with('|') && line.chars().take(2).collect::<String>().trim() == "|" {
        split_pipes(line)
    } else {
        split_spaces(line)
    }
}

/// Space-separated format: a separator is a run of two or more whitespace
/// characters, or a single tab (`(\s{2,}|\t)` in Robot). A single space is data.
fn split_spaces(line: &str) -> Vec<String> {
    let mut cells = Vec::new();
    let mut current = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_whitespace() {
            let mut run = vec![c];
            while let Some(&n) = chars.peek() {
                if !n.is_whitespace() {
                    break;
                }
                run.push(n);
                chars.next();
            }
            if run.len() >= 2 || c == '\t' {
                cells.push(std::mem::take(&mut current));
            } else {
                current.extend(run);
            }
        } else {
            current.push(c);
        }
    }
    cells.push(current);
    cells
}

/// Pipe-separated format: `| cell | cell |`, a pipe with whitespace (or a line end)
/// on both sides separates cells. One pass over the line: a hostile file with a
/// megabyte of pipes on one line costs linear time, not quadratic.
fn split_pipes(line: &str) -> Vec<String> {
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    let n = chars.len();
    // (begin, end) byte spans of separators, whitespace on both sides included.
    let mut seps: Vec<(usize, usize)> = Vec::new();
    let mut last_end = 0usize;
    let mut k = 0;
    while k < n {
        let (i, c) = chars[k];
        if c == '|' {
            let mut j = k;
            while j > 0 && chars[j - 1].0 >= last_end && chars[j - 1].1.is_whitespace() {
                j -= 1;
            }
            let begin = if j < k { chars[j].0 } else { i };
            // Whitespace before it, or it starts the line or follows a separator.
            let before_ok = begin < i || i == last_end;
            let mut m = k + 1;
            while m < n && chars[m].1.is_whitespace() {
                m += 1;
            }
            let end = if m < n { chars[m].0 } else { line.len() };
            let after_ok = end > i + 1 || i + 1 == line.len();
            if before_ok && after_ok {
                seps.push((begin, end));
                last_end = end;
                k = m;
                continue;
            }
        }
        k += 1;
    }
    let Some(&(_, first_end)) = seps.first() else {
        return vec![line.to_string()];
    };
    let mut cells = Vec::with_capacity(seps.len());
    let mut from = first_end;
    for &(b, e) in &seps[1..] {
        cells.push(line[from..b].to_string());
        from = e;
    }
    cells.push(line[from..].to_string());
    cells
}

/// Tokenizes a whole file into statements, as Robot's `Tokenizer` does in data-only
/// mode: comment cells (from a cell starting with `#` to the end of the line) are
/// dropped; a line whose first non-empty cell is `...` continues the previous
/// statement; lines with no data do not start a statement.
pub fn statements(text: &str) -> Vec<Statement> {
    let mut out: Vec<Statement> = Vec::new();
    let mut current: Statement = Vec::new();
    for (idx, raw) in split_lines(text).into_iter().enumerate() {
        let line_no = idx + 1;
        let cells = split_line(raw);
        let mut data: Vec<String> = Vec::new();
        let mut has_data = false;
        let mut continues = false;
        let mut comment = false;
        let mut continuation_at: Option<usize> = None;
        for (i, value) in cells.into_iter().enumerate() {
            let probe = if i == 0 {
                value.trim_start().to_string()
            } else {
                value.clone()
            };
            if comment {
                continue;
            }
            if !probe.is_empty() {
                if probe.starts_with('#') {
                    comment = true;
                    continue;
                }
                if !has_data {
                    if probe == "..." && !continues {
                        continues = true;
                        continuation_at = Some(data.len());
                        data.push(value);
                        continue;
                    }
                    has_data = true;
                }
            }
            data.push(value);
        }
        // Drop trailing empty cells.
        while data.last().is_some_and(|v| v.is_empty())
            && data.len() > continuation_at.map_or(0, |c| c + 1)
        {
            data.pop();
        }
        if continues {
            let at = continuation_at.unwrap_or(0);
            // Leading empty cells and the `...` marker itself are not data.
            let mut rest: Vec<String> = data.split_off(at + 1);
            if !has_data && rest.is_empty() {
                rest.push(String::new());
            }
            while rest.len() > 1 && rest.first().is_some_and(|v| v.is_empty()) && !has_data {
                rest.remove(0);
            }
            current.extend(rest.into_iter().map(|value| Cell {
                value,
                line: line_no,
            }));
        } else if has_data {
            if !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            current = data
                .into_iter()
                .map(|value| Cell {
                    value,
                    line: line_no,
                })
                .collect();
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(s: &Statement) -> Vec<&str> {
        s.iter().map(|c| c.value.as_str()).collect()
    }

    #[test]
    fn splits_on_two_spaces_or_a_tab_only() {
        assert_eq!(
            split_spaces("Metadata    Display Name    My  Title"),
            vec!["Metadata", "Display Name", "My", "Title"]
        );
        assert_eq!(split_spaces("a\tb c"), vec!["a", "b c"]);
        assert_eq!(split_spaces("    Log    x"), vec!["", "Log", "x"]);
        assert_eq!(split_spaces(" Indented name"), vec![" Indented name"]);
    }

    #[test]
    fn a_huge_pipe_line_is_linear() {
        let line = format!("| {}", "a | ".repeat(200_000));
        // (Quadratic splitting would take minutes on this line.)
        let cells = split_pipes(&line);
        assert_eq!(cells.len(), 200_001);
        let line = format!("|{}|", "x|".repeat(100_000));
        assert_eq!(split_pipes(&line).len(), 1, "pipes without spaces are data");
    }

    #[test]
    fn pipes() {
        assert_eq!(
            split_line("| Log | hello world |"),
            vec!["Log", "hello world", ""]
        );
        assert_eq!(split_line("|  | Log | x"), vec!["", "Log", "x"]);
    }

    #[test]
    fn python_splitlines() {
        assert_eq!(split_lines("a\r\nb\rc\nd"), vec!["a", "b", "c", "d"]);
        assert_eq!(split_lines("a\n"), vec!["a"]);
        assert_eq!(split_lines("a\n\nb"), vec!["a", "", "b"]);
    }

    #[test]
    fn continuation_and_comments() {
        let text = "*** Tasks ***\nMy Task\n    [Tags]\n    ...    a    b  # note\n# full line\n    Log    x    # trailing\n";
        let st = statements(text);
        assert_eq!(values(&st[0]), vec!["*** Tasks ***"]);
        assert_eq!(values(&st[1]), vec!["My Task"]);
        assert_eq!(values(&st[2]), vec!["", "[Tags]", "a", "b"]);
        assert_eq!(st[2][2].line, 4);
        assert_eq!(values(&st[3]), vec!["", "Log", "x"]);
    }

    #[test]
    fn empty_continuation_line_adds_an_empty_cell() {
        let st = statements("Doc    first\n...\n...    third\n");
        assert_eq!(values(&st[0]), vec!["Doc", "first", "", "third"]);
    }

    #[test]
    fn escaped_hash_is_data() {
        let st = statements("Log    \\#not a comment    # comment\n");
        assert_eq!(values(&st[0]), vec!["Log", "\\#not a comment"]);
    }
}
