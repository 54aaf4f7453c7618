//! `lookahead`: card counting plus a one-room-deep expectation over the unseen cards.
//!
//! The heuristic's best few plays of the room (by [`Weights`]) are each scored by the average,
//! over `samples` draws of the next room from the cards still in the dungeon (as a multiset:
//! the player does not know their order), of the best value the heuristic finds in that next
//! room. Every play is scored on the same draws (common random numbers), so the comparison is
//! sharper than the sample size suggests.

use crate::rng::GameRng;

use super::card::Counts;
use super::engine::{Turn, View};
use super::evaluate::{DEAD, Evaluation, Weights};
use super::features::Summary;
use super::hero::Hero;
use super::heuristic::{best_turn, choose_turn, future_avoided};
use super::plans::Options;
use super::policy::Policy;
use super::rules::{MAX_CARDS, ROOM, Rules};

/// The lookahead's search budget and evaluation (the heuristic's [`Weights`] unless given).
#[derive(Clone, Debug, PartialEq)]
pub struct Lookahead<E = Weights> {
    /// Next rooms sampled per decision.
    pub samples: u16,
    /// Plays of the room looked at beyond the static score (the best by it).
    pub width: usize,
    /// The evaluation at the leaves.
    pub weights: E,
    /// What a next room that kills every way counts for in the mean ([`DEAD`]: any chance of
    /// death outweighs everything else).
    pub death: f32,
}

impl Default for Lookahead {
    fn default() -> Self {
        Self::with_samples(12)
    }
}

/// A candidate play: its turn, the hero after it, the card it leaves, and whether it avoids.
#[derive(Clone, Copy)]
struct Candidate {
    turn: Turn,
    hero: Hero,
    left: u8,
    avoided: bool,
    room_back: [u8; ROOM],
    value: f32,
}

impl Lookahead {
    /// The default width and weights, `samples` next rooms per decision.
    pub fn with_samples(samples: u16) -> Self {
        Self {
            samples,
            width: 4,
            weights: Weights::default(),
            death: DEAD,
        }
    }
}

impl<E: Evaluation> Lookahead<E> {
    /// The candidates: the best `width` living plays by static value (avoid included).
    fn candidates(&self, view: &View, options: &Options, out: &mut [Candidate; 8]) -> usize {
        let mut n = 0;
        let mut push = |c: Candidate, out: &mut [Candidate; 8]| {
            // Keep the best `width`, sorted by value, highest first.
            let width = self.width.min(out.len());
            if n == width && out[n - 1].value >= c.value {
                return;
            }
            let mut i = n.min(width - 1);
            if n < width {
                n += 1;
            }
            while i > 0 && out[i - 1].value < c.value {
                out[i] = out[i - 1];
                i -= 1;
            }
            out[i] = c;
        };
        let ready = Summary::of(view.dungeon);
        for o in options.as_slice() {
            let value = self.weights.value_after(&ready, &o.hero, o.left);
            push(
                Candidate {
                    turn: o.turn,
                    hero: o.hero,
                    left: o.left,
                    avoided: false,
                    room_back: [0; ROOM],
                    value,
                },
                out,
            );
        }
        if view.can_avoid {
            let mut room_back = [0; ROOM];
            room_back.copy_from_slice(view.room);
            push(
                Candidate {
                    turn: Turn::AVOID,
                    hero: view.hero,
                    left: 0,
                    avoided: true,
                    room_back,
                    value: self.weights.value(&view.hero, &future_avoided(view), true),
                },
                out,
            );
        }
        n
    }

    /// The value of `c` averaged over next rooms drawn by `draws` from the dungeon `cards`.
    fn expected(
        &self,
        rules: &Rules,
        c: &Candidate,
        dungeon: &Counts,
        cards: &[u8],
        draws: &[[u8; ROOM]],
    ) -> f32 {
        let mut total = 0.0;
        for draw in draws {
            let mut room = [0u8; ROOM];
            let mut len = 0;
            if c.left != 0 {
                room[0] = c.left;
                len = 1;
            }
            let mut rest = *dungeon;
            if c.avoided {
                for &code in &c.room_back {
                    rest.add(code);
                }
            }
            let mut k = 0;
            while len < ROOM && k < draw.len() && usize::from(draw[k]) < cards.len() {
                let code = cards[usize::from(draw[k])];
                room[len] = code;
                rest.remove(code);
                len += 1;
                k += 1;
            }
            let last_room = len < ROOM;
            let next = View {
                room: &room[..len],
                hero: c.hero,
                can_avoid: !last_room && (rules.avoid_in_a_row || !c.avoided),
                to_face: if last_room { len } else { ROOM - 1 },
                dungeon: &rest,
                last_room: rest.is_empty(),
            };
            let (_, v) = choose_turn(rules, &self.weights, &next);
            total += if v <= DEAD { self.death } else { v };
        }
        total / draws.len().max(1) as f32
    }
}

impl<E: Evaluation> Policy for Lookahead<E> {
    fn choose(&self, rules: &Rules, view: &View, coins: &mut GameRng) -> Turn {
        self.valued(rules, view, coins, |_, _| {})
    }
}

impl<E: Evaluation> Lookahead<E> {
    /// The turn [`Policy::choose`] takes, handing each candidate play it searched and its
    /// expected value to `each` (none when a single candidate or the last room leaves nothing
    /// to search).
    pub fn valued(
        &self,
        rules: &Rules,
        view: &View,
        coins: &mut GameRng,
        mut each: impl FnMut(Turn, f32),
    ) -> Turn {
        let options = Options::of(rules, view);
        let mut cands = [Candidate {
            turn: Turn::AVOID,
            hero: view.hero,
            left: 0,
            avoided: false,
            room_back: [0; ROOM],
            value: 0.0,
        }; 8];
        let n = self.candidates(view, &options, &mut cands);
        if n == 0 {
            return best_turn(&self.weights, view, &options).0;
        }
        if n == 1 || view.dungeon.is_empty() {
            return cands[0].turn;
        }
        // The dungeon's cards as a list, and the sampled draws as positions in it: the first
        // ROOM positions of a partial shuffle.
        let mut cards = [0u8; MAX_CARDS];
        let mut len = 0;
        for (kind, counts) in [
            (super::card::MONSTER, view.dungeon.monsters()),
            (super::card::WEAPON, view.dungeon.weapons()),
            (super::card::POTION, view.dungeon.potions()),
        ] {
            for (v, &k) in counts.iter().enumerate() {
                for _ in 0..k {
                    cards[len] = kind | v as u8;
                    len += 1;
                }
            }
        }
        let mut draws = [[u8::MAX; ROOM]; 64];
        let samples = usize::from(self.samples).min(draws.len());
        for draw in draws.iter_mut().take(samples) {
            let mut pos = [0u8; MAX_CARDS];
            for (i, p) in pos.iter_mut().enumerate().take(len) {
                *p = i as u8;
            }
            for (k, slot) in draw.iter_mut().enumerate().take(ROOM.min(len)) {
                let j = k + coins.below((len - k) as u64) as usize;
                pos.swap(k, j);
                *slot = pos[k];
            }
        }
        let mut best = (cands[0].turn, f32::NEG_INFINITY);
        for c in &cands[..n] {
            let v = self.expected(rules, c, view.dungeon, &cards[..len], &draws[..samples]);
            each(c.turn, v);
            if v > best.1 {
                best = (c.turn, v);
            }
        }
        best.0
    }
}
