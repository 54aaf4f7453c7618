//! The registry: every game `sim` knows, each registered once, and everything that lists the
//! games (the command line's subcommands and handlers, `sim list`, `sim solve`, the conformance
//! tests) reads it.
//!
//! A game registers by implementing [`Registered`] in its own folder (its default policy and, if
//! it has one, its solver; its name, rules, policies, search players, ladder and trace come
//! with the traits it already implements) and by one line in [`Games::each`]. The registry is
//! static: a [`Visitor`] is called once per game with the game as a type parameter, so every
//! handler is monomorphised for every game as before, with no dynamic dispatch in any engine.
//! A test (or any other caller) can add games of its own by writing another [`Registry`] that
//! visits [`Games`] and then its own.

use crate::evaluate::ladder::Evaluable;
use crate::trace::Traceable;

use super::crownfall::Crownfall;
use super::junkyard::Junkyard;
use super::regicide::Regicide;
use super::scoundrel::Scoundrel;
use super::solvable::Solvable;

/// A game every command and test can find: a [`Game`](super::Game) with its state API, its
/// ladder for `sim evaluate` ([`Evaluable`]) and its trace ([`Traceable`]), plus what the
/// registry alone asks.
pub trait Registered: Evaluable + Traceable {
    /// The policy a run uses without `--policy`.
    const DEFAULT_POLICY: &'static str;
    /// What the conformance tests play of the game beside what its traits give.
    const FIXTURE: Fixture;

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

/// A list of games: [`Games`] is the one `sim` ships; a caller may add its own.
pub trait Registry {
    /// Visits every game of the list, in the order `sim list` shows them.
    fn each<V: Visitor>(visitor: &mut V);
}

/// The games `sim` knows. A new game adds its line here.
pub struct Games;

impl Registry for Games {
    fn each<V: Visitor>(visitor: &mut V) {
        visitor.game::<Crownfall>();
        visitor.game::<Scoundrel>();
        visitor.game::<Regicide>();
        visitor.game::<Junkyard>();
    }
}

/// Visits every game `sim` knows.
pub fn each<V: Visitor>(visitor: &mut V) {
    Games::each(visitor)
}

/// The names of the games of `R`, in order.
pub fn names<R: Registry>() -> Vec<&'static str> {
    struct Names(Vec<&'static str>);
    impl Visitor for Names {
        fn game<G: Registered>(&mut self) {
            self.0.push(G::NAME);
        }
    }
    let mut names = Names(Vec::new());
    R::each(&mut names);
    names.0
}

/// The names of the games of `R` that have a solver, in order.
pub fn solvable<R: Registry>() -> Vec<&'static str> {
    struct Solvers(Vec<&'static str>);
    struct Nothing;
    impl SolverVisitor for Nothing {
        fn solver<G: Solvable>(&mut self) {}
    }
    impl Visitor for Solvers {
        fn game<G: Registered>(&mut self) {
            if G::solver(&mut Nothing) {
                self.0.push(G::NAME);
            }
        }
    }
    let mut names = Solvers(Vec::new());
    R::each(&mut names);
    names.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Game;

    #[test]
    fn the_games_are_listed_once_in_order() {
        assert_eq!(
            names::<Games>(),
            ["crownfall", "scoundrel", "regicide", "junkyard"]
        );
    }

    #[test]
    fn only_crownfall_has_a_solver() {
        assert_eq!(solvable::<Games>(), [Crownfall::NAME]);
    }
}
