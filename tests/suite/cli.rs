//! The `sim` binary end to end: bad input, reproducibility, the Parquet reports, Ctrl-C.
//!
//! Every test runs the real binary and works in its own temporary folder, removed afterwards.

use std::io::Read;
use std::process::Stdio;

use crate::common::*;

#[test]
fn unknown_game_exits_2_and_names_the_known_games() {
    let out = run(&["crownfal"]);
    let err = rejected(&out, None);
    assert!(
        err.contains("crownfall"),
        "stderr should list the known game crownfall: {err:?}"
    );
}

#[test]
fn unknown_policy_exits_2_lists_the_policies_and_writes_nothing() {
    let tmp = TempDir::new("unknown_policy");
    let mut failures = Vec::new();
    for policy in ["bank-at-99", "nonsense"] {
        let dir = tmp.join(policy);
        let out = crownfall_to(&dir, &argv!["--policy", policy, "--games", "1000"]);
        match usage_error(&out, Some(&dir)) {
            Err(e) => failures.push(format!("--policy {policy}: {e}")),
            Ok(err) if !err.contains("bank-at-target") => failures.push(format!(
                "--policy {policy}: stderr does not list the known policies \
                 (no \"bank-at-target\"): {err:?}"
            )),
            Ok(_) => {}
        }
    }
    assert_no_failures(&failures);
}

#[test]
fn bad_game_count_exits_2_names_the_count_and_writes_nothing() {
    let tmp = TempDir::new("bad_game_count");
    let mut failures = Vec::new();
    for (i, count) in ["0", "abc"].into_iter().enumerate() {
        let dir = tmp.join(&format!("out{i}"));
        let out = crownfall_to(&dir, &argv!["--games", count]);
        match usage_error(&out, Some(&dir)) {
            Err(e) => failures.push(format!("--games {count}: {e}")),
            Ok(err) if !(err.contains("count") && err.contains(&format!("'{count}'"))) => failures
                .push(format!(
                    "--games {count}: stderr should name the value and say it is a game count: \
                     {err:?}"
                )),
            Ok(_) => {}
        }
    }
    assert_no_failures(&failures);
}

#[test]
fn malformed_rules_toml_names_the_file_and_line() {
    let tmp = TempDir::new("malformed_rules");
    let rules = tmp.write(
        "broken.toml",
        "start_hp = 20\nguard_zone = 2\nmax_hp = = 3\n",
    );
    let dir = tmp.join("out");
    let out = crownfall_to(&dir, &argv!["--rules", &rules, "--games", "1000"]);
    let err = rejected(&out, Some(&dir));
    assert!(
        err.contains(&rules.display().to_string()),
        "stderr should name the file {}: {err:?}",
        rules.display()
    );
    assert!(err.contains("line 3"), "stderr should say line 3: {err:?}");
}

#[test]
fn out_of_range_and_unknown_rules_exit_2_and_name_the_field() {
    let tmp = TempDir::new("bad_rules");
    let mut failures = Vec::new();
    for (i, (set, field)) in [("start_hp=25", "start_hp"), ("nope=1", "nope")]
        .into_iter()
        .enumerate()
    {
        let dir = tmp.join(&format!("out{i}"));
        let out = crownfall_to(&dir, &argv!["--set", set, "--games", "1000"]);
        match usage_error(&out, Some(&dir)) {
            Err(e) => failures.push(format!("--set {set}: {e}")),
            Ok(err) if !err.contains(field) => failures.push(format!(
                "--set {set}: stderr should name the field {field}: {err:?}"
            )),
            Ok(_) => {}
        }
    }
    assert_no_failures(&failures);
}

#[test]
fn unwritable_out_dir_exits_2_with_a_clear_error() {
    let tmp = TempDir::new("unwritable_out");
    let file = tmp.write("F", "a regular file, not a folder\n");
    let dir = file.join("sub");
    let out = crownfall_to(&dir, &argv!["--games", "1000"]);
    let err = rejected(&out, None);
    assert!(
        err.contains("--out") && err.contains(&dir.display().to_string()),
        "stderr should name --out and the path {}: {err:?}",
        dir.display()
    );
    assert_eq!(
        files_in(tmp.path()),
        vec!["F".to_string()],
        "nothing but the blocking file should exist"
    );
}

