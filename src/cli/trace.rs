//! `sim trace GAME`: exactly one game of a run, every chance event and decision, in words or as
//! JSON lines.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::error::Result;
use crate::trace::{Traceable, json_lines, text_lines};

use super::args::{DEFAULT_SEED, SeatArgs};
use super::run::{rules_of, seat};

/// `sim trace`: one game of a run.
#[derive(Args, Clone, Debug)]
pub struct TraceArgs {
    /// The game (see `sim list`)
    pub game: String,
    /// Policy: a name (see `sim list`) or a strategy file path
    #[arg(long, short)]
    pub policy: Option<String>,
    /// The run's seed
    #[arg(long, short, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// The game's index in the run (game i of a run with --first-game 0)
    #[arg(long = "game", short = 'g', value_name = "INDEX", default_value_t = 0)]
    pub index: u64,
    /// JSON lines: a header, the deal, one line per event with the state after it, the outcome
    /// (see docs/trace.md)
    #[arg(long)]
    pub json: bool,
    /// A TOML file of rule changes over the defaults (see `sim list`)
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// Change one rule: --set guard_zone=3
    #[arg(long = "set", value_name = "PATH=VALUE")]
    pub set: Vec<String>,
    /// Players at the table, for games of several players (regicide: 1 to 4); the same as
    /// --set players=N
    #[arg(long, value_name = "N")]
    pub players: Option<u8>,
    /// Who sits where, as in a run (a duel of two policies swaps seats on odd games).
    #[command(flatten)]
    pub seats: SeatArgs,
}

/// Traces the game `args` names.
pub fn execute<G: Traceable>(args: &TraceArgs, default_policy: &str) -> Result<ExitCode> {
    let rules = rules_of::<G>(args.rules.as_deref(), args.players, &args.set, &[])?;
    let game: G = seat(
        rules,
        args.policy.as_deref().unwrap_or(default_policy),
        &args.seats,
    )?;
    let traced = game.trace(args.seed, args.index);
    if args.json {
        for line in json_lines(&game, game.policy_name(), args.seed, args.index, &traced) {
            outln!("{line}");
        }
    } else {
        outln!(
            "{} | policy {} | seed {} | game {}",
            G::NAME,
            game.policy_name(),
            args.seed,
            args.index
        );
        for line in text_lines(&game, &traced) {
            outln!("{line}");
        }
    }
    Ok(ExitCode::SUCCESS)
}
