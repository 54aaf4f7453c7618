//! What `sim compare` and `sim sweep` share: cells built and checked before any game runs, the
//! grid played on the same deals, and its files written.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use serde_json::Value;

use crate::error::{Result, SimError};
use crate::games::{Game, Tally};
use crate::report::json;
use crate::report::manifest::{Command, Manifest, ShardRun};
use crate::report::parquet::{distributions_frame, summary_frame, write_frame};
use crate::report::summary::{Precision, RunInfo, Speed, SummaryRow, distribution_rows};
use crate::report::terminal;
use crate::sim::grid::{self, GridOptions, GridRun};
use crate::sim::runner::{CHUNK, Plan};
use crate::sim::stop::ctrl_c_flag;

use super::args::{GridArgs, PlayArgs};
use super::run::{INTERRUPTED, load_rules, rayon_threads, seat, with_threads};

/// A cell before it is built: a policy, and the rule values that set it apart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellSpec {
    /// The `--policy` value.
    pub policy: String,
    /// Rule paths and values laid over `--rules` and `--set`.
    pub params: Vec<(String, String)>,
}

/// Builds every cell: the rules of `--rules`, `--players`, `--set` and the cell's own values,
/// then its policy in every seat but those `--vs` and `--seat` set.
pub fn build<G: Game>(args: &GridArgs, specs: &[CellSpec]) -> Result<Vec<G>> {
    specs
        .iter()
        .map(|spec| {
            let sets: Vec<String> = spec
                .params
                .iter()
                .map(|(path, value)| format!("{path}={value}"))
                .collect();
            let rules = load_rules::<G>(&args.play, &sets)?;
            seat(rules, &spec.policy, &args.seats)
        })
        .collect()
}

/// A finished grid: what each cell played, how long it took, and the summary rows.
pub struct Played<T> {
    /// The grid's results.
    pub run: GridRun<T>,
    /// One summary row per cell.
    pub rows: Vec<SummaryRow>,
    /// Wall time of the games in seconds.
    pub seconds: f64,
}

/// Plays every cell on the same deals (`--games` each at most) and makes its summary rows.
pub fn play<G: Game>(
    args: &GridArgs,
    cells: &[G],
    specs: &[CellSpec],
    pairs: bool,
    label: &str,
) -> Result<Played<G::Tally>> {
    let games = args.games()?;
    let threads = rayon_threads(args.play.threads) as u64;
    let span = args.play.span(games);
    let chunk = cells
        .iter()
        .map(Game::games_per_chunk)
        .min()
        .unwrap_or(CHUNK);
    let mut plan = Plan::new(span.start, span.end - span.start, chunk);
    // A wave holds every cell's results for its chunks: fewer chunks for bigger grids, and few
    // with a precision target, since a cell that reaches it mid-wave wastes the rest of the wave.
    let chunks = if args.precision.is_some() {
        2 * threads
    } else {
        (64 / cells.len() as u64).max(2 * threads)
    };
    plan.wave = chunks * plan.chunk;
    let options = GridOptions {
        pairs,
        precision: args.precision,
    };
    let progress = args
        .play
        .report
        .progress(plan.games.saturating_mul(cells.len() as u64), label);
    let started = Instant::now();
    let run = with_threads(args.play.threads, || {
        grid::play(
            cells,
            args.play.seed,
            &plan,
            options,
            ctrl_c_flag(),
            &progress,
        )
    })?;
    let seconds = started.elapsed().as_secs_f64();
    progress.finish();
    let info = RunInfo {
        seed: args.play.seed,
        first_game: plan.first_game,
        complete: run.complete,
    };
    let rows = cells
        .iter()
        .zip(&run.tallies)
        .zip(specs)
        .zip(&run.met)
        .map(|(((game, tally), spec), &met)| {
            let mut row = SummaryRow::new(game, tally, &info);
            row.params = spec.params.clone();
            row.precision = args.precision.map(|target| Precision { target, met });
            row
        })
        .collect();
    Ok(Played { run, rows, seconds })
}

