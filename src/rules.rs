//! Rules as data: defaults, TOML files and `--set path=value` overrides, for any game.
//!
//! A game's rules are a serde struct whose `Default` is the rulings. Loading starts from the
//! defaults as a TOML table, lays a file over it, then each `--set`, and only then deserializes and
//! validates, so an error names the field whatever its source.

use std::path::Path;

use serde::Serialize;
use serde::de::DeserializeOwned;
use toml::{Table, Value};

use crate::error::{Result, SimError, plain};

/// A game's rule parameters.
pub trait RuleSet: Serialize + DeserializeOwned + Default + Clone + Send + Sync {
    /// Checks every field against its allowed range; the error names the field and the range.
    fn validate(&self) -> Result<()>;

    /// The rules as one line of JSON, as written into every results file.
    fn to_json(&self) -> String {
        serde_json::to_string(self).expect("rules serialize to JSON")
    }

    /// The rules as a TOML table.
    fn to_table(&self) -> Table {
        Table::try_from(self).expect("rules serialize to TOML")
    }

    /// What each rule means, for `sim list`: (path, meaning), a nested rule's meaning under its
    /// own path (`guard_damage.king`) or its table's (`guard_damage`).
    const MEANINGS: &'static [(&'static str, &'static str)] = &[];
}

/// A rule's allowed range as its validation checks it: the field as the check names it and
/// both ends, as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Range {
    /// The field as [`check_range`] names it (`guard_damage.king`, `counts[0] (value 1)`).
    pub field: String,
    /// The lowest value allowed.
    pub min: String,
    /// The highest value allowed.
    pub max: String,
}

thread_local! {
    /// The ranges [`check_range`] met while [`ranges`] validates, if it is listening.
    static HEARD: std::cell::RefCell<Option<Vec<Range>>> = const { std::cell::RefCell::new(None) };
}

/// Every range `rules`' validation checks, in the order it checks them: the ranges its error
/// messages state, with the other rules at `rules`' values (a range that depends on another
/// rule, such as `start_hp` up to `max_hp`, is that rule's in `rules`).
pub fn ranges<R: RuleSet>(rules: &R) -> Vec<Range> {
    HEARD.with(|h| *h.borrow_mut() = Some(Vec::new()));
    let _ = rules.validate();
    HEARD.with(|h| h.borrow_mut().take().unwrap_or_default())
}

/// An error unless `value` lies in `min..=max`, naming `field` and the allowed range.
pub fn check_range<T: PartialOrd + std::fmt::Display>(
    field: &str,
    value: T,
    min: T,
    max: T,
) -> Result<()> {
    HEARD.with(|h| {
        if let Some(heard) = h.borrow_mut().as_mut() {
            heard.push(Range {
                field: field.to_string(),
                min: min.to_string(),
                max: max.to_string(),
            });
        }
    });
    if value < min || value > max {
        return Err(SimError::input(format!(
            "rule {field} = {value} is out of range: allowed {min}..={max}"
        )));
    }
    Ok(())
}

/// Reads the TOML file at `path` (rules or a strategy file) into `T`. A file that cannot be read
/// fails with `action` and the path; a malformed one with the file, line and column.
/// A file that is not a regular one (a device, a pipe, a folder) or is larger than
/// [`MAX_TOML_BYTES`] is refused unread.
pub fn read_toml<T: serde::de::DeserializeOwned>(path: &Path, action: &'static str) -> Result<T> {
    let text = read_small_text(path, action)?;
    toml::from_str(&text).map_err(|e| SimError::toml(path, &text, &e))
}

/// The most bytes a rules or strategy file may hold: far more than any real one (a few hundred
/// bytes), a guard against reading a wrong path, such as a log or an endless device, for ever.
pub const MAX_TOML_BYTES: u64 = 1 << 20;

