//! SIGTERM and Ctrl-C keep a run's completed prefix, and `--resume` goes on from it to the very
//! files an uninterrupted run writes, bit for bit: for a run (with per-game rows in two parts), a
//! comparison, a sweep (with a precision target, whose cells stop at different games), a
//! tournament and a shard. A prefix is resumed only by the command that played it.

use std::ffi::OsString;
use std::fs;
use std::path::Path;
use std::time::Duration;

use crate::common::*;

/// Runs `sim ARGS --out DIR` and panics unless it succeeds.
fn whole(args: &[OsString], dir: &Path) {
    let mut a = args.to_vec();
    a.extend(argv!["--out", dir]);
    let out = run(&a);
    assert!(out.status.success(), "sim {a:?} failed: {}", stderr(&out));
}

/// The games each row of a folder's summary holds and whether the rows say complete.
fn summary_games(dir: &Path) -> (Vec<u64>, Vec<bool>) {
    let df = read_parquet(&dir.join("summary.parquet"));
    (0..df.height())
        .map(|r| (u64_at(&df, "games", r), bool_at(&df, "complete", r)))
        .unzip()
}

/// Plays `args` into `dir`, stopped by `signal` once it has used some CPU time: retried with
/// another time until the stop kept a strict prefix of the games (more than none, fewer than
/// all), which the summary marks incomplete. Returns the stopped run's stderr.
fn stop_mid_way(args: &[OsString], dir: &Path, signal: i32, expected_code: i32) -> String {
    let mut cpu = Duration::from_millis(400);
    let total: u64 = {
        // The games of an uninterrupted run of one cell, from --games.
        let i = args.iter().position(|a| a == "--games").expect("--games");
        args[i + 1]
            .to_string_lossy()
            .replace('M', "000000")
            .parse()
            .expect("a count")
    };
    for _ in 0..6 {
        let _ = fs::remove_dir_all(dir);
        let mut a = args.to_vec();
        a.extend(argv!["--out", dir]);
        let stopped = signalled(&a, signal, cpu);
        match stopped.code {
            Some(0) => {
                // It finished first: stop it sooner.
                cpu /= 2;
                continue;
            }
            Some(code) if code == expected_code => {}
            other => panic!("sim {a:?} stopped with {other:?}: {}", stopped.stderr),
        }
        let (games, complete) = summary_games(dir);
        assert!(
            complete.iter().all(|c| !c),
            "a stopped run's rows say complete = false: {complete:?}"
        );
        let most = games.iter().copied().max().unwrap_or(0);
        if most == 0 {
            cpu *= 2;
            continue;
        }
        assert!(
            most < total,
            "a stopped run holds a prefix: {games:?} of {total}"
        );
        return stopped.stderr;
    }
    panic!("could not stop sim {args:?} mid-way");
}

/// Plays `args` whole, and again stopped by SIGTERM mid-way and resumed, and returns how the two
/// sets of files differ (nothing, if resuming works).
fn resumed_differences(tmp: &TempDir, name: &str, args: &[OsString]) -> Vec<String> {
    let single = tmp.join(&format!("{name}-whole"));
    whole(args, &single);
    let stopped = tmp.join(&format!("{name}-resumed"));
    let note = stop_mid_way(args, &stopped, libc::SIGTERM, TERMINATED);
    let record = if args.iter().any(|a| a == "--shard") {
        "shard.json"
    } else {
        "resume.json"
    };
    let mut failures = Vec::new();
    if !stopped.join(record).exists() {
        failures.push(format!("{name}: the stopped run wrote no {record}"));
    }
    if !note.contains("stopped by SIGTERM") || !note.contains("--resume") {
        failures.push(format!(
            "{name}: the note does not say how to go on: {note:?}"
        ));
    }
    let mut again = args.to_vec();
    again.extend(argv!["--resume", &stopped]);
    let out = run(&again);
    if !out.status.success() {
        failures.push(format!("{name}: the resumed run failed: {}", stderr(&out)));
        return failures;
    }
    if !stdout(&out).contains("resumed from") {
        failures.push(format!("{name}: the report does not say it resumed"));
    }
    failures.extend(
        file_differences(&single, &stopped)
            .into_iter()
            .map(|d| format!("{name}: {d}")),
    );
    failures
}

