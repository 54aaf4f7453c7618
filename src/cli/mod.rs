//! The command line: parse once, dispatch to one handler per command, map errors to exit codes.

/// `println!` for reports, through [`output::text`]: quiet on a broken pipe.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::cli::output::text(&format!("{}\n", format_args!($($arg)*)))
    };
}

pub mod args;
pub mod balance;
pub mod compare;
pub mod count;
pub mod evaluate;
pub mod expand;
pub mod explore;
pub mod format;
pub mod grid;
pub mod learn;
pub mod list;
pub mod merge;
pub mod output;
pub mod outputs;
pub mod play;
pub mod report;
pub mod resume;
pub mod run;
pub mod same_run;
pub mod shell;
pub mod solve;
pub mod sweep;
pub mod tournament;
pub mod trace;

use std::process::ExitCode;

use clap::{ArgMatches, Args, Command, FromArgMatches};

use crate::error::{Result, SimError};
use crate::games::registry::{Registered, Registry, SolverVisitor, Visitor};
use crate::games::solvable::Solvable;
use crate::registry::Games;
use crate::report::html::GameFacts;

use args::{CompareArgs, RunArgs, SweepArgs};
use balance::BalanceArgs;
use evaluate::EvaluateArgs;
use explore::ExploreArgs;
use learn::LearnArgs;
use merge::MergeArgs;
use play::PlayCmdArgs;
use report::ReportCmdArgs;
use solve::SolveArgs;
use trace::TraceArgs;

/// Exit code for bad input of any kind, and for a command that could not write its results
/// (nothing is changed then).
pub const USAGE: u8 = 2;

/// A game the command line can play: its handlers, each the generic command for this game,
/// built by visiting the registry ([`crate::registry`]).
pub struct GameEntry {
    /// The subcommand.
    pub name: &'static str,
    /// One line on the game.
    pub about: &'static str,
    /// The policy a run uses without `--policy`.
    pub default_policy: &'static str,
    /// Plays a run.
    pub run: fn(&RunArgs, &str) -> Result<ExitCode>,
    /// Compares policies.
    pub compare: fn(&CompareArgs) -> Result<ExitCode>,
    /// Sweeps rule values.
    pub sweep: fn(&SweepArgs) -> Result<ExitCode>,
    /// Searches rule values for a target.
    pub balance: fn(&BalanceArgs, &str) -> Result<ExitCode>,
    /// The figures a balance target may name, in one line.
    pub figures: fn() -> String,
    /// Explores which rules move which figures.
    pub explore: fn(&ExploreArgs, &str) -> Result<ExitCode>,
    /// The `sim list` text.
    pub describe: fn() -> String,
    /// Traces one game.
    pub trace: fn(&TraceArgs, &str) -> Result<ExitCode>,
    /// Plays one game with a person.
    pub play: fn(&PlayCmdArgs, &str) -> Result<ExitCode>,
    /// Merges the shards of a run of this game.
    pub merge: fn(&merge::MergeArgs, Vec<merge::Raw>) -> Result<ExitCode>,
    /// What the HTML report needs to know of the game.
    pub facts: GameFacts,
    /// Evaluates the game (its ladder).
    pub evaluate: fn(&EvaluateArgs, &str) -> Result<ExitCode>,
    /// Learns or checks a value estimate of the game.
    pub learn: fn(&LearnArgs, &str) -> Result<ExitCode>,
    /// Solves the game, if it has a solver.
    pub solve: Option<fn(&SolveArgs) -> Result<ExitCode>>,
}

/// Builds the entries of the games it visits.
struct Entries(Vec<GameEntry>);

