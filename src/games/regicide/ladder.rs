//! Regicide's ladder for `sim evaluate`: its rungs from weakest to strongest, how its states are
//! dealt and its plain policies draw their coins (the machinery is in [`crate::evaluate`]).

use crate::error::Result;
use crate::evaluate::collect::Subject;
use crate::evaluate::ladder::{Evaluable, Rung, searchers};
use crate::games::Game;
use crate::games::seats::Table;
use crate::search::{Algorithm, Defaults};

use super::{PolicyKind, Regicide, Streams, search};

impl Evaluable for Regicide {
    type State<'a> = super::state::State<'a>;
    type Extra = Option<search::Seat>;
    const BUDGETS: &'static [u32] = &[19, 38, 75, 150, 300];
    const DEFAULTS: &'static Defaults = &search::DEFAULTS;

    /// The clairvoyant ceiling, solo only.
    fn extra(&self) -> Result<Self::Extra> {
        if self.rules().players != 1 {
            return Ok(None);
        }
        search::parse(CLAIRVOYANT)
    }

    fn subject<'a>(
        &'a self,
        ceiling: &'a Self::Extra,
        budgets: &[u32],
    ) -> Result<Subject<'a, Self::State<'a>>> {
        let plain = |name: &str| -> Result<Rung<'a, Self::State<'a>>> {
            Ok(Rung::plain(name, PolicyKind::parse(name)?.0))
        };
        let heuristic = PolicyKind::parse("heuristic")?.0;
        let mut rungs = vec![plain("random")?, plain("simple")?, plain("heuristic")?];
        let defaults = Self::DEFAULTS;
        rungs.extend(searchers(defaults, Algorithm::Pimc, &heuristic, budgets));
        if let Some(seat) = ceiling {
            rungs.push(Rung::ceiling(
                seat.name(),
                Box::new(move || {
                    let solver = search::Solver::new(seat).expect("the ceiling is the clairvoyant");
                    Box::new(solver)
                }),
            ));
        }
        Ok(Subject {
            table: Table::Team,
            unit: "turns",
            deal: Box::new(move |seed, index| self.state(seed, index)),
            coins: |key| vec![key.stream(Streams::POLICY)],
            baseline: Some("simple"),
            estimates: "the search's own estimates (pimc: the chosen move's mean result over its worlds, heuristic rollouts)",
            rungs,
        })
    }
}

/// Regicide's ceiling: the clairvoyant at 30 thousand states a deal, enough to win every deal it
/// can (it stops at the first win instead of proving the fewest Jesters).
const CLAIRVOYANT: &str = "clairvoyant-30";
