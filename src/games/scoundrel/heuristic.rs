//! The parameterized heuristic: every way to play the room, scored by [`Weights`]; the weights
//! come from a strategy file or the built-in defaults.
//!
//! ```toml
//! name = "weapon-saver"        # optional; defaults to the file name
//! description = "..."          # optional
//! [weights]                    # any subset; the rest keep their defaults
//! potion = 1.1                 # worth of a potion point still to come
//! weapon = 0.2                 # worth of a point the weapon in hand can still absorb
//! spare = 1.5                  # worth of a weapon point still to come
//! danger_hp = 18.0             # HP under which low HP costs extra...
//! danger = 0.8                 # ...this much per HP
//! avoid = 0.0                  # the cost of avoiding a room
//! ```

use std::path::Path;

use serde::Deserialize;

use crate::error::{Result, SimError};
use crate::rng::GameRng;

use super::card::Counts;
use super::engine::{Turn, View};
use super::evaluate::{self, Evaluation, Weights};
use super::features::Summary;
use super::hero::Hero;
use super::plans::{self, Lines, Options};
use super::played;
use super::policy::{Decision, Policy};
use super::rules::{ROOM, Rules};
use group_bounds::Cards;

mod group_bounds;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    name: core::option::Option<String>,
    #[serde(default)]
    description: core::option::Option<String>,
    #[serde(default)]
    weights: Weights,
}

/// The heuristic with its weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Heuristic {
    /// Display name.
    pub name: String,
    /// What the file says the strategy is for.
    pub description: core::option::Option<String>,
    /// The evaluation's weights.
    pub weights: Weights,
}

impl Default for Heuristic {
    fn default() -> Self {
        Self {
            name: "heuristic".into(),
            description: None,
            weights: Weights::default(),
        }
    }
}

impl Heuristic {
    /// Reads and checks a strategy file.
    pub fn load(path: &Path) -> Result<Self> {
        let file: File = crate::rules::read_toml(path, "cannot read strategy file")?;
        let w = file.weights;
        for (field, v) in [
            ("potion", w.potion),
            ("weapon", w.weapon),
            ("spare", w.spare),
            ("danger_hp", w.danger_hp),
            ("danger", w.danger),
            ("avoid", w.avoid),
        ] {
            if !v.is_finite() || !(-100.0..=100.0).contains(&v) {
                return Err(SimError::input(format!(
                    "{}: weights.{field} = {v} is out of range: allowed -100..=100",
                    path.display()
                )));
            }
        }
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "strategy".into());
        Ok(Self {
            name: file.name.unwrap_or(stem),
            description: file.description,
            weights: w,
        })
    }
}

/// The future cards after avoiding the room of `view`.
#[inline]
pub fn future_avoided(view: &View) -> Counts {
    let mut f = *view.dungeon;
    for &c in view.room {
        f.add(c);
    }
    f
}

/// The best turn in `view` by `weights`, with its value; `options` are the room's ways to face.
#[inline]
pub fn best_turn<E: Evaluation>(weights: &E, view: &View, options: &Options) -> (Turn, f32) {
    let mut best = (Turn::AVOID, f32::NEG_INFINITY);
    let ready = Summary::of(view.dungeon);
    for o in options.as_slice() {
        let v = weights.value_after(&ready, &o.hero, o.left);
        if v > best.1 {
            best = (o.turn, v);
        }
    }
    let avoided = || weights.value(&view.hero, &future_avoided(view), true);
    finish(view, best, avoided, || options.death)
}

/// The best way to face the room (`(AVOID, -inf)` if none lives) weighed against avoiding it
/// (of value `avoided`, asked only if the room may be avoided), and the best way to die if
/// nothing else is left.
#[inline]
fn finish(
    view: &View,
    mut best: (Turn, f32),
    avoided: impl FnOnce() -> f32,
    death: impl FnOnce() -> Option<plans::Way>,
) -> (Turn, f32) {
    if view.can_avoid {
        let v = avoided();
        if v > best.1 {
            best = (Turn::AVOID, v);
        }
    }
    if best.1 == f32::NEG_INFINITY {
        // Every way kills: die facing the most monsters.
        let death = death().expect("a room with no living play has a fatal one");
        best = (death.turn, super::evaluate::DEAD);
    }
    best
}

