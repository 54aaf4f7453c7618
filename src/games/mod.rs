//! The games, the trait every game implements, and the registry every command and test reads
//! ([`registry`]).

pub mod crownfall;
pub mod invariants;
pub mod junkyard;
pub mod observe;
pub mod on_state;
pub mod regicide;
pub mod registry;
pub mod scoundrel;
pub mod seats;
pub mod solvable;
pub mod state;
pub mod twin;
pub mod value;

use std::ops::Range;

use crate::error::{Result, SimError};
use crate::rules::RuleSet;
use crate::stats::histogram::Histogram;

use seats::{Seating, Table};

/// Games per chunk for fast games: the unit of parallel work and of stopping in the runner
/// (`sim::runner`). A slow policy asks for smaller chunks ([`Game::games_per_chunk`]) so that a
/// short run still spreads over every thread; results do not depend on the chunk size.
pub const CHUNK: u64 = 16_384;

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

/// The columns of a batch of outcomes, built one named column at a time:
/// `Columns::of(batch).bool("win", |o| o.win).u32("turns", |o| o.turns.into()).done()`.
pub struct Columns<'a, O> {
    batch: &'a [O],
    columns: Vec<(&'static str, ColumnData)>,
}

impl<'a, O> Columns<'a, O> {
    /// No columns yet, over `batch`.
    pub fn of(batch: &'a [O]) -> Self {
        Self {
            batch,
            columns: Vec::new(),
        }
    }

    fn with(mut self, name: &'static str, column: ColumnData) -> Self {
        self.columns.push((name, column));
        self
    }

    /// A boolean column.
    pub fn bool(self, name: &'static str, f: impl Fn(&O) -> bool) -> Self {
        let column = ColumnData::Bool(self.batch.iter().map(f).collect());
        self.with(name, column)
    }

    /// An unsigned integer column.
    pub fn u32(self, name: &'static str, f: impl Fn(&O) -> u32) -> Self {
        let column = ColumnData::U32(self.batch.iter().map(f).collect());
        self.with(name, column)
    }

    /// A signed integer column.
    pub fn i32(self, name: &'static str, f: impl Fn(&O) -> i32) -> Self {
        let column = ColumnData::I32(self.batch.iter().map(f).collect());
        self.with(name, column)
    }

    /// A column of short labels.
    pub fn str(self, name: &'static str, f: impl Fn(&O) -> &'static str) -> Self {
        let column = ColumnData::Str(self.batch.iter().map(f).collect());
        self.with(name, column)
    }

    /// The columns, in the order they were added.
    pub fn done(self) -> Vec<(&'static str, ColumnData)> {
        self.columns
    }
}

/// A per-game outcome that can be written as rows of `games.parquet`.
pub trait Record: Copy + Send + Sync {
    /// True if the game was won (compare pairs policies game by game on this): for a team, the
    /// table's win; for a duel, a win of the policy seated first in the [`Seating`], whichever
    /// seat it played this game from.
    fn won(&self) -> bool;
    /// The named columns of a batch of outcomes.
    fn columns(batch: &[Self]) -> Vec<(&'static str, ColumnData)>;
}

/// Integer tallies of many games' outcomes; merging is associative and commutative. A tally
/// serializes (a shard's `shard.json` carries it) so that `sim merge` adds shards up exactly.
pub trait Tally: Clone + Send + Sized + serde::Serialize + serde::de::DeserializeOwned {
    /// The outcome of one game.
    type Outcome;
    /// Counts one game.
    fn record(&mut self, outcome: &Self::Outcome);
    /// Adds another tally of the same run (a run's own tallies, which cannot overflow a count).
    fn merge(&mut self, other: Self) {
        if let Err(e) = self.try_merge(&other) {
            panic!("a run's own tallies add up: {e}");
        }
    }
    /// Adds another tally, refusing a count that would pass `u64::MAX` (or a histogram over
    /// another range) with what overflowed: what adds up tallies read from files.
    fn try_merge(&mut self, other: &Self) -> invariants::Check;
    /// Games counted.
    fn games(&self) -> u64;
    /// Games won.
    fn wins(&self) -> u64;
    /// Games drawn (neither side won; 0 for games that cannot draw).
    fn draws(&self) -> u64 {
        0
    }
    /// The game's main means, as (column name, value), e.g. `("mean_final_hp", 4.2)`.
    fn means(&self) -> Vec<(&'static str, f64)>;
    /// Distributions of per-game metrics, as (metric name, histogram).
    fn distributions(&self) -> Vec<(&'static str, &Histogram)>;
    /// True if each histogram of `other` counts the same range of values as this tally's (so the
    /// two tallies merge): a tally read from a file is checked with it.
    fn counts_like(&self, other: &Self) -> bool {
        let (a, b) = (self.distributions(), other.distributions());
        a.len() == b.len()
            && a.iter()
                .zip(&b)
                .all(|((n, x), (m, y))| n == m && x.same_range(y))
    }
    /// Checks every invariant a tally of real games has (see [`invariants`]): wins and draws at
    /// most the games, each per-game histogram counting every game, parts adding up to the
    /// whole. The error names the one broken.
    fn check(&self) -> invariants::Check;
}

/// The error for a `--policy` value `spec` that game `G` does not know, the one every game
/// gives: `why` says what was wrong if it names a family (empty otherwise), then every policy `G`
/// lists (its plain policies and its search players) is named.
pub fn unknown_policy_of<G: Game>(spec: &str, why: &str) -> SimError {
    let known: Vec<&str> = G::policies().iter().map(|p| p.name).collect();
    let why = if why.is_empty() {
        String::new()
    } else {
        format!(" ({why})")
    };
    SimError::input(format!(
        "unknown policy {spec} for {}{why}: known policies are {}",
        G::NAME,
        known.join(", ")
    ))
}

/// Help text for one policy, or a family of policies such as `bank-at-N`.
#[derive(Clone, Debug)]
pub struct PolicyHelp {
    /// What to pass to `--policy`.
    pub name: &'static str,
    /// What it does.
    pub about: &'static str,
}

/// A game set up with its rules and a policy in each seat, ready to play any game index.
pub trait Game: Sync + Sized {
    /// The command-line name.
    const NAME: &'static str;
    /// One line on what the game is.
    const ABOUT: &'static str;
    /// How the seats relate.
    const TABLE: Table = Table::Solo;
    /// The rule parameters.
    type Rules: RuleSet;
    /// What one game reports.
    type Outcome: Record;
    /// Tallies of many games.
    type Tally: Tally<Outcome = Self::Outcome>;

    /// The seats at the table under `rules`.
    fn seats(_rules: &Self::Rules) -> usize {
        1
    }
    /// Sets up `rules` with the policy of each seat of `seating` (a name or a strategy file
    /// path; one per seat of [`Game::seats`], which the caller checks).
    fn new(rules: Self::Rules, seating: &Seating) -> Result<Self>;
    /// Sets up `rules` with `policy` in every seat.
    fn with_policy(rules: Self::Rules, policy: &str) -> Result<Self> {
        let seats = Self::seats(&rules);
        Self::new(rules, &Seating::uniform(policy, seats))
    }
    /// The policies this game knows.
    fn policies() -> Vec<PolicyHelp>;
    /// The seating's display name (see [`Seating::label`]): folder names and the summary's
    /// `policy` column.
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
    /// Games per unit of parallel work: a slow policy (a search) plays fewer, so that a short
    /// run still spreads over every thread. Results do not depend on it.
    fn games_per_chunk(&self) -> u64 {
        CHUNK
    }
}