impl Visitor for Entries {
    fn game<G: Registered>(&mut self) {
        struct Solver(Option<fn(&SolveArgs) -> Result<ExitCode>>);
        impl SolverVisitor for Solver {
            fn solver<S: Solvable>(&mut self) {
                self.0 = Some(solve::execute::<S>);
            }
        }
        let mut solver = Solver(None);
        G::solver(&mut solver);
        self.0.push(GameEntry {
            name: G::NAME,
            about: G::ABOUT,
            default_policy: G::DEFAULT_POLICY,
            run: run::execute::<G>,
            compare: compare::execute::<G>,
            sweep: sweep::execute::<G>,
            balance: balance::execute::<G>,
            figures: balance::figures::<G>,
            explore: explore::execute::<G>,
            describe: list::describe::<G>,
            trace: trace::execute::<G>,
            play: play::execute::<G>,
            merge: merge::merge::<G>,
            facts: GameFacts::of::<G>(),
            evaluate: evaluate::execute::<G>,
            learn: learn::execute::<G>,
            solve: solver.0,
        });
    }
}

/// The entries of the games of `R`, in the order `sim list` shows them.
pub fn games_of<R: Registry>() -> Vec<GameEntry> {
    let mut entries = Entries(Vec::new());
    R::each(&mut entries);
    entries.0
}

/// Every game `sim` knows, in the order `sim list` shows them.
pub fn games() -> Vec<GameEntry> {
    games_of::<Games>()
}

/// `sim balance --help`'s closing lines: an example, and every game's figures.
fn balance_help(games: &[GameEntry]) -> String {
    let mut s = String::from(
        "Example: sim balance crownfall --policy optimal --target win_rate=0.75 --vary start_hp=8..20\n\
         Example: sim balance crownfall --target 'win_rate[optimal]>=0.7' --target 'gap[best,baseline]>=0.25' --vary start_hp=8..20\n\n\
         Figures a --target may name, per game:",
    );
    for g in games {
        s.push_str(&format!("\n  {}", (g.figures)()));
    }
    s
}

fn command(games: &[GameEntry]) -> Command {
    let mut cmd = Command::new("sim")
        .version(env!("CARGO_PKG_VERSION"))
        .about("Monte Carlo strategy simulator and solver for card games")
        .subcommand_required(true)
        .arg_required_else_help(true)
        .subcommand(
            Command::new("list")
                .about("List the games, their policies and their rules (default, allowed range, meaning)")
                .arg(
                    clap::Arg::new("game")
                        .value_name("GAME")
                        .help("List this game alone"),
                ),
        )
        .subcommand(
            CompareArgs::augment_args(Command::new("compare"))
                .about("Compare policies on the same deals: ranked win rates, paired differences")
                .after_help(
                    "Example: sim compare crownfall --policy bank-at-12..21 --baseline bank-at-target --games 2M",
                ),
        )
        .subcommand(
            SweepArgs::augment_args(Command::new("sweep"))
                .about("Play policies under every combination of varied rule values")
                .after_help(
                    "Example: sim sweep crownfall --policy bank-at-target --vary guard_damage.king=1..5 --vary start_hp=12,16,20",
                ),
        )
        .subcommand(
            BalanceArgs::augment_args(Command::new("balance"))
                .about("Find the rule values that hit a target: bisection on one rule, the contour of several")
                .after_help(balance_help(games)),
        )
        .subcommand(
            ExploreArgs::augment_args(Command::new("explore"))
                .about("Which rules matter: every rule's swing on each figure, ranked, each rule played until settled")
                .after_help("Example: sim explore crownfall --set deck=infinite"),
        )
        .subcommand(
            TraceArgs::augment_args(Command::new("trace"))
                .about("Show exactly one game of a run: every chance event and decision, in words or JSON lines")
                .after_help("Example: sim trace crownfall --policy optimal --seed 7 --game 123 [--json]"),
        )
        .subcommand(
            PlayCmdArgs::augment_args(Command::new("play"))
                .about("Play a dealt game in the terminal, with a policy's hints; record or replay it")
                .after_help("Example: sim play scoundrel --seed 42 --game 3 --hints lookahead"),
        )
        .subcommand(
            MergeArgs::augment_args(Command::new("merge"))
                .about("Merge the shards of a run (--shard I/N) into the files of a single run")
                .after_help("Example: sim merge results/big/shard-* --out results/big/all"),
        )
        .subcommand(
            ReportCmdArgs::augment_args(Command::new("report"))
                .about("Write one self-contained HTML page of figures from results already written")
                .after_help("Example: sim report results/crownfall/sweep --out king-guard.html"),
        )
        .subcommand(
            EvaluateArgs::augment_args(Command::new("evaluate"))
                .mut_arg("games", |a| a.help(evaluate::GAMES_HELP))
                .about("Profile a game for players of every strength: skill ladder, luck, seats, duration, tension")
                .after_help(
                    "Example: sim evaluate crownfall --vary guard_damage.king=1..5 --ideal-turns 12..20",
                ),
        )
        .subcommand(
            LearnArgs::augment_args(Command::new("learn"))
                .about("Learn a value estimate (the seat to move's chance to win) from seeded games, or check one's calibration")
                .after_help(
                    "Example: sim learn regicide --games 2000 --seed 1 --out strategies/regicide/value-solo.json",
                ),
        )
        .subcommand(
            SolveArgs::augment_args(Command::new("solve"))
                .about("Solve a game: the best policy, its chart and strategy file"),
        )
        .subcommand(shell::completions_command())
        .subcommand(shell::man_command());
    for g in games {
        let sub = RunArgs::augment_args(Command::new(g.name))
            .about(g.about)
            .after_help(format!(
                "Example: sim {} --policy {} --games 10M",
                g.name, g.default_policy
            ));
        cmd = cmd.subcommand(sub);
    }
    // `--seed -1` is a value (refused by its flag's parser, which names the flag), not an
    // unknown flag `-1`.
    cmd.mut_subcommands(|sub| sub.allow_negative_numbers(true))
}

