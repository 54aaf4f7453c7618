//! Scoundrel policies: how a player chooses each room's turn, and the registry `--policy` reads.

use std::path::Path;

use crate::cards::Dealer;
use crate::error::{Result, SimError};
use crate::games::observe::{Observer, Unobserved};
use crate::games::{PolicyHelp, unknown_policy_of};
use crate::rng::GameRng;

use super::clairvoyant::{Clairvoyant, Goal};
use super::engine::{Engine, Turn, View};
use super::events::Seen;
use super::features::Rich;
use super::greedy::{Greedy, GreedyDefaults};
use super::hero::Hero;
use super::heuristic::Heuristic;
use super::lookahead::Lookahead;
use super::outcome::Outcome;
use super::played::{Lost, Survived};
use super::random::Random;
use super::rules::{AvoidOrder, End, ROOM, Rules};
use super::tuned::Tuned;
use super::tuned_lookahead;

/// A fair player's decisions: each room's turn from what the player may know. Called in the hot
/// loop: implementations are plain data, no allocation.
pub trait Policy {
    /// The turn to play in the room of `view`. `coins` is the policy's own generator.
    fn choose(&self, rules: &Rules, view: &View, coins: &mut GameRng) -> Turn;

    /// False for a policy that never reads [`View::dungeon`]: an unobserved engine then does not
    /// keep the dungeon's counts up to date for it.
    const READS_DUNGEON: bool = true;

    /// [`Policy::choose`]'s turn, or, when the policy simulated it and the hero survives it, what
    /// it does ([`Survived`]): the engine then applies that instead of facing the room again. It
    /// must be what `choose`'s turn does. By default the turn.
    #[inline(always)]
    fn decide(&self, rules: &Rules, view: &View, coins: &mut GameRng) -> Decision {
        Decision::Turn(self.choose(rules, view, coins))
    }

    /// [`Policy::decide`] in a full room, for a policy that needs nothing of the [`View`] but
    /// the room's four cards (`room`, in the room's order), the hero and whether the room may be
    /// avoided: an unobserved engine asks this first and builds no view when it answers. `None`
    /// (the default) to be asked [`Policy::decide`] with the view instead.
    #[inline(always)]
    fn decide_full(
        &self,
        _rules: &Rules,
        _hero: Hero,
        _room: [u8; ROOM],
        _can_avoid: bool,
    ) -> Option<Decision> {
        None
    }
}

/// What [`Policy::decide`] hands the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The turn to play: the engine faces its cards (or avoids the room).
    Turn(Turn),
    /// A full room faced and survived, as the policy simulated it.
    Survived(Survived),
    /// A full room faced until the hero died, as the policy simulated it.
    Lost(Lost),
}

/// Every policy a run can use, dispatched once per game into a monomorphized engine.
#[derive(Clone, Debug, PartialEq)]
pub enum PolicyKind {
    /// `random`.
    Random,
    /// `greedy`.
    Greedy,
    /// A strategy file or the built-in `heuristic`.
    Heuristic(Box<Heuristic>),
    /// `lookahead` or `lookahead-N`.
    Lookahead(Box<Lookahead>),
    /// `tuned`.
    Tuned(Box<Tuned>),
    /// `tuned-lookahead` or `tuned-lookahead-N`.
    TunedLookahead(Box<Lookahead<Rich>>),
    /// `clairvoyant` (the best score) or `clairvoyant-win` (any win): the ceiling, not a fair
    /// policy.
    Clairvoyant(Goal),
}

/// The policies `sim list` and errors name.
pub fn help() -> Vec<PolicyHelp> {
    vec![
        PolicyHelp {
            name: "random",
            about: "a baseline: at each decision, uniform over the legal choices (avoid, the next card, weapon or not)",
        },
        PolicyHelp {
            name: "greedy",
            about: "avoid a room that would kill; leave the smaller of two potions, else the biggest monster; weapons first, monsters biggest first with the weapon, potion last",
        },
        PolicyHelp {
            name: "heuristic",
            about: "every way to play the room scored by HP, the weapon's worth against the monsters left, the card left, danger; weights built in",
        },
        PolicyHelp {
            name: "PATH.toml",
            about: "the heuristic with weights from a strategy file (see strategies/scoundrel/)",
        },
        PolicyHelp {
            name: "lookahead[-N]",
            about: "card counting: the heuristic's best plays, each scored by the expected best next room over N sampled draws from the unseen cards (default N = 12)",
        },
        PolicyHelp {
            name: "tuned",
            about: "every way to play the room scored by a richer model (17 features: HP bands, what the weapons in hand and to come can absorb, monsters beyond the weapon's limit, ...), weights found by a search over them",
        },
        PolicyHelp {
            name: "tuned-lookahead[-N]",
            about: "the strongest one-room player: card counting plus a sampled search one room deep: the tuned model's best plays, each scored by the expected best next room over N sampled draws from the unseen cards (default N = 24; `expectimax` before)",
        },
        PolicyHelp {
            name: "clairvoyant",
            about: "NOT A STRATEGY: an exact solver that sees the dungeon's order and plays the best score; the ceiling (needs avoid_order = keep)",
        },
        PolicyHelp {
            name: "clairvoyant-win",
            about: "NOT A STRATEGY: the same solver asked only whether the deal can be won: a winning line if any (not the best-scoring one), else the best loss; its win rate is the ceiling, its scores are not",
        },
    ]
}

