//! `sim solve <game>`: the best policy under fresh odds, its chart, strategy file and Parquet:
//! the plan and the report in one results folder (`--out`), the chart also as a file of its own
//! (`--chart`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use serde_json::{Value, json};

use crate::error::Result;
use crate::files::write_text;
use crate::games::solvable::Solvable;
use crate::report::html::kinds::solve as solve_kind;
use crate::report::html::{self, GameFacts};
use crate::report::json;
use crate::report::terminal::percent;
use crate::results::parquet::{write_frame, write_frame_uncommitted};
use crate::results::result_set::ResultSet;
use crate::rules::{self, RuleSet};

use super::format::ReportArgs;
use super::outputs::{Paths, Shape};

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
    /// Output folder: the full plan as strategy.toml (usable with --policy DIR/strategy.toml,
    /// named after the folder), and with --report the chart, solve.json and report.html
    /// [default with --report and no --chart: results/crownfall/solve]
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Also write the chart (every state's moves and win probability) as Parquet to this file;
    /// with --report and no --out, the report goes beside it
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

/// The plan's file in solve's folder.
pub const STRATEGY: &str = "strategy.toml";

/// Where solve writes: its folder (`--out`, or with `--report` and no `--chart` the default
/// one), the `--chart` file, and whether the report goes beside that file.
struct Places {
    folder: Option<PathBuf>,
    chart: Option<PathBuf>,
    report_beside_chart: bool,
}

impl Places {
    fn of<S: Solvable>(args: &SolveArgs) -> Self {
        let folder = args.out.clone().or_else(|| {
            (args.report.html && args.chart.is_none())
                .then(|| Path::new("results").join(S::NAME).join("solve"))
        });
        Self {
            report_beside_chart: args.report.html && folder.is_none(),
            folder,
            chart: args.chart.clone(),
        }
    }

    /// Every output and input of the command, checked before it solves.
    fn check(&self, args: &SolveArgs) -> Result<()> {
        let mut paths = Paths::new();
        if let Some(folder) = &self.folder {
            let flag = if args.out.is_some() {
                "--out"
            } else {
                "--report"
            };
            paths = paths.output(flag, folder, Shape::Folder);
        }
        if let Some(chart) = &self.chart {
            paths = paths.output("--chart", chart, Shape::File);
            if self.report_beside_chart {
                let dir = parent_of(chart);
                for name in [solve_kind::RECORD, html::FILE] {
                    paths = paths.output("--report", &dir.join(name), Shape::File);
                }
            }
        }
        if let Some(rules) = &args.rules {
            paths = paths.input("--rules", rules);
        }
        paths
            .policies("--evaluate", args.evaluate.iter().map(String::as_str))
            .check()
    }
}

/// The folder of `file` (`.` for a bare name).
fn parent_of(file: &Path) -> &Path {
    file.parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// Solves, prints the chart and the optimal win probability, and writes the files asked for.
pub fn execute<S: Solvable>(args: &SolveArgs) -> Result<ExitCode> {
    let rules: S::Rules = rules::load(args.rules.as_deref(), &args.set)?;
    let places = Places::of::<S>(args);
    places.check(args)?;
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
    let states = S::states(&solution);
    let win = S::win(&solution);
    let document = |written: &[PathBuf]| {
        let evaluated: Vec<Value> = evaluated
            .iter()
            .map(|(name, p)| json!({ "policy": name, "win_probability": p, "diff": p - win }))
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
    // Every file is written under a temporary name (the folder's in a staging folder) first, and
    // named only once all are.
    let chart_file = match &places.chart {
        Some(path) => Some(write_frame_uncommitted(path, &mut S::chart(&solution)?)?),
        None => None,
    };
    let mut written = Vec::new();
    let set = match &places.folder {
        Some(folder) => {
            let set = ResultSet::create(folder)?;
            let name = folder
                .file_name()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "optimal".into());
            let mut staged = vec![write_text(
                &set.dir().join(STRATEGY),
                &S::strategy_file(&solution, &name),
            )?];
            if args.report.html {
                let chart = set.dir().join(solve_kind::CHART);
                staged.push(write_frame(&chart, &mut S::chart(&solution)?)?);
                let files: Vec<PathBuf> = [STRATEGY, solve_kind::CHART]
                    .iter()
                    .map(|n| folder.join(n))
                    .chain(places.chart.clone())
                    .collect();
                staged.extend(write_report::<S>(&chart, document(&files))?);
            }
            Some((set, staged))
        }
        None => None,
    };
    if let Some((set, staged)) = set {
        written.extend(set.commit(&staged)?);
    }
    if let Some(file) = chart_file {
        let chart = file.commit()?;
        if places.report_beside_chart {
            let report = write_report::<S>(&chart, document(std::slice::from_ref(&chart)))?;
            written.push(chart);
            written.extend(report);
        } else {
            written.push(chart);
        }
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
            for (name, p) in &evaluated {
                s.push_str(&format!(
                    "{name}: {} under fresh odds ({:+.2} points against optimal)\n",
                    percent(*p),
                    100.0 * (p - win)
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

/// `--report`: writes the JSON report `document` as `solve.json` beside the chart at `chart`
/// (with the chart's file name and the sim version, what the report reads), then
/// `report.html` from them; returns both paths.
fn write_report<S: Solvable>(chart: &Path, mut document: Value) -> Result<Vec<PathBuf>> {
    let dir = parent_of(chart);
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
