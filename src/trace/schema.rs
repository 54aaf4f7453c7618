//! The layout of the JSON lines as text: every line type, event and field with its JSON type,
//! one per line, sorted. `docs/trace-schema.txt` holds it for [`super::SCHEMA_VERSION`]; a test
//! fails when the two differ, so a change of layout comes with a new version.

use std::collections::BTreeSet;

use serde_json::Value;

/// Adds the fields of game `game`'s JSON lines `lines` to `into`, one entry each as
/// `game kind.field: type` (kind: the line's type, and for an event its name; nested objects as
/// `kind.field.inner`; a list's items as `kind.field[]`). A line that is not JSON is `?`.
pub fn describe(game: &str, lines: &[String], into: &mut BTreeSet<String>) {
    for line in lines {
        let value = serde_json::from_str(line).unwrap_or(Value::Null);
        let mut fields = BTreeSet::new();
        describe_line(&value, &mut fields);
        into.extend(fields.into_iter().map(|f| format!("{game} {f}")));
    }
}

fn describe_line(line: &Value, into: &mut BTreeSet<String>) {
    let kind = match (line.get("type"), line.get("event")) {
        (Some(Value::String(t)), Some(Value::String(e))) => format!("{t}.{e}"),
        (Some(Value::String(t)), _) => t.clone(),
        _ => "?".into(),
    };
    if let Value::Object(fields) = line {
        for (name, value) in fields {
            describe_value(&format!("{kind}.{name}"), value, into);
        }
    }
}

fn describe_value(path: &str, value: &Value, into: &mut BTreeSet<String>) {
    match value {
        // The rules are the game's own (their fields are `sim list`'s), not the trace's layout.
        Value::Object(_) if path == "header.rules" => {
            into.insert(format!("{path}: object"));
        }
        Value::Object(fields) => {
            into.insert(format!("{path}: object"));
            for (name, inner) in fields {
                describe_value(&format!("{path}.{name}"), inner, into);
            }
        }
        Value::Array(items) => {
            into.insert(format!("{path}: list"));
            for item in items {
                describe_value(&format!("{path}[]"), item, into);
            }
        }
        other => {
            into.insert(format!("{path}: {}", json_type(other)));
        }
    }
}

fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "list",
        Value::Object(_) => "object",
    }
}