#[test]
fn same_seed_gives_identical_files_whatever_the_threads() {
    let tmp = TempDir::new("threads_identical");
    let runs = on_1_and_2_threads(&tmp, &["crownfall", "--games", "300K", "--seed", "7"]);
    assert_same_files_on_1_and_2_threads(&runs, &["summary.parquet", "distributions.parquet"]);
    let [one, two] = runs.each_ref().map(|(_, out)| {
        stdout(out)
            .lines()
            .find(|l| l.trim_start().starts_with("win rate"))
            .unwrap_or_else(|| panic!("no win rate line in stdout:\n{}", stdout(out)))
            .to_string()
    });
    assert_eq!(
        one, two,
        "the win rate line differs between 1 and 2 threads"
    );
    let summary = read_parquet(&runs[0].0.join("summary.parquet"));
    assert_eq!(u64_at(&summary, "games", 0), 300_000);
    assert_eq!(u64_at(&summary, "seed", 0), 7);
}

#[test]
fn per_game_file_and_summary_and_distributions_agree() {
    let tmp = TempDir::new("per_game");
    let dir = tmp.join("out");
    let out = crownfall_to(&dir, &argv!["--games", "50K", "--per-game"]);
    assert!(
        out.status.success(),
        "run failed: {:?}\n{}",
        out.status,
        stderr(&out)
    );
    assert_eq!(
        files_in(&dir),
        ["distributions.parquet", "games.parquet", "summary.parquet"],
        "exactly the three reports, no leftovers"
    );

    let games = read_parquet(&dir.join("games.parquet"));
    assert_eq!(games.height(), 50_000, "one row per game");
    let index = games.column("game").and_then(|c| c.u64().cloned());
    let index = index.expect("games.parquet has a u64 game column");
    assert!(
        index.iter().map(Option::unwrap).eq(0..50_000u64),
        "the game column runs 0..50000 in order"
    );
    let win = games.column("win").and_then(|c| c.bool().cloned());
    let wins_per_game = win.expect("games.parquet has a bool win column").sum();
    let wins_per_game = u64::from(wins_per_game.expect("win has values"));

    let summary = read_parquet(&dir.join("summary.parquet"));
    assert_eq!(summary.height(), 1);
    let names = column_names(&summary);
    for want in [
        "game",
        "policy",
        "games",
        "wins",
        "win_rate",
        "win_ci_low",
        "win_ci_high",
        "mean_final_hp",
        "mean_cleared",
        "seed",
        "first_game",
        "complete",
        "rules",
        "version",
    ] {
        assert!(
            names.iter().any(|n| n == want),
            "summary lacks column {want}: {names:?}"
        );
    }
    assert_eq!(str_at(&summary, "game", 0), "crownfall");
    assert_eq!(u64_at(&summary, "games", 0), 50_000);
    assert!(bool_at(&summary, "complete", 0));
    assert_eq!(
        u64_at(&summary, "wins", 0),
        wins_per_game,
        "summary wins = sum of games.parquet win"
    );

    let dist = read_parquet(&dir.join("distributions.parquet"));
    let names = column_names(&dist);
    for want in ["policy", "metric", "value", "count"] {
        assert!(
            names.iter().any(|n| n == want),
            "distributions lacks column {want}: {names:?}"
        );
    }
    let metrics: Vec<String> = metric_counts(&dist).into_iter().map(|(m, _)| m).collect();
    for want in ["final_hp", "cleared", "strikes"] {
        assert!(
            metrics.iter().any(|m| m == want),
            "distributions lacks metric {want}"
        );
    }
    assert_eq!(metric_total(&dist, "final_hp"), 50_000);
}

#[test]
fn ctrl_c_writes_the_completed_prefix_and_exits_130() {
    let tmp = TempDir::new("ctrl_c");
    let dir = tmp.join("out");
    stop_a_long_run(&dir, libc::SIGINT, INTERRUPTED);
    let temps: Vec<String> = files_in(&dir)
        .into_iter()
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(temps.is_empty(), "temporary files left behind: {temps:?}");
}

#[test]
fn list_shows_games_policies_and_rules() {
    let out = run(&["list"]);
    assert!(out.status.success(), "{:?}\n{}", out.status, stderr(&out));
    let text = stdout(&out);
    for want in ["crownfall", "bank-at-N", "guard_zone"] {
        assert!(text.contains(want), "sim list lacks {want}:\n{text}");
    }
}