/// [`best_turn`] over the ways to face the room of `view`, the same turn and value to the bit.
///
/// For [monotone weights](Evaluation::monotone_weights) and a full room, each way is scored as
/// it is enumerated, without the list: [`best_turn`] takes the first way of highest value in the
/// list, and every way the list drops is dominated by one it keeps, which leaves the same card
/// and so scores at least as much. So the highest value in the list is the highest of all ways,
/// found first in the first group (card left) that reaches it; in that group the list keeps, of
/// the ways reaching it, those no other dominates (the first of equals). When that is one way it
/// is the choice; when it is several, which comes first depends on the list's order, and that
/// group's part of the list is built ([`plans::Group`]: a group's place in the list depends on
/// its own ways alone) to decide. The groups are enumerated by an upper bound on their values,
/// highest first, so the best is met early and a group whose bound cannot beat it is skipped
/// (the earlier group still winning ties). Only the living ways are enumerated
/// ([`plans::visit_living`]: the states after any two cards made at once, in SSE2 lanes on
/// x86-64); when none lives and the room may not be avoided, the ways are enumerated again
/// for the list's best way to die ([`plans::Death`]).
#[inline]
pub fn choose_turn<E: Evaluation>(rules: &Rules, eval: &E, view: &View) -> (Turn, f32) {
    if let Some(weights) = eval.monotone_weights()
        && view.room.len() == ROOM
        && view.to_face == ROOM - 1
    {
        let ready = Summary::of(view.dungeon);
        let mut top = Top::new(rules, weights, &ready, view.hero);
        plans::visit_living(rules, view.room, view.hero, &mut top);
        // The value of avoiding, from the summary (the room's cards go back to the dungeon).
        let avoided = || weights.value_avoided(&ready, &view.hero, view.room);
        let best = match (top.len, top.crowded) {
            (0, _) => {
                let none = (Turn::AVOID, f32::NEG_INFINITY);
                // The best way to die is the list's, found only if it is needed (rare: the
                // room cannot be avoided), without building the list.
                let death = || {
                    let mut death = plans::Death::default();
                    plans::visit(rules, view.room, view.hero, &mut death);
                    death.0
                };
                return finish(view, none, avoided, death);
            }
            (1, false) => (top.ties[0].turn, top.value),
            _ => top.first_of_ties(rules, view),
        };
        return finish(view, best, avoided, || None);
    }
    best_turn(eval, view, &Options::of(rules, view))
}

/// Ways of equal highest value [`Top`] tells apart before it gives up and builds the list.
const TIES: usize = 4;

/// The highest-valued ways to face a room, kept as they are enumerated (see [`choose_turn`]).
struct Top<'a> {
    /// The hero entering the room.
    hero: Hero,
    max_hp: i16,
    /// Potions that may heal in a turn.
    heals: u8,
    /// True if the rules let a weapon faced be discarded.
    discard: bool,
    weights: &'a Weights,
    ready: &'a Summary,
    /// The scorer of the current group's ways, made when the group is entered.
    score: evaluate::After<'a>,
    /// The bounds of the groups, by the index of the card left.
    bounds: [f32; ROOM],
    /// The index of the current group's card left.
    group: u8,
    /// The group of the highest value.
    at: u8,
    /// The highest value so far.
    value: f32,
    /// The ways of that group reaching it that no other dominates, the first of equals.
    ties: [plans::Way; TIES],
    len: usize,
    /// True if more than [`TIES`] such ways were met.
    crowded: bool,
}

impl<'a> Top<'a> {
    /// Nothing found yet in the room entered as `hero`, with the dungeon of `ready` to come.
    fn new(rules: &Rules, weights: &'a Weights, ready: &'a Summary, hero: Hero) -> Self {
        Self {
            hero,
            max_hp: i16::from(rules.max_hp),
            heals: rules.potions_per_turn,
            discard: rules.weapon_discard,
            // Made by `group` before any way is scored.
            score: weights.unset(),
            bounds: [0.0; ROOM],
            weights,
            ready,
            group: 0,
            at: u8::MAX,
            value: f32::NEG_INFINITY,
            ties: [plans::Way::NONE; TIES],
            len: 0,
            crowded: false,
        }
    }

    /// The first way of the highest value in the list's order, with its value, when several
    /// of the best group reach it: that group's part of the list, built again.
    #[cold]
    fn first_of_ties(&self, rules: &Rules, view: &View) -> (Turn, f32) {
        let at = usize::from(self.at);
        let score = self.weights.after(self.ready, view.room[at]);
        let mut group = plans::Group::new(at);
        plans::visit(rules, view.room, view.hero, &mut group);
        let mut best = (Turn::AVOID, f32::NEG_INFINITY);
        for way in group.as_slice() {
            let v = score.value(&way.hero);
            if v > best.1 {
                best = (way.turn, v);
            }
        }
        debug_assert_eq!(best.1.to_bits(), self.value.to_bits());
        best
    }
}

