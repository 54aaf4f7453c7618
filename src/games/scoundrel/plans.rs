//! Every distinct way to play a room, with dominated ways dropped: what searches branch over.

use super::card;
use super::engine::{Turn, View};
use super::hero::Hero;
use super::rules::{ROOM, Rules};
use pair_states::{BASE, CHOICES, Pairs};

/// Calls `$f::<BARE, DISCARD>(args)` with the rules' two choices, `barehanded` and
/// `weapon_discard`, as constants: each combination is compiled apart.
macro_rules! by_choices {
    ($rules:expr, $($f:ident)::+ ($($arg:expr),* $(,)?)) => {
        match ($rules.barehanded, $rules.weapon_discard) {
            (true, false) => $($f)::+::<true, false>($($arg),*),
            (true, true) => $($f)::+::<true, true>($($arg),*),
            (false, false) => $($f)::+::<false, false>($($arg),*),
            (false, true) => $($f)::+::<false, true>($($arg),*),
        }
    };
}

// After `by_choices!`, which its tests use.
mod pair_states;

/// The most ways to face a room: 4 cards to leave, 6 orders, weapon or not on 3 monsters.
pub const MAX_OPTIONS: usize = 4 * 6 * 8;

/// The orders of three cards, as positions.
const ORDERS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// One way of facing a room (the cards' order, the weapon used or not on each) and where it
/// leaves the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Way {
    /// The turn.
    pub turn: Turn,
    /// The hero after the room (HP at or below 0 if it killed).
    pub hero: Hero,
    /// The card left in the room for the next (0 if none).
    pub left: u8,
    /// The last card faced.
    pub last: u8,
    /// The sum of the monsters faced.
    pub slain: u8,
    /// The potion value a win right after this room would add to the score.
    pub bonus: u8,
}

impl Way {
    /// A filler for lists of ways, never one of them.
    pub const NONE: Way = Way {
        turn: Turn::AVOID,
        hero: Hero {
            hp: 0,
            weapon: 0,
            limit: 0,
            heals: 0,
        },
        left: 0,
        last: 0,
        slain: 0,
        bonus: 0,
    };

    /// True if the player survives the room.
    #[inline]
    pub fn alive(&self) -> bool {
        self.hero.alive()
    }

    /// True if `self` is at least as good as `other` in every respect a later room can see
    /// (both leave the same card: [`Options`] compares only those).
    #[inline(always)]
    fn dominates(&self, other: &Way) -> bool {
        debug_assert_eq!(self.left, other.left);
        (self.hero.weapon == other.hero.weapon)
            & (self.hero.hp >= other.hero.hp)
            & (self.hero.limit >= other.hero.limit)
            & (self.bonus >= other.bonus)
    }
}

/// The non-dominated ways to face a room, plus the best way to die in it (the most monsters
/// faced before dying, which is the best losing score).
#[derive(Clone, Debug)]
pub struct Options {
    items: [Way; MAX_OPTIONS],
    len: usize,
    /// Where the options leaving the current card start: only they can dominate each other.
    group: usize,
    /// The best fatal way, if any way kills.
    pub death: Option<Way>,
}

impl Options {
    /// The ways to face the room of `view` (not avoiding it).
    pub fn of(rules: &Rules, view: &View) -> Self {
        Self::new(rules, view.room, view.to_face, view.hero)
    }

    /// The ways to face `room`, `to_face` of its cards, starting as `hero`.
    pub fn new(rules: &Rules, room: &[u8], to_face: usize, hero: Hero) -> Self {
        by_choices!(rules, Self::build(rules, room, to_face, hero))
    }

    /// [`Options::new`] with `BARE` = `rules.barehanded`, `DISCARD` = `rules.weapon_discard`.
    fn build<const BARE: bool, const DISCARD: bool>(
        rules: &Rules,
        room: &[u8],
        to_face: usize,
        hero: Hero,
    ) -> Self {
        let mut me = Self::empty(hero);
        let mut start = hero;
        start.new_turn();
        if to_face == room.len() {
            // The last room: face every card, in every order.
            let mut idx = [0u8, 1, 2, 3];
            let n = room.len();
            permute(&mut idx, 0, n, &mut |order| {
                me.walk::<BARE, DISCARD>(rules, room, order, n, 0, start, 0, 0, 0);
            });
            return me;
        }
        full::<BARE, DISCARD>(&mut me, rules, room, start);
        me
    }

