use super::ConfigArgs;
use crate::config::{Config, setting_docs};
use anyhow::Context;

pub fn run(config: &Config, args: &ConfigArgs) -> anyhow::Result<()> {
    if args.list {
        let current = serde_json::to_value(config)?;
        for doc in setting_docs() {
            let value = lookup(&current, doc.key)
                .map(render)
                .unwrap_or_else(|| "(unset)".into());
            println!(
                "{}\n    env: {}\n    default: {}\n    current: {}\n    {}\n",
                doc.key,
                doc.env_var(),
                doc.default,
                value,
                doc.description
            );
        }
    } else if args.json {
        println!("{}", serde_json::to_string_pretty(config)?);
    } else {
        print!(
            "{}",
            toml::to_string_pretty(config).context("cannot render the configuration")?
        );
    }
    Ok(())
}

fn lookup<'a>(v: &'a serde_json::Value, key: &str) -> Option<&'a serde_json::Value> {
    key.split('.')
        .try_fold(v, |v, part| v.get(part))
        .filter(|v| !v.is_null())
}

fn render(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}
