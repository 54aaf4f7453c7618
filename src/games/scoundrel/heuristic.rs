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

use super::card::{self, Counts};
use super::engine::{Turn, View};
use super::evaluate::{self, Evaluation, Weights};
use super::features::Summary;
use super::hero::Hero;
use super::plans::{self, Lines, Options};
use super::policy::Policy;
use super::rules::{ROOM, Rules};

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
    finish(weights, view, best, options.death)
}

/// The best way to face the room (`(AVOID, -inf)` if none lives) weighed against avoiding it,
/// and the best way to die if nothing else is left.
#[inline]
fn finish<E: Evaluation>(
    weights: &E,
    view: &View,
    mut best: (Turn, f32),
    death: core::option::Option<plans::Option>,
) -> (Turn, f32) {
    if view.can_avoid {
        let v = weights.value(&view.hero, &future_avoided(view), true);
        if v > best.1 {
            best = (Turn::AVOID, v);
        }
    }
    if best.1 == f32::NEG_INFINITY {
        // Every way kills: die facing the most monsters.
        let death = death.expect("a room with no living play has a fatal one");
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
/// is the choice; when it is several, which comes first depends on the list's order, and the
/// list is built ([`Options`]) to decide; so it is when no way lives (the fatal way kept is the
/// first of equals in the list's order). The groups are enumerated by an upper bound on their
/// values, highest first, so the best is met early and a group whose bound cannot beat it is
/// skipped (the earlier group still winning ties).
#[inline]
pub fn choose_turn<E: Evaluation>(rules: &Rules, eval: &E, view: &View) -> (Turn, f32) {
    if let Some(weights) = eval.monotone_weights()
        && view.room.len() == ROOM
        && view.to_face == ROOM - 1
    {
        let ready = Summary::of(view.dungeon);
        let mut top = Top {
            hero: view.hero,
            max_hp: i16::from(rules.max_hp),
            score: weights.after(&ready, 0),
            scores: [weights.after(&ready, 0); ROOM],
            bounds: [0.0; ROOM],
            weights,
            ready: &ready,
            group: 0,
            at: u8::MAX,
            value: f32::NEG_INFINITY,
            ties: [plans::Option::NONE; TIES],
            len: 0,
            crowded: false,
        };
        plans::visit(rules, view.room, view.hero, &mut top);
        if !top.crowded && top.len == 1 {
            return finish(eval, view, (top.ties[0].turn, top.value), None);
        }
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
    weights: &'a Weights,
    ready: &'a Summary,
    /// The scorer of the current group's ways.
    score: evaluate::After<'a>,
    /// The scorers and bounds of the groups, by the index of the card left.
    scores: [evaluate::After<'a>; ROOM],
    bounds: [f32; ROOM],
    /// The index of the current group's card left.
    group: u8,
    /// The group of the highest value.
    at: u8,
    /// The highest value so far.
    value: f32,
    /// The ways of that group reaching it that no other dominates, the first of equals.
    ties: [plans::Option; TIES],
    len: usize,
    /// True if more than [`TIES`] such ways were met.
    crowded: bool,
}

impl Top<'_> {
    /// At least the value of any living way leaving `codes[left]`: no way ends with more HP
    /// than the maximum, or than the HP entering the room with every potion faced and less what
    /// the monsters faced do against the best weapon held or faced, nor with a better weapon.
    #[inline(always)]
    fn bound(&self, codes: &[u8; ROOM], left: usize) -> f32 {
        let (mut weapon, mut potions, mut monsters) = (self.hero.weapon, 0i16, [0u8; ROOM]);
        for (k, &code) in codes.iter().enumerate() {
            let (faced, v) = (k != left, card::value(code));
            if faced && card::is_weapon(code) {
                weapon = weapon.max(v);
            }
            potions += i16::from(v) * i16::from(faced && card::is_potion(code));
            monsters[k] = v * u8::from(faced && card::is_monster(code));
        }
        let damage: i16 = monsters
            .iter()
            .map(|&m| i16::from(m.saturating_sub(weapon)))
            .sum();
        // HP never exceeds the maximum, and a potion heals at most its value.
        let hp = (self.hero.hp + potions - damage).min(self.max_hp);
        self.scores[left].bound(hp, weapon)
    }
}

impl Lines for Top<'_> {
    /// The groups by their bounds, highest first (the lower index first among equals), so the
    /// best value is found early and the groups that cannot reach it are skipped.
    #[inline(always)]
    fn groups(&mut self, codes: &[u8; ROOM]) -> [usize; ROOM] {
        let mut order = [0, 1, 2, 3];
        for left in 0..ROOM {
            self.scores[left] = self.weights.after(self.ready, codes[left]);
            self.bounds[left] = self.bound(codes, left);
        }
        // Insertion sort of four, stable.
        for i in 1..ROOM {
            let mut j = i;
            while j > 0 && self.bounds[order[j - 1]] < self.bounds[order[j]] {
                order.swap(j - 1, j);
                j -= 1;
            }
        }
        order
    }

    /// Skips a group that cannot beat the highest value so far (a group of a higher index
    /// does not beat an equal value of a lower one).
    #[inline(always)]
    fn group(&mut self, _: &[u8; ROOM], left: usize) -> bool {
        self.group = left as u8;
        self.score = self.scores[left];
        let bound = self.bounds[left];
        bound > self.value || (bound == self.value && self.group < self.at)
    }

    /// The ways that kill matter only when none lives, and then the list decides.
    #[inline(always)]
    fn died(&mut self, _: plans::Option) {}

    #[inline(always)]
    fn lived(&mut self, way: plans::Option) {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::scoundrel::features::Rich;
    use crate::games::scoundrel::hero::FRESH;
    use crate::rules::load;

    /// The choice made while enumerating is the choice over the built list, turn and value to
    /// the bit, under rule variants and weights that tie often (whole numbers), that are not
    /// monotone (the list decides) and the default ones.
    #[test]
    fn choosing_as_enumerated_is_choosing_over_the_list() {
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
        for sets in [
            vec![],
            vec!["weapon_wear=strict"],
            vec!["barehanded=false"],
            vec!["weapon_discard=true"],
            vec!["potions_per_turn=2", "max_hp=25"],
        ] {
            let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
            let rules: Rules = load(None, &sets).unwrap();
            for game in 0..3000u64 {
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
                        heals: 0,
                    },
                    can_avoid: !g.is_multiple_of(3),
                    to_face: ROOM - 1,
                    dungeon: &dungeon,
                    last_room: false,
                };
                let options = Options::of(&rules, &view);
                for w in [defaults, whole, flat, reckless] {
                    let (fast, slow) = (
                        choose_turn(&rules, &w, &view),
                        best_turn(&w, &view, &options),
                    );
                    assert_eq!(
                        (fast.0, fast.1.to_bits()),
                        (slow.0, slow.1.to_bits()),
                        "{view:?} {w:?}"
                    );
                }
                let rich = Rich::default();
                assert_eq!(
                    choose_turn(&rules, &rich, &view),
                    best_turn(&rich, &view, &options)
                );
            }
        }
    }
}
