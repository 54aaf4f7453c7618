//! What a strike's total does against each royal: worked out once from the rules, then looked up
//! after every strike instead of compared and branched on.

use super::outcome::Enemy;
use super::rules::Rules;

/// The effect of one strike's end on the player and the tower.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Effect {
    /// Damage taken (0 for a defeated enemy).
    pub damage: u8,
    /// HP healed before the damage (only for a perfect 21 that defeats), capped at max HP by the
    /// engine.
    pub heal: u8,
    /// 1 if the enemy is defeated, else 0.
    pub defeated: u8,
    /// 1 for a perfect 21 that defeats, else 0.
    pub perfect: u8,
}

/// Strike totals a lookup covers: banked totals up to 21 and busts up to 31 (21 and a 10), a power
/// of two so that a masked index needs no bounds check.
const TOTALS: usize = 32;

/// Each royal's target, and the effect of every strike total against it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scoring {
    target: [u8; 4],
    effects: [[Effect; TOTALS]; 4],
}

impl Scoring {
    /// The lookups for `rules` (the rulings' section "A strike", step 5, and a bust's base damage).
    pub fn new(rules: &Rules) -> Self {
        let mut scoring = Self {
            target: [0; 4],
            effects: [[Effect::default(); TOTALS]; 4],
        };
        for kind in [Enemy::Jack, Enemy::Queen, Enemy::King] {
            let target = rules.target.of(kind);
            scoring.target[kind as usize] = target;
            for (total, effect) in scoring.effects[kind as usize].iter_mut().enumerate() {
                let banked = total as u8;
                *effect = if !(1..=21).contains(&banked) {
                    Effect {
                        damage: rules.damage.of(kind),
                        ..Effect::default()
                    }
                } else if banked >= target {
                    let perfect = u8::from(banked == 21);
                    Effect {
                        damage: 0,
                        heal: rules.heal.of(kind) * perfect,
                        defeated: 1,
                        perfect,
                    }
                } else if target - banked <= rules.guard_zone {
                    Effect {
                        damage: rules.guard_damage.of(kind),
                        ..Effect::default()
                    }
                } else {
                    Effect {
                        damage: rules.damage.of(kind),
                        ..Effect::default()
                    }
                };
            }
        }
        scoring
    }

    /// The target of the royal with code `code`.
    #[inline(always)]
    pub fn target(&self, code: u8) -> u8 {
        self.target[usize::from(code & 3)]
    }

    /// The effect against the royal with code `code` of a strike with total `total`: banked
    /// (1 to 21) or bust (22 to 31).
    #[inline(always)]
    pub fn effect(&self, code: u8, total: u8) -> Effect {
        debug_assert!((1..TOTALS as u8).contains(&total));
        self.effects[usize::from(code & 3)][usize::from(total) % TOTALS]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::load;

    #[test]
    fn a_kings_totals_under_the_rulings() {
        let scoring = Scoring::new(&Rules::default());
        let king = Enemy::King as u8;
        let effect = |banked| scoring.effect(king, banked);
        assert_eq!(scoring.target(king), 18);
        // Busts and a short total well under the guard zone: base damage 5.
        assert_eq!((effect(22).damage, effect(31).damage), (5, 5));
        assert_eq!(effect(15).damage, 5);
        // 16 and 17 are within 2 of 18: guard damage 3.
        assert_eq!((effect(16).damage, effect(17).damage), (3, 3));
        // 18 to 20 defeat without healing; 21 heals 3.
        for banked in 18..=20 {
            assert_eq!(
                effect(banked),
                Effect {
                    defeated: 1,
                    ..Effect::default()
                }
            );
        }
        assert_eq!(
            effect(21),
            Effect {
                damage: 0,
                heal: 3,
                defeated: 1,
                perfect: 1
            }
        );
    }

    #[test]
    fn no_guard_zone_and_a_target_of_21() {
        let rules: Rules = load(None, &["guard_zone=0".into(), "target.jack=21".into()]).unwrap();
        let scoring = Scoring::new(&rules);
        let jack = Enemy::Jack as u8;
        assert_eq!(scoring.effect(jack, 20).damage, rules.damage.jack);
        assert_eq!(scoring.effect(jack, 21).perfect, 1);
        assert_eq!(scoring.effect(jack, 21).heal, rules.heal.jack);
    }
}
