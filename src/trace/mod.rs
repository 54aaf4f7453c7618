//! `sim trace` and `sim play`: one game shown event by event, in words or as JSON lines, and
//! played by a person with a policy's advice. What every game shares is here and in
//! [`play`]; each game implements [`Traceable`] in its own folder (`src/games/<game>/trace.rs`).
//!
//! The JSON lines of a game (`docs/trace.md`): a header, the deal, one line per event with the
//! state after it, the outcome. [`SCHEMA_VERSION`] numbers their layout.

pub mod play;
pub mod schema;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use crate::error::{Result, SimError};
use crate::games::{ColumnData, Game, Record};
use crate::rules::RuleSet;

use play::Desk;

/// The version of the JSON lines' layout: raised whenever a field is added, removed, renamed or
/// changes type (a test checks the layout against `docs/trace-schema.txt`).
pub const SCHEMA_VERSION: u32 = 3;

/// A game traced: every event with the state after it, and the outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct Traced<S, O> {
    /// The events in order (the deal first).
    pub events: Vec<S>,
    /// The outcome, as the run's `--per-game` row reports it.
    pub outcome: O,
}

/// A game `sim trace` and `sim play` can show: its events in words and JSON, its deal, its
/// decisions replayed, and a person's play with hints.
pub trait Traceable: Game {
    /// An event with the state after it, as the engine reports it.
    type Seen: Copy + PartialEq + std::fmt::Debug + Serialize + DeserializeOwned;

    /// An error if this game's policies cannot sit at a table with a person or advise one;
    /// `sim play` refuses them by name.
    fn check_playable(&self) -> Result<()> {
        Ok(())
    }

    /// The name of the policy that advises the person in seat 0 at `sim play --hints`.
    fn adviser(&self) -> &str {
        self.policy_name()
    }

    /// Plays game `index` of a run seeded `seed` with the game's policy, as the run plays it,
    /// recording every event.
    fn trace(&self, seed: u64, index: u64) -> Traced<Self::Seen, Self::Outcome>;

    /// The whole deal of a traced game: every pile's order as dealt, reshuffles included, as a
    /// JSON object (the `deal` line).
    fn deal(events: &[Self::Seen]) -> Value;

    /// Replays a game from its `deal` line through the engine's stacked-deck entry, each
    /// decision taken from `events` (the recorded game's), and returns what the engine reports.
    fn replay(
        &self,
        deal: &Value,
        events: &[Self::Seen],
    ) -> Result<Traced<Self::Seen, Self::Outcome>>;

    /// Sets the outcome fields of a replayed game that the players report, not the game (who
    /// sat in which seat of a duel, a solver that ran out of time), from `recorded`, the
    /// record's outcome: a replay plays no policy, so it takes them as recorded, and checks the
    /// rest of the outcome against them. An error says which field is missing or wrong.
    fn take_recorded(_outcome: &mut Self::Outcome, _recorded: &Map<String, Value>) -> Result<()> {
        Ok(())
    }

    /// The event in words a player reads (`None` for an event with nothing to say).
    fn words(&self, seen: &Self::Seen) -> Option<String>;

    /// True for an event that is a decision (where `play --replay` pauses).
    fn is_decision(seen: &Self::Seen) -> bool;

    /// Game `index` of seed `seed` played by the person at `desk`: the table shown and the
    /// legal choices listed at each decision, with this game's policy's advice if `hints`.
    /// `None` if the person quit.
    fn play_person(
        &self,
        seed: u64,
        index: u64,
        hints: bool,
        desk: &mut dyn Desk,
    ) -> Option<Traced<Self::Seen, Self::Outcome>>;
}

/// The header line of a game's JSON lines.
pub fn header<G: Game>(game: &G, policy: &str, seed: u64, index: u64) -> Value {
    json!({
        "type": "header",
        "game": G::NAME,
        "rules": serde_json::to_value(game.rules()).expect("rules serialize to JSON"),
        "policy": policy,
        "seed": seed,
        "index": index,
        "version": env!("CARGO_PKG_VERSION"),
        "schema": SCHEMA_VERSION,
    })
}

/// The outcome as named columns, in the game's column order: the game's `--per-game` row.
pub fn outcome_row<O: Record>(outcome: &O) -> Vec<(&'static str, Value)> {
    O::columns(std::slice::from_ref(outcome))
        .into_iter()
        .map(|(name, column)| {
            let value = match column {
                ColumnData::U32(v) => json!(v[0]),
                ColumnData::I32(v) => json!(v[0]),
                ColumnData::Bool(v) => json!(v[0]),
                ColumnData::Str(v) => json!(v[0]),
            };
            (name, value)
        })
        .collect()
}

/// The outcome fields that time the players (Regicide's search players' CPU time): they differ
/// from run to run, so a replay, which does not search, is not compared on them.
pub const TIMING_FIELDS: &[&str] = &["search_us"];

