//! `sim balance <game>`: the rule values that hit a designer's target. One `--vary` is searched
//! by bisection, several by successive elimination over their combinations (see
//! [`crate::balance`] and docs/balance.md); every candidate plays the same games, and only as
//! many as its verdict needs. Writes `balance.parquet` (one row per candidate played) and the
//! candidates' `summary.parquet` and `distributions.parquet`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;

use crate::balance::answer::{self, Answer};
use crate::balance::bisect::{self, Method};
use crate::balance::contour::{self, Contour};
use crate::balance::figure::{Vocabulary, Want, spelt_shortly};
use crate::balance::grid::{GridSampler, Setup, batch_size, cap_batches};
use crate::balance::sampler::Sampler;
use crate::balance::search::{Played, Search};
use crate::balance::sequential::{MIN_BATCHES, Test, Tuning};
use crate::balance::target::{Metric, Relation, Scale, Target, columns};
use crate::error::{Result, SimError};
use crate::games::Game;
use crate::games::registry::Registered;
use crate::results::balance::{BalanceRow, SearchInfo};
use crate::results::parquet::{fields_frame, write_frame};
use crate::results::result_set::ResultSet;
use crate::results::summary::{RunInfo, Speed, SummaryRow};
use crate::rules::{self, RuleSet};
use crate::sim::grid::GridRun;
use crate::stop;

use super::args::{DEFAULT_GAMES, PlayArgs, SeatArgs};
use super::count::parse_count;
use super::expand::{self, Vary};
use super::grid::{self, CellSpec, Played as GridPlayed};
use super::outputs::Paths;
use super::run::{load_rules, out_path, pool, pool_threads};
use super::sweep;

mod brief;
pub(crate) mod show;

/// `sim balance`: which rule values meet a target.
#[derive(Args, Clone, Debug)]
pub struct BalanceArgs {
    /// The game (see `sim list`)
    pub game: String,
    /// The policy, in every seat but those --vs and --seat set (default: the game's default)
    #[arg(long, short)]
    pub policy: Option<String>,
    /// With --target gap=VALUE: the policy whose win rate the gap is measured from, on the same
    /// deals
    #[arg(long, short)]
    pub baseline: Option<String>,
    /// What to hit, repeatable (a brief: every target must be met): FIGURE>=VALUE, <=VALUE,
    /// =VALUE or =LOW..HIGH, optionally +-TOLERANCE. FIGURE is a summary column of a player,
    /// win_rate[optimal], first_move_adv[best], mean_turns[pimc], the gap of two players'
    /// win rates on the same deals, gap[optimal,bank-at-17], or skill_headroom,
    /// gain_over_baseline; a player is a policy, baseline or best. Without brackets, the figure
    /// is --policy's (gap: --policy minus --baseline). An unknown figure's error lists the
    /// game's
    #[arg(long, required = true, value_name = "FIGURE=VALUE")]
    pub target: Vec<String>,
    /// A rule to vary and its values, as for sweep: start_hp=8..20, guard_zone=0..3,
    /// start_hp=10..20:2, deck=finite,infinite. One --vary is searched by bisection; two or more
    /// give the combinations on target (the contour)
    #[arg(long, value_name = "PATH=VALUES", required = true)]
    pub vary: Vec<String>,
    /// A candidate within this much of the target meets it [default: none for one --vary; 0.02
    /// for a rate or a difference of rates with several]
    #[arg(long, value_name = "E", allow_negative_numbers = true)]
    pub tolerance: Option<f64>,
    /// The chance that every verdict of the search is right together
    #[arg(long, default_value_t = 0.95, allow_negative_numbers = true)]
    pub confidence: f64,
    /// The most games the whole search plays (every policy's games counted) [default: no limit
    /// but --games per candidate]
    #[arg(long, value_parser = parse_count)]
    pub budget: Option<u64>,
    /// Seats with other policies.
    #[command(flatten)]
    pub seats: SeatArgs,
    /// Games (here the most per candidate, default 1M), deals, rules, threads and output.
    #[command(flatten)]
    pub play: PlayArgs,
}

/// How the search went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Way {
    /// One rule: bisection, or the scan after a breach of monotonicity.
    One(Method),
    /// Several rules: successive elimination over the combinations.
    Elimination,
}

