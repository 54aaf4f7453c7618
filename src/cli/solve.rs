//! `sim solve <game>`: the best policy under fresh odds, its chart, strategy file and Parquet.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;

use crate::error::{Result, SimError};
use crate::games::Game;
use crate::games::crownfall::solver::{self, chart, export};
use crate::games::crownfall::{Crownfall, PolicyKind, Rules};
use crate::report::files::{AtomicFile, ensure_writable_dir};
use crate::report::parquet::write_frame;
use crate::report::terminal::percent;
use crate::rules;

/// What to solve and where to write it.
#[derive(Args, Clone, Debug)]
pub struct SolveArgs {
    /// The game (crownfall)
    pub game: String,
    /// A TOML file of rule changes over the defaults (see `sim list`)
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// Change one rule: --set guard_zone=3
    #[arg(long = "set", value_name = "PATH=VALUE")]
    pub set: Vec<String>,
    /// Write the full plan as a strategy file, usable with --policy
    #[arg(long, value_name = "FILE.toml")]
    pub out: Option<PathBuf>,
    /// Write the chart (every state's moves and win probability) as Parquet
    #[arg(long, value_name = "FILE.parquet")]
    pub chart: Option<PathBuf>,
    /// Also print the fresh-odds win probability of this policy (repeatable; a policy that does
    /// not look at the player deck)
    #[arg(long, value_name = "POLICY")]
    pub evaluate: Vec<String>,
}

/// Proves the folder of `file` writable before any work.
fn check_writable(file: &Path) -> Result<()> {
    let dir = file.parent().filter(|d| !d.as_os_str().is_empty());
    ensure_writable_dir(dir.unwrap_or(Path::new(".")))
}

/// Solves, prints the chart and the optimal win probability, and writes the files asked for.
pub fn execute(args: &SolveArgs) -> Result<ExitCode> {
    if args.game != Crownfall::NAME {
        return Err(SimError::input(format!(
            "sim solve knows {} only, not {}",
            Crownfall::NAME,
            args.game
        )));
    }
    let rules: Rules = rules::load(args.rules.as_deref(), &args.set)?;
    for path in [&args.out, &args.chart].into_iter().flatten() {
        check_writable(path)?;
    }
    let mut evaluated = Vec::new();
    for spec in &args.evaluate {
        let (policy, name) = PolicyKind::parse(spec, &rules)?;
        evaluated.push((name, policy.to_plan(&rules)?));
    }
    let started = Instant::now();
    let solution = solver::solve(&rules)?;
    let elapsed = started.elapsed().as_secs_f64();
    super::output::text(&chart::text(&solution));
    outln!(
        "optimal win probability under fresh odds (deck = \"infinite\"): {}  ({:.6})",
        percent(solution.win),
        solution.win
    );
    outln!(
        "solved {} states in {:.3} s",
        solution.space().states(),
        elapsed
    );
    for (name, plan) in &evaluated {
        let win = solver::evaluate(&rules, plan)?;
        outln!(
            "{name}: {} under fresh odds ({:+.2} points against optimal)",
            percent(win),
            100.0 * (win - solution.win)
        );
    }
    if let Some(path) = &args.out {
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "optimal".into());
        let mut file = AtomicFile::create(path)?;
        file.file()
            .write_all(export::strategy_toml(&solution, &name).as_bytes())
            .map_err(|source| SimError::Io {
                action: "cannot write",
                path: path.clone(),
                source,
            })?;
        outln!("  wrote {}", file.commit()?.display());
    }
    if let Some(path) = &args.chart {
        let written = write_frame(path, &mut chart::frame(&solution)?)?;
        outln!("  wrote {}", written.display());
    }
    Ok(ExitCode::SUCCESS)
}
