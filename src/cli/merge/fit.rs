//! Whether shards fit together: each one whole and sound, alike in everything but their ranges,
//! and ranges that tile the run.

use crate::error::Result;
use crate::games::Tally;
use crate::sim::shard::Shard;

use super::super::same_run::run_difference;
use super::{Loaded, refuse};

/// One shard's record on its own: complete, and its range its shard's of the run. An incomplete
/// shard is finished with `--resume` where its command `resumes`, else played again.
pub fn check_whole<T>(s: &Loaded<T>, resumes: bool) -> Result<()> {
    let (m, name) = (&s.manifest, s.name());
    if !m.complete {
        let finish = if resumes {
            format!("finish it with --resume {name}")
        } else {
            format!(
                "play it again (the same command with --shard {}; it cannot be resumed)",
                m.shard
            )
        };
        return Err(refuse(format!(
            "{name}: shard {} is incomplete (stopped early); {finish}",
            m.shard
        )));
    }
    if m.cells.is_empty() {
        return Err(refuse(format!("{name}: a shard of no cells")));
    }
    if let Some(b) = m.baseline.filter(|&b| b >= m.cells.len()) {
        return Err(refuse(format!(
            "{name}: baseline: cell {b} is none of its {} cells",
            m.cells.len()
        )));
    }
    let shard = m.shard;
    if shard.count == 0 || shard.index >= shard.count {
        return Err(refuse(format!(
            "{name}: shard {shard} is no shard of a run"
        )));
    }
    if (m.start..m.end) != shard.range(m.run_first_game, m.run_games) || m.next != m.end {
        return Err(refuse(format!(
            "{name}: games {}..{} are not shard {} of games {}..{}",
            m.start,
            m.next,
            m.shard,
            m.run_first_game,
            m.run_first_game.saturating_add(m.run_games)
        )));
    }
    Ok(())
}

/// Each shard on its own: complete, its range its shard's, and its tallies (and win pairs)
/// sound: counting the shard's games and keeping every invariant of a tally of real games.
pub fn check_each<T: Tally>(shards: &[Loaded<T>]) -> Result<()> {
    for s in shards {
        check_whole(s, true)?;
        let (m, name) = (&s.manifest, s.name());
        let mut wins = Vec::with_capacity(m.cells.len());
        for (i, cell) in m.cells.iter().enumerate() {
            let tally = &cell.tally;
            if tally.games() != m.end - m.start {
                return Err(refuse(format!(
                    "{name}: cell {i} counts {} games, but the shard played games {}..{}",
                    tally.games(),
                    m.start,
                    m.end
                )));
            }
            tally
                .check()
                .map_err(|e| refuse(format!("{name}: cell {i}'s tally does not hold: {e}")))?;
            wins.push(tally.wins());
        }
        if let Some(pairs) = &m.pairs {
            if !pairs.fits(m.cells.len()) {
                return Err(refuse(format!(
                    "{name}: win pairs for other than its {} cells",
                    m.cells.len()
                )));
            }
            pairs
                .check(m.end - m.start, &wins)
                .map_err(|e| refuse(format!("{name}: the win pairs do not hold: {e}")))?;
        }
    }
    Ok(())
}

/// Each shard against the first: the same run but for the range.
pub fn check_alike<T>(shards: &[Loaded<T>]) -> Result<()> {
    let (a, a_name) = (&shards[0].manifest, shards[0].name());
    for s in &shards[1..] {
        if let Some(d) = run_difference(&s.manifest, a) {
            return Err(refuse(format!(
                "{}: {} {}, but {a_name} has {} {}",
                s.name(),
                d.what,
                d.theirs,
                d.what,
                d.ours
            )));
        }
    }
    Ok(())
}

/// Orders the shards by range and checks they cover the run exactly once.
pub fn check_tiling<T>(shards: &mut [Loaded<T>]) -> Result<()> {
    shards.sort_by_key(|s| (s.manifest.start, s.manifest.end));
    let m = &shards[0].manifest;
    let (run_start, run_end) = (
        m.run_first_game,
        m.run_first_game.saturating_add(m.run_games),
    );
    let counts: Vec<u64> = shards.iter().map(|s| s.manifest.shard.count).collect();
    let count = counts.iter().all(|&c| c == counts[0]).then_some(counts[0]);
    let missing = |from: u64, to: u64| {
        let named = count.map(|n| {
            (0..n)
                .map(|index| Shard { index, count: n })
                .filter(|s| {
                    let r = s.range(run_start, run_end - run_start);
                    r.start >= from && r.end <= to
                })
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
        });
        let what = match named {
            Some(names) if names.len() == 1 => format!("shard {} is missing", names[0]),
            Some(names) if !names.is_empty() && names.len() <= 4 => {
                format!("shards {} are missing", names.join(", "))
            }
            Some(names) if !names.is_empty() => format!(
                "{} shards are missing ({} to {})",
                names.len(),
                names[0],
                names[names.len() - 1]
            ),
            _ => "a shard is missing".to_string(),
        };
        refuse(format!("{what}: no shard given covers games {from}..{to}"))
    };
    if shards[0].manifest.start > run_start {
        return Err(missing(run_start, shards[0].manifest.start));
    }
    for pair in shards.windows(2) {
        let (a, b) = (&pair[0].manifest, &pair[1].manifest);
        let (a_name, b_name) = (pair[0].name(), pair[1].name());
        if (a.start, a.end) == (b.start, b.end) {
            return Err(refuse(format!(
                "{b_name}: shard {} (games {}..{}) is given twice, also as {a_name}",
                b.shard, b.start, b.end
            )));
        }
        if b.start < a.end {
            return Err(refuse(format!(
                "{b_name}: games {}..{} overlap {a_name} (games {}..{}): games {}..{} would count twice",
                b.start,
                b.end,
                a.start,
                a.end,
                b.start,
                a.end.min(b.end)
            )));
        }
        if b.start > a.end {
            return Err(missing(a.end, b.start));
        }
    }
    let last = &shards[shards.len() - 1].manifest;
    if last.end < run_end {
        return Err(missing(last.end, run_end));
    }
    Ok(())
}
