//! Junkyard Frankenstein's ladder for `sim evaluate`: its rungs from weakest to strongest, how its states are
//! dealt and its plain policies draw their coins (the machinery is in [`crate::evaluate`]).

use crate::error::Result;
use crate::evaluate::collect::Subject;
use crate::evaluate::ladder::{Evaluable, climb};
use crate::games::Game;
use crate::games::seats::Table;
use crate::rng::GameKey;
use crate::search::{Algorithm, Defaults};

use super::{Junkyard, PolicyKind, Streams};

impl Evaluable for Junkyard {
    type State<'a> = super::state::State<'a>;
    type Extra = ();
    /// Up to past ismcts's default of 1,000.
    const BUDGETS: &'static [u32] = &[50, 100, 200, 400, 800, 1600];
    const DEFAULTS: &'static Defaults = &super::search::DEFAULTS;

    fn extra(&self) -> Result<()> {
        Ok(())
    }

    fn subject<'a>(&'a self, _: &'a (), budgets: &[u32]) -> Result<Subject<'a, Self::State<'a>>> {
        let rules = self.rules();
        let parse = |name: &str| Ok(PolicyKind::parse(name, rules)?.0);
        let fair = ["random", "simple", "greedy", "lookahead"];
        let defaults = Self::DEFAULTS;
        let rungs = climb(&fair, parse, defaults, Algorithm::Ismcts, budgets)?;
        Ok(Subject {
            table: Table::Duel,
            unit: "turns",
            deal: Box::new(move |seed, index| {
                super::state::State::deal(rules, GameKey::new(seed, index))
            }),
            coins: |key| {
                (0..2)
                    .map(|seat| key.stream(Streams::POLICY + seat))
                    .collect()
            },
            baseline: Some("simple"),
            estimates: "the search's own estimates (ismcts: the chosen move's mean result over its simulations, greedy rollouts)",
            rungs,
        })
    }
}
