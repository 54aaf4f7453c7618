//! Junkyard policies: the decisions a player makes, and the registry `--policy` reads.

use crate::cards::Dealer;
use crate::error::Result;
use crate::games::{PolicyHelp, unknown_policy_of};
use crate::rng::GameRng;

use std::path::Path;

use super::automaton::Automaton;
use super::combat::{self, Blocks, MAX_BOTS};
use super::engine::Turn;
use super::events::Observer;
use super::greedy::Greedy;
use super::lookahead::Lookahead;
use super::random::Random;
use super::rules::Rules;
use super::simple::Simple;
use super::strategy::Weights;
use super::view::View;

/// A fair player's decisions, each from what the player may know. Called in the hot loop:
/// implementations are plain data, no allocation.
pub trait Policy {
    /// Set-up building (nothing else happens at set-up). By default rule 3 of `simple`: build
    /// the strongest automaton while any can be built.
    #[inline]
    fn setup<D: Dealer, O: Observer>(&self, _rules: &Rules, turn: &mut Turn<'_, '_, D, O>) {
        turn.build_all_strongest();
    }

    /// Step 3 (build, deploy tear-downs, through `turn`), then the attackers of step 4 as a mask
    /// over the player's automatons.
    fn main<D: Dealer, O: Observer>(&self, rules: &Rules, turn: &mut Turn<'_, '_, D, O>) -> u32;

    /// The attackers of step 4 (a mask over the player's automatons) once step 3 is over,
    /// played by someone else (a search, a person): the state API asks it where the policy did
    /// not play the turn's step 3 itself. By default `simple`'s rule 4.
    #[inline]
    fn attackers(&self, _rules: &Rules, view: &View, _coins: &mut GameRng) -> u32 {
        super::simple::attack(view)
    }

    /// The defender's blocks against `attackers` (a mask over `view.opp_bots()`).
    fn block(&self, rules: &Rules, view: &View, attackers: u32, coins: &mut GameRng) -> Blocks;

    /// How `attacker` splits its power over `blockers`: the mask of blockers it destroys (a
    /// legal one; see `combat::split_is_legal`).
    fn split(
        &self,
        rules: &Rules,
        view: &View,
        attacker: &Automaton,
        blockers: &[Automaton],
        coins: &mut GameRng,
    ) -> u32;

    /// How `attacker` splits its power over the opponent's automatons of `blockers` (a mask
    /// over `view.opp_bots()`, not empty): the mask of those it destroys, over
    /// `view.opp_bots()` too. An implementation must return a legal split. By default
    /// [`Policy::split`] on the blockers as a list, checked: an illegal split is replaced by the
    /// split rule (`combat::split_rule`).
    #[inline]
    fn split_in(
        &self,
        rules: &Rules,
        view: &View,
        attacker: &Automaton,
        blockers: u32,
        coins: &mut GameRng,
    ) -> u32 {
        // The blockers in a list, and where each is among the opponent's automatons.
        let mut list = [Automaton::FOUR_ONES; MAX_BOTS];
        let mut index = [0u8; MAX_BOTS];
        let mut n = 0;
        for i in combat::bits(blockers) {
            list[n] = view.opp_bots()[i];
            index[n] = i as u8;
            n += 1;
        }
        let list = &list[..n];
        let split = self.split(rules, view, attacker, list, coins);
        let split = if combat::split_is_legal(attacker, list, split) {
            split
        } else {
            combat::split_rule(attacker, list)
        };
        combat::bits(split).fold(0, |m, k| m | 1 << index[k])
    }

    /// True if [`Policy::block`]'s blocks are always legal (`combat::legal_blocks` would keep
    /// them all): the engine then does not check them.
    #[inline(always)]
    fn blocks_legally(&self) -> bool {
        false
    }
}

/// Every policy a seat can use; a match per decision dispatches to it.
#[derive(Clone, Debug, PartialEq)]
pub enum PolicyKind {
    /// `simple`.
    Simple,
    /// `random`.
    Random,
    /// `greedy`, `aggressive`, `defensive` or a strategy file.
    Greedy(Greedy),
    /// `lookahead` or `lookahead-N`.
    Lookahead(Lookahead),
}

