//! Crownfall policies: the push/bank and Joker decisions, from what the player may know.

use std::path::Path;
use std::sync::Arc;

use crate::cards::Dealer;
use crate::error::{Result, SimError};
use crate::games::observe::{Observer, Unobserved};
use crate::games::{PolicyHelp, unknown_policy_of};

use super::engine::{Engine, JokerView, Running, StrikeView};
use super::events::Seen;
use super::outcome::Outcome;
use super::rules::Rules;
use super::solver::{self, Expectimax, Plan, Space};
use super::strategy::{Strategy, StrategyFile};

/// When to bank during one strike: at a hard total of `hard` or more, at a soft total (an Ace
/// counted as 11) of `soft` or more, and at any total in `low..high`; push otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BankTable {
    /// Bank at hard totals from this up.
    pub hard: u8,
    /// Bank at soft totals from this up.
    pub soft: u8,
    /// Also bank at totals from this...
    pub low: u8,
    /// ...up to but not including this.
    pub high: u8,
}

impl BankTable {
    /// Bank at a hard total of `hard` or more, at a soft total of `soft` or more.
    #[inline]
    pub fn at_least(hard: u8, soft: u8) -> Self {
        Self {
            hard,
            soft,
            low: 0,
            high: 0,
        }
    }

    /// Also bank at totals `low..high`, hard or soft.
    #[inline]
    pub fn with_range(self, low: u8, high: u8) -> Self {
        Self { low, high, ..self }
    }

    /// True to bank at best total `best`.
    #[inline(always)]
    pub fn bank(&self, best: u8, soft: bool) -> bool {
        best >= if soft { self.soft } else { self.hard } || (self.low <= best && best < self.high)
    }
}

/// A player's decisions. Called in the hot loop: implementations are plain data, no allocation.
pub trait Policy {
    /// The whole strike's decisions as a table, for a policy whose choice depends only on the
    /// total and on what is known at the strike's start (`view` has totals 0); `None` to be
    /// asked card by card through [`Policy::bank`]. The engine plays a table without a branch per
    /// card.
    fn strike_table(&self, rules: &Rules, view: &StrikeView) -> Option<BankTable>;

    /// True to BANK the strike now, false to PUSH (flip another card). The default reads the
    /// strike table, so a table policy writes its decision once.
    fn bank(&self, rules: &Rules, view: &StrikeView) -> bool {
        self.strike_table(rules, view)
            .is_some_and(|t| t.bank(view.best, view.soft()))
    }

    /// The Joker choice (true for DOUBLE-OR-NOTHING) made before its first flip, for a policy
    /// that decides from HP alone; `None` to be asked after an odd flip through
    /// [`Policy::double_or_nothing`]. The engine resolves a decided Joker without a branch on its
    /// cards. A policy implements this or [`Policy::double_or_nothing`] (or both, agreeing).
    #[inline]
    fn joker_choice(&self, _rules: &Rules, _hp: u8) -> Option<bool> {
        None
    }

    /// True to take DOUBLE-OR-NOTHING after a Joker's odd flip, false to ACCEPT the damage. The
    /// default reads [`Policy::joker_choice`] (and accepts if that is `None`).
    fn double_or_nothing(&self, rules: &Rules, view: &JokerView) -> bool {
        self.joker_choice(rules, view.hp) == Some(true)
    }
}

/// The rulings' Joker choice ("safe"): accept, unless accepting would kill.
#[inline]
pub fn safe_joker(rules: &Rules, view: &JokerView) -> bool {
    safe_joker_at(rules, view.hp)
}

/// The safe Joker choice at `hp`: double or nothing only if accepting would kill.
#[inline]
pub fn safe_joker_at(rules: &Rules, hp: u8) -> bool {
    hp <= rules.joker_damage
}

/// `bank-at-N`: push while the best total is under N, whatever the enemy; safe Joker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BankAt(pub u8);

impl Policy for BankAt {
    #[inline]
    fn strike_table(&self, _: &Rules, _: &StrikeView) -> Option<BankTable> {
        Some(BankTable::at_least(self.0, self.0))
    }
    #[inline]
    fn joker_choice(&self, rules: &Rules, hp: u8) -> Option<bool> {
        Some(safe_joker_at(rules, hp))
    }
}

/// `bank-at-target`: push until the best total reaches the enemy's target; safe Joker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BankAtTarget;

