//! Crownfall's ladder for `sim evaluate`: its rungs from weakest to strongest, how its states are
//! dealt and its plain policies draw their coins (the machinery is in [`crate::evaluate`]).

use crate::error::Result;
use crate::evaluate::collect::Subject;
use crate::evaluate::ladder::{Evaluable, Rung, searchers};
use crate::games::Game;
use crate::games::seats::Table;
use crate::rng::{GameKey, GameRng};
use crate::search::{Algorithm, Defaults};

use super::solver::{self as crownfall_solver, Values};
use super::{Crownfall, Deck, PolicyKind};

impl Evaluable for Crownfall {
    type State<'a> = super::state::State<'a>;
    type Extra = Values;
    const BUDGETS: &'static [u32] = &[25, 50, 100, 200, 400, 800];
    const DEFAULTS: &'static Defaults = &super::search::DEFAULTS;

    fn extra(&self) -> Result<Values> {
        let counted = self.rules().deck == Deck::Finite;
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
            Ok(Rung::plain(name, PolicyKind::parse(name, rules)?.0))
        };
        let optimal = PolicyKind::parse("optimal", rules)?.0;
        let mut rungs = vec![
            Rung::random(),
            plain("bank-at-17")?,
            plain("bank-at-target")?,
        ];
        let defaults = Self::DEFAULTS;
        rungs.extend(searchers(defaults, Algorithm::Pimc, &optimal, budgets));
        // The solved game on top: best play under fresh odds, then the same values with the
        // real deck counted (a player may count cards: both are fair).
        rungs.extend([plain("optimal")?, plain("expectimax")?]);
        Ok(Subject {
            table: Table::Solo,
            unit: "strikes",
            deal: Box::new(move |seed, index| {
                super::state::State::deal(self, GameKey::new(seed, index)).with_values(values)
            }),
            coins: |_| vec![GameRng::unused()],
            baseline: Some("bank-at-17"),
            estimates: "the solved game's win probability of best play (the current strike over the real deck, fresh odds after it)",
            rungs,
        })
    }
}
