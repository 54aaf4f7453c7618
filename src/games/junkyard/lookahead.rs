//! `lookahead[-N]`: determinized sampling. For each candidate plan of its turn (which
//! tear-downs to deploy, then one of greedy's best-scored attacks or none), it samples `N`
//! completions of what it cannot see (its own heap's order; the opponent's heap and hand, from
//! the cards unaccounted for on the table), plays the plan and then the rest of the game (at
//! most [`HORIZON`] turns, then the position is scored) with `greedy` on both sides, and keeps
//! the plan with the best mean result. As defender it chooses its blocks the same way.
//!
//! Everything it samples is derived from its [`View`] and the rules (what each heap holds in
//! all), never from the real heaps or hand: it is a fair policy.

use crate::cards::Dealer;
use crate::rng::GameRng;

use super::automaton::Automaton;
use super::cards::{Heap, KING, LESSER, MAX_HEAP, NUMBERS};
use super::combat::{self, Blocks};
use super::engine::{Engine, Side, Sources, Turn};
use super::events::Observer;
use super::greedy::{Greedy, MAX_SUBSET_BOTS};
use super::policy::Policy;
use super::rules::Rules;
use super::simple;
use super::view::View;

/// Samples per candidate without `-N`.
pub const DEFAULT_SAMPLES: u16 = 6;
/// Greedy's best attacks tried per choice of tear-downs (besides not attacking).
pub const ATTACKS: u8 = 3;
/// Turns played after the candidate's own turn before the position is scored.
pub const HORIZON: u8 = 200;
/// The score of a won sample (a lost one scores its negative).
const WIN: f32 = 1000.0;

/// The lookahead policy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lookahead {
    /// Sampled completions per candidate plan: the budget.
    pub samples: u16,
    /// The policy of the simulated turns.
    pub greedy: Greedy,
}

impl Default for Lookahead {
    fn default() -> Self {
        Self::with_samples(DEFAULT_SAMPLES)
    }
}

/// A candidate plan for a turn: tear-downs (bit 0 King, bit 1 lesser, greedy's targets), build
/// the strongest, then greedy's `rank`-th best attack (`ATTACKS` = no attack).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Plan {
    teardowns: u8,
    rank: u8,
}

