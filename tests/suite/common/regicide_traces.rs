//! Regicide traces against the run's rows: what `trace_regicide` and `trace_regicide_search`
//! share (`trace_seats` uses a part).
#![allow(dead_code)]

use serde_json::{Map, Value};
use sim::games::Game;
use sim::games::regicide::trace::{Event as TEvent, Seen};
use sim::games::regicide::{Outcome, Regicide, Rules, card};
use sim::games::seats::{Seating, Table};
use sim::rules::load;
use sim::trace::{Traceable, outcome_fields};

/// Regicide at `players` with `policy` in every seat but those `seats` (`K=POLICY`) set.
pub fn regicide(players: u8, policy: &str, seats: &[&str]) -> Regicide {
    let rules: Rules = load(None, &[format!("players={players}")]).unwrap();
    let seats: Vec<String> = seats.iter().map(|s| s.to_string()).collect();
    let seating = Seating::assign(Table::Team, players.into(), policy, None, &seats).unwrap();
    Regicide::new(rules, &seating).unwrap()
}

/// A game's `--per-game` row but for its one timing column (`search_us`, the search players'
/// CPU time, which differs from run to run).
pub fn untimed(o: &Outcome) -> Map<String, Value> {
    let mut row = outcome_fields(o);
    assert!(row.remove("search_us").is_some(), "the row has search_us");
    row
}

/// What the events add up to, against the outcome's columns.
pub fn story(events: &[Seen], o: &Outcome) -> Result<(), String> {
    let count = |f: &dyn Fn(&TEvent) -> bool| events.iter().filter(|s| f(&s.event)).count();
    let defeated = count(&|e| matches!(e, TEvent::Defeated { .. }));
    let turns = count(&|e| matches!(e, TEvent::TurnStarted { .. }));
    let solo = count(&|e| matches!(e, TEvent::SoloJester { .. }));
    let jesters = count(
        &|e| matches!(e, TEvent::Played { cards, .. } if cards.as_slice().iter().any(|&c| card::is_jester(c))),
    );
    let won = count(&|e| matches!(e, TEvent::Won));
    let last = events.last().ok_or("no events")?;
    let got = (defeated, turns, solo, jesters, won == 1, last.state.tavern);
    let want = (
        usize::from(o.royals),
        usize::from(o.turns),
        usize::from(o.solo_jesters),
        usize::from(o.jesters_played),
        o.win,
        o.tavern_left,
    );
    if got != want {
        return Err(format!(
            "events say (royals, turns, solo jesters, jesters, win, tavern) {got:?}, the row {want:?}"
        ));
    }
    if !matches!(events[0].event, TEvent::Deal { .. }) {
        return Err("the first event is not the deal".into());
    }
    Ok(())
}

/// For each game of `indices` of a run seeded `seed`: the trace's row (but its timing) is the
/// run's and its events add up to it. Returns the failures, and checks every index was seen.
pub fn trace_failures(
    game: &Regicide,
    seed: u64,
    indices: impl IntoIterator<Item = u64>,
) -> Vec<String> {
    let mut failures = Vec::new();
    let mut checked = 0;
    for i in indices {
        let mut played = None;
        game.play_range(seed, i..i + 1, |_, o| played = Some(o));
        let played = played.expect("the run played the game");
        checked += 1;
        let traced = game.trace(seed, i);
        let name = game.policy_name();
        if untimed(&traced.outcome) != untimed(&played) {
            failures.push(format!(
                "{name} game {i}: trace {:?}, run {:?}",
                untimed(&traced.outcome),
                untimed(&played)
            ));
        } else if let Err(e) = story(&traced.events, &played) {
            failures.push(format!("{name} game {i}: {e}"));
        }
    }
    assert!(checked > 0);
    failures
}

/// The failures of [`trace_failures`] for the first `games` games of `policy` in every seat at
/// each of `players`, seeded `seed`.
pub fn failures_at(players: &[u8], policy: &str, seed: u64, games: u64) -> Vec<String> {
    players
        .iter()
        .flat_map(|&n| trace_failures(&regicide(n, policy, &[]), seed, 0..games))
        .collect()
}

/// Fails with the first failures, if any.
pub fn assert_none(failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures[..failures.len().min(10)].join("\n")
    );
}
