//! `sim play` in a real pseudo-terminal: whole Crownfall, Scoundrel and Junkyard games played to the end by
//! typed choices with hints shown, a bad line answered with the choices again, `q` and the end of
//! input (Ctrl-D), and a recorded game replayed event for event.
//!
//! The terminal is a pty opened here (`openpty`): `sim`'s standard input, output and error are
//! its slave side, as in a shell; the test types into and reads from the master side.

use crate::common::TempDir;
use std::process::Command;

use crate::common::pty::{PAUSE, PROMPT, Pty, SAME, whole_game};

/// Steps through a replay with Enter at every pause; returns the pauses.
fn replay_to_the_end(record: &str, game: &str) -> usize {
    let mut r = Pty::spawn(&[game, "--replay", record]);
    let mut steps = 0;
    while r.expect_any(&[PAUSE, SAME]).1 == 0 {
        r.send_line("");
        steps += 1;
    }
    assert_eq!(r.exit_code(), 0);
    steps
}

/// Crownfall: bank at 17 or more, push below (from the table's strike total); accept a Joker.
fn crownfall_choice(screen: &str) -> &'static str {
    let table = screen
        .lines()
        .rev()
        .find(|l| l.starts_with("HP "))
        .expect("the table is shown");
    if table.contains("joker:") {
        return "1";
    }
    let total: u8 = table
        .split(" = ")
        .nth(1)
        .and_then(|t| t.trim_start_matches("soft ").split(' ').next())
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("the table shows the strike's total: {table}"));
    if total >= 17 { "1" } else { "2" }
}

/// A whole game played in a pty and recorded, as [`play_recorded`] returns it.
struct Recorded {
    /// Every screen, one per prompt answered, then the last.
    screens: Vec<String>,
    /// How many prompts were answered.
    prompts: usize,
    /// What the game printed after its last screen, up to the line naming the record.
    rest: String,
    /// The record's path (in `_tmp`, which lives as long as this).
    record: String,
    _tmp: TempDir,
}

/// Game 3 of seed 42 of `game` played to the end in a pty with `--hints hints`, each prompt
/// answered by `choose` from its screen, and recorded; asserts that `sim` says where the record
/// went and exits 0.
fn play_recorded(game: &str, hints: &str, choose: impl Fn(&str) -> &'static str) -> Recorded {
    let tmp = TempDir::new(&format!("play_{game}"));
    let record = tmp.join("game.jsonl").to_str().unwrap().to_string();
    let mut p = Pty::spawn(&[
        game, "--seed", "42", "--game", "3", "--hints", hints, "--record", &record,
    ]);
    let (screens, prompts) = whole_game(&mut p, choose);
    let rest = p.expect(&format!("recorded to {record}"));
    assert_eq!(p.exit_code(), 0);
    Recorded {
        screens,
        prompts,
        rest,
        record,
        _tmp: tmp,
    }
}

#[test]
fn a_whole_crownfall_game_with_hints_in_a_pty_recorded_and_replayed() {
    let r = play_recorded("crownfall", "optimal", crownfall_choice);
    assert!(
        r.prompts > 10,
        "a whole game asks many times: {}",
        r.prompts
    );
    let first = &r.screens[0];
    assert!(
        first.contains("1) bank") && first.contains("2) push"),
        "{first}"
    );
    assert!(
        first.contains("hint (optimal): ") && first.contains("win probability: bank "),
        "{first}"
    );
    assert!(
        !first.contains("deal:"),
        "the person does not see the deal: {first}"
    );
    assert!(r.rest.contains("final_hp"), "{}", r.rest);
    // The replay pauses at every decision the person made and checks every event.
    assert_eq!(replay_to_the_end(&r.record, "crownfall"), r.prompts);
}

