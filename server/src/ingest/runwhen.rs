//! RunWhen metadata around the robot files: generation rules, SLX/runbook templates,
//! the generated SKILL-TEMPLATE.md and meta.yaml. Rules are facts about discovery;
//! the SKILL template and meta.yaml are hints that never override robot tags.

use super::Warning;
use serde::{Deserialize, Serialize};
use serde_norway::Value;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GenerationRules {
    pub file: String,
    pub platform: Option<String>,
    pub resource_types: Vec<String>,
    pub levels_of_detail: Vec<String>,
    pub output_items: Vec<String>,
}

fn get<'a>(v: &'a Value, key: &str) -> Option<&'a Value> {
    v.as_mapping()?.get(Value::String(key.to_string()))
}

fn strings(v: Option<&Value>) -> Vec<String> {
    match v {
        Some(Value::Sequence(items)) => items.iter().filter_map(scalar).collect(),
        Some(other) => scalar(other).into_iter().collect(),
        None => Vec::new(),
    }
}

fn scalar(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.trim().to_string()).filter(|s| !s.is_empty()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// Any file under `.runwhen/generation-rules/` (extension or not).
pub fn generation_rules(
    rel: &str,
    text: &str,
    warnings: &mut Vec<Warning>,
) -> Option<GenerationRules> {
    let doc: Value = match serde_norway::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            let line = e.location().map(|l| l.line());
            warnings.push(Warning::new(
                rel,
                line,
                format!("generation rules are not valid YAML: {e}"),
            ));
            return None;
        }
    };
    let spec = get(&doc, "spec")?;
    let mut out = GenerationRules {
        file: rel.to_string(),
        platform: get(spec, "platform")
            .and_then(scalar)
            .map(|p| p.to_lowercase()),
        ..Default::default()
    };
    if let Some(Value::Sequence(rules)) = get(spec, "generationRules") {
        for rule in rules {
            for t in strings(get(rule, "resourceTypes")) {
                if !out.resource_types.contains(&t) {
                    out.resource_types.push(t);
                }
            }
            if let Some(Value::Sequence(slxs)) = get(rule, "slxs") {
                for slx in slxs {
                    if let Some(l) = get(slx, "levelOfDetail").and_then(scalar)
                        && !out.levels_of_detail.contains(&l)
                    {
                        out.levels_of_detail.push(l);
                    }
                    if let Some(Value::Sequence(items)) = get(slx, "outputItems") {
                        for item in items {
                            if let Some(t) = get(item, "type").and_then(scalar)
                                && !out.output_items.contains(&t)
                            {
                                out.output_items.push(t);
                            }
                        }
                    }
                }
            }
        }
    }
    Some(out)
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TemplateHints {
    /// Platforms named by included auth snippets (`kubernetes-auth.yaml` → kubernetes).
    pub auth: Vec<String>,
    /// The SLX `access` tag, when present.
    pub access: Option<String>,
}

/// Templates are Jinja around YAML, so they are scanned as text, not parsed.
pub fn template_hints(text: &str) -> TemplateHints {
    let mut hints = TemplateHints::default();
    for (snippet, platform) in [
        ("azure-devops-auth", "azure_devops"),
        ("kubernetes-auth", "kubernetes"),
        ("azure-auth", "azure"),
        ("gcp-auth", "gcp"),
        ("aws-auth", "aws"),
    ] {
        let mut rest = text;
        while let Some(i) = rest.find(snippet) {
            // `azure-auth` must not match inside `azure-devops-auth`.
            let before = rest[..i].chars().last();
            if !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-')
                && !hints.auth.contains(&platform.to_string())
            {
                hints.auth.push(platform.to_string());
            }
            rest = &rest[i + snippet.len()..];
        }
    }
    hints.access = access_tag(text);
    hints
}

/// `- name: access` / `value: read-only` (the real shape) or `access: read-only`.
fn access_tag(text: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let l = line.trim().trim_start_matches('-').trim();
        let clean = |v: &str| {
            v.trim()
                .trim_matches(|c| c == '"' || c == '\'')
                .trim()
                .to_lowercase()
        };
        if let Some(v) = l.strip_prefix("access:") {
            let v = clean(v);
            if v == "read-only" || v == "read-write" {
                return Some(v);
            }
        }
        if (l.replace(' ', "").trim_matches(|c| c == '"' || c == '\'') == "name:access"
            || l.replace(['"', '\'', ' '], "") == "name:access")
            && let Some(next) = lines.get(i + 1)
            && let Some(v) = next
                .trim()
                .trim_start_matches('-')
                .trim()
                .strip_prefix("value:")
        {
            let v = clean(v);
            if v == "read-only" || v == "read-write" {
                return Some(v);
            }
        }
    }
    None
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ManifestHints {
    pub source: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub platforms: Vec<String>,
    pub resource_types: Vec<String>,
    pub access: Option<String>,
    pub tags: Vec<String>,
}

