//! `sim play GAME`: a person plays a dealt game in the terminal, with a policy's advice; or steps
//! through a recorded game.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::error::{Result, SimError};
use crate::trace::Traceable;
use crate::trace::play::{self, Terminal};

use super::args::{DEFAULT_SEED, SeatArgs};
use super::outputs::{Paths, Shape};
use super::run::{rules_of, seating};

/// `sim play`: a game at the terminal.
#[derive(Args, Clone, Debug)]
pub struct PlayCmdArgs {
    /// The game (see `sim list`)
    pub game: String,
    /// Seed: with --game, which deal (the deal of that game of a run with this seed)
    #[arg(long, short, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// The deal's index in the run
    #[arg(long = "game", short = 'g', value_name = "INDEX", default_value_t = 0)]
    pub index: u64,
    /// Show this policy's choice at each decision, and each choice's value where it has one
    #[arg(long, value_name = "POLICY")]
    pub hints: Option<String>,
    /// Write the finished game to FILE as JSON lines (as `sim trace --json` writes them)
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Step through a recorded game (JSON lines of `--record` or `sim trace --json`)
    #[arg(long, value_name = "FILE", conflicts_with_all = ["hints", "record", "rules", "set", "vs", "seat"])]
    pub replay: Option<PathBuf>,
    /// A TOML file of rule changes over the defaults (see `sim list`)
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// Change one rule: --set start_hp=15
    #[arg(long = "set", value_name = "PATH=VALUE")]
    pub set: Vec<String>,
    /// Players at the table, for games of several players (regicide: 1 to 4); the same as
    /// --set players=N
    #[arg(long, value_name = "N", conflicts_with = "replay")]
    pub players: Option<u8>,
    /// The other seats' policies (the person sits in seat 0; by default the others play the
    /// --hints policy, or the game's default)
    #[command(flatten)]
    pub seats: SeatArgs,
}

/// Plays (or replays) the game `args` names at the terminal.
pub fn execute<G: Traceable>(args: &PlayCmdArgs, default_policy: &str) -> Result<ExitCode> {
    let mut desk = Terminal::new(std::io::stdin().lock(), std::io::stdout().lock());
    if let Some(path) = &args.replay {
        let text = std::fs::read_to_string(path).map_err(|source| SimError::Io {
            action: "cannot read",
            path: path.clone(),
            source,
        })?;
        let what = path.display().to_string();
        play::replay::<G>(
            &text,
            &what,
            |r| G::with_policy(r, default_policy),
            &mut desk,
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(record) = &args.record {
        let mut paths = Paths::new().output("--record", record, Shape::File);
        if let Some(rules) = &args.rules {
            paths = paths.input("--rules", rules);
        }
        paths
            .policies("--hints", args.hints.as_deref())
            .seats(&args.seats)
            .check()?;
    }
    let rules = rules_of::<G>(args.rules.as_deref(), args.players, &args.set, &[])?;
    let policy = args.hints.as_deref().unwrap_or(default_policy);
    let mut seating = seating::<G>(&rules, policy, &args.seats)?;
    // Whatever policy it names: the person plays seat 0.
    if let Some(spec) = args.seats.seat.iter().find(|s| {
        s.split_once('=')
            .is_some_and(|(k, _)| k.trim().parse() == Ok(0u32))
    }) {
        return Err(SimError::input(format!(
            "--seat {spec}: seat 0 is the person's in sim play; --hints names the policy that advises it"
        )));
    }
    // The person keeps seat 0 in every game: no swapped games.
    seating.swap = false;
    let game = G::new(rules, &seating)?;
    game.check_playable()?;
    play::play(
        &game,
        args.seed,
        args.index,
        args.hints.is_some(),
        args.record.as_deref(),
        &mut desk,
    )?;
    Ok(ExitCode::SUCCESS)
}
