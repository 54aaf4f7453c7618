//! Search players at a game's table: parsed from `--policy` beside the game's plain policies,
//! and a real game played through the state API with each seat's player.

use crate::error::{Result, SimError};
use crate::games::state::GameState;
use crate::games::{Game, PolicyHelp, unknown_policy_of};
use crate::rng::{GameKey, GameRng};

use super::play::{Plain, Player, Searching, play_to_end};
use super::think::Think;
use super::{Defaults, Searcher, settings};

/// The first of the game streams the searching seats draw from (`SEARCH + seat`).
pub const SEARCH: u64 = 16;

/// The search player a `--policy` value names (`ismcts`, `pimc-200`, a strategy file with a
/// `[search]` table), its rollout parsed by the game's `parse_plain`; `Ok(None)` for anything
/// else. A bad budget or file is refused naming the value.
pub fn parse<P>(
    spec: &str,
    defaults: &Defaults,
    parse_plain: impl Fn(&str) -> Result<(P, String)>,
) -> Result<Option<Searcher<P>>> {
    let Some((name, settings)) = settings::parse(spec, defaults)? else {
        return Ok(None);
    };
    let (rollout, _) = parse_plain(&settings.rollout)
        .map_err(|e| SimError::input(format!("{spec}: its rollout policy: {e}")))?;
    Ok(Some(Searcher {
        name,
        settings,
        rollout,
    }))
}

/// [`parse`] for game `G`, whose value estimates read the features `features` (a strategy
/// file's value model must be one of `G`'s over them): an error about a policy name (not a
/// strategy file) is given as the game's unknown-policy error ([`unknown_policy_of`]).
pub fn parse_for<G: Game, P>(
    spec: &str,
    defaults: &Defaults,
    features: &[&str],
    parse_plain: impl Fn(&str) -> Result<(P, String)>,
) -> Result<Option<Searcher<P>>> {
    let searcher = parse(spec, defaults, parse_plain).map_err(|e| {
        if spec.ends_with(".toml") {
            e
        } else {
            unknown_policy_of::<G>(spec, &e.to_string())
        }
    })?;
    if let Some(model) = searcher.as_ref().and_then(|s| s.settings.model.as_ref()) {
        model
            .check(G::NAME, features)
            .map_err(|why| SimError::input(format!("{spec}: {}: {why}", model.source)))?;
    }
    Ok(searcher)
}

/// The help of the two search players for `sim list` and errors: what `ismcts[-N]` and
/// `pimc[-N]` do in the game, in its words (its defaults, its rollouts, its decisions).
pub fn help(ismcts: &'static str, pimc: &'static str) -> Vec<PolicyHelp> {
    vec![
        PolicyHelp {
            name: "ismcts[-N]",
            about: ismcts,
        },
        PolicyHelp {
            name: "pimc[-N]",
            about: pimc,
        },
    ]
}

/// The budget of states a deal `clairvoyant[-K]` names: K thousand, `default` thousand without
/// K; `Ok(None)` if `spec` names no clairvoyant; the reason if K is out of range.
pub fn clairvoyant_budget(
    spec: &str,
    default: u64,
) -> std::result::Result<Option<u64>, &'static str> {
    let Some(k) = spec.strip_prefix("clairvoyant") else {
        return Ok(None);
    };
    let thousands = match k.strip_prefix('-') {
        None if k.is_empty() => default,
        Some(n) => match n.parse::<u64>() {
            Ok(n) if (1..=10_000_000).contains(&n) => n,
            _ => return Err("clairvoyant-K takes K from 1 to 10000000"),
        },
        None => return Ok(None),
    };
    Ok(Some(thousands * 1000))
}

/// Each seat's player: the plain policy of `plain[seat]`, unless `search[seat]` holds a search
/// player.
#[derive(Clone, Copy, Debug)]
pub struct Seats<'a, P> {
    /// Each seat's plain policy (unused where a search player sits).
    pub plain: &'a [P],
    /// Each seat's search player, if any.
    pub search: &'a [Option<Searcher<P>>],
}

/// Plays `state` (dealt for game `key`) to its end with the players of `seats`, seat 0 played by
/// `seat0` instead if given (a person, a solver), each move applied by `apply`; `coins` holds the
/// plain policies' generators (one shared, or one per seat). Returns the search players' times.
pub fn play<S: GameState>(
    state: &mut S,
    seats: Seats<S::Policy>,
    key: GameKey,
    coins: &mut [GameRng],
    seat0: Option<&mut dyn Player<S>>,
    apply: impl FnMut(&mut S, S::Move),
) -> Think {
    let n = usize::from(state.seats());
    let mut searching: Vec<Option<Searching<S>>> = (0..n)
        .map(|seat| {
            let s = seats.search.get(seat)?.as_ref()?;
            Some(Searching::new(s, key.stream(SEARCH + seat as u64)))
        })
        .collect();
    let mut plains: Vec<Plain<S::Policy>> = seats.plain[..n].iter().map(Plain).collect();
    let mut seat0 = seat0;
    {
        let mut players: Vec<&mut dyn Player<S>> = Vec::with_capacity(n);
        for (seat, (plain, search)) in plains.iter_mut().zip(&mut searching).enumerate() {
            match (seat, seat0.take(), search) {
                (0, Some(p), _) => players.push(p),
                (_, _, Some(s)) => players.push(s),
                _ => players.push(plain),
            }
        }
        play_to_end(state, &mut players, coins, apply);
    }
    let mut think = Think::default();
    for s in searching.iter().flatten() {
        think.merge(&s.think);
    }
    think
}
