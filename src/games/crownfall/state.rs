//! Crownfall one decision at a time: its [`GameState`], on the engine's own pieces.
//!
//! A decision is the player's choice after each flip of a strike that did not bust (bank or
//! push) and after a Joker's odd first flip (accept or double or nothing); everything else (the
//! first flip of a strike, a Joker's first flip, reshuffles) the state plays itself with the
//! engine's code, from the game's own generators, so the same choices from the same deal give
//! the fast engine's game. A rollout finishes the current strike card by card, then plays the
//! rest enemy by enemy through the fast engine.
//!
//! What the player knows is the deck's contents (a card counter's knowledge), the strike pile,
//! the tower's current enemy and what is face down under it as a multiset: a sampled world
//! shuffles the unseen deck and the unrevealed tower afresh, and draws later reshuffles from a
//! fresh generator. Under `deck = infinite` every unseen card is a fresh face.

mod twin;

use crate::cards::{Dealer, Fresh};
use crate::games::observe::{Observer, Unobserved};
use crate::games::state::{GameState, ToMove};
use crate::rng::{GameKey, GameRng};

use super::engine::{Engine, JokerView, Next, Running, StrikeView, Totals};
use super::events::{Event, Seen};
use super::outcome::{Enemy, Outcome};
use super::policy::PolicyKind;
use super::rules::{Deck, Rules};
use super::solver::Values;
use super::{Crownfall, PlayerDeck, Streams};

/// A Crownfall decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Bank the strike's best total.
    Bank,
    /// Flip another card.
    Push,
    /// Take the Joker's damage.
    Accept,
    /// Double or nothing: flip again.
    Double,
}

/// Where a game waits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// A strike against the royal `code` (of `target`), at these totals: bank or push.
    Strike {
        /// The royal's code.
        code: u8,
        /// Its target.
        target: u8,
        /// The strike's totals so far.
        totals: Totals,
    },
    /// The Joker `code` after an odd first flip: accept or double or nothing.
    Joker {
        /// The Joker's code.
        code: u8,
    },
    /// The game is over.
    Over,
}

/// A game of Crownfall waiting for a decision, or over.
#[derive(Clone, Debug)]
pub struct State<'r> {
    rules: &'r Rules,
    engine: &'r Engine,
    run: Running,
    deck: PlayerDeck,
    phase: Phase,
    /// The solved game's values, if attached ([`State::with_values`]): the state's estimate.
    values: Option<&'r Values>,
}

/// What the player has observed: everything face up, the deck and the tower's face-down part as
/// multisets.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Observation {
    /// Where the game waits.
    pub phase: Phase,
    /// Player HP.
    pub hp: i16,
    /// The deck's cards by value (under `deck = infinite`, none: its cards are fresh faces).
    pub deck: [u8; 11],
    /// The strike pile, in order.
    pub held: Vec<u8>,
    /// The discard pile by value.
    pub discard: [u8; 11],
    /// The current enemy's code, if any.
    pub current: Option<u8>,
    /// The tower's face-down enemies by kind.
    pub unrevealed: [u8; 4],
    /// Strikes so far.
    pub strikes: u16,
}

impl<'r> State<'r> {
    /// Game `key` of a run of `game`, dealt and played up to its first decision.
    pub fn deal(game: &'r Crownfall, key: GameKey) -> Self {
        Self::deal_observed(game, key, &mut Unobserved)
    }

    /// [`State::deal`], every event to `obs`.
    pub fn deal_observed<O: Observer<Seen>>(
        game: &'r Crownfall,
        key: GameKey,
        obs: &mut O,
    ) -> Self {
        let (mut tower, mut deck) = game.dealers(key);
        let run = game.fresh.start(&game.rules, &mut tower, &mut deck, obs);
        let mut state = Self {
            rules: &game.rules,
            engine: &game.fresh,
            run,
            deck,
            phase: Phase::Over,
            values: None,
        };
        state.advance(obs);
        state
    }

    /// The state with the solved game's `values` attached: its [`GameState::estimate`] is then
    /// the win probability of best play from each decision (the better choice's value).
    pub fn with_values(mut self, values: &'r Values) -> Self {
        self.values = Some(values);
        self
    }

