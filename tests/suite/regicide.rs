//! Regicide: properties over many games (every card accounted for, hands within their limit,
//! every game ends, reproducible), and bad input at the command line.

use std::fs;

use crate::common::*;
use sim::cards::Stacked;
use sim::games::Game;
use sim::games::regicide::card::{self, JESTERS};
use sim::games::regicide::engine::Engine;
use sim::games::regicide::events::{Event, Observer};
use sim::games::regicide::heuristic::Heuristic;
use sim::games::regicide::policy::{Action, Defence, Mixed, Policy, PolicyKind, Step1, Step4};
use sim::games::regicide::random::Random;
use sim::games::regicide::simple::Simple;
use sim::games::regicide::view::View;
use sim::games::regicide::{Regicide, Rules, Streams};
use sim::games::seats::Seating;
use sim::rng::{GameKey, GameRng};
use sim::rules::load;

fn variants() -> Vec<Rules> {
    let sets: &[&[&str]] = &[
        &["players=1"],
        &["players=2"],
        &["players=3"],
        &["players=4"],
        &["players=1", "solo_yield=true", "jesters=2"],
        &["players=2", "max_combo=15", "max_hand=9"],
        &["players=3", "jesters=4", "combo_cards=2"],
        &[
            "players=4",
            "max_hand=3",
            "king.health=60",
            "queen.attack=5",
        ],
        &[
            "players=1",
            "solo_jesters=0",
            "solo_jester_draw=3",
            "max_hand=5",
        ],
    ];
    sets.iter()
        .map(|s| load(None, &s.iter().map(|x| x.to_string()).collect::<Vec<_>>()).unwrap())
        .collect()
}

/// After every event: all 52 cards and the tavern's Jesters are in exactly one of the castle,
/// the tavern, a hand, the table and the discard pile; the set-aside Jesters are left or used;
/// no hand is over its limit.
struct Census {
    all: u64,
    cards: u32,
    set_aside: u8,
    events: u64,
}

impl Census {
    fn new(rules: &Rules) -> Self {
        let jesters = (1u64 << rules.tavern_jesters()) - 1;
        let all = (!JESTERS & ((1u64 << card::CODES) - 1)) | jesters;
        Self {
            all,
            cards: all.count_ones(),
            set_aside: rules.set_aside_jesters(),
            events: 0,
        }
    }
}

impl Observer for Census {
    fn event(&mut self, e: &Engine, event: Event) {
        self.events += 1;
        let mut mask = 0u64;
        let mut count = 0u32;
        let mut put = |c: u8| {
            mask |= card::bit(c);
            count += 1;
        };
        e.castle().iter().for_each(|&c| put(c));
        e.tavern().iter().for_each(&mut put);
        for h in e.hands() {
            card::cards(*h).for_each(&mut put);
        }
        card::cards(e.table()).for_each(&mut put);
        card::cards(e.discard().mask()).for_each(&mut put);
        assert_eq!(
            (mask, count),
            (self.all, self.cards),
            "cards lost or doubled after {event:?}"
        );
        assert_eq!(
            usize::from(e.discard().len()),
            e.discard().mask().count_ones() as usize
        );
        assert_eq!(
            e.solo_jesters_left() + e.outcome().solo_jesters,
            self.set_aside
        );
        for h in e.hands() {
            assert!(
                h.count_ones() <= u32::from(e.max_hand()),
                "a hand over its limit after {event:?}"
            );
        }
        assert!(e.outcome().turns < 2000, "a game that does not end");
    }
}

/// Passes every decision on, checking it is one of the legal choices offered and that a discard
/// covers the attack (the engine's own checks are debug assertions).
struct Checked<'a, P>(&'a P);

impl<P: Policy> Policy for Checked<'_, P> {
    fn attack(&self, view: &View, choices: &Step1, coins: &mut GameRng) -> Action {
        let a = self.0.attack(view, choices, coins);
        match a {
            Action::Play(p) => {
                assert!(choices.plays.contains(&p), "{p:?} was not offered");
                assert_eq!(view.hand & p.cards, p.cards);
            }
            Action::Yield => assert!(choices.can_yield, "a yield that is not allowed"),
            Action::SoloJester => assert!(choices.solo_jester && view.solo_jesters > 0),
        }
        a
    }

    fn next_seat(&self, view: &View, coins: &mut GameRng) -> u8 {
        let s = self.0.next_seat(view, coins);
        assert!(s < view.players);
        s
    }

    fn defend(&self, view: &View, choices: &Step4, coins: &mut GameRng) -> Defence {
        let d = self.0.defend(view, choices, coins);
        match d {
            Defence::Discard(c) => {
                assert!(choices.covers.contains(&c), "{c:?} was not offered");
                assert!(view.values.sum(c.cards) >= view.need() && view.hand & c.cards == c.cards);
            }
            Defence::SoloJester => assert!(choices.solo_jester),
            Defence::GiveUp => assert!(choices.covers.is_empty(), "gave up with a cover"),
        }
        d
    }
}

