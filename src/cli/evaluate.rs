//! `sim evaluate <game>`: the game's profile for players of every strength (see
//! [`crate::evaluate`] and docs/evaluate.md), one per rule combination of `--vary`, all on the
//! same deals.

use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use serde::{Deserialize, Serialize};

use crate::error::{Result, SimError};
use crate::evaluate::collect::{self, Setup};
use crate::evaluate::data::Tally;
use crate::evaluate::ladder::Evaluable;
use crate::evaluate::ladder::parse_budgets;
use crate::evaluate::profile::Profile;
use crate::report::evaluate::{self as report, Run, Variant};
use crate::results::manifest::{Cell, Command, FORMAT, Manifest, SHARD_FILE};
use crate::results::result_set::ResultSet;
use crate::results::summary::Speed;
use crate::rules::RuleSet;
use crate::stats::interval::Z95;
use crate::stop::{cause, exit_code, stop_flag};

use super::args::{DEFAULT_PRECISION_CAP, PlayArgs};
use super::expand::combinations;
use super::outputs::Paths;
use super::report::beside;
use super::run::{load_rules, out_path, pool_threads, with_threads};
use super::sweep::varies;

/// The default precision: every win rate's 95% interval at most +-3 points.
pub const DEFAULT_PRECISION: f64 = 0.03;

/// `sim evaluate`: what a rule set does to a game, for players of every strength.
#[derive(Args, Clone, Debug)]
pub struct EvaluateArgs {
    /// The game (see `sim list`)
    pub game: String,
    /// The widest 95% interval any win rate may have, as a half-width: sets the deals to the
    /// fewest that guarantee it whatever the rate (1,064 for the default 0.03)
    #[arg(long, value_name = "HALF_WIDTH", conflicts_with = "games")]
    pub precision: Option<f64>,
    /// The search rungs' budgets: a list (19,38,75) or a doubling range (25..1600)
    #[arg(long, value_name = "LIST|A..B")]
    pub budgets: Option<String>,
    /// Ludii's ideal duration: lengths from A to B (in the game's unit) score 1
    #[arg(long, value_name = "A..B")]
    pub ideal_turns: Option<String>,
    /// A rule to vary and its values (as for sim sweep): one profile per combination, side by
    /// side on the same deals; repeat for more
    #[arg(long, value_name = "PATH=VALUES")]
    pub vary: Vec<String>,
    /// Deals, seed, rules, threads and output.
    #[command(flatten)]
    pub play: PlayArgs,
}

/// The help of `--games` under `sim evaluate`.
pub const GAMES_HELP: &str =
    "Deals every line plays: 1000, 10K, 1e5 [default: what --precision needs, 1,064 for +-0.03]";

/// The fewest games that give a share's 95% Wilson interval a half-width of at most `e`
/// whatever the share: the half-width is widest at one half, `z / (2 sqrt(n + z^2))`.
pub fn games_for(e: f64) -> u64 {
    let z2 = Z95 * Z95;
    (z2 / (4.0 * e * e) - z2).ceil().max(1.0) as u64
}

/// `--ideal-turns A..B`, checked.
fn parse_ideal(text: &str) -> Result<(u32, u32)> {
    let bad = |why: &str| SimError::input(format!("--ideal-turns {text}: {why}"));
    let (a, b) = text
        .split_once("..")
        .ok_or_else(|| bad("expected A..B, e.g. 12..20"))?;
    let number = |s: &str| {
        s.trim()
            .parse::<u32>()
            .map_err(|_| bad("A and B are whole numbers, e.g. 12..20"))
    };
    let (a, b) = (number(a)?, number(b)?);
    if a == 0 || b < a {
        return Err(bad("give 1 <= A <= B, e.g. 12..20"));
    }
    Ok((a, b))
}

/// What an evaluation's shard records of one rule set: what was played and its tally.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardCell {
    /// The rule set's label in reports.
    pub label: String,
    /// The ladder and table.
    pub setup: Setup,
    /// `--ideal-turns`.
    pub ideal: Option<(u32, u32)>,
    /// The integer tally.
    pub tally: Tally,
}

