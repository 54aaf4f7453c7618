//! `sim list [GAME]`: the games, their policies, and every rule with its default, its allowed
//! range and its meaning.

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
    let headers = ["rule", "default", "allowed", "meaning"].map(String::from);
    let rows: Vec<Vec<String>> = rule_rows::<G::Rules>()
        .into_iter()
        .map(|r| vec![r.path, r.default, r.allowed, r.meaning])
        .collect();
    for line in table(&headers, &rows, 4).lines() {
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
        Value::String(_) => choices::<R>(path).unwrap_or_else(|| "-".to_string()),
        _ => "-".to_string(),
    }
}

/// The words rule `path` takes, as the error for a word it does not take names them.
fn choices<R: RuleSet>(path: &str) -> Option<String> {
    let err = rules::load::<R>(None, &[format!("{path}=?")])
        .err()?
        .to_string();
    let (_, expected) = err.rsplit_once("expected ")?;
    let words = expected.split(", got").next()?.replace('`', "");
    Some(words.trim().to_string())
}
