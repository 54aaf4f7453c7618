//! Arguments of the commands that play games.

use std::ops::Range;
use std::path::PathBuf;

use clap::Args;

use crate::error::{Result, SimError};
use crate::sim::shard::Shard;

use super::count::parse_count;
use super::format::ReportArgs;

/// The default seed: a rerun without `--seed` reproduces the same games.
pub const DEFAULT_SEED: u64 = 1;
/// Games per run (or per cell) without `--games`.
pub const DEFAULT_GAMES: u64 = 1_000_000;
/// The most games per cell with `--precision` and no `--games`.
pub const DEFAULT_PRECISION_CAP: u64 = 100_000_000;

/// What every command that plays games takes: how many, which deals, rules, threads, output.
#[derive(Args, Clone, Debug)]
pub struct PlayArgs {
    /// Games to play (per policy or cell): 1000, 250K, 10M, 1e6, 1B [default: 1M; with
    /// --precision, the most per cell, default 100M]
    #[arg(long, short, value_parser = parse_count)]
    pub games: Option<u64>,
    /// Seed: game i of seed s always gets the same cards, whatever the threads or policy
    #[arg(long, short, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Index of the first game (to split a run into shards that merge)
    #[arg(long, default_value_t = 0)]
    pub first_game: u64,
    /// Play only shard I of N of the run (from 0): its I-th contiguous range of game indices,
    /// with a shard.json that `sim merge` checks and adds up exactly (see docs/scale-out.md)
    #[arg(long, value_name = "I/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// Worker threads (default: one per core)
    #[arg(long, short)]
    pub threads: Option<usize>,
    /// A TOML file of rule changes over the defaults (see `sim list`)
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// Change one rule: --set guard_zone=3 --set guard_damage.king=2
    #[arg(long = "set", value_name = "PATH=VALUE")]
    pub set: Vec<String>,
    /// Players at the table, for games of several players (regicide: 1 to 4); the same as
    /// --set players=N
    #[arg(long, value_name = "N")]
    pub players: Option<u8>,
    /// Output folder (default: results/GAME/POLICY, or results/GAME/compare and .../sweep); an
    /// earlier run's files there are replaced, only once every new file is written
    #[arg(long, short)]
    pub out: Option<PathBuf>,
    /// Go on with a run that Ctrl-C or SIGTERM stopped, in its folder: the same command plays the
    /// rest and writes what an uninterrupted run would have (see docs/output-files.md)
    #[arg(long, value_name = "DIR")]
    pub resume: Option<PathBuf>,
    /// How the report is printed: --format, --quiet.
    #[command(flatten)]
    pub report: ReportArgs,
}

impl PlayArgs {
    /// The games to play, `default` without `--games`, checked against the thread count and the
    /// last game index.
    pub fn games(&self, default: u64) -> Result<u64> {
        if self.threads == Some(0) {
            return Err(SimError::input("--threads must be at least 1"));
        }
        let games = self.games.unwrap_or(default);
        if self.first_game.checked_add(games).is_none() {
            return Err(SimError::input(
                "--first-game plus --games passes the last game index (2^64 - 1)",
            ));
        }
        if let Some(shard) = self.shard
            && shard.count > games.max(1)
        {
            return Err(SimError::input(format!(
                "--shard {shard}: {} shards of {games} games would leave some empty; give at most {games}",
                shard.count
            )));
        }
        Ok(games)
    }

    /// The game indices this process plays of a run of `games` games: all of them, or the
    /// range of `--shard`.
    pub fn span(&self, games: u64) -> Range<u64> {
        match self.shard {
            Some(shard) => shard.range(self.first_game, games),
            None => self.first_game..self.first_game + games,
        }
    }
}

