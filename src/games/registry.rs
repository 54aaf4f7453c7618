//! What a game registers with: [`Registered`] (implemented in each game's own folder), the
//! [`Visitor`] called once per game, and a [`Registry`], a list of games. The list `sim` ships,
//! `Games`, names the games, so it sits above them, in `crate::registry`; everything that lists
//! the games (the command line's subcommands and handlers, `sim list`, `sim solve`, the
//! conformance tests) reads a list.
//!
//! A game registers by implementing [`Registered`] in its own folder (its default policy and, if
//! it has one, its solver; its name, rules, policies, search players, ladder and trace come
//! with the traits it already implements) and by one line in the list. The registry is static:
//! a [`Visitor`] is called once per game with the game as a type parameter, so every handler is
//! monomorphised for every game as before, with no dynamic dispatch in any engine. A test (or
//! any other caller) can add games of its own by writing another [`Registry`] that visits
//! `Games` and then its own.

use crate::evaluate::ladder::Evaluable;
use crate::trace::Traceable;

use super::solvable::Solvable;

/// A game every command and test can find: a [`Game`](super::Game) with its state API, its
/// ladder for `sim evaluate` ([`Evaluable`]) and its trace ([`Traceable`]), plus what the
/// registry alone asks.
pub trait Registered: Evaluable + Traceable {
    /// The policy a run uses without `--policy`.
    const DEFAULT_POLICY: &'static str;
    /// What the conformance tests play of the game beside what its traits give.
    const FIXTURE: Fixture;
    /// The players a designer's figures may name by role (`baseline`, `best`).
    const ROSTER: Roster;

    /// Hands the game's full solver to `visitor` (`sim solve`) and returns true, if the game
    /// has one; false otherwise (the default).
    fn solver<V: SolverVisitor>(_visitor: &mut V) -> bool {
        false
    }
}

/// What the conformance tests (tests/suite/conformance/) play of a game that its traits do not
/// say: small and fast.
#[derive(Clone, Copy, Debug)]
pub struct Fixture {
    /// Two or more fast plain policies for `sim compare`, the first its baseline.
    pub compare: &'static [&'static str],
    /// A rule a sweep and a balance search vary, with two values for them (`start_hp`, 16, 20).
    pub vary: (&'static str, i64, i64),
    /// The rule sets the fairness check plays (`--set` lines; `&[]` the defaults): the defaults
    /// and every variant that changes what a seat cannot see (a deck dealt fresh, avoided rooms
    /// shuffled back, more seats with hidden hands, returns in a fixed order).
    pub hidden: &'static [&'static [&'static str]],
}

/// The players a game's figures may name by role (`win_rate[best]`, `gap[best,baseline]`):
/// rungs of its ladder for `sim evaluate`, chosen so a brief can afford them on every candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Roster {
    /// The game's literal strategy, `sim evaluate`'s baseline rung.
    pub baseline: &'static str,
    /// The strongest fair player a brief can afford on every candidate: the solved game where
    /// there is one, else the strongest plain player or a search player at a budget a few
    /// hundred games per candidate can pay.
    pub best: &'static str,
    /// The uniform random player, the bottom rung of the ladder, where the game has one as a
    /// policy.
    pub random: Option<&'static str>,
    /// The best player without search, which a screening of every rule's values can afford
    /// (`sim explore`'s default strong player): the solved game where there is one.
    pub plain: &'static str,
}

/// Something done once per registered game (build a subcommand, run a check).
pub trait Visitor {
    /// Called with each game in turn.
    fn game<G: Registered>(&mut self);
}

/// Something done with a game's solver.
pub trait SolverVisitor {
    /// Called with the game whose solver it is.
    fn solver<G: Solvable>(&mut self);
}

/// A list of games: `crate::registry::Games` is the one `sim` ships; a caller may add its own.
pub trait Registry {
    /// Visits every game of the list, in the order `sim list` shows them.
    fn each<V: Visitor>(visitor: &mut V);
}