#[test]
fn a_closed_stdout_does_not_panic_and_the_files_are_written() {
    let dir = TempDir::new("closed-stdout");
    let out = dir.join("out");
    let mut child = sim()
        .args(["crownfall", "--games", "20K", "--out"])
        .arg(&out)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start sim");
    // The reader goes away before sim prints anything, as `sim ... | head -0` would.
    drop(child.stdout.take());
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("piped stderr")
        .read_to_string(&mut err)
        .expect("read stderr");
    let status = child.wait().expect("wait for sim");
    assert!(status.success(), "{status:?}\n{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.join("summary.parquet").exists());
}

#[test]
fn game_help_exits_0_and_documents_the_options() {
    let out = run(&["crownfall", "--help"]);
    assert!(out.status.success(), "{:?}\n{}", out.status, stderr(&out));
    let text = stdout(&out);
    for want in ["--policy", "--games", "press-your-luck"] {
        assert!(text.contains(want), "help lacks {want}:\n{text}");
    }
}

#[test]
fn help_of_help_prints_sims_help() {
    for args in [["help", "--help"], ["help", "-h"]] {
        let out = run(&args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        let text = stdout(&out);
        for want in ["Usage: sim", "evaluate", "crownfall"] {
            assert!(text.contains(want), "{args:?}: help lacks {want}:\n{text}");
        }
    }
}

#[test]
fn game_indices_past_the_last_u64_are_refused() {
    let dir = TempDir::new("index-overflow");
    let out_dir = dir.join("out");
    let out = crownfall_to(
        &out_dir,
        &argv!["--first-game", "18446744073709551000", "--games", "5000"],
    );
    let err = rejected(&out, Some(&out_dir));
    assert!(err.contains("--first-game"), "{err}");
    // The very last indices are fine.
    let out = crownfall_to(
        &out_dir,
        &argv!["--first-game", "18446744073709551515", "--games", "100"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn strategy_file_names_the_policy_and_bad_stand_totals_are_rejected() {
    let tmp = TempDir::new("strategy");
    let good = "jack = { hard = 12, soft = 12 }\n\
                queen = { hard = 15, soft = 16 }\n\
                king = { hard = 17, soft = 18 }\n\
                joker = \"safe\"\n";
    let file = tmp.write("steady-hand.toml", good);
    let dir = tmp.join("out");
    let out = crownfall_to(&dir, &argv!["--policy", &file, "--games", "20K"]);
    assert!(out.status.success(), "{:?}\n{}", out.status, stderr(&out));
    let summary = read_parquet(&dir.join("summary.parquet"));
    assert_eq!(str_at(&summary, "policy", 0), "steady-hand");
    assert_eq!(u64_at(&summary, "games", 0), 20_000);

    let bad = good.replace(
        "king = { hard = 17, soft = 18 }",
        "king = { hard = 30, soft = 18 }",
    );
    let file = tmp.write("too-far.toml", &bad);
    let dir = tmp.join("bad-out");
    let out = crownfall_to(&dir, &argv!["--policy", &file, "--games", "20K"]);
    let err = rejected(&out, Some(&dir));
    assert!(
        err.contains("king.hard"),
        "stderr should name king.hard: {err:?}"
    );
}

#[test]
fn solve_prints_the_chart_writes_a_playable_plan_and_a_chart_table() {
    let dir = TempDir::new("solve");
    let solved = dir.join("gz3");
    let plan = solved.join("strategy.toml");
    let chart = dir.join("gz3.parquet");
    let out = run(&argv![
        "solve",
        "crownfall",
        "--set",
        "guard_zone=3",
        "--out",
        &solved,
        "--chart",
        &chart
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    for want in [
        "king (target 18)",
        "joker, after an odd flip",
        "optimal win probability",
    ] {
        assert!(text.contains(want), "sim solve lacks {want}:\n{text}");
    }
    let df = read_parquet(&chart);
    // 375 tower multisets: 300 can face each royal and 250 a Joker, each at 20 HP values.
    assert_eq!(df.height(), (3 * 300 + 250) * 20);
    assert!(column_names(&df).contains(&"bank_hard".to_string()));
    let games = run(&argv![
        "crownfall",
        "--policy",
        &plan,
        "--set",
        "guard_zone=3",
        "--games",
        "20K",
        "--out",
        &dir.join("run")
    ]);
    assert!(games.status.success(), "{}", stderr(&games));
    assert!(stdout(&games).contains("policy gz3"), "{}", stdout(&games));
}

#[test]
fn solve_bad_input_exits_2() {
    let dir = TempDir::new("solve-bad");
    let cases: Vec<Vec<std::ffi::OsString>> = vec![
        vec!["solve".into(), "blackjack".into()],
        vec![
            "solve".into(),
            "crownfall".into(),
            "--set".into(),
            "deck=endless".into(),
        ],
        vec![
            "solve".into(),
            "crownfall".into(),
            "--evaluate".into(),
            "bank-at-99".into(),
        ],
        vec![
            "solve".into(),
            "crownfall".into(),
            "--out".into(),
            dir.join("missing.toml").join("x.toml").into(),
        ],
    ];
    let blocker = dir.write("missing.toml", "not a folder");
    assert!(blocker.exists());
    let mut failures = Vec::new();
    for args in &cases {
        if let Err(e) = usage_error(&run(args), None) {
            failures.push(format!("{args:?}: {e}"));
        }
    }
    assert_no_failures(&failures);
}
