//! A game's skill ladder as data: its rungs from weakest to strongest (a uniform random
//! player, the game's plain policies, then a search player at doubling budgets) and, where the
//! game has one, the full-knowledge ceiling, which is NOT a strategy. A game's ladder is a
//! list of [`Rung`]s, given by its [`Evaluable`] impl in its own folder (`src/games/<game>/ladder.rs`); `--budgets` replaces its search budgets.

use serde::{Deserialize, Serialize};

use crate::error::{Result, SimError};
use crate::games::Game;
use crate::games::state::GameState;
use crate::games::twin::Twin;
use crate::games::value::Featured;
use crate::search::play::Player;
use crate::search::settings::MAX_SIMULATIONS;
use crate::search::{Algorithm, Defaults, Searcher};

use super::collect::Subject;

/// A game `sim evaluate` can profile.
pub trait Evaluable: Game {
    /// Its state (whose policies clone: a search rung's rollout is one), which builds its
    /// indistinguishable twins for the fairness test ([`Twin`]) and offers the features a value
    /// estimate reads (`sim learn`).
    type State<'a>: GameState<Policy: Clone> + Twin + Featured
    where
        Self: 'a;
    /// What its states or rungs borrow beside the game, made once per rule set.
    type Extra: Send + Sync;
    /// The search budgets of its ladder without `--budgets`.
    const BUDGETS: &'static [u32];
    /// Its search players' settings without any given (the budget a player uses by default).
    const DEFAULTS: &'static Defaults;

    /// The extra of this game's rules (Crownfall: the solved game's values).
    fn extra(&self) -> Result<Self::Extra>;

    /// The game under its rules, set up for evaluation with search rungs at `budgets`.
    fn subject<'a>(
        &'a self,
        extra: &'a Self::Extra,
        budgets: &[u32],
    ) -> Result<Subject<'a, Self::State<'a>>>;
}

/// A fresh player for each game (a solver that sees the deal, ...).
pub type MakePlayer<'a, S> = Box<dyn Fn() -> Box<dyn Player<S> + 'a> + Send + Sync + 'a>;

/// How a rung decides.
pub enum Play<'a, S: GameState> {
    /// Uniformly among the legal moves (for a game without a random policy of its own).
    Random,
    /// One of the game's plain policies.
    Plain(S::Policy),
    /// A search player.
    Search(Searcher<S::Policy>),
    /// Any other player, made fresh for each game.
    Other(MakePlayer<'a, S>),
}

/// One rung of a ladder.
pub struct Rung<'a, S: GameState> {
    /// What it is, as the game names it (`bank-at-17`, `pimc-200`).
    pub name: String,
    /// False for a player that sees what a player may not (the ceiling): NOT a strategy.
    pub fair: bool,
    /// A search player's budget (simulations or worlds a decision).
    pub budget: Option<u32>,
    /// How it decides.
    pub play: Play<'a, S>,
}

impl<'a, S: GameState> Rung<'a, S> {
    /// The uniform random player, named `random`.
    pub fn random() -> Self {
        Self {
            name: "random".into(),
            fair: true,
            budget: None,
            play: Play::Random,
        }
    }

    /// One of the game's plain policies.
    pub fn plain(name: &str, policy: S::Policy) -> Self {
        Self {
            name: name.into(),
            fair: true,
            budget: None,
            play: Play::Plain(policy),
        }
    }

    /// A search player; its budget is its simulations.
    pub fn search(searcher: Searcher<S::Policy>) -> Self {
        Self {
            name: searcher.name.clone(),
            fair: true,
            budget: Some(searcher.settings.simulations),
            play: Play::Search(searcher),
        }
    }

    /// The full-knowledge ceiling as one of the game's own policies (one that sees the cards,
    /// e.g. Scoundrel's `clairvoyant`): NOT a strategy.
    pub fn ceiling_plain(name: &str, policy: S::Policy) -> Self {
        Self {
            fair: false,
            ..Self::plain(name, policy)
        }
    }

    /// The full-knowledge ceiling: NOT a strategy.
    pub fn ceiling(name: &str, make: MakePlayer<'a, S>) -> Self {
        Self {
            name: name.into(),
            fair: false,
            budget: None,
            play: Play::Other(make),
        }
    }

