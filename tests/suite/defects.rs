//! The twelve defects a hostile new user found, one test each (each failed before its fix):
//! what was lost or trusted blindly, and the weak spots of the command line.

use std::ffi::OsString;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use serde_json::Value;

use crate::common::*;

/// Plays `args` as `n` shards into `root/shard-II`, and returns their folders.
fn shards(root: &Path, args: &[&str], n: u64) -> Vec<PathBuf> {
    let args: Vec<OsString> = args.iter().map(OsString::from).collect();
    play_shards(root, &args, n, 0..n)
}

/// Defect 1: `sim merge` added up a shard whose tallies were edited (a 33,375% win rate, exit 0).
#[test]
fn merge_refuses_a_shard_whose_tallies_were_edited_or_forged() {
    let tmp = TempDir::new("defect1");
    let good = shards(
        &tmp.join("good"),
        &["crownfall", "--games", "20000", "--seed", "4"],
        4,
    );
    let mut failures = Vec::new();
    let mut check = |name: &str, edit: &dyn Fn(&Path), named: &[&str]| {
        let dir = tmp.join(name);
        fs::create_dir_all(&dir).unwrap();
        for f in files_in(&good[2]) {
            fs::copy(good[2].join(&f), dir.join(&f)).unwrap();
        }
        edit(&dir);
        let mut dirs = good.clone();
        dirs[2] = dir.clone();
        let out_dir = tmp.join(&format!("merged-{name}"));
        let out = merge_to(&dirs, &out_dir);
        match usage_error(&out, Some(&out_dir)) {
            Err(e) => failures.push(format!("{name}: {e}")),
            Ok(err) => {
                for n in named.iter().chain([&dir.display().to_string().as_str()]) {
                    if !err.contains(n) {
                        failures.push(format!("{name}: {err:?} does not name {n:?}"));
                    }
                }
            }
        }
        if out_dir.exists() {
            failures.push(format!("{name}: the merge made {}", out_dir.display()));
        }
    };
    let replace = |dir: &Path, from: &str, to: &str| {
        let path = dir.join("shard.json");
        let text = fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{from} in {text}");
        fs::write(&path, text.replacen(from, to, 1)).unwrap();
    };
    // The edits of the report: wins above the games, and wins + 5.
    let wins = |dir: &Path| -> u64 {
        let text = fs::read_to_string(dir.join("shard.json")).unwrap();
        let v: Value = serde_json::from_str(&text).unwrap();
        v["cells"][0]["tally"]["wins"].as_u64().unwrap()
    };
    let w = wins(&good[2]);
    check(
        "wins-above-games",
        &|d| replace(d, &format!("\"wins\":{w}"), "\"wins\":1668750"),
        &["digest"],
    );
    check(
        "wins-plus-5",
        &|d| replace(d, &format!("\"wins\":{w}"), &format!("\"wins\":{}", w + 5)),
        &["digest"],
    );
    // The same edits with the digest made anew: the tally's invariants refuse them.
    check(
        "forged-wins-above-games",
        &|d| forge(d, |v| v["cells"][0]["tally"]["wins"] = 1_668_750.into()),
        &["wins (1668750) exceed games (5000)"],
    );
    check(
        "forged-wins-plus-5",
        &|d| forge(d, |v| v["cells"][0]["tally"]["wins"] = (w + 5).into()),
        &["tally does not hold", "wins"],
    );
    check(
        "forged-histogram",
        &|d| {
            forge(d, |v| {
                let counts = &mut v["cells"][0]["tally"]["final_hp"]["counts"][0];
                *counts = (counts.as_u64().unwrap() + 1).into();
            })
        },
        &["final_hp histogram counts 5001 games"],
    );
    check(
        "forged-games",
        &|d| forge(d, |v| v["cells"][0]["tally"]["games"] = 6000.into()),
        &["counts 6000 games"],
    );
    assert_no_failures(&failures);
    // The good shards do merge.
    assert!(merge_to(&good, &tmp.join("merged")).status.success());
}

