//! `sim <game>`: play one policy many times and report it.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use crate::error::{Result, SimError};
use crate::games::CHUNK;
use crate::games::seats::{Seating, Table};
use crate::games::{Game, Tally};
use crate::report::json;
use crate::report::terminal;
use crate::results::games_file::GamesWriter;
use crate::results::manifest::{
    Command, FileDigest, Manifest, RESUME_FILE, RunShape, RunState, SHARD_FILE,
};
use crate::results::parquet::{distributions_frame, summary_frame, write_frame};
use crate::results::result_set::ResultSet;
use crate::results::summary::{RunInfo, Speed, SummaryRow, distribution_rows};
use crate::rules;
use crate::sim::grid::play_chunk;
use crate::sim::runner::{self, Plan};
use crate::stop;

use super::args::{DEFAULT_GAMES, PlayArgs, RunArgs, SeatArgs};
use super::outputs::Paths;
use super::resume::{self, Prefix};

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
        if let Some(other) = set.iter().find(|s| rule_path(s) == "players") {
            return Err(SimError::input(format!(
                "--players {n} and --set {other} both set the players; give one of them"
            )));
        }
        sets.push(format!("players={n}"));
    }
    for (i, s) in set.iter().enumerate() {
        if let Some(earlier) = set[..i].iter().find(|e| rule_path(e) == rule_path(s)) {
            return Err(SimError::input(format!(
                "--set {s}: the rule {} is already set (--set {earlier}); set each rule once",
                rule_path(s)
            )));
        }
    }
    sets.extend(set.iter().cloned());
    sets.extend(extra.iter().cloned());
    rules::load::<G::Rules>(file, &sets)
}

/// The rule path of a `--set PATH=VALUE` (or `--vary PATH=VALUES`) flag.
pub fn rule_path(flag: &str) -> &str {
    flag.split_once('=').map_or(flag, |(path, _)| path).trim()
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

/// The output folder: `--resume DIR` (a stopped run goes on in its own folder), else `--out`,
/// else `results/<game>/<name>` (and the shard's folder in it). Nothing is made yet: the
/// command's [`ResultSet`] checks it and writes it whole.
pub fn out_path(play: &PlayArgs, game: &str, name: &str) -> Result<PathBuf> {
    if let (Some(resume), Some(out)) = (&play.resume, &play.out) {
        let same = resume == out
            || matches!((resume.canonicalize(), out.canonicalize()), (Ok(a), Ok(b)) if a == b);
        if !same {
            return Err(SimError::input(format!(
                "--resume {} writes into its own folder; --out {} names another (leave --out out)",
                resume.display(),
                out.display()
            )));
        }
    }
    Ok(play
        .resume
        .clone()
        .or_else(|| play.out.clone())
        .unwrap_or_else(|| {
            let dir = PathBuf::from("results").join(game).join(slug(name));
            match play.shard {
                Some(shard) => dir.join(shard.folder()),
                None => dir,
            }
        }))
}

/// The name of the run's record in its folder: `shard.json` for a shard, whole or not, and
/// `resume.json` for another run that stopped early; `None` for a whole run that is no shard.
pub fn record_name(shape: &RunShape, complete: bool) -> Option<&'static str> {
    match (shape.shard, complete) {
        (Some(_), _) => Some(SHARD_FILE),
        (None, false) => Some(RESUME_FILE),
        (None, true) => None,
    }
}

/// The prefix of `--resume`, if given, checked against the run `shape` of the cells `rows`
/// (with the empty tallies `fresh`) played in chunks of `chunk`; `columns` are the per-game
/// files' columns if the run writes them.
pub fn prefix<T: Tally>(
    play: &PlayArgs,
    shape: &RunShape,
    rows: &[SummaryRow],
    fresh: &[T],
    chunk: u64,
    columns: Option<&polars::prelude::DataFrame>,
) -> Result<Option<Prefix<T>>> {
    let Some(dir) = &play.resume else {
        return Ok(None);
    };
    let ours = Manifest::new(
        shape,
        &RunState {
            rows,
            tallies: fresh,
            pairs: None,
            next: shape.span.start,
            complete: false,
            games_files: &[],
        },
    );
    resume::load(dir, &ours, fresh, chunk, columns).map(Some)
}

/// The worker threads a run of `chunks` chunks of work uses: `--threads` (default: one per
/// core), but never more than there are chunks, which no more threads could share (a pool of
/// thousands of idle threads only slows a short run down).
pub fn pool_threads(threads: Option<usize>, chunks: u64) -> usize {
    let wanted =
        threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    wanted
        .min(usize::try_from(chunks).unwrap_or(usize::MAX))
        .max(1)
}

/// A pool of `threads` workers.
pub fn pool(threads: usize) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| SimError::input(format!("cannot start worker threads: {e}")))
}

/// Runs `f` on a pool of `threads` workers.
pub fn with_threads<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> Result<T> {
    Ok(pool(threads)?.install(f))
}

