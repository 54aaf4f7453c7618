//! The Junkyard engine: a pure, allocation-free function of (rules, policies, generators).
//!
//! Two [`Side`]s, one per seat, and a turn counter. [`Engine::play`] runs the set-up and then
//! turns until a combat leaves a player at HP <= 0 or the turn cap is played. Policies act
//! through a [`Turn`] (build, deploy tear-downs, from a [`View`]) and answer combat's questions
//! (blocks, damage splits) from a [`View`]; every event goes to one [`Observer`].

use crate::cards::Dealer;
use crate::games::observe::Cards;
use crate::rng::GameRng;

use super::automaton::Automaton;
use super::build::{self, Plan};
use super::cards::{Area, Back, Counts, Heap, KING, LESSER, drawn};
use super::combat::{self, Blocks, MAX_BOTS};
use super::events::{Event, Observer};
use super::keys::Keys;
use super::outcome::Outcome;
use super::policy::Policy;
use super::rules::Rules;
use super::view::View;

/// The chance streams of a game: each source of randomness draws from its own generator.
pub struct Streams;

impl Streams {
    /// Seat `s`'s heap order: stream `HEAP + s`.
    pub const HEAP: u64 = 0;
    /// The order of cards going back under seat `s`'s heap: stream `RETURNS + s`.
    pub const RETURNS: u64 = 2;
    /// Seat `s`'s policy's own coin flips: stream `POLICY + s`.
    pub const POLICY: u64 = 4;
}

/// What one seat has: heap, assembly area, hand, automatons, HP, and what it did so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Side {
    pub(super) heap: Heap,
    pub(super) assembly: Area,
    /// Tear-downs in hand: `[kings, lessers]`.
    pub(super) hand: [u8; 2],
    pub(super) bots: [Automaton; MAX_BOTS],
    pub(super) n_bots: u8,
    /// The automatons' columns, kept equal to [`Keys::of`] the automatons.
    keys: Keys,
    pub(super) hp: i16,
    pub(super) built: u16,
    pub(super) destroyed: u16,
    pub(super) damage: u16,
    pub(super) teardowns: u16,
}

/// The index of a tear-down card in a hand.
#[inline(always)]
pub fn hand_slot(card: u8) -> usize {
    debug_assert!(card == KING || card == LESSER);
    usize::from(card == LESSER)
}

impl Side {
    /// A seat with `heap`, `hp` and nothing else yet.
    pub fn new(heap: Heap, hp: i16) -> Self {
        Self {
            heap,
            assembly: Area::default(),
            hand: [0; 2],
            bots: [Automaton::FOUR_ONES; MAX_BOTS],
            n_bots: 0,
            keys: Keys::default(),
            hp,
            built: 0,
            destroyed: 0,
            damage: 0,
            teardowns: 0,
        }
    }

    /// The same seat with `assembly`, `hand` and `bots` in play (a position for tests and for
    /// the lookahead's samples).
    pub fn with_table(mut self, assembly: Counts, hand: [u8; 2], bots: &[Automaton]) -> Self {
        self.assembly = Area::new(&assembly);
        self.hand = hand;
        self.bots[..bots.len()].copy_from_slice(bots);
        self.n_bots = bots.len() as u8;
        self.keys = Keys::of(bots);
        self
    }

    /// The seat's automatons.
    #[inline(always)]
    pub fn bots(&self) -> &[Automaton] {
        &self.bots[..usize::from(self.n_bots)]
    }

    /// The automatons' columns of keys.
    #[inline(always)]
    pub fn keys(&self) -> &Keys {
        &self.keys
    }

    /// HP.
    #[inline(always)]
    pub fn hp(&self) -> i16 {
        self.hp
    }

    /// The heap (for tests and checks; no policy sees it).
    pub fn heap(&self) -> &Heap {
        &self.heap
    }

    /// The assembly area.
    pub fn assembly(&self) -> &Counts {
        self.assembly.counts()
    }

    /// Tear-downs in hand, `[kings, lessers]` (for tests; a policy sees only its own).
    pub fn hand(&self) -> [u8; 2] {
        self.hand
    }

