//! `sim merge` of an evaluation's shards (`sim evaluate --shard I/N`): each rule set's integer
//! tally added up in game order, its profile made and its files written by the same code as
//! `sim evaluate`'s, so they are the single run's.

use std::process::ExitCode;

use serde::Deserialize;

use crate::error::{Result, SimError};
use crate::evaluate::collect::Layout;
use crate::evaluate::profile::Profile;
use crate::games::seats::Table;
use crate::report::evaluate::{self as report, Run, Variant};
use crate::results::manifest::{Command, Manifest, SHARD_FILE};
use crate::results::result_set::ResultSet;

use super::super::evaluate::ShardCell;
use super::{Loaded, MergeArgs, Raw, fit, refuse, refuse_shard_as_out, say_merged, sum_cells};

/// True if `raw` is the record of an evaluation's shard.
pub fn is_evaluation(raw: &Raw) -> Result<bool> {
    #[derive(Deserialize)]
    struct Head {
        command: Command,
    }
    let head: Head = serde_json::from_str(&raw.text).map_err(|e| {
        SimError::input(format!(
            "{}: unreadable: {e}",
            raw.dir.join(SHARD_FILE).display()
        ))
    })?;
    Ok(head.command == Command::Evaluate)
}

/// Each evaluation shard's rule sets on their own: a ladder that can be played (a fair rung, its
/// baseline one of its rungs, a tally of each of its lines, `--ideal-turns` A..B with
/// 1 <= A <= B), and a tally that holds (see [`crate::evaluate::data::Tally::check`]) and
/// counts the shard's deals.
fn check_tallies(shards: &[Loaded<ShardCell>]) -> Result<()> {
    for s in shards {
        fit::check_whole(s, false)?;
        let m = &s.manifest;
        for (i, cell) in m.cells.iter().enumerate() {
            check_cell(&cell.tally, m.end - m.start)
                .map_err(|e| refuse(format!("{}: rule set {i}: {e}", s.name())))?;
        }
    }
    Ok(())
}

/// One rule set of a shard that played `deals` deals (see [`check_tallies`]).
fn check_cell(cell: &ShardCell, deals: u64) -> std::result::Result<(), String> {
    let setup = &cell.setup;
    if let Some(b) = setup.baseline.filter(|&b| b >= setup.rungs.len()) {
        return Err(format!(
            "setup.baseline: rung {b} is none of its {} rungs",
            setup.rungs.len()
        ));
    }
    let layout = Layout::of(setup).map_err(|e| format!("setup: {e}"))?;
    let tally = &cell.tally;
    if layout.lines.len() != tally.lines.len() {
        return Err(format!(
            "its ladder plays {} lines, but its tally has {}",
            layout.lines.len(),
            tally.lines.len()
        ));
    }
    if let Some((a, b)) = cell.ideal.filter(|&(a, b)| a == 0 || b < a) {
        return Err(format!("ideal: {a}..{b} is not 1 <= A <= B"));
    }
    tally
        .check(setup.table == Table::Duel)
        .map_err(|e| format!("its tally does not hold: {e}"))?;
    if tally.deals() != deals {
        return Err(format!(
            "it counts {} deals, but the shard played {deals}",
            tally.deals()
        ));
    }
    Ok(())
}

/// Merges the evaluation shards `raw` into `args.out`.
pub fn merge(args: &MergeArgs, raw: Vec<Raw>) -> Result<ExitCode> {
    let mut shards = raw
        .into_iter()
        .map(|r| {
            let manifest = Manifest::parse(&r.dir.join(SHARD_FILE), &r.text)?;
            Ok(Loaded {
                dir: r.dir,
                manifest,
            })
        })
        .collect::<Result<Vec<Loaded<ShardCell>>>>()?;
    check_tallies(&shards)?;
    fit::check_alike(&shards)?;
    fit::check_tiling(&mut shards)?;
    refuse_shard_as_out(&args.out, &shards)?;
    let cells = sum_cells(
        &shards,
        |i, sum, cell| {
            ((&cell.setup, cell.ideal) != (&sum.setup, sum.ideal)
                || cell.tally.lines.len() != sum.tally.lines.len())
            .then(|| format!("rule set {i} played another ladder or --ideal-turns than"))
        },
        |sum, cell| sum.tally.try_merge(&cell.tally),
    )?;
    // The sums of sound tallies are sound: checked again all the same before any figure is made.
    for (i, cell) in cells.iter().enumerate() {
        cell.tally
            .check(cell.setup.table == Table::Duel)
            .map_err(|e| refuse(format!("rule set {i}: the merged tally does not hold: {e}")))?;
    }
    let first = &shards[0].manifest;
    let variants = first
        .cells
        .iter()
        .zip(&cells)
        .map(|(meta, cell)| {
            Ok(Variant {
                label: cell.label.clone(),
                params: meta.params.clone(),
                rules: meta.rules.clone(),
                profile: Profile::of(&cell.setup, &cell.tally, cell.ideal)?,
                cost: None,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let run = Run {
        game: first.game.clone(),
        seed: first.seed,
        first_game: first.run_first_game,
        complete: true,
        setup_seconds: None,
        wall_seconds: None,
        threads: 0,
        ideal: cells.first().and_then(|c| c.ideal),
    };
    let set = ResultSet::create(&args.out)?;
    let written = report::write(set.dir(), &run, &variants)?;
    let written = set.commit(&written)?;
    super::super::output::text(&report::text(&run, &variants, &[]));
    say_merged(shards.len(), first);
    for path in &written {
        outln!("  wrote {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}
