//! Fuzzing the two readers of files a user may have edited or damaged: the replay of a recorded
//! game (`sim play --replay`) and the shard reader of `sim merge`. Seeded mutations of real
//! files (numbers changed, lines dropped, doubled or swapped, bytes cut or flipped; for shards,
//! also values changed with the digest made anew, as a forger would) must be replayed or
//! merged, or refused with exit code 2, never panic; a damaged record that replays holds the
//! record's very event lines.

use std::ffi::OsString;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use serde_json::Value;
use sim::results::manifest::Manifest;
use sim::trace::play::{Answer, Ask, Desk, replay};
use sim::trace::{Traceable, json_lines};

use crate::common::*;
use crate::random_inputs::Rand;

/// A desk that shows nothing and goes on at every pause.
struct Silent;

impl Desk for Silent {
    fn show(&mut self, _: &str) {}
    fn ask(&mut self, _: &Ask) -> Answer {
        Answer::Quit
    }
    fn pause(&mut self) -> bool {
        true
    }
}

/// The byte ranges of the numbers in `text`.
fn numbers(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            spans.push((start, i));
        } else {
            i += 1;
        }
    }
    spans
}

/// `text` with one to three random damages.
fn damaged(rng: &mut Rand, text: &str) -> String {
    let mut text = text.to_string();
    for _ in 0..=rng.below(3) {
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        match rng.below(7) {
            0..=2 => {
                let spans = numbers(&text);
                if spans.is_empty() {
                    continue;
                }
                let (a, b) = *rng.pick(&spans);
                let n = [
                    "0",
                    "1",
                    "2",
                    "3",
                    "12",
                    "40",
                    "55",
                    "255",
                    "256",
                    "-1",
                    "99999999999",
                    "3.5",
                ];
                let new = if rng.one_in(2) {
                    rng.pick(&n).to_string()
                } else {
                    rng.below(60).to_string()
                };
                text.replace_range(a..b, &new);
                continue;
            }
            3 if !lines.is_empty() => {
                let i = rng.below(lines.len() as u64) as usize;
                lines.remove(i);
            }
            4 if !lines.is_empty() => {
                let i = rng.below(lines.len() as u64) as usize;
                lines.insert(i, lines[i].clone());
            }
            5 if lines.len() > 1 => {
                let i = rng.below(lines.len() as u64) as usize;
                let j = rng.below(lines.len() as u64) as usize;
                lines.swap(i, j);
            }
            _ => {
                let cut = rng.below(text.len() as u64 + 1) as usize;
                let mut bytes = text.into_bytes();
                bytes.truncate(cut);
                if rng.one_in(2) && !bytes.is_empty() {
                    let i = rng.below(bytes.len() as u64) as usize;
                    bytes[i] ^= 1 << rng.below(7);
                }
                text = String::from_utf8_lossy(&bytes).into_owned();
                continue;
            }
        }
        text = lines.join("\n") + "\n";
    }
    text
}

/// Records of `G` with each of `policies`, several deals each.
fn records<G: Traceable>(policies: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for policy in policies {
        let game = G::with_policy(Default::default(), policy).expect("a known policy");
        for (seed, index) in [(1, 0), (2, 7), (3, 19)] {
            let traced = game.trace(seed, index);
            out.push(json_lines(&game, game.policy_name(), seed, index, &traced).join("\n") + "\n");
        }
    }
    out
}

/// The event lines of a record, as JSON values (`None` for a line that is not JSON).
fn event_lines(text: &str) -> Vec<Option<Value>> {
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|v| {
            v.as_ref()
                .is_none_or(|v| v.get("type").and_then(Value::as_str) == Some("event"))
        })
        .collect()
}

/// Replays `cases` damaged records of `G` (built with `default` for the record's rules); returns
/// (replayed, refused) and pushes a failure per panic and per damaged record replayed though
/// its event lines differ from the record's.
fn fuzz_replay<G: Traceable>(
    rng: &mut Rand,
    default: &str,
    policies: &[&str],
    cases: u64,
    failures: &mut Vec<String>,
) -> (u64, u64) {
    let records = records::<G>(policies);
    let mut counts = (0, 0);
    // The records themselves replay.
    for r in &records {
        let ok = replay::<G>(
            r,
            "record",
            |rules| G::with_policy(rules, default),
            &mut Silent,
        );
        if let Err(e) = ok {
            failures.push(format!("{} record does not replay: {e}", G::NAME));
        }
    }
    for case in 0..cases {
        let record = rng.pick(&records).clone();
        let text = damaged(rng, &record);
        let result = catch_unwind(AssertUnwindSafe(|| {
            replay::<G>(
                &text,
                "fuzz",
                |rules| G::with_policy(rules, default),
                &mut Silent,
            )
        }));
        match result {
            Ok(Ok(())) if event_lines(&text) != event_lines(&record) => failures.push(format!(
                "{} replay case {case} replayed though its event lines differ from the record's:\n{text}",
                G::NAME
            )),
            Ok(Ok(())) => counts.0 += 1,
            Ok(Err(_)) => counts.1 += 1,
            Err(_) => failures.push(format!(
                "{} replay case {case} panicked on:\n{text}",
                G::NAME
            )),
        }
    }
    counts
}

