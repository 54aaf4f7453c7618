//! The ladders of the games `sim evaluate` knows. A game joins by implementing [`Evaluable`]:
//! how to deal its states, its plain policies' generators, and its rungs (a few lines: see
//! the four games' below), then `evaluated::<Game>` in `src/cli/mod.rs`.

use crate::error::Result;
use crate::games::Game;
use crate::games::crownfall::solver::{self as crownfall_solver, Values};
use crate::games::crownfall::{self, Crownfall};
use crate::games::junkyard::{self, Junkyard};
use crate::games::regicide::{self, Regicide};
use crate::games::scoundrel::{self, Scoundrel};
use crate::games::seats::Table;
use crate::games::state::GameState;
use crate::rng::{GameKey, GameRng};
use crate::search::Algorithm;

use super::collect::Subject;
use super::ladder::{Rung, climb, searchers};

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

impl Evaluable for Scoundrel {
    type State<'a> = scoundrel::state::State<'a>;
    type Extra = ();
    /// Up to four times ismcts's default of 400.
    const BUDGETS: &'static [u32] = &[50, 100, 200, 400, 800, 1600];

    fn extra(&self) -> Result<()> {
        Ok(())
    }

    fn subject<'a>(&'a self, _: &'a (), budgets: &[u32]) -> Result<Subject<'a, Self::State<'a>>> {
        let rules = self.rules();
        let parse = |name: &str| Ok(scoundrel::PolicyKind::parse(name, rules)?.0);
        let fair = [
            "random",
            "greedy",
            "heuristic",
            "tuned",
            "lookahead",
            "tuned-lookahead",
        ];
        let defaults = &scoundrel::search::DEFAULTS;
        let mut rungs = climb(&fair, parse, defaults, Algorithm::Ismcts, budgets)?;
        // The ceiling sees the dungeon's order; the solver refuses rules it cannot know
        // (a shuffled avoid, end = monsters), and the ladder then stops at the best fair rung.
        if let Ok((clairvoyant, _)) = scoundrel::PolicyKind::parse(CEILING, rules) {
            rungs.push(Rung::ceiling_plain(CEILING, clairvoyant));
        }
        Ok(Subject {
            table: Table::Solo,
            unit: "rooms",
            deal: Box::new(move |seed, index| {
                self.state(seed, index, &mut crate::games::observe::Unobserved)
            }),
            coins: |key| vec![key.stream(scoundrel::Streams::POLICY)],
            baseline: Some("greedy"),
            estimates: "the search's own estimates (ismcts: the chosen play's mean result over its simulations, heuristic rollouts)",
            rungs,
        })
    }
}

impl Evaluable for Junkyard {
    type State<'a> = junkyard::state::State<'a>;
    type Extra = ();
    /// Up to past ismcts's default of 1,000.
    const BUDGETS: &'static [u32] = &[50, 100, 200, 400, 800, 1600];

    fn extra(&self) -> Result<()> {
        Ok(())
    }

    fn subject<'a>(&'a self, _: &'a (), budgets: &[u32]) -> Result<Subject<'a, Self::State<'a>>> {
        let rules = self.rules();
        let parse = |name: &str| Ok(junkyard::PolicyKind::parse(name, rules)?.0);
        let fair = ["random", "simple", "greedy", "lookahead"];
        let defaults = &junkyard::search::DEFAULTS;
        let rungs = climb(&fair, parse, defaults, Algorithm::Ismcts, budgets)?;
        Ok(Subject {
            table: Table::Duel,
            unit: "turns",
            deal: Box::new(move |seed, index| {
                junkyard::state::State::deal(rules, GameKey::new(seed, index))
            }),
            coins: |key| {
                (0..2)
                    .map(|seat| key.stream(junkyard::Streams::POLICY + seat))
                    .collect()
            },
            baseline: Some("simple"),
            estimates: "the search's own estimates (ismcts: the chosen move's mean result over its simulations, greedy rollouts)",
            rungs,
        })
    }
}

/// Scoundrel's ceiling: the solver that sees the dungeon's order and plays the best score.
const CEILING: &str = "clairvoyant";

/// Regicide's ceiling: the clairvoyant at 30 thousand states a deal, enough to win every deal it
/// can (it stops at the first win instead of proving the fewest Jesters).
const CLAIRVOYANT: &str = "clairvoyant-30";
