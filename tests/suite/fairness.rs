//! Fairness, generically over the state API (the conformance suite checks every game's ladder
//! with these helpers; the tests here add each game's rule sets, seats and policies beyond its
//! ladder): for every fair policy (the plain ones and the search players), two states that differ only in what the deciding seat cannot
//! see (a world sampled for that seat from the real state) give that seat's policy the same
//! decision from the same generator. A deliberately leaky control, which plays out each move in
//! the real state instead of a sampled world, must be caught.

use sim::games::Game;
use sim::games::state::{GameState, ToMove};
use sim::rng::{GameKey, GameRng};
use sim::search::{Searcher, Work, decide, settings};

/// A policy as the test sees it: a seat's move at a state, from a generator.
pub type Decider<'a, S> = Box<dyn Fn(&S, u8, &GameRng) -> <S as GameState>::Move + 'a>;

/// States at a decision: each deal of `deal` played `k` random legal moves in (k = 0, 1, ...).
pub fn states<S: GameState>(deal: impl Fn(u64) -> S, deals: u64, depth: usize) -> Vec<S> {
    let mut out = Vec::new();
    let mut coins = GameRng::new(99, 0, 0);
    let mut moves = Vec::new();
    for d in 0..deals {
        let mut s = deal(d);
        for _ in 0..(d as usize % depth) {
            if s.to_move() == ToMove::Over {
                break;
            }
            s.legal(&mut moves);
            let pick = moves[coins.below(moves.len() as u64) as usize];
            s.apply(pick);
        }
        if s.to_move() != ToMove::Over {
            out.push(s);
        }
    }
    out
}

/// For each state and a few worlds sampled for its deciding seat: the seat observes the same,
/// and each decider decides the same. Returns the deciders (by name) caught deciding apart.
pub fn caught<S: GameState>(states: &[S], deciders: &[(&str, Decider<S>)]) -> Vec<String> {
    let mut rng = GameRng::new(7, 0, 0);
    let mut world = states[0].clone();
    let mut caught = Vec::new();
    for (i, real) in states.iter().enumerate() {
        let ToMove::Seat(seat) = real.to_move() else {
            unreachable!("states at a decision")
        };
        for _ in 0..3 {
            real.sample_into(seat, &mut rng, &mut world);
            assert_eq!(
                real.observation(seat),
                world.observation(seat),
                "state {i}: a sampled world must look the same to seat {seat}"
            );
            let coins = GameRng::new(11, i as u64, 0);
            for (name, decide) in deciders {
                if decide(real, seat, &coins) != decide(&world, seat, &coins)
                    && !caught.contains(&name.to_string())
                {
                    caught.push(name.to_string());
                }
            }
        }
    }
    caught
}

/// A plain policy of the game.
fn plain<'a, S: GameState + 'a>(policy: S::Policy) -> Decider<'a, S>
where
    S::Policy: 'a,
{
    Box::new(move |s, _seat, coins| s.clone().policy_move(&policy, &mut coins.clone()))
}

/// A search player with `settings`, its rollouts by `rollout`.
fn searching<'a, S: GameState + 'a>(
    settings: settings::Settings,
    rollout: S::Policy,
) -> Decider<'a, S>
where
    S::Policy: 'a,
{
    let searcher = Searcher {
        name: "search".into(),
        settings,
        rollout,
    };
    Box::new(move |s, seat, rng| decide(&searcher, s, seat, &mut Work::new(rng.clone())))
}

/// The leaky control: every legal move played out by `rollout` in the real state itself (it
/// sees the deal), the best result taken.
fn leaky<'a, S: GameState + 'a>(rollout: S::Policy) -> Decider<'a, S>
where
    S::Policy: 'a,
{
    Box::new(move |s, seat, rng| {
        let mut moves = Vec::new();
        s.legal(&mut moves);
        let value = |m: S::Move| {
            let mut play = s.clone();
            play.play_out(m, &rollout, &mut rng.clone());
            play.result(seat) + 0.01 * play.progress(seat)
        };
        let mut best = (f32::NEG_INFINITY, moves[0]);
        for &m in &moves {
            let v = value(m);
            if v > best.0 {
                best = (v, m);
            }
        }
        best.1
    })
}