/// The boolean outcome field `name` of a record's outcome, for [`Traceable::take_recorded`].
pub fn recorded_flag(recorded: &Map<String, Value>, name: &str) -> Result<bool> {
    recorded
        .get(name)
        .and_then(Value::as_bool)
        .ok_or_else(|| SimError::input(format!("the outcome's {name}: expected true or false")))
}

/// The outcome's row as a JSON object, without its [`TIMING_FIELDS`].
pub fn untimed_fields(fields: &Map<String, Value>) -> Map<String, Value> {
    let mut fields = fields.clone();
    for name in TIMING_FIELDS {
        fields.remove(*name);
    }
    fields
}

/// The outcome's row as a JSON object.
pub fn outcome_fields<O: Record>(outcome: &O) -> Map<String, Value> {
    outcome_row(outcome)
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
}

/// The outcome in words: `name value` for every column.
pub fn outcome_words<O: Record>(outcome: &O) -> String {
    let parts: Vec<String> = outcome_row(outcome)
        .into_iter()
        .map(|(k, v)| match v {
            Value::String(s) if s.is_empty() => format!("{k} -"),
            Value::String(s) => format!("{k} {s}"),
            other => format!("{k} {other}"),
        })
        .collect();
    format!(
        "{}: {}",
        if outcome.won() { "WON" } else { "LOST" },
        parts.join(", ")
    )
}

/// The JSON lines of a traced game: header, deal, events, outcome.
pub fn json_lines<G: Traceable>(
    game: &G,
    policy: &str,
    seed: u64,
    index: u64,
    traced: &Traced<G::Seen, G::Outcome>,
) -> Vec<String> {
    let mut lines = vec![header(game, policy, seed, index).to_string()];
    let mut deal = Map::new();
    deal.insert("type".into(), json!("deal"));
    if let Value::Object(fields) = G::deal(&traced.events) {
        deal.extend(fields);
    }
    lines.push(Value::Object(deal).to_string());
    for (n, seen) in traced.events.iter().enumerate() {
        let mut line = Map::new();
        line.insert("type".into(), json!("event"));
        line.insert("n".into(), json!(n));
        if let Value::Object(fields) = serde_json::to_value(seen).expect("events serialize") {
            line.extend(fields);
        }
        lines.push(Value::Object(line).to_string());
    }
    let mut end = Map::new();
    end.insert("type".into(), json!("outcome"));
    end.extend(outcome_fields(&traced.outcome));
    lines.push(Value::Object(end).to_string());
    lines
}

/// A traced game in words: one line per event that has words, then the outcome.
pub fn text_lines<G: Traceable>(game: &G, traced: &Traced<G::Seen, G::Outcome>) -> Vec<String> {
    let mut lines: Vec<String> = traced.events.iter().filter_map(|s| game.words(s)).collect();
    lines.push(outcome_words(&traced.outcome));
    lines
}

/// A game read back from its JSON lines.
#[derive(Clone, Debug)]
pub struct Log<S> {
    /// The header line.
    pub header: Value,
    /// The deal line.
    pub deal: Value,
    /// The events.
    pub events: Vec<S>,
    /// Each event's line as read (its `type` and `n` removed): a replay compares it with the
    /// replayed event written out, so a line the event reader would read past (a field it
    /// ignores, a number in another spelling) is not taken for the same event.
    pub event_lines: Vec<Value>,
    /// The outcome line (its `type` removed).
    pub outcome: Map<String, Value>,
}

