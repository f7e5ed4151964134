//! Statements → sections → settings, tasks, keywords and variable imports.

use super::model::*;
use super::tokenize::{Cell, Statement, statements};

#[derive(Clone, Copy, PartialEq, Debug)]
enum Section {
    /// Before the first header, or a `*** Comments ***` section.
    Comment,
    Settings,
    Variables,
    Tasks,
    Keywords,
    /// An unknown header: Robot ignores what follows until the next header.
    Invalid,
}

/// Header recognition as Robot does it: the first cell starts with `*`; asterisks
/// and spaces are stripped from both ends, whitespace is collapsed and the result
/// title-cased. Singular forms are accepted (Robot warns that they are deprecated).
fn header(cell: &str) -> Option<(Section, Option<&'static str>)> {
    if !cell.starts_with('*') {
        return None;
    }
    let name = cell
        .trim_matches(|c| c == '*' || c == ' ')
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let section = match name.to_lowercase().as_str() {
        "settings" => (Section::Settings, None),
        "variables" => (Section::Variables, None),
        "tasks" | "test cases" => (Section::Tasks, None),
        "keywords" => (Section::Keywords, None),
        "comments" => (Section::Comment, None),
        "setting" => (
            Section::Settings,
            Some("singular section header is deprecated"),
        ),
        "variable" => (
            Section::Variables,
            Some("singular section header is deprecated"),
        ),
        "task" | "test case" => (
            Section::Tasks,
            Some("singular section header is deprecated"),
        ),
        "keyword" => (
            Section::Keywords,
            Some("singular section header is deprecated"),
        ),
        "comment" => (
            Section::Comment,
            Some("singular section header is deprecated"),
        ),
        _ => (
            Section::Invalid,
            Some("unrecognised section header; its content is ignored"),
        ),
    };
    Some(section)
}

/// Parses the text of a `.robot` file. Never fails: oddities become warnings.
pub fn parse(text: &str) -> RobotFile {
    let mut file = RobotFile::default();
    let mut section = Section::Comment;
    let mut current_task: Option<TaskDef> = None;
    let mut current_kw: Option<KeywordDef> = None;

    for st in statements(text) {
        if let Some((s, warning)) = header(&st[0].value) {
            finish(&mut file, &mut current_task, &mut current_kw);
            section = s;
            if let Some(w) = warning {
                file.warnings.push(ParseWarning {
                    line: st[0].line,
                    message: format!("{w}: {}", st[0].value),
                });
            }
            continue;
        }
        match section {
            Section::Comment | Section::Invalid => {}
            Section::Settings => setting(&mut file, &st),
            Section::Variables => {
                let values: Vec<&str> = st[1..].iter().map(|c| c.value.as_str()).collect();
                file.suite_variables
                    .push((st[0].value.clone(), values.join(" ")));
            }
            Section::Tasks | Section::Keywords => {
                let body: &[Cell] = if st[0].value.is_empty() {
                    &st[1..]
                } else {
                    // A cell in column 1 starts a new task or keyword; the rest of
                    // its line, if any, is the first body statement.
                    finish(&mut file, &mut current_task, &mut current_kw);
                    let (name, line) = (st[0].value.clone(), st[0].line);
                    if section == Section::Tasks {
                        current_task = Some(TaskDef {
                            name,
                            line_start: line,
                            line_end: line,
                            ..Default::default()
                        });
                    } else {
                        current_kw = Some(KeywordDef {
                            name,
                            line_start: line,
                            line_end: line,
                            ..Default::default()
                        });
                    }
                    &st[1..]
                };
                if body.is_empty() {
                    continue;
                }
                let last_line = st.last().map_or(0, |c| c.line);
                match (section, current_task.as_mut(), current_kw.as_mut()) {
                    (Section::Tasks, Some(task), _) => {
                        task.line_end = last_line;
                        task_statement(task, body, &mut file.imports, &mut file.warnings);
                    }
                    (Section::Keywords, _, Some(kw)) => {
                        kw.line_end = last_line;
                        if setting_name(&body[0].value) == "[return]" {
                            file.warnings.push(ParseWarning {
                                line: body[0].line,
                                message: format!(
                                    "[Return] is deprecated; use RETURN (keyword \"{}\")",
                                    kw.name
                                ),
                            });
                        }
                        if let Some((at, call)) = keyword_call_at(body) {
                            kw.sites.push(site(body, at, &call));
                            kw.calls.push(call.clone());
                            import(&call, body, &mut file.imports);
                        }
                    }
                    _ => file.warnings.push(ParseWarning {
                        line: body[0].line,
                        message: "statement before any task or keyword name is ignored".into(),
                    }),
                }
            }
        }
    }
    finish(&mut file, &mut current_task, &mut current_kw);
    dedupe_imports(&mut file);
    file
}