    /// No options yet.
    fn empty(hero: Hero) -> Self {
        let blank = Way {
            turn: Turn::AVOID,
            hero,
            left: 0,
            last: 0,
            slain: 0,
            bonus: 0,
        };
        Self {
            items: [blank; MAX_OPTIONS],
            len: 0,
            group: 0,
            death: None,
        }
    }

    /// The options, best-first in no particular order.
    pub fn as_slice(&self) -> &[Way] {
        &self.items[..self.len]
    }

    #[allow(clippy::too_many_arguments)]
    fn walk<const BARE: bool, const DISCARD: bool>(
        &mut self,
        rules: &Rules,
        room: &[u8],
        order: [u8; ROOM],
        n: usize,
        left: u8,
        hero: Hero,
        step: usize,
        mask: u8,
        slain: u8,
    ) {
        if step == n {
            let last = room[usize::from(order[n - 1])];
            self.insert(Way {
                turn: Turn::plan(order, mask),
                hero,
                left,
                last,
                slain,
                bonus: super::engine::bonus(rules, hero.hp, last),
            });
            return;
        }
        let code = room[usize::from(order[step])];
        let monster = card::is_monster(code);
        let slain = slain + if monster { card::value(code) } else { 0 };
        let (next, _) = faced::<BARE, DISCARD>(rules, hero, code, 0, 0);
        self.branch::<BARE, DISCARD>(rules, room, order, n, left, next, step, mask, slain, code);
        if arms::<BARE, DISCARD>(&hero, code) == 2 {
            let (armed, _) = faced::<BARE, DISCARD>(rules, hero, code, 1, 0);
            self.branch::<BARE, DISCARD>(
                rules,
                room,
                order,
                n,
                left,
                armed,
                step,
                mask | 1 << step,
                slain,
                code,
            );
        }
    }

    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn branch<const BARE: bool, const DISCARD: bool>(
        &mut self,
        rules: &Rules,
        room: &[u8],
        order: [u8; ROOM],
        n: usize,
        left: u8,
        hero: Hero,
        step: usize,
        mask: u8,
        slain: u8,
        code: u8,
    ) {
        if hero.alive() {
            self.walk::<BARE, DISCARD>(rules, room, order, n, left, hero, step + 1, mask, slain);
            return;
        }
        let dead = Way {
            turn: Turn::plan(order, mask),
            hero,
            left,
            last: code,
            slain,
            bonus: 0,
        };
        keep_death(&mut self.death, dead);
    }

    fn insert(&mut self, new: Way) {
        insert_into(&mut self.items, self.group, &mut self.len, new);
    }
}

/// Where an enumeration of a room's ways to face it hands them, in order.
pub trait Lines {
    /// The order to enumerate the groups of ways in, by the index of the card they leave:
    /// within a group the ways always come in the same order, and a group leaving the same card
    /// as one of a lower index is skipped.
    fn groups(&mut self, _: &[u8; ROOM]) -> [usize; ROOM] {
        [0, 1, 2, 3]
    }

    /// The ways leaving `codes[left]` start; false to skip them.
    fn group(&mut self, codes: &[u8; ROOM], left: usize) -> bool;
    /// A way that kills.
    fn died(&mut self, dead: Way);
    /// A way the player survives.
    fn lived(&mut self, way: Way);
}

impl Lines for Options {
    #[inline(always)]
    fn group(&mut self, _: &[u8; ROOM], _: usize) -> bool {
        self.group = self.len;
        true
    }

    #[inline(always)]
    fn died(&mut self, dead: Way) {
        keep_death(&mut self.death, dead);
    }

    #[inline(always)]
    fn lived(&mut self, way: Way) {
        self.insert(way);
    }
}