impl Policy for BankAtTarget {
    #[inline]
    fn strike_table(&self, _: &Rules, view: &StrikeView) -> Option<BankTable> {
        Some(BankTable::at_least(view.target, view.target))
    }
    #[inline]
    fn joker_choice(&self, rules: &Rules, hp: u8) -> Option<bool> {
        Some(safe_joker_at(rules, hp))
    }
}

/// Every policy a run can use, dispatched once per game into a monomorphized engine.
#[derive(Clone, Debug, PartialEq)]
pub enum PolicyKind {
    /// `bank-at-N`.
    BankAt(BankAt),
    /// `bank-at-target`.
    BankAtTarget,
    /// A strategy file of stand totals.
    Strategy(Box<Strategy>),
    /// A solved plan: `optimal`, or a strategy file written by `sim solve`.
    Plan(Arc<Plan>),
    /// `expectimax`: counts cards against the solved values.
    Expectimax(Arc<Expectimax>),
}

/// The policies `sim list` and errors name.
pub fn help() -> Vec<PolicyHelp> {
    vec![
        PolicyHelp {
            name: "bank-at-N",
            about: "N = 2..21: push while the best total is under N, any enemy; Joker: accept unless it would kill",
        },
        PolicyHelp {
            name: "bank-at-target",
            about: "push until the best total reaches the enemy's target; Joker as bank-at-N",
        },
        PolicyHelp {
            name: "optimal",
            about: "the solver's plan: best win probability under fresh odds (solved at start-up, see sim solve)",
        },
        PolicyHelp {
            name: "expectimax",
            about: "card counter: every choice by the exact expectation over the real deck of the solved values",
        },
        PolicyHelp {
            name: "PATH.toml",
            about: "a strategy file: stand totals per enemy (hard and soft), guard, Joker choice (see strategies/crownfall/)",
        },
    ]
}

impl PolicyKind {
    /// Parses a `--policy` value for a game under `rules`: a policy name or a strategy file
    /// path. Returns it with its display name. `optimal` and `expectimax` solve `rules` (once per
    /// process).
    pub fn parse(spec: &str, rules: &Rules) -> Result<(Self, String)> {
        let unknown = |why: &str| unknown_policy_of::<super::Crownfall>(spec, why);
        match spec {
            "optimal" => {
                let plan = solver::solved(rules)?.plan.clone();
                return Ok((Self::Plan(Arc::new(plan)), spec.to_string()));
            }
            "expectimax" => {
                let player = Expectimax::new(solver::solved(rules)?);
                return Ok((Self::Expectimax(Arc::new(player)), spec.to_string()));
            }
            _ => {}
        }
        if spec == "bank-at-target" {
            return Ok((Self::BankAtTarget, spec.to_string()));
        }
        if let Some(n) = spec.strip_prefix("bank-at-") {
            return match n.parse::<u8>() {
                Ok(n @ 2..=21) => Ok((Self::BankAt(BankAt(n)), spec.to_string())),
                _ => Err(unknown("bank-at-N takes N = 2..21")),
            };
        }
        if spec.ends_with(".toml") || spec.contains('/') {
            return match StrategyFile::load(Path::new(spec))? {
                StrategyFile::Stands(strategy) => {
                    let name = strategy.name.clone();
                    Ok((Self::Strategy(Box::new(strategy)), name))
                }
                StrategyFile::Plan(name, plan) => {
                    if plan.space != Space::new(rules)? {
                        return Err(SimError::input(format!(
                            "{spec} was solved for a tower of {:?} (jacks, queens, kings, jokers) and max_hp {}: these rules have {:?} and {}",
                            plan.space.full,
                            plan.space.max_hp,
                            Space::new(rules)?.full,
                            rules.max_hp
                        )));
                    }
                    Ok((Self::Plan(Arc::new(plan)), name))
                }
            };
        }
        Err(unknown(""))
    }

    /// The policy as a plan over the solver's states (for exact evaluation under fresh odds);
    /// an error for `expectimax`, whose moves depend on the player deck.
    pub fn to_plan(&self, rules: &Rules) -> Result<Plan> {
        match self {
            Self::BankAt(p) => Plan::from_policy(rules, p),
            Self::BankAtTarget => Plan::from_policy(rules, &BankAtTarget),
            Self::Strategy(p) => Plan::from_policy(rules, p.as_ref()),
            Self::Plan(p) => Ok(p.as_ref().clone()),
            Self::Expectimax(_) => Err(SimError::input(
                "expectimax counts cards: it has no plan over fresh-odds states",
            )),
        }
    }

