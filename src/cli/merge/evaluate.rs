//! `sim merge` of an evaluation's shards (`sim evaluate --shard I/N`): each rule set's integer
//! tally added up in game order, its profile made and its files written by the same code as
//! `sim evaluate`'s, so they are the single run's.

use std::process::ExitCode;

use crate::error::Result;
use crate::evaluate::profile::Profile;
use crate::report::evaluate::{self as report, Run, Variant};
use crate::report::files::ensure_writable_dir;
use crate::report::manifest::Manifest;

use super::super::evaluate::ShardCell;
use super::{Loaded, MergeArgs, refuse};

/// Merges the (checked, ordered) evaluation shards `shards` into `args.out`.
pub fn merge(args: &MergeArgs, shards: &[Loaded]) -> Result<ExitCode> {
    let mut cells: Option<Vec<ShardCell>> = None;
    for s in shards {
        let m: Manifest<ShardCell> = Manifest::parse(&s.dir, &s.text)?;
        let played = m.end - m.start;
        for (i, cell) in m.cells.iter().enumerate() {
            if !cell.tally.tally.is_consistent() || cell.tally.tally.deals() != played {
                return Err(refuse(format!(
                    "{}: rule set {i} counts {} deals, but the shard played games {}..{}",
                    s.name(),
                    cell.tally.tally.deals(),
                    m.start,
                    m.end
                )));
            }
        }
        match cells.as_mut() {
            None => cells = Some(m.cells.into_iter().map(|c| c.tally).collect()),
            Some(total) => {
                for (i, (sum, cell)) in total.iter_mut().zip(m.cells).enumerate() {
                    let cell = cell.tally;
                    if (&cell.setup, cell.ideal) != (&sum.setup, sum.ideal)
                        || cell.tally.lines.len() != sum.tally.lines.len()
                    {
                        return Err(refuse(format!(
                            "{}: rule set {i} played another ladder or --ideal-turns than {}",
                            s.name(),
                            shards[0].name()
                        )));
                    }
                    sum.tally.merge(&cell.tally);
                }
            }
        }
    }
    let cells = cells.expect("at least one shard");
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
    ensure_writable_dir(&args.out)?;
    let written = report::write(&args.out, &variants, true)?;
    let run = Run {
        game: first.game.clone(),
        seed: first.seed,
        first_game: first.run_first_game,
        complete: true,
        setup_seconds: None,
        wall_seconds: None,
        threads: 0,
    };
    super::super::output::text(&report::text(&run, &variants, &[]));
    super::say_merged(shards.len(), first);
    for path in &written {
        outln!("  wrote {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}
