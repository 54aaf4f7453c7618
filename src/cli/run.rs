//! `sim <game>`: play one policy many times and report it.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use crate::error::{Result, SimError};
use crate::games::seats::{Seating, Table};
use crate::games::{Game, Tally};
use crate::report::files::ensure_writable_dir;
use crate::report::games_file::GamesWriter;
use crate::report::json;
use crate::report::manifest::{Command, Manifest, ShardRun};
use crate::report::parquet::{distributions_frame, summary_frame, write_frame};
use crate::report::summary::{RunInfo, Speed, SummaryRow, distribution_rows};
use crate::report::terminal;
use crate::rules;
use crate::sim::grid::play_chunk;
use crate::sim::runner::{self, CHUNK, Plan};
use crate::sim::stop::ctrl_c_flag;

use super::args::{DEFAULT_GAMES, PlayArgs, RunArgs, SeatArgs};

/// The exit code of a run stopped by Ctrl-C.
pub const INTERRUPTED: u8 = 130;

/// A folder name made of a policy name.
pub fn slug(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '-'
            }
        })
        .collect()
}

/// The rules of `--rules`, `--players` and `--set`, then `extra` (a sweep cell's values).
pub fn load_rules<G: Game>(play: &PlayArgs, extra: &[String]) -> Result<G::Rules> {
    rules_of::<G>(play.rules.as_deref(), play.players, &play.set, extra)
}

/// The rules of a `--rules` file, `--players` and `--set`, then `extra`.
pub fn rules_of<G: Game>(
    file: Option<&Path>,
    players: Option<u8>,
    set: &[String],
    extra: &[String],
) -> Result<G::Rules> {
    let mut sets = Vec::with_capacity(set.len() + extra.len() + 1);
    if let Some(n) = players {
        if G::TABLE != Table::Team {
            return Err(SimError::input(format!(
                "--players {n}: {} has a fixed number of players; --players is for games of several (regicide)",
                G::NAME
            )));
        }
        sets.push(format!("players={n}"));
    }
    sets.extend(set.iter().cloned());
    sets.extend(extra.iter().cloned());
    rules::load::<G::Rules>(file, &sets)
}

/// The seating of `policy` in every seat of the game under `rules` but those `seats` (`--vs`,
/// `--seat K=POLICY`) set otherwise.
pub fn seating<G: Game>(rules: &G::Rules, policy: &str, seats: &SeatArgs) -> Result<Seating> {
    Seating::assign(
        G::TABLE,
        G::seats(rules),
        policy,
        seats.vs.as_deref(),
        &seats.seat,
    )
}

/// Builds the game under `rules` with `policy` in every seat but those `seats` sets otherwise.
pub fn seat<G: Game>(rules: G::Rules, policy: &str, seats: &SeatArgs) -> Result<G> {
    let seating = seating::<G>(&rules, policy, seats)?;
    G::new(rules, &seating)
}

/// Builds the game from the arguments: rules, then the policy of each seat. Nothing runs yet.
pub fn setup<G: Game>(play: &PlayArgs, policy: &str, seats: &SeatArgs) -> Result<G> {
    seat(load_rules::<G>(play, &[])?, policy, seats)
}

/// The output folder: `--out`, or `results/<game>/<name>`; created and proven writable.
pub fn out_dir(play: &PlayArgs, game: &str, name: &str) -> Result<PathBuf> {
    let dir = play.out.clone().unwrap_or_else(|| {
        let dir = PathBuf::from("results").join(game).join(slug(name));
        match play.shard {
            Some(shard) => dir.join(shard.folder()),
            None => dir,
        }
    });
    ensure_writable_dir(&dir)?;
    Ok(dir)
}

/// Runs `f` on a pool of `threads` workers (default: one per core).
pub fn with_threads<T: Send>(threads: Option<usize>, f: impl FnOnce() -> T + Send) -> Result<T> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| SimError::input(format!("cannot start worker threads: {e}")))?;
    Ok(pool.install(f))
}