/// The search players at small budgets, under a game's defaults.
fn small(defaults: &sim::search::Defaults) -> [settings::Settings; 2] {
    let mut pimc = defaults.settings(settings::Algorithm::Pimc);
    pimc.simulations = 6;
    let mut ismcts = defaults.settings(settings::Algorithm::Ismcts);
    ismcts.simulations = 24;
    [pimc, ismcts]
}

/// Asserts that only the leaky control is caught.
fn only_the_leak_caught(game: &str, caught: Vec<String>) {
    assert_eq!(
        caught,
        vec!["leaky".to_string()],
        "{game}: every fair policy decides alike on states its seat cannot tell apart, and the leaky control is caught"
    );
}

#[test]
fn regicide_policies_see_only_what_their_seat_may_know() {
    use sim::games::regicide::{PolicyKind, Regicide, Rules, search};
    for players in [1u8, 3] {
        let rules: Rules = sim::rules::load(None, &[format!("players={players}")]).unwrap();
        let game = Regicide::with_policy(rules, "simple").unwrap();
        let states = states(|d| game.state(21, d), 60, 12);
        let heuristic = || PolicyKind::Heuristic(Box::default());
        let [pimc, ismcts] = small(&search::DEFAULTS);
        let deciders: Vec<(&str, Decider<_>)> = vec![
            ("simple", plain(PolicyKind::Simple)),
            ("random", plain(PolicyKind::Random)),
            ("heuristic", plain(heuristic())),
            ("pimc", searching(pimc, heuristic())),
            ("ismcts", searching(ismcts, heuristic())),
            ("leaky", leaky(heuristic())),
        ];
        only_the_leak_caught(&format!("regicide {players}p"), caught(&states, &deciders));
    }
}

#[test]
fn scoundrel_policies_see_only_what_their_seat_may_know() {
    use sim::games::observe::Unobserved;
    use sim::games::scoundrel::{PolicyKind, Rules, Scoundrel, search};
    for sets in [&[][..], &["avoid_order=shuffle"]] {
        let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
        let rules: Rules = sim::rules::load(None, &sets).unwrap();
        let game = Scoundrel::with_policy(rules.clone(), "greedy").unwrap();
        let states = states(|d| game.state(21, d, &mut Unobserved), 60, 8);
        let policy = |spec: &str| PolicyKind::parse(spec, &rules).unwrap().0;
        let [pimc, ismcts] = small(&search::DEFAULTS);
        let deciders: Vec<(&str, Decider<_>)> = vec![
            ("random", plain(policy("random"))),
            ("greedy", plain(policy("greedy"))),
            ("heuristic", plain(policy("heuristic"))),
            ("lookahead-4", plain(policy("lookahead-4"))),
            ("tuned", plain(policy("tuned"))),
            ("tuned-lookahead-4", plain(policy("tuned-lookahead-4"))),
            ("pimc", searching(pimc, policy("heuristic"))),
            ("ismcts", searching(ismcts, policy("heuristic"))),
            ("leaky", leaky(policy("heuristic"))),
        ];
        only_the_leak_caught(&format!("scoundrel {sets:?}"), caught(&states, &deciders));
    }
}

#[test]
fn junkyard_policies_see_only_what_their_seat_may_know() {
    use sim::games::junkyard::state::State;
    use sim::games::junkyard::{PolicyKind, Rules, search};
    let rules = Rules::default();
    let states = states(|d| State::deal(&rules, GameKey::new(21, d)), 120, 60);
    let policy = |spec: &str| PolicyKind::parse(spec, &rules).unwrap().0;
    let [pimc, ismcts] = small(&search::DEFAULTS);
    let deciders: Vec<(&str, Decider<_>)> = vec![
        ("simple", plain(policy("simple"))),
        ("greedy", plain(policy("greedy"))),
        ("random", plain(policy("random"))),
        ("lookahead-2", plain(policy("lookahead-2"))),
        ("defensive", plain(policy("defensive"))),
        ("pimc", searching(pimc, policy("greedy"))),
        ("ismcts", searching(ismcts, policy("greedy"))),
        ("leaky", leaky(policy("greedy"))),
    ];
    only_the_leak_caught("junkyard", caught(&states, &deciders));
}