impl Way {
    /// Its name in the files.
    pub fn name(self) -> &'static str {
        match self {
            Self::One(Method::Bisection) => "bisection",
            Self::One(Method::Scan(_)) => "scan",
            Self::Elimination => "elimination",
        }
    }
}

/// What the search found.
#[derive(Clone, Debug, PartialEq)]
pub enum Found {
    /// One rule's answer.
    One(Answer),
    /// Several rules' contour.
    Contour(Contour),
}

/// A finished search, ready to be shown and written.
pub struct Balance {
    /// The question.
    pub target: Target,
    /// Its tolerance.
    pub tolerance: f64,
    /// The varied rules.
    pub varies: Vec<Vary>,
    /// The `--vary` flags as given.
    pub specs: Vec<String>,
    /// The values of each candidate, in candidate order.
    pub combos: Vec<Vec<(String, String)>>,
    /// How it searched.
    pub way: Way,
    /// What it found.
    pub found: Found,
    /// The verdicts and order of play.
    pub played: Played,
    /// One row per candidate played, in candidate order.
    pub rows: Vec<BalanceRow>,
    /// The search as a whole.
    pub info: SearchInfo,
    /// The game cap per candidate.
    pub cap: u64,
    /// The budget, if any.
    pub budget: Option<u64>,
    /// The speed of the games.
    pub speed: Speed,
    /// The rules (apart from the varied ones) that differ from the defaults, as (path, value).
    pub changed: Vec<(String, String)>,
}

/// Checks the flags that need no game: confidence, tolerance, budget, shard, games.
fn check_flags(args: &BalanceArgs) -> Result<u64> {
    if let Some(shard) = args.play.shard {
        return Err(SimError::input(format!(
            "--shard {shard}: a balance search decides what to play from what it has played, so it cannot be split; give --games and --threads instead"
        )));
    }
    if let Some(dir) = &args.play.resume {
        return Err(SimError::input(format!(
            "--resume {}: a balance search does not go on from a stopped one; run it again (it is quick to reach where it stopped)",
            dir.display()
        )));
    }
    let c = args.confidence;
    if !(c > 0.0 && c < 1.0) {
        return Err(SimError::input(format!(
            "--confidence {c}: give a probability between 0 and 1, e.g. 0.95"
        )));
    }
    if let Some(e) = args.tolerance
        && !(e.is_finite() && e >= 0.0)
    {
        return Err(SimError::input(format!(
            "--tolerance {e}: give a distance from the target of 0 or more, e.g. 0.02"
        )));
    }
    args.play.games(DEFAULT_GAMES)
}

/// The `--vary` flags, parsed and checked: each value valid for the game, at least two of each.
fn varies<G: Game>(args: &BalanceArgs) -> Result<Vec<Vary>> {
    let varies = sweep::varies::<G>(&args.play, &args.vary)?;
    if let Some((flag, one)) = args
        .vary
        .iter()
        .zip(&varies)
        .find(|(_, v)| v.values.len() < 2)
    {
        return Err(SimError::input(format!(
            "--vary {flag}: a search needs at least two values, e.g. {}=8..20",
            one.path
        )));
    }
    for (flag, vary) in args.vary.iter().zip(&varies) {
        let twice = vary
            .values
            .iter()
            .enumerate()
            .find(|(i, (_, v))| vary.values[..*i].iter().any(|(_, w)| w == v));
        if let Some((_, (text, _))) = twice {
            return Err(SimError::input(format!(
                "--vary {flag}: {text} is given twice; a search plays each value once, so give each once"
            )));
        }
    }
    Ok(varies)
}

/// The tolerance: `--tolerance`, or for several rules the metric's default.
fn tolerance(args: &BalanceArgs, spec: &str, target: &Target, rules: usize) -> Result<f64> {
    match (args.tolerance, rules) {
        (Some(e), _) => Ok(e),
        (None, 1) => Ok(0.0),
        (None, _) => target.metric.default_tolerance().ok_or_else(|| {
            SimError::input(format!(
                "--target {spec}: with several --vary, give --tolerance for {} (how near the target a combination must be to meet it)",
                target.metric.name()
            ))
        }),
    }
}