    /// Every card the seat owns, by value (tear-downs at `KING` and `LESSER`), wherever it is:
    /// heap, hand, assembly area, automatons.
    pub fn census(&self) -> [u16; 13] {
        let mut all = [0u16; 13];
        self.heap.iter().for_each(|c| all[usize::from(c)] += 1);
        all[usize::from(KING)] += u16::from(self.hand[0]);
        all[usize::from(LESSER)] += u16::from(self.hand[1]);
        let mut on_table = *self.assembly.counts();
        self.bots().iter().for_each(|b| b.add_cards(&mut on_table));
        for (v, &c) in on_table.iter().enumerate() {
            all[v] += u16::from(c);
        }
        all
    }

    #[inline(always)]
    fn draw(&mut self, seat: u8, n: u8, obs: &mut impl Observer) {
        // The numbers drawn go into the area's words and the tear-downs into the hand as a
        // whole, once; no branch on the card.
        let [mut lo, mut hi] = self.assembly.words();
        let mut hand = u16::from_le_bytes(self.hand);
        self.heap.draw_up_to(n, |card| {
            obs.event(Event::Drew { seat, card });
            let ([l, h], t) = drawn(card);
            lo += l;
            hi += h;
            hand += t;
        });
        self.hand = hand.to_le_bytes();
        self.assembly.set_words([lo, hi]);
    }

    /// Builds the automaton of `plan`: its cards out of the assembly area (which must hold
    /// them), the automaton and its keys in as the last one.
    #[inline(always)]
    fn add_bot(&mut self, plan: &Plan) {
        let [lo, hi] = self.assembly.words();
        let [c_lo, c_hi] = plan.words;
        self.assembly.set_words([lo - c_lo, hi - c_hi]);
        self.bots[usize::from(self.n_bots)] = plan.bot;
        self.keys
            .push_keyed(&plan.bot, plan.strength, plan.guard_key);
        self.n_bots += 1;
        self.built += 1;
    }

    /// Removes automaton `i` (whose cards are the caller's to return).
    #[inline(always)]
    fn remove_bot(&mut self, i: usize) -> Automaton {
        let bot = self.bots[i];
        self.n_bots -= 1;
        self.bots[i] = self.bots[usize::from(self.n_bots)];
        self.keys.swap_remove(i);
        self.destroyed += 1;
        bot
    }

    /// Puts a tear-down (if any) and the cards `back` under seat `seat`'s heap as one batch.
    #[inline]
    fn return_cards(
        &mut self,
        seat: u8,
        tear: Option<u8>,
        back: Back,
        dealer: &mut impl Dealer,
        obs: &mut impl Observer,
    ) {
        let batch = self.heap.put_under(tear, back, dealer);
        obs.report(|| Event::Returned {
            seat,
            cards: Cards::of(batch),
        });
    }
}

/// A game in progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Engine {
    sides: [Side; 2],
    /// Turns played so far.
    turn: u16,
}

/// The seats' chance and choice sources for one game: where returned cards are ordered, and
/// each policy's coins.
pub struct Sources<'a, D, O> {
    /// Each seat's dealer of returned cards.
    pub returns: &'a mut [D; 2],
    /// Each seat's policy's generator.
    pub coins: &'a mut [GameRng; 2],
    /// Where events go.
    pub obs: &'a mut O,
}

impl Engine {
    /// A game at set-up, before the opening draw, from the two seats' heaps.
    pub fn from_heaps(rules: &Rules, heaps: [Heap; 2]) -> Self {
        Self {
            sides: [
                Side::new(heaps[0], rules.hp(0)),
                Side::new(heaps[1], rules.hp(1)),
            ],
            turn: 0,
        }
    }

    /// A game with the heaps shuffled by each seat's dealer.
    pub fn deal(rules: &Rules, dealers: [&mut impl Dealer; 2]) -> Self {
        let (cards, n) = rules.heap();
        Self::deal_cards(rules, &cards[..n], dealers)
    }

    /// A game with the heaps of `cards` (the rules' heap, worked out once for many games)
    /// shuffled by each seat's dealer.
    #[inline]
    pub fn deal_cards(rules: &Rules, cards: &[u8], dealers: [&mut impl Dealer; 2]) -> Self {
        let mut engine = Self::from_heaps(rules, [Heap::EMPTY; 2]);
        for (side, dealer) in engine.sides.iter_mut().zip(dealers) {
            side.heap.deal(cards, dealer);
        }
        engine
    }