/// The most ways that leave one card of a full room: 6 orders, weapon or not on 3 monsters.
const GROUP: usize = 6 * 8;

/// The non-dominated ways of a full room that leave one card, in the order [`Options`] lists
/// them: a sink for [`visit`] that skips the other groups.
#[derive(Clone, Debug)]
pub struct Group {
    /// The index in the room of the card left.
    left: usize,
    items: [Way; GROUP],
    len: usize,
}

impl Group {
    /// No ways yet of the group leaving the room's card `left` (an index).
    pub fn new(left: usize) -> Self {
        Self {
            left,
            items: [Way::NONE; GROUP],
            len: 0,
        }
    }

    /// The ways, as [`Options::as_slice`] has them in this group's place.
    pub fn as_slice(&self) -> &[Way] {
        &self.items[..self.len]
    }
}

impl Lines for Group {
    #[inline(always)]
    fn group(&mut self, _: &[u8; ROOM], left: usize) -> bool {
        left == self.left
    }

    #[inline(always)]
    fn died(&mut self, _: Way) {}

    #[inline(always)]
    fn lived(&mut self, way: Way) {
        insert_into(&mut self.items, 0, &mut self.len, way);
    }
}

/// The best way to die in a full room, as [`Options::death`] has it: a sink for [`visit`] that
/// keeps nothing else (no list built, for a room where no way lives).
#[derive(Clone, Copy, Debug, Default)]
pub struct Death(pub Option<Way>);

impl Lines for Death {
    #[inline(always)]
    fn group(&mut self, _: &[u8; ROOM], _: usize) -> bool {
        true
    }

    #[inline(always)]
    fn died(&mut self, dead: Way) {
        keep_death(&mut self.0, dead);
    }

    #[inline(always)]
    fn lived(&mut self, _: Way) {}
}

/// Hands `lines` the ways to face three of the four cards of the full room `room`, starting as
/// `hero`, in the order [`Options::new`] lists them before dominated ways are dropped, less
/// exact repeats of an earlier way of the same group, which change nothing a sink keeps.
#[inline]
pub fn visit<L: Lines>(rules: &Rules, room: &[u8], hero: Hero, lines: &mut L) {
    debug_assert_eq!(room.len(), ROOM);
    let mut start = hero;
    start.new_turn();
    by_choices!(rules, full(lines, rules, room, start))
}

/// [`visit`] without the ways that kill: hands `lines` the living ways of each group it enters,
/// in [`visit`]'s order, less exact repeats of an earlier way of the same group (the same ones
/// [`visit`] leaves out), and never calls [`Lines::died`]. For a sink that needs only the
/// living ways (the best of a room where one lives); the states after the first two cards are
/// made for every ordered pair at once ([`Pairs`]), each read by the two groups that face both.
#[inline]
pub fn visit_living<L: Lines>(rules: &Rules, room: &[u8], hero: Hero, lines: &mut L) {
    debug_assert_eq!(room.len(), ROOM);
    let mut start = hero;
    start.new_turn();
    by_choices!(rules, living(lines, rules, room, start))
}

