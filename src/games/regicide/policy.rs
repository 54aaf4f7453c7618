//! Regicide policies: the decisions a player makes, the registry `--policy` reads, and the
//! table of one policy per seat.

use std::path::Path;

use crate::error::Result;
use crate::games::{PolicyHelp, unknown_policy_of};
use crate::rng::GameRng;

use super::heuristic::Heuristic;
use super::moves::{Cover, Play, Prices};
use super::rules::MAX_PLAYERS;
use super::view::View;

/// The legal choices of step 1.
#[derive(Clone, Copy, Debug)]
pub struct Step1<'a> {
    /// Every legal play (Jesters included).
    pub plays: &'a [Play],
    /// True if a yield is allowed.
    pub can_yield: bool,
    /// True if a set-aside Jester is left (solo).
    pub solo_jester: bool,
}

/// The legal choices of step 4.
#[derive(Clone, Copy, Debug)]
pub struct Step4<'a> {
    /// The minimal covers of the attack (none if the hand cannot cover it); for a seat whose
    /// policy asks for the least cover only ([`Policy::least_cover_only`]), a list that holds
    /// the least one (alone, or among all the others under unusual card values); for a seat
    /// whose policy prices its discards ([`Policy::discard_prices`]), the first cheapest alone.
    pub covers: &'a [Cover],
    /// True if a set-aside Jester is left (solo).
    pub solo_jester: bool,
    /// True if a set-aside Jester was already used in this step.
    pub used_jester: bool,
}

/// A step-1 decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Play these cards.
    Play(Play),
    /// Yield: go to step 4.
    Yield,
    /// Use a set-aside Jester, then choose again.
    SoloJester,
}

/// A step-4 decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Defence {
    /// Discard this cover.
    Discard(Cover),
    /// Use a set-aside Jester, then choose again.
    SoloJester,
    /// No cover and no Jester wanted: the game is lost.
    GiveUp,
}

/// A fair player's decisions from what it may know. Called in the hot loop: implementations
/// are plain data, no allocation. The engine asks only when there is more than one choice.
pub trait Policy {
    /// Step 1: one of `choices`.
    fn attack(&self, view: &View, choices: &Step1, coins: &mut GameRng) -> Action;
    /// After a Jester (2 to 4 players): the next player's seat (the chooser's own included).
    fn next_seat(&self, view: &View, coins: &mut GameRng) -> u8;
    /// Step 4: one of `choices` (`GiveUp` only when there is no cover).
    fn defend(&self, view: &View, choices: &Step4, coins: &mut GameRng) -> Defence;
    /// True if `seat`'s step 4 discard is always the least minimal cover (least total, then
    /// fewest cards, then lex-first), so the engine may find that one alone instead of listing
    /// every minimal cover.
    #[inline]
    fn least_cover_only(&self, seat: u8) -> bool {
        let _ = seat;
        false
    }
    /// `seat`'s prices of discards if its step 4 discard is always the first minimal cover of
    /// least price in [`Covers::generate`](super::moves::Covers::generate)'s order (see
    /// [`Covers::generate_cheapest`](super::moves::Covers::generate_cheapest)), so the engine
    /// may find that one alone instead of listing every minimal cover.
    #[inline]
    fn discard_prices(&self, seat: u8) -> Option<Prices> {
        let _ = seat;
        None
    }
}

/// Every policy a seat can use (an empty seat holds the default, `simple`, and never plays).
#[derive(Clone, Debug, Default, PartialEq)]
pub enum PolicyKind {
    /// `random`.
    Random,
    /// `simple`.
    #[default]
    Simple,
    /// The built-in `heuristic` or a strategy file.
    Heuristic(Box<Heuristic>),
}

/// The policies `sim list` and errors name.
pub fn help() -> Vec<PolicyHelp> {
    vec![
        PolicyHelp {
            name: "simple",
            about: "the deterministic baseline player, literally: kill (exact first, cheapest), a Jester, the best safe play, yield, the best play; discard the least total that covers",
        },
        PolicyHelp {
            name: "random",
            about: "a baseline: uniform over the legal moves at each decision (plays, yield, Jesters, minimal discards, next player)",
        },
        PolicyHelp {
            name: "heuristic",
            about: "every play scored by damage, shield, draws, heals, the discard it leaves and the cards it spends; weights tuned by search (strategies/regicide/)",
        },
        PolicyHelp {
            name: "PATH.toml",
            about: "the heuristic with weights from a strategy file (see strategies/regicide/)",
        },
    ]
}

impl PolicyKind {
    /// Parses a `--policy` value: a policy name or a strategy file path, with its display name.
    pub fn parse(spec: &str) -> Result<(Self, String)> {
        let kind = match spec {
            "random" => Self::Random,
            "simple" => Self::Simple,
            "heuristic" => Self::Heuristic(Box::default()),
            _ if spec.ends_with(".toml") || spec.contains('/') => {
                let h = Heuristic::load(Path::new(spec))?;
                let name = h.name.clone();
                return Ok((Self::Heuristic(Box::new(h)), name));
            }
            _ => return Err(unknown_policy_of::<super::Regicide>(spec, "")),
        };
        Ok((kind, spec.to_string()))
    }

    /// True if the policy draws from its own generator.
    pub fn draws_coins(&self) -> bool {
        matches!(self, Self::Random)
    }
}

/// Forwards every decision to the policy in `$kind`, monomorphized.
macro_rules! each_kind {
    ($kind:expr, $p:ident => $body:expr) => {
        match $kind {
            $crate::games::regicide::PolicyKind::Random => {
                let $p = &$crate::games::regicide::random::Random;
                $body
            }
            $crate::games::regicide::PolicyKind::Simple => {
                let $p = &$crate::games::regicide::simple::Simple;
                $body
            }
            $crate::games::regicide::PolicyKind::Heuristic(h) => {
                let $p = h.as_ref();
                $body
            }
        }
    };
}
pub(crate) use each_kind;

/// A table whose seats may play different policies: each decision goes to the deciding seat's.
#[derive(Clone, Debug)]
pub struct Mixed<'a> {
    /// The policy of each seat.
    pub seats: &'a [PolicyKind; MAX_PLAYERS],
}

impl Policy for Mixed<'_> {
    #[inline]
    fn attack(&self, view: &View, choices: &Step1, coins: &mut GameRng) -> Action {
        each_kind!(&self.seats[usize::from(view.seat)], p => p.attack(view, choices, coins))
    }

    #[inline]
    fn next_seat(&self, view: &View, coins: &mut GameRng) -> u8 {
        each_kind!(&self.seats[usize::from(view.seat)], p => p.next_seat(view, coins))
    }

    #[inline]
    fn defend(&self, view: &View, choices: &Step4, coins: &mut GameRng) -> Defence {
        each_kind!(&self.seats[usize::from(view.seat)], p => p.defend(view, choices, coins))
    }

    #[inline]
    fn least_cover_only(&self, seat: u8) -> bool {
        each_kind!(&self.seats[usize::from(seat)], p => p.least_cover_only(seat))
    }

    #[inline]
    fn discard_prices(&self, seat: u8) -> Option<Prices> {
        each_kind!(&self.seats[usize::from(seat)], p => p.discard_prices(seat))
    }
}
