//! The games, the trait every game implements, and the registry the command line reads.

/// The [`Game`] items every game writes alike, for a game struct with the fields `rules`, `fresh`
/// (the game's `Engine` set up for the rules, which each game starts from), `policy` (its
/// `PolicyKind`) and `name`: `new`, `policies`, `policy_name` and `rules`. The calling module
/// must have `Rules`, `Engine::new(&Rules)`, `PolicyKind::parse(&str, &Rules)` and
/// `policy::help()` in scope.
macro_rules! common_game_items {
    () => {
        fn new(rules: Rules, policy: &str) -> $crate::error::Result<Self> {
            let (policy, name) = PolicyKind::parse(policy, &rules)?;
            Ok(Self {
                fresh: Engine::new(&rules),
                rules,
                policy,
                name,
            })
        }

        fn policies() -> Vec<$crate::games::PolicyHelp> {
            policy::help()
        }

        fn policy_name(&self) -> &str {
            &self.name
        }

        fn rules(&self) -> &Rules {
            &self.rules
        }
    };
}

pub mod crownfall;
pub mod observe;
pub mod scoundrel;

use std::ops::Range;

use crate::error::Result;
use crate::rules::RuleSet;
use crate::sim::histogram::Histogram;

/// One column of per-game results, independent of any dataframe library.
#[derive(Clone, Debug, PartialEq)]
pub enum ColumnData {
    /// Unsigned integers.
    U32(Vec<u32>),
    /// Signed integers (scores below zero).
    I32(Vec<i32>),
    /// Booleans.
    Bool(Vec<bool>),
    /// Short labels.
    Str(Vec<&'static str>),
}

/// A per-game outcome that can be written as rows of `games.parquet`.
pub trait Record: Copy + Send + Sync {
    /// True if the game was won (compare pairs policies game by game on this).
    fn won(&self) -> bool;
    /// The named columns of a batch of outcomes.
    fn columns(batch: &[Self]) -> Vec<(&'static str, ColumnData)>;
}

/// Integer tallies of many games' outcomes; merging is associative and commutative.
pub trait Tally: Send + Sized {
    /// The outcome of one game.
    type Outcome;
    /// Counts one game.
    fn record(&mut self, outcome: &Self::Outcome);
    /// Adds another tally of the same run.
    fn merge(&mut self, other: Self);
    /// Games counted.
    fn games(&self) -> u64;
    /// Games won.
    fn wins(&self) -> u64;
    /// The game's main means, as (column name, value), e.g. `("mean_final_hp", 4.2)`.
    fn means(&self) -> Vec<(&'static str, f64)>;
    /// Distributions of per-game metrics, as (metric name, histogram).
    fn distributions(&self) -> Vec<(&'static str, &Histogram)>;
}

/// Help text for one policy, or a family of policies such as `bank-at-N`.
#[derive(Clone, Debug)]
pub struct PolicyHelp {
    /// What to pass to `--policy`.
    pub name: &'static str,
    /// What it does.
    pub about: &'static str,
}

/// A game set up with its rules and one policy, ready to play any game index.
pub trait Game: Sync + Sized {
    /// The command-line name.
    const NAME: &'static str;
    /// One line on what the game is.
    const ABOUT: &'static str;
    /// The rule parameters.
    type Rules: RuleSet;
    /// What one game reports.
    type Outcome: Record;
    /// Tallies of many games.
    type Tally: Tally<Outcome = Self::Outcome>;

    /// Sets up `rules` with the policy named by `policy` (a name or a strategy file path).
    fn new(rules: Self::Rules, policy: &str) -> Result<Self>;
    /// The policies this game knows.
    fn policies() -> Vec<PolicyHelp>;
    /// The policy's display name.
    fn policy_name(&self) -> &str;
    /// The rules in force.
    fn rules(&self) -> &Self::Rules;
    /// Plays game `index` of a run seeded with `seed`.
    fn play(&self, seed: u64, index: u64) -> Self::Outcome;
    /// Plays games `index` and `index + 1`: the same as two calls of [`Game::play`], faster where
    /// a game can interleave the two.
    fn play_pair(&self, seed: u64, index: u64) -> [Self::Outcome; 2] {
        [self.play(seed, index), self.play(seed, index + 1)]
    }
    /// Plays games `range` of a run seeded with `seed` in order (two at a time, see
    /// [`Game::play_pair`]), handing each index and outcome to `each`.
    fn play_range(&self, seed: u64, range: Range<u64>, mut each: impl FnMut(u64, Self::Outcome)) {
        let mut index = range.start;
        // Written so as not to overflow when the range ends at u64::MAX.
        while range.end - index >= 2 {
            let [a, b] = self.play_pair(seed, index);
            each(index, a);
            each(index + 1, b);
            index += 2;
        }
        if index < range.end {
            each(index, self.play(seed, index));
        }
    }
    /// An empty tally for this game's rules.
    fn new_tally(&self) -> Self::Tally;
}
