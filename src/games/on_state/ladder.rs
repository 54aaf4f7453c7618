//! A state game's ladder for `sim evaluate`: the random player, the rulebook's plain policies
//! weakest first, then ISMCTS at the budgets.

use crate::error::{Result, SimError};
use crate::evaluate::collect::Subject;
use crate::evaluate::ladder::{Evaluable, Rung, climb};
use crate::rng::GameKey;
use crate::search::{Algorithm, Defaults};

use super::{OnState, Rulebook};

impl<B: Rulebook> Evaluable for OnState<B> {
    type State<'a> = B::State;
    type Extra = ();
    const BUDGETS: &'static [u32] = B::BUDGETS;
    const DEFAULTS: &'static Defaults = B::SEARCH;

    fn extra(&self) -> Result<()> {
        Ok(())
    }

    fn subject<'a>(&'a self, _: &'a (), budgets: &[u32]) -> Result<Subject<'a, B::State>> {
        let names: Vec<&str> = B::POLICIES.iter().map(|p| p.name).collect();
        let parse = |name: &str| {
            B::policy(name)
                .ok_or_else(|| SimError::input(format!("{}: no plain policy {name}", B::NAME)))
        };
        let mut rungs = vec![Rung::random()];
        rungs.extend(climb(&names, parse, B::SEARCH, Algorithm::Ismcts, budgets)?);
        Ok(Subject {
            table: B::TABLE,
            unit: "decisions",
            deal: Box::new(move |seed, index| self.deal(GameKey::new(seed, index))),
            coins: Self::coins,
            estimates: "the search's own estimates",
            rungs,
            baseline: Some(B::DEFAULT_POLICY),
        })
    }
}
