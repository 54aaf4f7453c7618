//! The checks on the library's traits: tallies, the fast engine against the state API,
//! fairness, trace and replay, a person's game played, recorded and replayed.

use std::path::Path;

use sim::evaluate::ladder::Play;
use sim::games::registry::{Registered, Registry};
use sim::games::state::{GameState, ToMove};
use sim::games::{Record, Tally};
use sim::rng::{GameKey, GameRng};
use sim::search::{Algorithm, Searcher};
use sim::trace::play::{self, Answer, Ask, Desk};
use sim::trace::{json_lines, outcome_fields, read_log, untimed_fields};

use super::Check;
use crate::fairness::{
    Decider, cheating_sampler, decide_on, oracle, peeking_noise, plain, searching, states, twins,
};

/// The seed the checks play.
const SEED: u64 = 21;

/// The game with its default rules and policy.
fn default_game<G: Registered>() -> Result<G, String> {
    G::with_policy(G::Rules::default(), G::DEFAULT_POLICY).map_err(|e| e.to_string())
}

/// A tally of real games keeps every invariant ([`Tally::check`]), and two halves merged are
/// the whole, exactly.
pub struct Invariants;

impl Check for Invariants {
    const WHAT: &'static str = "invariants";

    fn check<R: Registry, G: Registered>(&self, _: &Path) -> Result<(), String> {
        let game = default_game::<G>()?;
        let (mut whole, mut first, mut second) =
            (game.new_tally(), game.new_tally(), game.new_tally());
        game.play_range(SEED, 0..1000, |i, outcome| {
            whole.record(&outcome);
            let half = if i < 400 { &mut first } else { &mut second };
            half.record(&outcome);
        });
        whole.check()?;
        if whole.games() != 1000 || whole.wins() + whole.draws() > 1000 {
            return Err(format!("{} games, {} wins", whole.games(), whole.wins()));
        }
        first.merge(second);
        let json = |t: &G::Tally| serde_json::to_value(t).map_err(|e| e.to_string());
        if json(&first)? != json(&whole)? {
            return Err("two halves merged differ from the whole".into());
        }
        Ok(())
    }
}

/// Games per plain policy that the fast engine and the state API both play.
const GAMES: u64 = 200;

/// Every fair plain policy of the game's ladder plays, through the state API (its coins as
/// `sim evaluate` gives them), the fast engine's game: the same win, game by game.
pub struct StateIsEngine;

impl Check for StateIsEngine {
    const WHAT: &'static str = "state_is_engine";

    fn check<R: Registry, G: Registered>(&self, _: &Path) -> Result<(), String> {
        let game = default_game::<G>()?;
        let extra = game.extra().map_err(|e| e.to_string())?;
        let subject = game.subject(&extra, &[2]).map_err(|e| e.to_string())?;
        let mut played = 0;
        for rung in subject.rungs.iter().filter(|r| r.fair) {
            let Play::Plain(policy) = &rung.play else {
                continue;
            };
            let fast =
                G::with_policy(G::Rules::default(), &rung.name).map_err(|e| e.to_string())?;
            for index in 0..GAMES {
                let mut state = (subject.deal)(SEED, index);
                let mut coins = (subject.coins)(GameKey::new(SEED, index));
                while let ToMove::Seat(seat) = state.to_move() {
                    let c = usize::from(seat).min(coins.len() - 1);
                    let mv = state.policy_move(policy, &mut coins[c]);
                    state.apply(mv);
                }
                let won = fast.play(SEED, index).won();
                if won != (state.result(0) == 1.0) {
                    return Err(format!(
                        "{}: game {index} won {won} by the engine, result {} by the state",
                        rung.name,
                        state.result(0)
                    ));
                }
            }
            played += 1;
        }
        match played {
            0 => Err("no plain policy in the ladder".into()),
            _ => Ok(()),
        }
    }
}

/// Deals per rule set the fairness check plays (each a few random moves in).
const FAIR_DEALS: u64 = 150;