    /// Plays a game from `engine` (fresh or stacked) to its end with this policy.
    #[inline]
    pub fn play_from<T: Dealer, D: Dealer>(
        &self,
        engine: &Engine,
        rules: &Rules,
        tower: &mut T,
        deck: &mut D,
    ) -> Outcome {
        self.play_observed(engine, rules, tower, deck, &mut Unobserved)
    }

    /// [`PolicyKind::play_from`], reporting every event to `obs`.
    #[inline]
    pub fn play_observed<T: Dealer, D: Dealer, O: Observer<Seen>>(
        &self,
        engine: &Engine,
        rules: &Rules,
        tower: &mut T,
        deck: &mut D,
        obs: &mut O,
    ) -> Outcome {
        match self {
            Self::BankAt(p) => engine.play_observed(rules, p, tower, deck, obs),
            Self::BankAtTarget => engine.play_observed(rules, &BankAtTarget, tower, deck, obs),
            Self::Strategy(p) => engine.play_observed(rules, p.as_ref(), tower, deck, obs),
            Self::Plan(p) => engine.play_observed(rules, p.as_ref(), tower, deck, obs),
            Self::Expectimax(p) => engine.play_observed(rules, p.as_ref(), tower, deck, obs),
        }
    }

    /// Plays the rest of the game `run` with this policy, from between two enemies (a search's
    /// rollout from the state API), on the fast engine.
    pub(super) fn play_on<D: Dealer>(
        &self,
        engine: &Engine,
        rules: &Rules,
        run: &mut Running,
        deck: &mut D,
    ) {
        let obs = &mut Unobserved;
        match self {
            Self::BankAt(p) => while engine.step(run, rules, p, deck, obs) {},
            Self::BankAtTarget => while engine.step(run, rules, &BankAtTarget, deck, obs) {},
            Self::Strategy(p) => while engine.step(run, rules, p.as_ref(), deck, obs) {},
            Self::Plan(p) => while engine.step(run, rules, p.as_ref(), deck, obs) {},
            Self::Expectimax(p) => while engine.step(run, rules, p.as_ref(), deck, obs) {},
        }
    }

    /// The policy's decision at `view`: true to bank (see [`Policy::bank`]).
    pub fn bank(&self, rules: &Rules, view: &StrikeView) -> bool {
        match self {
            Self::BankAt(p) => p.bank(rules, view),
            Self::BankAtTarget => BankAtTarget.bank(rules, view),
            Self::Strategy(p) => p.bank(rules, view),
            Self::Plan(p) => p.bank(rules, view),
            Self::Expectimax(p) => p.bank(rules, view),
        }
    }

    /// The policy's Joker decision at `view`: true for double or nothing (see
    /// [`Policy::double_or_nothing`]).
    pub fn double_or_nothing(&self, rules: &Rules, view: &JokerView) -> bool {
        match self {
            Self::BankAt(p) => p.double_or_nothing(rules, view),
            Self::BankAtTarget => BankAtTarget.double_or_nothing(rules, view),
            Self::Strategy(p) => p.double_or_nothing(rules, view),
            Self::Plan(p) => p.double_or_nothing(rules, view),
            Self::Expectimax(p) => p.double_or_nothing(rules, view),
        }
    }

    /// Plays two games from `engine` with this policy, interleaved (see [`Engine::play_two`]).
    #[inline]
    pub fn play_two_from<T: Dealer, D: Dealer>(
        &self,
        engine: &Engine,
        rules: &Rules,
        towers: [&mut T; 2],
        decks: [&mut D; 2],
    ) -> [Outcome; 2] {
        match self {
            Self::BankAt(p) => engine.play_two(rules, p, towers, decks),
            Self::BankAtTarget => engine.play_two(rules, &BankAtTarget, towers, decks),
            Self::Strategy(p) => engine.play_two(rules, p.as_ref(), towers, decks),
            Self::Plan(p) => engine.play_two(rules, p.as_ref(), towers, decks),
            Self::Expectimax(p) => engine.play_two(rules, p.as_ref(), towers, decks),
        }
    }
}
