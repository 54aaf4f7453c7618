//! A person at the table: the [`Desk`] a game's `play_person` talks to, the terminal that
//! implements it, and what `sim play` does with a finished game (record it) or a recorded one
//! (step through it).

use std::io::{BufRead, Write};
use std::path::Path;

use crate::error::{Result, SimError};
use crate::files::AtomicFile;
use crate::search::{Advice, Algorithm, Settings};

use super::{
    Traceable, json_lines, log_rules, outcome_fields, outcome_words, read_log, untimed_fields,
};

/// What the person answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The choice with this index (0-based) of those listed.
    Pick(usize),
    /// Stop the game (`q`, or the end of input).
    Quit,
}

/// A decision put to the person.
#[derive(Clone, Debug, Default)]
pub struct Ask {
    /// The table as the person sees it, a line each.
    pub table: Vec<String>,
    /// The legal choices, listed from 1.
    pub choices: Vec<String>,
    /// The hint policy's advice, a line each (empty without `--hints`).
    pub hint: Vec<String>,
}

/// Where a game meets the person: lines shown, decisions asked.
pub trait Desk {
    /// Shows one line.
    fn show(&mut self, line: &str);
    /// Puts a decision to the person; asks again on a line that is not a choice.
    fn ask(&mut self, ask: &Ask) -> Answer;
    /// Waits for the person to go on; false if they stop (`q` or the end of input).
    fn pause(&mut self) -> bool;
}

/// A desk on a line-based terminal (or any reader and writer).
pub struct Terminal<R, W> {
    input: R,
    out: W,
}

impl<R: BufRead, W: Write> Terminal<R, W> {
    /// A desk reading lines from `input` and writing to `out`.
    pub fn new(input: R, out: W) -> Self {
        Self { input, out }
    }

    /// The next line, trimmed; `None` at the end of input (or an unreadable input).
    fn line(&mut self) -> Option<String> {
        let _ = self.out.flush();
        let mut line = String::new();
        match self.input.read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(line.trim().to_string()),
        }
    }

    fn list(&mut self, choices: &[String]) {
        for (i, choice) in choices.iter().enumerate() {
            self.show(&format!("  {}) {choice}", i + 1));
        }
    }
}

impl<R: BufRead, W: Write> Desk for Terminal<R, W> {
    fn show(&mut self, line: &str) {
        // A closed terminal loses the rest of the text, nothing more.
        let _ = writeln!(self.out, "{line}");
    }

    fn ask(&mut self, ask: &Ask) -> Answer {
        for line in &ask.table {
            self.show(line);
        }
        self.list(&ask.choices);
        for line in &ask.hint {
            self.show(line);
        }
        let n = ask.choices.len();
        loop {
            let _ = write!(self.out, "choice (1-{n}, q to quit)> ");
            let Some(line) = self.line() else {
                self.show("");
                self.show("end of input: game stopped");
                return Answer::Quit;
            };
            if line == "q" || line == "quit" {
                return Answer::Quit;
            }
            match line.parse::<usize>() {
                Ok(k @ 1..) if k <= n => return Answer::Pick(k - 1),
                _ => {
                    self.show(&format!(
                        "not a choice: {line:?}; type a number from 1 to {n}, or q to quit"
                    ));
                    self.list(&ask.choices);
                }
            }
        }
    }

    fn pause(&mut self) -> bool {
        let _ = write!(self.out, "[Enter: next, q: quit]> ");
        match self.line() {
            None => {
                self.show("");
                self.show("end of input: replay stopped");
                false
            }
            Some(line) => line != "q" && line != "quit",
        }
    }
}

/// `sim play`: game `index` of seed `seed` played at `desk`, with `game`'s policy's advice if
/// `hints`; written as JSON lines to `record` when the game ends (not if the person quits).
pub fn play<G: Traceable>(
    game: &G,
    seed: u64,
    index: u64,
    hints: bool,
    record: Option<&Path>,
    desk: &mut dyn Desk,
) -> Result<()> {
    // Proves the record writable before the game starts.
    let mut file = record.map(AtomicFile::create).transpose()?;
    let advice = if hints {
        format!("; hints by {}", game.adviser())
    } else {
        String::new()
    };
    desk.show(&format!("{} | seed {seed}, game {index}{advice}", G::NAME));
    let Some(traced) = game.play_person(seed, index, hints, desk) else {
        desk.show("quit: game not finished");
        return Ok(());
    };
    desk.show(&outcome_words(&traced.outcome));
    if let (Some(path), Some(out)) = (record, file.take()) {
        let text = json_lines(game, "person", seed, index, &traced).join("\n") + "\n";
        out.commit_text(&text)?;
        desk.show(&format!("recorded to {}", path.display()));
    }
    Ok(())
}