/// Damaged records per game.
const REPLAY_CASES: u64 = 2500;

#[test]
fn damaged_records_replay_or_are_refused_never_a_panic() {
    use sim::games::{
        crownfall::Crownfall, junkyard::Junkyard, regicide::Regicide, scoundrel::Scoundrel,
    };
    let mut rng = Rand::new(42_4242);
    let mut failures = Vec::new();
    let mut total = (0, 0);
    let mut add = |c: (u64, u64)| {
        total.0 += c.0;
        total.1 += c.1;
    };
    add(fuzz_replay::<Crownfall>(
        &mut rng,
        "bank-at-17",
        &["bank-at-17", "optimal"],
        REPLAY_CASES,
        &mut failures,
    ));
    add(fuzz_replay::<Scoundrel>(
        &mut rng,
        "greedy",
        &["greedy", "lookahead"],
        REPLAY_CASES,
        &mut failures,
    ));
    add(fuzz_replay::<Regicide>(
        &mut rng,
        "simple",
        &["simple", "heuristic"],
        REPLAY_CASES,
        &mut failures,
    ));
    add(fuzz_replay::<Junkyard>(
        &mut rng,
        "simple",
        &["simple", "greedy"],
        REPLAY_CASES,
        &mut failures,
    ));
    eprintln!(
        "damaged records: {} cases, {} replayed, {} refused, {} panics",
        4 * REPLAY_CASES,
        total.0,
        total.1,
        failures.len()
    );
    assert_no_failures(&failures);
}

/// A leaf of `value` chosen at random, changed: a number to another, a string emptied, an array
/// cut short, a key dropped.
fn forge_value(rng: &mut Rand, value: &mut Value) {
    match value {
        Value::Object(map) if !map.is_empty() => {
            let keys: Vec<String> = map.keys().cloned().collect();
            let key = rng.pick(&keys).clone();
            if key == "digest" {
                return;
            }
            if rng.one_in(30) {
                map.remove(&key);
            } else if let Some(v) = map.get_mut(&key) {
                forge_value(rng, v);
            }
        }
        Value::Array(items) if !items.is_empty() => {
            if rng.one_in(12) {
                items.pop();
            } else {
                let i = rng.below(items.len() as u64) as usize;
                forge_value(rng, &mut items[i]);
            }
        }
        Value::Number(n) => {
            let v = n.as_u64().unwrap_or(0);
            *value = match rng.below(6) {
                0 => (v + 1).into(),
                1 => v.saturating_sub(1).into(),
                2 => 0.into(),
                3 => u64::MAX.into(),
                4 => (-1).into(),
                _ => (v * 2 + 1).into(),
            };
        }
        Value::String(s) => {
            *s = if rng.one_in(2) {
                String::new()
            } else {
                format!("{s}x")
            }
        }
        Value::Bool(b) => *b = !*b,
        _ => *value = 7.into(),
    }
}

/// Plays `args` as shards 0/2 and 1/2 into `root/NAME/shard-0I`.
fn two_shards(root: &Path, name: &str, args: &[&str]) -> [PathBuf; 2] {
    let mut a: Vec<OsString> = args.iter().map(OsString::from).collect();
    a.extend(argv!["--threads", "1"]);
    let dirs = play_shards(&root.join(name), &a, 2, 0..2);
    [dirs[0].clone(), dirs[1].clone()]
}

/// In-process cases per shard record.
const PARSE_CASES: u64 = 2500;
/// `sim merge` cases per shard set.
const MERGE_CASES: u64 = 40;