/// Reads a game's JSON lines written for game `G`; `what` names the source in errors.
pub fn read_log<G: Traceable>(text: &str, what: &str) -> Result<Log<G::Seen>> {
    let bad = |n: usize, msg: &str| SimError::input(format!("{what} line {n}: {msg}"));
    let mut header = None;
    let mut deal = None;
    let mut events = Vec::new();
    let mut event_lines = Vec::new();
    let mut outcome = None;
    for (i, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let n = i + 1;
        let value: Value =
            serde_json::from_str(line).map_err(|e| bad(n, &format!("not JSON: {e}")))?;
        let Value::Object(mut fields) = value else {
            return Err(bad(n, "not a JSON object"));
        };
        let kind = fields.remove("type");
        let kind = kind.as_ref().and_then(Value::as_str);
        // One header, then one deal, the events, one outcome: nothing out of place or twice.
        let seen = match kind {
            Some("header") => header.is_some(),
            Some("deal") => deal.is_some() || header.is_none(),
            Some("event") => deal.is_none(),
            Some("outcome") => outcome.is_some() || deal.is_none(),
            _ => false,
        } || (outcome.is_some() && kind != Some("outcome"));
        if seen {
            let kind = kind.unwrap_or("?");
            return Err(bad(
                n,
                &format!(
                    "a {kind} line out of place: a record is one header, one deal, its events, one outcome"
                ),
            ));
        }
        match kind {
            Some("header") => {
                if fields.get("game").and_then(Value::as_str) != Some(G::NAME) {
                    return Err(bad(n, &format!("not a {} game", G::NAME)));
                }
                let schema = fields.get("schema").and_then(Value::as_u64);
                if schema != Some(u64::from(SCHEMA_VERSION)) {
                    return Err(bad(
                        n,
                        &format!("schema {schema:?}: this sim reads schema {SCHEMA_VERSION}"),
                    ));
                }
                for key in ["seed", "index"] {
                    if !fields.get(key).is_some_and(Value::is_u64) {
                        let got = fields.get(key).map_or("nothing".into(), Value::to_string);
                        return Err(bad(
                            n,
                            &format!("{key} {got}: not a whole number from 0 to 2^64-1"),
                        ));
                    }
                }
                if !fields.get("policy").is_some_and(Value::is_string) {
                    return Err(bad(n, "policy: not a name"));
                }
                header = Some(Value::Object(fields));
            }
            Some("deal") => deal = Some(Value::Object(fields)),
            Some("event") => {
                let number = fields.remove("n");
                if number.as_ref().and_then(Value::as_u64) != Some(events.len() as u64) {
                    let got = number.map_or("nothing".into(), |v| v.to_string());
                    return Err(bad(
                        n,
                        &format!(
                            "event number {got}: the record's events are numbered 0, 1, 2, ... in order, so this one is {}",
                            events.len()
                        ),
                    ));
                }
                let line = Value::Object(fields);
                let seen = serde_json::from_value(line.clone())
                    .map_err(|e| bad(n, &format!("not an event: {e}")))?;
                events.push(seen);
                event_lines.push(line);
            }
            Some("outcome") => outcome = Some(fields),
            _ => return Err(bad(n, "no known \"type\"")),
        }
    }
    let missing = |part: &str| SimError::input(format!("{what}: no {part} line"));
    Ok(Log {
        header: header.ok_or_else(|| missing("header"))?,
        deal: deal.ok_or_else(|| missing("deal"))?,
        events,
        event_lines,
        outcome: outcome.ok_or_else(|| missing("outcome"))?,
    })
}

/// The rules of a log's header, checked.
pub fn log_rules<R: RuleSet>(header: &Value) -> Result<R> {
    let rules: R = serde_json::from_value(header.get("rules").cloned().unwrap_or(Value::Null))
        .map_err(|e| SimError::input(format!("the record's rules: {e}")))?;
    rules.validate()?;
    Ok(rules)
}

/// Checks that the deal line `deal` holds the cards a deal under `game`'s rules holds: for each
/// group of `piles` (keys of the deal line), the cards of those piles together are, in some
/// order, those of the same piles of a game the engine deals. A corrupted record is refused by
/// name before its cards reach the engine.
pub fn check_deal_cards<G: Traceable>(game: &G, deal: &Value, piles: &[&[&str]]) -> Result<()> {
    let reference = G::deal(&game.trace(0, 0).events);
    let cards = |deal: &Value, keys: &[&str]| -> Result<Vec<u64>> {
        let mut cards = Vec::new();
        for key in keys {
            collect_cards(deal.get(*key).unwrap_or(&Value::Null), &mut cards)
                .map_err(|e| SimError::input(format!("the deal's {key}: {e}")))?;
        }
        cards.sort_unstable();
        Ok(cards)
    };
    for keys in piles {
        if cards(deal, keys)? != cards(&reference, keys)? {
            return Err(SimError::input(format!(
                "the deal's {}: not the cards of a deal under the record's rules",
                keys.join(" and ")
            )));
        }
    }
    Ok(())
}

/// The card codes nested in `value` (a pile, or a list of piles), appended to `out`.
fn collect_cards(value: &Value, out: &mut Vec<u64>) -> std::result::Result<(), String> {
    match value {
        Value::Array(items) => items.iter().try_for_each(|v| collect_cards(v, out)),
        Value::Number(n) => n
            .as_u64()
            .map(|c| out.push(c))
            .ok_or_else(|| format!("{n} is not a card code")),
        Value::Null => Err("missing".into()),
        other => Err(format!("{other} is not a card code")),
    }
}

/// A pile of the deal line, `deal[key]`, as card codes.
pub fn deal_pile(deal: &Value, key: &str) -> Result<Vec<u8>> {
    serde_json::from_value(deal.get(key).cloned().unwrap_or(Value::Null))
        .map_err(|e| SimError::input(format!("the deal's {key}: {e}")))
}

/// The piles of the deal line's list `deal[key]` (reshuffles, avoided rooms).
pub fn deal_piles(deal: &Value, key: &str) -> Result<Vec<Vec<u8>>> {
    serde_json::from_value(deal.get(key).cloned().unwrap_or(json!([])))
        .map_err(|e| SimError::input(format!("the deal's {key}: {e}")))
}
