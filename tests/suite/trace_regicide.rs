//! `sim trace regicide`: a trace is exactly the game the run played (its outcome and what its
//! events add up to, for every named policy at 1 and 3 players, the search players with small
//! budgets and their defaults), and its JSON deal replays through the engine's stacked entry (a
//! replay written here, independent of the library's) event for event.

use std::cell::Cell;

use crate::common::regicide_traces::{assert_none, failures_at, regicide, trace_failures, untimed};
use serde_json::{Value, json};
use sim::games::Game;
use sim::games::observe::Scripted;
use sim::games::regicide::Rules;
use sim::games::regicide::card;
use sim::games::regicide::engine::Engine;
use sim::games::regicide::events::{Event, Observer};
use sim::games::regicide::policy::{Action, Defence, Policy, Step1, Step4};
use sim::games::regicide::view::View;
use sim::rng::GameRng;
use sim::trace::{Traceable, json_lines};

const SEED: u64 = 7;
const POLICIES: [&str; 3] = ["simple", "random", "heuristic"];

#[test]
fn regicide_traces_are_the_games_of_the_run_for_every_named_policy_at_1_and_3_players() {
    let failures: Vec<String> = POLICIES
        .iter()
        .flat_map(|policy| failures_at(&[1, 3], policy, SEED, 1000))
        .collect();
    assert_none(&failures);
}

/// PIMC through the search's own loop, with a small budget (the same code as the default's:
/// the budget is a parameter), at 1 and 3 players.
#[test]
fn pimc_traces_are_the_games_of_the_run_at_1_and_3_players() {
    assert_none(&failures_at(&[1, 3], "pimc-4", SEED, 1000));
}

/// The default budgets and the strategy files (a third of a second a game: 20 games each).
#[test]
fn default_search_players_and_their_strategy_files_trace_the_games_of_the_run() {
    let mut failures = Vec::new();
    for policy in ["pimc", "ismcts"] {
        failures.extend(trace_failures(&regicide(1, policy, &[]), SEED, 0..12));
    }
    for file in ["pimc", "ismcts"] {
        let path = format!(
            "{}/strategies/regicide/{file}.toml",
            env!("CARGO_MANIFEST_DIR")
        );
        failures.extend(trace_failures(&regicide(1, &path, &[]), SEED, 12..20));
    }
    // A searching seat beside plain ones.
    failures.extend(trace_failures(
        &regicide(3, "heuristic", &["2=pimc"]),
        SEED,
        0..10,
    ));
    assert_none(&failures);
}

fn codes(v: &Value) -> Vec<u8> {
    serde_json::from_value(v.clone()).unwrap()
}

fn mask(v: &Value) -> u64 {
    codes(v).iter().fold(0, |m, &c| m | card::bit(c))
}

/// The traced decisions as (event name, value): the replay's script.
struct Decisions {
    list: Vec<Value>,
    at: Cell<usize>,
}

impl Decisions {
    fn take(&self, kinds: &[&str]) -> Value {
        let d = &self.list[self.at.get()];
        assert!(
            kinds.contains(&d["event"].as_str().unwrap()),
            "asked for {kinds:?}, the record has {d}"
        );
        self.at.set(self.at.get() + 1);
        d.clone()
    }
}

/// The engine asks only when there is a choice: forced moves are skipped by matching the
/// events the replay's observer sees (it calls `seen`).
struct Script<'a>(&'a Decisions);

impl Policy for Script<'_> {
    fn attack(&self, _: &View, choices: &Step1, _: &mut GameRng) -> Action {
        let d = self.0.take(&["played", "yielded", "solo_jester"]);
        self.0.at.set(self.0.at.get() - 1);
        match d["event"].as_str().unwrap() {
            "yielded" => Action::Yield,
            "solo_jester" => Action::SoloJester,
            _ => Action::Play(
                *choices
                    .plays
                    .iter()
                    .find(|p| p.cards == mask(&d["cards"]))
                    .expect("the traced play is legal"),
            ),
        }
    }

    fn next_seat(&self, _: &View, _: &mut GameRng) -> u8 {
        let d = self.0.take(&["chose"]);
        self.0.at.set(self.0.at.get() - 1);
        d["next"].as_u64().unwrap() as u8
    }

    fn defend(&self, _: &View, choices: &Step4, _: &mut GameRng) -> Defence {
        let d = self.0.take(&["discarded", "solo_jester", "lost"]);
        self.0.at.set(self.0.at.get() - 1);
        match d["event"].as_str().unwrap() {
            "solo_jester" => Defence::SoloJester,
            "lost" => Defence::GiveUp,
            _ => Defence::Discard(
                *choices
                    .covers
                    .iter()
                    .find(|c| c.cards == mask(&d["cards"]))
                    .expect("the traced discard is a minimal cover"),
            ),
        }
    }
}

/// Records each engine event as the JSON the trace writes (event fields and every hand), and
/// moves the script past each decision.
struct Log<'a> {
    decisions: &'a Decisions,
    events: Vec<Value>,
}

fn list(m: u64) -> Value {
    json!(card::cards(m).collect::<Vec<_>>())
}

