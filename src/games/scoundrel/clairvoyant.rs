//! `clairvoyant`: NOT A STRATEGY. An exact solver that knows the dungeon's order and plays the
//! line with the best score: the ceiling on what any player could do with each deal.
//!
//! Depth-first branch and bound over rooms with memoization:
//! - a node is a room about to be filled: the dungeon in order, the card left, the hero, whether
//!   the last room was avoided, and the last card faced when it could still add a bonus;
//! - its children are the non-dominated ways to face the room ([`Options`]), the best way to die
//!   in it, and avoiding it;
//! - a child whose upper bound cannot beat the best found so far is skipped. The bound: a game's
//!   score from here is `hp + potions drunk - monsters to come + sum over weapon fights of
//!   min(monster, weapon)` (on a win or a loss alike), at most `hp + potions to come - monsters
//!   to come + sum of min(monster, best weapon)`, and on a win at most full HP plus a potion;
//! - values are stored in a transposition table as exact values, or as upper bounds when a
//!   search failed low against the bound it was given.
//!
//! It requires `avoid_order = keep` (a shuffled avoid cannot be known in advance).

use std::cell::RefCell;

use crate::cards::Dealer;
use crate::rng::splitmix64;

use super::card::{self, Counts};
use super::dungeon::Dungeon;
use super::engine::{Engine, MAX_AVOIDS, Turn, bonus};
use super::evaluate::{DEAD, Weights};
use super::hero::Hero;
use super::outcome::Outcome;
use super::plans::{MAX_OPTIONS, Options};
use super::rules::{End, ROOM, Rules};

/// Entries in each thread's transposition table (a power of two).
const TABLE: usize = 1 << 20;
/// The most children a node has: every way to face the room, a way to die, and avoiding.
const KIDS: usize = MAX_OPTIONS + 2;
/// A value below any score.
const NONE: i16 = i16::MIN / 2;

/// The solver's position: a room about to be filled.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// The dungeon in order.
    pub dungeon: Dungeon,
    /// The card left from the last room (0 if none).
    pub left: u8,
    /// HP and weapon (the turn's potion count is reset).
    pub hero: Hero,
    /// True if the last room was avoided.
    pub avoided: bool,
    /// Rooms avoided so far.
    pub avoids: u8,
    /// The last card faced.
    pub last: u8,
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    generation: u32,
    value: i16,
    exact: bool,
}

/// The transposition table of one thread, reused game after game.
struct Memo {
    entries: Vec<Entry>,
    generation: u32,
}

thread_local! {
    static MEMO: RefCell<Memo> = RefCell::new(Memo {
        entries: vec![Entry::default(); TABLE],
        generation: 0,
    });
}

impl Memo {
    fn get(&self, key: u64) -> core::option::Option<Entry> {
        let e = self.entries[(key as usize) & (TABLE - 1)];
        (e.generation == self.generation && e.key == key).then_some(e)
    }

    fn put(&mut self, key: u64, value: i16, exact: bool) {
        self.entries[(key as usize) & (TABLE - 1)] = Entry {
            key,
            generation: self.generation,
            value,
            exact,
        };
    }
}

/// The solver for one game's rules.
pub struct Solver<'a> {
    rules: &'a Rules,
    memo: &'a mut Memo,
}

/// A child of a node: a turn and where it leads (with an upper bound on its score), or a final
/// score; with the heuristic's value of it, which orders the search.
#[derive(Clone, Copy)]
enum Child {
    Node(Turn, Node, i16, f32),
    Done(Turn, i16),
}

impl Child {
    fn bound(&self) -> i16 {
        match *self {
            Child::Node(_, _, b, _) | Child::Done(_, b) => b,
        }
    }

    fn rank(&self) -> f32 {
        match *self {
            Child::Node(_, _, _, r) => r,
            Child::Done(_, score) => DEAD + f32::from(score),
        }
    }

    fn turn(&self) -> Turn {
        match *self {
            Child::Node(t, ..) | Child::Done(t, _) => t,
        }
    }
}

impl Node {
    /// The node of an engine at the start of a room (before it is filled).
    pub fn of(engine: &Engine) -> Self {
        let room_left = engine.room();
        debug_assert!(room_left.len() <= 1);
        let mut hero = *engine.hero();
        hero.new_turn();
        Self {
            dungeon: *engine.dungeon(),
            left: room_left.first().copied().unwrap_or(0),
            hero,
            avoided: engine.avoided_last(),
            avoids: engine.outcome().rooms_avoided,
            last: engine.last_faced(),
        }
    }

