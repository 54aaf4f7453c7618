//! `clairvoyant`: NOT A STRATEGY. An exact solver that knows the dungeon's order and plays the
//! line with the best score: the ceiling on what any player could do with each deal.
//!
//! Depth-first search over rooms with memoization and bounds:
//! - a node is a room about to be filled: the dungeon in order, the card left, the hero, whether
//!   the last room was avoided, and the last card faced when it could still add a bonus;
//! - its children are the non-dominated ways to face the room ([`Options`]), the best way to die
//!   in it, and avoiding it, tried by upper bound and then by the heuristic's value;
//! - each search has a window `alpha < v < beta` and is fail-soft: it stops at the first line
//!   reaching `beta`, and skips a child whose upper bound cannot beat the window. The bound: a
//!   game's score from here is `hp + potions drunk - monsters to come + sum over weapon fights of
//!   min(monster, weapon)` (on a win or a loss alike), at most `hp + potions to come - sum over
//!   the monsters to come of what the best weapon that may still be used on each leaves` (the
//!   one in hand only on the monsters its wear allows, else the best weapon to come), and on a
//!   win at most full HP plus the best potion still to come;
//! - the best score is found by null windows: first at the whole game's bound (most deals reach
//!   it), then whether the deal can be won at all, then halving the interval between the best
//!   line found and the best bound proved;
//! - a transposition table keeps a lower and an upper bound per node (two entries a slot, the
//!   node with more cards to come kept), keyed by a hash of the dungeon's order that is updated
//!   in constant time as cards are drawn and put back;
//! - a second table, per null window, keeps for a node without its HP and its weapon's wear the
//!   pairs `(hp, limit)` known to reach the window or to fail it: the best score is monotone in
//!   both, so a node with no more of either than one that fails fails too, and one with no less
//!   than one that reaches it reaches it.
//!
//! It requires `avoid_order = keep` (a shuffled avoid cannot be known in advance).

use std::cell::RefCell;

use crate::cards::Dealer;
use crate::games::observe::{Observer, Unobserved};
use crate::rng::splitmix64;

use super::card::{self, Counts};
use super::dungeon::Dungeon;
use super::engine::{Engine, MAX_AVOIDS, Turn, bonus};
use super::evaluate::{DEAD, Weights};
use super::events::Seen;
use super::hero::Hero;
use super::outcome::Outcome;
use super::plans::{MAX_OPTIONS, Options};
use super::rules::{End, ROOM, Rules};

/// Slots of two entries in each thread's transposition table (a power of two; 16 bytes an
/// entry, 64 MiB a thread).
const SLOTS: usize = 1 << 21;
/// Entries in each thread's table of thresholds (a power of two; 24 bytes each).
const REACH: usize = 1 << 20;
/// The most children a node has: every way to face the room, a way to die, and avoiding.
const KIDS: usize = MAX_OPTIONS + 2;
/// A value below any score.
const NONE: i16 = i16::MIN / 2;
/// A value above any score.
const TOP: i16 = i16::MAX / 2;

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
    /// The dungeon's cards as a multiset.
    counts: Counts,
    /// The dungeon's order hashed (see [`Order`]), kept as cards are drawn and put back.
    order: u64,
}

/// A hash of a sequence of cards that follows drawing from the top and putting at the bottom
/// in constant time: the sum of `mix(card_i) * BASE^i` (mod 2^64) over the positions `i`.
struct Order;

impl Order {
    /// An odd multiplier, so it has an inverse mod 2^64.
    const BASE: u64 = 0x9E37_79B9_7F4A_7C15;
    /// `BASE^-1` mod 2^64 (Newton's iteration doubles the correct low bits each step).
    const INVERSE: u64 = {
        let mut x = Self::BASE;
        let mut i = 0;
        while i < 6 {
            x = x.wrapping_mul(2u64.wrapping_sub(Self::BASE.wrapping_mul(x)));
            i += 1;
        }
        x
    };
    /// `BASE^i` for every position of a dungeon.
    const POWERS: [u64; 64] = {
        let mut p = [1u64; 64];
        let mut i = 1;
        while i < 64 {
            p[i] = p[i - 1].wrapping_mul(Self::BASE);
            i += 1;
        }
        p
    };

