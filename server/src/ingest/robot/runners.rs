//! BuiltIn keywords that run another keyword named in their arguments
//! (`Run Keyword If    ${cond}    Add Note    ${id}`). Robot Framework calls the
//! named keyword, so a bundle that reaches a library keyword only through such a
//! runner is one of its callers; without this, a question about such a keyword
//! found its definition but none of the bundles that use it.

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

/// The runner with this normalised name (with or without `BuiltIn.`), if it is one.
fn runner(normalized: &str) -> Option<Runs> {
    let n = normalized.strip_prefix("builtin.").unwrap_or(normalized);
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

/// The keywords a call runs, each with its own arguments, when the call is a
/// runner (`normalized` is its name after Robot's normalisation: no case, spaces
/// or underscores); empty for any other keyword. A name held in a variable
/// (`${kw}`) is not followed. Takes plain names so that the robot model, which
/// expands calls, depends on this file and not the other way round.
pub fn run_by(normalized: &str, a: &[String]) -> Vec<(String, Vec<String>)> {
    let Some(runs) = runner(normalized) else {
        return Vec::new();
    };
    let call = |name: &str, args: &[String]| (name.trim().to_string(), args.to_vec());
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
    out.retain(|(name, _)| !name.is_empty() && !name.starts_with(['$', '@', '&', '%']));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(name: &str, args: &[&str]) -> Vec<(String, Vec<String>)> {
        let n: String = name
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '_')
            .flat_map(char::to_lowercase)
            .collect();
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        run_by(&n, &args)
    }

    #[test]
    fn runners_name_the_keyword_they_run() {
        let v = |x: &[&str]| x.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            names("Run Keyword If", &["'${K}' != ''", "Add Note", "${id}"]),
            vec![("Add Note".into(), v(&["${id}"]))]
        );
        assert_eq!(
            names(
                "BuiltIn.Run Keyword If",
                &["${a}", "A", "ELSE IF", "${b}", "B", "x", "ELSE", "C"]
            ),
            vec![
                ("A".into(), v(&[])),
                ("B".into(), v(&["x"])),
                ("C".into(), v(&[]))
            ]
        );
        assert_eq!(
            names("run_keyword_and_ignore_error", &["Import Key"]),
            vec![("Import Key".into(), v(&[]))]
        );
        assert_eq!(
            names(
                "Wait Until Keyword Succeeds",
                &["3x", "5s", "RW.CLI.Run Cli", "cmd=ls"]
            ),
            vec![("RW.CLI.Run Cli".into(), v(&["cmd=ls"]))]
        );
        assert_eq!(
            names("Run Keywords", &["A", "x", "AND", "B"]),
            vec![("A".into(), v(&["x"])), ("B".into(), v(&[]))]
        );
        assert_eq!(
            names("Run Keywords", &["A", "B"]),
            vec![("A".into(), v(&[])), ("B".into(), v(&[]))]
        );
        assert!(names("Run Keyword", &["${kw}"]).is_empty());
        assert!(names("Log", &["Run Keyword"]).is_empty());
    }
}