/// [`visit_living`] with `BARE` = `rules.barehanded`, `DISCARD` = `rules.weapon_discard`:
/// the lines of [`full`] that live, from the states after the first two cards of every ordered
/// pair ([`Pairs`], made at once).
#[inline]
fn living<const BARE: bool, const DISCARD: bool>(
    lines: &mut impl Lines,
    rules: &Rules,
    room: &[u8],
    start: Hero,
) {
    let codes: [u8; ROOM] = [room[0], room[1], room[2], room[3]];
    let pairs = Pairs::of::<BARE, DISCARD>(rules, &codes, start);
    let seen = repeats(&codes);
    for left in lines.groups(&codes) {
        if seen[left] || !lines.group(&codes, left) {
            continue;
        }
        // Every living way ends with all three cards faced: their monsters slain.
        let slain = OTHERS[left]
            .iter()
            .map(|&k| {
                let code = codes[usize::from(k)];
                card::value(code) * u8::from(card::is_monster(code))
            })
            .sum::<u8>();
        for &order in &BY_LEFT[left] {
            let [p, q, r] = [0, 1, 2].map(|k| usize::from(order[k]));
            let at = p * ROOM + q;
            let base = usize::from(BASE[at]);
            // The pair's kept states in their order, the first card's choice first.
            let mut kept = pairs.kept[at];
            while kept != 0 {
                let i = kept.trailing_zeros() as usize;
                kept &= kept - 1;
                let (h2, m2) = (pairs.hero(base + i), CHOICES[i]);
                for a2 in 0..arms::<BARE, DISCARD>(&h2, codes[r]) {
                    let (h3, _) = faced::<BARE, DISCARD>(rules, h2, codes[r], a2, 0);
                    if h3.alive() {
                        lines.lived(Way {
                            turn: Turn::plan(order, m2 | a2 << 2),
                            hero: h3,
                            left: codes[left],
                            last: codes[r],
                            slain,
                            bonus: super::engine::bonus(rules, h3.hp, codes[r]),
                        });
                    }
                }
            }
        }
    }
}

/// Keeps `dead` in `death` if it is the best way to die so far: the most monsters faced (the
/// first of equals).
#[inline]
fn keep_death(death: &mut Option<Way>, dead: Way) {
    let better =
        death.is_none_or(|d| i16::from(dead.slain) + dead.hero.hp > i16::from(d.slain) + d.hero.hp);
    if better {
        *death = Some(dead);
    }
}

/// Adds `new` to the ways `items[start..*len]` unless one dominates it, dropping those it
/// dominates (the last moved into each gap): the ways stay free of dominated ones, the first of
/// equals kept.
#[inline]
pub fn insert_into(items: &mut [Way], start: usize, len: &mut usize, new: Way) {
    let mut i = start;
    while i < *len {
        if items[i].dominates(&new) {
            return;
        }
        if new.dominates(&items[i]) {
            *len -= 1;
            items[i] = items[*len];
        } else {
            i += 1;
        }
    }
    items[*len] = new;
    *len += 1;
}