impl PolicyKind {
    /// Parses a `--policy` value: a policy name or a strategy file path. Returns it with its
    /// display name. `rules` are checked against what the policy needs.
    pub fn parse(spec: &str, rules: &Rules) -> Result<(Self, String)> {
        let unknown = |why: &str| unknown_policy_of::<super::Scoundrel>(spec, why);
        let kind = match spec {
            "random" => Self::Random,
            "greedy" => Self::Greedy,
            "heuristic" => Self::Heuristic(Box::default()),
            "lookahead" => Self::Lookahead(Box::default()),
            "tuned" => Self::Tuned(Box::default()),
            "tuned-lookahead" => {
                Self::TunedLookahead(Box::new(tuned_lookahead::new(tuned_lookahead::SAMPLES)))
            }
            "clairvoyant" | "clairvoyant-win" => {
                if rules.avoid_order != AvoidOrder::Keep {
                    return Err(SimError::input(format!(
                        "policy {spec} needs avoid_order = keep: a shuffled avoid is not knowable in advance"
                    )));
                }
                if rules.end == End::Monsters {
                    return Err(SimError::input(format!(
                        "policy {spec} does not solve end = monsters: use end = all-cards or lenient"
                    )));
                }
                Self::Clairvoyant(if spec == "clairvoyant" {
                    Goal::Best
                } else {
                    Goal::Win
                })
            }
            old if old == "expectimax" || old.starts_with("expectimax-") => {
                return Err(unknown(
                    "Scoundrel's expectimax is now tuned-lookahead[-N]: a sampled search one room deep, not an exact expectimax",
                ));
            }
            _ => {
                if let Some(n) = spec.strip_prefix("lookahead-") {
                    let samples = n.parse::<u16>().ok().filter(|n| (1..=1000).contains(n));
                    let Some(samples) = samples else {
                        return Err(unknown("lookahead-N takes N = 1..=1000"));
                    };
                    Self::Lookahead(Box::new(Lookahead::with_samples(samples)))
                } else if let Some(n) = spec.strip_prefix("tuned-lookahead-") {
                    let samples = n
                        .parse::<u16>()
                        .ok()
                        .filter(|n| (1..=tuned_lookahead::MAX_SAMPLES).contains(n));
                    let Some(samples) = samples else {
                        return Err(unknown(&format!(
                            "tuned-lookahead-N takes N = 1..={}",
                            tuned_lookahead::MAX_SAMPLES
                        )));
                    };
                    Self::TunedLookahead(Box::new(tuned_lookahead::new(samples)))
                } else if spec.ends_with(".toml") || spec.contains('/') {
                    let h = Heuristic::load(Path::new(spec))?;
                    let name = h.name.clone();
                    return Ok((Self::Heuristic(Box::new(h)), name));
                } else {
                    return Err(unknown(""));
                }
            }
        };
        Ok((kind, spec.to_string()))
    }

    /// True if the policy draws from its own generator (`coins`); the others are given
    /// [`GameRng::unused`].
    pub fn draws_coins(&self) -> bool {
        matches!(
            self,
            Self::Random | Self::Lookahead(_) | Self::TunedLookahead(_)
        )
    }

    /// Plays `engine` (shuffled or stacked) to its end with this policy.
    #[inline]
    pub fn play_from<D: Dealer>(
        &self,
        engine: &mut Engine,
        rules: &Rules,
        avoid: &mut D,
        coins: &mut GameRng,
    ) -> Outcome {
        self.play_observed(engine, rules, avoid, coins, &mut Unobserved)
    }

    /// [`PolicyKind::play_from`], reporting every event to `obs`.
    #[inline]
    pub fn play_observed<D: Dealer, O: Observer<Seen>>(
        &self,
        engine: &mut Engine,
        rules: &Rules,
        avoid: &mut D,
        coins: &mut GameRng,
        obs: &mut O,
    ) -> Outcome {
        match self {
            Self::Random => engine.play_observed(rules, &Random, avoid, coins, obs),
            // The default rules constants of the compiled loop, chosen once a game.
            Self::Greedy if GreedyDefaults::applies(rules) => {
                engine.play_observed(rules, &GreedyDefaults, avoid, coins, obs)
            }
            Self::Greedy => engine.play_observed(rules, &Greedy, avoid, coins, obs),
            Self::Heuristic(p) => engine.play_observed(rules, p.as_ref(), avoid, coins, obs),
            Self::Lookahead(p) => engine.play_observed(rules, p.as_ref(), avoid, coins, obs),
            Self::Tuned(p) => engine.play_observed(rules, p.as_ref(), avoid, coins, obs),
            Self::TunedLookahead(p) => engine.play_observed(rules, p.as_ref(), avoid, coins, obs),
            Self::Clairvoyant(goal) => {
                Clairvoyant::play_observed(engine.clone(), rules, avoid, *goal, obs)
            }
        }
    }

    /// The fair policy's turn in the room of `view`; `None` for the clairvoyant solver, which
    /// needs the dungeon's order.
    pub fn choose(&self, rules: &Rules, view: &View, coins: &mut GameRng) -> Option<Turn> {
        match self {
            Self::Random => Some(Random.choose(rules, view, coins)),
            Self::Greedy => Some(Greedy.choose(rules, view, coins)),
            Self::Heuristic(p) => Some(p.choose(rules, view, coins)),
            Self::Lookahead(p) => Some(p.choose(rules, view, coins)),
            Self::Tuned(p) => Some(p.choose(rules, view, coins)),
            Self::TunedLookahead(p) => Some(p.choose(rules, view, coins)),
            Self::Clairvoyant(_) => None,
        }
    }
}