    /// Where the game waits.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The game's report (final once over).
    pub fn outcome(&self) -> Outcome {
        self.run.outcome()
    }

    /// What the player knows at a strike's decision (`None` elsewhere).
    pub fn strike_view(&self) -> Option<StrikeView<'_>> {
        let Phase::Strike {
            code,
            target,
            totals,
        } = self.phase
        else {
            return None;
        };
        let (enemy, hp) = (Enemy::from_code(code), self.run.hp);
        Some(
            self.run
                .board
                .view(enemy, target, totals.hard, totals.best(), hp),
        )
    }

    /// What the player knows at a Joker's decision (`None` elsewhere).
    pub fn joker_view(&self) -> Option<JokerView<'_>> {
        matches!(self.phase, Phase::Joker { .. }).then(|| self.run.board.joker_view(self.run.hp))
    }

    /// Plays on from between two enemies up to the next decision (or the end): the tower's next
    /// card, a strike's first flip, a Joker's first flip.
    fn advance<O: Observer<Seen>>(&mut self, obs: &mut O) {
        loop {
            let hp = self.run.hp;
            match self.run.next_enemy(self.rules, obs) {
                Next::Over => {
                    self.phase = Phase::Over;
                    return;
                }
                Next::Joker(code) => {
                    if self.run.board.joker_first(&mut self.deck, obs, hp) {
                        self.phase = Phase::Joker { code };
                        return;
                    }
                    if !self.run.end_joker(code, 0, obs) {
                        self.phase = Phase::Over;
                        return;
                    }
                }
                Next::Royal(code) => {
                    let target = self.engine.scoring().target(code);
                    self.run.begin_strike(Enemy::from_code(code), target, obs);
                    let mut totals = Totals::default();
                    let first = self
                        .run
                        .board
                        .strike_flip(&mut totals, &mut self.deck, obs, hp);
                    debug_assert!(first.is_none(), "one card never busts");
                    self.phase = Phase::Strike {
                        code,
                        target,
                        totals,
                    };
                    return;
                }
            }
        }
    }

    /// The strike against `code` ended at `total`: true if the game goes on.
    fn end_strike<O: Observer<Seen>>(&mut self, code: u8, total: u8, obs: &mut O) -> bool {
        self.run.board.deck.release_held();
        let scoring = self.engine.scoring();
        self.run.end_strike(self.rules, scoring, code, total, obs)
    }

    /// Plays `mv` and whatever it finishes, but not the next enemy: true once the current
    /// enemy is done and the game goes on (between enemies), false while the strike goes on or
    /// once the game is over ([`Phase::Over`]).
    fn play_move<O: Observer<Seen>>(&mut self, mv: Move, obs: &mut O) -> bool {
        let hp = self.run.hp;
        let on = match (self.phase, mv) {
            (Phase::Strike { code, totals, .. }, Move::Bank) => {
                obs.see(|| self.run.board.seen(Event::Choice { bank: true }, hp));
                self.end_strike(code, totals.best(), obs)
            }
            (
                Phase::Strike {
                    code,
                    target,
                    mut totals,
                },
                Move::Push,
            ) => {
                obs.see(|| self.run.board.seen(Event::Choice { bank: false }, hp));
                let board = &mut self.run.board;
                match board.strike_flip(&mut totals, &mut self.deck, obs, hp) {
                    Some(bust) => self.end_strike(code, bust, obs),
                    None => {
                        self.phase = Phase::Strike {
                            code,
                            target,
                            totals,
                        };
                        return false;
                    }
                }
            }
            (Phase::Joker { code }, Move::Accept | Move::Double) => {
                let gamble = mv == Move::Double;
                let board = &mut self.run.board;
                let hurt = board.joker_choice(self.rules, gamble, &mut self.deck, obs, hp);
                self.run.end_joker(code, hurt, obs)
            }
            (phase, mv) => panic!("{mv:?} is not a move at {phase:?}"),
        };
        if !on {
            self.phase = Phase::Over;
        }
        on
    }

    /// [`GameState::apply`], every event to `obs`.
    pub fn apply_observed<O: Observer<Seen>>(&mut self, mv: Move, obs: &mut O) {
        if self.play_move(mv, obs) {
            self.advance(obs);
        }
    }

    /// From between two enemies, the rest of the game with `policy` on the fast engine.
    fn play_on(&mut self, policy: &PolicyKind) {
        self.phase = Phase::Over;
        policy.play_on(self.engine, self.rules, &mut self.run, &mut self.deck);
    }
}

