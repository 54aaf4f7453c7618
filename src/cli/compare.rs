//! `sim compare <game>`: several policies on the same deals, ranked, with paired differences; on
//! a duel, a tournament (see [`super::tournament`]).

use std::process::ExitCode;

use crate::error::Result;
use crate::games::Game;
use crate::games::seats::Table;
use crate::report::tables;
use crate::report::terminal;
use crate::report::verdict::{self, Ranged};
use crate::results::manifest::Command;
use crate::results::summary::{Comparison, SummaryRow};
use crate::rules;
use crate::sim::pairs::PairCounts;
use crate::stats::interval::Difference;

use super::args::CompareArgs;
use super::expand;
use super::grid::{self, CellSpec, Session};
use super::run::out_path;

/// Plays every policy on the same games, ranks them by win rate and measures each against the
/// baseline (the best by default) game by game.
pub fn execute<G: Game>(args: &CompareArgs) -> Result<ExitCode> {
    if G::TABLE == Table::Duel {
        return super::tournament::execute::<G>(args);
    }
    let mut names = expand::policies(&args.grid.policy)?;
    if let Some(b) = &args.baseline
        && !names.contains(b)
    {
        names.push(b.clone());
    }
    let specs: Vec<CellSpec> = names
        .iter()
        .map(|policy| CellSpec {
            policy: policy.clone(),
            params: Vec::new(),
        })
        .collect();
    args.grid.games()?;
    let cells: Vec<G> = grid::build(&args.grid.play, &args.grid.seats, &specs)?;
    let baseline = args
        .baseline
        .as_ref()
        .and_then(|b| names.iter().position(|n| n == b));
    let out = out_path(&args.grid.play, G::NAME, "compare")?;
    let mut session = Session::new(&args.grid, &cells, &specs, out, Command::Compare, baseline)?;
    let label = format!("{} compare ({} policies)", G::NAME, cells.len());
    let mut played = session.play(true, &label)?;

    let pairs = played.run.pairs.clone().expect("a comparison counts pairs");
    let order = rank(&mut played.rows, &pairs, baseline);
    let mut written = session.write(&played)?;
    written.extend(session.report(&played)?);
    let header = format!(
        "{} compare | {} policies on the same deals | seed {}{}\n{}{}",
        G::NAME,
        cells.len(),
        args.grid.play.seed,
        Session::<G>::header_mark(&played),
        terminal::rules_line(&rules::changed(cells[0].rules())),
        verdict_line(&played.rows)
    );
    session.finish(
        &played,
        &written,
        || header + &tables::ranked(&played.rows, &order),
        Some(&order),
    )
}

/// The comparison's verdict line: the baseline's win rate, then each other policy's paired
/// difference from it (see [`verdict::against_base`]); empty for rows not yet ranked.
pub fn verdict_line(rows: &[SummaryRow]) -> String {
    let Some(base) = rows.iter().find(|r| {
        r.comparison
            .as_ref()
            .is_some_and(|c| c.baseline == r.policy)
    }) else {
        return String::new();
    };
    let others: Vec<(String, Ranged)> = rows
        .iter()
        .filter(|r| r.policy != base.policy)
        .filter_map(|r| {
            let d = &r.comparison.as_ref()?.paired;
            Some((r.policy.clone(), Ranged::new(d.diff, d.low, d.high)))
        })
        .collect();
    let rate = Ranged::new(base.win.rate, base.win.low, base.win.high);
    format!(
        "  verdict: {}\n",
        verdict::against_base(&base.policy, &rate, &others)
    )
}

/// Ranks the compared `rows` by win rate (the returned order, best first) and measures each
/// against the baseline, cell `baseline` or else the best, on the deal-by-deal `pairs`.
pub fn rank(rows: &mut [SummaryRow], pairs: &PairCounts, baseline: Option<usize>) -> Vec<usize> {
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by(|&a, &b| rows[b].win.rate.total_cmp(&rows[a].win.rate));
    let baseline = baseline.unwrap_or(order[0]);
    let base = rows[baseline].clone();
    for (i, row) in rows.iter_mut().enumerate() {
        row.comparison = Some(Comparison {
            baseline: base.policy.clone(),
            paired: Difference::paired(row.games, pairs.only(i, baseline), pairs.only(baseline, i)),
            unpaired: Difference::unpaired(row.wins, row.games, base.wins, base.games),
        });
    }
    order
}