/// Every way to face three of the four cards of a full room, grouped by the card left, in
/// the orders of [`ORDERS`] (the hot path of every search): the same lines in the same order
/// as [`Options::walk`] of each order (`start` has begun its turn), the states after the first
/// and the first two cards computed once for every order that starts with them (a room's plays
/// are a tree). The lines after two cards that the reverse order of the same two reached in
/// the same state are left out: they repeat lines met earlier in the group exactly, which
/// [`insert_into`] drops (a way in the list dominates them and they dominate none there),
/// and [`keep_death`] and the searches' sinks keep the first of equals.
#[inline]
fn full<const BARE: bool, const DISCARD: bool>(
    lines: &mut impl Lines,
    rules: &Rules,
    room: &[u8],
    start: Hero,
) {
    let codes: [u8; ROOM] = [room[0], room[1], room[2], room[3]];
    // A constant filler, so the tables below start as a plain fill of zeros.
    const NONE: (Hero, u8) = (
        Hero {
            hp: 0,
            weapon: 0,
            limit: 0,
            heals: 0,
        },
        0,
    );
    // After the first card: by its index and choice, and how many choices it had.
    let mut one = [[NONE; 2]; ROOM];
    let mut ones = [0u8; ROOM];
    // After the first two: by the first's index, its choice, the second's index and its
    // choice (`[x][a0][y][a1]`), and how many choices the second had.
    let mut two = [[[[NONE; 2]; ROOM]; 2]; ROOM];
    let mut twos = [[[0u8; ROOM]; 2]; ROOM];
    for x in 0..ROOM {
        ones[x] = arms::<BARE, DISCARD>(&start, codes[x]);
        for a0 in 0..ones[x] {
            let (h1, s1) = faced::<BARE, DISCARD>(rules, start, codes[x], a0, 0);
            one[x][usize::from(a0)] = (h1, s1);
            if !h1.alive() {
                continue;
            }
            for y in OTHERS[x] {
                let y = usize::from(y);
                let n = arms::<BARE, DISCARD>(&h1, codes[y]);
                twos[x][usize::from(a0)][y] = n;
                for a1 in 0..n {
                    two[x][usize::from(a0)][y][usize::from(a1)] =
                        faced::<BARE, DISCARD>(rules, h1, codes[y], a1, s1);
                }
            }
        }
    }
    // The first choice after the first two cards to enumerate: a state after the first two
    // cards in one order that the other order reaches by the same choice on each card (the
    // pair commutes) gives the same lines, which the other order, visited earlier in every
    // group, already gave. Only the later order's states are skipped: `[x][a0][y]` with y < x.
    let mut from = [[[0u8; ROOM]; 2]; ROOM];
    // Without a branch (the states come in random order): a choice out of range, or after a
    // fatal first card, is the dead filler of the tables, never equal to a living state.
    let key = |(hero, slain): (Hero, u8)| {
        u64::from(hero.hp as u16)
            | u64::from(hero.weapon) << 16
            | u64::from(hero.limit) << 24
            | u64::from(hero.heals) << 32
            | u64::from(slain) << 40
    };
    for x in 1..ROOM {
        for a0 in 0..2 {
            for y in 0..x {
                let same = [0, 1].map(|a1| {
                    let state = two[x][a0][y][a1];
                    state.0.alive() & (key(two[y][a1][x][a0]) == key(state))
                });
                // The kept choices are a range, `from..twos`.
                from[x][a0][y] = u8::from(same[0]) + u8::from(same[0] & same[1]);
                twos[x][a0][y] -= u8::from(same[1] & !same[0]);
            }
        }
    }
    let seen = repeats(&codes);
    for left in lines.groups(&codes) {
        if seen[left] || !lines.group(&codes, left) {
            continue;
        }
        for &order in &BY_LEFT[left] {
            let [p, q, r] = [0, 1, 2].map(|k| usize::from(order[k]));
            let line = |hero: Hero, mask: u8, slain: u8, k: usize| Way {
                turn: Turn::plan(order, mask),
                hero,
                left: codes[left],
                last: codes[usize::from(order[k])],
                slain,
                bonus: 0,
            };
            for a0 in 0..ones[p] {
                let (h1, s1) = one[p][usize::from(a0)];
                let m1 = a0;
                if !h1.alive() {
                    lines.died(line(h1, m1, s1, 0));
                    continue;
                }
                for a1 in from[p][usize::from(a0)][q]..twos[p][usize::from(a0)][q] {
                    let (h2, s2) = two[p][usize::from(a0)][q][usize::from(a1)];
                    let m2 = m1 | a1 << 1;
                    if !h2.alive() {
                        lines.died(line(h2, m2, s2, 1));
                        continue;
                    }
                    for a2 in 0..arms::<BARE, DISCARD>(&h2, codes[r]) {
                        let (h3, s3) = faced::<BARE, DISCARD>(rules, h2, codes[r], a2, s2);
                        let m3 = m2 | a2 << 2;
                        if !h3.alive() {
                            lines.died(line(h3, m3, s3, 2));
                            continue;
                        }
                        lines.lived(Way {
                            bonus: super::engine::bonus(rules, h3.hp, codes[r]),
                            ..line(h3, m3, s3, 2)
                        });
                    }
                }
            }
        }
    }
}

/// For each card of the room, whether a card of a lower index has the same code: a group
/// leaving such a card is the same group as the lower one's. Worked out without a branch per
/// card (the cards come in random order).
#[inline(always)]
fn repeats(codes: &[u8; ROOM]) -> [bool; ROOM] {
    [
        false,
        codes[1] == codes[0],
        (codes[2] == codes[0]) | (codes[2] == codes[1]),
        (codes[3] == codes[0]) | (codes[3] == codes[1]) | (codes[3] == codes[2]),
    ]
}

