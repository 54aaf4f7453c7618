//! `greedy` and its family (`aggressive`, `defensive`, strategy files): one turn at a time, it
//! deploys a tear-down when the worth it removes beats the worth it costs, builds like
//! `simple`, and picks the attack that scores best against `simple`'s blocks, counting the
//! damage, the trades and the counter-attack it leaves itself open to.

use crate::cards::Dealer;
use crate::rng::GameRng;

use super::automaton::{Automaton, Pattern};
use super::cards::{KING, LESSER};
use super::combat::{self, Blocks, MAX_BOTS};
use super::engine::Turn;
use super::events::Observer;
use super::keys::{Keys, Table};
use super::policy::Policy;
use super::rules::Rules;
use super::simple::{self, Clash};
use super::strategy::Weights;
use super::view::View;

/// The most automatons whose every attack subset is scored; with more, `simple`'s attack, all
/// and none are the candidates.
pub const MAX_SUBSET_BOTS: usize = 8;

/// The score of an attack whose unblocked damage kills.
pub const LETHAL: f32 = 1.0e6;

/// The greedy policy with its weights.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Greedy {
    /// What it scores by.
    pub weights: Weights,
}

impl Greedy {
    /// An automaton's worth.
    #[inline(always)]
    pub fn worth(&self, b: &Automaton) -> f32 {
        self.weights.power * f32::from(b.power) + self.weights.toughness * f32::from(b.toughness)
    }

    fn total_worth(&self, bots: &[Automaton], mask: u32) -> f32 {
        combat::bits(mask).map(|i| self.worth(&bots[i])).sum()
    }

    /// The tear-down `card` (if in hand) worth deploying: `(target, own)`.
    pub fn teardown(&self, view: &View, card: u8) -> Option<(usize, Option<usize>)> {
        let k = usize::from(card == LESSER);
        if view.hand()[k] == 0 || view.opp_bots().is_empty() {
            return None;
        }
        let opp = view.opp_bots();
        let mine = view.bots();
        let target = best(opp, |b| self.worth(b))?;
        let top = mine.iter().map(|b| b.power).max().unwrap_or(0);
        let own = best(mine, |b| {
            if card == KING || b.power == top {
                -self.worth(b)
            } else {
                f32::NEG_INFINITY
            }
        });
        let cost = own.map_or(0.0, |i| self.worth(&mine[i]));
        (own.is_none() || self.worth(&opp[target]) - cost > self.weights.teardown_margin)
            .then_some((target, own))
    }

    /// The split that destroys the most worth (ties: the first found).
    pub fn best_split(&self, attacker: &Automaton, blockers: &[Automaton]) -> u32 {
        self.best_split_in(attacker, blockers, combat::all(blockers.len()))
    }

    /// [`Greedy::best_split`] for the blockers `blockers` picks out of `bots`: a mask over
    /// `bots`.
    fn best_split_in(&self, attacker: &Automaton, bots: &[Automaton], blockers: u32) -> u32 {
        let mut best_mask = combat::split_rule_in(attacker, bots, blockers);
        let mut best_worth = self.total_worth(bots, best_mask);
        combat::for_each_split_in(attacker, bots, blockers, |m| {
            let w = self.total_worth(bots, m);
            if w > best_worth {
                best_worth = w;
                best_mask = m;
            }
        });
        best_mask
    }

    /// The score of attacking with `attackers` (a mask over `mine`) against `theirs` at
    /// `opp_hp`, the opponent blocking by `simple`'s rules, the player at `hp`.
    pub fn score_attack(
        &self,
        mine: &[Automaton],
        theirs: &[Automaton],
        attackers: u32,
        hp: i16,
        opp_hp: i16,
    ) -> f32 {
        let (mine_keys, their_keys) = (Keys::of(mine), Keys::of(theirs));
        let pos = Position::new(
            Table::new(mine, &mine_keys),
            Table::new(theirs, &their_keys),
        );
        self.score_in(&pos, attackers, hp, opp_hp)
    }

