//! The ladders of the games `sim evaluate` knows. A game joins by implementing [`Evaluable`]:
//! how to deal its states, its plain policies' generators, and its rungs (a few lines: see
//! Crownfall's and Regicide's below), then `evaluated::<Game>` in `src/cli/mod.rs`.

use crate::error::Result;
use crate::games::Game;
use crate::games::crownfall::solver::{self as crownfall_solver, Values};
use crate::games::crownfall::{self, Crownfall};
use crate::games::regicide::{self, Regicide};
use crate::games::seats::Table;
use crate::games::state::GameState;
use crate::rng::{GameKey, GameRng};
use crate::search::Algorithm;

use super::collect::Subject;
use super::ladder::{Rung, searchers};

/// A game `sim evaluate` can profile.
pub trait Evaluable: Game {
    /// Its state.
    type State<'a>: GameState
    where
        Self: 'a;
    /// What its states or rungs borrow beside the game, made once per rule set.
    type Extra: Send + Sync;
    /// The search budgets of its ladder without `--budgets`.
    const BUDGETS: &'static [u32];

    /// The extra of this game's rules (Crownfall: the solved game's values).
    fn extra(&self) -> Result<Self::Extra>;

    /// The game under its rules, set up for evaluation with search rungs at `budgets`.
    fn subject<'a>(
        &'a self,
        extra: &'a Self::Extra,
        budgets: &[u32],
    ) -> Result<Subject<'a, Self::State<'a>>>;
}

impl Evaluable for Crownfall {
    type State<'a> = crownfall::state::State<'a>;
    type Extra = Values;
    const BUDGETS: &'static [u32] = &[25, 50, 100, 200, 400, 800];

    fn extra(&self) -> Result<Values> {
        let counted = self.rules().deck == crownfall::Deck::Finite;
        Ok(Values::new(
            crownfall_solver::solved(self.rules())?,
            counted,
        ))
    }

    fn subject<'a>(
        &'a self,
        values: &'a Values,
        budgets: &[u32],
    ) -> Result<Subject<'a, Self::State<'a>>> {
        let rules = self.rules();
        let plain = |name: &str| -> Result<Rung<'a, Self::State<'a>>> {
            Ok(Rung::plain(
                name,
                crownfall::PolicyKind::parse(name, rules)?.0,
            ))
        };
        let optimal = crownfall::PolicyKind::parse("optimal", rules)?.0;
        let mut rungs = vec![
            Rung::random(),
            plain("bank-at-17")?,
            plain("bank-at-target")?,
        ];
        let defaults = &crownfall::search::DEFAULTS;
        rungs.extend(searchers(defaults, Algorithm::Pimc, &optimal, budgets));
        // The solved game on top: best play under fresh odds, then the same values with the
        // real deck counted (a player may count cards: both are fair).
        rungs.extend([plain("optimal")?, plain("expectimax")?]);
        Ok(Subject {
            table: Table::Solo,
            unit: "strikes",
            deal: Box::new(move |seed, index| {
                crownfall::state::State::deal(self, GameKey::new(seed, index)).with_values(values)
            }),
            coins: |_| vec![GameRng::unused()],
            baseline: Some("bank-at-17"),
            estimates: "the solved game's win probability of best play (the current strike over the real deck, fresh odds after it)",
            rungs,
        })
    }
}

impl Evaluable for Regicide {
    type State<'a> = regicide::state::State<'a>;
    type Extra = Option<regicide::search::Seat>;
    const BUDGETS: &'static [u32] = &[19, 38, 75, 150, 300];

    /// The clairvoyant ceiling, solo only.
    fn extra(&self) -> Result<Self::Extra> {
        if self.rules().players != 1 {
            return Ok(None);
        }
        regicide::search::parse(CLAIRVOYANT)
    }

    fn subject<'a>(
        &'a self,
        ceiling: &'a Self::Extra,
        budgets: &[u32],
    ) -> Result<Subject<'a, Self::State<'a>>> {
        let plain = |name: &str| -> Result<Rung<'a, Self::State<'a>>> {
            Ok(Rung::plain(name, regicide::PolicyKind::parse(name)?.0))
        };
        let heuristic = regicide::PolicyKind::parse("heuristic")?.0;
        let mut rungs = vec![plain("random")?, plain("simple")?, plain("heuristic")?];
        let defaults = &regicide::search::DEFAULTS;
        rungs.extend(searchers(defaults, Algorithm::Pimc, &heuristic, budgets));
        if let Some(seat) = ceiling {
            rungs.push(Rung::ceiling(
                seat.name(),
                Box::new(move || {
                    let solver = regicide::search::Solver::new(seat)
                        .expect("the ceiling is the clairvoyant");
                    Box::new(solver)
                }),
            ));
        }
        Ok(Subject {
            table: Table::Team,
            unit: "turns",
            deal: Box::new(move |seed, index| self.state(seed, index)),
            coins: |key| vec![key.stream(regicide::Streams::POLICY)],
            baseline: Some("simple"),
            estimates: "the search's own estimates (pimc: the chosen move's mean result over its worlds, heuristic rollouts)",
            rungs,
        })
    }
}

/// Regicide's ceiling: the clairvoyant at 30 thousand states a deal, enough to win every deal it
/// can (it stops at the first win instead of proving the fewest Jesters).
const CLAIRVOYANT: &str = "clairvoyant-30";
