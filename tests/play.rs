//! `sim play` in a real pseudo-terminal: whole Crownfall, Scoundrel and Junkyard games played to the end by
//! typed choices with hints shown, a bad line answered with the choices again, `q` and the end of
//! input (Ctrl-D), and a recorded game replayed event for event.
//!
//! The terminal is a pty opened here (`openpty`): `sim`'s standard input, output and error are
//! its slave side, as in a shell; the test types into and reads from the master side.

mod common;

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{FromRawFd, OwnedFd};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::TempDir;

/// How long a prompt may take to come (the machine may be loaded).
const TIMEOUT: Duration = Duration::from_secs(120);

/// `sim play` running on a pseudo-terminal.
struct Pty {
    master: File,
    out: Arc<Mutex<Vec<u8>>>,
    /// Bytes of `out` already matched.
    seen: usize,
    child: Child,
}

impl Pty {
    fn spawn(args: &[&str]) -> Self {
        let (mut master, mut slave) = (0, 0);
        // SAFETY: openpty writes two new file descriptors; the null name, termios and window
        // size ask for the defaults.
        let rc = unsafe {
            libc::openpty(
                &mut master,
                &mut slave,
                std::ptr::null_mut(),
                std::ptr::null(),
                std::ptr::null(),
            )
        };
        assert_eq!(rc, 0, "openpty: {}", std::io::Error::last_os_error());
        // SAFETY: both descriptors were just opened and are owned here alone.
        let (master, slave) = unsafe { (File::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
        let io = |fd: &OwnedFd| Stdio::from(fd.try_clone().expect("dup the pty"));
        let child = Command::new(env!("CARGO_BIN_EXE_sim"))
            .arg("play")
            .args(args)
            .stdin(io(&slave))
            .stdout(io(&slave))
            .stderr(io(&slave))
            .spawn()
            .expect("run sim play");
        // Only the child holds the slave now: its exit ends the master's output.
        drop(slave);
        let out = Arc::new(Mutex::new(Vec::new()));
        let mut reader = master.try_clone().expect("dup the master");
        let sink = Arc::clone(&out);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            // A read error (EIO once the child has closed the slave) ends the output.
            while let Ok(n @ 1..) = reader.read(&mut buf) {
                sink.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        Self {
            master,
            out,
            seen: 0,
            child,
        }
    }

    /// Waits for the first of `needles` after what was matched so far: the text before it and
    /// which needle came.
    fn expect_any(&mut self, needles: &[&str]) -> (String, usize) {
        let start = Instant::now();
        loop {
            {
                let out = self.out.lock().unwrap();
                let rest = &out[self.seen..];
                let found = needles
                    .iter()
                    .enumerate()
                    .filter_map(|(k, n)| find(rest, n.as_bytes()).map(|at| (at, k)))
                    .min();
                if let Some((at, k)) = found {
                    let before = String::from_utf8_lossy(&rest[..at]).into_owned();
                    self.seen += at + needles[k].len();
                    return (before, k);
                }
                assert!(
                    start.elapsed() < TIMEOUT,
                    "none of {needles:?} in:\n{}",
                    String::from_utf8_lossy(rest)
                );
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    fn expect(&mut self, needle: &str) -> String {
        self.expect_any(&[needle]).0
    }

    fn send_line(&mut self, line: &str) {
        self.master
            .write_all(format!("{line}\n").as_bytes())
            .unwrap();
    }

    /// Ctrl-D at the start of a line: the end of input.
    fn send_eof(&mut self) {
        self.master.write_all(&[4]).unwrap();
    }

    /// The exit code once `sim` has ended.
    fn exit_code(mut self) -> i32 {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code().expect("sim exits with a code");
            }
            assert!(start.elapsed() < TIMEOUT, "sim did not exit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

const PROMPT: &str = ", q to quit)> ";
const WON: &str = "\nWON: ";
const LOST: &str = "\nLOST: ";
const PAUSE: &str = "[Enter: next, q: quit]> ";
const SAME: &str = "events: every one the same as the record";

/// Waits for the next prompt or the game's end: the text before it, and whether it is a prompt.
fn next(p: &mut Pty) -> (String, bool) {
    let (before, k) = p.expect_any(&[PROMPT, WON, LOST]);
    (before, k == 0)
}

/// Plays a whole game by `choose` (from the text before each prompt), answering the first prompt
/// with a bad line first. Returns every screen shown before a prompt and the count of prompts.
fn whole_game(p: &mut Pty, choose: impl Fn(&str) -> &'static str) -> (Vec<String>, usize) {
    let mut screens = Vec::new();
    let mut prompts = 0;
    loop {
        let (screen, prompt) = next(p);
        if !prompt {
            screens.push(screen);
            break;
        }
        if prompts == 0 {
            p.send_line("banana");
            let again = p.expect(PROMPT);
            assert!(again.contains("not a choice: \"banana\""), "{again}");
            assert!(
                again.contains("  1) "),
                "the choices are listed again: {again}"
            );
        }
        p.send_line(choose(&screen));
        screens.push(screen);
        prompts += 1;
    }
    (screens, prompts)
}

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

#[test]
fn a_whole_crownfall_game_with_hints_in_a_pty_recorded_and_replayed() {
    let tmp = TempDir::new("play_crownfall");
    let record = tmp.join("game.jsonl");
    let record = record.to_str().unwrap();
    let mut p = Pty::spawn(&[
        "crownfall",
        "--seed",
        "42",
        "--game",
        "3",
        "--hints",
        "optimal",
        "--record",
        record,
    ]);
    let (screens, prompts) = whole_game(&mut p, crownfall_choice);
    assert!(prompts > 10, "a whole game asks many times: {prompts}");
    let first = &screens[0];
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
    let rest = p.expect(&format!("recorded to {record}"));
    assert!(rest.contains("final_hp"), "{rest}");
    assert_eq!(p.exit_code(), 0);
    // The replay pauses at every decision the person made and checks every event.
    assert_eq!(replay_to_the_end(record, "crownfall"), prompts);
}

#[test]
fn a_whole_scoundrel_game_with_lookahead_hints_in_a_pty_recorded_and_replayed() {
    let tmp = TempDir::new("play_scoundrel");
    let record = tmp.join("game.jsonl");
    let record = record.to_str().unwrap();
    let mut p = Pty::spawn(&[
        "scoundrel",
        "--seed",
        "42",
        "--game",
        "3",
        "--hints",
        "lookahead",
        "--record",
        record,
    ]);
    // Always the first choice: avoid when allowed, else the first way to face the room.
    let (screens, prompts) = whole_game(&mut p, |_| "1");
    assert!(prompts >= 5, "{prompts}");
    let first = &screens[0];
    assert!(
        first.contains("room: ") && first.contains("  1) avoid the room"),
        "{first}"
    );
    assert!(first.contains("hint (lookahead): "), "{first}");
    assert!(
        screens
            .iter()
            .any(|s| s.contains("expected best value of the next room: ")),
        "the lookahead values the ways to play a room"
    );
    p.expect(&format!("recorded to {record}"));
    assert_eq!(p.exit_code(), 0);
    assert_eq!(replay_to_the_end(record, "scoundrel"), prompts);
}

#[test]
fn a_whole_junkyard_game_with_greedy_hints_in_a_pty_recorded_and_replayed() {
    let tmp = TempDir::new("play_junkyard");
    let record = tmp.join("game.jsonl");
    let record = record.to_str().unwrap();
    let mut p = Pty::spawn(&[
        "junkyard", "--seed", "42", "--game", "3", "--hints", "greedy", "--record", record,
    ]);
    // Always the first choice: the first automaton to build, then done, no attack, no blocks.
    let (screens, prompts) = whole_game(&mut p, |_| "1");
    assert!(prompts >= 5, "{prompts}");
    let first = &screens[0];
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
        screens.iter().any(|s| s.contains("1) done: no blocks")),
        "the person is asked to block"
    );
    assert!(
        screens.last().unwrap().contains("seat 1 wins"),
        "{}",
        screens.last().unwrap()
    );
    p.expect(&format!("recorded to {record}"));
    assert_eq!(p.exit_code(), 0);
    // The replay checks every event against the record and pauses at each decision.
    assert!(replay_to_the_end(record, "junkyard") >= prompts / 2);
}

#[test]
fn a_whole_solo_regicide_game_with_hints_in_a_pty_recorded_and_replayed() {
    let tmp = TempDir::new("play_regicide");
    let record = tmp.join("game.jsonl");
    let record = record.to_str().unwrap();
    let mut p = Pty::spawn(&[
        "regicide",
        "--seed",
        "42",
        "--game",
        "3",
        "--hints",
        "heuristic",
        "--record",
        record,
    ]);
    // Always the first choice: the first play (or cover) listed.
    let (screens, prompts) = whole_game(&mut p, |_| "1");
    assert!(prompts >= 5, "{prompts}");
    let first = &screens[0];
    assert!(
        first.contains("enemy J") && first.contains("your hand: ") && first.contains("  1) play "),
        "{first}"
    );
    assert!(first.contains("hint (heuristic): "), "{first}");
    assert!(
        !first.contains("deal:"),
        "the person does not see the deal: {first}"
    );
    let rest = p.expect(&format!("recorded to {record}"));
    assert!(rest.contains("royals"), "{rest}");
    assert_eq!(p.exit_code(), 0);
    // The replay pauses at every decision, the forced ones included.
    assert!(replay_to_the_end(record, "regicide") >= prompts);
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