    /// A game in any position: two seats, `turns` turns played (the next turn is seat
    /// `turns % 2`'s).
    pub fn from_sides(sides: [Side; 2], turns: u16) -> Self {
        Self { sides, turn: turns }
    }

    /// Both seats, to change a position (tests; a sampled world's hidden cards).
    pub(super) fn sides_mut(&mut self) -> &mut [Side; 2] {
        &mut self.sides
    }

    /// Seat `s`.
    pub fn side(&self, seat: usize) -> &Side {
        &self.sides[seat]
    }

    /// Turns played.
    pub fn turns(&self) -> u16 {
        self.turn
    }

    /// The seat to move next.
    #[inline(always)]
    pub fn to_move(&self) -> usize {
        usize::from(self.turn % 2)
    }

    /// What seat `seat` may know.
    #[inline(always)]
    pub fn view(&self, seat: usize) -> View<'_> {
        View::new(&self.sides[seat], &self.sides[1 - seat], seat, self.turn)
    }

    /// Plays the whole game: set-up, then turns until one ends it.
    #[inline]
    pub fn play<P: Policy, D: Dealer, O: Observer>(
        &mut self,
        rules: &Rules,
        policies: [&P; 2],
        src: &mut Sources<'_, D, O>,
    ) -> Outcome {
        self.setup(rules, policies, src);
        self.play_on(rules, policies, src)
    }

    /// The opening draw of both seats, then (with `setup_build`) each seat's set-up building.
    pub fn setup<P: Policy, D: Dealer, O: Observer>(
        &mut self,
        rules: &Rules,
        policies: [&P; 2],
        src: &mut Sources<'_, D, O>,
    ) {
        self.opening(rules, src.obs);
        if rules.setup_build {
            for (seat, policy) in policies.iter().enumerate() {
                let mut turn = Turn::new(self, seat, src);
                policy.setup(rules, &mut turn);
            }
        }
    }

    /// The heaps as dealt (an event each), then both seats' opening draw: the set-up before any
    /// building.
    #[inline(always)]
    pub fn opening(&mut self, rules: &Rules, obs: &mut impl Observer) {
        for seat in 0..2 {
            obs.report(|| Event::Dealt {
                seat: seat as u8,
                heap: self.sides[seat].heap.iter().collect(),
            });
        }
        for seat in 0..2 {
            self.sides[seat].draw(seat as u8, rules.opening_draw, obs);
        }
    }

    /// Plays turns from the current position to the end of the game.
    #[inline]
    pub fn play_on<P: Policy, D: Dealer, O: Observer>(
        &mut self,
        rules: &Rules,
        policies: [&P; 2],
        src: &mut Sources<'_, D, O>,
    ) -> Outcome {
        loop {
            if let Some(winner) = self.take_turn(rules, policies, src) {
                return self.finish(Some(winner), src.obs);
            }
            if self.turn >= rules.turn_cap {
                return self.finish(None, src.obs);
            }
        }
    }

    /// The game's outcome as it stands, with `winner` (`swapped` false).
    pub fn outcome(&self, winner: Option<u8>) -> Outcome {
        let [a, b] = &self.sides;
        Outcome {
            winner,
            swapped: false,
            final_hp: [a.hp, b.hp],
            turns: self.turn,
            built: [a.built, b.built],
            destroyed: [a.destroyed, b.destroyed],
            damage: [a.damage, b.damage],
            teardowns: [a.teardowns, b.teardowns],
        }
    }

    /// The game's end: the `Ended` event, and the outcome with `winner`.
    pub fn finish(&self, winner: Option<u8>, obs: &mut impl Observer) -> Outcome {
        obs.event(Event::Ended { winner });
        self.outcome(winner)
    }

    /// Plays one turn of the seat to move; the seat if its combat won the game.
    #[inline]
    pub fn take_turn<P: Policy, D: Dealer, O: Observer>(
        &mut self,
        rules: &Rules,
        policies: [&P; 2],
        src: &mut Sources<'_, D, O>,
    ) -> Option<u8> {
        self.begin_turn(rules, src.obs);
        self.rest_of_turn(rules, policies, src)
    }

    /// Steps 3 to 6 of the turn last begun (by [`Engine::begin_turn`]); the seat if its combat
    /// won the game.
    #[inline]
    pub fn rest_of_turn<P: Policy, D: Dealer, O: Observer>(
        &mut self,
        rules: &Rules,
        policies: [&P; 2],
        src: &mut Sources<'_, D, O>,
    ) -> Option<u8> {
        let seat = 1 - self.to_move();
        let attackers = {
            let mut turn = Turn::new(self, seat, src);
            policies[seat].main(rules, &mut turn)
        };
        self.combat(rules, policies, attackers, src)
            .then_some(seat as u8)
    }

    /// Steps 1 and 2 of the seat to move: the turn counter, ready, draw.
    #[inline(always)]
    pub fn begin_turn(&mut self, rules: &Rules, obs: &mut impl Observer) {
        let seat = self.to_move();
        self.turn += 1;
        obs.event(Event::TurnStarted {
            seat: seat as u8,
            turn: self.turn,
        });
        let side = &mut self.sides[seat];
        // Only the automatons that attacked (none, most turns) have a flag to clear.
        for i in combat::bits(side.keys.attacking) {
            side.bots[i].attacking = false;
        }
        side.keys.attacking = 0;
        let n = if self.turn == 1 {
            rules.first_turn_draw
        } else {
            rules.draw_per_turn
        };
        side.draw(seat as u8, n, obs);
    }

    /// The seat whose turn it is (the last turn begun) and the other, the defender.
    #[inline(always)]
    pub fn combatants(&self) -> (usize, usize) {
        let seat = usize::from((self.turn + 1) % 2);
        (seat, 1 - seat)
    }

    /// Steps 4 to 6 for the seat whose turn it is (the last turn begun): `attackers` (bit `i`:
    /// its automaton `i`) attack, the defender blocks, damage is dealt. True if the defender
    /// ends at HP <= 0.
    #[inline]
    pub fn combat<P: Policy, D: Dealer, O: Observer>(
        &mut self,
        rules: &Rules,
        policies: [&P; 2],
        attackers: u32,
        src: &mut Sources<'_, D, O>,
    ) -> bool {
        let Some(attackers) = self.declare(attackers, src.obs) else {
            return false;
        };
        let (seat, def) = self.combatants();
        let blocks = policies[def].block(rules, &self.view(def), attackers, &mut src.coins[def]);
        // Blocks legal by construction are not checked.
        let blocks = if policies[def].blocks_legally() {
            blocks
        } else {
            combat::legal_blocks(
                blocks,
                self.sides[seat].bots(),
                attackers,
                self.sides[def].bots(),
            )
        };
        src.obs.event(Event::Blocked {
            seat: def as u8,
            of: blocks.of,
        });
        self.strike_on(rules, policies, &blocks, Strike::of(seat, attackers), src)
    }

    /// Step 4's attack declared: `attackers` (bit `i`: automaton `i` of the seat whose turn it
    /// is; bits past its automatons dropped) go to the attack area. The attackers, or `None` if
    /// there are none (no combat).
    #[inline(always)]
    pub fn declare(&mut self, attackers: u32, obs: &mut impl Observer) -> Option<u32> {
        let (seat, _) = self.combatants();
        let attackers = attackers & combat::all(self.sides[seat].bots().len());
        if attackers == 0 {
            return None;
        }
        for i in combat::bits(attackers) {
            self.sides[seat].bots[i].attacking = true;
        }
        self.sides[seat].keys.attacking |= attackers;
        obs.event(Event::Attacked {
            seat: seat as u8,
            mask: attackers,
        });
        Some(attackers)
    }

    /// Steps 5 and 6 from `strike` on, against `blocks` (legal): each blocked attacker's split
    /// by its policy, then the damage and the automatons destroyed. True if the defender ends
    /// at HP <= 0.
    #[inline(always)]
    pub fn strike_on<P: Policy, D: Dealer, O: Observer>(
        &mut self,
        rules: &Rules,
        policies: [&P; 2],
        blocks: &Blocks,
        strike: Strike,
        src: &mut Sources<'_, D, O>,
    ) -> bool {
        let seat = usize::from(strike.seat);
        let (coins, returns, obs) = (&mut src.coins[seat], &mut *src.returns, &mut *src.obs);
        let policy = policies[seat];
        let done = self.strike(blocks, strike, returns, obs, |engine, j, blockers| {
            let bot = engine.sides[seat].bots[j];
            Some(policy.split_in(rules, &engine.view(seat), &bot, blockers, coins))
        });
        done.unwrap_or_else(|_| unreachable!("a policy splits every blocked attacker"))
    }

    /// Steps 5 and 6 from `strike` on, against `blocks` (legal): in index order, an unblocked
    /// attacker's power goes to the damage, a blocked one's split is `choose(engine, attacker,
    /// blockers)` (the mask of its blockers it destroys, over the defender's automatons), then
    /// the damage and the automatons destroyed. `Ok`: true if the defender ends at HP <= 0.
    /// `Err`: `choose` gave no split (`None`), and the combat waits before that attacker, where
    /// the returned strike goes on from.
    #[inline(always)]
    pub fn strike<D: Dealer, O: Observer>(
        &mut self,
        blocks: &Blocks,
        strike: Strike,
        returns: &mut [D; 2],
        obs: &mut O,
        mut choose: impl FnMut(&Self, usize, u32) -> Option<u32>,
    ) -> Result<bool, Strike> {
        let Strike {
            mut left,
            mut lost,
            mut to_player,
            seat: at,
        } = strike;
        let (seat, def) = (usize::from(at), 1 - usize::from(at));
        while left != 0 {
            let j = left.trailing_zeros() as usize;
            let bot = self.sides[seat].bots[j];
            let blockers = blocks.blockers_of(j);
            if blockers == 0 {
                left &= left - 1;
                to_player += u16::from(bot.power);
                continue;
            }
            let Some(split) = choose(self, j, blockers) else {
                return Err(Strike {
                    left,
                    lost,
                    to_player,
                    seat: at,
                });
            };
            left &= left - 1;
            obs.report(|| Event::Split {
                seat: at,
                attacker: j as u8,
                mask: combat::gathered(split, blockers),
            });
            lost[def] |= split;
            if self.view(seat).opp_table().power_in(blockers) >= u32::from(bot.toughness) {
                lost[seat] |= 1 << j;
            }
        }
        Ok(self.resolve(seat, lost, to_player, returns, obs))
    }

    /// Step 6 once every attacker of `seat` has struck: `to_player` damage to the defender,
    /// then the automatons of `lost` destroyed (bit `i` of `lost[s]`: seat `s`'s automaton
    /// `i`), their cards under their owners' heaps (ordered by `returns`). True if the defender
    /// ends at HP <= 0.
    #[inline(always)]
    fn resolve<D: Dealer>(
        &mut self,
        seat: usize,
        lost: [u32; 2],
        to_player: u16,
        returns: &mut [D; 2],
        obs: &mut impl Observer,
    ) -> bool {
        let def = 1 - seat;
        if to_player > 0 {
            obs.event(Event::Damage {
                seat: seat as u8,
                amount: to_player,
            });
            self.sides[seat].damage += to_player;
            self.sides[def].hp -= to_player as i16;
        }
        for s in [seat, def] {
            if lost[s] == 0 {
                continue;
            }
            // One automaton lost (most often) goes back as its own cards; several, as the
            // cards of an area gathering them.
            let several = lost[s] & lost[s].wrapping_sub(1) != 0;
            let mut back = Area::default();
            let mut one = None;
            let side = &mut self.sides[s];
            // Highest index first, so the swap-removal never moves an automaton still to go.
            let mut mask = lost[s];
            while mask != 0 {
                let i = 31 - mask.leading_zeros() as usize;
                mask &= !(1 << i);
                let bot = side.remove_bot(i);
                if several {
                    bot.put_cards(&mut back);
                }
                one = Some(bot);
                obs.event(Event::Destroyed {
                    seat: s as u8,
                    bot,
                    at: i as u8,
                });
            }
            let batch = if several {
                Back::Cards(&back)
            } else {
                Back::Bot(one.as_ref())
            };
            side.return_cards(s as u8, None, batch, &mut returns[s], obs);
        }
        self.sides[def].hp <= 0
    }
}