impl GameState for State<'_> {
    type Move = Move;
    type Observation = Observation;
    type Policy = PolicyKind;

    fn seats(&self) -> u8 {
        1
    }

    fn to_move(&self) -> ToMove {
        match self.phase {
            Phase::Over => ToMove::Over,
            _ => ToMove::Seat(0),
        }
    }

    fn legal(&self, moves: &mut Vec<Move>) {
        moves.clear();
        match self.phase {
            Phase::Strike { .. } => moves.extend([Move::Bank, Move::Push]),
            Phase::Joker { .. } => moves.extend([Move::Accept, Move::Double]),
            Phase::Over => {}
        }
    }

    fn apply(&mut self, mv: Move) {
        self.apply_observed(mv, &mut Unobserved);
    }

    fn key(mv: &Move) -> u64 {
        *mv as u64
    }

    fn result(&self, _seat: u8) -> f32 {
        f32::from(u8::from(self.run.outcome().win))
    }

    fn progress(&self, _seat: u8) -> f32 {
        let tower = &self.run.board.tower;
        tower.dealt() as f32 / tower.len().max(1) as f32
    }

    /// With the solved game's values attached: the better choice's win probability at this
    /// decision (see [`Values`]); `None` without them or once over.
    fn estimate(&self, _seat: u8) -> Option<f32> {
        let values = self.values?;
        let (a, b) = match (self.strike_view(), self.joker_view()) {
            (Some(view), _) => values.strike(&view),
            (None, Some(view)) => values.joker(self.rules, &view),
            (None, None) => return None,
        };
        Some(a.max(b) as f32)
    }

    /// Strikes made.
    fn length(&self) -> Option<u32> {
        Some(u32::from(self.run.outcome().strikes))
    }

    /// A game lost with no enemy's last blow: stopped by `max_strikes`.
    fn capped(&self) -> bool {
        let outcome = self.run.outcome();
        self.phase == Phase::Over && !outcome.win && outcome.killer().is_none()
    }

    fn value_features(&self, seat: u8, out: &mut Vec<f32>) {
        crate::games::value::Featured::features_of(self, seat, out);
    }

    fn observation(&self, _seat: u8) -> Observation {
        let board = &self.run.board;
        let view = board.view(Enemy::Jack, 0, 0, 0, self.run.hp);
        Observation {
            phase: self.phase,
            hp: self.run.hp,
            // Under `deck = infinite` the cards to come are fresh faces nobody has seen: the
            // deck's contents are not observed.
            deck: match self.rules.deck {
                Deck::Finite => view.deck.counts(),
                Deck::Infinite => [0; 11],
            },
            held: view.deck.held().to_vec(),
            discard: view.deck.discarded(),
            current: board.tower.top_card(),
            unrevealed: view.tower.unrevealed(),
            strikes: self.run.outcome().strikes,
        }
    }

    fn sample_into(&self, _seat: u8, rng: &mut GameRng, world: &mut Self) {
        world.clone_from(self);
        let chance = GameRng::new(rng.next_u64(), 0, Streams::PLAYER_DECK);
        let board = &mut world.run.board;
        match self.rules.deck {
            Deck::Finite => {
                let unseen = board.deck.deck_cards_mut();
                unseen.sort_unstable();
                rng.shuffle(unseen);
                world.deck = PlayerDeck::Shuffled(chance);
            }
            Deck::Infinite => {
                let mut fresh = Fresh::new(chance, super::solver::strike::FACES as u8);
                fresh.shuffle(board.deck.deck_cards_mut());
                world.deck = PlayerDeck::Fresh(fresh);
            }
        }
        if let Some(face_down) = board.tower.deck_cards_mut().get_mut(1..) {
            face_down.sort_unstable();
            rng.shuffle(face_down);
        }
    }

    fn fingerprint(&self) -> Option<u64> {
        let board = &self.run.board;
        let mut h = 0x243F_6A88_85A3_08D3u64;
        let mut mix = |x: u64| h = crate::rng::splitmix64(h ^ x);
        for pile in [
            board.tower.deck_cards(),
            board.deck.deck_cards(),
            board.deck.held_cards(),
            board.deck.discard_cards(),
        ] {
            for &c in pile {
                mix(u64::from(c));
            }
            mix(0xFF);
        }
        let (phase, totals) = match self.phase {
            Phase::Strike { totals, .. } => (1, totals),
            Phase::Joker { .. } => (2, Totals::default()),
            Phase::Over => (3, Totals::default()),
        };
        mix(phase | u64::from(totals.hard) << 8 | u64::from(totals.ace) << 16);
        mix(self.run.hp as u64 | u64::from(self.run.outcome().strikes) << 16);
        mix(match &self.deck {
            PlayerDeck::Shuffled(rng) => rng.clone().next_u64(),
            PlayerDeck::Fresh(fresh) => fresh.clone().next_face(),
        });
        Some(h)
    }

    fn policy_move(&mut self, policy: &PolicyKind, _coins: &mut GameRng) -> Move {
        if let Some(view) = self.strike_view() {
            return if policy.bank(self.rules, &view) {
                Move::Bank
            } else {
                Move::Push
            };
        }
        let view = self
            .joker_view()
            .expect("a decision is asked of a game not over");
        if policy.double_or_nothing(self.rules, &view) {
            Move::Double
        } else {
            Move::Accept
        }
    }

    fn rollout(&mut self, policy: &PolicyKind, coins: &mut GameRng) {
        // The current strike or Joker card by card, then the rest on the fast engine.
        while !matches!(self.phase, Phase::Over) {
            let mv = self.policy_move(policy, coins);
            if self.play_move(mv, &mut Unobserved) {
                self.play_on(policy);
            }
        }
    }

    fn play_out(&mut self, first: Move, policy: &PolicyKind, coins: &mut GameRng) {
        if self.play_move(first, &mut Unobserved) {
            self.play_on(policy);
        } else {
            self.rollout(policy, coins);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Game;
    use crate::games::state::play_by_policy;

    /// Every plain policy under several rule sets: the state played one decision at a time gives
    /// the fast engine's game, outcome for outcome.
    #[test]
    fn the_state_plays_the_fast_engines_games() {
        for sets in [
            vec![],
            vec![
                "guard_zone=3",
                "start_hp=9",
                "heal.king=1",
                "tower.jokers=4",
            ],
            vec!["deck=infinite", "max_strikes=20"],
        ] {
            let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
            for policy in ["bank-at-15", "bank-at-target", "optimal", "expectimax"] {
                let rules: Rules = crate::rules::load(None, &sets).unwrap();
                let game = Crownfall::with_policy(rules, policy).unwrap();
                for index in 0..300 {
                    let fast = game.play(5, index);
                    let mut state = State::deal(&game, GameKey::new(5, index));
                    play_by_policy(&mut state, game.policy(), &mut GameRng::unused());
                    assert_eq!(state.outcome(), fast, "{policy} {sets:?} game {index}");
                }
            }
        }
    }

    /// A rollout from any decision ends where stepping on with the same policy ends.
    #[test]
    fn a_rollout_is_the_game_played_on() {
        let game = Crownfall::with_policy(Rules::default(), "bank-at-16").unwrap();
        for index in 0..200 {
            let mut state = State::deal(&game, GameKey::new(8, index));
            let mut decisions = 0;
            while state.to_move() != ToMove::Over {
                let mut rolled = state.clone();
                rolled.rollout(game.policy(), &mut GameRng::unused());
                let mut stepped = state.clone();
                play_by_policy(&mut stepped, game.policy(), &mut GameRng::unused());
                assert_eq!(rolled.outcome(), stepped.outcome(), "game {index}");
                // Off the policy's line now and then (the second legal move: push, double).
                let mut moves = Vec::new();
                state.legal(&mut moves);
                let mv = state.policy_move(game.policy(), &mut GameRng::unused());
                state.apply(if decisions % 3 == 0 { moves[1] } else { mv });
                decisions += 1;
            }
        }
    }
}