#[test]
fn a_run_stopped_by_sigterm_and_resumed_writes_the_uninterrupted_runs_files() {
    let tmp = TempDir::new("resume_run");
    // 5M games make two per-game parts (4,194,304 games each at most).
    let args = argv![
        "crownfall",
        "--policy",
        "bank-at-16",
        "--games",
        "5M",
        "--seed",
        "3",
        "--per-game",
        "--threads",
        "2"
    ];
    assert_no_failures(&resumed_differences(&tmp, "run", &args));
    let single = tmp.join("run-whole");
    assert_eq!(
        files_in(&single),
        [
            "distributions.parquet",
            "games-00000.parquet",
            "games-00001.parquet",
            "summary.parquet"
        ]
    );
}

#[test]
fn grids_stopped_by_sigterm_and_resumed_write_the_uninterrupted_grids_files() {
    let tmp = TempDir::new("resume_grids");
    let cases: Vec<(&str, Vec<OsString>)> = vec![
        (
            "compare",
            argv![
                "compare",
                "crownfall",
                "--policy",
                "bank-at-15..17",
                "--baseline",
                "bank-at-15",
                "--games",
                "6M",
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
                "bank-at-16",
                "--policy",
                "bank-at-target",
                "--vary",
                "start_hp=16,20",
                "--games",
                "4M",
                "--threads",
                "2"
            ]
            .to_vec(),
        ),
        (
            // Cells that reach the target at different games, and some never within the cap.
            "precision sweep",
            argv![
                "sweep",
                "crownfall",
                "--policy",
                "bank-at-17",
                "--vary",
                "start_hp=4,12,20",
                "--precision",
                "0.0004",
                "--games",
                "8M",
                "--threads",
                "2"
            ]
            .to_vec(),
        ),
        (
            "tournament",
            argv![
                "compare",
                "junkyard",
                "--policy",
                "simple",
                "--policy",
                "greedy",
                "--games",
                "300000",
                "--threads",
                "2"
            ]
            .to_vec(),
        ),
    ];
    let mut failures = Vec::new();
    for (name, args) in &cases {
        failures.extend(resumed_differences(&tmp, &name.replace(' ', "-"), args));
    }
    assert_no_failures(&failures);
}

#[test]
fn a_shard_stopped_by_sigterm_and_resumed_merges_with_the_others_into_the_single_run() {
    let tmp = TempDir::new("resume_shard");
    let base = argv![
        "scoundrel",
        "--policy",
        "greedy",
        "--games",
        "2M",
        "--seed",
        "5",
        "--per-game"
    ];
    let mut failures = Vec::new();
    let mut shards = Vec::new();
    for i in 0..2 {
        let mut args = base.to_vec();
        args.extend(argv!["--shard", format!("{i}/2"), "--threads", "2"]);
        let dir = tmp.join(&format!("shard-{i}"));
        if i == 1 {
            // Its record says incomplete, and sim merge refuses it so.
            stop_mid_way(&args, &dir, libc::SIGTERM, TERMINATED);
            let mut both = shards.clone();
            both.push(dir.clone());
            match usage_error(&merge_to(&both, &tmp.join("early")), None) {
                Ok(err) if err.contains("incomplete") && err.contains("--resume") => {}
                Ok(err) => failures.push(format!("merge of a stopped shard: {err}")),
                Err(e) => failures.push(format!("merge of a stopped shard: {e}")),
            }
            args.extend(argv!["--resume", &dir]);
            let out = run(&args);
            if !out.status.success() {
                failures.push(format!("the resumed shard failed: {}", stderr(&out)));
            }
            // Resuming a complete shard again changes nothing (a requeued job that had
            // finished).
            let before = contents(&dir);
            let out = run(&args);
            if !out.status.success() || contents(&dir) != before {
                failures.push(format!("resuming a complete shard: {}", stderr(&out)));
            }
        } else {
            whole(&args, &dir);
        }
        shards.push(dir);
    }
    let merged = tmp.join("merged");
    let out = merge_to(&shards, &merged);
    assert!(out.status.success(), "merge: {}", stderr(&out));
    let single = tmp.join("single");
    whole(&base, &single);
    failures.extend(file_differences(&single, &merged));
    assert_no_failures(&failures);
}