/// Where steps 5 and 6 of a combat stand: the attackers still to strike, the automatons each
/// seat loses so far, and the damage to the defender so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Strike {
    left: u32,
    lost: [u32; 2],
    to_player: u16,
    /// The attacker's seat.
    seat: u8,
}

impl Strike {
    /// Before the first of `attackers` (of seat `seat`) strikes.
    #[inline(always)]
    pub fn of(seat: usize, attackers: u32) -> Self {
        Self {
            left: attackers,
            lost: [0; 2],
            to_player: 0,
            seat: seat as u8,
        }
    }

    /// The attacker that strikes next (a combat waits before a blocked one's split).
    pub fn next(&self) -> Option<usize> {
        (self.left != 0).then(|| self.left.trailing_zeros() as usize)
    }
}

/// The decisions of one seat's step 3 (or set-up building): what a policy may see and do.
pub struct Turn<'a, 'b, D, O> {
    engine: &'a mut Engine,
    seat: usize,
    src: &'a mut Sources<'b, D, O>,
}

impl<'a, 'b, D: Dealer, O: Observer> Turn<'a, 'b, D, O> {
    /// Seat `seat`'s step 3 (or set-up building) in `engine`, drawing on `src`.
    pub(super) fn new(engine: &'a mut Engine, seat: usize, src: &'a mut Sources<'b, D, O>) -> Self {
        Self { engine, seat, src }
    }