/// Plays the run `args` describes and writes its report. If Ctrl-C or SIGTERM stopped it, the
/// completed prefix of games is still written, marked incomplete, with a `resume.json` (a
/// shard's `shard.json`) that `--resume` goes on from; the exit code is then 130 or 143.
pub fn execute<G: Game>(args: &RunArgs, default_policy: &str) -> Result<ExitCode> {
    let play = &args.play;
    let games = play.games(DEFAULT_GAMES)?;
    let policy = args.policy.as_deref().unwrap_or(default_policy);
    let game: G = setup(play, policy, &args.seats)?;
    let out = out_path(play, G::NAME, game.policy_name())?;
    Paths::new()
        .played(play, &out)
        .policies("--policy", [policy])
        .seats(&args.seats)
        .check()?;
    let span = play.span(games);
    let shape = RunShape {
        game: G::NAME,
        command: Command::Run,
        seed: play.seed,
        shard: play.shard,
        run: (play.first_game, games),
        span: span.clone(),
        precision: None,
        baseline: None,
    };
    let info = |complete| RunInfo {
        seed: play.seed,
        first_game: span.start,
        complete,
    };
    let chunk = game.games_per_chunk();
    let fresh = game.new_tally();
    let columns = if args.per_game {
        Some(GamesWriter::columns_of::<G::Outcome>(span.start)?)
    } else {
        None
    };
    let prefix = prefix(
        play,
        &shape,
        &[SummaryRow::new(&game, &fresh, &info(false))],
        std::slice::from_ref(&fresh),
        chunk,
        columns.as_ref(),
    )?;
    let set = ResultSet::create(&out)?;
    let start = prefix.as_ref().map_or(span.start, |p| p.next);
    let mut plan = Plan::new(start, span.end - start, chunk);
    let mut games_file = if args.per_game {
        // Bounds the outcomes held before they are written.
        plan.wave = plan.wave.min(16 * CHUNK);
        let mut w =
            GamesWriter::create::<G::Outcome>(set.dir(), span.start, span.end - span.start)?;
        if let Some(p) = &prefix {
            w.append_files(&p.games_files)?;
        }
        Some(w)
    } else {
        None
    };
    let stop = stop::stop_flag();
    let progress = play
        .report
        .progress(plan.games, &format!("{} {}", G::NAME, game.policy_name()));
    let per_game = args.per_game;
    let seed = play.seed;
    let threads = pool_threads(play.threads, plan.games.div_ceil(plan.chunk));
    let started = Instant::now();
    let mut tally = match prefix {
        Some(mut p) => p.tallies.remove(0),
        None => fresh,
    };
    let played = with_threads(threads, || {
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

    let next = start + played.games;
    let row = SummaryRow::new(&game, &tally, &info(played.complete));
    let mut written = write_outputs(set.dir(), &row, &tally, games_file)?;
    if let Some(name) = record_name(&shape, played.complete) {
        let games_files = games_digests(&written)?;
        let manifest = Manifest::new(
            &shape,
            &RunState {
                rows: std::slice::from_ref(&row),
                tallies: std::slice::from_ref(&tally),
                pairs: None,
                next,
                complete: played.complete,
                games_files: &games_files,
            },
        );
        written.push(manifest.write(set.dir(), name)?);
    }
    let speed = Speed {
        games: played.games,
        seconds: elapsed,
        threads,
    };
    written.extend(super::report::beside::<G>(&play.report, set.dir(), speed)?);
    let written = set.commit(&written)?;
    play.report.print(
        || {
            resumed_line(play, span.start, start)
                + &text_report(
                    &row,
                    &tally,
                    &speed,
                    &written,
                    &rules::changed(game.rules()),
                )
        },
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
            "{}",
            stopped_note(next - span.start, span.end - span.start, &out)
        );
        return Ok(ExitCode::from(stop::exit_code()));
    }
    Ok(ExitCode::SUCCESS)
}

/// The note a stopped command leaves on stderr: what it kept and how to go on.
pub fn stopped_note(played: u64, planned: u64, out: &Path) -> String {
    format!(
        "stopped by {}: wrote the first {} of {} games, marked complete = false; the same command with --resume {} plays the rest",
        stop::cause(),
        terminal::thousands(played),
        terminal::thousands(planned),
        out.display()
    )
}

/// The report's first line for a resumed run: how many games the prefix had played.
pub fn resumed_line(play: &PlayArgs, first: u64, start: u64) -> String {
    match &play.resume {
        Some(dir) => format!(
            "resumed from {}: {} games played before, the rest now\n",
            dir.display(),
            terminal::thousands(start - first)
        ),
        None => String::new(),
    }
}

/// The per-game files among `written`, with their hashes, for the run's record.
pub fn games_digests(written: &[PathBuf]) -> Result<Vec<FileDigest>> {
    written
        .iter()
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("games"))
        })
        .map(|p| FileDigest::of(p))
        .collect()
}

/// The text report: the summary (with the rules `changed` from the defaults under its header),
/// the first distribution as bars, the speed and the files.
fn text_report<T: Tally>(
    row: &SummaryRow,
    tally: &T,
    speed: &Speed,
    written: &[PathBuf],
    changed: &[(String, String)],
) -> String {
    let mut s = terminal::after_header(&terminal::summary(row), &terminal::rules_line(changed));
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
