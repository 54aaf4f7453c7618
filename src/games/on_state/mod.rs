//! A game written on the state API alone: its rules as a [`Rulebook`] (how a game is dealt,
//! a [`GameState`], its plain policies by name), no fast engine. [`OnState`] makes a rulebook a
//! whole game: runs, comparisons, sweeps and balance (each game played one decision at a time
//! through the state), the search players `pimc` and `ismcts`, a `random` player, a ladder for
//! `sim evaluate`, and a trace that `sim trace` shows, `sim play` plays with a person and a
//! replay checks. A rulebook registers as any game does: `visitor.game::<OnState<MyRules>>()`.
//!
//! Such a game is slower than one with a fast engine (every decision goes through the state and
//! the policy's move), and its outcome says only what every state says: the win, a draw, the
//! decisions taken and how far seat 0 got.

pub mod ladder;
pub mod outcome;
pub mod trace;

use std::fmt::Debug;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::{Result, SimError};
use crate::games::registry::{Fixture, Registered, Roster};
use crate::games::seats::{Seating, Table};
use crate::games::state::GameState;
use crate::games::twin::Twin;
use crate::games::value::Featured;
use crate::games::{CHUNK, Game, PolicyHelp, unknown_policy_of};
use crate::rng::{GameKey, GameRng};
use crate::rules::RuleSet;
use crate::search::play::{Plain, Player, Searching, Uniform, play_to_end};
use crate::search::seat::{self, SEARCH};
use crate::search::{Defaults, Searcher};

pub use outcome::{Outcome, StateTally};

/// The stream a state game's plain policies draw their coin flips from (one for every seat).
pub const COINS: u64 = 0;
/// The first of the streams the `random` player draws from (`RANDOM + seat`), as in
/// `sim evaluate`'s ladders.
pub const RANDOM: u64 = 40;

/// A game's rules on the state API: what [`OnState`] needs to play it.
pub trait Rulebook: Sized + Send + Sync + 'static {
    /// The command-line name.
    const NAME: &'static str;
    /// One line on what the game is.
    const ABOUT: &'static str;
    /// How the seats relate: solo or a team (a game's win is seat 0's result of 1).
    const TABLE: Table = Table::Solo;
    /// The plain policies, weakest first (the ladder of `sim evaluate` climbs them in this
    /// order); `random` and the search players come beside them.
    const POLICIES: &'static [PolicyHelp];
    /// The policy a run uses without `--policy`.
    const DEFAULT_POLICY: &'static str;
    /// What the search players `ismcts` and `pimc` mean in this game.
    const SEARCH: &'static Defaults;
    /// The search budgets of the ladder without `--budgets`.
    const BUDGETS: &'static [u32];
    /// What the conformance tests play of the game.
    const FIXTURE: Fixture;
    /// The rule parameters.
    type Rules: RuleSet;
    /// A game at a decision, which builds its indistinguishable twin for the fairness test and
    /// offers the features a value estimate reads.
    type State: GameState<Policy: Clone + Send + Sync, Move: Serialize + DeserializeOwned + Send + Sync>
        + Twin
        + Featured
        + Sync
        + 'static;

    /// The plain policy named `name` (one of [`Rulebook::POLICIES`]), if any.
    fn policy(name: &str) -> Option<<Self::State as GameState>::Policy>;

    /// Game `key` under `rules`, dealt up to its first decision (every chance drawn from
    /// `key`'s streams other than [`COINS`], [`RANDOM`] and [`SEARCH`] on).
    fn deal(rules: &Self::Rules, key: GameKey) -> Self::State;

    /// A move in words (`guess higher`).
    fn words(mv: &<Self::State as GameState>::Move) -> String;

    /// What `seat` sees of `state`, a line each (`sim play`).
    fn table(state: &Self::State, seat: u8) -> Vec<String> {
        vec![format!("{:?}", state.observation(seat))]
    }
}

/// The move type of a rulebook's state.
pub type MoveOf<B> = <<B as Rulebook>::State as GameState>::Move;
/// The policy type of a rulebook's state.
pub type PolicyOf<B> = <<B as Rulebook>::State as GameState>::Policy;

/// A seat's player in a rulebook's game, borrowing the game for `'a`.
pub type SeatOf<'a, B> = Box<dyn Player<<B as Rulebook>::State> + 'a>;

/// Who plays one seat of a state game.
#[derive(Clone, Debug)]
enum SeatPlayer<P> {
    /// Uniformly among the legal moves.
    Random,
    /// One of the game's plain policies.
    Plain(P),
    /// A search player.
    Search(Searcher<P>),
}

/// A [`Rulebook`] set up with its rules and a player in each seat: a whole [`Game`].
pub struct OnState<B: Rulebook> {
    rules: B::Rules,
    seats: Vec<SeatPlayer<PolicyOf<B>>>,
    names: Vec<String>,
    name: String,
}

impl<B: Rulebook> OnState<B> {
    /// The player a `--policy` value names, with its display name.
    fn player(spec: &str) -> Result<(SeatPlayer<PolicyOf<B>>, String)> {
        if spec == "random" {
            return Ok((SeatPlayer::Random, spec.into()));
        }
        let plain = |name: &str| {
            B::policy(name)
                .map(|p| (p, name.to_string()))
                .ok_or_else(|| unknown_policy_of::<Self>(name, ""))
        };
        if let Some(searcher) =
            seat::parse_for::<Self, _>(spec, B::SEARCH, B::State::FEATURES, plain)?
        {
            let name = searcher.name.clone();
            return Ok((SeatPlayer::Search(searcher), name));
        }
        let (policy, name) = plain(spec)?;
        Ok((SeatPlayer::Plain(policy), name))
    }