    #[inline(always)]
    fn mix(code: u8) -> u64 {
        splitmix64(u64::from(code))
    }

    /// The hash of `dungeon`.
    fn of(dungeon: &Dungeon) -> u64 {
        dungeon.iter().enumerate().fold(0, |h, (i, c)| {
            h.wrapping_add(Self::mix(c).wrapping_mul(Self::POWERS[i]))
        })
    }

    /// The hash after drawing `top` from the top.
    #[inline(always)]
    fn draw(hash: u64, top: u8) -> u64 {
        hash.wrapping_sub(Self::mix(top))
            .wrapping_mul(Self::INVERSE)
    }

    /// The hash after putting `card` at the bottom of a dungeon of `len` cards.
    #[inline(always)]
    fn put_bottom(hash: u64, card: u8, len: usize) -> u64 {
        hash.wrapping_add(Self::mix(card).wrapping_mul(Self::POWERS[len]))
    }
}

/// What the table knows of a node: its best score lies in `lower..=upper`.
#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    /// The deal the entry is of (see [`Memo::generation`]).
    generation: u16,
    lower: i16,
    upper: i16,
    /// Cards still to come at the node: the entry's worth, the size of the search it saves.
    cards: u8,
}

/// The transposition table of one thread, reused game after game, and the spare room for
/// children the search has finished with.
struct Memo {
    /// Two entries a slot: a new node replaces the entry of an older deal, else the one with
    /// fewer cards to come (the cheaper to search again).
    entries: Vec<[Entry; 2]>,
    /// The deal being solved: entries of other generations are empty.
    generation: u16,
    spare: Vec<Box<Kids>>,
    /// The thresholds of HP and wear (see [`Reach`]), one entry a slot.
    reach: Vec<Reach>,
    /// Nodes searched (not answered by the table) since the solver was made.
    nodes: u64,
}

thread_local! {
    static MEMO: RefCell<Memo> = RefCell::new(Memo {
        entries: vec![[Entry::default(); 2]; SLOTS],
        generation: 0,
        spare: Vec::new(),
        reach: vec![Reach::EMPTY; REACH],
        nodes: 0,
    });
}

impl Memo {
    /// The bounds stored for `key`: `(lower, upper)`.
    #[inline]
    fn get(&self, key: u64) -> core::option::Option<(i16, i16)> {
        let slot = &self.entries[(key as usize) & (SLOTS - 1)];
        slot.iter()
            .find(|e| e.generation == self.generation && e.key == key)
            .map(|e| (e.lower, e.upper))
    }

    /// Stores `lower..=upper` for `key` (a node with `cards` to come), narrowed by what is
    /// already known of it.
    fn put(&mut self, key: u64, cards: u8, lower: i16, upper: i16) {
        let generation = self.generation;
        let slot = &mut self.entries[(key as usize) & (SLOTS - 1)];
        let fresh = |e: &Entry| e.generation == generation;
        let at = if let Some(i) = slot.iter().position(|e| fresh(e) && e.key == key) {
            let e = slot[i];
            slot[i] = Entry {
                lower: lower.max(e.lower),
                upper: upper.min(e.upper),
                ..e
            };
            return;
        } else if !fresh(&slot[0]) {
            0
        } else if !fresh(&slot[1]) {
            1
        } else {
            usize::from(slot[1].cards < slot[0].cards)
        };
        slot[at] = Entry {
            key,
            generation,
            lower,
            upper,
            cards,
        };
    }
}

/// What the table of thresholds knows of a node without its HP and its weapon's wear, for one
/// null window at `beta`. The best score is monotone in HP and in how much the weapon may still
/// slay (every line open with less is open with more, and scores at least as much), so a node
/// known to fail (best score below `beta`) at `(hp, limit)` fails at every `(hp', limit')` no
/// greater in both, and one known to reach `beta` reaches it at every pair no less in both.
#[derive(Clone, Copy, Default)]
struct Reach {
    key: u64,
    generation: u16,
    /// Pairs `(hp, limit)` known to fail; an HP of [`i16::MIN`] for none.
    fails: [(i16, u8); 2],
    /// Pairs `(hp, limit)` known to reach `beta`; an HP of [`i16::MAX`] for none.
    reaches: [(i16, u8); 2],
}