/// Plays the run `args` describes and writes its report. The exit code is 130 if Ctrl-C stopped
/// it (the completed prefix of games is still written, marked incomplete).
pub fn execute<G: Game>(args: &RunArgs, default_policy: &str) -> Result<ExitCode> {
    let play = &args.play;
    let games = play.games(DEFAULT_GAMES)?;
    let policy = args.policy.as_deref().unwrap_or(default_policy);
    let game: G = setup(play, policy, &args.seats)?;
    let dir = out_dir(play, G::NAME, game.policy_name())?;
    let span = play.span(games);
    let mut plan = Plan::new(span.start, span.end - span.start, game.games_per_chunk());
    let mut games_file = if args.per_game {
        // Bounds the outcomes held before they are written.
        plan.wave = plan.wave.min(16 * CHUNK);
        Some(GamesWriter::create::<G::Outcome>(
            &dir,
            plan.first_game,
            plan.games,
        )?)
    } else {
        None
    };
    let stop = ctrl_c_flag();
    let progress = play
        .report
        .progress(plan.games, &format!("{} {}", G::NAME, game.policy_name()));
    let per_game = args.per_game;
    let seed = play.seed;
    let started = Instant::now();
    let mut tally = game.new_tally();
    let played = with_threads(play.threads, || {
        runner::run(
            &plan,
            stop,
            |range| {
                let games = range.end - range.start;
                let mut outcomes = Vec::new();
                let t = if per_game {
                    outcomes.reserve_exact(games as usize);
                    play_chunk(&game, seed, range, |_, o| outcomes.push(o))
                } else {
                    play_chunk(&game, seed, range, |_, _| {})
                };
                progress.advance(games);
                (t, outcomes)
            },
            |(t, outcomes)| {
                tally.merge(t);
                if let Some(w) = games_file.as_mut() {
                    w.write(&outcomes)?;
                }
                Ok::<_, SimError>(true)
            },
        )
    })??;
    let elapsed = started.elapsed().as_secs_f64();
    progress.finish();

    let info = RunInfo {
        seed,
        first_game: plan.first_game,
        complete: played.complete,
    };
    let row = SummaryRow::new(&game, &tally, &info);
    let mut written =
        write_outputs(&dir, &row, &tally, games_file).map_err(SimError::into_output)?;
    if let Some(shard) = play.shard {
        let games_files: Vec<PathBuf> = written
            .iter()
            .filter(|p| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("games"))
            })
            .cloned()
            .collect();
        let manifest = Manifest::new(&ShardRun {
            game: G::NAME,
            command: Command::Run,
            seed,
            shard,
            run: (play.first_game, games),
            span,
            complete: played.complete,
            rows: std::slice::from_ref(&row),
            tallies: std::slice::from_ref(&tally),
            pairs: None,
            baseline: None,
            games_files: &games_files,
        });
        written.push(manifest.write(&dir).map_err(SimError::into_output)?);
    }

    let speed = Speed {
        games: played.games,
        seconds: elapsed,
        threads: rayon_threads(play.threads),
    };
    written.extend(super::report::beside::<G>(&play.report, &dir, speed)?);
    play.report.print(
        || text_report(&row, &tally, &speed, &written),
        || {
            let mut doc = json::summaries(std::slice::from_ref(&row)).remove(0);
            doc.insert("distributions".into(), json::distributions(&tally));
            doc.insert("speed".into(), json::speed(&speed));
            doc.insert("files".into(), json::files(&written));
            doc.into()
        },
    );
    if !played.complete {
        eprintln!(
            "stopped: wrote the first {} of {} games, marked complete = false",
            terminal::thousands(played.games),
            terminal::thousands(plan.games)
        );
        return Ok(ExitCode::from(INTERRUPTED));
    }
    Ok(ExitCode::SUCCESS)
}

/// The text report: the summary, the first distribution as bars, the speed and the files.
fn text_report<T: Tally>(
    row: &SummaryRow,
    tally: &T,
    speed: &Speed,
    written: &[PathBuf],
) -> String {
    let mut s = terminal::summary(row);
    if let Some((title, hist)) = tally.distributions().first() {
        s.push_str(&terminal::bars(&title.replace('_', " "), hist));
    }
    s.push_str(&format!(
        "  speed: {} games/s on {} ({} per thread), {:.2} s\n",
        terminal::per_second(speed.rate()),
        terminal::threads(speed.threads),
        terminal::per_second(speed.per_thread()),
        speed.seconds
    ));
    for path in written {
        s.push_str(&format!("  wrote {}\n", path.display()));
    }
    s
}

/// Writes a run's files: the distributions and per-game rows first, the summary last, so a
/// summary on disk always comes with its distributions. `sim merge` writes a merged run with it.
pub fn write_outputs<T: Tally>(
    dir: &std::path::Path,
    row: &SummaryRow,
    tally: &T,
    games_file: Option<GamesWriter>,
) -> Result<Vec<PathBuf>> {
    let mut written = vec![write_frame(
        &dir.join("distributions.parquet"),
        &mut distributions_frame(&distribution_rows(&row.policy, 0, tally))?,
    )?];
    if let Some(w) = games_file {
        written.extend(w.finish()?);
    }
    written.push(write_frame(
        &dir.join("summary.parquet"),
        &mut summary_frame(std::slice::from_ref(row))?,
    )?);
    Ok(written)
}

/// The number of worker threads `--threads` gives.
pub fn rayon_threads(threads: Option<usize>) -> usize {
    threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}