/// The text of the regular file `path`, of at most [`MAX_TOML_BYTES`]; refused with `action`
/// and the path otherwise.
fn read_small_text(path: &Path, action: &'static str) -> Result<String> {
    use std::io::Read;
    let io = |source| SimError::Io {
        action,
        path: path.to_path_buf(),
        source,
    };
    let refuse = |why: String| SimError::input(format!("{action} {}: {why}", path.display()));
    // Looked at before opening: opening a pipe would wait for a writer.
    let kind = std::fs::metadata(path).map_err(io)?.file_type();
    if !kind.is_file() {
        return Err(refuse(format!(
            "it is {}, not a regular file",
            file_kind(&kind)
        )));
    }
    let mut text = String::new();
    std::fs::File::open(path)
        .map_err(io)?
        .take(MAX_TOML_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(io)?;
    if text.len() as u64 > MAX_TOML_BYTES {
        return Err(refuse(format!(
            "larger than {} KiB; a rules or strategy file is a few lines of TOML",
            MAX_TOML_BYTES / 1024
        )));
    }
    Ok(text)
}

/// What a file that is not a regular one is, in words.
fn file_kind(kind: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_dir() {
        "a folder"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_fifo() {
        "a pipe"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "a special file"
    }
}

/// The rules from the defaults, an optional TOML file, and `path=value` overrides, validated.
pub fn load<R: RuleSet>(file: Option<&Path>, sets: &[String]) -> Result<R> {
    let mut table = R::default().to_table();
    let in_file = |path: &Path, e: &dyn std::fmt::Display| {
        SimError::input(format!("rules file {}: {e}", path.display()))
    };
    if let Some(path) = file {
        let overlay: Table = read_toml(path, "cannot read rules file")?;
        overlay_table(&mut table, overlay, "").map_err(|e| in_file(path, &e))?;
        // Types are checked here too, so an error in the file names the file.
        deserialize::<R>(&table).map_err(|e| in_file(path, &e))?;
    }
    let from_file = table.clone();
    for set in sets {
        apply_set(&mut table, set)?;
    }
    from_table(table).map_err(|e| match file {
        // A value the file alone already makes wrong is the file's.
        Some(path) if from_table::<R>(from_file).is_err_and(|f| f.to_string() == e.to_string()) => {
            in_file(path, &e)
        }
        _ => e,
    })
}

/// The words rule `path` takes, as the error for a word it does not take names them:
/// `finite or infinite`, `one of keep, shuffle, reshuffle`.
pub fn choices_text<R: RuleSet>(path: &str) -> Option<String> {
    let err = load::<R>(None, &[format!("{path}=?")]).err()?.to_string();
    let (_, expected) = err.rsplit_once("expected ")?;
    let words = expected.split(", got").next()?.replace('`', "");
    Some(words.trim().to_string())
}

/// The words rule `path` takes, each alone: `finite`, `infinite`.
pub fn choices<R: RuleSet>(path: &str) -> Option<Vec<String>> {
    let text = choices_text::<R>(path)?;
    let text = text.strip_prefix("one of ").unwrap_or(&text);
    let words: Vec<String> = text
        .split([',', ' '])
        .map(str::trim)
        .filter(|w| !w.is_empty() && *w != "or")
        .map(String::from)
        .collect();
    (!words.is_empty()).then_some(words)
}

/// Deserializes and validates rules from a complete table.
pub fn from_table<R: RuleSet>(table: Table) -> Result<R> {
    let rules = deserialize::<R>(&table).map_err(SimError::input)?;
    rules.validate()?;
    Ok(rules)
}

/// Applies one `path=value` override (a dotted path into the rules) to `table`.
pub fn apply_set(table: &mut Table, set: &str) -> Result<()> {
    let (path, raw) = set.split_once('=').ok_or_else(|| {
        SimError::input(format!(
            "--set {set}: expected path=value, for example guard_zone=3"
        ))
    })?;
    let value = parse_value(raw.trim());
    set_path(table, path.trim(), value)
}

/// Sets the existing field at dotted `path` to `value`, or names the path as unknown.
pub fn set_path(table: &mut Table, path: &str, value: Value) -> Result<()> {
    let mut parts = path.split('.').peekable();
    let mut here = table;
    while let Some(key) = parts.next() {
        let known = here.keys().cloned().collect::<Vec<_>>().join(", ");
        let slot = here
            .get_mut(key)
            .ok_or_else(|| SimError::input(format!("unknown rule {path}: known here: {known}")))?;
        if parts.peek().is_none() {
            if slot.is_table() {
                return Err(SimError::input(format!(
                    "rule {path} is a table: set one of its fields ({})",
                    slot.as_table().map(field_names).unwrap_or_default()
                )));
            }
            *slot = value;
            return Ok(());
        }
        here = slot
            .as_table_mut()
            .ok_or_else(|| SimError::input(format!("unknown rule {path}: {key} has no fields")))?;
    }
    Err(SimError::input("empty rule path"))
}

/// A command-line value as TOML: an integer, float, boolean, or else a bare string.
pub fn parse_value(raw: &str) -> Value {
    toml::from_str::<Table>(&format!("v = {raw}"))
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| Value::String(raw.to_string()))
}

fn field_names(table: &Table) -> String {
    table.keys().cloned().collect::<Vec<_>>().join(", ")
}

fn overlay_table(base: &mut Table, overlay: Table, prefix: &str) -> Result<()> {
    for (key, value) in overlay {
        let path = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}.{key}")
        };
        let known = field_names(base);
        let slot = base
            .get_mut(&key)
            .ok_or_else(|| SimError::input(format!("unknown rule {path}: known here: {known}")))?;
        match (slot, value) {
            (Value::Table(inner), Value::Table(v)) => overlay_table(inner, v, &path)?,
            (slot, v) => *slot = v,
        }
    }
    Ok(())
}

/// The error message of loading `R` with the overrides `sets` (tests of each game's rules).
#[cfg(test)]
pub fn load_error<R: RuleSet + std::fmt::Debug>(sets: &[&str]) -> String {
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    load::<R>(None, &sets).unwrap_err().to_string()
}