impl Reach {
    const EMPTY: Self = Self {
        key: 0,
        generation: 0,
        fails: [(i16::MIN, 0); 2],
        reaches: [(i16::MAX, u8::MAX); 2],
    };
}

impl Memo {
    /// What is known of the node of `shape` (see [`Node::shape`]) at `hero`'s HP and wear:
    /// `Some(true)` if it reaches the window's `beta`, `Some(false)` if it fails.
    #[inline]
    fn reach(&self, shape: u64, hero: &Hero) -> core::option::Option<bool> {
        let e = &self.reach[(shape as usize) & (REACH - 1)];
        if e.generation != self.generation || e.key != shape {
            return None;
        }
        let (hp, limit) = (hero.hp, hero.limit);
        if e.reaches.iter().any(|&(h, l)| hp >= h && limit >= l) {
            Some(true)
        } else if e.fails.iter().any(|&(h, l)| hp <= h && limit <= l) {
            Some(false)
        } else {
            None
        }
    }

    /// Records that the node of `shape` at `hero`'s HP and wear reaches `beta` (`reached`) or
    /// fails: the new pair replaces one it covers, else the one of less HP.
    fn put_reach(&mut self, shape: u64, hero: &Hero, reached: bool) {
        let generation = self.generation;
        let e = &mut self.reach[(shape as usize) & (REACH - 1)];
        if e.generation != generation || e.key != shape {
            *e = Reach {
                key: shape,
                generation,
                ..Reach::EMPTY
            };
        }
        let new = (hero.hp, hero.limit);
        if reached {
            // A pair covers another if it is no greater in both.
            let covered = |&(h, l): &(i16, u8)| new.0 <= h && new.1 <= l;
            let at = e
                .reaches
                .iter()
                .position(covered)
                .unwrap_or_else(|| usize::from(e.reaches[1].0 > e.reaches[0].0));
            e.reaches[at] = new;
        } else {
            let covered = |&(h, l): &(i16, u8)| new.0 >= h && new.1 >= l;
            let at = e
                .fails
                .iter()
                .position(covered)
                .unwrap_or_else(|| usize::from(e.fails[1].0 < e.fails[0].0));
            e.fails[at] = new;
        }
    }
}

/// The solver for one game's rules.
pub struct Solver<'a> {
    rules: &'a Rules,
    memo: &'a mut Memo,
}

/// What a child of a node does.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Step {
    /// Faces the room and lives: the next node is the dungeon after the room was filled.
    Face,
    /// Avoids the room.
    Avoid,
    /// Dies in the room: the game ends with the child's score (its bound).
    Die,
}

/// A child of a node: a turn, where it leads, an upper bound on its score (the exact score of a
/// death), and the heuristic's value of it, which orders the search.
#[derive(Clone, Copy)]
struct Child {
    step: Step,
    turn: Turn,
    hero: Hero,
    left: u8,
    last: u8,
    bound: i16,
    rank: f32,
}

/// A node's children, with the two nodes they lead to before the room's choices: the dungeon
/// after filling the room (for the ways to face it) and after avoiding it.
struct Kids {
    items: [Child; KIDS],
    len: usize,
    faced: Node,
    avoided: Node,
}

impl Kids {
    /// The node `kid` leads to (not for a death).
    #[inline]
    fn node(&self, kid: &Child) -> Node {
        match kid.step {
            Step::Avoid => self.avoided,
            _ => Node {
                left: kid.left,
                hero: kid.hero,
                last: kid.last,
                ..self.faced
            },
        }
    }
}

