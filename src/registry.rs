//! The games `sim` knows, each registered once ([`Games`]), and what reads the list: the names of
//! the games and of those with a solver. What a game registers with (the traits) is in
//! [`crate::games::registry`], below the games; this list, which names them, is above them.

use crate::games::crownfall::Crownfall;
use crate::games::junkyard::Junkyard;
use crate::games::regicide::Regicide;
use crate::games::registry::{Registered, Registry, SolverVisitor, Visitor};
use crate::games::scoundrel::Scoundrel;
use crate::games::solvable::Solvable;

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