/// Who sits where, at games of more than one seat.
#[derive(Args, Clone, Debug, Default)]
pub struct SeatArgs {
    /// The second player's policy in a two-player duel (default: the same as --policy); each deal
    /// is then played twice, the seats swapped
    #[arg(long, value_name = "POLICY")]
    pub vs: Option<String>,
    /// One seat's policy, seats numbered from 0 (seat 0 plays first): --seat 2=simple; repeat for
    /// more
    #[arg(long = "seat", value_name = "SEAT=POLICY")]
    pub seat: Vec<String>,
}

/// `sim <game>`: one policy.
#[derive(Args, Clone, Debug)]
pub struct RunArgs {
    /// Policy: a name (see `sim list`) or a strategy file path (e.g. strategies/crownfall/cautious.toml)
    #[arg(long, short)]
    pub policy: Option<String>,
    /// Seats with other policies.
    #[command(flatten)]
    pub seats: SeatArgs,
    /// Games, deals, rules, threads and output.
    #[command(flatten)]
    pub play: PlayArgs,
    /// Also write games.parquet: one row per game, streamed in batches (beyond 4,194,304 games,
    /// numbered files games-00000.parquet, ... of that many games each)
    #[arg(long)]
    pub per_game: bool,
}

/// What `sim compare` and `sim sweep` share: a game, several policies, the same deals for all.
#[derive(Args, Clone, Debug)]
pub struct GridArgs {
    /// The game (see `sim list`)
    pub game: String,
    /// A policy; repeat the flag for more. A range of numbered policies expands:
    /// bank-at-12..21 is bank-at-12, bank-at-13, ..., bank-at-21
    #[arg(long, short, required = true)]
    pub policy: Vec<String>,
    /// Play whole chunks until every cell's 95% win-rate interval has at most this half-width
    /// (e.g. 0.002 for +-0.2 points); --games is then the most per cell
    #[arg(long, value_name = "HALF_WIDTH")]
    pub precision: Option<f64>,
    /// Seats with other policies than each cell's.
    #[command(flatten)]
    pub seats: SeatArgs,
    /// Games, deals, rules, threads and output.
    #[command(flatten)]
    pub play: PlayArgs,
}

impl GridArgs {
    /// The most games per cell, and the precision target if any (checked).
    pub fn games(&self) -> Result<u64> {
        if let (Some(e), Some(shard)) = (self.precision, self.play.shard) {
            return Err(SimError::input(format!(
                "--precision {e} with --shard {shard}: a shard cannot know when the whole run has converged; give --games instead"
            )));
        }
        match self.precision {
            None => self.play.games(DEFAULT_GAMES),
            Some(e) if e > 0.0 && e < 0.5 => self.play.games(DEFAULT_PRECISION_CAP),
            Some(e) => Err(SimError::input(format!(
                "--precision {e}: give a half-width between 0 and 0.5, e.g. 0.002"
            ))),
        }
    }
}

/// `sim compare`: which policy wins, and by how much.
#[derive(Args, Clone, Debug)]
pub struct CompareArgs {
    /// The game, policies and games.
    #[command(flatten)]
    pub grid: GridArgs,
    /// The policy the others are measured against (default: the best); added if not in --policy
    #[arg(long, short)]
    pub baseline: Option<String>,
}

/// `sim sweep`: the same policies under a grid of rule variants.
#[derive(Args, Clone, Debug)]
pub struct SweepArgs {
    /// The game, policies and games.
    #[command(flatten)]
    pub grid: GridArgs,
    /// A rule to vary and its values: a list (start_hp=12,16,20), a range (guard_zone=0..3), a
    /// range with a step (start_hp=10..20:5); repeat for more, every combination is played
    #[arg(long, value_name = "PATH=VALUES", required = true)]
    pub vary: Vec<String>,
    /// The cell every other is measured against, deal by deal: a varied rule's value
    /// (start_hp=20); repeat for more rules; a rule not given takes its first --vary value
    #[arg(long, value_name = "PATH=VALUE")]
    pub base: Vec<String>,
}
