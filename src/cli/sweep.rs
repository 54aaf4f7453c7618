//! `sim sweep <game>`: policies under every combination of varied rule values.

use std::process::ExitCode;

use crate::error::{Result, SimError};
use crate::games::Game;
use crate::report::tables;
use crate::report::terminal::{self, percent};
use crate::report::verdict::{self, Ranged};
use crate::results::manifest::Command;
use crate::results::summary::{Comparison, SummaryRow, params_label};
use crate::rules;
use crate::sim::pairs::PairCounts;
use crate::stats::interval::Difference;

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

/// The combination of varied values every cell is measured against, as its index among
/// [`expand::combinations`] of `varies`: each rule's `--base PATH=VALUE` value where given (one
/// of its `--vary` values), else its first value.
pub fn base_combo(varies: &[Vary], base: &[String]) -> Result<usize> {
    let mut wanted: Vec<(String, String)> = varies
        .iter()
        .map(|v| (v.path.clone(), v.values[0].0.clone()))
        .collect();
    for flag in base {
        let (path, value) = flag.split_once('=').ok_or_else(|| {
            SimError::input(format!(
                "--base {flag}: expected PATH=VALUE, a varied rule and one of its values"
            ))
        })?;
        let (path, value) = (path.trim(), value.trim());
        let Some(i) = varies.iter().position(|v| v.path == path) else {
            return Err(SimError::input(format!(
                "--base {flag}: {path} is not varied; the base is one of the cells (give a --vary rule)"
            )));
        };
        if !varies[i].values.iter().any(|(t, _)| t == value) {
            let values: Vec<&str> = varies[i].values.iter().map(|(t, _)| t.as_str()).collect();
            return Err(SimError::input(format!(
                "--base {flag}: {value} is not among the --vary values of {path} ({})",
                values.join(", ")
            )));
        }
        wanted[i].1 = value.to_string();
    }
    Ok(expand::combinations(varies)
        .iter()
        .position(|c| *c == wanted)
        .expect("the base is one of the combinations"))
}

/// The base cell of row `i`: combination `base` among its policy's cells, which stand together
/// in cell order.
fn base_of(rows: &[SummaryRow], i: usize, base: usize) -> usize {
    let first = rows
        .iter()
        .position(|r| r.policy == rows[i].policy)
        .expect("the row itself has its policy");
    first + base
}

/// Measures every cell against its policy's base cell (combination `base`) on the same deals:
/// the paired difference of win rates from the deal-by-deal `pairs`.
pub fn against_base(rows: &mut [SummaryRow], pairs: &PairCounts, base: usize) {
    let bases: Vec<usize> = (0..rows.len()).map(|i| base_of(rows, i, base)).collect();
    let snapshot = rows.to_vec();
    for (i, row) in rows.iter_mut().enumerate() {
        let b = &snapshot[bases[i]];
        row.comparison = Some(Comparison {
            baseline: params_label(&b.params),
            paired: Difference::paired(row.games, pairs.only(i, bases[i]), pairs.only(bases[i], i)),
            unpaired: Difference::unpaired(row.wins, row.games, b.wins, b.games),
        });
    }
}

/// The verdict lines of a sweep measured against its base: one per policy, the base cell's win
/// rate and each other cell's paired difference from it; empty without differences.
pub fn verdicts(rows: &[SummaryRow]) -> String {
    let mut policies: Vec<&str> = rows.iter().map(|r| r.policy.as_str()).collect();
    policies.dedup();
    let mut s = String::new();
    for policy in &policies {
        let mine: Vec<&SummaryRow> = rows.iter().filter(|r| r.policy == *policy).collect();
        let Some(base) = mine.iter().find(|r| {
            r.comparison
                .as_ref()
                .is_some_and(|c| c.baseline == params_label(&r.params))
        }) else {
            continue;
        };
        let others: Vec<(String, Ranged)> = mine
            .iter()
            .filter(|r| r.params != base.params)
            .filter_map(|r| {
                let d = &r.comparison.as_ref()?.paired;
                Some((params_label(&r.params), Ranged::new(d.diff, d.low, d.high)))
            })
            .collect();
        let sentence = verdict::against_base(
            &params_label(&base.params),
            &Ranged::new(base.win.rate, base.win.low, base.win.high),
            &others,
        );
        if policies.len() > 1 {
            s.push_str(&format!("  verdict ({policy}): {sentence}\n"));
        } else {
            s.push_str(&format!("  verdict: {sentence}\n"));
        }
    }
    s
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
    let base = base_combo(&varies, &args.base)?;
    // Cells measured against the base on the same deals play in lockstep; with a precision
    // target each cell stops on its own, so there are no pairs.
    let pairs = args.grid.precision.is_none();
    if !pairs && !args.base.is_empty() {
        return Err(SimError::input(
            "--base with --precision: cells that stop on their own are not paired deal by deal; leave one out",
        ));
    }
    let changed = rules::changed(&load_rules::<G>(&args.grid.play, &[])?);
    args.grid.games()?;
    let specs = specs(&policies, &varies);
    let cells: Vec<G> = grid::build(&args.grid.play, &args.grid.seats, &specs)?;
    let out = out_path(&args.grid.play, G::NAME, "sweep")?;
    let named = (base != 0).then_some(base);
    let mut session = Session::new(&args.grid, &cells, &specs, out, Command::Sweep, named)?;
    let label = format!("{} sweep ({} cells)", G::NAME, cells.len());
    let mut played = session.play(pairs, &label)?;
    if let Some(p) = played.run.pairs.clone() {
        against_base(&mut played.rows, &p, base);
    }
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
        s.push_str(&terminal::rules_line(&changed));
        s.push_str(&verdicts(&played.rows));
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