/// The choices for `code`: 2 for a monster the weapon may be used on while the rules let the
/// player fight barehanded (`BARE`; 0 barehanded, 1 with the weapon), and for a weapon the rules
/// let the player discard (`DISCARD`; 0 equip, 1 discard); else 1.
#[inline(always)]
fn arms<const BARE: bool, const DISCARD: bool>(hero: &Hero, code: u8) -> u8 {
    let fight = BARE && card::is_monster(code) && hero.can_use_weapon(card::value(code));
    let discard = DISCARD && card::is_weapon(code);
    1 + u8::from(fight | discard)
}

/// `hero` after facing `code` with choice `armed` (see [`arms`]; the weapon is always used
/// when the rules give no barehanded choice), and the monsters slain so far.
#[inline(always)]
fn faced<const BARE: bool, const DISCARD: bool>(
    rules: &Rules,
    mut hero: Hero,
    code: u8,
    armed: u8,
    slain: u8,
) -> (Hero, u8) {
    if !(DISCARD && armed == 1 && card::is_weapon(code)) {
        hero.face(rules, code, armed == 1 || !BARE);
    }
    // Without a branch: the kinds come in random order.
    let monster = card::value(code) * u8::from(card::is_monster(code));
    (hero, slain + monster)
}

/// The three indices of a full room other than each.
const OTHERS: [[u8; 3]; ROOM] = [[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]];

/// The orders of a group, by the index of the card it leaves: the three others in the orders
/// of [`ORDERS`], the card left last (a [`Turn`]'s order), read from one table instead of
/// being put together for every group entered.
const BY_LEFT: [[[u8; ROOM]; 6]; ROOM] = {
    let mut by = [[[0u8; ROOM]; 6]; ROOM];
    let mut left = 0;
    while left < ROOM {
        let rest = OTHERS[left];
        let mut o = 0;
        while o < 6 {
            let [i, j, k] = ORDERS[o];
            by[left][o] = [rest[i], rest[j], rest[k], left as u8];
            o += 1;
        }
        left += 1;
    }
    by
};