/// Writes `distributions.parquet`, then `summary.parquet`, into `dir`.
pub fn write<G: Game>(dir: &Path, played: &Played<G::Tally>) -> Result<Vec<PathBuf>> {
    let distributions: Vec<_> = played
        .rows
        .iter()
        .zip(&played.run.tallies)
        .enumerate()
        .flat_map(|(cell, (row, tally))| distribution_rows(&row.policy, cell, tally))
        .collect();
    let write_all = || -> Result<Vec<PathBuf>> {
        Ok(vec![
            write_frame(
                &dir.join("distributions.parquet"),
                &mut distributions_frame(&distributions)?,
            )?,
            write_frame(
                &dir.join("summary.parquet"),
                &mut summary_frame(&played.rows)?,
            )?,
        ])
    };
    write_all().map_err(SimError::into_output)
}

/// The grid's speed: every cell's games over the wall time.
fn speed(played: &Played<impl Sized>, threads: Option<usize>) -> Speed {
    Speed {
        games: played.rows.iter().map(|r| r.games).sum(),
        seconds: played.seconds,
        threads: rayon_threads(threads),
    }
}

/// With `--shard`, writes the grid's `shard.json` into `dir` (after its Parquet files) and
/// returns its path. `baseline` is the cell of a comparison's named baseline.
pub fn write_shard<G: Game>(
    dir: &Path,
    args: &GridArgs,
    command: Command,
    played: &Played<G::Tally>,
    baseline: Option<usize>,
) -> Result<Option<PathBuf>> {
    let Some(shard) = args.play.shard else {
        return Ok(None);
    };
    let games = args.games()?;
    let manifest = Manifest::new(&ShardRun {
        game: G::NAME,
        command,
        seed: args.play.seed,
        shard,
        run: (args.play.first_game, games),
        span: args.play.span(games),
        complete: played.run.complete,
        rows: &played.rows,
        tallies: &played.run.tallies,
        pairs: played.run.pairs.as_ref(),
        baseline,
        games_files: &[],
    });
    manifest.write(dir).map(Some).map_err(SimError::into_output)
}

/// With `--report`, writes `report.html` into `dir` (after every other file) and returns its
/// path.
pub fn write_report<G: Game>(
    dir: &Path,
    play: &PlayArgs,
    played: &Played<G::Tally>,
) -> Result<Option<PathBuf>> {
    super::report::beside::<G>(&play.report, dir, speed(played, play.threads))
}

/// The closing lines: speed, files, and a note if Ctrl-C cut the grid short.
fn footer(played: &Played<impl Sized>, speed: &Speed, written: &[PathBuf]) -> String {
    let mut s = format!(
        "  speed: {} games in {:.2} s, {} games/s on {} ({} per thread)\n",
        terminal::thousands(speed.games),
        speed.seconds,
        terminal::per_second(speed.rate()),
        terminal::threads(speed.threads),
        terminal::per_second(speed.per_thread())
    );
    for path in written {
        s.push_str(&format!("  wrote {}\n", path.display()));
    }
    if !played.run.complete {
        s.push_str(
            "  stopped early: every cell holds the same prefix of games, marked complete = false\n",
        );
    }
    s
}

/// The JSON report: an array of the cells' summary rows, each with its `cell` (its row in
/// `summary.parquet`), its distributions and the grid's speed; ranked (best first, with `rank`)
/// if `ranking` gives the order, else in cell order.
fn json_rows<T: Tally>(played: &Played<T>, ranking: Option<&[usize]>, speed: &Speed) -> Value {
    let docs = json::summaries(&played.rows);
    let cells: Vec<usize> = ranking.map_or_else(|| (0..docs.len()).collect(), <[usize]>::to_vec);
    cells
        .iter()
        .enumerate()
        .map(|(rank, &cell)| {
            let mut doc = docs[cell].clone();
            if ranking.is_some() {
                doc.insert("rank".into(), (rank + 1).into());
            }
            doc.insert("cell".into(), cell.into());
            doc.insert(
                "distributions".into(),
                json::distributions(&played.run.tallies[cell]),
            );
            doc.insert("speed".into(), json::speed(speed));
            Value::Object(doc)
        })
        .collect()
}

/// Prints the report (`text` then the closing lines, or the JSON rows of `json_rows`) and
/// gives the exit code: success, or 130 if Ctrl-C cut the grid short.
pub fn finish<T: Tally>(
    played: &Played<T>,
    play: &PlayArgs,
    written: &[PathBuf],
    text: impl FnOnce() -> String,
    ranking: Option<&[usize]>,
) -> ExitCode {
    let speed = speed(played, play.threads);
    play.report.print(
        || text() + &footer(played, &speed, written),
        || json_rows(played, ranking, &speed),
    );
    if played.run.complete {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(INTERRUPTED)
    }
}