impl Node {
    /// A node with no cards, to be overwritten.
    fn blank(rules: &Rules) -> Self {
        Self {
            dungeon: Dungeon::new(&[]),
            left: 0,
            hero: Hero::new(rules),
            avoided: false,
            avoids: 0,
            last: 0,
            counts: Counts::default(),
            order: 0,
        }
    }

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
            counts: Counts::of(&engine.dungeon().iter().collect::<Vec<_>>()),
            order: Order::of(engine.dungeon()),
        }
    }

    fn key(&self, rules: &Rules) -> u64 {
        let h = self.order;
        // The last card faced adds a bonus only to a win that faces nothing more: under
        // `end = lenient` (a node with cards to face under `all-cards` faces some).
        let b = if rules.end == End::Lenient {
            u64::from(bonus(rules, self.hero.hp, self.last))
        } else {
            0
        };
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

    /// The upper bound on the node's best score (see [`upper_bound`]).
    fn bound(&self, rules: &Rules) -> i16 {
        let mut future = self.counts;
        if self.left != 0 {
            future.add(self.left);
        }
        upper_bound(rules, &self.hero, &future, self.last)
    }

    /// The key of the node without its HP and its weapon's wear, for a null window at `beta`
    /// (see [`Reach`]).
    fn shape(&self, rules: &Rules, beta: i16) -> u64 {
        // The HP decides a bonus from the last card faced only with it: keep the card.
        let last = if rules.end == End::Lenient && card::is_potion(self.last) {
            self.last
        } else {
            0
        };
        let fields = u64::from(self.left)
            | u64::from(self.hero.weapon) << 8
            | u64::from(self.avoided) << 24
            | u64::from(last) << 32
            | (self.dungeon.len() as u64) << 40
            | u64::from(beta as u16) << 48;
        let avoids = if rules.avoid_in_a_row {
            u64::from(self.avoids)
        } else {
            0
        };
        splitmix64(
            self.order.rotate_left(17)
                ^ splitmix64(fields ^ 0x2545_f491_4f6c_dd1d)
                ^ splitmix64(avoids.wrapping_add(0x1b87_3593)),
        )
    }
}

/// The upper bound on the final score from `hero` with `future` to come, `last` the last card
/// faced (see the module notes).
fn upper_bound(rules: &Rules, hero: &Hero, future: &Counts, last: u8) -> i16 {
    let spare = future.best_weapon();
    // The least a monster of value `v` can cost: the best weapon that may still be used on it is
    // the one in hand if its wear allows `v` (wear only narrows what it may slay), or one to come.
    let blow = |v: u8| {
        let hand = if hero.can_use_weapon(v) {
            hero.weapon
        } else {
            0
        };
        i32::from(v - v.min(hand.max(spare)))
    };
    let mut base = i32::from(hero.hp) + future.potion_total() as i32;
    for v in 1..16u8 {
        base -= i32::from(future.monsters()[usize::from(v)]) * blow(v);
    }
    if rules.end == End::Lenient {
        // A lenient win leaves up to three cards unfaced: give back the three worst blows (a
        // blow never shrinks as the monster grows).
        let mut back = 0;
        for v in (1..16u8).rev() {
            let n = i32::from(future.monsters()[usize::from(v)]).min(3 - back);
            base += n * blow(v);
            back += n;
        }
    }
    let max_hp = i32::from(rules.max_hp);
    if base < max_hp {
        return base as i16;
    }
    // The bonus is a potion still to come (faced last), or under `end = lenient` (a win that
    // ends without facing more) possibly the last card already faced.
    let bonus = if !rules.potion_bonus {
        0
    } else if rules.end == End::Lenient && card::is_potion(last) {
        future.best_potion().max(card::value(last))
    } else {
        future.best_potion()
    };
    (max_hp + i32::from(bonus)) as i16
}