/// Fairness that could catch a cheat (see [`crate::fairness`]), under every rule set of the
/// game's fixture that changes what a seat cannot see: each state's twin built by the game
/// itself and checked; every fair plain policy of the ladder and both search players at their
/// real budgets (the game's defaults) decide alike on every twin pair; the three controls (the
/// real-state oracle, a search whose sampler returns the real state, a search whose noise is
/// seeded by the true next card) each decide apart on some pair. Prints what each decided.
pub struct Fairness;

impl Check for Fairness {
    const WHAT: &'static str = "fairness";

    fn check<R: Registry, G: Registered>(&self, _: &Path) -> Result<(), String> {
        let mut failed = Vec::new();
        for sets in G::FIXTURE.hidden {
            let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
            let rules = sim::rules::load(None, &sets).map_err(|e| e.to_string())?;
            let game = G::with_policy(rules, G::DEFAULT_POLICY).map_err(|e| e.to_string())?;
            if let Err(why) = fair_under(&game, &format!("{} {sets:?}", G::NAME)) {
                failed.push(why);
            }
        }
        match failed.is_empty() {
            true => Ok(()),
            false => Err(failed.join("\n")),
        }
    }
}

/// The fairness check under `game`'s rules, `label` naming them in what it prints.
fn fair_under<G: Registered>(game: &G, label: &str) -> Result<(), String> {
    let extra = game.extra().map_err(|e| e.to_string())?;
    let subject = game.subject(&extra, &[]).map_err(|e| e.to_string())?;
    let states = states(|d| (subject.deal)(SEED, d), FAIR_DEALS, 40);
    let pairs = twins(&states).map_err(|e| format!("{label}: {e}"))?;
    if pairs.len() * 5 < states.len() * 4 {
        return Err(format!(
            "{label}: a twin for only {} of {} states",
            pairs.len(),
            states.len()
        ));
    }
    let mut deciders: Vec<(String, Decider<_>)> = Vec::new();
    let mut rollout = None;
    for rung in subject.rungs.iter().filter(|r| r.fair) {
        if let Play::Plain(policy) = &rung.play {
            deciders.push((rung.name.clone(), plain(policy)));
            if rung.name == G::DEFAULTS.rollout {
                rollout = Some(policy);
            }
        }
    }
    let rollout = rollout.ok_or("the search players' rollout is not a plain rung")?;
    let searcher = |algorithm: Algorithm| {
        let settings = G::DEFAULTS.settings(algorithm);
        Searcher {
            name: format!("{}-{}", algorithm.name(), settings.simulations),
            settings,
            rollout: rollout.clone(),
        }
    };
    for algorithm in [Algorithm::Pimc, Algorithm::Ismcts] {
        let s = searcher(algorithm);
        deciders.push((s.name.clone(), searching(s)));
    }
    let fair = deciders.len();
    let pimc = searcher(Algorithm::Pimc);
    deciders.push(("control: oracle".into(), oracle(rollout)));
    deciders.push((
        format!("control: {} sampling the real state", pimc.name),
        cheating_sampler(pimc.clone()),
    ));
    deciders.push((
        format!("control: {} noise seeded by the next card", pimc.name),
        peeking_noise(pimc),
    ));
    let decided = decide_on(&pairs, &deciders);
    let mut wrong = Vec::new();
    for (i, d) in decided.iter().enumerate() {
        eprintln!(
            "fairness {label}: {}: {} of {} twin pairs decided apart ({} states)",
            d.name,
            d.apart,
            d.pairs,
            states.len()
        );
        match (i < fair, d.apart) {
            (true, 0) | (false, 1..) => {}
            (true, n) => wrong.push(format!("{} decided apart on {n} pairs", d.name)),
            (false, 0) => wrong.push(format!("{} was not caught", d.name)),
        }
    }
    match wrong.is_empty() {
        true => Ok(()),
        false => Err(format!("{label}: {}", wrong.join("; "))),
    }
}

/// Traced games are the run's games (the same outcome), their JSON lines read back to the same
/// events, and replayed from their deal line through the engine to the same events and outcome.
pub struct TraceReplay;

impl Check for TraceReplay {
    const WHAT: &'static str = "trace_replay";