    /// Game `key` dealt under the game's rules.
    pub fn deal(&self, key: GameKey) -> B::State {
        B::deal(&self.rules, key)
    }

    /// The plain policies' generators for game `key`.
    pub fn coins(key: GameKey) -> Vec<GameRng> {
        vec![key.stream(COINS)]
    }

    /// The policy name of `seat`.
    pub fn seat_name(&self, seat: u8) -> &str {
        &self.names[usize::from(seat)]
    }

    /// Plays `state` (game `key`) to its end with each seat's player, seat 0 played by `seat0`
    /// instead if given, each move applied by `apply`; returns the decisions taken.
    fn play_state(
        &self,
        state: &mut B::State,
        key: GameKey,
        seat0: Option<&mut dyn Player<B::State>>,
        mut apply: impl FnMut(&mut B::State, MoveOf<B>),
    ) -> u32 {
        let mut players: Vec<SeatOf<'_, B>> = (0..self.seats.len())
            .map(|seat| self.player_of(seat as u8, key))
            .collect();
        let mut refs: Vec<&mut dyn Player<B::State>> = Vec::with_capacity(players.len());
        let mut seat0 = seat0;
        for (seat, player) in players.iter_mut().enumerate() {
            match (seat, seat0.take()) {
                (0, Some(p)) => refs.push(p),
                _ => refs.push(player.as_mut()),
            }
        }
        let mut decisions = 0;
        play_to_end(state, &mut refs, &mut Self::coins(key), |s, mv| {
            decisions += 1;
            apply(s, mv)
        });
        decisions
    }

    /// The player of `seat` for game `key`, drawing from the game's streams for the seat.
    pub fn player_of(&self, seat: u8, key: GameKey) -> SeatOf<'_, B> {
        let stream = u64::from(seat);
        match &self.seats[usize::from(seat)] {
            SeatPlayer::Random => Box::new(Uniform::new(key.stream(RANDOM + stream))),
            SeatPlayer::Plain(policy) => Box::new(Plain(policy)),
            SeatPlayer::Search(s) => Box::new(Searching::new(s, key.stream(SEARCH + stream))),
        }
    }

    /// True if any seat plays a search player.
    fn searches(&self) -> bool {
        self.seats
            .iter()
            .any(|s| matches!(s, SeatPlayer::Search(_)))
    }
}

impl<B: Rulebook> Game for OnState<B> {
    const NAME: &'static str = B::NAME;
    const ABOUT: &'static str = B::ABOUT;
    const TABLE: Table = B::TABLE;
    type Rules = B::Rules;
    type Outcome = Outcome;
    type Tally = StateTally;

    fn seats(rules: &B::Rules) -> usize {
        B::deal(rules, GameKey::new(0, 0)).seats().into()
    }

    fn new(rules: B::Rules, seating: &Seating) -> Result<Self> {
        let seats = Self::seats(&rules);
        if seating.policies.len() != seats {
            return Err(SimError::input(format!(
                "{} needs {seats} policies, got {}",
                B::NAME,
                seating.policies.len()
            )));
        }
        let (players, names): (Vec<_>, Vec<_>) = seating
            .policies
            .iter()
            .map(|spec| Self::player(spec))
            .collect::<Result<Vec<_>>>()?
            .into_iter()
            .unzip();
        Ok(Self {
            name: seating.label(B::TABLE, &names),
            rules,
            seats: players,
            names,
        })
    }

    fn policies() -> Vec<PolicyHelp> {
        let mut all = vec![PolicyHelp {
            name: "random",
            about: "uniformly at random among the legal moves",
        }];
        all.extend(B::POLICIES.iter().cloned());
        all.extend(seat::help(
            "information-set MCTS over worlds sampled from what the seat has seen",
            "perfect-information Monte Carlo: each move played out in sampled worlds",
        ));
        all
    }

    fn policy_name(&self) -> &str {
        &self.name
    }

    fn rules(&self) -> &B::Rules {
        &self.rules
    }

    fn play(&self, seed: u64, index: u64) -> Outcome {
        let key = GameKey::new(seed, index);
        let mut state = self.deal(key);
        let decisions = self.play_state(&mut state, key, None, |s, mv| s.apply(mv));
        Outcome::of(&state, decisions)
    }

    fn new_tally(&self) -> StateTally {
        StateTally::default()
    }

    fn games_per_chunk(&self) -> u64 {
        if self.searches() { 1 } else { CHUNK }
    }
}

impl<B: Rulebook> Registered for OnState<B> {
    const DEFAULT_POLICY: &'static str = B::DEFAULT_POLICY;
    const FIXTURE: Fixture = B::FIXTURE;
    /// The ladder's baseline (the default policy), its top (ISMCTS at its default budget), and
    /// the uniform random player every game on the state API has.
    const ROSTER: Roster = Roster {
        baseline: B::DEFAULT_POLICY,
        best: "ismcts",
        random: Some("random"),
        plain: B::DEFAULT_POLICY,
    };
}