/// Defect 2: A run into a folder that held an earlier run left the earlier files beside the new ones.
#[test]
fn a_reused_out_holds_the_new_runs_files_and_nothing_else() {
    let tmp = TempDir::new("defect2");
    let dir = tmp.join("out");
    for args in [
        argv![
            "crownfall",
            "--games",
            "3000",
            "--per-game",
            "--shard",
            "0/2"
        ]
        .to_vec(),
        argv!["crownfall", "--games", "2000", "--per-game"].to_vec(),
    ] {
        let out = crownfall_args_to(&args, &dir);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    fs::create_dir_all(dir.join("shards/shard-0")).unwrap();
    let out = crownfall_args_to(&argv!["crownfall", "--games", "1000"], &dir);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        tree(&dir),
        [
            "distributions.parquet",
            "shards",
            "shards/shard-0",
            "summary.parquet"
        ],
        "only the last run's files (and the folder of other results, left alone)"
    );
    assert_eq!(
        u64_at(&read_parquet(&dir.join("summary.parquet")), "games", 0),
        1000
    );
    // The earlier shard.json is gone, so the folder is no shard to merge.
    let out = merge_to(std::slice::from_ref(&dir), &tmp.join("merged"));
    rejected(&out, Some(&tmp.join("merged")));
    // A file sim did not write is never deleted: the run is refused and nothing changes.
    fs::write(dir.join("notes.txt"), "mine").unwrap();
    let before = contents(&dir);
    let out = crownfall_args_to(&argv!["crownfall", "--games", "1000"], &dir);
    let err = rejected(&out, None);
    assert!(err.contains("notes.txt"), "{err}");
    assert_eq!(contents(&dir), before);
}

fn crownfall_args_to(args: &[OsString], dir: &Path) -> std::process::Output {
    let mut a = args.to_vec();
    a.extend(argv!["--out", dir]);
    run(&a)
}

/// Defect 3: A file that could not be written inside --out stopped the run with exit 1 after some files
/// were written.
#[test]
fn a_result_that_cannot_be_written_changes_nothing_and_exits_2() {
    let tmp = TempDir::new("defect3");
    let dir = tmp.join("out");
    let out = crownfall_args_to(&argv!["crownfall", "--games", "2000", "--seed", "2"], &dir);
    assert!(out.status.success());
    // A folder where a result file goes: refused before a game is played.
    fs::remove_file(dir.join("summary.parquet")).unwrap();
    fs::create_dir(dir.join("summary.parquet")).unwrap();
    let before = tree(&dir);
    let bytes = contents(&dir);
    let out = crownfall_args_to(&argv!["crownfall", "--games", "2000"], &dir);
    let err = rejected(&out, None);
    assert!(err.contains("summary.parquet there is a folder"), "{err}");
    assert_eq!(tree(&dir), before);
    assert_eq!(contents(&dir), bytes);
    fs::remove_dir(dir.join("summary.parquet")).unwrap();

    // A full disk while writing (files capped at 4 KB): nothing of the new run, the earlier
    // files as they were, exit 2 and one line.
    let out = crownfall_args_to(&argv!["crownfall", "--games", "2000", "--seed", "2"], &dir);
    assert!(out.status.success());
    let before = contents(&dir);
    let mut cmd = sim();
    cmd.args(["crownfall", "--games", "50000", "--per-game", "--out"])
        .arg(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: between fork and exec the child only sets a limit and a signal disposition.
    unsafe {
        use std::os::unix::process::CommandExt;
        cmd.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 4096,
                rlim_max: 4096,
            };
            libc::setrlimit(libc::RLIMIT_FSIZE, &limit);
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            Ok(())
        });
    }
    let out = cmd.output().unwrap();
    let err = rejected(&out, None);
    assert!(err.contains("cannot write"), "{err}");
    assert_eq!(
        contents(&dir),
        before,
        "the earlier run's files are untouched"
    );
    assert_eq!(
        tree(&dir),
        ["distributions.parquet", "summary.parquet"],
        "no staging folder left"
    );
    assert_eq!(
        tree(tmp.path()).len(),
        3,
        "nothing beside --out: {:?}",
        tree(tmp.path())
    );
}