#[test]
fn ctrl_c_stops_like_sigterm_with_exit_code_130_and_resumes_alike() {
    let tmp = TempDir::new("resume_ctrl_c");
    let args = argv![
        "regicide",
        "--policy",
        "heuristic",
        "--games",
        "400000",
        "--threads",
        "2"
    ];
    let dir = tmp.join("stopped");
    let note = stop_mid_way(&args, &dir, libc::SIGINT, INTERRUPTED);
    assert!(note.contains("stopped by Ctrl-C"), "{note}");
    let mut again = args.to_vec();
    again.extend(argv!["--resume", &dir]);
    let out = run(&again);
    assert!(out.status.success(), "{}", stderr(&out));
    let single = tmp.join("whole");
    whole(&args, &single);
    assert_no_failures(&file_differences(&single, &dir));
}

#[test]
fn a_prefix_is_resumed_only_by_the_command_that_played_it() {
    let tmp = TempDir::new("resume_refused");
    let base = argv![
        "crownfall",
        "--policy",
        "bank-at-17",
        "--games",
        "40M",
        "--seed",
        "9"
    ];
    let dir = tmp.join("stopped");
    stop_mid_way(&base, &dir, libc::SIGTERM, TERMINATED);
    let before = contents(&dir);
    let with = |extra: &[&str]| {
        let mut a = base.to_vec();
        a.extend(extra.iter().map(OsString::from));
        a
    };
    let cases: Vec<(Vec<OsString>, &str)> = vec![
        (
            argv![
                "crownfall",
                "--policy",
                "bank-at-17",
                "--games",
                "40M",
                "--seed",
                "10"
            ]
            .to_vec(),
            "seed 9, this command seed 10",
        ),
        (
            argv![
                "crownfall",
                "--policy",
                "bank-at-16",
                "--games",
                "40M",
                "--seed",
                "9"
            ]
            .to_vec(),
            "policy bank-at-17, this command policy bank-at-16",
        ),
        (
            argv![
                "crownfall",
                "--policy",
                "bank-at-17",
                "--games",
                "50M",
                "--seed",
                "9"
            ]
            .to_vec(),
            "a run of games",
        ),
        (with(&["--set", "start_hp=12"]), "rule start_hp"),
        (with(&["--per-game"]), "per-game"),
        (with(&["--shard", "0/2"]), "shard.json"),
        (
            argv![
                "sweep",
                "crownfall",
                "--policy",
                "bank-at-17",
                "--vary",
                "start_hp=12,16",
                "--games",
                "40M",
                "--seed",
                "9"
            ]
            .to_vec(),
            "command run, this command command sweep",
        ),
    ];
    let mut failures = Vec::new();
    for (mut args, named) in cases {
        args.extend(argv!["--resume", &dir]);
        failures.extend(refused_naming(
            &run(&args),
            None,
            named,
            &format!("{args:?}"),
        ));
        if contents(&dir) != before {
            failures.push(format!("{args:?} changed the stopped run's files"));
        }
    }
    // A record edited by hand is refused by its digest.
    let record = dir.join("resume.json");
    let text = fs::read_to_string(&record).unwrap();
    let edited = text.replacen("\"seed\":9", "\"seed\":10", 1);
    assert_ne!(text, edited);
    fs::write(&record, edited).unwrap();
    let mut args = argv![
        "crownfall",
        "--policy",
        "bank-at-17",
        "--games",
        "40M",
        "--seed",
        "10"
    ]
    .to_vec();
    args.extend(argv!["--resume", &dir]);
    failures.extend(refused_naming(
        &run(&args),
        None,
        "digest",
        "an edited resume.json",
    ));
    // A complete run has nothing to resume.
    let complete = tmp.join("complete");
    whole(&argv!["crownfall", "--games", "1000"], &complete);
    let out = run(&argv![
        "crownfall",
        "--games",
        "1000",
        "--resume",
        &complete
    ]);
    failures.extend(refused_naming(
        &out,
        None,
        "nothing to resume",
        "a complete run",
    ));
    // --resume writes into its own folder.
    let out = run(&argv![
        "crownfall",
        "--games",
        "1000",
        "--resume",
        &complete,
        "--out",
        tmp.join("x")
    ]);
    failures.extend(refused_naming(
        &out,
        Some(&tmp.join("x")),
        "--resume",
        "--resume with another --out",
    ));
    assert_no_failures(&failures);
}