    fn check<R: Registry, G: Registered>(&self, _: &Path) -> Result<(), String> {
        let game = default_game::<G>()?;
        for index in 0..12 {
            let traced = game.trace(SEED, index);
            let untimed = |o: &G::Outcome| untimed_fields(&outcome_fields(o));
            if untimed(&traced.outcome) != untimed(&game.play(SEED, index)) {
                return Err(format!(
                    "game {index}: the trace's outcome is not the run's"
                ));
            }
            let lines = json_lines(&game, G::DEFAULT_POLICY, SEED, index, &traced).join("\n");
            let log = read_log::<G>(&lines, "trace").map_err(|e| e.to_string())?;
            if log.events != traced.events {
                return Err(format!("game {index}: the JSON lines read back differ"));
            }
            let replayed = game
                .replay(&log.deal, &log.events)
                .map_err(|e| format!("game {index}: {e}"))?;
            if replayed.events != traced.events
                || untimed(&replayed.outcome) != untimed(&traced.outcome)
            {
                return Err(format!("game {index}: the replay differs from the trace"));
            }
        }
        Ok(())
    }
}

/// The players a game's figures name by role (its registered roster) are policies it parses,
/// and its `baseline` is the baseline rung of its ladder for `sim evaluate`.
pub struct Roster;

impl Check for Roster {
    const WHAT: &'static str = "roster";

    fn check<R: Registry, G: Registered>(&self, _dir: &Path) -> Result<(), String> {
        let roster = G::ROSTER;
        for (role, who) in [
            ("baseline", Some(roster.baseline)),
            ("best", Some(roster.best)),
            ("random", roster.random),
        ] {
            if let Some(who) = who {
                G::with_policy(G::Rules::default(), who)
                    .map_err(|e| format!("the roster's {role}, {who}: {e}"))?;
            }
        }
        let game = default_game::<G>()?;
        let extra = game.extra().map_err(|e| e.to_string())?;
        let subject = game
            .subject(&extra, &G::BUDGETS[..1])
            .map_err(|e| e.to_string())?;
        if subject.baseline != Some(roster.baseline) {
            return Err(format!(
                "the roster's baseline is {}, the ladder's {:?}",
                roster.baseline, subject.baseline
            ));
        }
        Ok(())
    }
}

/// A desk that answers every decision at random among the choices, and goes on at every pause:
/// a person who plays to the end, or quits after `MOST_ASKS` decisions.
struct Scripted {
    rng: GameRng,
    asks: u32,
}

/// The most decisions a scripted person answers before quitting.
const MOST_ASKS: u32 = 5000;

impl Desk for Scripted {
    fn show(&mut self, _: &str) {}

    fn ask(&mut self, ask: &Ask) -> Answer {
        self.asks += 1;
        if self.asks > MOST_ASKS || ask.choices.is_empty() {
            return Answer::Quit;
        }
        Answer::Pick(self.rng.below(ask.choices.len() as u64) as usize)
    }

    fn pause(&mut self) -> bool {
        true
    }
}

/// A person's game at `sim play` (with the default policy's hints in seat 0 and the policy in
/// the other seats) ends, is recorded, and replays through the engine to the same events and
/// outcome (`sim play --replay`).
pub struct PlayReplay;

impl Check for PlayReplay {
    const WHAT: &'static str = "play_replay";

    fn check<R: Registry, G: Registered>(&self, dir: &Path) -> Result<(), String> {
        let game = default_game::<G>()?;
        for index in 0..3 {
            let record = dir.join(format!("game-{index}.jsonl"));
            let mut desk = Scripted {
                rng: GameRng::new(SEED, index, 0),
                asks: 0,
            };
            play::play(&game, SEED, index, true, Some(&record), &mut desk)
                .map_err(|e| format!("game {index}: {e}"))?;
            if desk.asks > MOST_ASKS {
                return Err(format!("game {index}: no end in {MOST_ASKS} decisions"));
            }
            let text = std::fs::read_to_string(&record)
                .map_err(|e| format!("game {index}: no record: {e}"))?;
            let make = |rules| G::with_policy(rules, G::DEFAULT_POLICY);
            play::replay::<G>(&text, "the record", make, &mut desk)
                .map_err(|e| format!("game {index}: {e}"))?;
        }
        Ok(())
    }
}