/// The policies of a simulated game: the plan under test for one turn, greedy otherwise.
#[derive(Clone, Copy, Debug)]
enum Rollout<'a> {
    Plan(Plan, &'a Greedy),
    Greedy(&'a Greedy),
    /// Defends with these blocks (once), greedy otherwise.
    Blocks(Blocks, &'a Greedy),
}

impl Lookahead {
    /// Lookahead with `samples` completions per candidate.
    pub fn with_samples(samples: u16) -> Self {
        Self {
            samples,
            greedy: Greedy::default(),
        }
    }

    /// The mean score of `plan` for the player of `view` over the samples `key` seeds.
    fn evaluate(&self, rules: &Rules, view: &View, plan: Plan, key: u64) -> f32 {
        let g = &self.greedy;
        let planned = Rollout::Plan(plan, g);
        self.sample(rules, view, key, |engine, src, me| {
            let greedy = Rollout::Greedy(g);
            let first = if me == 0 {
                [&planned, &greedy]
            } else {
                [&greedy, &planned]
            };
            engine.rest_of_turn(rules, first, src)
        })
    }

    /// The mean score of defending against `attackers` with `blocks` (the player of `view`
    /// defending) over the samples `key` seeds.
    fn evaluate_blocks(
        &self,
        rules: &Rules,
        view: &View,
        attackers: u32,
        blocks: Blocks,
        key: u64,
    ) -> f32 {
        let g = &self.greedy;
        let defending = Rollout::Blocks(blocks, g);
        self.sample(rules, view, key, |engine, src, me| {
            let greedy = Rollout::Greedy(g);
            let seats = if me == 0 {
                [&defending, &greedy]
            } else {
                [&greedy, &defending]
            };
            engine
                .combat(rules, seats, attackers, src)
                .then_some(1 - me as u8)
        })
    }

    /// The mean over the samples `key` seeds of: `first` (the decision under test, which may
    /// end the game), then greedy on both sides for up to `HORIZON` turns, scored for the
    /// player of `view`.
    fn sample(
        &self,
        rules: &Rules,
        view: &View,
        key: u64,
        first: impl Fn(&mut Engine, &mut Sources<'_, GameRng, ()>, usize) -> Option<u8>,
    ) -> f32 {
        let me = view.seat();
        let mut total = 0.0;
        for s in 0..self.samples {
            let mut rng = GameRng::new(key, u64::from(s), 0);
            let mut engine = determinize(rules, view, &mut rng);
            let mut returns = [
                GameRng::new(key, u64::from(s), 1),
                GameRng::new(key, u64::from(s), 2),
            ];
            let mut coins = [GameRng::unused(), GameRng::unused()];
            let mut src = Sources {
                returns: &mut returns,
                coins: &mut coins,
                obs: &mut (),
            };
            let greedy = Rollout::Greedy(&self.greedy);
            let mut winner = first(&mut engine, &mut src, me);
            for _ in 0..HORIZON {
                if winner.is_some() || engine.turns() >= rules.turn_cap {
                    break;
                }
                winner = engine.take_turn(rules, [&greedy, &greedy], &mut src);
            }
            total += match winner {
                Some(w) if usize::from(w) == me => WIN,
                Some(_) => -WIN,
                None => self.score(&engine, me),
            };
        }
        total / f32::from(self.samples.max(1))
    }

    /// A position's worth to seat `me`: the HP difference and half the board's.
    fn score(&self, engine: &Engine, me: usize) -> f32 {
        let (a, b) = (engine.side(me), engine.side(1 - me));
        let board = |s: &Side| s.bots().iter().map(|x| self.greedy.worth(x)).sum::<f32>();
        f32::from(a.hp() - b.hp()) + 0.5 * (board(a) - board(b))
    }
}

/// The `rank`-th best attack by greedy's score (0 for none if there are fewer).
fn ranked_attack(greedy: &Greedy, view: &View, rank: u8) -> u32 {
    let mine = view.bots();
    if rank >= ATTACKS {
        return 0;
    }
    if mine.len() > MAX_SUBSET_BOTS {
        return if rank == 0 { greedy.attack(view) } else { 0 };
    }
    let mut top = [(f32::NEG_INFINITY, 0u32); ATTACKS as usize];
    for m in 1..=combat::all(mine.len()) {
        let s = greedy.score_attack(mine, view.opp_bots(), m, view.hp(), view.opp_hp());
        if s > top[ATTACKS as usize - 1].0 {
            let mut k = ATTACKS as usize - 1;
            while k > 0 && s > top[k - 1].0 {
                top[k] = top[k - 1];
                k -= 1;
            }
            top[k] = (s, m);
        }
    }
    top[usize::from(rank)].1
}

impl Policy for Rollout<'_> {
    fn main<D: Dealer, O: Observer>(&self, rules: &Rules, turn: &mut Turn<'_, '_, D, O>) -> u32 {
        match self {
            Rollout::Greedy(g) | Rollout::Blocks(_, g) => g.main(rules, turn),
            Rollout::Plan(plan, g) => {
                for (bit, card) in [(1, KING), (2, LESSER)] {
                    if plan.teardowns & bit != 0
                        && let Some((t, own)) = forced_teardown(g, &turn.view(), card)
                    {
                        turn.deploy(card, t, own);
                    }
                }
                turn.build_all_strongest();
                ranked_attack(g, &turn.view(), plan.rank)
            }
        }
    }

    fn block(&self, _: &Rules, view: &View, attackers: u32, _: &mut GameRng) -> Blocks {
        match self {
            Rollout::Blocks(blocks, _) => *blocks,
            _ => simple::block(view, attackers),
        }
    }

    fn split(&self, _: &Rules, _: &View, a: &Automaton, b: &[Automaton], _: &mut GameRng) -> u32 {
        let (Rollout::Plan(_, g) | Rollout::Greedy(g) | Rollout::Blocks(_, g)) = self;
        g.best_split(a, b)
    }
}

/// The most block assignments enumerated in full; past it only the rule-based candidates.
const MAX_BLOCK_PLANS: u32 = 27;

/// The block plans the lookahead tries against `attackers`: `simple`'s, none, `simple`'s with
/// every chump it can make and with none, and every assignment if there are few.
fn for_each_block_candidate(view: &View, attackers: u32, mut each: impl FnMut(Blocks)) {
    let (mine, theirs) = (view.bots(), view.opp_bots());
    let mut targets = [0u8; combat::MAX_BOTS];
    let mut t = 0;
    for j in combat::bits(attackers) {
        if theirs[j].blockable() {
            targets[t] = j as u8;
            t += 1;
        }
    }
    let mut free = [0u8; combat::MAX_BOTS];
    let mut f = 0;
    for (i, b) in mine.iter().enumerate() {
        if !b.attacking {
            free[f] = i as u8;
            f += 1;
        }
    }
    if t == 0 || f == 0 {
        each(Blocks::NONE);
        return;
    }
    let plans = (t as u32 + 1)
        .checked_pow(f as u32)
        .filter(|&p| p <= MAX_BLOCK_PLANS);
    if let Some(plans) = plans {
        for code in 0..plans {
            let mut blocks = Blocks::NONE;
            let mut c = code;
            for &i in &free[..f] {
                let pick = c % (t as u32 + 1);
                c /= t as u32 + 1;
                if pick > 0 {
                    blocks.assign(usize::from(i), usize::from(targets[pick as usize - 1]));
                }
            }
            each(blocks);
        }
        return;
    }
    each(simple::block(view, attackers));
    each(Blocks::NONE);
    each(simple::block_with(mine, theirs, attackers, 1));
    each(simple::block_with(mine, theirs, attackers, i16::MAX));
}

/// Greedy's tear-down choice whatever its margin: `(target, own)` if `card` can be deployed.
fn forced_teardown(g: &Greedy, view: &View, card: u8) -> Option<(usize, Option<usize>)> {
    let forced = Greedy {
        weights: super::strategy::Weights {
            teardown_margin: f32::NEG_INFINITY,
            ..g.weights
        },
    };
    forced.teardown(view, card)
}

/// A complete game position consistent with `view`: the player's heap holds what is not on the
/// table or in hand, in a sampled order; the opponent's heap holds every unseen number and as
/// many unseen tear-downs as its size leaves room for, the rest of them in its hand.
pub fn determinize(rules: &Rules, view: &View, rng: &mut GameRng) -> Engine {
    let me = view.seat();
    let (cards, n) = rules.heap();
    // Unseen cards of each seat: the full heap minus its table (and, for the player, hand).
    let unseen = |assembly: &[u8; NUMBERS + 1], bots: &[Automaton], hand: [u8; 2]| {
        let mut left = [0i16; 13];
        cards[..n].iter().for_each(|&c| left[usize::from(c)] += 1);
        let mut table = *assembly;
        bots.iter().for_each(|b| b.add_cards(&mut table));
        for (v, &c) in table.iter().enumerate() {
            left[v] -= i16::from(c);
        }
        left[usize::from(KING)] -= i16::from(hand[0]);
        left[usize::from(LESSER)] -= i16::from(hand[1]);
        left
    };
    let fill = |left: &[i16; 13], heap_len: usize, rng: &mut GameRng| -> (Heap, [u8; 2]) {
        let mut numbers = [0u8; MAX_HEAP];
        let mut k = 0;
        for (v, &c) in left.iter().enumerate().take(NUMBERS + 1).skip(1) {
            for _ in 0..c.max(0) {
                numbers[k] = v as u8;
                k += 1;
            }
        }
        let mut tears = [0u8; 4];
        let mut t = 0;
        for card in [KING, LESSER] {
            for _ in 0..left[usize::from(card)].max(0) {
                tears[t] = card;
                t += 1;
            }
        }
        rng.shuffle(&mut tears[..t]);
        // The heap's tear-downs: whatever its size leaves after the numbers.
        let in_heap = heap_len.saturating_sub(k).min(t);
        numbers[k..k + in_heap].copy_from_slice(&tears[..in_heap]);
        let mut hand = [0u8; 2];
        for &card in &tears[in_heap..t] {
            hand[usize::from(card == LESSER)] += 1;
        }
        let total = k + in_heap;
        rng.shuffle(&mut numbers[..total]);
        (Heap::stacked(&numbers[..total]), hand)
    };
    let mine = unseen(view.assembly(), view.bots(), view.hand());
    let (my_heap, _) = fill(&mine, view.heap_len(), rng);
    let theirs = unseen(view.opp_assembly(), view.opp_bots(), [0, 0]);
    let (opp_heap, opp_hand) = fill(&theirs, view.opp_heap_len(), rng);
    let my_side =
        Side::new(my_heap, view.hp()).with_table(*view.assembly(), view.hand(), view.bots());
    let opp_side = Side::new(opp_heap, view.opp_hp()).with_table(
        *view.opp_assembly(),
        opp_hand,
        view.opp_bots(),
    );
    let sides = if me == 0 {
        [my_side, opp_side]
    } else {
        [opp_side, my_side]
    };
    Engine::from_sides(sides, view.turn())
}

impl Policy for Lookahead {
    fn main<D: Dealer, O: Observer>(&self, rules: &Rules, turn: &mut Turn<'_, '_, D, O>) -> u32 {
        let key = turn.coins().next_u64();
        let view = turn.view();
        let hand = view.hand();
        let can = |k: usize| hand[k] > 0 && !view.opp_bots().is_empty();
        let mut best = (
            f32::NEG_INFINITY,
            Plan {
                teardowns: 0,
                rank: 0,
            },
        );
        for teardowns in 0..4u8 {
            if (teardowns & 1 != 0 && !can(0)) || (teardowns & 2 != 0 && !can(1)) {
                continue;
            }
            for rank in 0..=ATTACKS {
                let plan = Plan { teardowns, rank };
                let s = self.evaluate(rules, &view, plan, key);
                if s > best.0 {
                    best = (s, plan);
                }
            }
        }
        let plan = best.1;
        Rollout::Plan(plan, &self.greedy).main(rules, turn)
    }

    fn block(&self, rules: &Rules, view: &View, attackers: u32, coins: &mut GameRng) -> Blocks {
        let key = coins.next_u64();
        let mut best = (f32::NEG_INFINITY, Blocks::NONE);
        for_each_block_candidate(view, attackers, |blocks| {
            let s = self.evaluate_blocks(rules, view, attackers, blocks, key);
            if s > best.0 {
                best = (s, blocks);
            }
        });
        best.1
    }

    /// Greedy's attack: the lookahead's plans are whole turns, step 3 included.
    fn attackers(&self, r: &Rules, v: &View, c: &mut GameRng) -> u32 {
        self.greedy.attackers(r, v, c)
    }

    fn split(&self, r: &Rules, v: &View, a: &Automaton, b: &[Automaton], c: &mut GameRng) -> u32 {
        self.greedy.split(r, v, a, b, c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Stacked;
    use crate::games::junkyard::simple::Simple;

    #[test]
    fn a_sampled_position_keeps_the_table_and_every_card_and_hides_the_order() {
        let rules = Rules::default();
        let (cards, n) = rules.heap();
        let mut want = [0u16; 13];
        cards[..n].iter().for_each(|&c| want[usize::from(c)] += 1);
        for game in 0..200u64 {
            let mut e = Engine::deal(
                &rules,
                [&mut GameRng::new(3, game, 0), &mut GameRng::new(3, game, 1)],
            );
            let mut coins = [GameRng::unused(), GameRng::unused()];
            let mut src = Sources {
                returns: &mut [Stacked, Stacked],
                coins: &mut coins,
                obs: &mut (),
            };
            e.setup(&rules, [&Simple, &Simple], &mut src);
            for _ in 0..(game % 30) {
                if e.take_turn(&rules, [&Simple, &Simple], &mut src).is_some() {
                    break;
                }
            }
            let seat = (game % 2) as usize;
            let view = e.view(seat);
            let d = determinize(&rules, &view, &mut GameRng::new(9, game, 0));
            for s in 0..2 {
                assert_eq!(d.side(s).census(), want, "game {game} seat {s}");
                assert_eq!(d.side(s).heap().len(), e.side(s).heap().len());
                assert_eq!(d.side(s).bots(), e.side(s).bots());
                assert_eq!(d.side(s).assembly(), e.side(s).assembly());
                assert_eq!(d.side(s).hp(), e.side(s).hp());
            }
            assert_eq!(d.side(seat).hand(), e.side(seat).hand());
            let total = |s: &Side| s.hand()[0] + s.hand()[1];
            assert_eq!(total(d.side(1 - seat)), total(e.side(1 - seat)));
        }
    }
}
