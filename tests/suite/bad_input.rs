//! The bad-input contract over every command and game, as a table: each row is a command line
//! and what its one error line must name. Every row must exit with code 2, print one line on
//! stderr starting with `error:` that names the culprit, and leave no file or folder behind (its
//! `--out` is never made, and nothing else in the test's folder changes).
//!
//! A new command or game adds its rows to [`rows`] (or to [`Game`] a line).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use crate::common::*;

/// What the rows need to know of a game.
struct Game {
    name: &'static str,
    /// A policy it knows, and another.
    policy: &'static str,
    second: &'static str,
    /// A rule with a value out of its range, and the rule's name.
    out_of_range: (&'static str, &'static str),
    /// A rule and two good values of it, to vary.
    vary: (&'static str, &'static str),
    /// Whether it is a duel (two seats, `--vs`).
    duel: bool,
}

const GAMES: &[Game] = &[
    Game {
        name: "crownfall",
        second: "bank-at-16",
        vary: ("start_hp", "16,20"),
        policy: "bank-at-17",
        out_of_range: ("start_hp", "100"),
        duel: false,
    },
    Game {
        name: "scoundrel",
        second: "heuristic",
        vary: ("start_hp", "15,20"),
        policy: "greedy",
        out_of_range: ("start_hp", "0"),
        duel: false,
    },
    Game {
        name: "regicide",
        second: "heuristic",
        vary: ("max_combo", "8,10"),
        policy: "simple",
        out_of_range: ("max_combo", "1"),
        duel: false,
    },
    Game {
        name: "junkyard",
        second: "greedy",
        vary: ("start_hp", "20,25"),
        policy: "simple",
        out_of_range: ("start_hp", "0"),
        duel: true,
    },
];

/// One bad command line.
struct Row {
    args: Vec<String>,
    /// What the error line must contain.
    named: String,
    /// Whether `--out DIR` (a fresh folder that must never appear) goes on the command line.
    out: bool,
}

fn row(args: &[&str], named: &str, out: bool) -> Row {
    Row {
        args: args.iter().map(|a| a.to_string()).collect(),
        named: named.to_string(),
        out,
    }
}

/// The input files the rows refer to, made once in `dir`.
struct Fixtures {
    dir: PathBuf,
}

impl Fixtures {
    fn path(&self, name: &str) -> String {
        self.dir.join(name).display().to_string()
    }

