//! `sim trace junkyard`: a trace is exactly the game the run played (its outcome is the run's
//! `--per-game` row, and the tables its events fold to end where the outcome says), and its JSON
//! deal, read back from the JSON lines, replays through the engine's stacked heaps event for event
//! and leaves the engine where the last event's tables say.

mod common;

use sim::games::Game;
use sim::games::junkyard::Junkyard;
use sim::games::junkyard::events::Event;
use sim::rules::load;
use sim::trace::junkyard::Seen;
use sim::trace::{Traceable, json_lines, outcome_fields, read_log};

const SEED: u64 = 7;

fn junkyard(sets: &[&str], policy: &str) -> Junkyard {
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    Junkyard::with_policy(load(None, &sets).unwrap(), policy).unwrap()
}

/// What the events add up to, against the outcome's columns.
fn story(events: &[Seen], o: &sim::games::junkyard::Outcome) -> Result<(), String> {
    let last = events.last().ok_or("no events")?;
    if last.event != (Event::Ended { winner: o.winner }) {
        return Err(format!("the last event is {:?}", last.event));
    }
    let count = |f: &dyn Fn(&Event) -> Option<usize>| {
        let mut n = [0u16; 2];
        events
            .iter()
            .filter_map(|s| f(&s.event))
            .for_each(|s| n[s] += 1);
        n
    };
    let built = count(&|e| match e {
        Event::Built { seat, .. } => Some(usize::from(*seat)),
        _ => None,
    });
    let tears = count(&|e| match e {
        Event::Deployed { seat, .. } => Some(usize::from(*seat)),
        _ => None,
    });
    let mut damage = [0u16; 2];
    for s in events {
        if let Event::Damage { seat, amount } = s.event {
            damage[usize::from(seat)] += amount;
        }
    }
    let hp = [last.state.seats[0].hp, last.state.seats[1].hp];
    let bots = [
        last.state.seats[0].bots.as_slice().len() as u16,
        last.state.seats[1].bots.as_slice().len() as u16,
    ];
    let left = [built[0] - o.destroyed[0], built[1] - o.destroyed[1]];
    if built != o.built
        || tears != o.teardowns
        || damage != o.damage
        || hp != o.final_hp
        || bots != left
        || last.state.turn != o.turns
    {
        return Err(format!(
            "events: built {built:?} tear-downs {tears:?} damage {damage:?} hp {hp:?} bots {bots:?} turns {}; outcome {o:?}",
            last.state.turn
        ));
    }
    Ok(())
}

/// Games `range` of a run against their traces.
fn traces_reproduce_the_run(game: &Junkyard, range: std::ops::Range<u64>) -> Vec<String> {
    let mut played = Vec::new();
    game.play_range(SEED, range, |i, o| played.push((i, o)));
    let mut failures = Vec::new();
    for (i, o) in played {
        let traced = game.trace(SEED, i);
        if outcome_fields(&traced.outcome) != outcome_fields(&o) {
            failures.push(format!(
                "{} game {i}: trace {:?}, run {o:?}",
                game.policy_name(),
                traced.outcome
            ));
        } else if let Err(e) = story(&traced.events, &o) {
            failures.push(format!("{} game {i}: {e}", game.policy_name()));
        }
    }
    failures
}

fn assert_none(failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} failures, first: {:#?}",
        failures.len(),
        &failures[..failures.len().min(5)]
    );
}

#[test]
fn traces_are_the_games_of_the_run_for_simple_random_and_greedy() {
    let mut failures = Vec::new();
    for policy in ["simple", "random", "greedy"] {
        failures.extend(traces_reproduce_the_run(&junkyard(&[], policy), 0..1000));
    }
    // Returned cards in a fixed order, and the set-up without building.
    for sets in [&["shuffle_returns=false"][..], &["setup_build=false"]] {
        failures.extend(traces_reproduce_the_run(
            &junkyard(sets, "random"),
            1000..1200,
        ));
    }
    assert_none(&failures);
}

#[test]
fn lookahead_traces_are_the_games_of_the_run() {
    assert_none(&traces_reproduce_the_run(
        &junkyard(&[], "lookahead"),
        0..LOOKAHEAD_GAMES,
    ));
}

/// Lookahead games traced (it plays each decision's plans to the end on samples: slow).
const LOOKAHEAD_GAMES: u64 = 1000;

#[test]
fn the_json_deal_and_decisions_replay_through_the_stacked_heaps_event_for_event() {
    let mut failures = Vec::new();
    for (sets, policy, games) in [
        (&[][..], "simple", 0..300),
        (&[][..], "random", 0..300),
        (&[][..], "greedy", 0..300),
        (&["shuffle_returns=false"][..], "random", 300..400),
        (&[][..], "lookahead", 0..10),
    ] {
        let game = junkyard(sets, policy);
        for i in games {
            let traced = game.trace(SEED, i);
            let text = json_lines(&game, policy, SEED, i, &traced).join("\n");
            let log = read_log::<Junkyard>(&text, "trace").unwrap();
            let differs =
                (0..traced.events.len()).find(|&n| log.events.get(n) != traced.events.get(n));
            if let Some(n) = differs {
                panic!(
                    "event {n} read back from JSON: {:?}, traced {:?}",
                    log.events.get(n),
                    traced.events[n]
                );
            }
            let (replayed, engine) = game.replay_engine(&log.deal, &log.events).unwrap();
            if replayed.events != traced.events {
                let n = (0..traced.events.len())
                    .find(|&n| replayed.events.get(n) != traced.events.get(n))
                    .unwrap_or(traced.events.len());
                failures.push(format!("{policy} {sets:?} game {i}: event {n} differs"));
                continue;
            }
            if outcome_fields(&replayed.outcome) != log.outcome {
                failures.push(format!("{policy} game {i}: the outcome differs"));
            }
            // The tables the events fold to are the engine's own at the end.
            let last = traced.events.last().unwrap().state;
            for s in 0..2 {
                let (side, table) = (engine.side(s), &last.seats[s]);
                let assembly = &side.assembly()[1..];
                if side.bots() != table.bots.as_slice()
                    || side.heap().len() != usize::from(table.heap)
                    || side.hand() != table.hand
                    || assembly != table.assembly
                    || side.hp() != table.hp
                {
                    failures.push(format!(
                        "{policy} game {i} seat {s}: the folded table is not the engine's"
                    ));
                }
            }
        }
    }
    assert_none(&failures);
}

#[test]
fn a_changed_deal_replays_to_other_events_and_a_bad_deal_is_refused() {
    let game = junkyard(&[], "simple");
    let traced = game.trace(SEED, 0);
    let mut deal = Junkyard::deal(&traced.events);
    let heap = deal["heaps"][0].as_array().unwrap().clone();
    let mut swapped = heap.clone();
    swapped.swap(0, 20);
    assert_ne!(heap[0], heap[20], "the test swaps two different cards");
    deal["heaps"][0] = serde_json::json!(swapped);
    let replayed = game.replay(&deal, &traced.events).unwrap();
    assert_ne!(replayed.events, traced.events);
    for bad in [
        serde_json::json!({"heaps": [[1, 2, 3]]}),
        serde_json::json!({"heaps": [[13], []]}),
        serde_json::json!({"heaps": [[1], [2]], "returns": "x"}),
    ] {
        assert!(game.replay(&bad, &traced.events).is_err(), "{bad}");
    }
}
