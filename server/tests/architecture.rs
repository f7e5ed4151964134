//! The house stays easy to walk: no two files of the server or the app import each
//! other, directly or round a loop, and nothing below the edges (`web`, `mcp`,
//! `cli`) reaches up into one of them. Read from the source with the same rules a
//! reader follows: `crate::a::b` and `super::x` name the file of the longest module
//! path that exists; a module's own declarations and re-exports of its children are
//! not imports; test modules are left out. See ARCHITECTURE.md for the layers.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Each file's module path (`agent/turn.rs` → `agent::turn`; `mod.rs` and `lib.rs`
/// name their directory) and its source without the test module.
fn modules(src: &Path) -> BTreeMap<Module, (bool, String)> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut out = BTreeMap::new();
    for f in files {
        let rel = f.strip_prefix(src).unwrap().with_extension("");
        let mut parts: Module = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let is_dir_module = matches!(parts.last().map(String::as_str), Some("mod" | "lib"));
        if is_dir_module || parts == ["main"] {
            parts.pop();
        }
        let text = std::fs::read_to_string(&f).unwrap();
        let text = match text.find("#[cfg(test)]") {
            Some(i) => text[..i].to_string(),
            None => text,
        };
        out.entry(parts).or_insert((is_dir_module, text));
    }
    out
}

fn imports(mods: &BTreeMap<Module, (bool, String)>) -> BTreeMap<Module, BTreeSet<Module>> {
    let path_re = regex::Regex::new(r"\b(crate|super)((?:::\w+)+)").unwrap();
    let resolve = |path: &[String]| -> Option<Module> {
        (1..=path.len())
            .rev()
            .map(|n| path[..n].to_vec())
            .find(|m| mods.contains_key(m))
    };
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (m, (is_dir_module, text)) in mods {
        // The module `super` names from this file.
        let parent: Module = if *is_dir_module || m.is_empty() {
            m[..m.len().saturating_sub(1)].to_vec()
        } else {
            m[..m.len() - 1].to_vec()
        };
        for cap in path_re.captures_iter(text) {
            let segs: Vec<String> = cap[2]
                .trim_start_matches("::")
                .split("::")
                .map(str::to_string)
                .collect();
            let path: Module = if &cap[1] == "crate" {
                segs
            } else {
                let mut base = parent.clone();
                let mut rest = segs.as_slice();
                while rest.first().is_some_and(|s| s == "super") {
                    base.pop();
                    rest = &rest[1..];
                }
                base.extend(rest.iter().cloned());
                base
            };
            let Some(target) = resolve(&path) else {
                continue;
            };
            if &target == m || target.starts_with(m) {
                continue; // itself, or its own child (declarations, re-exports)
            }
            edges.entry(m.clone()).or_default().insert(target);
        }
    }
    edges
}

/// Strongly connected groups of more than one file (Tarjan).
fn loops(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<String>> {
    struct T<'a> {
        edges: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'a Module, usize>,
        low: BTreeMap<&'a Module, usize>,
        stack: Vec<&'a Module>,
        on: BTreeSet<&'a Module>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a Module) {
        let i = t.index.len();
        t.index.insert(v, i);
        t.low.insert(v, i);
        t.stack.push(v);
        t.on.insert(v);
        for w in t.edges.get(v).into_iter().flatten() {
            if !t.index.contains_key(w) {
                visit(t, w);
                let lw = t.low[w];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if t.on.contains(w) {
                let iw = t.index[w];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if t.low[v] == t.index[v] {
            let mut group = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on.remove(w);
                group.push(w.join("::"));
                if w == v {
                    break;
                }
            }
            if group.len() > 1 {
                t.out.push(group);
            }
        }
    }
    let mut t = T {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !t.index.contains_key(v) {
            visit(&mut t, v);
        }
    }
    t.out
}

fn crate_src(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(name)
        .join("src")
}

#[test]
fn no_file_imports_round_a_loop() {
    for krate in ["server", "app"] {
        let mods = modules(&crate_src(krate));
        assert!(mods.len() > 10, "{krate}: sources found");
        let found = loops(&imports(&mods));
        assert!(found.is_empty(), "{krate}: import loops {found:?}");
    }
}

/// The edges face the world; everything else is below them and never names them.
#[test]
fn nothing_below_the_edges_reaches_up() {
    let mods = modules(&crate_src("server"));
    let edges = imports(&mods);
    let is_edge = |m: &Module| {
        m.first()
            .is_some_and(|f| ["web", "mcp", "cli"].contains(&f.as_str()))
    };
    let mut upward = Vec::new();
    for (from, tos) in &edges {
        if from.is_empty() || is_edge(from) {
            continue;
        }
        for to in tos.iter().filter(|t| is_edge(t)) {
            upward.push(format!("{} -> {}", from.join("::"), to.join("::")));
        }
    }
    assert!(
        upward.is_empty(),
        "imports of an edge from below: {upward:?}"
    );
}

/// The checker itself: a planted loop is found.
#[test]
fn a_planted_loop_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::create_dir_all(src.join("a")).unwrap();
    std::fs::write(src.join("lib.rs"), "pub mod a;\npub mod b;\n").unwrap();
    std::fs::write(src.join("a/mod.rs"), "mod x;\nmod y;\npub use x::X;\n").unwrap();
    std::fs::write(src.join("a/x.rs"), "use super::y::Y;\npub struct X;\n").unwrap();
    std::fs::write(src.join("a/y.rs"), "use super::x::X;\npub struct Y;\n").unwrap();
    std::fs::write(
        src.join("b.rs"),
        "use crate::a::X;\n#[cfg(test)]\nuse crate::b;\n",
    )
    .unwrap();
    let found = loops(&imports(&modules(src)));
    assert_eq!(found.len(), 1, "{found:?}");
    let mut group = found[0].clone();
    group.sort();
    assert_eq!(group, vec!["a::x", "a::y"]);
}
