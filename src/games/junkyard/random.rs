//! `random`: a baseline uniform over the legal choices at each decision, from the seat's own
//! stream.

use crate::cards::Dealer;
use crate::rng::GameRng;

use super::automaton::Automaton;
use super::build::{self, MAX_CHOICES};
use super::cards::{KING, LESSER};
use super::combat::{self, Blocks};
use super::engine::Turn;
use super::events::Observer;
use super::policy::Policy;
use super::rules::Rules;
use super::view::View;

/// Uniform at each decision. In step 3 (and at set-up) the choices are: stop, build any
/// buildable automaton, or (in a turn) deploy a tear-down in hand on any opposing automaton
/// with any legal own automaton; it chooses again after each action until it stops. Then any
/// subset of its automatons attacks (each subset equally likely); as defender each blocker
/// picks uniformly among not blocking and each blockable attacker; a split is uniform among the
/// sets of blockers a split can destroy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Random;

/// The legal own automatons a tear-down `card` may destroy: all for a King, those of greatest
/// power for a lesser one; as a mask (0 if the player has none).
fn own_choices(card: u8, mine: &[Automaton]) -> u32 {
    let top = mine.iter().map(|b| b.power).max().unwrap_or(0);
    let mut mask = 0;
    for (i, b) in mine.iter().enumerate() {
        mask |= u32::from(card == KING || b.power == top) << i;
    }
    mask
}

/// Takes one uniform action of step 3; false if it chose to stop.
fn act<D: Dealer, O: Observer>(turn: &mut Turn<'_, '_, D, O>, deploy: bool) -> bool {
    let view = turn.view();
    let mut builds = [Automaton::FOUR_ONES; MAX_CHOICES];
    let n_builds = build::buildable(view.assembly(), &mut builds);
    let targets = view.opp_bots().len();
    let mut tear_ways = [0usize; 2];
    let mut own = [0u32; 2];
    if deploy && targets > 0 {
        for (k, card) in [KING, LESSER].into_iter().enumerate() {
            if view.hand()[k] > 0 {
                own[k] = own_choices(card, view.bots());
                tear_ways[k] = targets * (own[k].count_ones() as usize).max(1);
            }
        }
    }
    let total = 1 + n_builds + tear_ways[0] + tear_ways[1];
    let mut pick = turn.coins().below(total as u64) as usize;
    if pick == 0 {
        return false;
    }
    pick -= 1;
    if pick < n_builds {
        turn.build(builds[pick]);
        return true;
    }
    pick -= n_builds;
    let k = usize::from(pick >= tear_ways[0]);
    if k == 1 {
        pick -= tear_ways[0];
    }
    let owns = (own[k].count_ones() as usize).max(1);
    let (target, which) = (pick / owns, pick % owns);
    let own_index = combat::bits(own[k]).nth(which);
    turn.deploy([KING, LESSER][k], target, own_index);
    true
}

impl Policy for Random {
    fn setup<D: Dealer, O: Observer>(&self, _: &Rules, turn: &mut Turn<'_, '_, D, O>) {
        while act(turn, false) {}
    }

    fn main<D: Dealer, O: Observer>(&self, _: &Rules, turn: &mut Turn<'_, '_, D, O>) -> u32 {
        while act(turn, true) {}
        let n = turn.view().bots().len();
        turn.coins().next_u64() as u32 & combat::all(n)
    }

    fn attackers(&self, _: &Rules, view: &View, coins: &mut GameRng) -> u32 {
        coins.next_u64() as u32 & combat::all(view.bots().len())
    }

    fn block(&self, _: &Rules, view: &View, attackers: u32, coins: &mut GameRng) -> Blocks {
        let mut targets = [0u8; combat::MAX_BOTS];
        let mut n = 0;
        for j in combat::bits(attackers) {
            if view.opp_bots()[j].blockable() {
                targets[n] = j as u8;
                n += 1;
            }
        }
        let mut blocks = Blocks::NONE;
        if n == 0 {
            return blocks;
        }
        for (i, b) in view.bots().iter().enumerate() {
            if b.attacking {
                continue;
            }
            let pick = coins.below(n as u64 + 1) as usize;
            if pick > 0 {
                blocks.assign(i, usize::from(targets[pick - 1]));
            }
        }
        blocks
    }

    fn split(
        &self,
        _: &Rules,
        _: &View,
        attacker: &Automaton,
        blockers: &[Automaton],
        coins: &mut GameRng,
    ) -> u32 {
        let mut n = 0u64;
        combat::for_each_split(attacker, blockers, |_| n += 1);
        let mut pick = coins.below(n);
        let mut chosen = 0;
        combat::for_each_split(attacker, blockers, |m| {
            if pick == 0 {
                chosen = m;
            }
            pick = pick.wrapping_sub(1);
        });
        chosen
    }
}