    /// What the player may know.
    #[inline(always)]
    pub fn view(&self) -> View<'_> {
        self.engine.view(self.seat)
    }

    /// The player's own generator.
    #[inline(always)]
    pub fn coins(&mut self) -> &mut GameRng {
        &mut self.src.coins[self.seat]
    }

    /// Builds `bot` from the assembly area, which must hold its cards.
    #[inline(always)]
    pub fn build(&mut self, bot: Automaton) {
        let side = &mut self.engine.sides[self.seat];
        debug_assert!(
            bot.buildable_from(side.assembly.counts()),
            "cannot build {bot:?}"
        );
        side.add_bot(build::plan(&bot));
        self.src.obs.event(Event::Built {
            seat: self.seat as u8,
            bot,
        });
    }

    /// Builds the strongest automaton the assembly area allows, while there is one (rule 3 of
    /// `simple`): straight from the plan the search finds.
    #[inline(always)]
    pub fn build_all_strongest(&mut self) {
        let side = &mut self.engine.sides[self.seat];
        while let Some(plan) = build::strongest(&side.assembly) {
            side.add_bot(plan);
            self.src.obs.event(Event::Built {
                seat: self.seat as u8,
                bot: plan.bot,
            });
        }
    }

    /// Deploys tear-down `card` (in hand): destroys the opponent's automaton `target`, then the
    /// player's own automaton `own` (required if the player has any: for a lesser tear-down one
    /// of greatest power).
    pub fn deploy(&mut self, card: u8, target: usize, own: Option<usize>) {
        let (me, opp) = (self.seat, 1 - self.seat);
        let slot = hand_slot(card);
        assert!(self.engine.sides[me].hand[slot] > 0, "no {card} in hand");
        assert!(
            target < self.engine.sides[opp].bots().len(),
            "no target {target}"
        );
        let mine = self.engine.sides[me].bots();
        match own {
            None => assert!(
                mine.is_empty(),
                "a tear-down destroys one of the deployer's own"
            ),
            Some(i) => {
                assert!(i < mine.len(), "no own automaton {i}");
                if card == LESSER {
                    let keys = &self.engine.sides[me].keys;
                    let top = keys.power.max_in(keys.all());
                    assert_eq!(
                        mine[i].power, top,
                        "a lesser tear-down destroys the most powerful"
                    );
                }
            }
        }
        let target_at = target as u8;
        let own_at = own.map(|i| i as u8);
        let target = self.engine.sides[opp].remove_bot(target);
        let side = &mut self.engine.sides[me];
        side.hand[slot] -= 1;
        side.teardowns += 1;
        let own = own.map(|i| side.remove_bot(i));
        self.src.obs.event(Event::Deployed {
            seat: me as u8,
            card,
            target,
            own,
            target_at,
            own_at,
        });
        let src = &mut *self.src;
        self.engine.sides[opp].return_cards(
            opp as u8,
            None,
            Back::Bot(Some(&target)),
            &mut src.returns[opp],
            src.obs,
        );
        self.engine.sides[me].return_cards(
            me as u8,
            Some(card),
            Back::Bot(own.as_ref()),
            &mut src.returns[me],
            src.obs,
        );
    }
}
