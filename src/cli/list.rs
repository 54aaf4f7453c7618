//! `sim list [GAME]`: the games, their policies, and every rule with its default, its allowed
//! range, the values `sim explore` tries and its meaning.

use std::fmt::Write;

use toml::Value;

use crate::games::Game;
use crate::report::tables::table;
use crate::rules::{self, Range, RuleSet};

/// The listing of one game: its policies, then one row per rule.
pub fn describe<G: Game>() -> String {
    let mut s = format!("{}: {}\n  policies:\n", G::NAME, G::ABOUT);
    for p in G::policies() {
        let _ = writeln!(s, "    {:<16} {}", p.name, p.about);
    }
    s.push_str(
        "  rules (change with --set PATH=VALUE or --rules FILE.toml; a range that depends on another rule is given at that rule's default):\n",
    );
    let headers = ["rule", "default", "allowed", "explore tries", "meaning"].map(String::from);
    let tried = crate::explore::plan::plan(&<G::Rules>::default());
    let rows: Vec<Vec<String>> = rule_rows::<G::Rules>()
        .into_iter()
        .map(|r| {
            let tries = tried
                .iter()
                .find(|(p, _)| *p == r.path)
                .and_then(|(_, t)| t.as_ref().ok())
                .map_or("-".to_string(), |v| v.join(","));
            vec![r.path, r.default, r.allowed, tries, r.meaning]
        })
        .collect();
    for line in table(&headers, &rows, 5).lines() {
        let _ = writeln!(s, "  {line}");
    }
    s
}

/// One rule as `sim list` shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleRow {
    /// Its path, as `--set` takes it.
    pub path: String,
    /// Its default (the rulings).
    pub default: String,
    /// The values its validation allows: `1..=20`, `finite or infinite`, `true or false`.
    pub allowed: String,
    /// What it means; empty if the game does not say.
    pub meaning: String,
}

/// Every rule of `R` with its default, allowed values and meaning, in the rules' order.
pub fn rule_rows<R: RuleSet>() -> Vec<RuleRow> {
    let defaults = R::default();
    let ranges = rules::ranges(&defaults);
    rules::leaves(&defaults.to_table())
        .into_iter()
        .map(|(path, value)| RuleRow {
            allowed: allowed::<R>(&path, &value, &ranges),
            meaning: meaning::<R>(&path).unwrap_or_default().to_string(),
            default: rules::shown(&value),
            path,
        })
        .collect()
}

/// What rule `path` means: its own entry in `R::MEANINGS`, else its table's.
pub fn meaning<R: RuleSet>(path: &str) -> Option<&'static str> {
    let find = |p: &str| R::MEANINGS.iter().find(|(k, _)| *k == p).map(|(_, m)| *m);
    find(path).or_else(|| find(path.rsplit_once('.')?.0))
}

/// The values rule `path` (now `value`) may take: the range its validation checks (for a list,
/// each element's), the two of a flag, or the choices the rules' reader names for a word.
fn allowed<R: RuleSet>(path: &str, value: &Value, ranges: &[Range]) -> String {
    let element = format!("{path}[");
    if let Some(r) = ranges.iter().find(|r| r.field == path) {
        return format!("{}..={}", r.min, r.max);
    }
    if let Some(r) = ranges.iter().find(|r| r.field.starts_with(&element)) {
        return format!("{}..={} each", r.min, r.max);
    }
    match value {
        Value::Boolean(_) => "true or false".to_string(),
        Value::String(_) => rules::choices_text::<R>(path).unwrap_or_else(|| "-".to_string()),
        _ => "-".to_string(),
    }
}