fn audit<P: Policy>(rules: &Rules, policy: &P, games: u64) {
    let policy = &Checked(policy);
    for g in 0..games {
        let key = GameKey::new(11, g);
        let mut e = Engine::new(rules);
        e.shuffle(
            &mut key.stream(Streams::CASTLE),
            &mut key.stream(Streams::TAVERN),
        );
        let mut census = Census::new(rules);
        let o = e.play(
            rules,
            policy,
            &mut key.stream(Streams::HEARTS),
            &mut key.stream(Streams::POLICY),
            &mut census,
        );
        assert!(census.events > 0);
        assert!(o.royals <= 12 && o.win == (o.royals == 12));
        assert_eq!(o.tavern_left, e.tavern().len());
    }
}

#[test]
fn every_card_is_accounted_for_hands_stay_within_limits_and_every_game_ends() {
    let seats = [
        PolicyKind::Random,
        PolicyKind::Simple,
        PolicyKind::Heuristic(Box::default()),
        PolicyKind::Random,
    ];
    for rules in variants() {
        audit(&rules, &Random, 400);
        audit(&rules, &Simple, 300);
        audit(&rules, &Heuristic::default(), 300);
        audit(&rules, &Mixed { seats: &seats }, 200);
    }
}

#[test]
fn a_stacked_game_is_the_same_game_twice() {
    let rules = Rules::default();
    let castle: Vec<u8> = (44..56).collect();
    let tavern: Vec<u8> = (4..44).rev().collect();
    let play = || {
        Engine::stacked(&rules, &castle, &tavern).play(
            &rules,
            &Simple,
            &mut Stacked,
            &mut GameRng::unused(),
            &mut sim::games::regicide::events::Unobserved,
        )
    };
    assert_eq!(play(), play());
}

#[test]
fn seats_take_their_own_policies_and_a_uniform_table_matches_the_plain_run() {
    let rules: Rules = load(None, &["players=3".into()]).unwrap();
    let plain = Regicide::with_policy(rules.clone(), "simple").unwrap();
    let spelled = Regicide::new(rules.clone(), &Seating::uniform("simple", 3)).unwrap();
    let mixed = Regicide::new(
        rules,
        &Seating {
            policies: vec!["simple".into(), "random".into(), "simple".into()],
            swap: false,
        },
    )
    .unwrap();
    assert_eq!(mixed.policy_name(), "simple; seat 1 random");
    let mut differ = 0;
    for g in 0..300 {
        assert_eq!(plain.play(3, g), spelled.play(3, g));
        differ += usize::from(plain.play(3, g) != mixed.play(3, g));
    }
    assert!(differ > 100, "a random seat changes most games: {differ}");
}

#[test]
fn bad_players_seats_policies_and_rules_exit_2_in_one_line_and_write_nothing() {
    let tmp = TempDir::new("regicide_bad_input");
    let bad = tmp.write("bad.toml", "[weights]\nkill = 1e9\n");
    let bad = bad.to_str().unwrap().to_string();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--players", "0"], "players = 0"),
        (vec!["--players", "5"], "players = 5"),
        (
            vec!["--players", "4", "--seat", "4=simple"],
            "--seat 4=simple",
        ),
        (vec!["--players", "2", "--seat", "2=random"], "0..=1"),
        (vec!["--policy", "smart"], "known policies are simple"),
        (
            vec!["--players", "3", "--seat", "1=smart"],
            "unknown policy smart",
        ),
        (vec!["--policy", &bad], "weights.kill"),
        (vec!["--set", "max_combo=1"], "max_combo = 1"),
        (vec!["--set", "max_hand=11"], "max_hand = 11"),
        (vec!["--set", "max_hand=lots"], "by-players"),
        (vec!["--set", "jesters=9"], "jesters = 9"),
        (vec!["--set", "king.health=0"], "king.health = 0"),
        (vec!["--set", "solo_jesters=3"], "solo_jesters = 3"),
        (vec!["--set", "castle=3"], "unknown rule castle"),
        (vec!["--vs", "simple"], "--vs simple"),
    ];
    assert_each_refused_naming("regicide", &tmp, "1000", cases);
}

