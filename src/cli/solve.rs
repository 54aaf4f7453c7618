//! `sim solve <game>`: the best policy under fresh odds, its chart, strategy file and Parquet.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use serde_json::{Value, json};

use crate::error::{Result, SimError};
use crate::games::solvable::Solvable;
use crate::report::files::{AtomicFile, ensure_writable_dir, write_text};
use crate::report::html::kinds::solve as solve_kind;
use crate::report::html::{self, GameFacts};
use crate::report::json;
use crate::report::parquet::write_frame_uncommitted;
use crate::report::terminal::percent;
use crate::rules::{self, RuleSet};

use super::format::ReportArgs;

/// What to solve and where to write it.
#[derive(Args, Clone, Debug)]
pub struct SolveArgs {
    /// The game (one with a solver: crownfall)
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
    /// Write the chart (every state's moves and win probability) as Parquet (with --report and
    /// no --chart: results/crownfall/solve/chart.parquet)
    #[arg(long, value_name = "FILE.parquet")]
    pub chart: Option<PathBuf>,
    /// Also print the fresh-odds win probability of this policy (repeatable; a policy that does
    /// not look at the player deck)
    #[arg(long, value_name = "POLICY")]
    pub evaluate: Vec<String>,
    /// How the report is printed: --format, --quiet.
    #[command(flatten)]
    pub report: ReportArgs,
}

/// Proves the folder of `file` (given to `flag`) writable before any work.
fn check_writable(flag: &str, file: &Path) -> Result<()> {
    if file.is_dir() {
        return Err(SimError::input(format!(
            "{flag} {}: that is a folder; give a file name",
            file.display()
        )));
    }
    let dir = file.parent().filter(|d| !d.as_os_str().is_empty());
    let dir = dir.unwrap_or(Path::new("."));
    if dir.exists() && !dir.is_dir() {
        return Err(SimError::input(format!(
            "cannot write to {flag} {}: {} is a file, not a folder",
            file.display(),
            dir.display()
        )));
    }
    ensure_writable_dir(dir).map_err(|e| match e {
        SimError::Io { path, source, .. } => SimError::input(format!(
            "cannot write to {flag} {}: {}: {source}",
            file.display(),
            path.display()
        )),
        other => other,
    })
}

/// Refuses `--out` and `--chart` naming one file: the chart would overwrite the strategy file.
fn check_distinct(out: Option<&Path>, chart: Option<&Path>) -> Result<()> {
    let (Some(out), Some(chart)) = (out, chart) else {
        return Ok(());
    };
    let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    if absolute(out) == absolute(chart) {
        return Err(SimError::input(format!(
            "--out {} and --chart {} name the same file: the chart would overwrite the strategy file; give each its own",
            out.display(),
            chart.display()
        )));
    }
    Ok(())
}

/// Solves, prints the chart and the optimal win probability, and writes the files asked for.
pub fn execute<S: Solvable>(args: &SolveArgs) -> Result<ExitCode> {
    let rules: S::Rules = rules::load(args.rules.as_deref(), &args.set)?;
    let chart_path = chart_path::<S>(args);
    check_distinct(args.out.as_deref(), chart_path.as_deref())?;
    for (flag, path) in [("--out", &args.out), ("--chart", &chart_path)] {
        if let Some(path) = path {
            check_writable(flag, path)?;
        }
    }
    let mut evaluated = Vec::new();
    for spec in &args.evaluate {
        evaluated.push(S::plan(spec, &rules)?);
    }
    let started = Instant::now();
    let solution = S::solve(&rules)?;
    let elapsed = started.elapsed().as_secs_f64();
    let evaluated = evaluated
        .into_iter()
        .map(|(name, plan)| Ok((name, S::evaluate(&rules, &plan)?)))
        .collect::<Result<Vec<_>>>()?;
    // Both files are written under temporary names first, and named only once both are.
    let mut files = Vec::new();
    if let Some(path) = &args.out {
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "optimal".into());
        let mut file = AtomicFile::create(path)?;
        file.write_text(&S::strategy_file(&solution, &name))?;
        files.push(file);
    }
    if let Some(path) = &chart_path {
        files.push(write_frame_uncommitted(path, &mut S::chart(&solution)?)?);
    }
    let mut written = files
        .into_iter()
        .map(AtomicFile::commit)
        .collect::<Result<Vec<_>>>()?;
    let states = S::states(&solution);
    let win = S::win(&solution);
    let document = |written: &[PathBuf]| {
        let evaluated: Vec<Value> = evaluated
            .iter()
            .map(|(name, win)| {
                json!({ "policy": name, "win_probability": win, "diff": win - S::win(&solution) })
            })
            .collect();
        json!({
            "game": S::NAME,
            "rules": serde_json::from_str::<Value>(&rules.to_json()).unwrap_or(Value::Null),
            "win_probability": win,
            "states": states,
            "seconds": elapsed,
            "evaluated": evaluated,
            "files": json::files(written),
        })
    };
    if args.report.html
        && let Some(chart) = &chart_path
    {
        written.extend(write_report::<S>(chart, document(&written))?);
    }
    args.report.print(
        || {
            let mut s = S::chart_text(&solution);
            s.push_str(&format!(
                "optimal win probability under {}: {}  ({:.6})\n",
                S::ODDS,
                percent(win),
                win
            ));
            s.push_str(&format!("solved {states} states in {elapsed:.3} s\n"));
            for (name, evaluated_win) in &evaluated {
                s.push_str(&format!(
                    "{name}: {} under fresh odds ({:+.2} points against optimal)\n",
                    percent(*evaluated_win),
                    100.0 * (evaluated_win - win)
                ));
            }
            for path in &written {
                s.push_str(&format!("  wrote {}\n", path.display()));
            }
            s
        },
        || document(&written),
    );
    Ok(ExitCode::SUCCESS)
}

/// Where the chart goes: `--chart`, or with `--report` and no `--chart`, the default folder's
/// `chart.parquet` (the report is made from it).
fn chart_path<S: Solvable>(args: &SolveArgs) -> Option<PathBuf> {
    args.chart.clone().or_else(|| {
        args.report.html.then(|| {
            Path::new("results")
                .join(S::NAME)
                .join("solve")
                .join(solve_kind::CHART)
        })
    })
}

/// `--report`: writes the JSON report `document` as `solve.json` beside the chart at `chart`
/// (with the chart's file name and the sim version, what the report reads), then
/// `report.html` from them; returns both paths.
fn write_report<S: Solvable>(chart: &Path, mut document: Value) -> Result<Vec<PathBuf>> {
    let dir = chart
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = chart
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    document["chart"] = json!(name);
    document["version"] = json!(env!("CARGO_PKG_VERSION"));
    let record = write_text(&dir.join(solve_kind::RECORD), &format!("{document}\n"))?;
    let html = html::write_beside(dir, &[GameFacts::of::<S>()], None)?;
    Ok(vec![record, html])
}
