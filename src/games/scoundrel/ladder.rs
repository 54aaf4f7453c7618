//! Scoundrel's ladder for `sim evaluate`: its rungs from weakest to strongest, how its states are
//! dealt and its plain policies draw their coins (the machinery is in [`crate::evaluate`]).

use crate::error::Result;
use crate::evaluate::collect::Subject;
use crate::evaluate::ladder::{Evaluable, Rung, climb};
use crate::games::Game;
use crate::games::observe::Unobserved;
use crate::games::seats::Table;
use crate::search::{Algorithm, Defaults};

use super::{PolicyKind, Scoundrel, Streams};

impl Evaluable for Scoundrel {
    type State<'a> = super::state::State<'a>;
    type Extra = ();
    /// Up to four times ismcts's default of 400.
    const BUDGETS: &'static [u32] = &[50, 100, 200, 400, 800, 1600];
    const DEFAULTS: &'static Defaults = &super::search::DEFAULTS;

    fn extra(&self) -> Result<()> {
        Ok(())
    }

    fn subject<'a>(&'a self, _: &'a (), budgets: &[u32]) -> Result<Subject<'a, Self::State<'a>>> {
        let rules = self.rules();
        let parse = |name: &str| Ok(PolicyKind::parse(name, rules)?.0);
        let fair = [
            "random",
            "greedy",
            "heuristic",
            "tuned",
            "lookahead",
            "tuned-lookahead",
        ];
        let defaults = Self::DEFAULTS;
        let mut rungs = climb(&fair, parse, defaults, Algorithm::Ismcts, budgets)?;
        // The ceiling sees the dungeon's order; the solver refuses rules it cannot know
        // (a shuffled avoid, end = monsters), and the ladder then stops at the best fair rung.
        if let Ok((clairvoyant, _)) = PolicyKind::parse(CEILING, rules) {
            rungs.push(Rung::ceiling_plain(CEILING, clairvoyant));
        }
        Ok(Subject {
            table: Table::Solo,
            unit: "rooms",
            deal: Box::new(move |seed, index| self.state(seed, index, &mut Unobserved)),
            coins: |key| vec![key.stream(Streams::POLICY)],
            baseline: Some("greedy"),
            estimates: "the search's own estimates (ismcts: the chosen play's mean result over its simulations, heuristic rollouts)",
            rungs,
        })
    }
}

/// Scoundrel's ceiling: the solver that sees the dungeon's order and plays the best score.
const CEILING: &str = "clairvoyant";