#[test]
fn a_whole_scoundrel_game_with_lookahead_hints_in_a_pty_recorded_and_replayed() {
    // Always the first choice: avoid when allowed, else the first way to face the room.
    let r = play_recorded("scoundrel", "lookahead", |_| "1");
    assert!(r.prompts >= 5, "{}", r.prompts);
    let first = &r.screens[0];
    assert!(
        first.contains("room: ") && first.contains("  1) avoid the room"),
        "{first}"
    );
    assert!(first.contains("hint (lookahead): "), "{first}");
    assert!(
        r.screens
            .iter()
            .any(|s| s.contains("expected best value of the next room: ")),
        "the lookahead values the ways to play a room"
    );
    assert_eq!(replay_to_the_end(&r.record, "scoundrel"), r.prompts);
}

#[test]
fn a_whole_junkyard_game_with_greedy_hints_in_a_pty_recorded_and_replayed() {
    // Always the first choice: the first automaton to build, then done, no attack, no blocks.
    let r = play_recorded("junkyard", "greedy", |_| "1");
    assert!(r.prompts >= 5, "{}", r.prompts);
    let first = &r.screens[0];
    assert!(
        first.contains("you: HP 25") && first.contains("  1) build ") && first.contains(") done"),
        "{first}"
    );
    assert!(first.contains("hint (greedy): "), "{first}");
    assert!(
        !first.contains("deal:"),
        "the person does not see the heaps: {first}"
    );
    assert!(
        r.screens.iter().any(|s| s.contains("1) done: no blocks")),
        "the person is asked to block"
    );
    let last = r.screens.last().unwrap();
    assert!(last.contains("seat 1 wins"), "{last}");
    // The replay checks every event against the record and pauses at each decision.
    assert!(replay_to_the_end(&r.record, "junkyard") >= r.prompts / 2);
}

#[test]
fn a_whole_solo_regicide_game_with_hints_in_a_pty_recorded_and_replayed() {
    // Always the first choice: the first play (or cover) listed.
    let r = play_recorded("regicide", "heuristic", |_| "1");
    assert!(r.prompts >= 5, "{}", r.prompts);
    let first = &r.screens[0];
    assert!(
        first.contains("enemy J") && first.contains("your hand: ") && first.contains("  1) play "),
        "{first}"
    );
    assert!(first.contains("hint (heuristic): "), "{first}");
    assert!(
        !first.contains("deal:"),
        "the person does not see the deal: {first}"
    );
    assert!(r.rest.contains("royals"), "{}", r.rest);
    // The replay pauses at every decision, the forced ones included.
    assert!(replay_to_the_end(&r.record, "regicide") >= r.prompts);
}

#[test]
fn q_quits_and_the_end_of_input_stops_cleanly_without_a_record() {
    let tmp = TempDir::new("play_quit");
    for (game, stop) in [
        ("crownfall", "q"),
        ("scoundrel", "q"),
        ("regicide", "q"),
        ("crownfall", "eof"),
        ("scoundrel", "eof"),
        ("junkyard", "q"),
        ("junkyard", "eof"),
        ("regicide", "eof"),
    ] {
        let record = tmp.join(&format!("{game}-{stop}.jsonl"));
        let hints = match game {
            "crownfall" => "expectimax",
            "junkyard" => "lookahead",
            "regicide" => "simple",
            _ => "heuristic",
        };
        let mut p = Pty::spawn(&[game, "--hints", hints, "--record", record.to_str().unwrap()]);
        p.expect(PROMPT);
        if stop == "q" {
            p.send_line("q");
        } else {
            p.send_eof();
            p.expect("end of input: game stopped");
        }
        p.expect("quit: game not finished");
        assert_eq!(p.exit_code(), 0, "{game} {stop}");
        assert!(
            !record.exists(),
            "{game} {stop}: no record of an unfinished game"
        );
        assert!(
            std::fs::read_dir(tmp.path()).unwrap().next().is_none(),
            "no temporary file left"
        );
    }
}

#[test]
fn bad_play_arguments_exit_2_with_one_line() {
    for args in [
        &["nogame"][..],
        &["crownfall", "--hints", "nonsense"],
        &["crownfall", "--replay", "/nonexistent/game.jsonl"],
        &["crownfall", "--replay", "x.jsonl", "--hints", "optimal"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_sim"))
            .arg("play")
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
}