#[test]
fn damaged_and_forged_shards_merge_or_are_refused_never_a_panic() {
    let tmp = TempDir::new("fuzz_shards");
    let sets = [
        (
            "run",
            two_shards(
                tmp.path(),
                "run",
                &["crownfall", "--games", "3000", "--per-game"],
            ),
        ),
        (
            "compare",
            two_shards(
                tmp.path(),
                "compare",
                &[
                    "compare",
                    "crownfall",
                    "--policy",
                    "bank-at-15..17",
                    "--games",
                    "3000",
                ],
            ),
        ),
        (
            "regicide",
            two_shards(
                tmp.path(),
                "regicide",
                &["regicide", "--policy", "heuristic", "--games", "300"],
            ),
        ),
        (
            "tournament",
            two_shards(
                tmp.path(),
                "tournament",
                &[
                    "compare", "junkyard", "--policy", "simple", "--policy", "greedy", "--games",
                    "300",
                ],
            ),
        ),
    ];
    let mut rng = Rand::new(77_0777);
    let mut failures = Vec::new();
    let (mut parsed, mut refused) = (0u64, 0u64);
    // In this process: the record's reader and the tally's checks, on damaged text and on
    // forged values with the digest made anew.
    for (name, dirs) in &sets {
        let text = std::fs::read_to_string(dirs[1].join("shard.json")).unwrap();
        for case in 0..PARSE_CASES {
            let forged = if rng.one_in(2) {
                damaged(&mut rng, &text)
            } else {
                let mut v: Value = serde_json::from_str(&text).unwrap();
                forge_value(&mut rng, &mut v);
                match serde_json::from_value::<Manifest<Value>>(v.clone()) {
                    Ok(m) => serde_json::to_string(&m.sealed()).unwrap(),
                    Err(_) => v.to_string(),
                }
            };
            let result = catch_unwind(AssertUnwindSafe(|| read_and_check(name, &forged)));
            match result {
                Ok(true) => parsed += 1,
                Ok(false) => refused += 1,
                Err(_) => failures.push(format!("{name} case {case} panicked on {forged}")),
            }
        }
    }
    // Through the binary: sim merge of a good shard and a damaged or forged one.
    let mut merged = [0u64; 2];
    for (name, dirs) in &sets {
        let text = std::fs::read_to_string(dirs[1].join("shard.json")).unwrap();
        for case in 0..MERGE_CASES {
            let dir = tmp.join(&format!("{name}-forged-{case}"));
            std::fs::create_dir_all(&dir).unwrap();
            for f in files_in(&dirs[1]) {
                std::fs::copy(dirs[1].join(&f), dir.join(&f)).unwrap();
            }
            let mut v: Value = serde_json::from_str(&text).unwrap();
            forge_value(&mut rng, &mut v);
            let forged = match serde_json::from_value::<Manifest<Value>>(v.clone()) {
                Ok(m) => serde_json::to_string(&m.sealed()).unwrap(),
                Err(_) => damaged(&mut rng, &text),
            };
            std::fs::write(dir.join("shard.json"), forged).unwrap();
            let out_dir = tmp.join(&format!("{name}-merged-{case}"));
            let out = run(&argv!["merge", &dirs[0], &dir, "--out", &out_dir]);
            match out.status.code() {
                Some(0) => merged[0] += 1,
                Some(2) if stderr(&out).lines().count() == 1 && !out_dir.exists() => merged[1] += 1,
                other => failures.push(format!(
                    "{name} merge case {case}: exit {other:?}: {}",
                    stderr(&out)
                )),
            }
        }
    }
    eprintln!(
        "shard records: {} read in this process ({parsed} read, {refused} refused); {} merges ({} merged, {} refused)",
        4 * PARSE_CASES,
        4 * MERGE_CASES,
        merged[0],
        merged[1]
    );
    assert!(refused > 0 && merged[1] > 0);
    assert_no_failures(&failures);
}

/// Reads a shard record of the set `name` with its game's tally and, if it is read, runs every
/// check a merge runs on it and makes its summary; true if it was read.
fn read_and_check(name: &str, text: &str) -> bool {
    use sim::games::Tally;
    fn check<T: Tally>(text: &str) -> bool {
        let Ok(m) = Manifest::<T>::parse(Path::new("shard.json"), text) else {
            return false;
        };
        let info = sim::results::summary::RunInfo {
            seed: m.seed,
            first_game: m.run_first_game,
            complete: m.complete,
        };
        let wins: Vec<u64> = m.cells.iter().map(|c| c.tally.wins()).collect();
        for cell in &m.cells {
            let _ = cell.tally.check();
            let row = sim::results::summary::SummaryRow::of(
                "x",
                &cell.policy,
                cell.rules.clone(),
                &cell.tally,
                &info,
            );
            let _ = sim::results::summary::distribution_rows(&row.policy, 0, &cell.tally);
        }
        if let Some(p) = &m.pairs
            && p.fits(m.cells.len())
        {
            let _ = p.check(m.end.saturating_sub(m.start), &wins);
        }
        true
    }
    match name {
        "regicide" => check::<sim::games::regicide::RegicideTally>(text),
        "tournament" => check::<sim::games::junkyard::tally::JunkyardTally>(text),
        _ => check::<sim::games::crownfall::tally::CrownfallTally>(text),
    }
}

