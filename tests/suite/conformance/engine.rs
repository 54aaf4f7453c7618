//! The checks on the library's traits: tallies, the fast engine against the state API,
//! fairness, trace and replay, a person's game played, recorded and replayed.

use std::path::Path;

use sim::evaluate::ladder::{Evaluable, Play};
use sim::games::registry::{Registered, Registry};
use sim::games::state::{GameState, ToMove};
use sim::games::{Record, Tally};
use sim::rng::{GameKey, GameRng};
use sim::search::{Algorithm, Searcher, Work, decide};
use sim::trace::play::{self, Answer, Ask, Desk};
use sim::trace::{json_lines, outcome_fields, read_log, untimed_fields};

use super::Check;
use crate::fairness::{Decider, caught, states};

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

/// Every fair player of the game's ladder (its plain policies and its search player, with the
/// other search algorithm on the same rollout) decides alike on two states its seat cannot tell
/// apart (a world sampled for it from the real one); a leaky control, which plays each move out
/// in the real state, is caught.
pub struct Fairness;

impl Check for Fairness {
    const WHAT: &'static str = "fairness";

    fn check<R: Registry, G: Registered>(&self, _: &Path) -> Result<(), String> {
        let game = default_game::<G>()?;
        let extra = game.extra().map_err(|e| e.to_string())?;
        let subject = game.subject(&extra, &[6]).map_err(|e| e.to_string())?;
        let states = states(|d| (subject.deal)(SEED, d), 100, 40);
        if states.is_empty() {
            return Err("no state at a decision".into());
        }
        type S<'a, G> = <G as Evaluable>::State<'a>;
        let mut deciders: Vec<(&str, Decider<S<'_, G>>)> = Vec::new();
        let mut rollout = None;
        for rung in subject.rungs.iter().filter(|r| r.fair) {
            match &rung.play {
                Play::Plain(policy) => {
                    deciders.push((&rung.name, plain(policy)));
                    rollout.get_or_insert(policy);
                }
                Play::Search(searcher) => {
                    let mut other = searcher.clone();
                    (other.settings.algorithm, other.settings.simulations) =
                        match searcher.settings.algorithm {
                            Algorithm::Pimc => (Algorithm::Ismcts, 24),
                            Algorithm::Ismcts => (Algorithm::Pimc, 6),
                        };
                    other.name = other.settings.algorithm.name().into();
                    rollout = Some(&searcher.rollout);
                    deciders.push((&rung.name, searching(searcher.clone())));
                    deciders.push((other.settings.algorithm.name(), searching(other)));
                }
                Play::Random | Play::Other(_) => {}
            }
        }
        let rollout = rollout.ok_or("no plain policy in the ladder")?;
        deciders.push(("leaky", leaky(rollout)));
        let caught = caught(&states, &deciders);
        match caught == ["leaky"] {
            true => Ok(()),
            false => Err(format!("caught {caught:?}, not the leaky control alone")),
        }
    }
}

/// A plain policy as a decider.
fn plain<'a, S: GameState>(policy: &'a S::Policy) -> Decider<'a, S> {
    Box::new(move |s, _seat, coins| s.clone().policy_move(policy, &mut coins.clone()))
}

/// A search player as a decider.
fn searching<'a, S: GameState + 'a>(searcher: Searcher<S::Policy>) -> Decider<'a, S>
where
    S::Policy: 'a,
{
    Box::new(move |s, seat, rng| decide(&searcher, s, seat, &mut Work::new(rng.clone())))
}

/// The leaky control: every legal move played out by `rollout` in the real state itself (it
/// sees the deal), the best result taken.
fn leaky<'a, S: GameState>(rollout: &'a S::Policy) -> Decider<'a, S> {
    Box::new(move |s, seat, rng: &GameRng| {
        let mut moves = Vec::new();
        s.legal(&mut moves);
        let value = |m: S::Move| {
            let mut play = s.clone();
            play.play_out(m, rollout, &mut rng.clone());
            play.result(seat) + 0.01 * play.progress(seat)
        };
        let mut best = (f32::NEG_INFINITY, moves[0]);
        for &m in &moves {
            let v = value(m);
            if v > best.0 {
                best = (v, m);
            }
        }
        best.1
    })
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