impl Lines for Top<'_> {
    /// The groups by their bounds, highest first (the lower index first among equals), so the
    /// best value is found early and the groups that cannot reach it are skipped.
    #[inline(always)]
    fn groups(&mut self, codes: &[u8; ROOM]) -> [usize; ROOM] {
        self.bounds = self.bounds(codes, &Cards::of(codes, self.hero));
        // A stable sort of four without a branch: a group's place is the number of groups
        // before it, those of a higher bound or of an equal one and a lower index.
        let b = self.bounds;
        let mut order = [0; ROOM];
        for i in 0..ROOM {
            let place = (0..ROOM)
                .map(|j| usize::from((b[j] > b[i]) | ((b[j] == b[i]) & (j < i))))
                .sum::<usize>();
            order[place] = i;
        }
        order
    }

    /// Skips a group that cannot beat the highest value so far (a group of a higher index
    /// does not beat an equal value of a lower one).
    #[inline(always)]
    fn group(&mut self, codes: &[u8; ROOM], left: usize) -> bool {
        self.group = left as u8;
        let bound = self.bounds[left];
        let enter = bound > self.value || (bound == self.value && self.group < self.at);
        if enter {
            self.score = self.weights.after(self.ready, codes[left]);
        }
        enter
    }

    /// Nothing: `Top` is handed the living ways alone ([`plans::visit_living`]); when none
    /// lives, the list gives the best way to die.
    #[inline(always)]
    fn died(&mut self, _: plans::Way) {}

    #[inline(always)]
    fn lived(&mut self, way: plans::Way) {
        let v = self.score.value(&way.hero);
        if v > self.value || (v == self.value && self.group < self.at) {
            self.value = v;
            self.at = self.group;
            self.ties[0] = way;
            self.len = 1;
        } else if v == self.value && self.at == self.group {
            if self.len == TIES {
                self.crowded = true;
            } else {
                plans::insert_into(&mut self.ties, 0, &mut self.len, way);
            }
        }
    }
}

impl Policy for Heuristic {
    #[inline]
    fn choose(&self, rules: &Rules, view: &View, _: &mut GameRng) -> Turn {
        choose_turn(rules, &self.weights, view).0
    }

