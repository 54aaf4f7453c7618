//! Whether two run records (see [`crate::results::manifest`]) are of the same run: what `sim
//! merge` checks of the shards of one run, and `--resume` of a prefix against the command that
//! continues it.

use crate::results::manifest::Manifest;

/// How a record differs from another: the field, its value there and its value here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// The field, e.g. `seed` or `cell 2 policy`.
    pub what: String,
    /// Its value in the first record.
    pub theirs: String,
    /// Its value in the second.
    pub ours: String,
}

fn differ(what: &str, theirs: impl ToString, ours: impl ToString) -> Option<Difference> {
    Some(Difference {
        what: what.to_string(),
        theirs: theirs.to_string(),
        ours: ours.to_string(),
    })
}

/// The first thing that makes `theirs` another run than `ours`, in the order game, command,
/// seed, whole run, cells (their number, then each one's policy, varied values and rules) and
/// baseline; `None` if it is the same run.
pub fn run_difference<A, B>(theirs: &Manifest<A>, ours: &Manifest<B>) -> Option<Difference> {
    let (a, b) = (theirs, ours);
    if a.game != b.game {
        return differ("game", &a.game, &b.game);
    }
    if a.command != b.command {
        return differ("command", a.command.name(), b.command.name());
    }
    if a.seed != b.seed {
        return differ("seed", a.seed, b.seed);
    }
    if (a.run_first_game, a.run_games) != (b.run_first_game, b.run_games) {
        let run = |first: u64, games: u64| format!("{first}..{}", first.saturating_add(games));
        return differ(
            "a run of games",
            run(a.run_first_game, a.run_games),
            run(b.run_first_game, b.run_games),
        );
    }
    if a.cells.len() != b.cells.len() {
        return differ("cells", a.cells.len(), b.cells.len());
    }
    for (i, (ca, cb)) in a.cells.iter().zip(&b.cells).enumerate() {
        let what = |field: &str| {
            if b.cells.len() == 1 {
                field.to_string()
            } else {
                format!("cell {i} {field}")
            }
        };
        if ca.policy != cb.policy {
            return differ(&what("policy"), &ca.policy, &cb.policy);
        }
        if ca.params != cb.params {
            let show = |p: &[(String, String)]| {
                p.iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect::<Vec<_>>()
                    .join(",")
            };
            return differ(&what("values"), show(&ca.params), show(&cb.params));
        }
        if ca.rules != cb.rules {
            let (theirs, ours) = rules_difference(&ca.rules, &cb.rules);
            return differ(&what("rule"), theirs, ours);
        }
    }
    if a.baseline != b.baseline {
        let show = |x: Option<usize>| {
            x.and_then(|c| b.cells.get(c))
                .map_or("the best".to_string(), |c| c.policy.clone())
        };
        return differ("baseline", show(a.baseline), show(b.baseline));
    }
    None
}

/// [`run_difference`], then what else a prefix must share with the command that continues it:
/// the shard and the precision target.
pub fn prefix_difference<A, B>(theirs: &Manifest<A>, ours: &Manifest<B>) -> Option<Difference> {
    if let Some(d) = run_difference(theirs, ours) {
        return Some(d);
    }
    let (a, b) = (theirs, ours);
    if a.shard != b.shard {
        let show = |shard: crate::sim::shard::Shard| {
            if shard.count == 1 {
                "no --shard".to_string()
            } else {
                format!("--shard {shard}")
            }
        };
        return differ("shard", show(a.shard), show(b.shard));
    }
    if a.precision != b.precision {
        let show = |p: Option<f64>| p.map_or("none".to_string(), |p| p.to_string());
        return differ("precision target", show(a.precision), show(b.precision));
    }
    None
}

/// The first rule that differs between two rule sets as JSON, as `path = value` of each.
pub fn rules_difference(theirs: &str, ours: &str) -> (String, String) {
    fn first(path: &str, a: &serde_json::Value, b: &serde_json::Value) -> Option<(String, String)> {
        match (a, b) {
            (serde_json::Value::Object(x), serde_json::Value::Object(y)) => {
                let keys = x.keys().chain(y.keys().filter(|k| !x.contains_key(*k)));
                keys.filter_map(|k| {
                    let null = serde_json::Value::Null;
                    let sub = if path.is_empty() {
                        k.clone()
                    } else {
                        format!("{path}.{k}")
                    };
                    first(&sub, x.get(k).unwrap_or(&null), y.get(k).unwrap_or(&null))
                })
                .next()
            }
            _ if a == b => None,
            _ => Some((format!("{path} = {a}"), format!("{path} = {b}"))),
        }
    }
    let parse = |t: &str| serde_json::from_str(t).unwrap_or(serde_json::Value::String(t.into()));
    first("", &parse(theirs), &parse(ours))
        .unwrap_or_else(|| (theirs.to_string(), ours.to_string()))
}
