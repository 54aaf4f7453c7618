//! Junkyard Frankenstein at the command line: bad input refused (exit 2, one line, no file),
//! seats swapped on every deal when the policies differ, reproducible on any thread count, and
//! the tournament's files.

use std::ffi::OsString;

use crate::common::*;

fn f64_at(df: &polars::prelude::DataFrame, column: &str, row: usize) -> f64 {
    match value_at(df, column, row) {
        polars::prelude::AnyValue::Float64(v) => v,
        other => panic!("{column}[{row}] is {other:?}, not an f64"),
    }
}

#[test]
fn bad_policies_and_rules_exit_2_in_one_line_and_write_nothing() {
    let tmp = TempDir::new("junkyard-bad-input");
    let cases: [(&[&str], &str); 8] = [
        (&["--vs", "nonsense"], "greedy"),
        (&["--policy", "nonsense"], "lookahead"),
        (&["--vs", "lookahead-0"], "lookahead-N"),
        (&["--seat", "2=simple"], "--seat 2=simple"),
        (&["--set", "start_hp=0"], "start_hp = 0"),
        (&["--set", "turn_cap=0"], "turn_cap = 0"),
        (&["--set", "kings=3"], "kings = 3"),
        (&["--set", "hand_limit=3"], "unknown rule hand_limit"),
    ];
    assert_each_refused_naming("junkyard", &tmp, "1000", cases);
}

#[test]
fn vs_on_a_one_seat_game_is_refused_by_name() {
    let tmp = TempDir::new("junkyard-vs-solo");
    let dir = tmp.join("out");
    let out = run(&argv![
        "scoundrel",
        "--out",
        &dir,
        "--games",
        "1000",
        "--vs",
        "greedy"
    ]);
    let err = rejected(&out, Some(&dir));
    assert!(
        err.contains("--vs greedy") && err.contains("one seat"),
        "{err}"
    );
}

#[test]
fn a_tournament_of_one_policy_or_with_vs_is_refused() {
    let tmp = TempDir::new("junkyard-bad-tournament");
    let cases: [Vec<OsString>; 2] = [
        argv![
            "compare", "junkyard", "--policy", "simple", "--games", "1000"
        ]
        .to_vec(),
        argv![
            "compare", "junkyard", "-p", "simple", "-p", "random", "--vs", "greedy"
        ]
        .to_vec(),
    ];
    for (i, args) in cases.into_iter().enumerate() {
        let dir = tmp.join(&format!("out{i}"));
        let mut all = args.to_vec();
        all.extend(argv!["--out", &dir]);
        rejected(&run(&all), Some(&dir));
    }
}

#[test]
fn different_policies_play_each_deal_from_both_seats_and_threads_do_not_matter() {
    let tmp = TempDir::new("junkyard-swap");
    let one = game_to(
        "junkyard",
        &tmp.join("one"),
        &[
            "-p",
            "greedy",
            "--vs",
            "simple",
            "--games",
            "4000",
            "--threads",
            "1",
        ],
    );
    let two = game_to(
        "junkyard",
        &tmp.join("two"),
        &[
            "-p",
            "greedy",
            "--vs",
            "simple",
            "--games",
            "4000",
            "--threads",
            "2",
        ],
    );
    assert!(
        one.status.success() && two.status.success(),
        "{}",
        stderr(&one)
    );
    let a = read_parquet(&tmp.join("one/summary.parquet"));
    let b = read_parquet(&tmp.join("two/summary.parquet"));
    assert_eq!(str_at(&a, "policy", 0), "greedy vs simple");
    assert_eq!(u64_at(&a, "wins", 0), u64_at(&b, "wins", 0));
    assert_eq!(f64_at(&a, "mean_turns", 0), f64_at(&b, "mean_turns", 0));
    // Half the games in each seat: the overall rate is the mean of the two seats' rates.
    let (s0, s1) = (f64_at(&a, "win_as_seat0", 0), f64_at(&a, "win_as_seat1", 0));
    let overall = f64_at(&a, "win_rate", 0);
    assert!(
        (overall - (s0 + s1) / 2.0).abs() < 1e-12,
        "{overall} {s0} {s1}"
    );
    // Against itself a policy plays each deal once, always as the first policy in seat 0.
    let same = game_to(
        "junkyard",
        &tmp.join("same"),
        &["-p", "simple", "--games", "2000"],
    );
    assert!(same.status.success());
    let c = read_parquet(&tmp.join("same/summary.parquet"));
    assert_eq!(f64_at(&c, "win_rate", 0), f64_at(&c, "seat0_win_rate", 0));
}

#[test]
fn the_tournament_writes_the_matrix_and_the_ratings() {
    let tmp = TempDir::new("junkyard-tournament");
    let dir = tmp.join("t");
    let out = run(&argv![
        "compare", "junkyard", "-p", "random", "-p", "simple", "-p", "greedy", "--games", "2000",
        "--out", &dir
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("Bradley-Terry") && text.contains("win matrix"),
        "{text}"
    );
    let matrix = read_parquet(&dir.join("tournament.parquet"));
    assert_eq!(matrix.height(), 6);
    // Every meeting counted from both sides: i's wins + j's wins + draws = games.
    for r in 0..6 {
        let (p, o) = (str_at(&matrix, "policy", r), str_at(&matrix, "opponent", r));
        let back = (0..6)
            .find(|&s| str_at(&matrix, "policy", s) == o && str_at(&matrix, "opponent", s) == p)
            .expect("the reverse meeting");
        let games = u64_at(&matrix, "games", r);
        assert_eq!(games, 4000);
        assert_eq!(
            u64_at(&matrix, "wins", r)
                + u64_at(&matrix, "wins", back)
                + u64_at(&matrix, "draws", r),
            games
        );
    }
    let ratings = read_parquet(&dir.join("ratings.parquet"));
    assert_eq!(ratings.height(), 3);
    let elo: Vec<f64> = (0..3).map(|r| f64_at(&ratings, "elo", r)).collect();
    assert!(elo.iter().sum::<f64>().abs() < 1e-6);
    assert!(
        elo[2] > elo[1] && elo[1] > elo[0],
        "greedy > simple > random: {elo:?}"
    );
    for (r, &e) in elo.iter().enumerate() {
        assert!(f64_at(&ratings, "elo_ci_low", r) < e && e < f64_at(&ratings, "elo_ci_high", r));
    }
}
