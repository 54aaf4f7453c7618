//! `sim merge` of an evaluation's shards (`sim evaluate --shard I/N`): each rule set's integer
//! tally added up in game order, its profile made and its files written by the same code as
//! `sim evaluate`'s, so they are the single run's.

use std::process::ExitCode;

use serde::Deserialize;

use crate::error::{Result, SimError};
use crate::evaluate::profile::Profile;
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

/// Each evaluation shard's tallies on their own: consistent, and counting the shard's deals.
fn check_tallies(shards: &[Loaded<ShardCell>]) -> Result<()> {
    for s in shards {
        fit::check_whole(s, false)?;
        let m = &s.manifest;
        for (i, cell) in m.cells.iter().enumerate() {
            let tally = &cell.tally.tally;
            if !tally.is_consistent() || tally.deals() != m.end - m.start {
                return Err(refuse(format!(
                    "{}: rule set {i} counts {} deals, but the shard played games {}..{}",
                    s.name(),
                    tally.deals(),
                    m.start,
                    m.end
                )));
            }
        }
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
        |sum, cell| sum.tally.merge(&cell.tally),
    )?;
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
