//! Every trace `sim` writes replays: a property over the games, their policies (search players
//! and full-knowledge ones included), seats (a duel's seat-swapped games, other policies in other
//! seats), rule variants, seeds and game indices. Each case is `sim trace --json` written to a
//! file, then `sim play --replay` of that file, both through the binary as a user runs them; the
//! replay must step through to its last event and find every one the same as the record. Seeded,
//! so a failure is reproduced by its case number.

use std::ffi::OsString;
use std::io::Write;
use std::process::Stdio;

use crate::common::*;
use crate::random_inputs::Rand;

/// Cases per game.
const CASES: usize = 14;

/// What a game's cases draw from: policies, flags that seat other policies, rule changes.
struct Space {
    game: &'static str,
    policies: &'static [&'static str],
    seats: &'static [&'static [&'static str]],
    rules: &'static [&'static [&'static str]],
}

const SPACES: [Space; 4] = [
    Space {
        game: "crownfall",
        policies: &[
            "bank-at-17",
            "bank-at-12",
            "bank-at-target",
            "pimc-3",
            "ismcts-10",
        ],
        seats: &[&[]],
        rules: &[
            &[],
            &["--set", "deck=infinite"],
            &["--set", "deck=infinite", "--set", "start_hp=15"],
            &["--set", "start_hp=8"],
        ],
    },
    Space {
        game: "scoundrel",
        policies: &["greedy", "heuristic", "pimc-3", "ismcts-10", "clairvoyant"],
        seats: &[&[]],
        rules: &[
            &[],
            &["--set", "start_hp=10"],
            &["--set", "weapon_wear=strict"],
        ],
    },
    Space {
        game: "regicide",
        policies: &["simple", "heuristic", "clairvoyant", "pimc-3", "ismcts-10"],
        seats: &[
            &[],
            &["--players", "2"],
            &["--players", "3", "--seat", "1=heuristic"],
            &["--players", "2", "--seat", "1=pimc-3"],
        ],
        rules: &[&[], &["--set", "solo_jesters=0"]],
    },
    Space {
        game: "junkyard",
        policies: &["simple", "greedy", "random", "pimc-3", "ismcts-10"],
        seats: &[
            &[],
            &["--vs", "simple"],
            &["--vs", "greedy"],
            &["--vs", "ismcts-10"],
            &["--seat", "1=pimc-3"],
        ],
        rules: &[
            &[],
            &["--set", "start_hp=10"],
            &["--set", "second_seat_hp_bonus=5"],
            &["--set", "turn_cap=6"],
        ],
    },
];

/// Replays `path` through `sim play --replay`, going on at every pause.
fn replay(game: &str, path: &std::path::Path) -> std::process::Output {
    let mut child = sim()
        .args(argv!["play", game, "--replay", path])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start sim play");
    let mut stdin = child.stdin.take().expect("stdin piped");
    let feeder = std::thread::spawn(move || {
        // An Enter for every pause; the replay may end before reading them all.
        let _ = stdin.write_all(&[b'\n'; 1 << 16]);
    });
    let out = child.wait_with_output().expect("run sim play");
    let _ = feeder.join();
    out
}

#[test]
fn every_trace_sim_writes_replays() {
    let tmp = TempDir::new("trace-replays");
    let mut rng = Rand::new(7);
    let mut failures = Vec::new();
    let mut cases = 0;
    for space in &SPACES {
        for n in 0..CASES {
            let policy = *rng.pick(space.policies);
            let seats = *rng.pick(space.seats);
            let rules = *rng.pick(space.rules);
            let seed = rng.below(1000);
            let index = rng.below(60);
            let mut args: Vec<OsString> = argv!["trace", space.game, "--policy", policy].to_vec();
            args.extend(seats.iter().chain(rules).map(OsString::from));
            args.extend(argv![
                "--seed",
                seed.to_string(),
                "--game",
                index.to_string(),
                "--json"
            ]);
            let case = format!("{} case {n}: sim {}", space.game, shown(&args));
            let traced = run(&args);
            if !traced.status.success() {
                failures.push(format!("{case}: trace failed: {}", stderr(&traced)));
                continue;
            }
            let path = tmp.join(&format!("{}-{n}.jsonl", space.game));
            std::fs::write(&path, &traced.stdout).unwrap();
            let replayed = replay(space.game, &path);
            let text = stdout(&replayed);
            if !replayed.status.success() || !text.contains("every one the same as the record") {
                failures.push(format!(
                    "{case}: replay exit {:?}: {}{}",
                    replayed.status.code(),
                    stderr(&replayed),
                    text.lines().last().unwrap_or("")
                ));
            }
            cases += 1;
        }
    }
    println!("{cases} traces replayed");
    assert_no_failures(&failures);
}

/// A command line as typed.
fn shown(args: &[OsString]) -> String {
    args.iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The traces found refused by `play --replay`: an endless deck's reshuffles, a duel against
/// another policy (its seat-swapped games), a full-knowledge player.
#[test]
fn the_traces_once_refused_replay() {
    let tmp = TempDir::new("trace-replays-found");
    let mut failures = Vec::new();
    let cases: [&[&str]; 5] = [
        &[
            "crownfall",
            "--set",
            "deck=infinite",
            "--seed",
            "5",
            "--game",
            "40",
        ],
        &[
            "junkyard", "--policy", "greedy", "--vs", "simple", "--game", "7",
        ],
        &[
            "junkyard",
            "--policy",
            "greedy",
            "--vs",
            "ismcts-10",
            "--game",
            "7",
        ],
        &["junkyard", "--seat", "1=pimc-3", "--game", "5"],
        &["regicide", "--policy", "clairvoyant", "--game", "0"],
    ];
    for (n, case) in cases.into_iter().enumerate() {
        let mut args = argv!["trace"].to_vec();
        args.extend(case.iter().map(OsString::from));
        args.push("--json".into());
        let traced = run(&args);
        assert!(traced.status.success(), "{case:?}: {}", stderr(&traced));
        let path = tmp.join(&format!("{n}.jsonl"));
        std::fs::write(&path, &traced.stdout).unwrap();
        let replayed = replay(case[0], &path);
        if !replayed.status.success()
            || !stdout(&replayed).contains("every one the same as the record")
        {
            failures.push(format!("{case:?}: {}", stderr(&replayed)));
        }
    }
    assert_no_failures(&failures);
}
