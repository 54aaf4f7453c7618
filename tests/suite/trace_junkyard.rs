//! `sim trace junkyard`: a trace is exactly the game the run played (its outcome is the run's
//! `--per-game` row, and the tables its events fold to end where the outcome says), and its JSON
//! deal, read back from the JSON lines, replays through the engine's stacked heaps event for event
//! and leaves the engine where the last event's tables say.

use serde_json::Value;
use sim::cards::Dealer;
use sim::games::Game;
use sim::games::junkyard::automaton::Automaton;
use sim::games::junkyard::cards::Heap;
use sim::games::junkyard::combat::Blocks;
use sim::games::junkyard::events::{Event, Observer};
use sim::games::junkyard::trace::Seen;
use sim::games::junkyard::{Engine, Junkyard, Policy, Rules, Sources, Turn, View};
use sim::games::seats::Seating;
use sim::rng::GameRng;
use sim::rules::load;
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
fn traces_are_the_games_of_the_run_for_every_rule_policy_and_strategy_file() {
    let mut failures = Vec::new();
    for policy in [
        "simple",
        "random",
        "greedy",
        "aggressive",
        "defensive",
        "strategies/junkyard/rush.toml",
    ] {
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

/// Games `games` of `game` traced, written as JSON lines, read back and replayed from their deal
/// through the stacked heaps: the events and outcome are the trace's, and the tables the events
/// fold to are the engine's own at the end.
fn replay_failures(game: &Junkyard, label: &str, games: std::ops::Range<u64>) -> Vec<String> {
    let mut failures = Vec::new();
    for i in games {
        let traced = game.trace(SEED, i);
        let text = json_lines(game, label, SEED, i, &traced).join("\n");
        let log = read_log::<Junkyard>(&text, "trace").unwrap();
        let differs = (0..traced.events.len()).find(|&n| log.events.get(n) != traced.events.get(n));
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
            failures.push(format!("{label} game {i}: event {n} differs"));
            continue;
        }
        // The deal line does not say whether the seats were swapped (an odd game of a duel).
        let mut outcome = replayed.outcome;
        outcome.swapped = traced.outcome.swapped;
        if outcome_fields(&outcome) != log.outcome {
            failures.push(format!("{label} game {i}: the outcome differs"));
        }
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
                    "{label} game {i} seat {s}: the folded table is not the engine's"
                ));
            }
        }
    }
    failures
}

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
        let label = format!("{policy} {sets:?}");
        failures.extend(replay_failures(&junkyard(sets, policy), &label, games));
    }
    assert_none(&failures);
}

/// A duel of `a` against `b` under the default rules, both seat orders on every deal.
fn duel(a: &str, b: &str) -> Junkyard {
    let seating = Seating {
        policies: vec![a.into(), b.into()],
        swap: true,
    };
    Junkyard::new(Rules::default(), &seating).unwrap()
}