/// A game's record by `sim trace --json`, its deal line changed by `edit`.
fn corrupted(game: &str, edit: impl FnOnce(&mut Value)) -> String {
    let out = run(&["trace", game, "--json", "--seed", "3", "--game", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut lines: Vec<String> = stdout(&out).lines().map(String::from).collect();
    let mut deal: Value = serde_json::from_str(&lines[1]).unwrap();
    edit(&mut deal);
    lines[1] = deal.to_string();
    lines.join("\n") + "\n"
}

/// Defect 4: `sim play --replay` of a record whose deal was corrupted panicked.
#[test]
fn replaying_a_record_with_a_corrupted_deal_is_refused_not_a_panic() {
    let tmp = TempDir::new("defect4");
    let first_pile = |game: &str| match game {
        "crownfall" => "deck",
        "scoundrel" => "dungeon",
        "regicide" => "tavern",
        _ => "heaps",
    };
    let mut failures = Vec::new();
    for game in ["crownfall", "scoundrel", "regicide", "junkyard"] {
        let pile = first_pile(game);
        fn first<'a>(d: &'a mut Value, pile: &str) -> &'a mut Value {
            let p = &mut d[pile];
            if p[0].is_array() { &mut p[0] } else { p }
        }
        type Edit = Box<dyn Fn(&mut Value)>;
        let edits: Vec<(&str, Edit)> = vec![
            ("card 200", Box::new(|d| first(d, pile)[0] = 200.into())),
            ("card 0", Box::new(|d| first(d, pile)[0] = 0.into())),
            (
                "a card missing",
                Box::new(|d| {
                    first(d, pile).as_array_mut().unwrap().pop();
                }),
            ),
            (
                "a card twice",
                Box::new(|d| {
                    let p = first(d, pile).as_array_mut().unwrap();
                    p[1] = p[0].clone();
                }),
            ),
            (
                "no cards",
                Box::new(|d| *first(d, pile) = Value::Array(vec![])),
            ),
            ("not cards", Box::new(|d| *first(d, pile) = "x".into())),
        ];
        for (what, edit) in edits {
            let path = tmp.write(
                &format!("{game}-{}.jsonl", what.replace(' ', "-")),
                &corrupted(game, edit),
            );
            let out = replay(game, &path);
            failures.extend(refused_naming(
                &out,
                None,
                "deal",
                &format!("{game} {what}"),
            ));
        }
    }
    assert_no_failures(&failures);
}