/// `sim play --replay`: the recorded game in `text` (from `what`) replayed through the engine and
/// checked against the record event by event, then shown at `desk`, pausing after each decision.
/// `make` builds the game for the record's rules.
pub fn replay<G: Traceable>(
    text: &str,
    what: &str,
    make: impl FnOnce(G::Rules) -> Result<G>,
    desk: &mut dyn Desk,
) -> Result<()> {
    let log = read_log::<G>(text, what)?;
    let game = make(log_rules(&log.header)?)?;
    let mut replayed = game.replay(&log.deal, &log.events)?;
    G::take_recorded(&mut replayed.outcome, &log.outcome)
        .map_err(|e| SimError::input(format!("{what}: {e}")))?;
    let written = |seen: &G::Seen| serde_json::to_value(seen).expect("events serialize");
    if let Some(n) = (0..log.events.len().max(replayed.events.len())).find(|&n| {
        log.events.get(n) != replayed.events.get(n)
            || log.event_lines.get(n) != replayed.events.get(n).map(written).as_ref()
    }) {
        return Err(SimError::input(format!(
            "{what}: event {n} of the record differs from the engine's replay of its deal and decisions"
        )));
    }
    let dealt = G::deal(&replayed.events);
    if dealt != log.deal {
        let key = differing_key(&dealt, &log.deal);
        return Err(SimError::input(format!(
            "{what}: the deal's {key} is not what the game dealt and used (a record's deal holds exactly that)"
        )));
    }
    if untimed_fields(&outcome_fields(&replayed.outcome)) != untimed_fields(&log.outcome) {
        return Err(SimError::input(format!(
            "{what}: the recorded outcome differs from the replay's"
        )));
    }
    let field = |k: &str| match log.header.get(k) {
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(v) => v.to_string(),
        None => "?".into(),
    };
    desk.show(&format!(
        "{} | replay of {what}: seed {}, game {}, played by {}",
        G::NAME,
        field("seed"),
        field("index"),
        field("policy")
    ));
    for seen in &replayed.events {
        if let Some(words) = game.words(seen) {
            desk.show(&words);
        }
        if G::is_decision(seen) && !desk.pause() {
            desk.show("quit: replay stopped");
            return Ok(());
        }
    }
    desk.show(&outcome_words(&replayed.outcome));
    desk.show(&format!(
        "replayed {} events: every one the same as the record",
        replayed.events.len()
    ));
    Ok(())
}

/// The first key of two deal lines (JSON objects) whose values differ, in order of `a` then of
/// `b`.
fn differing_key(a: &serde_json::Value, b: &serde_json::Value) -> String {
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
        return "line".into();
    };
    a.keys()
        .chain(b.keys())
        .find(|k| a.get(*k) != b.get(*k))
        .cloned()
        .unwrap_or_else(|| "line".into())
}

/// The hint lines of a search player's `advice` at a decision among `moves` (listed to the
/// person as `words`): the move it plays, then the value of each move it weighed, by its number
/// in the list (ISMCTS: visits and mean value; PIMC: the mean value over its worlds).
pub fn search_hint<M: PartialEq>(
    name: &str,
    settings: &Settings,
    advice: &Advice<M>,
    moves: &[M],
    words: &[String],
) -> Vec<String> {
    let at = |m: &M| moves.iter().position(|x| x == m);
    let mut lines = vec![match at(&advice.best) {
        Some(i) => format!("hint ({name}): {}) {}", i + 1, words[i]),
        None => format!("hint ({name}): none"),
    }];
    let mut values: Vec<(usize, String)> = advice
        .values
        .iter()
        .filter_map(|(m, visits, mean)| {
            let i = at(m)?;
            Some((
                i,
                match visits {
                    Some(n) => format!("{}) {n} ({mean:.3})", i + 1),
                    None => format!("{}) {mean:.3}", i + 1),
                },
            ))
        })
        .collect();
    values.sort();
    if !values.is_empty() {
        let what = match settings.algorithm {
            Algorithm::Ismcts => format!(
                "visits (mean value) of each move over {} simulations",
                settings.simulations
            ),
            Algorithm::Pimc => format!("mean value over {} worlds", settings.simulations),
        };
        let list: Vec<String> = values.into_iter().map(|(_, v)| v).collect();
        lines.push(format!("  {what}: {}", list.join("  ")));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(input: &str) -> (Answer, String) {
        let mut out = Vec::new();
        let answer = Terminal::new(input.as_bytes(), &mut out).ask(&Ask {
            table: vec!["the table".into()],
            choices: vec!["bank".into(), "push".into()],
            hint: vec![],
        });
        (answer, String::from_utf8(out).unwrap())
    }

    #[test]
    fn a_terminal_reads_a_choice_re_lists_on_a_bad_line_and_quits_on_q_or_eof() {
        assert_eq!(ask("2\n").0, Answer::Pick(1));
        let (answer, out) = ask("7\nbank\n1\n");
        assert_eq!(answer, Answer::Pick(0));
        assert_eq!(out.matches("not a choice").count(), 2);
        assert_eq!(out.matches("1) bank").count(), 3);
        assert_eq!(ask("q\n").0, Answer::Quit);
        let (answer, out) = ask("");
        assert_eq!(answer, Answer::Quit);
        assert!(out.contains("end of input"));
    }
}