/// The search players play through the state API: their traces are the run's games, and
/// replay from their JSON lines (small budgets: the same code as the defaults').
#[test]
fn search_player_traces_are_the_games_of_the_run_and_replay() {
    let mut failures = Vec::new();
    for (a, b) in [("ismcts-30", "greedy"), ("random", "pimc-3")] {
        let game = duel(a, b);
        failures.extend(traces_reproduce_the_run(&game, 0..100));
        failures.extend(replay_failures(&game, &format!("{a} vs {b}"), 0..30));
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

/// The decisions of a trace's JSON lines, answered in turn: a replay written here, apart from
/// the library's. `calls[k]` holds the builds and tear-downs of call `k` of `setup` or `main`
/// (set-up calls first, seat 0 then seat 1, then one per turn), each JSON event as written.
struct JsonScript {
    calls: Vec<Vec<Value>>,
    blocks: Vec<Vec<u8>>,
    splits: Vec<u32>,
    next: [std::cell::Cell<usize>; 3],
}

fn automaton(v: &Value) -> Automaton {
    serde_json::from_value(v.clone()).expect("an automaton")
}

impl JsonScript {
    fn new(events: &[Value], setup_build: bool) -> Self {
        let mut calls = vec![Vec::new(); if setup_build { 2 } else { 0 }];
        let (mut blocks, mut splits) = (Vec::new(), Vec::new());
        let mut in_turns = false;
        for e in events {
            match e["event"].as_str().unwrap() {
                "turn_started" => {
                    in_turns = true;
                    calls.push(Vec::new());
                }
                "built" | "deployed" | "attacked" => {
                    let k = if in_turns {
                        calls.len() - 1
                    } else {
                        e["seat"].as_u64().unwrap() as usize
                    };
                    calls[k].push(e.clone());
                }
                "blocked" => blocks.push(serde_json::from_value(e["of"].clone()).unwrap()),
                "split" => splits.push(e["mask"].as_u64().unwrap() as u32),
                _ => {}
            }
        }
        Self {
            calls,
            blocks,
            splits,
            next: Default::default(),
        }
    }

    fn take(&self, k: usize) -> usize {
        let i = self.next[k].get();
        self.next[k].set(i + 1);
        i
    }

    fn act<D: Dealer, O: Observer>(&self, turn: &mut Turn<'_, '_, D, O>) -> u32 {
        let call = self.take(0);
        for e in self.calls.get(call).into_iter().flatten() {
            match e["event"].as_str().unwrap() {
                "built" => turn.build(automaton(&e["bot"])),
                "deployed" => turn.deploy(
                    e["card"].as_u64().unwrap() as u8,
                    e["target_at"].as_u64().unwrap() as usize,
                    e["own_at"].as_u64().map(|i| i as usize),
                ),
                _ => return e["mask"].as_u64().unwrap() as u32,
            }
        }
        0
    }
}

impl Policy for JsonScript {
    fn setup<D: Dealer, O: Observer>(&self, _: &Rules, turn: &mut Turn<'_, '_, D, O>) {
        self.act(turn);
    }

    fn main<D: Dealer, O: Observer>(&self, _: &Rules, turn: &mut Turn<'_, '_, D, O>) -> u32 {
        self.act(turn)
    }

    fn block(&self, _: &Rules, _: &View, _: u32, _: &mut GameRng) -> Blocks {
        let mut blocks = Blocks::NONE;
        let of = &self.blocks[self.take(1)];
        blocks.of.copy_from_slice(of);
        blocks
    }

    fn split(&self, _: &Rules, _: &View, _: &Automaton, _: &[Automaton], _: &mut GameRng) -> u32 {
        self.splits[self.take(2)]
    }
}

/// Returned batches in the order the deal line recorded them.
struct Recorded(std::collections::VecDeque<Vec<u8>>);

impl Dealer for Recorded {
    fn shuffle(&mut self, cards: &mut [u8]) {
        let order = self.0.pop_front().expect("a recorded batch");
        cards.copy_from_slice(&order);
    }
}

/// Replays JSON lines through `Engine::from_heaps`: the engine's events, as JSON.
fn replay_json(rules: &Rules, lines: &[Value]) -> Vec<Value> {
    let deal = lines.iter().find(|l| l["type"] == "deal").unwrap();
    let events: Vec<Value> = lines
        .iter()
        .filter(|l| l["type"] == "event")
        .cloned()
        .collect();
    let heap = |s: usize| -> Vec<u8> { serde_json::from_value(deal["heaps"][s].clone()).unwrap() };
    let returns = |s: usize| -> Recorded {
        Recorded(serde_json::from_value(deal["returns"][s].clone()).unwrap())
    };
    let mut engine = Engine::from_heaps(rules, [Heap::stacked(&heap(0)), Heap::stacked(&heap(1))]);
    let script = JsonScript::new(&events, rules.setup_build);
    let mut seen: Vec<Event> = Vec::new();
    let mut src = Sources {
        returns: &mut [returns(0), returns(1)],
        coins: &mut [GameRng::unused(), GameRng::unused()],
        obs: &mut seen,
    };
    engine.play(rules, [&script, &script], &mut src);
    seen.iter()
        .map(|e| serde_json::to_value(e).unwrap())
        .collect()
}

#[test]
fn the_json_lines_replay_through_a_replay_of_the_tests_own_event_for_event() {
    let mut failures = Vec::new();
    for (sets, policy) in [
        (&[][..], "simple"),
        (&[][..], "random"),
        (&[][..], "greedy"),
        (&["shuffle_returns=false"][..], "random"),
        (&["setup_build=false"][..], "greedy"),
    ] {
        let game = junkyard(sets, policy);
        for i in 0..200 {
            let traced = game.trace(SEED, i);
            let lines: Vec<Value> = json_lines(&game, policy, SEED, i, &traced)
                .iter()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
            // The events as written, without the trace's own fields.
            let written: Vec<Value> = lines
                .iter()
                .filter(|l| l["type"] == "event")
                .map(|l| {
                    let mut e = l.clone();
                    for k in ["type", "n", "state"] {
                        e.as_object_mut().unwrap().remove(k);
                    }
                    e
                })
                .collect();
            if replay_json(game.rules(), &lines) != written {
                failures.push(format!("{policy} {sets:?} game {i}"));
            }
        }
    }
    assert_none(&failures);
}