    /// What the profile needs to know of it.
    pub fn info(&self) -> RungInfo {
        RungInfo {
            name: self.name.clone(),
            fair: self.fair,
            budget: self.budget,
        }
    }
}

/// A search player of `algorithm` at each of `budgets`, under a game's `defaults`, each named
/// as on the command line (`pimc-200`) and finishing its simulated games with `rollout`.
pub fn searchers<'a, S: GameState>(
    defaults: &Defaults,
    algorithm: Algorithm,
    rollout: &S::Policy,
    budgets: &[u32],
) -> Vec<Rung<'a, S>>
where
    S::Policy: Clone,
{
    budgets
        .iter()
        .map(|&b| {
            let mut settings = defaults.settings(algorithm);
            settings.simulations = b;
            Rung::search(Searcher {
                name: format!("{}-{b}", algorithm.name()),
                settings,
                rollout: rollout.clone(),
            })
        })
        .collect()
}

/// A ladder's fair rungs: the game's plain policies `names`, weakest first, then its search
/// player of `algorithm` at each of `budgets` under its `defaults`, finishing its simulated games
/// with the defaults' rollout policy; `parse` reads a policy's name as the game does.
pub fn climb<'a, S: GameState>(
    names: &[&str],
    parse: impl Fn(&str) -> Result<S::Policy>,
    defaults: &Defaults,
    algorithm: Algorithm,
    budgets: &[u32],
) -> Result<Vec<Rung<'a, S>>>
where
    S::Policy: Clone,
{
    let mut rungs = names
        .iter()
        .map(|&name| Ok(Rung::plain(name, parse(name)?)))
        .collect::<Result<Vec<_>>>()?;
    let rollout = parse(defaults.rollout)?;
    rungs.extend(searchers(defaults, algorithm, &rollout, budgets));
    Ok(rungs)
}

/// A rung as the profile knows it (and a shard's manifest records it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RungInfo {
    /// Its name.
    pub name: String,
    /// False for the ceiling.
    pub fair: bool,
    /// A search player's budget.
    pub budget: Option<u32>,
}

/// The budgets `--budgets` names: a list (`25,50,100`) or a doubling range (`25..1600`: 25, 50,
/// ..., 1600), increasing, each from 1 to the most a search may take.
pub fn parse_budgets(text: &str) -> Result<Vec<u32>> {
    let bad = |why: String| SimError::input(format!("--budgets {text}: {why}"));
    let number = |s: &str| {
        s.trim()
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=MAX_SIMULATIONS).contains(n))
            .ok_or_else(|| {
                bad(format!(
                    "{} is not a budget: give whole numbers from 1 to {MAX_SIMULATIONS}",
                    s.trim()
                ))
            })
    };
    let budgets = match text.split_once("..") {
        Some((a, b)) => {
            let (a, b) = (number(a)?, number(b)?);
            if b < a {
                return Err(bad("an empty range: write low..high".into()));
            }
            let mut list = vec![a];
            while let Some(&last) = list.last().filter(|&&l| l < b) {
                list.push(last * 2);
            }
            if list.last() != Some(&b) {
                return Err(bad(format!(
                    "doubling from {a} does not reach {b}: give A..B with B equal to A times a power of two (e.g. {a}..{})",
                    list[list.len().saturating_sub(2)].max(a)
                )));
            }
            list
        }
        None => text.split(',').map(number).collect::<Result<Vec<u32>>>()?,
    };
    if budgets.windows(2).any(|w| w[1] <= w[0]) {
        return Err(bad("list the budgets in increasing order".into()));
    }
    Ok(budgets)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_from_lists_and_doubling_ranges() {
        assert_eq!(
            parse_budgets("25..1600").unwrap(),
            vec![25, 50, 100, 200, 400, 800, 1600]
        );
        assert_eq!(parse_budgets("7..7").unwrap(), vec![7]);
        assert_eq!(parse_budgets("19, 38,75").unwrap(), vec![19, 38, 75]);
        for bad in [
            "", "0", "10,5", "5,5", "25..1000", "100..25", "a..b", "1,x", "20000000",
        ] {
            let e = parse_budgets(bad).unwrap_err().to_string();
            assert!(e.starts_with(&format!("--budgets {bad}:")), "{bad}: {e}");
        }
    }
}