/// The YAML front matter of SKILL-TEMPLATE.md.
pub fn skill_template(rel: &str, text: &str, warnings: &mut Vec<Warning>) -> Option<ManifestHints> {
    let body = text.trim_start_matches('\u{feff}');
    let rest = body.strip_prefix("---")?;
    let end = rest.find("\n---")?;
    let doc: Value = match serde_norway::from_str(&rest[..end]) {
        Ok(v) => v,
        Err(e) => {
            warnings.push(Warning::new(
                rel,
                e.location().map(|l| l.line() + 1),
                format!("front matter is not valid YAML ({e}); read line by line instead"),
            ));
            lenient_front_matter(&rest[..end])
        }
    };
    Some(ManifestHints {
        source: rel.to_string(),
        title: get(&doc, "name").and_then(scalar),
        description: get(&doc, "description").and_then(scalar),
        platforms: strings(get(&doc, "platforms")),
        resource_types: strings(get(&doc, "resource_types")),
        access: get(&doc, "access")
            .and_then(scalar)
            .map(|a| a.to_lowercase()),
        tags: Vec::new(),
    })
}

/// Generated front matter often has unquoted colons in its description; read the
/// top-level `key: value` and `key: [a, b]` lines as strings and lists.
fn lenient_front_matter(text: &str) -> Value {
    let mut map = serde_norway::Mapping::new();
    for line in text.lines() {
        if line.starts_with([' ', '\t', '-', '#']) {
            continue;
        }
        let Some((k, v)) = line.split_once(':') else {
            continue;
        };
        let v = v.trim();
        let value = if let Some(inner) = v.strip_prefix('[').and_then(|x| x.strip_suffix(']')) {
            Value::Sequence(
                inner
                    .split(',')
                    .map(|i| Value::String(i.trim().trim_matches(['"', '\'']).to_string()))
                    .collect(),
            )
        } else {
            Value::String(v.trim_matches(['"', '\'']).to_string())
        };
        map.insert(Value::String(k.trim().to_string()), value);
    }
    Value::Mapping(map)
}

/// meta.yaml: the `kind: CodeBundle` manifest (other flavours yield nothing useful).
pub fn meta_yaml(rel: &str, text: &str, warnings: &mut Vec<Warning>) -> Option<ManifestHints> {
    let doc: Value = match serde_norway::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            warnings.push(Warning::new(
                rel,
                e.location().map(|l| l.line()),
                format!("not valid YAML: {e}"),
            ));
            return None;
        }
    };
    let meta = get(&doc, "metadata").unwrap_or(&doc);
    let spec = get(&doc, "spec");
    let hints = ManifestHints {
        source: rel.to_string(),
        title: get(meta, "title")
            .or_else(|| get(meta, "name"))
            .and_then(scalar),
        description: get(meta, "description")
            .or_else(|| spec.and_then(|s| get(s, "description")))
            .and_then(scalar),
        platforms: strings(spec.and_then(|s| get(s, "platforms"))),
        resource_types: Vec::new(),
        access: None,
        tags: strings(get(meta, "tags").or_else(|| get(&doc, "tags"))),
    };
    (hints.title.is_some() || hints.description.is_some() || !hints.tags.is_empty())
        .then_some(hints)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generation_rules_fields() {
        let y = "kind: GenerationRules\nspec:\n  platform: Azure\n  generationRules:\n    - resourceTypes:\n        - azure_keyvault_keyvault\n      slxs:\n        - baseName: kv\n          levelOfDetail: detailed\n          outputItems:\n            - type: slx\n            - type: runbook\n";
        let mut w = Vec::new();
        let r = generation_rules("x", y, &mut w).unwrap();
        assert_eq!(r.platform.as_deref(), Some("azure"));
        assert_eq!(r.resource_types, vec!["azure_keyvault_keyvault"]);
        assert_eq!(r.levels_of_detail, vec!["detailed"]);
        assert_eq!(r.output_items, vec!["slx", "runbook"]);
        assert!(generation_rules("y", "spec: [unclosed", &mut w).is_none());
        assert_eq!(w.len(), 1);
    }

    #[test]
    fn template_access_and_auth() {
        let t = "    {% include \"azure-devops-auth.yaml\" %}\n  tags:\n    - name: access\n      value: read-only \n";
        let h = template_hints(t);
        assert_eq!(h.auth, vec!["azure_devops"]);
        assert_eq!(h.access.as_deref(), Some("read-only"));
        assert_eq!(
            template_hints("tags:\n  access: 'read-write'\n")
                .access
                .as_deref(),
            Some("read-write")
        );
    }

    #[test]
    fn skill_front_matter() {
        let md = "---\nname: k8s-x\nkind: skill-template\ndescription: Does x\nplatforms: [Kubernetes, Chaos]\nresource_types: [deployment]\naccess: read-only\n---\n# Body\n";
        let h = skill_template("SKILL-TEMPLATE.md", md, &mut Vec::new()).unwrap();
        assert_eq!(h.platforms, vec!["Kubernetes", "Chaos"]);
        assert_eq!(h.access.as_deref(), Some("read-only"));
        let broken = "---\nname: x\ndescription: Checks cost: daily and weekly\nplatforms: [AWS]\naccess: read-only\n---\n";
        let mut w = Vec::new();
        let h = skill_template("S.md", broken, &mut w).unwrap();
        assert_eq!(
            h.description.as_deref(),
            Some("Checks cost: daily and weekly")
        );
        assert_eq!(h.platforms, vec!["AWS"]);
        assert_eq!(w.len(), 1, "still reported");
    }
}
