//! Scoundrel's cards as one byte each: the kind in the high bits, the value in the low four.

/// The kind of a dungeon card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Clubs and spades: damage equal to the value, less a usable weapon's value.
    Monster,
    /// Diamonds: equipped when faced.
    Weapon,
    /// Hearts: heal the value (the first potion of a turn only).
    Potion,
}

/// The kind bits of a monster's code.
pub const MONSTER: u8 = 0x00;
/// The kind bits of a weapon's code.
pub const WEAPON: u8 = 0x20;
/// The kind bits of a potion's code.
pub const POTION: u8 = 0x40;
/// Mask of the value bits.
const VALUE: u8 = 0x0F;
/// The largest card value a code can hold.
pub const MAX_VALUE: u8 = VALUE;

/// The code of a monster of value `v`.
#[inline]
pub const fn monster(v: u8) -> u8 {
    MONSTER | v
}

/// The code of a weapon of value `v`.
#[inline]
pub const fn weapon(v: u8) -> u8 {
    WEAPON | v
}

/// The code of a potion of value `v`.
#[inline]
pub const fn potion(v: u8) -> u8 {
    POTION | v
}

/// The value of the card `code`.
#[inline(always)]
pub const fn value(code: u8) -> u8 {
    code & VALUE
}

/// The kind of the card `code`.
#[inline(always)]
pub const fn kind(code: u8) -> Kind {
    match code & !VALUE {
        MONSTER => Kind::Monster,
        WEAPON => Kind::Weapon,
        _ => Kind::Potion,
    }
}

/// True if `code` is a monster.
#[inline(always)]
pub const fn is_monster(code: u8) -> bool {
    code & !VALUE == MONSTER
}

/// True if `code` is a weapon.
#[inline(always)]
pub const fn is_weapon(code: u8) -> bool {
    code & !VALUE == WEAPON
}

/// True if `code` is a potion.
#[inline(always)]
pub const fn is_potion(code: u8) -> bool {
    code & !VALUE == POTION
}

/// A multiset of cards: a count per card code, so adding and removing a card never branches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Counts {
    by_code: [u8; CODES],
}

/// Card codes a [`Counts`] indexes: every kind's 16 values.
const CODES: usize = POTION as usize + 16;

impl Default for Counts {
    fn default() -> Self {
        Self {
            by_code: [0; CODES],
        }
    }
}

impl Counts {
    /// The counts of `cards`.
    pub fn of(cards: &[u8]) -> Self {
        let mut c = Self::default();
        for &card in cards {
            c.add(card);
        }
        c
    }

    /// Adds one `code`.
    #[inline(always)]
    pub fn add(&mut self, code: u8) {
        self.by_code[usize::from(code)] += 1;
    }

    /// Removes one `code` (which must be counted).
    #[inline(always)]
    pub fn remove(&mut self, code: u8) {
        self.by_code[usize::from(code)] -= 1;
    }

    /// Removes one `code` (which must then be counted) if `really`, else nothing: without a
    /// branch. `code` must be a card code or 0.
    #[inline(always)]
    pub fn remove_if(&mut self, code: u8, really: bool) {
        self.by_code[usize::from(code)] -= u8::from(really);
    }

    /// How many `code` cards are counted.
    #[inline(always)]
    pub fn count(&self, code: u8) -> u8 {
        self.by_code[usize::from(code)]
    }

    fn kind(&self, bits: u8) -> &[u8; 16] {
        let at = usize::from(bits);
        self.by_code[at..at + 16]
            .try_into()
            .expect("a kind spans 16 codes")
    }

    /// Monsters by value.
    #[inline(always)]
    pub fn monsters(&self) -> &[u8; 16] {
        self.kind(MONSTER)
    }

    /// Weapons by value.
    #[inline(always)]
    pub fn weapons(&self) -> &[u8; 16] {
        self.kind(WEAPON)
    }

    /// Potions by value.
    #[inline(always)]
    pub fn potions(&self) -> &[u8; 16] {
        self.kind(POTION)
    }

    /// Cards counted.
    pub fn len(&self) -> usize {
        self.by_code.iter().map(|&n| usize::from(n)).sum()
    }

    /// True if no card is counted.
    pub fn is_empty(&self) -> bool {
        self.by_code.iter().all(|&n| n == 0)
    }

    /// The sum of the monsters' values.
    pub fn monster_total(&self) -> u32 {
        weighted(self.monsters())
    }

    /// The sum of the weapons' values.
    pub fn weapon_total(&self) -> u32 {
        weighted(self.weapons())
    }

    /// The sum of the potions' values.
    pub fn potion_total(&self) -> u32 {
        weighted(self.potions())
    }

    /// The largest weapon value counted, 0 if none.
    pub fn best_weapon(&self) -> u8 {
        top(self.weapons())
    }

    /// The largest potion value counted, 0 if none.
    pub fn best_potion(&self) -> u8 {
        top(self.potions())
    }
}

fn top(counts: &[u8; 16]) -> u8 {
    (0..16u8)
        .rev()
        .find(|&v| counts[usize::from(v)] > 0)
        .unwrap_or(0)
}

fn weighted(counts: &[u8; 16]) -> u32 {
    counts
        .iter()
        .enumerate()
        .map(|(v, &n)| v as u32 * u32::from(n))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_counts_add_up() {
        for v in 1..=MAX_VALUE {
            assert_eq!((kind(monster(v)), value(monster(v))), (Kind::Monster, v));
            assert_eq!((kind(weapon(v)), value(weapon(v))), (Kind::Weapon, v));
            assert_eq!((kind(potion(v)), value(potion(v))), (Kind::Potion, v));
        }
        let mut c = Counts::of(&[monster(14), monster(3), weapon(5), potion(7), potion(2)]);
        assert_eq!((c.len(), c.monster_total(), c.potion_total()), (5, 17, 9));
        assert_eq!(c.best_weapon(), 5);
        c.remove(weapon(5));
        assert_eq!((c.best_weapon(), c.count(monster(3))), (0, 1));
    }
}