/// The rules of a complete table, or what is wrong with it: the rule whose value has the wrong
/// type, the type it needs and the value it got.
fn deserialize<R: RuleSet>(table: &Table) -> std::result::Result<R, String> {
    Value::Table(table.clone())
        .try_into()
        .map_err(|e: toml::de::Error| match wrong_leaf::<R>(table) {
            Some((path, value, message)) => {
                named_values::<R>(&path, &value).unwrap_or_else(|| explain(&path, &value, &message))
            }
            None => format!("bad rules: {}", plain(e.message())),
        })
}

/// For a rule of named values (`deck`: "finite" or "infinite") given a value that is no text:
/// the rule and the values it takes, as the deserializer lists them for an unknown name.
fn named_values<R: RuleSet>(path: &str, value: &Value) -> Option<String> {
    if value.is_str() {
        return None;
    }
    let defaults = R::default().to_table();
    let (_, default) = leaves(&defaults).into_iter().find(|(p, _)| p == path)?;
    if !default.is_str() {
        return None;
    }
    let mut probe = defaults;
    set_path(&mut probe, path, Value::String("\u{1}".into())).ok()?;
    let err = Value::Table(probe).try_into::<R>().err()?;
    let expected = err.message().split_once("expected ")?.1.trim();
    let expected = expected.strip_prefix("one of ").unwrap_or(expected);
    Some(format!(
        "rule {path} takes {}, got {value}",
        expected.replace('`', "\"")
    ))
}

/// The first value of `table` (depth first, in key order) that the rules cannot take even when
/// every other value is the default's: its dotted path, the value and the deserializer's message.
fn wrong_leaf<R: RuleSet>(table: &Table) -> Option<(String, Value, String)> {
    let defaults = R::default().to_table();
    leaves(table).into_iter().find_map(|(path, value)| {
        let mut alone = defaults.clone();
        if let Err(e) = set_path(&mut alone, &path, value.clone()) {
            // A value where the rules have a table of fields.
            return Some((path, value, e.to_string()));
        }
        let err = Value::Table(alone).try_into::<R>().err()?;
        Some((path, value, err.message().trim().to_string()))
    })
}

/// The values of a rules table with their dotted paths (`guard_damage.king`), depth first in key
/// order: what `--set PATH=VALUE` flags would set.
pub fn leaves(table: &Table) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    collect_leaves(table, "", &mut out);
    out
}

/// The rules of `rules` that differ from the defaults (the rulings), as (path, value) in the
/// form `--set PATH=VALUE` takes, depth first in key order; empty for the default rules.
pub fn changed<R: RuleSet>(rules: &R) -> Vec<(String, String)> {
    let defaults = leaves(&R::default().to_table());
    leaves(&rules.to_table())
        .into_iter()
        .filter(|(path, value)| !defaults.iter().any(|(p, v)| p == path && v == value))
        .map(|(path, value)| (path, shown(&value)))
        .collect()
}

/// A rule's value as `--set` takes it: a string without its quotes, anything else as TOML.
pub fn shown(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn collect_leaves(table: &Table, prefix: &str, out: &mut Vec<(String, Value)>) {
    for (key, value) in table {
        let path = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}.{key}")
        };
        match value {
            Value::Table(inner) => collect_leaves(inner, &path, out),
            leaf => out.push((path, leaf.clone())),
        }
    }
}

/// The error for rule `path` set to `value`: serde's "invalid type: string "abc", expected u8"
/// becomes "rule start_hp expects u8 (a whole number from 0 to 255), got string "abc"".
fn explain(path: &str, value: &Value, message: &str) -> String {
    let parts = ["invalid type: ", "invalid value: "]
        .iter()
        .find_map(|prefix| message.strip_prefix(prefix))
        .and_then(|rest| rest.rsplit_once(", expected "));
    match parts {
        Some((got, expected)) => plain(&format!(
            "rule {path} expects {}, got {got}",
            describe(expected)
        )),
        None if message.starts_with("rule ") => format!("{message}, got {value}"),
        None => plain(&format!("rule {path} = {value}: {message}")),
    }
}

/// A Rust type name as serde gives it, with what it means for a rules file.
fn describe(expected: &str) -> String {
    let whole = |signed: bool, bits: &str| -> Option<(i128, i128)> {
        let bits: u32 = bits.parse().ok().filter(|b| (8..=64).contains(b))?;
        Some(if signed {
            (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
        } else {
            (0, (1i128 << bits) - 1)
        })
    };
    let range = match expected.split_at_checked(1) {
        Some(("u", bits)) => whole(false, bits),
        Some(("i", bits)) => whole(true, bits),
        _ => None,
    };
    match range {
        Some((min, max)) => format!("{expected} (a whole number from {min} to {max})"),
        None if matches!(expected, "f32" | "f64") => format!("{expected} (a number)"),
        None => expected.to_string(),
    }
}