fn finish(file: &mut RobotFile, task: &mut Option<TaskDef>, kw: &mut Option<KeywordDef>) {
    if let Some(t) = task.take() {
        file.tasks.push(t);
    }
    if let Some(k) = kw.take() {
        file.keywords.push(k);
    }
}

/// Cells of one row joined with a space, rows joined with a newline, as Robot joins
/// documentation and metadata values.
fn join_rows(cells: &[Cell]) -> String {
    let mut out = String::new();
    let mut last_line = None;
    for c in cells {
        match last_line {
            None => {}
            Some(l) if l == c.line => out.push(' '),
            Some(_) => out.push('\n'),
        }
        out.push_str(&c.value);
        last_line = Some(c.line);
    }
    out.trim().to_string()
}

fn values(cells: &[Cell]) -> Vec<String> {
    cells
        .iter()
        .map(|c| c.value.clone())
        .filter(|v| !v.is_empty())
        .collect()
}

/// Setting names compare like Robot's: whitespace collapsed, case ignored.
fn setting_name(cell: &str) -> String {
    cell.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

fn setting(file: &mut RobotFile, st: &Statement) {
    let name = setting_name(&st[0].value);
    let rest = &st[1..];
    match name.as_str() {
        "documentation" => {
            let doc = join_rows(rest);
            if file.documentation.is_empty() {
                file.documentation = doc;
            } else {
                file.documentation = format!("{}\n{}", file.documentation, doc);
            }
        }
        "metadata" => {
            if let Some((key, value)) = rest.split_first() {
                file.metadata
                    .push((key.value.trim().to_string(), join_rows(value)));
            }
        }
        "force tags" | "test tags" | "task tags" => file.force_tags.extend(values(rest)),
        "default tags" => file.default_tags.extend(values(rest)),
        "library" => {
            if let Some((lib, args)) = rest.split_first() {
                file.libraries.push(LibraryImport {
                    name: lib.value.clone(),
                    args: args.iter().map(|c| c.value.clone()).collect(),
                    line: lib.line,
                });
            }
        }
        "suite setup" => {
            file.suite_setup = rest
                .first()
                .map(|c| c.value.clone())
                .filter(|v| !v.is_empty())
        }
        _ => {}
    }
}

fn task_statement(
    task: &mut TaskDef,
    body: &[Cell],
    imports: &mut Vec<VarImport>,
    warnings: &mut Vec<ParseWarning>,
) {
    let first = body[0].value.as_str();
    let rest = &body[1..];
    match setting_name(first).as_str() {
        "[documentation]" => {
            let doc = join_rows(rest);
            task.doc = if task.doc.is_empty() {
                doc
            } else {
                format!("{}\n{doc}", task.doc)
            };
        }
        "[tags]" => task.tags.extend(values(rest)),
        "[setup]" | "[teardown]" | "[template]" | "[timeout]" => {}
        // The marker is case-sensitive in Robot: `return` would be a keyword call.
        _ if first == "RETURN" => warnings.push(ParseWarning {
            line: body[0].line,
            message: format!(
                "RETURN can only be used inside a user keyword (task \"{}\")",
                task.name.trim()
            ),
        }),
        _ => {
            if let Some((at, call)) = keyword_call_at(body) {
                task.sites.push(site(body, at, &call));
                if !is_reporting(&call) {
                    // Positional arguments and `cmd=` run; other named arguments
                    // (`template_string=`, `if_str=`) usually hold text for people.
                    for cell in body.iter().filter(|c| runs_as_command(&c.value)) {
                        if let Some(w) = super::writes::detect(&cell.value)
                            && !task.writes.contains(&w)
                        {
                            task.writes.push(w);
                        }
                    }
                }
                task.calls.push(call.clone());
                import(&call, body, imports);
            }
        }
    }
}

fn runs_as_command(cell: &str) -> bool {
    match cell.split_once('=') {
        Some((name, _))
            if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') =>
        {
            name.eq_ignore_ascii_case("cmd")
        }
        _ => true,
    }
}

/// Keywords whose arguments are prose for people (titles, next steps), where a
/// command is a suggestion, not an action.
fn is_reporting(call: &str) -> bool {
    let n = normalize(call);
    [
        "addissue",
        "addpretoreport",
        "addtoreport",
        "addcodetoreport",
        "addjsontoreport",
        "pushmetric",
        "log",
        "logtoconsole",
        "comment",
        "setsuitevariable",
    ]
    .iter()
    .any(|k| n.ends_with(k))
}

/// Control structures and markers that are not keyword calls.
const CONTROL: &[&str] = &[
    "FOR", "END", "IF", "ELSE", "ELSE IF", "WHILE", "TRY", "EXCEPT", "FINALLY", "BREAK",
    "CONTINUE", "RETURN", "VAR", "GROUP",
];

/// The keyword a body statement calls, skipping `${x}=` assignments, with the index
/// of the cell that names it.
fn keyword_call_at(body: &[Cell]) -> Option<(usize, String)> {
    let at = body.iter().position(|c| !is_assignment(&c.value))?;
    let v = body[at].value.trim();
    if v.is_empty() || v.starts_with('[') || CONTROL.contains(&v) {
        return None;
    }
    Some((at, v.to_string()))
}

/// The call a statement makes, its keyword at cell `at`.
fn site(body: &[Cell], at: usize, call: &str) -> CallSite {
    CallSite {
        name: call.to_string(),
        line: body[at].line,
        args: body[at + 1..]
            .iter()
            .take(CallSite::ARGS_MAX)
            .map(|c| cut(&c.value, CallSite::ARG_MAX))
            .collect(),
        assigns: body[..at]
            .iter()
            .filter_map(|c| assigned_name(&c.value))
            .collect(),
    }
}

/// The variable an assignment cell names: `${rsp} =` → `rsp`.
fn assigned_name(cell: &str) -> Option<String> {
    let v = cell.trim_end().trim_end_matches('=').trim_end();
    is_assignment(v).then(|| v[2..v.len() - 1].trim().to_string())
}

/// At most `max` characters, cut on a character boundary.
fn cut(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

fn is_assignment(v: &str) -> bool {
    let v = v.trim_end().trim_end_matches('=').trim_end();
    v.len() > 3
        && matches!(v.as_bytes()[0], b'$' | b'@' | b'&')
        && v.as_bytes()[1] == b'{'
        && v.ends_with('}')
}

/// Records `Import User Variable` / `Import Secret` / `Import Service` calls.
fn import(call: &str, body: &[Cell], imports: &mut Vec<VarImport>) {
    let n = normalize(call);
    let kind = if n.ends_with("importuservariable") {
        VarKind::User
    } else if n.ends_with("importsecret") {
        VarKind::Secret
    } else if n.ends_with("importservice") {
        VarKind::Service
    } else {
        return;
    };
    let Some(pos) = body.iter().position(|c| c.value.trim() == call) else {
        return;
    };
    let mut v = VarImport {
        kind,
        line: body[pos].line,
        ..Default::default()
    };
    for cell in &body[pos + 1..] {
        let value = cell.value.as_str();
        match value.split_once('=') {
            Some((key, val)) if is_attribute(key) => match key.trim().to_lowercase().as_str() {
                "type" => v.var_type = Some(val.trim().to_string()),
                "description" => v.description = Some(val.trim().to_string()),
                "pattern" => v.pattern = Some(val.to_string()),
                "example" => v.example = Some(val.to_string()),
                "default" => v.default = Some(val.to_string()),
                "enum" => {
                    v.enum_values = val
                        .trim()
                        .trim_start_matches('[')
                        .trim_end_matches(']')
                        .split(',')
                        .map(|s| s.trim().to_string())
                        .filter(|s| !s.is_empty())
                        .collect()
                }
                "optional" => {
                    v.optional = matches!(val.trim().to_lowercase().as_str(), "true" | "yes" | "1")
                }
                _ => {}
            },
            _ if v.name.is_empty() => v.name = value.trim().to_string(),
            _ => {}
        }
    }
    if v.name.is_empty() {
        return;
    }
    v.dynamic = v.name.contains("${") || v.name.contains("@{");
    imports.push(v);
}

fn is_attribute(key: &str) -> bool {
    matches!(
        key.trim().to_lowercase().as_str(),
        "type" | "description" | "pattern" | "example" | "default" | "enum" | "optional"
    )
}

/// A variable or secret imported twice keeps its first declaration; later ones
/// only fill attributes the first lacked.
fn dedupe_imports(file: &mut RobotFile) {
    let mut out: Vec<VarImport> = Vec::new();
    for imp in std::mem::take(&mut file.imports) {
        match out
            .iter_mut()
            .find(|o| o.name == imp.name && o.kind == imp.kind)
        {
            Some(first) => {
                file.warnings.push(ParseWarning {
                    line: imp.line,
                    message: format!("{} imported again (first at line {})", imp.name, first.line),
                });
                first.var_type = first.var_type.take().or(imp.var_type);
                first.description = first.description.take().or(imp.description);
                first.pattern = first.pattern.take().or(imp.pattern);
                first.example = first.example.take().or(imp.example);
                first.default = first.default.take().or(imp.default);
                if first.enum_values.is_empty() {
                    first.enum_values = imp.enum_values;
                }
            }
            None => out.push(imp),
        }
    }
    file.imports = out;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(f: &RobotFile) -> Vec<&str> {
        f.tasks.iter().map(|t| t.name.as_str()).collect()
    }

    #[test]
    fn settings_metadata_and_tags() {
        let f = parse(
            "*** Settings ***\nDocumentation       First line\n...                 second line.\nMetadata    Author    Ana\nMetadata    Display Name    Pod  Health\nMetadata    Supports    AWS    EBS    CloudCustodian\nForce Tags    k8s    pods\nLibrary    RW.Core\nLibrary    RW.CLI\nSuite Setup    Suite Initialization\n",
        );
        assert_eq!(f.documentation, "First line\nsecond line.");
        assert_eq!(f.metadata("author"), Some("Ana"));
        assert_eq!(
            f.metadata("Display Name"),
            Some("Pod Health"),
            "2+ spaces split cells, joined by one space"
        );
        assert_eq!(f.metadata("Supports"), Some("AWS EBS CloudCustodian"));
        assert_eq!(f.force_tags, vec!["k8s", "pods"]);
        assert_eq!(
            f.libraries
                .iter()
                .map(|l| l.name.as_str())
                .collect::<Vec<_>>(),
            vec!["RW.Core", "RW.CLI"]
        );
        assert_eq!(f.suite_setup.as_deref(), Some("Suite Initialization"));
    }

    #[test]
    fn odd_section_markers_and_duplicates() {
        let f = parse(
            "** Settings **\nDocumentation    x\n** Tasks **\nA\n    Log    1\n** Keywords ***\nSuite Initialization\n    No Operation\n*** Tasks ***\nB\n    Log    2\n*** Variables ***\n${X}    1\n*** Keywords ***\nOther\n    Log    3\n",
        );
        assert_eq!(
            names(&f),
            vec!["A", "B"],
            "Keywords are not tasks; duplicate Tasks sections merge"
        );
        assert_eq!(
            f.keywords
                .iter()
                .map(|k| k.name.as_str())
                .collect::<Vec<_>>(),
            vec!["Suite Initialization", "Other"]
        );
        assert_eq!(
            f.suite_variables,
            vec![("${X}".to_string(), "1".to_string())]
        );
    }

    #[test]
    fn call_sites_keep_lines_arguments_and_local_keywords() {
        let f = parse(
            "*** Settings ***\nSuite Setup    Suite Initialization\n*** Tasks ***\nFirst\n    ${r}=    RW.CLI.Run Bash File    bash_file=check.sh    timeout_seconds=60\n    Report It\nSecond\n    RW.Core.Push Metric    ${r}    sub_name=errors\n*** Keywords ***\nReport It\n    RW.Core.Add Pre To Report    done\n    Report It\nSuite Initialization\n    ${s}=    RW.Core.Import Secret    kubeconfig    type=string\n",
        );
        let first = &f.tasks[0].sites[0];
        assert_eq!(
            (first.name.as_str(), first.line),
            ("RW.CLI.Run Bash File", 5)
        );
        assert_eq!(first.args, vec!["bash_file=check.sh", "timeout_seconds=60"]);
        assert_eq!(
            first.named().collect::<Vec<_>>(),
            vec!["bash_file", "timeout_seconds"]
        );
        let push = &f.tasks[1].sites[0];
        assert_eq!((push.positional(), push.line), (1, 8));
        // The first task also runs the suite setup; local keywords are expanded
        // once (the recursive one does not loop) and leave only library calls.
        let names = |i: usize| -> Vec<(String, usize)> {
            f.sites_of(i)
                .into_iter()
                .map(|s| (s.name, s.line))
                .collect()
        };
        assert_eq!(
            names(0),
            vec![
                ("RW.CLI.Run Bash File".to_string(), 5),
                ("RW.Core.Add Pre To Report".to_string(), 11),
                ("RW.Core.Import Secret".to_string(), 14),
            ]
        );
        assert_eq!(names(1), vec![("RW.Core.Push Metric".to_string(), 8)]);
        let long = parse(&format!(
            "*** Tasks ***\nT\n    Log    {}\n",
            "x".repeat(500)
        ));
        assert_eq!(
            long.tasks[0].sites[0].args[0].chars().count(),
            CallSite::ARG_MAX + 1
        );
    }

    #[test]
    fn a_keyword_run_by_a_runner_is_called() {
        let f = parse(
            "*** Tasks ***\nT\n    Run Keyword If    '${K}' != ''    Add Note    ${id}\n*** Keywords ***\nAdd Note\n    [Arguments]    ${id}\n    RW.PagerDuty.Add Note To Incident    ${id}\n",
        );
        let names: Vec<(String, usize)> = f
            .sites_of(0)
            .into_iter()
            .map(|s| (s.name, s.line))
            .collect();
        assert_eq!(
            names,
            vec![
                ("Run Keyword If".to_string(), 3),
                ("RW.PagerDuty.Add Note To Incident".to_string(), 7),
            ]
        );
    }

    #[test]
    fn keywords_before_tasks_and_one_space_indent() {
        let f = parse(
            "*** Keywords ***\nK\n    Log    x\n*** Tasks ***\nFirst\n    Log    1\n Second Indented By One\n    Log    2\n",
        );
        assert_eq!(names(&f), vec!["First", " Second Indented By One"]);
        assert_eq!(f.tasks[1].line_start, 7);
    }

    #[test]
    fn task_docs_and_tags_on_continuation_lines() {
        let f = parse(
            "*** Tasks ***\nRestart `${DEPLOYMENT}` in `${NS}`\n    [Documentation]    Restarts it\n    ...    safely.\n    [Tags]\n    ...    access:read-write    ops\n    # [Tags]    commented\n    RW.CLI.Run Cli    cmd=kubectl rollout restart    # trailing comment\n",
        );
        let t = &f.tasks[0];
        assert_eq!(t.doc, "Restarts it\nsafely.");
        assert_eq!(t.tags, vec!["access:read-write", "ops"]);
        assert_eq!(t.calls, vec!["RW.CLI.Run Cli"]);
        assert_eq!((t.line_start, t.line_end), (2, 8));
    }

    #[test]
    fn user_variables_and_secrets() {
        let f = parse(
            "*** Keywords ***\nSuite Initialization\n    ${NS}=    RW.Core.Import User Variable    NAMESPACE\n    ...    type=string\n    ...    description=The namespace to check.\n    ...    pattern=\\w*\n    ...    example=payments\n    ...    default=default\n    ${B}=    Import User Variable    BINARY\n    ...    enum=[kubectl,oc]\n    ...    default=kubectl\n    ${k}=    RW.Core.Import Secret    kubeconfig\n    ...    type=string\n    ...    optional=true\n    ${k2}=    RW.Core.Import Secret    kubeconfig\n    ...    description=again\n    FOR    ${name}    IN    @{names}\n        RW.Core.Import Secret    ${name}\n    END\n",
        );
        let ns = &f.imports[0];
        assert_eq!((ns.name.as_str(), ns.kind), ("NAMESPACE", VarKind::User));
        assert_eq!(ns.description.as_deref(), Some("The namespace to check."));
        assert_eq!(ns.pattern.as_deref(), Some("\\w*"));
        assert_eq!(ns.default.as_deref(), Some("default"));
        assert_eq!(f.imports[1].enum_values, vec!["kubectl", "oc"]);
        let kube = f.imports.iter().find(|v| v.name == "kubeconfig").unwrap();
        assert!(kube.optional);
        assert_eq!(
            kube.description.as_deref(),
            Some("again"),
            "duplicate import fills missing attributes"
        );
        assert_eq!(
            f.imports.iter().filter(|v| v.name == "kubeconfig").count(),
            1
        );
        assert!(f.imports.iter().any(|v| v.dynamic && v.name == "${name}"));
        assert!(
            f.warnings
                .iter()
                .any(|w| w.message.contains("imported again"))
        );
    }

    #[test]
    fn return_in_task_and_deprecated_return_setting_warn() {
        let f = parse("*** Tasks ***\nT\n    RETURN\n*** Keywords ***\nK\n    [Return]    x\n");
        assert_eq!(names(&f), vec!["T"]);
        assert!(
            f.warnings
                .iter()
                .any(|w| w.message.contains("RETURN can only be used"))
        );
        assert!(
            f.warnings
                .iter()
                .any(|w| w.message.contains("[Return] is deprecated"))
        );
    }

    #[test]
    fn placeholder_names_tabs_crlf_and_unknown_sections() {
        let text = "*** Tasks ***\r\n${TASK_TITLE}\r\n\tLog\tx\r\nGet $${X} Logs\r\n    Log    y\r\n*** Nonsense ***\r\nNot A Task\r\n";
        let f = parse(text);
        assert_eq!(names(&f), vec!["${TASK_TITLE}", "Get $${X} Logs"]);
        assert!(
            f.warnings
                .iter()
                .any(|w| w.message.contains("unrecognised section header"))
        );
    }

    #[test]
    fn empty_and_garbage_input_never_panics() {
        assert!(parse("").tasks.is_empty());
        assert!(parse("\u{feff}").tasks.is_empty());
        let garbage: String = (0..2000u32)
            .map(|i| char::from_u32((i * 7919) % 0x2FFF + 1).unwrap_or('x'))
            .collect();
        let _ = parse(&garbage);
        let _ = parse("*\n...\n|\n| |\n...    ...\n*** Tasks ***\n...\n    ...\n");
    }
}