impl Solver<'_> {
    /// The children of `node`, best first by the heuristic; `None` if the game is over.
    fn children(&self, node: &Node, kids: &mut Kids) -> core::option::Option<()> {
        let rules = self.rules;
        let weights = Weights::default();
        let mut faced = *node;
        let mut room = [0u8; ROOM];
        let mut len = 0;
        if node.left != 0 {
            room[0] = node.left;
            len = 1;
        }
        while len < ROOM {
            let Some(code) = faced.dungeon.draw() else {
                break;
            };
            faced.counts.remove(code);
            faced.order = Order::draw(faced.order, code);
            room[len] = code;
            len += 1;
        }
        if len == 0 || (len < ROOM && rules.end == End::Lenient) {
            return None;
        }
        faced.avoided = false;
        kids.faced = faced;
        let full = len == ROOM;
        let to_face = if full { ROOM - 1 } else { len };
        let room = &room[..len];
        let future = faced.counts;
        let monsters_left = i16::try_from(future.monster_total()).unwrap_or(i16::MAX)
            + room
                .iter()
                .filter(|&&c| card::is_monster(c))
                .map(|&c| i16::from(card::value(c)))
                .sum::<i16>();
        let options = Options::new(rules, room, to_face, node.hero);
        let mut n = 0;
        let blank = Child {
            step: Step::Die,
            turn: Turn::AVOID,
            hero: node.hero,
            left: 0,
            last: node.last,
            bound: NONE,
            rank: 0.0,
        };
        if let Some(d) = options.death {
            let score = d.hero.hp - (monsters_left - i16::from(d.slain));
            kids.items[n] = Child {
                turn: d.turn,
                bound: score,
                rank: DEAD + f32::from(score),
                ..blank
            };
            n += 1;
        }
        for o in options.as_slice() {
            let mut f = future;
            if o.left != 0 {
                f.add(o.left);
            }
            let mut hero = o.hero;
            hero.new_turn();
            let bound = if faced.dungeon.is_empty() && o.left == 0 {
                hero.hp + i16::from(bonus(rules, hero.hp, o.last))
            } else {
                upper_bound(rules, &hero, &f, o.last)
            };
            kids.items[n] = Child {
                step: Step::Face,
                turn: o.turn,
                hero,
                left: o.left,
                last: o.last,
                bound,
                rank: weights.value(&hero, &f, false),
            };
            n += 1;
        }
        let can_avoid = full && (rules.avoid_in_a_row || !node.avoided) && node.avoids < MAX_AVOIDS;
        if can_avoid {
            let mut back = faced;
            for &code in room {
                back.order = Order::put_bottom(back.order, code, back.dungeon.len());
                back.dungeon.put_bottom(code);
                back.counts.add(code);
            }
            back.left = 0;
            back.hero = node.hero;
            back.avoided = true;
            back.avoids = node.avoids + 1;
            back.last = node.last;
            kids.avoided = back;
            kids.items[n] = Child {
                step: Step::Avoid,
                bound: upper_bound(rules, &node.hero, &back.counts, node.last),
                rank: weights.value(&node.hero, &back.counts, true),
                ..blank
            };
            n += 1;
        }
        kids.items[..n]
            .sort_unstable_by(|a, b| b.bound.cmp(&a.bound).then(b.rank.total_cmp(&a.rank)));
        kids.len = n;
        Some(())
    }

    /// Room for the children of a node: a spare one, or a new one the first times.
    #[inline]
    fn kids(&mut self) -> Box<Kids> {
        self.memo.spare.pop().unwrap_or_else(|| {
            let blank = Child {
                step: Step::Die,
                turn: Turn::AVOID,
                hero: Hero::new(self.rules),
                left: 0,
                last: 0,
                bound: NONE,
                rank: 0.0,
            };
            Box::new(Kids {
                items: [blank; KIDS],
                len: 0,
                faced: Node::blank(self.rules),
                avoided: Node::blank(self.rules),
            })
        })
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

    /// The best score from `node`, searched in the window `alpha < v < beta` (fail-soft): a
    /// value at most `alpha` is an upper bound on the best score, a value at least `beta` a
    /// score some line reaches (a lower bound), and a value in between the best score.
    pub fn solve(&mut self, node: &Node, alpha: i16, beta: i16) -> i16 {
        debug_assert!(alpha < beta);
        if self.finished(node) {
            return self.won(node);
        }
        let key = node.key(self.rules);
        if let Some((lower, upper)) = self.memo.get(key) {
            if lower >= beta || lower == upper {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
        }
        let null = alpha + 1 == beta;
        let shape = if null {
            node.shape(self.rules, beta)
        } else {
            0
        };
        if null {
            match self.memo.reach(shape, &node.hero) {
                Some(true) => return beta,
                Some(false) => return alpha,
                None => {}
            }
        }
        self.memo.nodes += 1;
        let mut kids = self.kids();
        self.children(node, &mut kids)
            .expect("an unfinished node has a room to play");
        let v = self.search(&kids, alpha, beta);
        self.memo.spare.push(kids);
        if null {
            self.memo.put_reach(shape, &node.hero, v >= beta);
        }
        let cards = node.dungeon.len() as u8;
        if v >= beta {
            self.memo.put(key, cards, v, TOP);
        } else if v > alpha {
            self.memo.put(key, cards, v, v);
        } else {
            self.memo.put(key, cards, NONE, v);
        }
        v
    }

    /// [`Solver::solve`] over the children `kids` of a node.
    fn search(&mut self, kids: &Kids, alpha: i16, beta: i16) -> i16 {
        // `best`: the best score found (a line reaches it once above `alpha`); `cap`: the best
        // upper bound of the children not searched.
        let mut best = NONE;
        let mut cap = NONE;
        for kid in &kids.items[..kids.len] {
            let floor = alpha.max(best);
            if kid.bound <= floor {
                cap = cap.max(kid.bound);
                continue;
            }
            let v = match kid.step {
                Step::Die => kid.bound,
                _ => self.solve(&kids.node(kid), floor, beta),
            };
            best = best.max(v);
            if best >= beta {
                return best;
            }
        }
        if best > alpha { best } else { best.max(cap) }
    }

    /// The best score from `node`, by null-window tests (each finds a line reaching a score, a
    /// lower bound, or proves an upper bound; fail-soft, the bounds are often far past the
    /// score tested): first at the upper bound of the whole game, which most deals reach; then
    /// whether a win is possible at all; then halving the interval between the best line found
    /// and the best upper bound proved. With no win, the best loss in one full window.
    pub fn best(&mut self, node: &Node) -> i16 {
        if self.finished(node) {
            return self.won(node);
        }
        let mut hi = node.bound(self.rules);
        let mut lo = NONE;
        let mut test = hi;
        while lo < hi {
            if test <= 0 {
                // No win: the best loss, exactly.
                return self.solve(node, NONE, hi + 1);
            }
            let v = self.solve(node, test - 1, test);
            if v >= test {
                lo = v;
            } else {
                hi = v;
            }
            test = if lo == NONE {
                hi.min(1)
            } else {
                lo + (hi - lo + 1) / 2
            };
        }
        lo
    }

    /// 1 if `node` can be won (no better score is looked for), else its best score (a loss).
    pub fn win_or_best_loss(&mut self, node: &Node) -> i16 {
        if self.finished(node) {
            return self.won(node);
        }
        if self.solve(node, 0, 1) > 0 {
            1
        } else {
            self.solve(node, NONE, 1)
        }
    }

    /// A turn from `node` whose line reaches `target`, the node's best score (`None` if the
    /// game is already over).
    pub fn turn_reaching(&mut self, node: &Node, target: i16) -> core::option::Option<Turn> {
        let mut kids = self.kids();
        self.children(node, &mut kids)?;
        for kid in &kids.items[..kids.len] {
            if kid.bound < target {
                continue;
            }
            let v = match kid.step {
                Step::Die => kid.bound,
                _ => self.solve(&kids.node(kid), target - 1, target),
            };
            if v >= target {
                return Some(kid.turn);
            }
        }
        unreachable!("the best score {target} is reached by some child")
    }
}

/// The best score of the game `engine` is at, before its next room, knowing the dungeon's order.
pub fn best_score(rules: &Rules, engine: &Engine) -> i16 {
    best_score_counted(rules, engine).0
}

/// The upper bound the search prunes with, on the best score of the game `engine` is at
/// before its next room (exposed for the tests, which check it against brute force).
pub fn score_bound(rules: &Rules, engine: &Engine) -> i16 {
    Node::of(engine).bound(rules)
}

/// [`best_score`] and the nodes the search expanded for it (a measure of its work that does not
/// depend on the machine).
pub fn best_score_counted(rules: &Rules, engine: &Engine) -> (i16, u64) {
    with_solver(rules, |s| {
        let start = s.memo.nodes;
        let score = s.best(&Node::of(engine));
        (score, s.memo.nodes - start)
    })
}

fn with_solver<T>(rules: &Rules, f: impl FnOnce(&mut Solver) -> T) -> T {
    MEMO.with(|m| {
        let mut memo = m.borrow_mut();
        let memo = &mut *memo;
        memo.generation = memo.generation.wrapping_add(1);
        if memo.generation == 0 {
            memo.entries.fill([Entry::default(); 2]);
            memo.reach.fill(Reach::EMPTY);
            memo.generation = 1;
        }
        let mut solver = Solver { rules, memo };
        f(&mut solver)
    })
}

/// What the clairvoyant player aims for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// The best score: the ceiling on the win rate and on the mean score.
    Best,
    /// Any win (the best loss if none): the ceiling on the win rate only, much faster to find
    /// since the first winning line found ends the search.
    Win,
}