/// Calls `f` with every order of the first `n` entries of `idx` (the rest unchanged).
fn permute(idx: &mut [u8; ROOM], k: usize, n: usize, f: &mut impl FnMut([u8; ROOM])) {
    if k + 1 >= n {
        f(*idx);
        return;
    }
    for i in k..n {
        idx.swap(k, i);
        permute(idx, k + 1, n, f);
        idx.swap(k, i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::scoundrel::hero::FRESH;
    use crate::rng::GameRng;
    use crate::rules::load;

    /// The ways to face a full room by the general walk of every order, group by group: the
    /// slow second implementation of [`Options::full`].
    fn by_walks<const B: bool, const D: bool>(rules: &Rules, room: &[u8], hero: Hero) -> Options {
        let mut me = Options::empty(hero);
        let mut start = hero;
        start.new_turn();
        for left in 0..ROOM {
            if room[..left].contains(&room[left]) {
                continue;
            }
            me.group = me.len;
            let rest = OTHERS[left];
            for o in ORDERS {
                let order = [rest[o[0]], rest[o[1]], rest[o[2]], left as u8];
                me.walk::<B, D>(rules, room, order, ROOM - 1, room[left], start, 0, 0, 0);
            }
        }
        me
    }

    /// A sink that enters the groups in a given order, only those of `enter` (by index), and
    /// records the living ways.
    struct Record {
        order: [usize; ROOM],
        enter: [bool; ROOM],
        lived: Vec<Way>,
        died: usize,
    }

    impl Lines for Record {
        fn groups(&mut self, _: &[u8; ROOM]) -> [usize; ROOM] {
            self.order
        }
        fn group(&mut self, _: &[u8; ROOM], left: usize) -> bool {
            self.enter[left]
        }
        fn died(&mut self, _: Way) {
            self.died += 1;
        }
        fn lived(&mut self, way: Way) {
            self.lived.push(way);
        }
    }

    /// Case `game` of a test seeded `seed`: the deck shuffled (its first cards the room) and a
    /// hero with 1 to 20 HP, one of `weapons` with one of `limits`, a potion drunk this turn or
    /// not, all from the case's index.
    pub(super) fn case(
        rules: &Rules,
        seed: u64,
        game: u64,
        weapons: [u8; 4],
        limits: [u8; 4],
    ) -> (Vec<u8>, Hero) {
        let mut cards = rules.deck();
        GameRng::new(seed, game, 0).shuffle(&mut cards);
        let g = game as usize;
        let mut hero = Hero::new(rules);
        hero.hp = 1 + (g % 20) as i16;
        hero.weapon = weapons[g % 4];
        hero.limit = limits[g / 4 % 4];
        hero.heals = (g / 16 % 2) as u8;
        (cards, hero)
    }

    /// The rule variants the enumeration's tests run under: each choice a room's search is
    /// compiled for (wear, barehanded, discarding a weapon) and the potions' rules.
    pub(super) const VARIANTS: [&[&str]; 7] = [
        &[],
        &["weapon_wear=strict"],
        &["barehanded=false"],
        &["weapon_discard=true"],
        &["weapon_discard=true", "barehanded=false"],
        &["potions_per_turn=2", "potion_bonus=true"],
        &["potions_per_turn=0", "max_hp=25"],
    ];

    /// The rules with `sets` (`path=value`) applied to the defaults.
    pub(super) fn rules_under(sets: &[&str]) -> Rules {
        let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
        load(None, &sets).unwrap()
    }

    #[test]
    fn the_living_ways_are_those_of_the_full_enumeration_in_its_order() {
        let (mut ways, mut partial) = (0, 0);
        for sets in VARIANTS {
            let rules = rules_under(sets);
            for game in 0..3000u64 {
                let (cards, hero) = case(&rules, 5, game, [0, 2, 6, 10], [FRESH, 3, 8, 13]);
                let room = &cards[..ROOM];
                let g = game as usize;
                // Every order of the groups in turn, every subset of them entered.
                let mut order = [0u8, 1, 2, 3];
                let mut orders = Vec::new();
                permute(&mut order, 0, ROOM, &mut |o| {
                    orders.push(o.map(usize::from))
                });
                let record = || Record {
                    order: orders[g % orders.len()],
                    enter: core::array::from_fn(|k| (g / 24 + 1) >> k & 1 == 1),
                    lived: Vec::new(),
                    died: 0,
                };
                let (mut all, mut living) = (record(), record());
                visit(&rules, room, hero, &mut all);
                visit_living(&rules, room, hero, &mut living);
                assert_eq!(all.lived, living.lived, "{room:?} {hero:?} {sets:?}");
                assert_eq!(living.died, 0);
                ways += living.lived.len();
                partial += usize::from(living.enter.contains(&false) && !living.lived.is_empty());
            }
        }
        // Many ways compared, with groups left out and entered out of order.
        assert!(ways > 50_000 && partial > 5_000, "{ways} {partial}");
    }

    #[test]
    fn the_shared_prefixes_give_the_general_walks_lines_in_its_order() {
        for sets in [
            &[][..],
            &["weapon_wear=strict"],
            &["barehanded=false"],
            &["weapon_discard=true"],
            &["potions_per_turn=2", "potion_bonus=true"],
        ] {
            let rules = rules_under(sets);
            let (mut lines, mut deaths) = (0, 0);
            for game in 0..4000u64 {
                let (cards, hero) = case(&rules, 3, game, [0, 3, 7, 10], [FRESH, 5, 9, 14]);
                let room = &cards[..ROOM];
                let fast = Options::new(&rules, room, ROOM - 1, hero);
                let slow = by_choices!(rules, by_walks(&rules, room, hero));
                assert_eq!(fast.as_slice(), slow.as_slice(), "{room:?} {hero:?}");
                assert_eq!(fast.death, slow.death, "{room:?} {hero:?}");
                let mut death = Death::default();
                visit(&rules, room, hero, &mut death);
                assert_eq!(death.0, fast.death, "{room:?} {hero:?}");
                lines += fast.as_slice().len();
                deaths += usize::from(fast.death.is_some());
            }
            // Both living and fatal lines were compared.
            assert!(lines > 4000 && deaths > 400, "{lines} {deaths}");
        }
    }
}