impl Observer for Log<'_> {
    fn event(&mut self, engine: &Engine, event: Event) {
        let mut v = match event {
            Event::Drew { seat, card } => json!({"event": "drew", "seat": seat, "card": card}),
            Event::Revealed { enemy } => json!({"event": "revealed", "enemy": enemy}),
            Event::TurnStarted { seat } => json!({"event": "turn_started", "seat": seat}),
            Event::SoloJester { seat, discarded } => {
                json!({"event": "solo_jester", "seat": seat, "discarded": list(discarded)})
            }
            Event::Played { seat, cards } => {
                json!({"event": "played", "seat": seat, "cards": list(cards)})
            }
            Event::Chose { next } => json!({"event": "chose", "next": next}),
            Event::Yielded { seat } => json!({"event": "yielded", "seat": seat}),
            Event::Healed { cards } => json!({"event": "healed", "cards": cards}),
            Event::Damaged { dealt, total } => {
                json!({"event": "damaged", "dealt": dealt, "total": total})
            }
            Event::Defeated { enemy, exact } => {
                json!({"event": "defeated", "enemy": enemy, "exact": exact})
            }
            Event::Discarded { seat, cards } => {
                json!({"event": "discarded", "seat": seat, "cards": list(cards)})
            }
            Event::Won => json!({"event": "won"}),
            Event::Lost { .. } => json!({"event": "lost"}),
        };
        let name = v["event"].as_str().unwrap().to_string();
        if ["played", "yielded", "solo_jester", "chose", "discarded"].contains(&name.as_str()) {
            self.decisions.at.set(self.decisions.at.get() + 1);
        }
        v["hands"] = json!(engine.hands().iter().map(|&h| list(h)).collect::<Vec<_>>());
        v["tavern"] = json!(engine.tavern().len());
        self.events.push(v);
    }
}

/// A traced event line in the form the replay's log writes.
fn comparable(line: &Value) -> Value {
    let mut v = line.clone();
    let o = v.as_object_mut().unwrap();
    let state = o.remove("state").unwrap();
    for k in ["type", "n", "order", "how"] {
        o.remove(k);
    }
    o.insert("hands".into(), state["hands"].clone());
    o.insert("tavern".into(), state["tavern"].clone());
    v
}

fn replay(rules: &Rules, lines: &[Value]) -> Vec<Value> {
    let deal = lines.iter().find(|l| l["type"] == "deal").unwrap();
    let events: Vec<&Value> = lines.iter().filter(|l| l["type"] == "event").collect();
    let decisions = Decisions {
        list: events
            .iter()
            .filter(|e| {
                [
                    "played",
                    "yielded",
                    "solo_jester",
                    "chose",
                    "discarded",
                    "lost",
                ]
                .contains(&e["event"].as_str().unwrap())
            })
            .map(|e| (*e).clone())
            .collect(),
        at: Cell::new(0),
    };
    let hearts: Vec<Vec<u8>> = serde_json::from_value(deal["hearts"].clone()).unwrap();
    let mut engine = Engine::stacked(rules, &codes(&deal["castle"]), &codes(&deal["tavern"]));
    let mut log = Log {
        decisions: &decisions,
        events: Vec::new(),
    };
    let mut dealer = Scripted::new(hearts);
    engine.play(
        rules,
        &Script(&decisions),
        &mut dealer,
        &mut GameRng::unused(),
        &mut log,
    );
    assert_eq!(
        dealer.mismatches, 0,
        "every hearts shuffle found its recorded order"
    );
    log.events
}

#[test]
fn the_json_deal_and_decisions_replay_through_the_stacked_engine_event_for_event() {
    let mut hearts_shuffles = 0;
    for players in [1, 3] {
        for (policy, games) in POLICIES
            .iter()
            .map(|&p| (p, 200))
            .chain([("pimc-4", 50), ("ismcts-50", 30)])
        {
            let game = regicide(players, policy, &[]);
            for i in 0..games {
                let traced = game.trace(SEED, i);
                let lines: Vec<Value> = json_lines(&game, policy, SEED, i, &traced)
                    .iter()
                    .map(|l| serde_json::from_str(l).unwrap())
                    .collect();
                let recorded: Vec<Value> = lines
                    .iter()
                    .filter(|l| l["type"] == "event" && l["event"] != "deal")
                    .map(comparable)
                    .collect();
                hearts_shuffles += lines[1]["hearts"].as_array().unwrap().len();
                let replayed = replay(game.rules(), &lines);
                if let Some(n) = (0..recorded.len().max(replayed.len()))
                    .find(|&n| recorded.get(n) != replayed.get(n))
                {
                    panic!(
                        "{players}p {policy} game {i}: event {n} traced {:?}, replayed {:?}",
                        recorded.get(n),
                        replayed.get(n)
                    );
                }
                // The library's own replay agrees too.
                let again = game.replay(&lines[1], &traced.events).unwrap();
                assert_eq!(again.events, traced.events, "{players}p {policy} game {i}");
                assert_eq!(
                    untimed(&again.outcome),
                    untimed(&traced.outcome),
                    "{players}p {policy} game {i}"
                );
            }
        }
    }
    assert!(
        hearts_shuffles > 100,
        "hearts shuffled the discard: {hearts_shuffles}"
    );
}

#[test]
fn a_trace_in_words_names_the_deal_the_decisions_and_the_end() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sim"))
        .args(["trace", "regicide", "--seed", "7", "--game", "3"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    for needle in [
        "deal: castle ",
        "enemy: J",
        "turn: seat 0",
        "seat 0 plays ",
        "damage: ",
    ] {
        assert!(text.contains(needle), "{needle}: {text}");
    }
    assert!(
        text.trim_end().lines().last().unwrap().contains("royals "),
        "{text}"
    );
}