/// The deals of the whole run: `--games`, else what `--precision` needs.
fn deals(args: &EvaluateArgs) -> Result<u64> {
    let games = match (args.play.games, args.precision) {
        (Some(n), _) => n,
        (None, Some(e)) if e > 0.0 && e < 0.5 => {
            let n = games_for(e);
            if n > DEFAULT_PRECISION_CAP {
                // The half-width the most deals give.
                let z2 = Z95 * Z95;
                let finest = Z95 / (2.0 * (DEFAULT_PRECISION_CAP as f64 + z2).sqrt());
                return Err(SimError::input(format!(
                    "--precision {e}: needs {n} deals on every line, over the most an evaluation plays ({DEFAULT_PRECISION_CAP}); give a half-width of {finest:.1e} or more, or --games"
                )));
            }
            n
        }
        (None, Some(e)) => {
            return Err(SimError::input(format!(
                "--precision {e}: give a half-width between 0 and 0.5, e.g. 0.03"
            )));
        }
        (None, None) => games_for(DEFAULT_PRECISION),
    };
    args.play.games(games)
}

/// A rule set's label: its varied values, or `default rules`.
fn variant_label(params: &[(String, String)], play: &PlayArgs) -> String {
    if params.is_empty() {
        return match (play.set.is_empty() && play.rules.is_none(), play.players) {
            (true, None) => "default rules".into(),
            (true, Some(n)) => format!("players={n}"),
            (false, _) => "the rules given".into(),
        };
    }
    params
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Plays the evaluation, writes its files and prints its report. Bad input is refused before
/// any game is played or file written.
pub fn execute<G: Evaluable>(args: &EvaluateArgs, default_policy: &str) -> Result<ExitCode> {
    let play = &args.play;
    let budgets = match &args.budgets {
        Some(text) => parse_budgets(text)?,
        None => G::BUDGETS.to_vec(),
    };
    let ideal = args.ideal_turns.as_deref().map(parse_ideal).transpose()?;
    let varies = varies::<G>(play, &args.vary)?;
    let deals = deals(args)?;
    let combos = combinations(&varies);
    let games: Vec<G> = combos
        .iter()
        .map(|params| {
            let sets: Vec<String> = params.iter().map(|(p, v)| format!("{p}={v}")).collect();
            G::with_policy(load_rules::<G>(play, &sets)?, default_policy)
        })
        .collect::<Result<_>>()?;
    if let Some(dir) = &play.resume {
        return Err(SimError::input(format!(
            "--resume {}: sim evaluate cannot go on from a stopped evaluation; play it again",
            dir.display()
        )));
    }
    let out = out_path(play, G::NAME, "evaluate")?;
    Paths::new().played(play, &out).check()?;
    let set = ResultSet::create(&out)?;
    let dir = set.dir();

    let started = Instant::now();
    let extras: Vec<G::Extra> = games.iter().map(Evaluable::extra).collect::<Result<_>>()?;
    let subjects = games
        .iter()
        .zip(&extras)
        .map(|(g, e)| g.subject(e, &budgets))
        .collect::<Result<Vec<_>>>()?;
    let setup_seconds = started.elapsed().as_secs_f64();
    let setups: Vec<Setup> = subjects.iter().map(collect::Subject::setup).collect();
    let lines: u64 = setups
        .iter()
        .map(|s| collect::Layout::of(s).map(|l| l.lines.len() as u64))
        .sum::<Result<u64>>()?;
    let span = play.span(deals);
    let progress = play.report.progress(
        (span.end - span.start) * lines,
        &format!("{} evaluate", G::NAME),
    );
    let threads = pool_threads(play.threads, span.end - span.start);
    let collected = with_threads(threads, || {
        collect::collect(&subjects, play.seed, span.clone(), stop_flag(), &progress)
    })??;
    progress.finish();
    let played = collected.tallies.first().map_or(0, Tally::deals);
    if !collected.complete && played == 0 {
        // Nothing to profile: the staging folder goes with `set`.
        eprintln!(
            "stopped by {} before a deal was complete: nothing written",
            cause()
        );
        return Ok(ExitCode::from(exit_code()));
    }

    let variants = combos
        .iter()
        .zip(&games)
        .zip(setups.iter().zip(&collected.tallies))
        .zip(&collected.costs)
        .map(|(((params, game), (setup, tally)), cost)| {
            Ok(Variant {
                label: variant_label(params, play),
                params: params.clone(),
                rules: game.rules().to_json(),
                profile: Profile::of(setup, tally, ideal)?,
                cost: Some(cost.clone()),
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let run = Run {
        game: G::NAME.to_string(),
        seed: play.seed,
        first_game: span.start,
        complete: collected.complete,
        setup_seconds: Some(setup_seconds),
        wall_seconds: Some(collected.seconds),
        threads,
        ideal,
    };
    let mut written = report::write(dir, &run, &variants)?;
    if let Some(shard) = play.shard {
        let cells: Vec<ShardCell> = variants
            .iter()
            .zip(setups)
            .zip(collected.tallies)
            .map(|((v, setup), tally)| ShardCell {
                label: v.label.clone(),
                setup,
                ideal,
                tally,
            })
            .collect();
        let manifest = Manifest {
            format: FORMAT,
            version: env!("CARGO_PKG_VERSION").to_string(),
            game: G::NAME.to_string(),
            command: Command::Evaluate,
            seed: play.seed,
            shard,
            run_first_game: play.first_game,
            run_games: deals,
            start: span.start,
            end: span.end,
            next: span.start + cells.first().map_or(0, |c| c.tally.deals()),
            complete: collected.complete,
            precision: None,
            baseline: None,
            games_files: Vec::new(),
            cells: variants
                .iter()
                .zip(&cells)
                .map(|(v, cell)| Cell {
                    policy: ladder_label(&cell.setup),
                    params: v.params.clone(),
                    rules: v.rules.clone(),
                    tally: cell,
                })
                .collect(),
            pairs: None,
            digest: String::new(),
        }
        .sealed();
        written.push(manifest.write(dir, SHARD_FILE)?);
    }
    let speed = Speed {
        games: variants.first().map_or(0, |v| v.profile.deals) * lines,
        seconds: collected.seconds,
        threads,
    };
    written.extend(beside::<G>(&play.report, dir, speed)?);
    let written = set.commit(&written)?;
    play.report.print(
        || report::text(&run, &variants, &written),
        || report::json(&run, &variants, &written),
    );
    Ok(if collected.complete {
        ExitCode::SUCCESS
    } else {
        eprintln!(
            "stopped by {}: wrote the first {} of {} deals, marked complete = false",
            cause(),
            variants.first().map_or(0, |v| v.profile.deals),
            span.end - span.start
        );
        ExitCode::from(exit_code())
    })
}

/// A ladder's rungs in a line: what a shard's cell names as its "policy".
pub fn ladder_label(setup: &Setup) -> String {
    let names: Vec<&str> = setup.rungs.iter().map(|r| r.name.as_str()).collect();
    format!("ladder {}", names.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::interval::Proportion;

    #[test]
    fn the_default_deals_hold_every_share_within_three_points() {
        let n = games_for(DEFAULT_PRECISION);
        assert_eq!(n, 1064);
        let worst = |n: u64| {
            (0..=n)
                .map(|k| Proportion::wilson(k, n).half_width())
                .fold(0.0, f64::max)
        };
        assert!(worst(n) <= DEFAULT_PRECISION, "{}", worst(n));
        assert!(worst(n - 1) > DEFAULT_PRECISION, "{}", worst(n - 1));
    }

    #[test]
    fn ideal_turns_are_checked() {
        assert_eq!(parse_ideal("12..20").unwrap(), (12, 20));
        assert_eq!(parse_ideal("5..5").unwrap(), (5, 5));
        for bad in ["5..2", "0..3", "x..3", "12", "3..", "-1..4"] {
            let e = parse_ideal(bad).unwrap_err().to_string();
            assert!(e.starts_with(&format!("--ideal-turns {bad}:")), "{e}");
        }
    }
}