/// The clairvoyant player.
pub struct Clairvoyant;

impl Clairvoyant {
    /// Plays `engine` to its end along a line reaching `goal`: solves the first room for the
    /// score to reach (the best score, or under [`Goal::Win`] 1 if the deal can be won), then in
    /// each room takes a turn whose line still reaches it (a line's score is fixed once the
    /// dungeon is known), with one table for the whole game.
    pub fn play<D: Dealer>(engine: Engine, rules: &Rules, avoid: &mut D, goal: Goal) -> Outcome {
        Self::play_observed(engine, rules, avoid, goal, &mut Unobserved)
    }

    /// The turn [`Clairvoyant::play`] takes in the room `engine` is in (after
    /// [`Engine::enter_room`] returned true), the game solved afresh from the room's start.
    pub fn turn(engine: &Engine, rules: &Rules, goal: Goal) -> Turn {
        with_solver(rules, |solver| {
            let node = Node::of(&engine.unfilled());
            let target = match goal {
                Goal::Best => solver.best(&node),
                Goal::Win => solver.win_or_best_loss(&node),
            };
            solver
                .turn_reaching(&node, target)
                .expect("a room to play is a room the solver plays")
        })
    }

    /// [`Clairvoyant::play`], reporting every event to `obs`.
    pub fn play_observed<D: Dealer, O: Observer<Seen>>(
        mut engine: Engine,
        rules: &Rules,
        avoid: &mut D,
        goal: Goal,
        obs: &mut O,
    ) -> Outcome {
        with_solver(rules, |solver| {
            let root = Node::of(&engine);
            let target = match goal {
                Goal::Best => solver.best(&root),
                Goal::Win => solver.win_or_best_loss(&root),
            };
            loop {
                let node = Node::of(&engine);
                if !engine.enter_room(rules) {
                    break;
                }
                let turn = solver
                    .turn_reaching(&node, target)
                    .expect("a room the engine plays is one the solver plays");
                engine.apply_observed(rules, &turn, avoid, obs);
            }
        });
        *engine.outcome()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_order_hash_follows_draws_and_puts_and_tells_orders_apart() {
        let mut dungeon = Dungeon::new(&[3, 0x21, 0x45, 7, 9, 0x2a]);
        let mut hash = Order::of(&dungeon);
        for round in 0..50u8 {
            let top = dungeon.draw().unwrap();
            hash = Order::draw(hash, top);
            assert_eq!(hash, Order::of(&dungeon), "round {round}");
            let back = if round % 3 == 0 {
                0x40 | (round % 10)
            } else {
                top
            };
            hash = Order::put_bottom(hash, back, dungeon.len());
            dungeon.put_bottom(back);
            assert_eq!(hash, Order::of(&dungeon), "round {round}");
        }
        assert_eq!(Order::INVERSE.wrapping_mul(Order::BASE), 1);
        assert_ne!(
            Order::of(&Dungeon::new(&[3, 7])),
            Order::of(&Dungeon::new(&[7, 3]))
        );
    }
}