#[test]
fn same_seed_gives_identical_files_whatever_the_threads_and_per_game_columns_agree() {
    let tmp = TempDir::new("regicide_threads");
    let runs = on_1_and_2_threads(
        &tmp,
        &[
            "regicide",
            "--players",
            "3",
            "--policy",
            "random",
            "--games",
            "40000",
            "--seed",
            "5",
            "--per-game",
        ],
    );
    assert_same_files_on_1_and_2_threads(&runs, &["summary.parquet", "distributions.parquet"]);
    let dir = &runs[0].0;
    let games = read_parquet(&dir.join("games.parquet"));
    let names = column_names(&games);
    for col in [
        "win",
        "grade",
        "royals",
        "turns",
        "solo_jesters",
        "jesters_played",
        "tavern_left",
        "loss_royal",
        "loss",
    ] {
        assert!(
            names.iter().any(|n| n == col),
            "no column {col} in {names:?}"
        );
    }
    assert_eq!(games.height(), 40_000);
    let summary = read_parquet(&dir.join("summary.parquet"));
    let dist = read_parquet(&dir.join("distributions.parquet"));
    assert_eq!(metric_total(&dist, "royals"), 40_000);
    assert_eq!(metric_total(&dist, "turns"), 40_000);
    let wins = (0..games.height())
        .filter(|&r| bool_at(&games, "win", r))
        .count() as u64;
    assert_eq!(wins, u64_at(&summary, "wins", 0));
}

#[test]
fn the_tuned_strategy_file_is_the_built_in_heuristic_and_beats_simple_at_every_table() {
    let file = Heuristic::load(std::path::Path::new("strategies/regicide/tuned.toml")).unwrap();
    assert_eq!(file.weights(), Heuristic::default().weights());
    for players in 1..=4u8 {
        let rules: Rules = load(None, &[format!("players={players}")]).unwrap();
        let h = Regicide::with_policy(rules.clone(), "heuristic").unwrap();
        let s = Regicide::with_policy(rules, "simple").unwrap();
        let games = 3000;
        let (mut hr, mut sr, mut hw, mut sw) = (0u64, 0u64, 0u64, 0u64);
        for g in 0..games {
            let (a, b) = (h.play(21, g), s.play(21, g));
            (hr, sr) = (hr + u64::from(a.royals), sr + u64::from(b.royals));
            (hw, sw) = (hw + u64::from(a.win), sw + u64::from(b.win));
        }
        // Measured over 50,000 deals: about 2.5 royals and 15 to 40 points of win rate more.
        assert!(
            hr > sr + games,
            "{players} players: heuristic {hr} royals, simple {sr}"
        );
        assert!(
            hw > sw + games / 20,
            "{players} players: heuristic {hw} wins, simple {sw}"
        );
    }
}

#[test]
fn shards_of_a_mixed_table_merge_into_the_single_runs_files() {
    let tmp = TempDir::new("regicide_shards");
    let args = [
        "--players",
        "3",
        "--policy",
        "heuristic",
        "--seat",
        "1=random",
        "--games",
        "30001",
        "--seed",
        "9",
        "--threads",
        "1",
    ];
    let single = tmp.join("single");
    assert!(game_to("regicide", &single, &args).status.success());
    let mut dirs = Vec::new();
    for i in 0..4 {
        let dir = tmp.join(&format!("shard-{i}"));
        let mut a = args.to_vec();
        let shard = format!("{i}/4");
        a.extend(["--shard", &shard]);
        let out = game_to("regicide", &dir, &a);
        assert!(out.status.success(), "{}", stderr(&out));
        dirs.push(dir);
    }
    let merged = tmp.join("merged");
    let mut m = sim();
    m.arg("merge").args(&dirs).arg("--out").arg(&merged);
    let out = m.output().expect("run the sim binary");
    assert!(out.status.success(), "{}", stderr(&out));
    for name in ["summary.parquet", "distributions.parquet"] {
        assert!(
            fs::read(single.join(name)).unwrap() == fs::read(merged.join(name)).unwrap(),
            "merged {name} differs from the single run's"
        );
    }
}
