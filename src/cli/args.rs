//! Arguments shared by the commands that play games.

use std::path::PathBuf;

use clap::Args;

use super::count::parse_count;

/// The default seed: a rerun without `--seed` reproduces the same games.
pub const DEFAULT_SEED: u64 = 1;

/// How to play a run: rules, policy, how many games, where to write.
#[derive(Args, Clone, Debug)]
pub struct RunArgs {
    /// Policy: a name (see `sim list`) or a strategy file path (e.g. strategies/crownfall/cautious.toml)
    #[arg(long, short)]
    pub policy: Option<String>,
    /// Games to play: 1000, 250K, 10M, 1e6, 1B
    #[arg(long, short, default_value = "1M", value_parser = parse_count)]
    pub games: u64,
    /// Seed: game i of seed s always gets the same cards, whatever the threads
    #[arg(long, short, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Index of the first game (to split a run into shards that merge)
    #[arg(long, default_value_t = 0)]
    pub first_game: u64,
    /// Worker threads (default: one per core)
    #[arg(long, short)]
    pub threads: Option<usize>,
    /// A TOML file of rule changes over the defaults (see `sim list`)
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// Change one rule: --set guard_zone=3 --set guard_damage.king=2
    #[arg(long = "set", value_name = "PATH=VALUE")]
    pub set: Vec<String>,
    /// Output folder (default: results/<game>/<policy>)
    #[arg(long, short)]
    pub out: Option<PathBuf>,
    /// Also write games.parquet: one row per game, streamed in batches
    #[arg(long)]
    pub per_game: bool,
}