/// `path = value, path = value`.
pub fn describe(params: &[(String, String)]) -> String {
    params
        .iter()
        .map(|(path, value)| format!("{path} = {value}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every candidate's cells, built and checked: each of `players` (the policy, then the
/// baseline for a gap; a brief's players) under each combination of `combos`.
fn candidates<G: Game>(
    args: &BalanceArgs,
    players: &[&str],
    combos: &[Vec<(String, String)>],
) -> Result<Vec<G>> {
    let specs: Vec<CellSpec> = combos
        .iter()
        .flat_map(|params| {
            players.iter().map(|p| CellSpec {
                policy: p.to_string(),
                params: params.clone(),
            })
        })
        .collect();
    grid::build(&args.play, &args.seats, &specs)
}

/// Checks that a candidate of at most `cap` games in batches of `batch` can reach a verdict on
/// `target`, and that its last game index fits.
fn check_cap(play: &PlayArgs, metric: &Metric, cap: u64, batch: u64) -> Result<()> {
    let batches = cap_batches(cap, batch);
    if metric.game_range().is_none() && batches < MIN_BATCHES {
        return Err(SimError::input(format!(
            "--games {cap}: a verdict on {} needs at least {} games per candidate (its spread is estimated from {MIN_BATCHES} batches of {batch})",
            metric.name(),
            MIN_BATCHES as u64 * batch,
        )));
    }
    if play
        .first_game
        .checked_add(batches as u64 * batch)
        .is_none()
    {
        return Err(SimError::input(
            "--first-game plus --games passes the last game index (2^64 - 1)",
        ));
    }
    Ok(())
}

/// The figures `G`'s targets may name, at its default rules and policy: one line for
/// `sim balance --help` and the unknown-figure error.
pub fn figures<G: Registered>() -> String {
    let columns = G::with_policy(G::Rules::default(), G::DEFAULT_POLICY)
        .map(|g| columns(&g.new_tally()))
        .unwrap_or_default();
    Vocabulary {
        game: G::NAME,
        columns: &columns,
        table: G::TABLE,
        policy: G::DEFAULT_POLICY,
        baseline: None,
        roster: G::ROSTER,
    }
    .offered()
}

/// Runs the search `args` asks for, writes its files and prints its report: one target of one
/// player (or a gap of two) by today's searches, a brief of several by [`brief`].
pub fn execute<G: Registered>(args: &BalanceArgs, default_policy: &str) -> Result<ExitCode> {
    let cap = check_flags(args)?;
    let varies = varies::<G>(args)?;
    let policy = args.policy.as_deref().unwrap_or(default_policy);
    let combos = expand::combinations(&varies);
    let probe: Vec<G> = candidates(args, &[policy], &combos[..1])?;
    let columns = columns(&probe[0].new_tally());
    if let [spec] = &args.target[..]
        && spelt_shortly(spec)
    {
        let target = Target::parse(spec, &columns, args.baseline.is_some())?;
        let players: Vec<&str> = std::iter::once(policy)
            .chain(args.baseline.as_deref())
            .collect();
        return one_target::<G>(args, spec, None, cap, varies, combos, &players, target);
    }
    let vocabulary = Vocabulary {
        game: G::NAME,
        columns: &columns,
        table: G::TABLE,
        policy,
        baseline: args.baseline.as_deref(),
        roster: G::ROSTER,
    };
    let goals = args
        .target
        .iter()
        .map(|spec| vocabulary.goal(spec, args.tolerance))
        .collect::<Result<Vec<_>>>()?;
    if let [goal] = &goals[..] {
        let relation = match goal.want {
            Want::Equal(v) => Some((Relation::Equal, v)),
            Want::AtLeast(v) => Some((Relation::AtLeast, v)),
            Want::AtMost(v) => Some((Relation::AtMost, v)),
            Want::Within(..) => None,
        };
        if let Some((relation, value)) = relation {
            let target = Target {
                metric: goal.figure.metric.clone(),
                relation,
                value,
            };
            let players: Vec<&str> = goal.figure.players.iter().map(String::as_str).collect();
            let own = goal.spec.contains("+-").then_some(goal.tolerance);
            return one_target::<G>(args, &goal.spec, own, cap, varies, combos, &players, target);
        }
    }
    brief::execute::<G>(args, cap, varies, combos, goals)
}

/// One target of one player (or the gap of two, `players`), searched by bisection on one rule
/// or the contour of several; `own` is the target's own tolerance, if it gave one.
#[allow(clippy::too_many_arguments)]
fn one_target<G: Game>(
    args: &BalanceArgs,
    spec: &str,
    own: Option<f64>,
    cap: u64,
    varies: Vec<Vary>,
    combos: Vec<Vec<(String, String)>>,
    players: &[&str],
    target: Target,
) -> Result<ExitCode> {
    let play = &args.play;
    let cells: Vec<G> = candidates(args, players, &combos)?;
    let tolerance = match own {
        Some(e) => e,
        None => tolerance(args, spec, &target, varies.len())?,
    };
    target.check_tolerance(tolerance)?;
    check_cap(play, &target.metric, cap, batch_size(&cells))?;
    let out = out_path(play, G::NAME, "balance")?;
    Paths::new()
        .played(play, &out)
        .policies("--policy", players.iter().copied())
        .seats(&args.seats)
        .check()?;
    let set = ResultSet::create(&out)?;

    let threads = search_threads(play);
    let pool = pool(threads)?;
    let progress = |total, label: &str| {
        play.report
            .progress(total, &format!("{} balance {label}", G::NAME))
    };
    let labels = combos.iter().map(|c| describe(c)).collect();
    let setup = Setup {
        seed: play.seed,
        first_game: play.first_game,
        cap,
        pool: &pool,
        stop: stop::stop_flag(),
        progress: &progress,
    };
    let mut sampler = GridSampler::new(cells, labels, target.metric.clone(), setup);
    let candidate_error = (1.0 - args.confidence) / combos.len() as f64;
    let test = Test::new(
        candidate_error,
        Tuning::default(),
        target.metric.game_range(),
        target.value,
        tolerance,
    );
    let started = Instant::now();
    let mut search = Search::new(&mut sampler, test, args.budget);
    let way = if varies.len() == 1 {
        Way::One(bisect::search(&mut search)?)
    } else {
        contour::search(&mut search)?;
        Way::Elimination
    };
    let played = search.finish();
    let seconds = started.elapsed().as_secs_f64();

    let found = match way {
        Way::One(_) => Found::One(answer::answer(
            &played.verdicts,
            |c| sampler.evidence(c),
            target.relation,
            target.value,
        )),
        Way::Elimination => {
            let sizes: Vec<usize> = varies.iter().map(|v| v.values.len()).collect();
            Found::Contour(contour::contour(&played.verdicts, &sizes))
        }
    };
    let info = SearchInfo {
        game: G::NAME.to_string(),
        policy: sampler.cells()[0].policy_name().to_string(),
        baseline: if players.len() > 1 {
            sampler.cells()[1].policy_name().to_string()
        } else {
            String::new()
        },
        target: target.to_string(),
        metric: target.metric.name().to_string(),
        relation: target.relation.symbol().to_string(),
        target_value: target.value,
        tolerance,
        search: way.name().to_string(),
        vary: args.vary.clone(),
        cap,
        budget: args.budget,
        confidence: args.confidence,
        candidate_error,
        seed: play.seed,
        first_game: play.first_game,
        complete: played.complete,
    };
    let rows = rows(
        &sampler,
        &test,
        &combos,
        &played,
        &found,
        target.metric.scale(),
    );
    let games: u64 = sampler
        .tallies()
        .iter()
        .map(crate::games::Tally::games)
        .sum();
    let speed = Speed {
        games,
        seconds,
        threads,
    };
    let (cells, tallies) = sampler.into_parts();
    let grid_played = summaries(cells, tallies, &combos, &info);
    let balance = Balance {
        target,
        tolerance,
        varies,
        specs: args.vary.clone(),
        combos,
        way,
        found,
        played,
        rows,
        info,
        cap,
        budget: args.budget,
        speed,
        changed: rules::changed(&load_rules::<G>(play, &[])?),
    };
    let mut written = write::<G>(set.dir(), &balance, &grid_played)?;
    written.extend(super::report::beside::<G>(
        &play.report,
        set.dir(),
        balance.speed,
    )?);
    let written = set.commit(&written)?;
    play.report.print(
        || show::text(&balance, &written),
        || show::json(&balance, &written),
    );
    Ok(if balance.played.complete {
        ExitCode::SUCCESS
    } else {
        eprintln!(
            "stopped by {}: the search is unfinished, written marked complete = false",
            stop::cause()
        );
        ExitCode::from(stop::exit_code())
    })
}

/// One row per candidate played, in candidate order.
fn rows<G: Game>(
    sampler: &GridSampler<'_, G>,
    test: &Test,
    combos: &[Vec<(String, String)>],
    played: &Played,
    found: &Found,
    scale: Scale,
) -> Vec<BalanceRow> {
    let per = sampler.cells().len() / combos.len();
    let (answers, neighbours): (Vec<usize>, Vec<usize>) = match found {
        Found::One(Answer::Found {
            crossings,
            main,
            value,
        }) => (
            vec![*value],
            crossings[*main]
                .members()
                .into_iter()
                .filter(|c| c != value)
                .collect(),
        ),
        Found::One(Answer::Outside { nearest, .. }) => (vec![*nearest], Vec::new()),
        Found::One(Answer::Unknown) => (Vec::new(), Vec::new()),
        Found::Contour(contour) => (contour.meets.clone(), Vec::new()),
    };
    (0..combos.len())
        .filter_map(|c| {
            let verdict = played.verdicts[c]?;
            let evidence = sampler.evidence(c);
            Some(BalanceRow {
                params: combos[c].clone(),
                candidate: c,
                step: played
                    .order
                    .iter()
                    .position(|&o| o == c)
                    .map_or(0, |s| s + 1),
                games: evidence.games(),
                metric: scale.clamp(test.estimate95(evidence)),
                decision: scale.clamp(test.interval(evidence)),
                verdict: verdict.word(),
                answer: answers.contains(&c),
                neighbour: neighbours.contains(&c),
                rules: sampler.cells()[c * per].rules().to_json(),
            })
        })
        .collect()
}

/// The summary rows and tallies of every cell that played, as a grid's, for `summary.parquet`
/// and `distributions.parquet`.
fn summaries<G: Game>(
    cells: Vec<G>,
    tallies: Vec<G::Tally>,
    combos: &[Vec<(String, String)>],
    info: &SearchInfo,
) -> GridPlayed<G::Tally> {
    let per = cells.len() / combos.len();
    let run = RunInfo {
        seed: info.seed,
        first_game: info.first_game,
        complete: info.complete,
    };
    let (rows, tallies): (Vec<SummaryRow>, Vec<G::Tally>) = cells
        .iter()
        .zip(tallies)
        .enumerate()
        .filter(|(_, (_, tally))| crate::games::Tally::games(tally) > 0)
        .map(|(i, (game, tally))| {
            let mut row = SummaryRow::new(game, &tally, &run);
            row.params = combos[i / per].clone();
            (row, tally)
        })
        .unzip();
    GridPlayed {
        run: GridRun {
            met: vec![true; tallies.len()],
            tallies,
            pairs: None,
            complete: info.complete,
            played: 0,
        },
        rows,
        seconds: 0.0,
        threads: 0,
        before: 0,
    }
}

/// Writes `distributions.parquet` and `summary.parquet` (the candidates played), then
/// `balance.parquet`, into `dir`.
fn write<G: Game>(
    dir: &std::path::Path,
    balance: &Balance,
    played: &GridPlayed<G::Tally>,
) -> Result<Vec<PathBuf>> {
    let mut written = grid::write::<G>(dir, played)?;
    let fields: Vec<_> = balance
        .rows
        .iter()
        .map(|r| r.fields(&balance.info))
        .collect();
    let frame =
        fields_frame(&fields).and_then(|mut df| write_frame(&dir.join("balance.parquet"), &mut df));
    written.push(frame?);
    Ok(written)
}

/// The workers of a search: `--threads`, at most one per core. More workers than cores never
/// settle a search sooner, and each holds chunks in flight that are played past their
/// candidate's verdict.
pub(crate) fn search_threads(play: &PlayArgs) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    pool_threads(play.threads.map(|t| t.min(cores)), u64::MAX)
}
