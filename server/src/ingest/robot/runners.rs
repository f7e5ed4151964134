//! BuiltIn keywords that run another keyword named in their arguments
//! (`Run Keyword If    ${cond}    Add Note    ${id}`). Robot Framework calls the
//! named keyword, so a bundle that reaches a library keyword only through such a
//! runner is one of its callers; without this, a question about such a keyword
//! found its definition but none of the bundles that use it.

use super::model::{CallSite, normalize};

/// Where the run keyword's name sits among a runner's arguments.
enum Runs {
    /// The argument at this index, its own arguments after it.
    At(usize),
    /// `Run Keyword If` / `Unless`: after the condition, plus `ELSE IF` / `ELSE`
    /// branches.
    Branches,
    /// `Run Keywords`: every argument, or the groups between `AND`s.
    Each,
}

/// The runner named `name` (with or without `BuiltIn.`), if it is one.
fn runner(name: &str) -> Option<Runs> {
    let n = normalize(name);
    let n = n.strip_prefix("builtin.").unwrap_or(&n);
    Some(match n {
        "runkeyword"
        | "runkeywordandignoreerror"
        | "runkeywordandreturnstatus"
        | "runkeywordandcontinueonfailure"
        | "runkeywordandwarnonfailure"
        | "runkeywordandreturn"
        | "runkeywordiftestfailed"
        | "runkeywordiftestpassed"
        | "runkeywordiftimeoutoccurred"
        | "runkeywordifalltestspassed"
        | "runkeywordifanytestsfailed" => Runs::At(0),
        "runkeywordandexpecterror" | "runkeywordandreturnif" | "repeatkeyword" => Runs::At(1),
        "waituntilkeywordsucceeds" => Runs::At(2),
        "runkeywordif" | "runkeywordunless" => Runs::Branches,
        "runkeywords" => Runs::Each,
        _ => return None,
    })
}

/// The calls a runner site makes, each at the runner's line; empty for any
/// other keyword. A name held in a variable (`${kw}`) is not followed.
pub fn run_by(site: &CallSite) -> Vec<CallSite> {
    let Some(runs) = runner(&site.name) else {
        return Vec::new();
    };
    let call = |name: &str, args: &[String]| CallSite {
        name: name.trim().to_string(),
        line: site.line,
        args: args.to_vec(),
        assigns: Vec::new(),
    };
    let a = &site.args;
    let mut out = Vec::new();
    match runs {
        Runs::At(i) => {
            if let Some(name) = a.get(i) {
                out.push(call(name, &a[i + 1..]));
            }
        }
        Runs::Branches => {
            // cond KW args… [ELSE IF cond KW args…]… [ELSE KW args…]
            let mut i = 1;
            while i < a.len() {
                let end = (i + 1..a.len())
                    .find(|&j| a[j] == "ELSE" || a[j] == "ELSE IF")
                    .unwrap_or(a.len());
                out.push(call(&a[i], &a[i + 1..end]));
                i = match a.get(end).map(String::as_str) {
                    Some("ELSE IF") => end + 2,
                    Some(_) => end + 1,
                    None => break,
                };
            }
        }
        Runs::Each => {
            if a.iter().any(|x| x == "AND") {
                for group in a.split(|x| x == "AND") {
                    if let Some((name, rest)) = group.split_first() {
                        out.push(call(name, rest));
                    }
                }
            } else {
                out.extend(a.iter().map(|name| call(name, &[])));
            }
        }
    }
    out.retain(|c| !c.name.is_empty() && !c.name.starts_with(['$', '@', '&', '%']));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(name: &str, args: &[&str]) -> CallSite {
        CallSite {
            name: name.into(),
            line: 7,
            args: args.iter().map(|s| s.to_string()).collect(),
            assigns: Vec::new(),
        }
    }

    fn names(s: &CallSite) -> Vec<(String, Vec<String>)> {
        run_by(s).into_iter().map(|c| (c.name, c.args)).collect()
    }

    #[test]
    fn runners_name_the_keyword_they_run() {
        let v = |x: &[&str]| x.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            names(&site(
                "Run Keyword If",
                &["'${K}' != ''", "Add Note", "${id}"]
            )),
            vec![("Add Note".into(), v(&["${id}"]))]
        );
        assert_eq!(
            names(&site(
                "BuiltIn.Run Keyword If",
                &["${a}", "A", "ELSE IF", "${b}", "B", "x", "ELSE", "C"]
            )),
            vec![
                ("A".into(), v(&[])),
                ("B".into(), v(&["x"])),
                ("C".into(), v(&[]))
            ]
        );
        assert_eq!(
            names(&site("run_keyword_and_ignore_error", &["Import Key"])),
            vec![("Import Key".into(), v(&[]))]
        );
        assert_eq!(
            names(&site(
                "Wait Until Keyword Succeeds",
                &["3x", "5s", "RW.CLI.Run Cli", "cmd=ls"]
            )),
            vec![("RW.CLI.Run Cli".into(), v(&["cmd=ls"]))]
        );
        assert_eq!(
            names(&site("Run Keywords", &["A", "x", "AND", "B"])),
            vec![("A".into(), v(&["x"])), ("B".into(), v(&[]))]
        );
        assert_eq!(
            names(&site("Run Keywords", &["A", "B"])),
            vec![("A".into(), v(&[])), ("B".into(), v(&[]))]
        );
        assert!(names(&site("Run Keyword", &["${kw}"])).is_empty());
        assert!(names(&site("Log", &["Run Keyword"])).is_empty());
        assert_eq!(
            site("Run Keyword If", &["${c}", "A"]).line,
            run_by(&site("Run Keyword If", &["${c}", "A"]))[0].line
        );
    }
}
