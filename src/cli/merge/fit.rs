//! Whether shards fit together: alike in everything but their ranges, which tile the run.

use serde::de::IgnoredAny;

use crate::error::Result;
use crate::report::manifest::{FORMAT, Manifest};
use crate::sim::shard::Shard;

use super::{Loaded, refuse};

/// Each shard on its own, then each against the first: the same everything but the range.
pub fn check_alike(shards: &[Loaded]) -> Result<()> {
    let this = env!("CARGO_PKG_VERSION");
    for s in shards {
        let (m, name) = (&s.manifest, s.name());
        if m.format != FORMAT {
            return Err(refuse(format!(
                "{name}: shard.json format {}, but this sim reads format {FORMAT}",
                m.format
            )));
        }
        if m.version != this {
            return Err(refuse(format!(
                "{name}: played by sim {}, but this is sim {this}; merge with the version that played the shards",
                m.version
            )));
        }
        if !m.complete {
            return Err(refuse(format!(
                "{name}: shard {} is incomplete (stopped early); play it again",
                m.shard
            )));
        }
        if (m.start..m.end) != m.shard.range(m.run_first_game, m.run_games) {
            return Err(refuse(format!(
                "{name}: games {}..{} are not shard {} of games {}..{}",
                m.start,
                m.end,
                m.shard,
                m.run_first_game,
                m.run_first_game + m.run_games
            )));
        }
    }
    let (a, a_name) = (&shards[0].manifest, shards[0].name());
    for s in &shards[1..] {
        let (b, name) = (&s.manifest, s.name());
        let differ = |what: &str, theirs: String, ours: String| {
            Err(refuse(format!(
                "{name}: {what} {theirs}, but {a_name} has {what} {ours}"
            )))
        };
        if b.game != a.game {
            return differ("game", b.game.clone(), a.game.clone());
        }
        if b.command != a.command {
            return differ("command", b.command.name().into(), a.command.name().into());
        }
        if b.seed != a.seed {
            return differ("seed", b.seed.to_string(), a.seed.to_string());
        }
        if (b.run_first_game, b.run_games) != (a.run_first_game, a.run_games) {
            let run = |m: &Manifest<IgnoredAny>| {
                format!("{}..{}", m.run_first_game, m.run_first_game + m.run_games)
            };
            return differ("a run of games", run(b), run(a));
        }
        if b.cells.len() != a.cells.len() {
            return differ(
                "cells",
                b.cells.len().to_string(),
                a.cells.len().to_string(),
            );
        }
        for (i, (cb, ca)) in b.cells.iter().zip(&a.cells).enumerate() {
            let what = |field: &str| {
                if a.cells.len() == 1 {
                    field.to_string()
                } else {
                    format!("cell {i} {field}")
                }
            };
            if cb.policy != ca.policy {
                return differ(&what("policy"), cb.policy.clone(), ca.policy.clone());
            }
            if cb.params != ca.params {
                let show = |p: &[(String, String)]| {
                    p.iter()
                        .map(|(k, v)| format!("{k}={v}"))
                        .collect::<Vec<_>>()
                        .join(",")
                };
                return differ(&what("values"), show(&cb.params), show(&ca.params));
            }
            if cb.rules != ca.rules {
                let (theirs, ours) = rules_difference(&cb.rules, &ca.rules);
                return differ(&what("rule"), theirs, ours);
            }
        }
        if b.baseline != a.baseline {
            let show =
                |x: Option<usize>| x.map_or("the best".to_string(), |c| a.cells[c].policy.clone());
            return differ("baseline", show(b.baseline), show(a.baseline));
        }
    }
    Ok(())
}

/// The first rule that differs between two rule sets as JSON, as `path = value` of each.
fn rules_difference(theirs: &str, ours: &str) -> (String, String) {
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

/// Orders the shards by range and checks they cover the run exactly once.
pub fn check_tiling(shards: &mut [Loaded]) -> Result<()> {
    shards.sort_by_key(|s| (s.manifest.start, s.manifest.end));
    let m = &shards[0].manifest;
    let (run_start, run_end) = (m.run_first_game, m.run_first_game + m.run_games);
    let counts: Vec<u64> = shards.iter().map(|s| s.manifest.shard.count).collect();
    let count = counts.iter().all(|&c| c == counts[0]).then_some(counts[0]);
    let missing = |from: u64, to: u64| {
        let named = count.map(|n| {
            (0..n)
                .map(|index| Shard { index, count: n })
                .filter(|s| {
                    let r = s.range(run_start, run_end - run_start);
                    r.start >= from && r.end <= to
                })
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
        });
        let what = match named {
            Some(names) if names.len() == 1 => format!("shard {} is missing", names[0]),
            Some(names) if !names.is_empty() && names.len() <= 4 => {
                format!("shards {} are missing", names.join(", "))
            }
            Some(names) if !names.is_empty() => format!(
                "{} shards are missing ({} to {})",
                names.len(),
                names[0],
                names[names.len() - 1]
            ),
            _ => "a shard is missing".to_string(),
        };
        refuse(format!("{what}: no shard given covers games {from}..{to}"))
    };
    if shards[0].manifest.start > run_start {
        return Err(missing(run_start, shards[0].manifest.start));
    }
    for pair in shards.windows(2) {
        let (a, b) = (&pair[0].manifest, &pair[1].manifest);
        let (a_name, b_name) = (pair[0].name(), pair[1].name());
        if (a.start, a.end) == (b.start, b.end) {
            return Err(refuse(format!(
                "{b_name}: shard {} (games {}..{}) is given twice, also as {a_name}",
                b.shard, b.start, b.end
            )));
        }
        if b.start < a.end {
            return Err(refuse(format!(
                "{b_name}: games {}..{} overlap {a_name} (games {}..{}): games {}..{} would count twice",
                b.start,
                b.end,
                a.start,
                a.end,
                b.start,
                a.end.min(b.end)
            )));
        }
        if b.start > a.end {
            return Err(missing(a.end, b.start));
        }
    }
    let last = &shards[shards.len() - 1].manifest;
    if last.end < run_end {
        return Err(missing(last.end, run_end));
    }
    Ok(())
}