    fn make(dir: PathBuf) -> Self {
        let fx = Self { dir };
        let write = |name: &str, text: &str| {
            let path = fx.dir.join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        write("malformed.toml", "start_hp = \n");
        write("not-a-strategy.toml", "name = \"x\"\nbogus_field = 3\n");
        write("notjson.jsonl", "this is not json\n");
        write("out-file", "a file where a folder goes\n");
        write("foreign/notes.txt", "mine\n");
        std::fs::create_dir_all(fx.dir.join("empty")).unwrap();
        for g in GAMES {
            let (rule, value) = g.out_of_range;
            write(&format!("unknown-{}.toml", g.name), "bogus_rule = 1\n");
            write(
                &format!("range-{}.toml", g.name),
                &format!("{rule} = {value}\n"),
            );
            let complete = fx.dir.join(format!("complete-{}", g.name));
            let out = run(&argv![g.name, "--games", "100", "--out", &complete]);
            assert!(out.status.success(), "{}", stderr(&out));
            let trace = run(&["trace", g.name, "--json", "--seed", "1"]);
            assert!(trace.status.success());
            write(&format!("{}.jsonl", g.name), &stdout(&trace));
        }
        for i in 0..2 {
            let dir = fx.dir.join(format!("shard-{i}"));
            let out = run(&argv![
                "crownfall",
                "--games",
                "1000",
                "--shard",
                format!("{i}/2"),
                "--out",
                &dir
            ]);
            assert!(out.status.success(), "{}", stderr(&out));
        }
        let tampered = fx.dir.join("tampered");
        std::fs::create_dir_all(&tampered).unwrap();
        for f in files_in(&fx.dir.join("shard-1")) {
            std::fs::copy(fx.dir.join("shard-1").join(&f), tampered.join(&f)).unwrap();
        }
        let text = std::fs::read_to_string(tampered.join("shard.json")).unwrap();
        std::fs::write(
            tampered.join("shard.json"),
            text.replacen("\"games\":", "\"games\":1", 1),
        )
        .unwrap();
        fx
    }
}

/// Every row: for each game, its runs, comparisons, sweeps, traces and plays; then merge, solve,
/// the shell commands and unknown games.
fn rows(fx: &Fixtures) -> Vec<Row> {
    let mut rows = Vec::new();
    for g in GAMES {
        let (n, p) = (g.name, g.policy);
        let (rule, bad) = g.out_of_range;
        let set_bad = format!("{rule}={bad}");
        let set_word = format!("{rule}=abc");
        let (unknown, range) = (
            fx.path(&format!("unknown-{n}.toml")),
            fx.path(&format!("range-{n}.toml")),
        );
        let complete = fx.path(&format!("complete-{n}"));
        let record = fx.path(&format!("{n}.jsonl"));
        let other = if n == "crownfall" {
            "scoundrel"
        } else {
            "crownfall"
        };
        let other_record = fx.path(&format!("{other}.jsonl"));
        let missing_strategy = format!("strategies/{n}/missing.toml");
        let (malformed, strategy, notjson) = (
            fx.path("malformed.toml"),
            fx.path("not-a-strategy.toml"),
            fx.path("notjson.jsonl"),
        );
        let (varied, values) = g.vary;
        let vary = format!("{varied}={values}");
        let vary_again = format!("{varied}=3");
        let empty_range = format!("{varied}=5..1");
        let vary_words = format!("{varied}=abc");
        let q = g.second;
        let empty = fx.path("empty");
        let seat0 = format!("0={p}");
        let not_this_game = format!("not a {n} game");
        let run_rows: Vec<(Vec<&str>, &str)> = vec![
            (vec!["--policy", "nope"], "nope"),
            (vec!["--games", "0"], "'0'"),
            (vec!["--games", "-5"], "'-5'"),
            (vec!["--games", "abc"], "'abc'"),
            (vec!["--games", "1.5"], "'1.5'"),
            (vec!["--seed", "-1"], "--seed"),
            (vec!["--seed", "x"], "--seed"),
            (vec!["--threads", "0"], "--threads"),
            (vec!["--threads", "-2"], "--threads"),
            (vec!["--first-game", "18446744073709551615"], "--first-game"),
            (vec!["--set", "nope=1"], "nope"),
            (vec!["--set", &set_bad], rule),
            (vec!["--set", &set_word], rule),
            (vec!["--set", "noequals"], "noequals"),
            (
                vec!["--set", &vary_again, "--set", &vary_again],
                "already set",
            ),
            (vec!["--set", &set_bad, "--policy", "nope"], rule),
            (vec!["--rules", "missing-rules.toml"], "missing-rules.toml"),
            (vec!["--rules", &malformed], "malformed.toml"),
            (vec!["--rules", &unknown], &unknown),
            (vec!["--rules", &range], &range),
            (vec!["--policy", &missing_strategy], "missing.toml"),
            (vec!["--policy", &strategy], "not-a-strategy.toml"),
            (vec!["--shard", "3/2"], "3/2"),
            (vec!["--shard", "0/0"], "0/0"),
            (vec!["--shard", "0/64"], "0/64"),
            (vec!["--bogus"], "--bogus"),
            (vec!["extra"], "extra"),
            (vec!["--resume", &empty], "--resume"),
            (vec!["--resume", &complete], "nothing to resume"),
            (vec!["--per-game", "--shard", "x/y"], "x/y"),
        ];
        for (args, named) in run_rows {
            let mut a = vec![n];
            a.extend(&args);
            if !args.contains(&"--games") {
                a.extend(["--games", "10"]);
            }
            rows.push(row(&a, named, !args.contains(&"--resume")));
        }
        rows.push(row(
            &[n, "--games", "10", "--out", &fx.path("out-file")],
            "that is a file",
            false,
        ));
        rows.push(row(
            &[n, "--games", "10", "--out", &fx.path("foreign")],
            "notes.txt",
            false,
        ));
        if g.duel {
            rows.push(row(
                &[n, "--seat", &format!("2={p}"), "--games", "10"],
                "--seat 2",
                true,
            ));
            rows.push(row(
                &[n, "--vs", p, "--seat", "1=random", "--games", "10"],
                "--vs",
                true,
            ));
        } else {
            rows.push(row(&[n, "--vs", p, "--games", "10"], "--vs", true));
        }
        if n == "regicide" {
            rows.push(row(
                &[n, "--players", "9", "--games", "10"],
                "players",
                true,
            ));
            rows.push(row(
                &[n, "--players", "2", "--set", "players=3", "--games", "10"],
                "--players 2",
                true,
            ));
            rows.push(row(
                &[
                    n,
                    "--players",
                    "3",
                    "--seat",
                    "1=simple",
                    "--seat",
                    "1=heuristic",
                    "--games",
                    "10",
                ],
                "already given",
                true,
            ));
            rows.push(row(
                &[n, "--players", "3", "--seat", "3=simple", "--games", "10"],
                "--seat 3=simple",
                true,
            ));
        } else {
            rows.push(row(
                &[n, "--players", "2", "--games", "10"],
                "--players",
                true,
            ));
        }
        // compare and sweep.
        let grid_rows: Vec<(Vec<&str>, &str)> = vec![
            (vec!["compare", n, "--games", "10"], "--policy"),
            (
                vec![
                    "compare", n, "--policy", "nope", "--policy", p, "--games", "10",
                ],
                "nope",
            ),
            (
                vec![
                    "compare", n, "--policy", p, "--policy", q, "--policy", p, "--games", "10",
                ],
                "already among",
            ),
            (
                vec![
                    "compare",
                    n,
                    "--policy",
                    p,
                    "--policy",
                    q,
                    "--precision",
                    "0.7",
                ],
                "--precision",
            ),
            (
                vec![
                    "compare",
                    n,
                    "--policy",
                    p,
                    "--policy",
                    q,
                    "--precision",
                    "0.01",
                    "--shard",
                    "0/2",
                ],
                "--precision",
            ),
            (
                vec!["compare", n, "--policy", p, "--policy", q, "--games", "0"],
                "'0'",
            ),
            (
                vec![
                    "compare", n, "--policy", p, "--policy", q, "--set", &set_bad, "--games", "10",
                ],
                rule,
            ),
            (
                vec![
                    "compare", n, "--policy", p, "--policy", q, "--rules", &range, "--games", "10",
                ],
                &range,
            ),
            (vec!["sweep", n, "--policy", p, "--games", "10"], "--vary"),
            (
                vec![
                    "sweep", n, "--policy", p, "--vary", "nope=1,2", "--games", "10",
                ],
                "nope",
            ),
            (
                vec![
                    "sweep",
                    n,
                    "--policy",
                    p,
                    "--vary",
                    &empty_range,
                    "--games",
                    "10",
                ],
                "empty",
            ),
            (
                vec![
                    "sweep",
                    n,
                    "--policy",
                    p,
                    "--vary",
                    &vary,
                    "--vary",
                    &vary_again,
                    "--games",
                    "10",
                ],
                "varied twice",
            ),
            (
                vec![
                    "sweep",
                    n,
                    "--policy",
                    p,
                    "--vary",
                    &vary,
                    "--set",
                    &vary_again,
                    "--games",
                    "10",
                ],
                "also set",
            ),
            (
                vec![
                    "sweep",
                    n,
                    "--policy",
                    p,
                    "--vary",
                    &vary_words,
                    "--games",
                    "10",
                ],
                varied,
            ),
            (
                vec!["sweep", n, "--policy", p, "--vary", varied, "--games", "10"],
                "PATH=VALUES",
            ),
            (
                vec![
                    "sweep", n, "--policy", "nope", "--vary", &vary, "--games", "10",
                ],
                "nope",
            ),
            (
                vec![
                    "sweep", n, "--policy", p, "--vary", &vary, "--set", &set_bad, "--games", "10",
                ],
                rule,
            ),
        ];
        for (args, named) in grid_rows {
            rows.push(row(&args, named, true));
        }
        // trace and play.
        let watch_rows: Vec<(Vec<&str>, &str)> = vec![
            (vec!["trace", n, "--policy", "nope"], "nope"),
            (vec!["trace", n, "--game", "-1"], "--game"),
            (vec!["trace", n, "--set", "nope=1"], "nope"),
            (vec!["trace", n, "--rules", &range], &range),
            (
                vec!["play", n, "--replay", "missing.jsonl"],
                "missing.jsonl",
            ),
            (vec!["play", n, "--replay", &notjson], "not JSON"),
            (vec!["play", n, "--replay", &other_record], &not_this_game),
            (
                vec!["play", n, "--replay", &record, "--hints", p],
                "--hints",
            ),
            (vec!["play", n, "--hints", "nope"], "nope"),
            (vec!["play", n, "--seat", &seat0], "--seat 0="),
            (vec!["play", n, "--set", &set_bad], rule),
        ];
        for (args, named) in watch_rows {
            rows.push(row(&args, named, false));
        }
        if n != "crownfall" {
            rows.push(row(&["solve", n], "crownfall only", false));
        }
    }
    let shard = |i: u32| fx.path(&format!("shard-{i}"));
    let same = fx.path("same.toml");
    let other: Vec<(Vec<String>, &str, bool)> = vec![
        (
            vec!["blackjack".into()],
            "unknown game or command 'blackjack'",
            false,
        ),
        (
            vec![
                "compare".into(),
                "blackjack".into(),
                "--policy".into(),
                "x".into(),
            ],
            "unknown game blackjack",
            true,
        ),
        (
            vec![
                "sweep".into(),
                "blackjack".into(),
                "--policy".into(),
                "x".into(),
                "--vary".into(),
                "a=1".into(),
            ],
            "unknown game blackjack",
            true,
        ),
        (
            vec!["trace".into(), "blackjack".into()],
            "unknown game blackjack",
            false,
        ),
        (
            vec!["play".into(), "blackjack".into()],
            "unknown game blackjack",
            false,
        ),
        (vec!["merge".into(), shard(0)], "shard 1/2 is missing", true),
        (
            vec!["merge".into(), shard(0), fx.path("tampered")],
            "digest",
            true,
        ),
        (
            vec!["merge".into(), shard(0), fx.path("complete-crownfall")],
            "complete-crownfall",
            true,
        ),
        (
            vec!["merge".into(), shard(0), fx.path("nowhere")],
            "nowhere",
            true,
        ),
        (
            vec!["merge".into(), shard(0), shard(1), "--out".into(), shard(0)],
            "is the shard",
            false,
        ),
        (
            vec![
                "merge".into(),
                shard(0),
                shard(1),
                "--out".into(),
                fx.path("foreign"),
            ],
            "notes.txt",
            false,
        ),
        (
            vec![
                "merge".into(),
                shard(0),
                shard(1),
                "--out".into(),
                fx.path("out-file"),
            ],
            "that is a file",
            false,
        ),
        (
            vec![
                "solve".into(),
                "crownfall".into(),
                "--out".into(),
                same.clone(),
                "--chart".into(),
                same,
            ],
            "same file",
            false,
        ),
        (
            vec![
                "solve".into(),
                "crownfall".into(),
                "--evaluate".into(),
                "nope".into(),
            ],
            "nope",
            false,
        ),
        (
            vec![
                "solve".into(),
                "crownfall".into(),
                "--set".into(),
                "nope=1".into(),
            ],
            "nope",
            false,
        ),
        (
            vec![
                "solve".into(),
                "crownfall".into(),
                "--out".into(),
                fx.path("out-file/x.toml"),
            ],
            "--out",
            false,
        ),
        (
            vec![
                "solve".into(),
                "crownfall".into(),
                "--chart".into(),
                fx.path("empty"),
            ],
            "--chart",
            false,
        ),
        (vec!["completions".into(), "nosh".into()], "nosh", false),
        (vec!["man".into(), "nope".into()], "nope", false),
        (vec!["list".into(), "extra".into()], "extra", false),
    ];
    for (args, named, out) in other {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        rows.push(row(&args, named, out));
    }
    rows
}

/// Runs one row: `sim ARGS [--out DIR]` with nothing on standard input.
fn run_row(row: &Row, out: &Path) -> std::process::Output {
    let mut args: Vec<OsString> = row.args.iter().map(OsString::from).collect();
    if row.out {
        args.extend(argv!["--out", out]);
    }
    sim()
        .args(&args)
        .stdin(Stdio::null())
        .output()
        .expect("run sim")
}

#[test]
fn every_bad_command_exits_2_with_one_line_naming_the_culprit_and_leaves_nothing() {
    let tmp = TempDir::new("bad_input");
    let fx = Fixtures::make(tmp.join("fixtures"));
    let rows = rows(&fx);
    assert!(rows.len() >= 150, "the table has {} rows", rows.len());
    let before = tree(tmp.path());
    let mut failures = Vec::new();
    for (i, r) in rows.iter().enumerate() {
        let out_dir = tmp.join(&format!("out-{i}"));
        let out = run_row(r, &out_dir);
        let case = format!("row {i} {:?}", r.args);
        match usage_error(&out, None) {
            Err(e) => failures.push(format!("{case}: {e}")),
            Ok(err) if !err.contains(&r.named) => {
                failures.push(format!("{case}: {err:?} does not name {:?}", r.named))
            }
            Ok(err) if err.contains("struct ") || err.contains("panicked") => {
                failures.push(format!("{case}: {err:?}"))
            }
            Ok(_) => {}
        }
        let after = tree(tmp.path());
        if after != before {
            let made: Vec<&String> = after.iter().filter(|p| !before.contains(p)).collect();
            let gone: Vec<&String> = before.iter().filter(|p| !after.contains(p)).collect();
            failures.push(format!("{case}: left {made:?}, removed {gone:?}"));
            let _ = std::fs::remove_dir_all(&out_dir);
        }
    }
    eprintln!("bad-input table: {} rows", rows.len());
    assert_no_failures(&failures);
}