    /// [`Greedy::score_attack`] from `pos`, which serves every attack from one position.
    fn score_in(&self, pos: &Position, attackers: u32, hp: i16, opp_hp: i16) -> f32 {
        let (mine, theirs) = (pos.mine, pos.theirs);
        let w = &self.weights;
        let blocks = pos.clash.block(attackers, opp_hp);
        let (mut damage, mut lost, mut killed) = (0i32, 0u32, 0u32);
        for j in combat::bits(attackers) {
            let a = &mine[j];
            let of = blocks.blockers_of(j);
            if of == 0 {
                damage += i32::from(a.power);
                continue;
            }
            killed |= self.best_split_in(a, theirs, of);
            let hit = combat::sum_over(theirs, of, |b| u32::from(b.power));
            if hit >= u32::from(a.toughness) {
                lost |= 1 << j;
            }
        }
        if damage >= i32::from(opp_hp) {
            return LETHAL;
        }
        // The counter-attack: every surviving opposing automaton, against the player's
        // surviving automatons at home, each of which can stop one blockable attacker.
        // The blockable survivors, most powerful first: those beyond the first `home` get
        // through.
        let home = combat::all(mine.len()) & !attackers & !lost;
        let unblockable = (pos.four_ones & !killed).count_ones() as i32;
        let through = pos.by_power[..pos.blockable]
            .iter()
            .map(|&i| usize::from(i))
            .filter(|&i| killed & (1 << i) == 0)
            .skip(home.count_ones() as usize);
        let threat = unblockable + through.map(|i| i32::from(theirs[i].power)).sum::<i32>();
        let mut score = w.damage * damage as f32 + w.kill * self.total_worth(theirs, killed)
            - w.loss * self.total_worth(mine, lost)
            - w.exposure * threat as f32;
        if threat >= i32::from(hp) {
            score -= w.danger;
        }
        score
    }

    /// The best-scoring attack from the position of `view`.
    pub fn attack(&self, view: &View) -> u32 {
        let mine = view.bots();
        let pos = Position::new(view.table(), view.opp_table());
        let score = |m| self.score_in(&pos, m, view.hp(), view.opp_hp());
        let mut best_mask = 0;
        let mut best_score = score(0);
        let mut offer = |m: u32| {
            let s = score(m);
            if s > best_score {
                best_score = s;
                best_mask = m;
            }
        };
        if mine.len() <= MAX_SUBSET_BOTS {
            (1..=combat::all(mine.len())).for_each(&mut offer);
        } else {
            offer(simple::attack(view));
            offer(combat::all(mine.len()));
        }
        best_mask
    }
}

/// What every attack scored from one position shares: the opponent's blocks against the
/// player's automatons, and the opponent's automatons that a blocker can stop, by decreasing
/// power (for the counter-attack).
struct Position<'a> {
    mine: &'a [Automaton],
    theirs: &'a [Automaton],
    clash: Clash<'a>,
    /// The opponent's blockable automatons, most powerful first: the first `blockable`.
    by_power: [u8; MAX_BOTS],
    blockable: usize,
    /// The opponent's four 1s.
    four_ones: u32,
}

impl<'a> Position<'a> {
    /// The player's automatons `mine` against the opponent's `theirs`.
    fn new(mine_table: Table<'a>, their_table: Table<'a>) -> Self {
        let (mine, theirs) = (mine_table.bots, their_table.bots);
        let mut by_power = [0u8; MAX_BOTS];
        let mut blockable = 0;
        let mut four_ones = 0u32;
        for (i, b) in theirs.iter().enumerate() {
            if b.pattern == Pattern::FourOnes {
                four_ones |= 1 << i;
            } else {
                by_power[blockable] = i as u8;
                blockable += 1;
            }
        }
        by_power[..blockable]
            .sort_unstable_by_key(|&i| std::cmp::Reverse(theirs[usize::from(i)].power));
        Self {
            mine,
            theirs,
            clash: Clash::ranked(their_table, mine_table),
            by_power,
            blockable,
            four_ones,
        }
    }
}

/// The first index of the greatest `key`.
fn best(bots: &[Automaton], key: impl Fn(&Automaton) -> f32) -> Option<usize> {
    let mut found: Option<(usize, f32)> = None;
    for (i, b) in bots.iter().enumerate() {
        let k = key(b);
        if found.is_none_or(|(_, bk)| k > bk) {
            found = Some((i, k));
        }
    }
    found.map(|(i, _)| i)
}

impl Policy for Greedy {
    #[inline]
    fn main<D: Dealer, O: Observer>(&self, _: &Rules, turn: &mut Turn<'_, '_, D, O>) -> u32 {
        for card in [KING, LESSER] {
            if let Some((t, own)) = self.teardown(&turn.view(), card) {
                turn.deploy(card, t, own);
            }
        }
        turn.build_all_strongest();
        self.attack(&turn.view())
    }

    fn attackers(&self, _: &Rules, view: &View, _: &mut GameRng) -> u32 {
        self.attack(view)
    }

    #[inline]
    fn block(&self, _: &Rules, view: &View, attackers: u32, _: &mut GameRng) -> Blocks {
        simple::block(view, attackers)
    }

    /// `simple`'s blocks, legal by construction.
    #[inline(always)]
    fn blocks_legally(&self) -> bool {
        true
    }

    #[inline]
    fn split(
        &self,
        _: &Rules,
        _: &View,
        attacker: &Automaton,
        blockers: &[Automaton],
        _: &mut GameRng,
    ) -> u32 {
        self.best_split(attacker, blockers)
    }
}