/// The policies `sim list` and errors name.
pub fn help() -> Vec<PolicyHelp> {
    vec![
        PolicyHelp {
            name: "simple",
            about: "the deterministic baseline player, literally: tear-downs on the strongest target when worth it, build the strongest, attack past the defenders keeping a guard; gang, safe and chump blocks",
        },
        PolicyHelp {
            name: "random",
            about: "a baseline: uniform over the legal choices at each decision (build, deploy, stop; attack subsets; blocks; splits)",
        },
        PolicyHelp {
            name: "greedy",
            about: "one turn at a time: tear-downs when they remove more worth than they cost, build the strongest, the attack that scores best against simple's blocks (damage, trades, the counter-attack it invites)",
        },
        PolicyHelp {
            name: "aggressive",
            about: "greedy with strategies/junkyard/aggressive.toml: damage first, losses and exposure cheap",
        },
        PolicyHelp {
            name: "defensive",
            about: "greedy with strategies/junkyard/defensive.toml: exposure and losses costly",
        },
        PolicyHelp {
            name: "PATH.toml",
            about: "greedy with the weights of a strategy file (see strategies/junkyard/)",
        },
        PolicyHelp {
            name: "lookahead[-N]",
            about: "determinized sampling: each plan of the turn (tear-downs, greedy's 3 best attacks or none), and each block plan, played to the end by greedy on N samples of the unseen cards (default N = 6)",
        },
    ]
}

impl PolicyKind {
    /// Parses a `--policy` value: a policy name or a strategy file path. Returns it with its
    /// display name.
    pub fn parse(spec: &str, _rules: &Rules) -> Result<(Self, String)> {
        let unknown = |why: &str| unknown_policy_of::<super::Junkyard>(spec, why);
        let kind = match spec {
            "simple" => Self::Simple,
            "random" => Self::Random,
            "greedy" => Self::Greedy(Greedy::default()),
            "lookahead" => Self::Lookahead(Lookahead::default()),
            _ => {
                if let Some(weights) = Weights::built_in(spec) {
                    Self::Greedy(Greedy { weights })
                } else if let Some(n) = spec.strip_prefix("lookahead-") {
                    let samples = n.parse::<u16>().ok().filter(|n| (1..=1000).contains(n));
                    let Some(samples) = samples else {
                        return Err(unknown("lookahead-N takes N = 1..=1000"));
                    };
                    Self::Lookahead(Lookahead::with_samples(samples))
                } else if spec.ends_with(".toml") || spec.contains('/') {
                    let (name, weights) = Weights::load(Path::new(spec))?;
                    return Ok((Self::Greedy(Greedy { weights }), name));
                } else {
                    return Err(unknown(""));
                }
            }
        };
        Ok((kind, spec.to_string()))
    }

    /// True if the policy draws from its own generator.
    pub fn draws_coins(&self) -> bool {
        matches!(self, Self::Random | Self::Lookahead(_))
    }
}

/// Dispatches one call to the policy behind a [`PolicyKind`].
macro_rules! dispatch {
    ($kind:expr, $p:ident => $call:expr) => {
        match $kind {
            PolicyKind::Simple => {
                let $p = &Simple;
                $call
            }
            PolicyKind::Random => {
                let $p = &Random;
                $call
            }
            PolicyKind::Greedy($p) => $call,
            PolicyKind::Lookahead($p) => $call,
        }
    };
}
pub(super) use dispatch;

impl Policy for PolicyKind {
    #[inline]
    fn setup<D: Dealer, O: Observer>(&self, rules: &Rules, turn: &mut Turn<'_, '_, D, O>) {
        dispatch!(self, p => p.setup(rules, turn))
    }

    #[inline]
    fn main<D: Dealer, O: Observer>(&self, rules: &Rules, turn: &mut Turn<'_, '_, D, O>) -> u32 {
        dispatch!(self, p => p.main(rules, turn))
    }

    #[inline]
    fn attackers(&self, rules: &Rules, view: &View, coins: &mut GameRng) -> u32 {
        dispatch!(self, p => p.attackers(rules, view, coins))
    }

    #[inline]
    fn block(&self, rules: &Rules, view: &View, attackers: u32, coins: &mut GameRng) -> Blocks {
        dispatch!(self, p => p.block(rules, view, attackers, coins))
    }

    #[inline]
    fn split(
        &self,
        rules: &Rules,
        view: &View,
        attacker: &Automaton,
        blockers: &[Automaton],
        coins: &mut GameRng,
    ) -> u32 {
        dispatch!(self, p => p.split(rules, view, attacker, blockers, coins))
    }

    #[inline]
    fn split_in(
        &self,
        rules: &Rules,
        view: &View,
        attacker: &Automaton,
        blockers: u32,
        coins: &mut GameRng,
    ) -> u32 {
        dispatch!(self, p => p.split_in(rules, view, attacker, blockers, coins))
    }

    #[inline(always)]
    fn blocks_legally(&self) -> bool {
        dispatch!(self, p => p.blocks_legally())
    }
}