fn known_commands(games: &[GameEntry]) -> String {
    let names: Vec<&str> = games.iter().map(|g| g.name).collect();
    format!(
        "known games: {}; other commands: list, compare, sweep, balance, explore, evaluate, learn, merge, report, solve, trace, play, completions, man",
        names.join(", ")
    )
}

/// Runs `sim` with `args` (the first being the program name) and returns its exit code.
pub fn main_with<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    main_with_registry::<Games, I, T>(args)
}

/// [`main_with`] over the games of `R` (the games `sim` knows and any a caller adds).
pub fn main_with_registry<R, I, T>(args: I) -> ExitCode
where
    R: Registry,
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let games = games_of::<R>();
    let matches = match command(&games).try_get_matches_from(args) {
        Ok(m) => m,
        Err(e) => return clap_error(e, &games),
    };
    match dispatch(&matches, &games) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(USAGE)
        }
    }
}

fn dispatch(matches: &ArgMatches, games: &[GameEntry]) -> Result<ExitCode> {
    let (name, sub) = matches.subcommand().expect("a subcommand is required");
    if name == "list" {
        match sub.get_one::<String>("game") {
            Some(game) => outln!("{}", (find(games, game)?.describe)()),
            None => games.iter().for_each(|g| outln!("{}", (g.describe)())),
        }
        return Ok(ExitCode::SUCCESS);
    }
    let parse_error = |e: clap::Error| SimError::input(e.to_string());
    if plays_games(name) {
        crate::stop::claim();
    }
    match name {
        "completions" => shell::completions(sub, command(games)),
        "man" => shell::man(sub, command(games)),
        "solve" => {
            let args = SolveArgs::from_arg_matches(sub).map_err(parse_error)?;
            (solver(games, &args.game)?)(&args)
        }
        "compare" => {
            let args = CompareArgs::from_arg_matches(sub).map_err(parse_error)?;
            (find(games, &args.grid.game)?.compare)(&args)
        }
        "merge" => {
            let args = MergeArgs::from_arg_matches(sub).map_err(parse_error)?;
            merge::execute(&args, games)
        }
        "report" => {
            let args = ReportCmdArgs::from_arg_matches(sub).map_err(parse_error)?;
            report::execute(&args, games)
        }
        "sweep" => {
            let args = SweepArgs::from_arg_matches(sub).map_err(parse_error)?;
            (find(games, &args.grid.game)?.sweep)(&args)
        }
        "balance" => {
            let args = BalanceArgs::from_arg_matches(sub).map_err(parse_error)?;
            let game = find(games, &args.game)?;
            (game.balance)(&args, game.default_policy)
        }
        "explore" => {
            let args = ExploreArgs::from_arg_matches(sub).map_err(parse_error)?;
            let game = find(games, &args.game)?;
            (game.explore)(&args, game.default_policy)
        }
        "evaluate" => {
            let args = EvaluateArgs::from_arg_matches(sub).map_err(parse_error)?;
            let game = find(games, &args.game)?;
            (game.evaluate)(&args, game.default_policy)
        }
        "learn" => {
            let args = LearnArgs::from_arg_matches(sub).map_err(parse_error)?;
            let game = find(games, &args.game)?;
            (game.learn)(&args, game.default_policy)
        }
        "trace" => {
            let args = TraceArgs::from_arg_matches(sub).map_err(parse_error)?;
            let game = find(games, &args.game)?;
            (game.trace)(&args, game.default_policy)
        }
        "play" => {
            let args = PlayCmdArgs::from_arg_matches(sub).map_err(parse_error)?;
            let game = find(games, &args.game)?;
            (game.play)(&args, game.default_policy)
        }
        _ => {
            let game = find(games, name)?;
            let args = RunArgs::from_arg_matches(sub).map_err(parse_error)?;
            (game.run)(&args, game.default_policy)
        }
    }
}

