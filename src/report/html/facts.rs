//! What every section of a report states about its result: the game, the rules that differ
//! from the defaults, the policies, the seed, the games, the sim version and the command.

use serde_json::Value;

use crate::games::Game;
use crate::games::seats::Table;
use crate::rules::RuleSet;

use super::command::CommandLine;

/// What the report knows of a game that its files do not say.
#[derive(Clone, Copy, Debug)]
pub struct GameFacts {
    /// The game's name.
    pub name: &'static str,
    /// How its seats relate.
    pub table: Table,
    /// Its default rules as JSON (as the files write rules).
    pub default_rules: fn() -> String,
}

impl GameFacts {
    /// The facts of game `G`.
    pub fn of<G: Game>() -> Self {
        Self {
            name: G::NAME,
            table: G::TABLE,
            default_rules: default_rules::<G>,
        }
    }
}

fn default_rules<G: Game>() -> String {
    G::Rules::default().to_json()
}

/// The provenance block of a section.
#[derive(Clone, Debug, PartialEq)]
pub struct Facts {
    /// The game.
    pub game: String,
    /// The rules that differ from the game's defaults, as (rule, value).
    pub rules: Vec<(String, String)>,
    /// The policies, as the files name them.
    pub policies: Vec<String>,
    /// The seed, or how the result was made without one (an exact solve).
    pub seed: String,
    /// The games played, in words.
    pub games: String,
    /// The sim versions that wrote the files.
    pub version: String,
    /// A command that makes the same files, as the words a shell reads.
    pub command: Vec<String>,
    /// Anything the reader must know first (a run stopped early).
    pub warnings: Vec<String>,
}

impl Facts {
    /// The facts of a result of `game`, with the command `command` made it with; the rest is
    /// filled in by the caller.
    pub fn new(game: &str, command: &CommandLine) -> Self {
        Self {
            game: game.to_string(),
            rules: Vec::new(),
            policies: Vec::new(),
            seed: String::new(),
            games: String::new(),
            version: String::new(),
            command: command.shell_words(),
            warnings: Vec::new(),
        }
    }
}

/// The rules of `effective` (JSON, as the files write them) that differ from `defaults`, as
/// (dotted rule path, value as `--set` takes it), in path order. Rules named in `skip` (a
/// sweep's varied ones) are left out.
pub fn changed_rules(effective: &str, defaults: &str, skip: &[String]) -> Vec<(String, String)> {
    let parse = |text: &str| serde_json::from_str::<Value>(text).unwrap_or(Value::Null);
    let (mut now, mut before) = (Vec::new(), Vec::new());
    leaves(&parse(effective), "", &mut now);
    leaves(&parse(defaults), "", &mut before);
    now.into_iter()
        .filter(|(path, value)| {
            !skip.contains(path) && !before.iter().any(|(p, v)| p == path && v == value)
        })
        .map(|(path, value)| (path, set_value(&value)))
        .collect()
}

/// The leaves of a JSON object as (dotted path, value), depth first in key order.
fn leaves(value: &Value, prefix: &str, out: &mut Vec<(String, Value)>) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                let path = if prefix.is_empty() {
                    key.clone()
                } else {
                    format!("{prefix}.{key}")
                };
                leaves(inner, &path, out);
            }
        }
        leaf => out.push((prefix.to_string(), leaf.clone())),
    }
}

/// A rule's value as `--set` reads it back: a bare word for plain text, else TOML (which JSON
/// numbers, booleans, arrays and quoted strings are).
fn set_value(value: &Value) -> String {
    match value {
        Value::String(s)
            if !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') =>
        {
            s.clone()
        }
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::crownfall::Crownfall;
    use crate::rules;

    #[test]
    fn changed_rules_are_the_leaves_that_differ_and_set_them_back() {
        let defaults = (GameFacts::of::<Crownfall>().default_rules)();
        let sets = ["guard_damage.king=2".to_string(), "start_hp=12".to_string()];
        let rules: crate::games::crownfall::Rules = rules::load(None, &sets).unwrap();
        let changed = changed_rules(&rules.to_json(), &defaults, &[]);
        assert_eq!(
            changed,
            [
                ("guard_damage.king".to_string(), "2".to_string()),
                ("start_hp".to_string(), "12".to_string())
            ]
        );
        let back: Vec<String> = changed.iter().map(|(p, v)| format!("{p}={v}")).collect();
        let again: crate::games::crownfall::Rules = rules::load(None, &back).unwrap();
        assert_eq!(again.to_json(), rules.to_json());
        assert!(changed_rules(&defaults, &defaults, &[]).is_empty());
        let skipped = changed_rules(&rules.to_json(), &defaults, &["start_hp".to_string()]);
        assert_eq!(skipped.len(), 1);
    }

    #[test]
    fn text_arrays_and_numbers_read_back_as_set_values() {
        assert_eq!(set_value(&serde_json::json!("strict")), "strict");
        assert_eq!(set_value(&serde_json::json!("two words")), "\"two words\"");
        assert_eq!(set_value(&serde_json::json!([1, 2])), "[1,2]");
        assert_eq!(set_value(&serde_json::json!(0.5)), "0.5");
        assert_eq!(set_value(&serde_json::json!(true)), "true");
    }
}