    fn key(&self, rules: &Rules) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for code in self.dungeon.iter() {
            h = (h ^ u64::from(code)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        let b = u64::from(bonus(rules, self.hero.hp, self.last));
        let fields = u64::from(self.left)
            | u64::from(self.hero.hp as u16) << 8
            | u64::from(self.hero.weapon) << 24
            | u64::from(self.hero.limit) << 32
            | u64::from(self.avoided) << 40
            | b << 48
            | (self.dungeon.len() as u64) << 56;
        let avoids = if rules.avoid_in_a_row {
            u64::from(self.avoids)
        } else {
            0
        };
        splitmix64(h ^ splitmix64(fields) ^ splitmix64(avoids.wrapping_add(0x5bd1_e995)))
    }
}

/// The upper bound on the final score from `hero` with `future` to come (see the module notes).
fn upper_bound(rules: &Rules, hero: &Hero, future: &Counts) -> i16 {
    let best_weapon = future.best_weapon().max(hero.weapon);
    let mut base = i32::from(hero.hp) + future.potion_total() as i32;
    for v in 1..16u8 {
        let n = i32::from(future.monsters()[usize::from(v)]);
        base -= n * i32::from(v - v.min(best_weapon));
    }
    if rules.end == End::Lenient {
        // A lenient win leaves up to three cards unfaced: give back the three worst blows.
        let mut back = 0;
        for v in (1..16u8).rev() {
            let n = i32::from(future.monsters()[usize::from(v)]).min(3 - back);
            base += n * i32::from(v - v.min(best_weapon));
            back += n;
        }
    }
    let max_hp = i32::from(rules.max_hp);
    if base < max_hp {
        return base as i16;
    }
    // The bonus potion may be one already faced (a lenient win ends without facing more).
    let bonus = if rules.potion_bonus {
        rules.potion_max
    } else {
        0
    };
    (max_hp + i32::from(bonus)) as i16
}

impl Solver<'_> {
    fn children(&self, node: &Node, out: &mut [Child; KIDS]) -> core::option::Option<usize> {
        let rules = self.rules;
        let weights = Weights::default();
        let mut dungeon = node.dungeon;
        let mut room = [0u8; ROOM];
        let mut len = 0;
        if node.left != 0 {
            room[0] = node.left;
            len = 1;
        }
        while len < ROOM {
            let Some(code) = dungeon.draw() else { break };
            room[len] = code;
            len += 1;
        }
        if len == 0 || (len < ROOM && rules.end == End::Lenient) {
            return None;
        }
        let full = len == ROOM;
        let to_face = if full { ROOM - 1 } else { len };
        let room = &room[..len];
        let mut future = Counts::default();
        for code in dungeon.iter() {
            future.add(code);
        }
        let monsters_left = i16::try_from(future.monster_total()).unwrap_or(i16::MAX)
            + room
                .iter()
                .filter(|&&c| card::is_monster(c))
                .map(|&c| i16::from(card::value(c)))
                .sum::<i16>();
        let options = Options::new(rules, room, to_face, node.hero);
        let mut n = 0;
        if let Some(d) = options.death {
            let score = d.hero.hp - (monsters_left - i16::from(d.slain));
            out[n] = Child::Done(d.turn, score);
            n += 1;
        }
        for o in options.as_slice() {
            let mut f = future;
            if o.left != 0 {
                f.add(o.left);
            }
            let mut hero = o.hero;
            hero.new_turn();
            let child = Node {
                dungeon,
                left: o.left,
                hero,
                avoided: false,
                avoids: node.avoids,
                last: o.last,
            };
            let bound = if dungeon.is_empty() && o.left == 0 {
                hero.hp + i16::from(bonus(rules, hero.hp, o.last))
            } else {
                upper_bound(rules, &hero, &f)
            };
            out[n] = Child::Node(o.turn, child, bound, weights.value(&hero, &f, false));
            n += 1;
        }
        let can_avoid = full && (rules.avoid_in_a_row || !node.avoided) && node.avoids < MAX_AVOIDS;
        if can_avoid {
            let mut back = dungeon;
            for &code in room {
                back.put_bottom(code);
                future.add(code);
            }
            let child = Node {
                dungeon: back,
                left: 0,
                hero: node.hero,
                avoided: true,
                avoids: node.avoids + 1,
                last: node.last,
            };
            let bound = upper_bound(rules, &node.hero, &future);
            let rank = weights.value(&node.hero, &future, true);
            out[n] = Child::Node(Turn::AVOID, child, bound, rank);
            n += 1;
        }
        out[..n].sort_unstable_by(|a, b| b.rank().total_cmp(&a.rank()));
        Some(n)
    }