/// True for the commands that stop themselves on a signal (they keep what they completed): every
/// one that plays many games. The others end at once.
fn plays_games(command: &str) -> bool {
    !matches!(
        command,
        "completions" | "man" | "solve" | "merge" | "report" | "trace" | "play"
    )
}

/// The solve command of the game `name`, or an error naming the games that have a solver.
fn solver(games: &[GameEntry], name: &str) -> Result<fn(&SolveArgs) -> Result<ExitCode>> {
    let found = games.iter().find(|g| g.name == name).and_then(|g| g.solve);
    found.ok_or_else(|| {
        let names: Vec<&str> = games
            .iter()
            .filter(|g| g.solve.is_some())
            .map(|g| g.name)
            .collect();
        SimError::input(format!(
            "sim solve knows {} only, not {name}",
            names.join(", ")
        ))
    })
}

fn find<'a>(games: &'a [GameEntry], name: &str) -> Result<&'a GameEntry> {
    games.iter().find(|g| g.name == name).ok_or_else(|| {
        let names: Vec<&str> = games.iter().map(|g| g.name).collect();
        SimError::input(format!(
            "unknown game {name}: known games are {}",
            names.join(", ")
        ))
    })
}

fn clap_error(e: clap::Error, games: &[GameEntry]) -> ExitCode {
    use clap::error::{ContextKind, ErrorKind};
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = e.print();
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            ExitCode::from(USAGE)
        }
        ErrorKind::InvalidSubcommand => {
            let given = e
                .get(ContextKind::InvalidSubcommand)
                .map(|v| v.to_string())
                .unwrap_or_default();
            // `sim help --help`: clap's help command takes `--help` for a command's name.
            if given == "--help" || given == "-h" {
                print!("{}", command(games).render_help());
                return ExitCode::SUCCESS;
            }
            eprintln!(
                "error: unknown game or command '{given}': {}",
                known_commands(games)
            );
            ExitCode::from(USAGE)
        }
        _ => {
            eprintln!("{}", one_line(&e.to_string()));
            ExitCode::from(USAGE)
        }
    }
}

/// A clap error message on one line: its first paragraph (the error and what it names, such as
/// the missing arguments listed under it) with its lines joined, and clap's tip if it gives one.
fn one_line(text: &str) -> String {
    let mut paragraphs = text
        .split("\n\n")
        .map(|p| {
            p.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .filter(|p| !p.is_empty());
    let mut line = paragraphs
        .next()
        .unwrap_or_else(|| "error: bad arguments".to_string());
    if let Some(tip) = paragraphs.find(|p| p.starts_with("tip:")) {
        line.push_str(&format!(" ({tip})"));
    }
    line
}
