//! The conformance suite: every game of the registry passes the same checks, found through the
//! registry alone (a new game joins them by registering). A check is a [`Check`], generic over
//! the registry whose commands it runs and the game it checks; each test below runs one check
//! over every game and fails naming each game that failed it, with why.
//!
//! The checks: the same files on any thread count (a plain policy and both search players), a
//! run, a comparison and a sweep split into shards and merged giving the one-process files,
//! every tally's invariants, bad input refused with one clear error and nothing written, random
//! rule sets played or refused without a panic, the fast engine equal to the state API for every
//! plain policy of the ladder, fairness with a leaky control caught, the roster a brief's figures
//! name (policies the game parses, the ladder's baseline), trace and replay, every policy and
//! search player of `sim list`, `sim evaluate` and `sim balance` on tiny budgets, and a
//! person's game at `sim play` recorded and replayed.
//!
//! The games checked are [`Checked`]'s: every game `sim` knows, and High-Low ([`toy`]), a toy
//! game written in this suite on the state API alone, which joins every check and command by
//! its one line there.
//!
//! The commands run in this process through the library's command entry
//! ([`sim::cli::main_with_registry`]), with `-q`.

mod commands;
mod engine;
mod toy;

use std::ffi::OsString;
use std::marker::PhantomData;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use sim::games::on_state::OnState;
use sim::games::registry::{Registered, Registry, Visitor};
use sim::registry::{Games, names};

use crate::common::TempDir;

/// One check, for any game of any registry.
pub trait Check {
    /// What it checks, in a few words (the test folder's name).
    const WHAT: &'static str;
    /// Checks game `G`, running commands through the registry `R`, with `dir` its own folder.
    fn check<R: Registry, G: Registered>(&self, dir: &Path) -> Result<(), String>;
}

/// Runs a check on each game it visits.
struct Over<'a, R, C> {
    check: &'a C,
    root: PathBuf,
    checked: Vec<&'static str>,
    failures: Vec<String>,
    registry: PhantomData<R>,
}

impl<R: Registry, C: Check> Visitor for Over<'_, R, C> {
    fn game<G: Registered>(&mut self) {
        let dir = self.root.join(G::NAME);
        std::fs::create_dir_all(&dir).expect("create the game's test folder");
        self.checked.push(G::NAME);
        let outcome = catch_unwind(AssertUnwindSafe(|| self.check.check::<R, G>(&dir)))
            .unwrap_or_else(|panic| Err(format!("panicked: {}", panic_text(&*panic))));
        if let Err(why) = outcome {
            self.failures.push(format!("{}: {why}", G::NAME));
        }
    }
}

/// Runs `check` on every game of `R`; panics listing every game that failed it. Returns the
/// games checked.
pub fn every_game_of<R: Registry, C: Check>(check: C) -> Vec<&'static str> {
    let tmp = TempDir::new(&format!("conformance-{}", C::WHAT));
    let mut over = Over::<R, C> {
        check: &check,
        root: tmp.path().to_path_buf(),
        checked: Vec::new(),
        failures: Vec::new(),
        registry: PhantomData,
    };
    R::each(&mut over);
    assert!(
        over.failures.is_empty(),
        "{}:\n{}",
        C::WHAT,
        over.failures.join("\n")
    );
    over.checked
}

/// The games the suite checks: every game `sim` knows, then the toy game of [`toy`].
pub struct Checked;

impl Registry for Checked {
    fn each<V: Visitor>(visitor: &mut V) {
        Games::each(visitor);
        visitor.game::<OnState<toy::HighLow>>();
    }
}

/// Runs `check` on every game the suite checks.
fn every_game<C: Check>(check: C) {
    let checked = every_game_of::<Checked, C>(check);
    assert_eq!(checked, names::<Checked>());
}

/// The message of a caught panic.
fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "a panic".into())
}

/// Runs `sim ARGS` over the registry `R` in this process: its exit code, or the panic's message.
pub fn in_process<R: Registry>(args: &[OsString]) -> Result<ExitCode, String> {
    let mut argv = vec![OsString::from("sim")];
    argv.extend(args.iter().cloned());
    catch_unwind(AssertUnwindSafe(|| {
        sim::cli::main_with_registry::<R, _, _>(argv)
    }))
    .map_err(|p| panic_text(&*p))
}

/// Runs `sim ARGS` over `R` in this process; an error unless it succeeds.
pub fn succeeds<R: Registry>(args: &[OsString]) -> Result<(), String> {
    match in_process::<R>(args) {
        Ok(code) if code == ExitCode::SUCCESS => Ok(()),
        Ok(code) => Err(format!("sim {args:?}: exit {code:?}")),
        Err(panic) => Err(format!("sim {args:?} panicked: {panic}")),
    }
}

#[test]
fn the_checked_games_are_the_games_sim_knows_and_the_toy() {
    let mut expected = names::<Games>();
    expected.push("highlow");
    assert_eq!(names::<Checked>(), expected);
}

#[test]
fn every_game_gives_the_same_files_on_any_thread_count() {
    every_game(commands::Threads);
}

#[test]
fn every_game_gives_the_same_files_split_into_shards_and_merged() {
    every_game(commands::Shards);
}

#[test]
fn every_game_refuses_bad_input_with_one_clear_error() {
    every_game(commands::BadInput);
}

#[test]
fn every_game_plays_or_refuses_random_rule_sets_without_a_panic() {
    every_game(commands::RandomRules);
}

#[test]
fn every_game_plays_every_policy_and_search_player_it_lists() {
    every_game(commands::EveryPolicy);
}

#[test]
fn every_game_is_evaluated_on_a_tiny_budget() {
    every_game(commands::Evaluate);
}

#[test]
fn every_game_is_balanced_on_a_tiny_budget() {
    every_game(commands::Balance);
}

#[test]
fn every_games_tallies_keep_their_invariants_and_merge_exactly() {
    every_game(engine::Invariants);
}

#[test]
fn every_games_fast_engine_is_its_state_api_for_every_plain_policy() {
    every_game(engine::StateIsEngine);
}

#[test]
fn every_games_players_see_only_what_their_seat_may_know() {
    every_game(engine::Fairness);
}

#[test]
fn every_games_roster_names_its_policies_and_its_ladder_s_baseline() {
    every_game(engine::Roster);
}

#[test]
fn every_game_is_traced_and_replayed_to_the_same_events_and_outcome() {
    every_game(engine::TraceReplay);
}

#[test]
fn every_game_is_played_by_a_person_recorded_and_replayed() {
    every_game(engine::PlayReplay);
}
