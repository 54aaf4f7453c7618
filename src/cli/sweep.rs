//! `sim sweep <game>`: policies under every combination of varied rule values.

use std::process::ExitCode;

use crate::error::{Result, SimError};
use crate::games::Game;
use crate::report::tables;
use crate::report::terminal::percent;
use crate::results::manifest::Command;
use crate::results::summary::SummaryRow;

use super::args::{PlayArgs, SweepArgs};
use super::expand::{self, Vary};
use super::grid::{self, CellSpec, Session};
use super::run::{load_rules, out_path, rule_path};

/// Parses the `--vary` flags and checks every value on its own (under `play`'s rules), so that
/// a bad one is named before any game runs; a rule varied twice is refused.
pub fn varies<G: Game>(play: &PlayArgs, flags: &[String]) -> Result<Vec<Vary>> {
    let varies: Vec<Vary> = flags
        .iter()
        .map(|v| Vary::parse(v))
        .collect::<Result<_>>()?;
    let mut seen = Vec::new();
    for vary in &varies {
        if seen.contains(&&vary.path) {
            return Err(SimError::input(format!(
                "--vary {}: the rule is varied twice",
                vary.path
            )));
        }
        seen.push(&vary.path);
        if let Some(set) = play.set.iter().find(|s| rule_path(s) == vary.path) {
            return Err(SimError::input(format!(
                "--vary {}: the rule is also set by --set {set}; vary it or set it",
                vary.path
            )));
        }
        for (text, _) in &vary.values {
            load_rules::<G>(play, &[format!("{}={text}", vary.path)])
                .map_err(|e| SimError::input(format!("--vary {}={text}: {e}", vary.path)))?;
        }
    }
    Ok(varies)
}

/// The cells: every policy under every combination of the varied values.
fn specs(policies: &[String], varies: &[Vary]) -> Vec<CellSpec> {
    let combos = expand::combinations(varies);
    policies
        .iter()
        .flat_map(|policy| {
            combos.iter().map(move |params| CellSpec {
                policy: policy.clone(),
                params: params.clone(),
            })
        })
        .collect()
}

/// The two dimensions with more than one value (the policy counts as one), as a grid of win
/// rates; `None` unless there are exactly two.
pub fn two_way(rows: &[SummaryRow], policies: usize) -> Option<String> {
    let coords = |row: &SummaryRow| {
        let mut c = vec![row.policy.clone()];
        c.extend(row.params.iter().map(|(_, v)| v.clone()));
        c
    };
    let first = rows.first()?;
    let mut names = vec!["policy".to_string()];
    names.extend(first.params.iter().map(|(p, _)| p.clone()));
    let varying: Vec<usize> = (0..names.len())
        .filter(|&d| {
            if d == 0 {
                policies > 1
            } else {
                rows.iter().any(|r| coords(r)[d] != coords(first)[d])
            }
        })
        .collect();
    let [r, c] = varying[..] else {
        return None;
    };
    let entries: Vec<(String, String, String)> = rows
        .iter()
        .map(|row| {
            let x = coords(row);
            (x[r].clone(), x[c].clone(), percent(row.win.rate))
        })
        .collect();
    Some(tables::grid(
        &format!("{} \\ {}", names[r], names[c]),
        &entries,
    ))
}

/// Plays the sweep, prints its table (and a grid for two varied dimensions), writes its files.
pub fn execute<G: Game>(args: &SweepArgs) -> Result<ExitCode> {
    let policies = expand::policies(&args.grid.policy)?;
    let varies = varies::<G>(&args.grid.play, &args.vary)?;
    args.grid.games()?;
    let specs = specs(&policies, &varies);
    let cells: Vec<G> = grid::build(&args.grid.play, &args.grid.seats, &specs)?;
    let out = out_path(&args.grid.play, G::NAME, "sweep")?;
    let mut session = Session::new(&args.grid, &cells, &specs, out, Command::Sweep, None)?;
    let label = format!("{} sweep ({} cells)", G::NAME, cells.len());
    let played = session.play(false, &label)?;
    let mut written = session.write(&played)?;
    written.extend(session.report(&played)?);
    let mark = Session::<G>::header_mark(&played);

    let text = || {
        let mut s = format!(
            "{} sweep | {} cells | seed {}{}{mark}\n",
            G::NAME,
            cells.len(),
            args.grid.play.seed,
            args.grid.precision.map_or(String::new(), |e| format!(
                " | until the 95% CI is within +-{e}"
            ))
        );
        s.push_str(&tables::cells(&played.rows));
        if let Some(grid) = two_way(&played.rows, policies.len()) {
            s.push_str("  win rate:\n");
            s.push_str(&grid);
        }
        let short = played
            .rows
            .iter()
            .filter(|r| r.precision.is_some_and(|p| !p.met))
            .count();
        if short > 0 && played.run.complete {
            s.push_str(&format!(
                "  {short} cells reached the game cap before the precision target (precision_met = false)\n"
            ));
        }
        s
    };
    session.finish(&played, &written, text, None)
}
