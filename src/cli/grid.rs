//! What `sim compare` and `sim sweep` share: cells built and checked before any game runs, the
//! grid played on the same deals, and its files written.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use serde_json::Value;

use crate::error::Result;
use crate::games::CHUNK;
use crate::games::{Game, Tally};
use crate::report::json;
use crate::report::terminal;
use crate::results::manifest::{Command, Manifest, RunShape, RunState};
use crate::results::parquet::{distributions_frame, summary_frame, write_frame};
use crate::results::result_set::ResultSet;
use crate::results::summary::{Precision, RunInfo, Speed, SummaryRow, distribution_rows};
use crate::sim::grid::{self, GridOptions, GridRun, GridStart};
use crate::sim::runner::Plan;
use crate::stop;

use super::args::{GridArgs, PlayArgs, SeatArgs};
use super::outputs::Paths;
use super::run::{load_rules, pool_threads, prefix, record_name, seat, stopped_note, with_threads};

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
pub fn build<G: Game>(play: &PlayArgs, seats: &SeatArgs, specs: &[CellSpec]) -> Result<Vec<G>> {
    specs
        .iter()
        .map(|spec| {
            let sets: Vec<String> = spec
                .params
                .iter()
                .map(|(path, value)| format!("{path}={value}"))
                .collect();
            let rules = load_rules::<G>(play, &sets)?;
            seat(rules, &spec.policy, seats)
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
    /// Worker threads.
    pub threads: usize,
    /// Games (over all cells) a stopped grid had played before it was resumed.
    pub before: u64,
}

/// A grid being played: its cells, where its files go, and how it will be recorded.
pub struct Session<'a, G: Game> {
    /// The arguments.
    pub args: &'a GridArgs,
    /// The cells.
    pub cells: &'a [G],
    /// What each cell is.
    pub specs: &'a [CellSpec],
    /// The run's shape (what `--resume` and `sim merge` check).
    pub shape: RunShape,
    /// Where the files are written until they are all written.
    set: ResultSet,
    /// The output folder.
    pub out: PathBuf,
    /// Where it goes on from, with `--resume`.
    start: Option<GridStart<G::Tally>>,
    /// The first game index it plays now.
    first: u64,
    /// Games per chunk.
    chunk: u64,
}

impl<'a, G: Game> Session<'a, G> {
    /// Checks `--resume` (the prefix must be of this command) and `--out`, and makes the result
    /// set, before any game is played. `out` is the output folder, `command` which command the
    /// grid is and `baseline` a comparison's named baseline cell.
    pub fn new(
        args: &'a GridArgs,
        cells: &'a [G],
        specs: &'a [CellSpec],
        out: PathBuf,
        command: Command,
        baseline: Option<usize>,
    ) -> Result<Self> {
        let games = args.games()?;
        let span = args.play.span(games);
        let shape = RunShape {
            game: G::NAME,
            command,
            seed: args.play.seed,
            shard: args.play.shard,
            run: (args.play.first_game, games),
            span: span.clone(),
            precision: args.precision,
            baseline,
        };
        let chunk = cells
            .iter()
            .map(Game::games_per_chunk)
            .min()
            .unwrap_or(CHUNK);
        let fresh: Vec<G::Tally> = cells.iter().map(Game::new_tally).collect();
        let rows = rows_of(
            args,
            span.start,
            cells,
            &fresh,
            specs,
            &vec![false; cells.len()],
            false,
        );
        Paths::new()
            .played(&args.play, &out)
            .policies("--policy", specs.iter().map(|s| s.policy.as_str()))
            .seats(&args.seats)
            .check()?;
        let prefix = prefix(&args.play, &shape, &rows, &fresh, chunk, None)?;
        let set = ResultSet::create(&out)?;
        let first = prefix.as_ref().map_or(span.start, |p| p.next);
        let start = prefix.map(|p| GridStart {
            tallies: p.tallies,
            pairs: p.pairs,
        });
        Ok(Self {
            args,
            cells,
            specs,
            shape,
            set,
            out,
            start,
            first,
            chunk,
        })
    }

    /// Plays every cell on the same deals (`--games` each at most) and makes its summary rows;
    /// `pairs` counts wins deal by deal, `label` names the progress bar.
    pub fn play(&mut self, pairs: bool, label: &str) -> Result<Played<G::Tally>> {
        let (args, cells) = (self.args, self.cells);
        let span = &self.shape.span;
        let mut plan = Plan::new(self.first, span.end - self.first, self.chunk);
        let threads = pool_threads(args.play.threads, plan.games.div_ceil(plan.chunk)) as u64;
        // A wave holds every cell's results for its chunks: fewer chunks for bigger grids, and
        // few with a precision target, since a cell that reaches it mid-wave wastes the rest of
        // the wave.
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
        let start = self.start.take();
        let before = start
            .as_ref()
            .map_or(0, |s| s.tallies.iter().map(Tally::games).sum());
        let run = with_threads(threads as usize, || {
            grid::play(
                cells,
                args.play.seed,
                &plan,
                options,
                start,
                stop::stop_flag(),
                &progress,
            )
        })?;
        let seconds = started.elapsed().as_secs_f64();
        progress.finish();
        let rows = rows_of(
            args,
            span.start,
            cells,
            &run.tallies,
            self.specs,
            &run.met,
            run.complete,
        );
        Ok(Played {
            run,
            rows,
            seconds,
            threads: threads as usize,
            before,
        })
    }

    /// The folder the grid's files are written into until [`Session::finish`] puts them in
    /// place: a command's own files go there too.
    pub fn dir(&self) -> &Path {
        self.set.dir()
    }

    /// Writes `distributions.parquet`, then `summary.parquet`, and the run's record when it is a
    /// shard or stopped early, into the result set; the caller may add files of its own.
    pub fn write(&self, played: &Played<G::Tally>) -> Result<Vec<PathBuf>> {
        let mut written = write::<G>(self.set.dir(), played)?;
        if let Some(name) = record_name(&self.shape, played.run.complete) {
            let next = if played.run.complete {
                self.shape.span.end
            } else {
                self.first + played.run.played
            };
            let manifest = Manifest::new(
                &self.shape,
                &RunState {
                    rows: &played.rows,
                    tallies: &played.run.tallies,
                    pairs: played.run.pairs.as_ref(),
                    next,
                    complete: played.run.complete,
                    games_files: &[],
                },
            );
            written.push(manifest.write(self.set.dir(), name)?);
        }
        Ok(written)
    }

    /// With `--report`, writes `report.html` into the result set, made from the files written
    /// there so far (call it last, before [`Session::finish`]), and returns its path.
    pub fn report(&self, played: &Played<G::Tally>) -> Result<Option<PathBuf>> {
        super::report::beside::<G>(&self.args.play.report, self.set.dir(), speed(played))
    }

    /// The header's mark for a grid that stopped early.
    pub fn header_mark(played: &Played<G::Tally>) -> &'static str {
        if played.run.complete {
            ""
        } else {
            " | INCOMPLETE (stopped early)"
        }
    }

    /// Puts the files `written` into the output folder (see [`ResultSet::commit`]), prints the
    /// report (`text` then the closing lines, or the JSON rows, ranked if `ranking` gives the
    /// order) and gives the exit code: success, or 130 or 143 if Ctrl-C or SIGTERM cut the grid
    /// short (with a note on how to resume).
    pub fn finish(
        self,
        played: &Played<G::Tally>,
        written: &[PathBuf],
        text: impl FnOnce() -> String,
        ranking: Option<&[usize]>,
    ) -> Result<ExitCode> {
        let written = self.set.commit(written)?;
        let play = &self.args.play;
        let speed = speed(played);
        let resumed = super::run::resumed_line(play, self.shape.span.start, self.first);
        play.report.print(
            || resumed + &text() + &footer(played, &speed, &written),
            || json_rows(played, ranking, &speed),
        );
        if played.run.complete {
            return Ok(ExitCode::SUCCESS);
        }
        let span = &self.shape.span;
        eprintln!(
            "{}",
            stopped_note(
                self.first + played.run.played - span.start,
                span.end - span.start,
                &self.out
            )
        );
        Ok(ExitCode::from(stop::exit_code()))
    }
}

/// The summary rows of `cells` with `tallies`, as `specs` describe them, of a grid whose first
/// game is `first`.
fn rows_of<G: Game>(
    args: &GridArgs,
    first: u64,
    cells: &[G],
    tallies: &[G::Tally],
    specs: &[CellSpec],
    met: &[bool],
    complete: bool,
) -> Vec<SummaryRow> {
    let info = RunInfo {
        seed: args.play.seed,
        first_game: first,
        complete,
    };
    cells
        .iter()
        .zip(tallies)
        .zip(specs)
        .zip(met)
        .map(|(((game, tally), spec), &met)| {
            let mut row = SummaryRow::new(game, tally, &info);
            row.params = spec.params.clone();
            row.precision = args.precision.map(|target| Precision { target, met });
            row
        })
        .collect()
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
}

/// The grid's speed: every cell's games played now over the wall time.
fn speed<T>(played: &Played<T>) -> Speed {
    Speed {
        games: played.rows.iter().map(|r| r.games).sum::<u64>() - played.before,
        seconds: played.seconds,
        threads: played.threads,
    }
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