    /// [`Policy::choose`]'s turn, a full room faced handed over as what it does
    /// ([`played::decision`]: three cards, without the engine's view and per-card bookkeeping);
    /// an avoid, a short room or rules that discard weapons as the turn.
    #[inline(always)]
    fn decide(&self, rules: &Rules, view: &View, coins: &mut GameRng) -> Decision {
        let turn = self.choose(rules, view, coins);
        match <[u8; ROOM]>::try_from(view.room) {
            Ok(room) if !turn.avoid && !rules.weapon_discard => {
                played::decision(rules, view.hero, room, &turn)
            }
            _ => Decision::Turn(turn),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::scoundrel::features::Rich;
    use crate::games::scoundrel::hero::FRESH;
    use crate::rules::load;

    /// The rule variants the tests run under: each changes how a room may be faced.
    const SETS: [&[&str]; 7] = [
        &[],
        &["weapon_wear=strict"],
        &["barehanded=false"],
        &["weapon_discard=true"],
        &["potions_per_turn=2", "max_hp=25"],
        &["potions_per_turn=0"],
        &["potions_per_turn=3", "potion_bonus=true"],
    ];

    /// Weights that tie often (whole numbers), the same without the weapon and danger terms,
    /// non-monotone ones (the list decides), and the defaults.
    pub(super) fn weightings() -> [Weights; 4] {
        let defaults = Weights::default();
        let whole = Weights {
            potion: 1.0,
            weapon: 1.0,
            spare: 1.0,
            danger_hp: 0.0,
            danger: 0.0,
            avoid: 2.0,
        };
        let flat = Weights {
            weapon: 0.0,
            danger: 0.0,
            ..whole
        };
        let reckless = Weights {
            weapon: -0.5,
            danger: -1.0,
            ..defaults
        };
        [defaults, whole, flat, reckless]
    }

    /// Calls `f` with the rules and the view of `n` random full rooms under each of [`SETS`]:
    /// every HP from 1 to 20, weapons and wear of every sort, the dungeon's size varied.
    pub(super) fn rooms(n: u64, mut f: impl FnMut(&Rules, &View)) {
        for sets in SETS {
            let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
            let rules: Rules = load(None, &sets).unwrap();
            for game in 0..n {
                let mut cards = rules.deck();
                GameRng::new(8, game, 0).shuffle(&mut cards);
                let g = game as usize;
                let dungeon = Counts::of(&cards[ROOM + g % 30..]);
                let view = View {
                    room: &cards[..ROOM],
                    hero: Hero {
                        hp: 1 + (g % 20) as i16,
                        weapon: [0, 2, 5, 9][g % 4],
                        limit: [FRESH, 4, 8, 13][g / 4 % 4],
                        heals: (g / 16 % 2) as u8,
                    },
                    can_avoid: !g.is_multiple_of(3),
                    to_face: ROOM - 1,
                    dungeon: &dungeon,
                    last_room: false,
                };
                f(&rules, &view);
            }
        }
    }

    /// The choice made while enumerating is the choice over the built list, turn and value to
    /// the bit; among the rooms some have no living way (the best death decides) and some
    /// several ways of the highest value (the best group's list decides).
    #[test]
    fn choosing_as_enumerated_is_choosing_over_the_list() {
        let (mut deaths, mut ties) = (0, 0);
        rooms(3000, |rules, view| {
            let options = Options::of(rules, view);
            for w in weightings() {
                let (fast, slow) = (choose_turn(rules, &w, view), best_turn(&w, view, &options));
                assert_eq!(
                    (fast.0, fast.1.to_bits()),
                    (slow.0, slow.1.to_bits()),
                    "{view:?} {w:?}"
                );
                if w.monotone_weights().is_some() {
                    let ready = Summary::of(view.dungeon);
                    let mut top = Top::new(rules, &w, &ready, view.hero);
                    plans::visit_living(rules, view.room, view.hero, &mut top);
                    deaths += usize::from(top.len == 0);
                    ties += usize::from(top.len > 1 || top.crowded);
                }
            }
            let rich = Rich::default();
            assert_eq!(
                choose_turn(rules, &rich, view),
                best_turn(&rich, view, &options)
            );
        });
        assert!(deaths > 100 && ties > 100, "{deaths} {ties}");
    }

    /// A room handed over by [`Policy::decide`] leaves the engine as the engine's own replay of
    /// the turn does, survived or lost, under rules that change a card's effect.
    #[test]
    fn handed_over_rooms_are_the_engines_replays() {
        use crate::cards::Stacked;
        use crate::games::scoundrel::engine::Engine;
        use crate::games::scoundrel::played::tests::rule_sets;
        use crate::games::scoundrel::policy::Decision;
        let (mut survived, mut lost, mut turns) = (0, 0, 0);
        for rules in rule_sets() {
            let policy = Heuristic::default();
            for game in 0..300u64 {
                let mut engine = Engine::new(&rules);
                engine.shuffle(&mut GameRng::new(12, game, 0));
                let (mut coins, mut avoid) = (GameRng::unused(), GameRng::new(12, game, 1));
                while engine.enter_room(&rules) {
                    let view = engine.view(&rules);
                    let turn = policy.choose(&rules, &view, &mut coins);
                    let mut replayed = engine.clone();
                    replayed.apply(&rules, &turn, &mut Stacked);
                    match policy.decide(&rules, &view, &mut coins) {
                        Decision::Survived(room) => {
                            engine.apply_survived(&room);
                            survived += 1;
                        }
                        Decision::Lost(room) => {
                            engine.apply_lost(&rules, &room);
                            lost += 1;
                        }
                        Decision::Turn(decided) => {
                            assert_eq!(decided, turn);
                            engine.apply(&rules, &turn, &mut avoid);
                            turns += 1;
                            continue;
                        }
                    }
                    assert_eq!(engine, replayed, "{rules:?} game {game}");
                }
            }
        }
        assert!(
            survived > 10_000 && lost > 500 && turns > 1000,
            "{survived} {lost} {turns}"
        );
    }

    /// No way leaving a card scores above its group's bound, for the monotone weights.
    #[test]
    fn no_way_beats_its_groups_bound() {
        let mut ways = 0;
        rooms(1000, |rules, view| {
            let ready = Summary::of(view.dungeon);
            let codes = [view.room[0], view.room[1], view.room[2], view.room[3]];
            for w in weightings()
                .iter()
                .filter(|w| w.monotone_weights().is_some())
            {
                let mut top = Top::new(rules, w, &ready, view.hero);
                top.groups(&codes);
                for left in 0..ROOM {
                    let mut group = plans::Group::new(left);
                    plans::visit(rules, view.room, view.hero, &mut group);
                    for way in group.as_slice() {
                        let v = w.value_after(&ready, &way.hero, way.left);
                        assert!(v <= top.bounds[left], "{view:?} {w:?} {way:?}");
                        ways += 1;
                    }
                }
            }
        });
        assert!(ways > 50_000, "{ways}");
    }
}