    /// True if the game is won at `node`: no card left, or under `end = lenient` no full room.
    fn finished(&self, node: &Node) -> bool {
        let cards = node.dungeon.len() + usize::from(node.left != 0);
        cards == 0 || (cards < ROOM && self.rules.end == End::Lenient)
    }

    /// The final score of a node whose room cannot be filled or played: a win.
    fn won(&self, node: &Node) -> i16 {
        node.hero.hp + i16::from(bonus(self.rules, node.hero.hp, node.last))
    }

    /// The best score from `node` if it is above `alpha`; otherwise some value at most `alpha`
    /// (an upper bound on the best score).
    pub fn solve(&mut self, node: &Node, alpha: i16) -> i16 {
        if self.finished(node) {
            return self.won(node);
        }
        let key = node.key(self.rules);
        if let Some(e) = self.memo.get(key)
            && (e.exact || e.value <= alpha)
        {
            return e.value;
        }
        let mut kids = [Child::Done(Turn::AVOID, NONE); KIDS];
        let n = self
            .children(node, &mut kids)
            .expect("an unfinished node has a room to play");
        let mut best = NONE;
        let mut threshold = alpha;
        for kid in &kids[..n] {
            if kid.bound() <= threshold.max(best) {
                continue;
            }
            let v = match kid {
                Child::Done(_, score) => *score,
                Child::Node(_, child, ..) => self.solve(child, threshold.max(best)),
            };
            if v > threshold.max(best) {
                best = v;
                threshold = threshold.max(best);
            }
        }
        if best > alpha {
            self.memo.put(key, best, true);
            best
        } else {
            self.memo.put(key, alpha, false);
            alpha
        }
    }

    /// The best turn from `node` and its score (`None` if the game is already over).
    pub fn best_turn(&mut self, node: &Node) -> core::option::Option<(Turn, i16)> {
        let mut kids = [Child::Done(Turn::AVOID, NONE); KIDS];
        let n = self.children(node, &mut kids)?;
        let mut best = (kids[0], NONE);
        for kid in &kids[..n] {
            if kid.bound() <= best.1 {
                continue;
            }
            let v = match kid {
                Child::Done(_, score) => *score,
                Child::Node(_, child, ..) => self.solve(child, best.1),
            };
            if v > best.1 {
                best = (*kid, v);
            }
        }
        Some((best.0.turn(), best.1))
    }
}

/// The best score of the game `engine` is at, before its next room, knowing the dungeon's order.
pub fn best_score(rules: &Rules, engine: &Engine) -> i16 {
    with_solver(rules, |s| {
        s.best_turn(&Node::of(engine))
            .map_or_else(|| engine.outcome().score, |(_, v)| v)
    })
}

fn with_solver<T>(rules: &Rules, f: impl FnOnce(&mut Solver) -> T) -> T {
    MEMO.with(|m| {
        let mut memo = m.borrow_mut();
        let memo = &mut *memo;
        memo.generation = memo.generation.wrapping_add(1);
        if memo.generation == 0 {
            memo.entries.fill(Entry::default());
            memo.generation = 1;
        }
        let mut solver = Solver { rules, memo };
        f(&mut solver)
    })
}

/// The clairvoyant player.
pub struct Clairvoyant;

impl Clairvoyant {
    /// Plays `engine` to its end along a best line, solving from each room with a table kept for
    /// the whole game.
    pub fn play<D: Dealer>(mut engine: Engine, rules: &Rules, avoid: &mut D) -> Outcome {
        with_solver(rules, |solver| {
            loop {
                let node = Node::of(&engine);
                if !engine.enter_room(rules) {
                    break;
                }
                let (turn, _) = solver
                    .best_turn(&node)
                    .expect("a room the engine plays is one the solver plays");
                engine.apply(rules, &turn, avoid);
            }
        });
        *engine.outcome()
    }
}