/// `sim play GAME --replay FILE`, Enter at every pause.
fn replay(game: &str, path: &Path) -> std::process::Output {
    let mut child = sim()
        .args(["play", game, "--replay"])
        .arg(path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The pipe may close early (a refused record): what was not read does not matter.
    let _ = child
        .stdin
        .take()
        .unwrap()
        .write_all("\n".repeat(2000).as_bytes());
    child.wait_with_output().unwrap()
}

/// Defect 5: Regicide records of the search players could not be replayed: the replay compared the
/// timing field `search_us`.
#[test]
fn regicide_records_of_the_search_players_replay() {
    let tmp = TempDir::new("defect5");
    let mut failures = Vec::new();
    for policy in ["pimc-5", "ismcts-50"] {
        let out = run(&[
            "trace", "regicide", "--policy", policy, "--json", "--seed", "2", "--game", "4",
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        let path = tmp.write(&format!("{policy}.jsonl"), &stdout(&out));
        let text = stdout(&out);
        let outcome: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
        assert!(
            outcome["search_us"].as_u64().unwrap() > 0,
            "the record is timed"
        );
        let out = replay("regicide", &path);
        if !out.status.success() || !stdout(&out).contains("every one the same as the record") {
            failures.push(format!("trace --policy {policy}: {}", stderr(&out)));
        }
    }
    // A game played with a search player's hints and recorded (choice 1 at every prompt).
    let record = tmp.join("played.jsonl");
    let mut child = sim()
        .args([
            "play", "regicide", "--seed", "2", "--game", "4", "--hints", "pimc-5", "--record",
        ])
        .arg(&record)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all("1\n".repeat(400).as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let out = replay("regicide", &record);
    if !out.status.success() || !stdout(&out).contains("every one the same as the record") {
        failures.push(format!("play --hints pimc-5 --record: {}", stderr(&out)));
    }
    assert_no_failures(&failures);
}

/// Defect 6: An error for a missing required argument did not name it.
#[test]
fn a_missing_required_argument_is_named_on_one_line() {
    let cases: [(&[&str], &str); 4] = [
        (
            &["compare", "crownfall", "--games", "1000"],
            "--policy <POLICY>",
        ),
        (
            &["sweep", "crownfall", "--policy", "bank-at-17"],
            "--vary <PATH=VALUES>",
        ),
        (&["merge", "x"], "--out <DIR>"),
        (&["trace"], "<GAME>"),
    ];
    let mut failures = Vec::new();
    for (args, named) in cases {
        failures.extend(refused_naming(
            &run(args),
            None,
            named,
            &format!("{args:?}"),
        ));
    }
    assert_no_failures(&failures);
}

/// Defect 7: A rules file's out-of-range values and unknown keys did not name the file.
#[test]
fn a_rules_files_out_of_range_values_and_unknown_keys_name_the_file() {
    let tmp = TempDir::new("defect7");
    let mut failures = Vec::new();
    for (name, text, named) in [
        (
            "range.toml",
            "start_hp = 100\n",
            "rule start_hp = 100 is out of range",
        ),
        ("unknown.toml", "bogus = 5\n", "unknown rule bogus"),
        (
            "nested.toml",
            "[guard_damage]\nknight = 2\n",
            "unknown rule guard_damage.knight",
        ),
        ("cross.toml", "start_hp = 20\nmax_hp = 10\n", "start_hp"),
    ] {
        let file = tmp.write(name, text);
        let dir = tmp.join(&format!("out-{name}"));
        let out = crownfall_to(&dir, &argv!["--rules", &file, "--games", "100"]);
        let case = format!("{name}: {text:?}");
        failures.extend(refused_naming(
            &out,
            Some(&dir),
            &format!("rules file {}", file.display()),
            &case,
        ));
        failures.extend(refused_naming(&out, Some(&dir), named, &case));
    }
    // A --set that puts a file's value right is no error of the file's, and a --set out of
    // range is named as the rule, not the file.
    let file = tmp.write("ok.toml", "max_hp = 10\nstart_hp = 10\n");
    let out = crownfall_to(
        &tmp.join("x"),
        &argv!["--rules", &file, "--set", "start_hp=30", "--games", "10"],
    );
    match usage_error(&out, None) {
        Ok(err) if err.contains("start_hp") && !err.contains("ok.toml") => {}
        other => failures.push(format!("--set out of range over a file: {other:?}")),
    }
    assert_no_failures(&failures);
}

/// Defect 8: `sim solve --out x.toml --chart x.toml` exited 0, the chart over the strategy file; an
/// unwritable --chart was reported as --out.
#[test]
fn solve_refuses_one_file_for_out_and_chart_and_names_the_flag_it_cannot_write() {
    let tmp = TempDir::new("defect8");
    let x = tmp.join("x.toml");
    let out = run(&argv!["solve", "crownfall", "--out", &x, "--chart", &x]);
    let err = rejected(&out, Some(tmp.path()));
    assert!(
        err.contains("--out") && err.contains("--chart") && err.contains("same file"),
        "{err}"
    );
    assert!(!x.exists());
    let blocker = tmp.write("file", "not a folder");
    let chart = blocker.join("chart.parquet");
    let out = run(&argv![
        "solve",
        "crownfall",
        "--out",
        tmp.join("ok.toml"),
        "--chart",
        &chart
    ]);
    let err = rejected(&out, None);
    assert!(err.contains("--chart") && !err.contains("--out"), "{err}");
    assert!(!tmp.join("ok.toml").exists(), "nothing written");
}

/// Defect 9: `--vs` was dropped silently beside `--seat 1=...`; `play --seat 0=P` was refused for some
/// P and accepted for others.
#[test]
fn vs_with_seat_1_and_any_seat_0_at_play_are_refused() {
    let tmp = TempDir::new("defect9");
    let mut failures = Vec::new();
    let dir = tmp.join("vs");
    let out = game_to(
        "junkyard",
        &dir,
        &[
            "--policy", "greedy", "--vs", "simple", "--seat", "1=random", "--games", "100",
        ],
    );
    failures.extend(refused_naming(
        &out,
        Some(&dir),
        "--seat 1=random and --vs simple",
        "--vs and --seat 1",
    ));
    for policy in ["simple", "greedy", "random", "bogus"] {
        let out = sim()
            .args(["play", "junkyard", "--seat", &format!("0={policy}")])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        failures.extend(refused_naming(
            &out,
            None,
            &format!("--seat 0={policy}: seat 0 is the person's"),
            policy,
        ));
    }
    assert_no_failures(&failures);
}

/// Defect 10: `--threads 10000` on a 100-game run took over a minute: the pool is no bigger than the
/// run's chunks of work (the speed line says how many threads played).
#[test]
fn a_pool_has_no_more_threads_than_chunks_of_work() {
    let tmp = TempDir::new("defect10");
    let out = game_to(
        "crownfall",
        &tmp.join("a"),
        &["--games", "100", "--threads", "10000"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("on 1 thread "), "{}", stdout(&out));
    let out = run(&argv![
        "compare",
        "crownfall",
        "--policy",
        "bank-at-16..17",
        "--games",
        "40000",
        "--threads",
        "10000",
        "--out",
        tmp.join("b")
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("on 3 threads"), "{}", stdout(&out));
}

/// Defect 11: SIGTERM left an empty --out folder (Ctrl-C wrote the prefix).
#[test]
fn sigterm_writes_the_completed_prefix_and_exits_143() {
    let tmp = TempDir::new("defect11");
    let dir = tmp.join("out");
    let stopped = stop_a_long_run(&dir, libc::SIGTERM, TERMINATED);
    assert_eq!(
        files_in(&dir),
        ["distributions.parquet", "resume.json", "summary.parquet"]
    );
    assert!(
        stopped.stderr.contains("stopped by SIGTERM"),
        "{}",
        stopped.stderr
    );
}

/// Defect 12: Weak spots: negative numbers read as flags, Rust type names in messages, conflicting
/// flags resolved silently, a lower interval end of 3e-18 at no wins, a stopped grid's header
/// unmarked.
#[test]
fn weak_spots_are_mended() {
    let tmp = TempDir::new("defect12");
    let mut failures = Vec::new();
    let rules = tmp.write("table.toml", "guard_damage = 5\n");
    let cases: Vec<(Vec<OsString>, &str)> = vec![
        (argv!["crownfall", "--seed", "-1"].to_vec(), "--seed"),
        (
            argv!["crownfall", "--games", "-1"].to_vec(),
            "'-1' is not a positive game count",
        ),
        (
            argv!["trace", "crownfall", "--game", "-3"].to_vec(),
            "--game",
        ),
        (
            argv!["crownfall", "--rules", &rules].to_vec(),
            "rule guard_damage is a table",
        ),
        (
            argv!["crownfall", "--set", "guard_damage=5"].to_vec(),
            "rule guard_damage is a table",
        ),
        (
            argv!["regicide", "--players", "2", "--set", "players=3"].to_vec(),
            "--players 2 and --set players=3",
        ),
        (
            argv![
                "regicide",
                "--players",
                "3",
                "--seat",
                "1=simple",
                "--seat",
                "1=heuristic"
            ]
            .to_vec(),
            "seat 1 is already given",
        ),
        (
            argv!["crownfall", "--set", "start_hp=10", "--set", "start_hp=12"].to_vec(),
            "already set",
        ),
        (
            argv![
                "compare",
                "crownfall",
                "--policy",
                "bank-at-16",
                "--policy",
                "bank-at-16"
            ]
            .to_vec(),
            "bank-at-16 is already among the policies",
        ),
        (
            argv![
                "compare", "junkyard", "--policy", "simple", "--policy", "greedy", "--policy",
                "simple"
            ]
            .to_vec(),
            "simple is already among the policies",
        ),
        (
            argv![
                "sweep",
                "crownfall",
                "--policy",
                "bank-at-17",
                "--vary",
                "start_hp=10,12",
                "--set",
                "start_hp=14"
            ]
            .to_vec(),
            "also set by --set start_hp=14",
        ),
    ];
    for (i, (mut args, named)) in cases.into_iter().enumerate() {
        let dir = tmp.join(&format!("out{i}"));
        if args[0] != "trace" {
            if !args.iter().any(|a| a == "--games") {
                args.extend(argv!["--games", "100"]);
            }
            args.extend(argv!["--out", &dir]);
        }
        let out = run(&args);
        failures.extend(refused_naming(
            &out,
            Some(&dir),
            named,
            &format!("{args:?}"),
        ));
        if stderr(&out).contains("struct ") {
            failures.push(format!("{args:?}: a Rust type name: {}", stderr(&out)));
        }
    }
    // No wins: the interval's low end is 0 exactly.
    let dir = tmp.join("nowins");
    let out = game_to(
        "crownfall",
        &dir,
        &[
            "--policy",
            "bank-at-12",
            "--set",
            "start_hp=1",
            "--games",
            "500",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let summary = read_parquet(&dir.join("summary.parquet"));
    assert_eq!(u64_at(&summary, "wins", 0), 0, "the case has no wins");
    match value_at(&summary, "win_ci_low", 0) {
        polars::prelude::AnyValue::Float64(v) => {
            if v != 0.0 {
                failures.push(format!("win_ci_low at 0 wins is {v:e}"));
            }
        }
        other => failures.push(format!("win_ci_low is {other:?}")),
    }
    // A stopped comparison or sweep says so in its header.
    for (name, args) in [
        (
            "compare",
            argv![
                "compare",
                "crownfall",
                "--policy",
                "bank-at-12..21",
                "--games",
                "1B",
                "--threads",
                "2"
            ]
            .to_vec(),
        ),
        (
            "sweep",
            argv![
                "sweep",
                "crownfall",
                "--policy",
                "bank-at-17",
                "--vary",
                "start_hp=10..20",
                "--games",
                "1B",
                "--threads",
                "2"
            ]
            .to_vec(),
        ),
    ] {
        let mut a = args.clone();
        a.extend(argv!["--out", tmp.join(name)]);
        let stopped = signalled(&a, libc::SIGINT, Duration::from_millis(500));
        let header = stopped.stdout.lines().next().unwrap_or("").to_string();
        if stopped.code != Some(INTERRUPTED) || !header.contains("INCOMPLETE") {
            failures.push(format!(
                "{name}: exit {:?}, header {header:?}",
                stopped.code
            ));
        }
    }
    assert_no_failures(&failures);
}

/// Absurd sizes are refused at once: a precision that needs about 10^18 deals, and a rules or
/// strategy file that is a device (endless), a pipe (waits for ever), a folder or far too large
/// (they used to be accepted, or read for ever).
#[test]
fn absurd_sizes_and_endless_files_are_refused() {
    let tmp = TempDir::new("absurd");
    let mut failures = Vec::new();
    let dir = tmp.join("precision");
    let out = run(&argv![
        "evaluate",
        "crownfall",
        "--precision",
        "1e-9",
        "--out",
        &dir
    ]);
    failures.extend(refused_naming(
        &out,
        Some(&dir),
        "deals on every line, over the most an evaluation plays (100000000)",
        "--precision 1e-9",
    ));
    let fifo = tmp.join("pipe.toml");
    let path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo makes a named pipe at a path this test owns.
    assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o600) }, 0, "mkfifo");
    let zero = tmp.join("zero.toml");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let folder = tmp.join("folder.toml");
    fs::create_dir(&folder).unwrap();
    let big = tmp.join("big.toml");
    fs::write(
        &big,
        format!("{}start_hp = 12\n", "# padding\n".repeat(120_000)),
    )
    .unwrap();
    let cases: Vec<(Vec<OsString>, String)> = vec![
        (
            argv!["crownfall", "--rules", "/dev/zero"].to_vec(),
            "cannot read rules file /dev/zero: it is a character device, not a regular file".into(),
        ),
        (
            argv!["crownfall", "--rules", &fifo].to_vec(),
            "it is a pipe, not a regular file".into(),
        ),
        (
            argv!["scoundrel", "--rules", &folder].to_vec(),
            "it is a folder, not a regular file".into(),
        ),
        (
            argv!["crownfall", "--rules", &big].to_vec(),
            "larger than 1024 KiB".into(),
        ),
        (
            argv!["crownfall", "--policy", &zero].to_vec(),
            "cannot read strategy file".into(),
        ),
        (
            argv![
                "sweep",
                "crownfall",
                "--policy",
                "bank-at-17",
                "--rules",
                "/dev/urandom",
                "--vary",
                "start_hp=10,12"
            ]
            .to_vec(),
            "it is a character device".into(),
        ),
    ];
    for (i, (mut args, named)) in cases.into_iter().enumerate() {
        let dir = tmp.join(&format!("out{i}"));
        args.extend(argv!["--games", "100", "--out", &dir]);
        match within(&args, Duration::from_secs(10)) {
            Some(out) => failures.extend(refused_naming(
                &out,
                Some(&dir),
                &named,
                &format!("{args:?}"),
            )),
            None => failures.push(format!("{args:?}: still reading after 10 s")),
        }
    }
    assert_no_failures(&failures);
}

/// Runs `sim ARGS` and waits at most `limit` for it; `None` (and the process killed) if it
/// takes longer.
fn within(args: &[OsString], limit: Duration) -> Option<std::process::Output> {
    let mut child = sim()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start sim");
    let started = std::time::Instant::now();
    while child.try_wait().expect("poll sim").is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    Some(child.wait_with_output().expect("collect sim's output"))
}