/// The record of game 7 of seed 3 of `G` played by `policy`, one JSON value per line.
fn record_lines<G: Traceable>(policy: &str) -> Vec<Value> {
    let game = G::with_policy(G::Rules::default(), policy).unwrap();
    let traced = game.trace(3, 7);
    json_lines(&game, policy, 3, 7, &traced)
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `lines` as a record's text, the line of index `at` replaced by `text` (if given).
fn record_text(lines: &[Value], at: Option<(usize, &str)>) -> String {
    let mut out: Vec<String> = lines.iter().map(Value::to_string).collect();
    if let Some((i, text)) = at {
        out[i] = text.to_string();
    }
    out.join("\n") + "\n"
}

/// Each malformed record of `G` (played by `policy`; `garbage` adds data the game does not use
/// to the deal line) must be refused, its error naming the line or the field; returns the
/// cases.
fn malformed<G: Traceable>(
    policy: &str,
    garbage: fn(&mut Value),
    failures: &mut Vec<String>,
) -> usize {
    let lines = record_lines::<G>(policy);
    let replays = |text: &str| {
        replay::<G>(
            text,
            "record.jsonl",
            |rules| G::with_policy(rules, policy),
            &mut Silent,
        )
    };
    if let Err(e) = replays(&record_text(&lines, None)) {
        failures.push(format!(
            "{}: the record itself does not replay: {e}",
            G::NAME
        ));
    }
    let header = lines[0].to_string();
    let event = lines[2].to_string();
    let mut cases: Vec<(String, String, &str)> = Vec::new();
    for (key, from, to) in [
        ("index", "\"index\":7", "\"index\":-1"),
        ("index", "\"index\":7", "\"index\":18446744073709551616"),
        ("index", "\"index\":7", "\"index\":1.5"),
        ("seed", "\"seed\":3", "\"seed\":\"one\""),
        (
            "seed",
            "\"seed\":3",
            "\"seed\":10000000000000000000000000000000000000000",
        ),
    ] {
        assert!(header.contains(from), "{header}");
        let text = record_text(&lines, Some((0, &header.replacen(from, to, 1))));
        cases.push((format!("header {to}"), text, key));
    }
    for to in ["999", "-3"] {
        let text = record_text(
            &lines,
            Some((2, &event.replacen("\"n\":0", &format!("\"n\":{to}"), 1))),
        );
        cases.push((format!("event number {to}"), text, "event number"));
    }
    for (what, at) in [("header", 0), ("deal", 1), ("outcome", lines.len() - 1)] {
        let mut twice = lines.clone();
        twice.insert(at, lines[at].clone());
        cases.push((
            format!("a second {what}"),
            record_text(&twice, None),
            "out of place",
        ));
    }
    let mut unused = lines.clone();
    garbage(&mut unused[1]);
    cases.push((
        "unused garbage in the deal".into(),
        record_text(&unused, None),
        "deal",
    ));
    for (case, text, named) in &cases {
        match replays(text) {
            Ok(()) => failures.push(format!("{} {case}: replayed", G::NAME)),
            Err(e) if !e.to_string().contains(named) => {
                failures.push(format!("{} {case}: {e:?} does not name {named:?}", G::NAME))
            }
            Err(_) => {}
        }
    }
    cases.len()
}

#[test]
fn malformed_records_are_refused_naming_the_line_or_field() {
    use sim::games::{
        crownfall::Crownfall, junkyard::Junkyard, regicide::Regicide, scoundrel::Scoundrel,
    };
    let mut failures = Vec::new();
    let mut cases = 0;
    cases += malformed::<Crownfall>(
        "bank-at-17",
        |d| {
            d["reshuffles"]
                .as_array_mut()
                .unwrap()
                .push(serde_json::json!([5, 6, 7]))
        },
        &mut failures,
    );
    cases += malformed::<Scoundrel>(
        "greedy",
        |d| {
            let avoided = d["avoided"].as_array_mut().unwrap();
            avoided.push(serde_json::json!([9, 8, 7, 6]));
        },
        &mut failures,
    );
    cases += malformed::<Regicide>(
        "simple",
        |d| {
            d["unused"] = serde_json::json!([1, 2, 3]);
        },
        &mut failures,
    );
    cases += malformed::<Junkyard>(
        "simple",
        |d| {
            d["unused"] = serde_json::json!("garbage");
        },
        &mut failures,
    );
    eprintln!("malformed records: {cases} cases over 4 games");
    assert_no_failures(&failures);
}
