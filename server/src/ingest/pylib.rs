//! Keyword libraries: the Python packages under `libraries/` that robot files
//! import by dotted name. A line-based reader (no Python at run time) finds module
//! functions, classes and their public methods, `@keyword` names, docstrings, and
//! the names a package's `__init__.py` re-exports, then resolves a library the way
//! Robot does: a class named like the module is the library, otherwise the module's
//! public functions are.

use serde::{Deserialize, Serialize};
use std::collections::HashMap;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PyFunction {
    pub name: String,
    /// `@keyword("Custom Name")` overrides the derived name.
    pub keyword_name: Option<String>,
    pub args: String,
    pub doc: String,
    pub line: usize,
    pub not_keyword: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PyClass {
    pub name: String,
    pub doc: String,
    pub line: usize,
    pub methods: Vec<PyFunction>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PyModule {
    pub functions: Vec<PyFunction>,
    pub classes: Vec<PyClass>,
    /// `from <module> import <names>`; `names == ["*"]` for a star import.
    pub imports: Vec<(String, Vec<(String, String)>)>,
    pub all: Option<Vec<String>>,
}

/// Robot's printable name for code-style names: `summarize_pod_restarts` →
/// "Summarize Pod Restarts", `getHostName` → "Get Host Name".
pub fn keyword_name(python: &str) -> String {
    let s = python.replace('_', " ");
    let mut parts: Vec<String> = s.split_whitespace().map(str::to_string).collect();
    if parts.len() == 1
        && !(s.chars().all(char::is_alphabetic) && s.chars().all(|c| !c.is_uppercase()))
    {
        parts = split_camel(&parts[0]);
    }
    parts
        .into_iter()
        .map(|p| {
            let mut c = p.chars();
            match c.next() {
                Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn split_camel(s: &str) -> Vec<String> {
    let chars: Vec<char> = s.chars().collect();
    let mut tokens = Vec::new();
    let mut token = String::new();
    for i in 0..chars.len() {
        let prev = if i == 0 { ' ' } else { chars[i - 1] };
        let c = chars[i];
        let next = chars.get(i + 1).copied().unwrap_or(' ');
        let boundary = if prev.is_ascii_digit() {
            !c.is_ascii_digit()
        } else if c.is_uppercase() {
            next.is_lowercase() || (prev.is_alphabetic() && !prev.is_uppercase())
        } else {
            c.is_ascii_digit()
        };
        if boundary && !token.is_empty() {
            tokens.push(std::mem::take(&mut token));
        }
        token.push(c);
    }
    if !token.is_empty() {
        tokens.push(token);
    }
    tokens
}

fn indent_of(line: &str) -> usize {
    line.chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .map(|c| if c == '\t' { 4 } else { 1 })
        .sum()
}

/// Reads a module's top-level structure.
pub fn parse_module(text: &str) -> PyModule {
    let lines: Vec<&str> = text.lines().collect();
    let mut module = PyModule::default();
    // (indent of the class line, indent of its body, the class)
    let mut class_stack: Option<(usize, usize, PyClass)> = None;
    let mut decorators: Vec<String> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim();
        let indent = indent_of(line);
        if trimmed.is_empty() || trimmed.starts_with('#') {
            i += 1;
            continue;
        }
        // Leaving a class body.
        if class_stack.as_ref().is_some_and(|(ci, _, _)| indent <= *ci)
            && let Some((_, _, class)) = class_stack.take()
        {
            module.classes.push(class);
        }
        let in_class_body = class_stack.is_some();
        let method_level = class_stack.as_ref().map(|(_, body, _)| *body);

        if trimmed.starts_with('@') && (indent == 0 || Some(indent) == method_level) {
            decorators.push(trimmed.to_string());
            i += 1;
            continue;
        }
        let is_def = trimmed.starts_with("def ") || trimmed.starts_with("async def ");
        if is_def && (indent == 0 || (in_class_body && Some(indent) == method_level)) {
            let (func, next) = read_function(&lines, i, std::mem::take(&mut decorators));
            match class_stack.as_mut() {
                Some((_, _, class)) if in_class_body => class.methods.push(func),
                _ => module.functions.push(func),
            }
            i = next;
            continue;
        }
        decorators.clear();
        if indent == 0 && trimmed.starts_with("class ") {
            let name = trimmed[6..]
                .split(['(', ':'])
                .next()
                .unwrap_or("")
                .trim()
                .to_string();
            let (doc, _) = docstring(&lines, i + 1);
            // The first statement of the body sets its indentation.
            let body = lines[i + 1..]
                .iter()
                .find(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
                .map_or(4, |l| indent_of(l));
            class_stack = Some((
                0,
                body,
                PyClass {
                    name,
                    doc,
                    line: i + 1,
                    methods: Vec::new(),
                },
            ));
            i += 1;
            continue;
        }
        if indent == 0 && trimmed.starts_with("from ") && trimmed.contains(" import ") {
            let (stmt, next) = logical_line(&lines, i);
            if let Some((m, names)) = stmt.trim_start_matches("from ").split_once(" import ") {
                let names = names.trim().trim_start_matches('(').trim_end_matches(')');
                let list = names
                    .split(',')
                    .map(|n| n.trim())
                    .filter(|n| !n.is_empty())
                    .map(|n| match n.split_once(" as ") {
                        Some((a, b)) => (a.trim().to_string(), b.trim().to_string()),
                        None => (n.to_string(), n.to_string()),
                    })
                    .collect();
                module.imports.push((m.trim().to_string(), list));
            }
            i = next;
            continue;
        }
        if indent == 0 && trimmed.starts_with("__all__") {
            let (stmt, next) = logical_line(&lines, i);
            if let Some((_, rhs)) = stmt.split_once('=') {
                module.all = Some(
                    rhs.split([',', '[', ']', '(', ')'])
                        .map(|s| s.trim().trim_matches(|c| c == '"' || c == '\'').to_string())
                        .filter(|s| !s.is_empty())
                        .collect(),
                );
            }
            i = next;
            continue;
        }
        i += 1;
    }
    if let Some((_, _, class)) = class_stack.take() {
        module.classes.push(class);
    }
    module
}

/// Joins a statement spread over lines by open brackets.
fn logical_line(lines: &[&str], start: usize) -> (String, usize) {
    let mut depth: i32 = 0;
    let mut out = String::new();
    let mut i = start;
    while i < lines.len() {
        let l = lines[i].split('#').next().unwrap_or("");
        for c in l.chars() {
            match c {
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => depth -= 1,
                _ => {}
            }
        }
        out.push_str(l.trim());
        out.push(' ');
        i += 1;
        if depth <= 0 && !l.trim_end().ends_with('\\') {
            break;
        }
    }
    (out.trim().to_string(), i)
}

fn read_function(lines: &[&str], start: usize, decorators: Vec<String>) -> (PyFunction, usize) {
    let (sig, next) = logical_line(lines, start);
    let sig = sig.trim_start_matches("async ").trim_start_matches("def ");
    let name = sig.split('(').next().unwrap_or("").trim().to_string();
    let args = sig
        .find('(')
        .and_then(|open| {
            sig.rfind(')')
                .map(|close| sig[open + 1..close].trim().to_string())
        })
        .unwrap_or_default();
    let (doc, _) = docstring(lines, next);
    let mut func = PyFunction {
        name,
        args,
        doc,
        line: start + 1,
        ..Default::default()
    };
    for d in decorators {
        let d = d.trim_start_matches('@');
        if d.starts_with("not_keyword") {
            func.not_keyword = true;
        } else if d.starts_with("keyword") {
            // @keyword("Name"), @keyword(name="Name"), or bare @keyword
            if let Some(q) = d.find(['"', '\'']) {
                let quote = d.as_bytes()[q] as char;
                if let Some(end) = d[q + 1..].find(quote) {
                    let kw = &d[q + 1..q + 1 + end];
                    if !kw.is_empty() {
                        func.keyword_name = Some(kw.to_string());
                    }
                }
            }
        }
    }
    (func, next)
}

/// The docstring starting at the first statement from `from`, if it is a string.
fn docstring(lines: &[&str], from: usize) -> (String, usize) {
    let Some(i) = (from..lines.len()).find(|&i| !lines[i].trim().is_empty()) else {
        return (String::new(), from);
    };
    let first = lines[i].trim();
    let body = first.trim_start_matches(['r', 'R', 'u', 'U', 'b', 'B']);
    for quote in ["\"\"\"", "'''"] {
        if let Some(rest) = body.strip_prefix(quote) {
            if let Some(end) = rest.find(quote) {
                return (rest[..end].trim().to_string(), i + 1);
            }
            let mut doc = vec![rest.to_string()];
            let mut j = i + 1;
            while j < lines.len() {
                if let Some(end) = lines[j].find(quote) {
                    doc.push(lines[j][..end].to_string());
                    return (clean_doc(&doc), j + 1);
                }
                doc.push(lines[j].to_string());
                j += 1;
            }
            return (clean_doc(&doc), j);
        }
    }
    for quote in ['"', '\''] {
        if let Some(rest) = body.strip_prefix(quote)
            && let Some(end) = rest.find(quote)
        {
            return (rest[..end].to_string(), i + 1);
        }
    }
    (String::new(), from)
}

/// Python's `inspect.cleandoc`: strip the common indentation of lines after the first.
fn clean_doc(lines: &[String]) -> String {
    let margin = lines
        .iter()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| indent_of(l))
        .min()
        .unwrap_or(0);
    let mut out: Vec<String> = Vec::new();
    for (k, l) in lines.iter().enumerate() {
        if k == 0 {
            out.push(l.trim().to_string());
        } else {
            out.push(
                l.chars()
                    .skip(margin)
                    .collect::<String>()
                    .trim_end()
                    .to_string(),
            );
        }
    }
    while out.first().is_some_and(|l| l.is_empty()) {
        out.remove(0);
    }
    while out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
    }
    out.join("\n")
}

/// One keyword as Robot shows it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Keyword {
    pub library: String,
    pub name: String,
    pub python_name: String,
    pub class_name: Option<String>,
    pub args: String,
    pub doc: String,
    /// File relative to the collection root, and the `def` line.
    pub file: String,
    pub line: usize,
}

/// All parsed modules of one collection's `libraries/` tree, keyed by dotted name
/// (`RW.KubeTriage` for `libraries/RW/KubeTriage/__init__.py`,
/// `RW.KubeTriage.kube_triage` for `.../kube_triage.py`).
#[derive(Default)]
pub struct LibraryTree {
    pub modules: HashMap<String, (String, PyModule)>,
}

impl LibraryTree {
    pub fn add_file(&mut self, rel: &str, text: &str) {
        let Some(inner) = rel.strip_prefix("libraries/") else {
            return;
        };
        let Some(stem) = inner.strip_suffix(".py") else {
            return;
        };
        let dotted = stem.trim_end_matches("/__init__").replace('/', ".");
        self.modules
            .insert(dotted, (rel.to_string(), parse_module(text)));
    }

    /// The modules a robot file would import as libraries, sorted: not a private
    /// module (`_test_log_filter`, any dotted part starting with `_`) nor a test
    /// module or package (`test_parsers`, `parsers_test`, `tests`, `conftest`). Their functions are helpers of the
    /// library's own tests, and listed as keywords they answered questions about
    /// what bundles can call ("K 8 Slog" from a test case class).
    pub fn public_libraries(&self) -> Vec<&String> {
        let private = |part: &str| {
            part.starts_with('_')
                || part.starts_with("test_")
                || part.ends_with("_test")
                || matches!(part, "test" | "tests" | "conftest")
        };
        let mut libs: Vec<&String> = self
            .modules
            .keys()
            .filter(|l| !l.split('.').any(private))
            .collect();
        libs.sort();
        libs
    }

    /// Resolves `Library    RW.KubeTriage` to its keywords, or `None` when the
    /// library is not in this tree (external, e.g. `RW.Core`).
    pub fn keywords(&self, library: &str) -> Option<Vec<Keyword>> {
        let (file, module) = self.modules.get(library)?;
        let last = library.rsplit('.').next().unwrap_or(library);
        let mut names: HashMap<String, Exported> = HashMap::new();
        self.namespace(library, file, module, &mut names, 0);
        let mut out = Vec::new();
        if let Some(Exported::Class(class, file)) = names.get(last) {
            for m in &class.methods {
                if let Some(k) = keyword(library, m, Some(&class.name), file) {
                    out.push(k);
                }
            }
        } else {
            let mut entries: Vec<_> = names.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            for (_, e) in entries {
                if let Exported::Function(f, file) = e
                    && let Some(k) = keyword(library, &f, None, &file)
                {
                    out.push(k);
                }
            }
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        out.dedup_by(|a, b| a.name == b.name);
        Some(out)
    }

    /// The public names visible in a module: its own definitions plus what it
    /// imports from sibling modules (followed a few levels deep).
    fn namespace(
        &self,
        dotted: &str,
        file: &str,
        module: &PyModule,
        out: &mut HashMap<String, Exported>,
        depth: usize,
    ) {
        let allowed = |name: &str| {
            module
                .all
                .as_ref()
                .map_or(!name.starts_with('_'), |all| all.iter().any(|a| a == name))
        };
        for f in &module.functions {
            if allowed(&f.name) {
                out.insert(
                    f.name.clone(),
                    Exported::Function(f.clone(), file.to_string()),
                );
            }
        }
        for c in &module.classes {
            if allowed(&c.name) {
                out.insert(c.name.clone(), Exported::Class(c.clone(), file.to_string()));
            }
        }
        if depth > 3 {
            return;
        }
        let package = if file.ends_with("__init__.py") {
            dotted.to_string()
        } else {
            dotted
                .rsplit_once('.')
                .map_or(String::new(), |(p, _)| p.to_string())
        };
        for (from, names) in &module.imports {
            let target = if let Some(rel) = from.strip_prefix('.') {
                let mut base = package.clone();
                let mut rest = rel;
                while let Some(r) = rest.strip_prefix('.') {
                    base = base
                        .rsplit_once('.')
                        .map_or(String::new(), |(p, _)| p.to_string());
                    rest = r;
                }
                if rest.is_empty() {
                    base
                } else if base.is_empty() {
                    rest.to_string()
                } else {
                    format!("{base}.{rest}")
                }
            } else {
                from.clone()
            };
            let Some((tfile, tmod)) = self.modules.get(&target) else {
                continue;
            };
            let mut inner = HashMap::new();
            self.namespace(&target, tfile, tmod, &mut inner, depth + 1);
            if names.len() == 1 && names[0].0 == "*" {
                for (k, v) in inner {
                    if allowed(&k) {
                        out.insert(k, v);
                    }
                }
            } else {
                for (orig, alias) in names {
                    if let Some(v) = inner.remove(orig)
                        && !alias.starts_with('_')
                    {
                        out.insert(alias.clone(), v);
                    }
                }
            }
        }
    }
}

#[derive(Clone)]
enum Exported {
    Function(PyFunction, String),
    Class(PyClass, String),
}

fn keyword(library: &str, f: &PyFunction, class: Option<&str>, file: &str) -> Option<Keyword> {
    if f.not_keyword || f.name.starts_with('_') {
        return None;
    }
    Some(Keyword {
        library: library.to_string(),
        name: f
            .keyword_name
            .clone()
            .unwrap_or_else(|| keyword_name(&f.name)),
        python_name: f.name.clone(),
        class_name: class.map(str::to_string),
        args: f
            .args
            .trim_start_matches("self")
            .trim_start_matches(',')
            .trim()
            .to_string(),
        doc: f.doc.clone(),
        file: file.to_string(),
        line: f.line,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_like_robot() {
        assert_eq!(keyword_name("run_bash_file"), "Run Bash File");
        assert_eq!(keyword_name("camelCaseName"), "Camel Case Name");
        assert_eq!(keyword_name("mixedCAPSCamel"), "Mixed CAPS Camel");
        assert_eq!(keyword_name("simple"), "Simple");
    }

    const MODULE: &str = r#"
import json
from robot.api.deco import keyword

class KubeTriage:
    """Helpers for pod triage."""

    ROBOT_LIBRARY_SCOPE = "GLOBAL"

    def __init__(self):
        self.x = 1

    def summarize_pod_restarts(self, pods_json: str,
                               threshold: int = 3) -> dict:
        """Summarise restarts.

        Returns a table, worst first.
        """
        def inner():
            pass
        return {}

    @keyword("Find Crashing Containers")
    def find_crash(self, pods_json):
        '''One-line doc.'''
        return []

    def _private(self):
        pass

def helper():
    """Module function."""
"#;

    #[test]
    fn class_named_like_the_module_is_the_library() {
        let mut tree = LibraryTree::default();
        tree.add_file("libraries/RW/KubeTriage/kube_triage.py", MODULE);
        tree.add_file(
            "libraries/RW/KubeTriage/__init__.py",
            "from .kube_triage import KubeTriage\n",
        );
        let kws = tree.keywords("RW.KubeTriage").unwrap();
        let names: Vec<&str> = kws.iter().map(|k| k.name.as_str()).collect();
        assert_eq!(
            names,
            vec!["Find Crashing Containers", "Summarize Pod Restarts"]
        );
        let s = &kws[1];
        assert_eq!(
            s.doc,
            "Summarise restarts.\n\nReturns a table, worst first."
        );
        assert!(s.args.starts_with("pods_json: str"), "{}", s.args);
        assert_eq!(s.file, "libraries/RW/KubeTriage/kube_triage.py");
        assert!(
            tree.keywords("RW.Core").is_none(),
            "not in the tree: external"
        );
    }

    #[test]
    fn module_functions_when_no_matching_class() {
        let mut tree = LibraryTree::default();
        tree.add_file("libraries/RW/Notify/__init__.py", "from .chat import *\n");
        tree.add_file(
            "libraries/RW/Notify/chat.py",
            "def send_chat_message(url, text):\n    \"\"\"Posts.\"\"\"\n\ndef _sign():\n    pass\n",
        );
        let kws = tree.keywords("RW.Notify").unwrap();
        assert_eq!(kws.len(), 1);
        assert_eq!(kws[0].name, "Send Chat Message");
        assert_eq!(kws[0].doc, "Posts.");
    }

    #[test]
    fn private_and_test_modules_are_not_libraries() {
        let mut tree = LibraryTree::default();
        for f in [
            "libraries/RW/Notify/__init__.py",
            "libraries/RW/Notify/chat.py",
            "libraries/RW/Notify/_test_chat.py",
            "libraries/RW/Notify/test_chat.py",
            "libraries/RW/Notify/chat_test.py",
            "libraries/RW/_Internal/__init__.py",
            "libraries/RW/Notify/tests/__init__.py",
            "libraries/RW/Notify/conftest.py",
        ] {
            tree.add_file(f, "def send(url):\n    pass\n");
        }
        assert_eq!(tree.public_libraries(), vec!["RW.Notify", "RW.Notify.chat"]);
    }
}
