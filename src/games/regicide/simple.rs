//! `simple`: the deterministic baseline the team specified, implemented literally, every tie-break
//! included. Each rule below names the rule of that specification it implements.
//!
//! Card order: Jester < A < 2 < .. < 10 < J < Q < K, within a rank ♣ < ♠ < ♥ < ♦ (the card
//! codes' order, see [`super::card`]); *lex-first* is the smallest set as an ascending list.
//!
//! Terms, for a play P other than a Jester of total value v: a suit *works* if P holds it and the
//! enemy is not immune to it; H = the hand's value; R = health − damage so far; S = the shield in
//! effect now; dmg(P) = 2v if clubs work else v; P *kills* if dmg(P) ≥ R, *exactly* if equal;
//! gain(P) = v if spades work else 0; need = max(0, attack − S), need(P) = max(0, need −
//! gain(P)); P is *safe* if H − v ≥ need(P); score(P) = dmg(P) + gain(P) + (v if diamonds work).

use std::hint::select_unpredictable;

use crate::rng::GameRng;

use super::card::{self, CLUBS, DIAMONDS, SPADES};
use super::moves::{Cover, MAX_PLAYS, Play};
use super::policy::{Action, Defence, Policy, Step1, Step4};
use super::view::View;

/// The `simple` baseline.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Simple;

/// The terms of one play against the view's enemy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Terms {
    /// dmg(P).
    pub dmg: u16,
    /// gain(P).
    pub gain: u16,
    /// score(P).
    pub score: u16,
    /// dmg(P) ≥ R.
    pub kills: bool,
    /// dmg(P) = R.
    pub exact: bool,
    /// H − v ≥ need(P).
    pub safe: bool,
}

impl Terms {
    /// The terms of `p` (not a Jester) in `view`.
    #[inline]
    pub fn of(view: &View, p: &Play) -> Self {
        let works = p.suits & !view.immune();
        let v = p.value;
        // Written without branches: a suit works or not as a 0/1 factor.
        let has = |suit: u8| u16::from(works >> suit & 1);
        let dmg = v << has(CLUBS);
        let gain = v * has(SPADES);
        let r = view.remaining();
        let need_p = view.need().saturating_sub(gain);
        Self {
            dmg,
            gain,
            score: v * u16::from(SCORE_TIMES[usize::from(works & 0xF)]),
            kills: dmg >= r,
            exact: dmg == r,
            // H − v ≥ need(P), written so as not to go below 0.
            safe: view.hand_value >= v + need_p,
        }
    }
}

/// For each set of working suits, score(P) over v: 2 if clubs work else 1, plus 1 if spades
/// work, plus 1 if diamonds do.
const SCORE_TIMES: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut works = 0;
    while works < 16 {
        t[works] = 1
            + (works >> CLUBS & 1) as u8
            + (works >> SPADES & 1) as u8
            + (works >> DIAMONDS & 1) as u8;
        works += 1;
    }
    t
};

/// Rule 2's order as one number, smaller first: exact first, then least v (then fewest cards,
/// which [`Play::lex`] orders: see [`Pick`]).
#[inline]
fn kill_key(p: &Play, t: &Terms) -> u32 {
    u32::from(!t.exact) << 16 | u32::from(p.value)
}

/// Rules 4 and 6's order as one number, smaller first: highest score (then fewest cards, as
/// for [`kill_key`]).
#[inline]
fn score_key(t: &Terms) -> u32 {
    u32::from(u16::MAX - t.score)
}

/// The best play offered so far, as one number: its class (0 for a kill, 1 for a safe play
/// that does not kill, 2 for any other card), the key of its rule (rule 2's for a kill, the
/// score's of rules 4 and 6 otherwise), the play's [`Play::lex`], then its index (below 128).
/// The least number is the pick of the first rule that has a candidate: rule 2's among the
/// kills if there is one, else rule 4's among the safe plays, else rule 6's among every card
/// (none of which is then safe). One `u64` comparison decides a candidate, in one pass for the
/// three rules.
///
/// Both rules' orders end in fewest cards, then lex-first; [`Play::lex`] alone orders a card
/// play by both. For plays of one size the smaller is the lex-first (at most four 6-bit codes,
/// the first the highest), and a play of fewer cards has the smaller: a single is below 64,
/// a pair at least 4·64 (its first card an Ace or a 2 or above) and below 56·64, three cards
/// at least 8·64² (2s or above) and below 64³, four at least 8·64³.
#[derive(Clone, Copy, Debug)]
struct Pick(u64);

// A play's index fits the seven low bits.
const _: () = assert!(MAX_PLAYS <= 1 << 7);

/// Where a play's class sits in a [`Pick`]'s number: above the 17 bits of a key, the 24 of its
/// lex and the 7 of its index.
const CLASS_SHIFT: u32 = 17 + 31;

impl Pick {
    /// No candidate yet (no real number is this large: a class is below 3).
    const NONE: Self = Self(u64::MAX);
    /// Class of a kill (rule 2).
    const KILL: u64 = 0;
    /// Class of a safe play that does not kill (rule 4).
    const SAFE: u64 = 1;

    /// Takes the card play `p` at index `at` if it comes first, its class and key from its
    /// `terms`. Written without branches: which candidate wins is data that a branch
    /// predictor cannot guess.
    #[inline]
    fn offer(&mut self, p: &Play, t: &Terms, at: usize) {
        let (kill, score) = (kill_key(p, t), score_key(t));
        debug_assert!(kill < 1 << 17 && score < 1 << 17 && p.lex < 1 << 24 && at < 1 << 7);
        let key = select_unpredictable(t.kills, kill, score);
        // 0 for a kill, else 1 if safe, else 2.
        let class = u64::from(!t.kills) << u64::from(!t.safe);
        let number =
            class << CLASS_SHIFT | u64::from(key) << 31 | u64::from(p.lex) << 7 | at as u64;
        // A Jester offers all ones, which never comes first.
        self.0 = self.0.min(number | u64::from(p.is_jester()).wrapping_neg());
    }

    /// The index of the pick, if it is of `class`.
    #[inline]
    fn of_class(self, class: u64) -> Option<usize> {
        (self.0 >> CLASS_SHIFT == class).then_some((self.0 & 0x7F) as usize)
    }

    /// The index of the pick, if any.
    #[inline]
    fn found(self) -> Option<usize> {
        (self.0 != u64::MAX).then_some((self.0 & 0x7F) as usize)
    }

    /// The pick of rules 2, 4 and 6 among `plays` (Jesters left out).
    #[inline]
    fn of(view: &View, plays: &[Play]) -> Self {
        let mut pick = Self::NONE;
        for (i, p) in plays.iter().enumerate() {
            pick.offer(p, &Terms::of(view, p), i);
        }
        pick
    }
}

/// The best cover offered so far: least key, ties to the lex-first cards.
#[derive(Clone, Copy, Debug)]
struct Best {
    /// The key above the cards' lex key: one comparison orders both.
    key: u128,
    at: usize,
}

impl Best {
    /// No candidate yet (no real key is this large).
    const NONE: Self = Self {
        key: u128::MAX,
        at: usize::MAX,
    };

    /// Takes the candidate if it comes first: a smaller key, or the same key and lex-first
    /// cards (`lex`, [`card::lex_key`]: smaller for the lex-first of two sets of one size; one
    /// key means one size of set). Written without branches: which candidate wins is data
    /// that a branch predictor cannot guess.
    #[inline]
    fn offer(&mut self, key: u32, lex: u64, at: usize) {
        let key = u128::from(key) << 64 | u128::from(lex);
        let take = key < self.key;
        // Word by word: a `u128` chosen whole compiles to a branch.
        let (hi, lo) = ((key >> 64) as u64, key as u64);
        let (best_hi, best_lo) = ((self.key >> 64) as u64, self.key as u64);
        self.key = u128::from(select_unpredictable(take, hi, best_hi)) << 64
            | u128::from(select_unpredictable(take, lo, best_lo));
        self.at = select_unpredictable(take, at, self.at);
    }

    /// The index of the best candidate, if any.
    #[inline]
    fn found(&self) -> Option<usize> {
        (self.at != usize::MAX).then_some(self.at)
    }
}

/// Step 4's discard: the cover of least total, then fewest cards, then lex-first.
#[inline]
pub fn least_cover(covers: &[Cover]) -> Option<Cover> {
    let mut best = Best::NONE;
    for (i, c) in covers.iter().enumerate() {
        best.offer(
            u32::from(c.total) << 8 | u32::from(c.count),
            card::lex_key(c.cards),
            i,
        );
    }
    best.found().map(|i| covers[i])
}

/// After a Jester: the seat with most cards in hand; ties to the first clockwise from the
/// chooser's left, the chooser last.
#[inline]
pub fn most_cards(view: &View) -> u8 {
    let n = view.players;
    let mut best = view.seat;
    let mut most = 0;
    let mut first = true;
    for k in 1..=n {
        let s = (view.seat + k) % n;
        let size = view.hand_sizes[usize::from(s)];
        if first || size > most {
            (best, most, first) = (s, size, false);
        }
    }
    best
}

impl Policy for Simple {
    #[inline]
    fn attack(&self, view: &View, choices: &Step1, _: &mut GameRng) -> Action {
        // 1. Solo, empty hand, a set-aside Jester left: use it.
        if view.solo() && view.hand == 0 && choices.solo_jester {
            return Action::SoloJester;
        }
        let pick = Pick::of(view, choices.plays);
        // 2. A killing play: exact first, least v, fewest cards, lex-first.
        if let Some(i) = pick.of_class(Pick::KILL) {
            return Action::Play(choices.plays[i]);
        }
        // 3. Multiplayer, a Jester in hand: play it.
        if !view.solo()
            && let Some(j) = choices.plays.iter().find(|p| p.is_jester())
        {
            return Action::Play(*j);
        }
        // 4. A safe play: highest score, fewest cards, lex-first.
        if let Some(i) = pick.of_class(Pick::SAFE) {
            return Action::Play(choices.plays[i]);
        }
        // 5. The hand covers the attack as it stands and a yield is allowed: yield.
        if view.hand_value >= view.need() && choices.can_yield {
            return Action::Yield;
        }
        // 6. Any play: highest score, ties as in rule 4.
        // (No card is safe here, so the pick is rule 6's.)
        if let Some(i) = pick.found() {
            return Action::Play(choices.plays[i]);
        }
        // 7. Yield if allowed. (The engine asks only when some move is legal; a hand of nothing
        // but a Jester in a solo game under non-default rules plays it.)
        if choices.can_yield {
            Action::Yield
        } else {
            Action::Play(choices.plays[0])
        }
    }

    #[inline]
    fn next_seat(&self, view: &View, _: &mut GameRng) -> u8 {
        most_cards(view)
    }

    #[inline]
    fn defend(&self, view: &View, choices: &Step4, _: &mut GameRng) -> Defence {
        // Solo: short of the attack, one set-aside Jester (never two in one step).
        if view.solo()
            && view.hand_value < view.need()
            && choices.solo_jester
            && !choices.used_jester
        {
            return Defence::SoloJester;
        }
        least_cover(choices.covers).map_or(Defence::GiveUp, Defence::Discard)
    }

    #[inline]
    fn least_cover_only(&self, _: u8) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::regicide::card::{Values, mask_of, parse};
    use crate::games::regicide::moves::{Covers, Plays};
    use crate::games::regicide::rules::Rules;

    /// A table position for the tests: the deciding seat's hand, the enemy and its state.
    struct Spot {
        rules: Rules,
        values: Values,
        hand: u64,
        enemy: u8,
        damage: u16,
        spades: u16,
        cancelled: bool,
        players: u8,
        seat: u8,
        sizes: [u8; 4],
        jesters: u8,
    }

    fn spot(hand: &str, enemy: &str, damage: u16) -> Spot {
        let rules = Rules::default();
        Spot {
            values: Values::new(&rules),
            rules,
            hand: mask_of(hand),
            enemy: parse(enemy).unwrap(),
            damage,
            spades: 0,
            cancelled: false,
            players: 1,
            seat: 0,
            sizes: [0; 4],
            jesters: 0,
        }
    }

    impl Spot {
        fn view(&self) -> View<'_> {
            let royal = self.rules.royal(card::rank(self.enemy));
            View {
                rules: &self.rules,
                values: &self.values,
                seat: self.seat,
                players: self.players,
                max_hand: 8,
                hand: self.hand,
                hand_value: self.values.sum(self.hand),
                enemy: self.enemy,
                health: royal.health.into(),
                attack: royal.attack.into(),
                damage: self.damage,
                spades: self.spades,
                cancelled: self.cancelled,
                table: 0,
                discard: 0,
                tavern: 10,
                castle: 5,
                hand_sizes: self.sizes,
                yielded: [false; 4],
                known_top: None,
                solo_jesters: self.jesters,
            }
        }

        fn attack(&self, can_yield: bool) -> Action {
            let mut plays = Plays::default();
            plays.generate(self.hand, &self.values);
            let choices = Step1 {
                plays: plays.as_slice(),
                can_yield,
                solo_jester: self.jesters > 0,
            };
            Simple.attack(&self.view(), &choices, &mut GameRng::unused())
        }

        fn defend(&self, used_jester: bool) -> Defence {
            let v = self.view();
            let mut covers = Covers::default();
            covers.generate(self.hand, v.need(), &self.values);
            let choices = Step4 {
                covers: covers.as_slice(),
                solo_jester: self.jesters > 0,
                used_jester,
            };
            Simple.defend(&v, &choices, &mut GameRng::unused())
        }
    }

    fn played(a: Action) -> u64 {
        match a {
            Action::Play(p) => p.cards,
            other => panic!("{other:?} is not a play"),
        }
    }

    fn discarded(d: Defence) -> u64 {
        match d {
            Defence::Discard(c) => c.cards,
            other => panic!("{other:?} is not a discard"),
        }
    }

    fn terms(s: &Spot, cards: &str) -> Terms {
        let m = mask_of(cards);
        let mut plays = Plays::default();
        plays.generate(s.hand, &s.values);
        let p = plays.as_slice().iter().find(|p| p.cards == m).unwrap();
        Terms::of(&s.view(), p)
    }

    /// Rule `rule`'s pick (2, 4 or 6) among `plays`, by the rules' text: the eligible cards,
    /// the least by the rule's order, then the lex-first card list, then the first.
    fn slow_rule(view: &View, plays: &[Play], rule: u8) -> Option<usize> {
        let cards = |p: &Play| card::cards(p.cards).collect::<Vec<u8>>();
        (0..plays.len())
            .filter(|&i| !plays[i].is_jester())
            .filter(|&i| {
                let t = Terms::of(view, &plays[i]);
                match rule {
                    2 => t.kills,
                    4 => t.safe,
                    _ => true,
                }
            })
            .min_by_key(|&i| {
                let (p, t) = (&plays[i], Terms::of(view, &plays[i]));
                let order = match rule {
                    2 => (u16::from(!t.exact), p.value, p.count),
                    _ => (u16::MAX - t.score, 0, p.count),
                };
                (order, cards(p), i)
            })
    }

    #[test]
    fn one_pass_picks_as_rules_2_4_and_6_in_turn() {
        let mut rng = GameRng::new(5, 1, 8);
        let enemies = ["JC", "JS", "QH", "QD", "KC", "KS"];
        let (mut kills, mut safes, mut others) = (0, 0, 0);
        for _ in 0..4000 {
            let mut deck: Vec<u8> = (0..card::code(card::JACK, 0)).collect();
            rng.shuffle(&mut deck);
            let hand: Vec<&str> = deck[..1 + rng.below(8) as usize]
                .iter()
                .map(|&c| card::name(c))
                .collect();
            let enemy = enemies[rng.below(enemies.len() as u64) as usize];
            let mut s = spot(&hand.join(" "), enemy, rng.below(30) as u16);
            s.spades = rng.below(12) as u16;
            s.cancelled = rng.below(4) == 0;
            let mut plays = Plays::default();
            plays.generate(s.hand, &s.values);
            let (view, plays) = (s.view(), plays.as_slice());
            let pick = Pick::of(&view, plays);
            let want = if let Some(i) = slow_rule(&view, plays, 2) {
                kills += 1;
                (Some(i), None)
            } else if let Some(i) = slow_rule(&view, plays, 4) {
                safes += 1;
                (None, Some(i))
            } else {
                others += 1;
                (None, None)
            };
            assert_eq!((pick.of_class(Pick::KILL), pick.of_class(Pick::SAFE)), want);
            if want == (None, None) {
                assert_eq!(pick.found(), slow_rule(&view, plays, 6));
            }
        }
        // Each rule decided some of the positions.
        assert!(
            kills > 100 && safes > 100 && others > 100,
            "{kills} {safes} {others}"
        );
    }

    #[test]
    fn terms_follow_the_definitions() {
        // Jack of hearts, 12 dealt: R = 8, attack 10, no shield. Hand value 5+4+6+2+3 = 20.
        let s = spot("5C 4S 6D 2H 3C", "JH", 12);
        let t = terms(&s, "4S");
        // Spades work: gain 4, need(P) = 6; safe: 20 - 4 >= 6; score 4 + 4.
        assert_eq!(
            (t.dmg, t.gain, t.score, t.kills, t.safe),
            (4, 4, 8, false, true)
        );
        // Clubs double: 5C deals 10, kills (R = 8), not exactly.
        let t = terms(&s, "5C");
        assert_eq!((t.dmg, t.kills, t.exact, t.score), (10, true, false, 10));
        // Diamonds add v to the score; hearts do nothing against a heart enemy.
        assert_eq!(terms(&s, "6D").score, 12);
        assert_eq!(terms(&s, "2H").score, 2);
        // An Ace-less combo is not legal for 2H 3C; a single 3C is exact against R = 6.
        let s = spot("5C 4S 6D 2H 3C", "JH", 14);
        assert!(terms(&s, "3C").exact);
        // A club enemy: clubs do not double; a spade enemy: spades gain nothing until a Jester.
        let s = spot("5C 4S", "JC", 0);
        assert_eq!(terms(&s, "5C").dmg, 5);
        let mut s = spot("5C 4S", "JS", 0);
        assert_eq!(terms(&s, "4S").gain, 0);
        s.cancelled = true;
        assert_eq!(terms(&s, "4S").gain, 4);
        // Safe counts the hand without the cards diamonds would draw: 7D alone against 10.
        let s = spot("7D 2C", "JH", 0);
        assert!(!terms(&s, "7D").safe);
    }

    #[test]
    fn rule_1_an_empty_solo_hand_uses_a_set_aside_jester() {
        let mut s = spot("", "JH", 0);
        s.jesters = 1;
        assert_eq!(s.attack(false), Action::SoloJester);
        // Not with cards in hand, even with nothing good to play.
        let mut s = spot("2H", "KH", 0);
        s.jesters = 2;
        assert_eq!(played(s.attack(false)), mask_of("2H"));
    }

    #[test]
    fn rule_2_kills_exact_first_then_least_value_fewest_cards_lex_first() {
        // R = 7: 4C deals 8 (a kill, not exact, v 4); 7S deals 7 exactly (v 7): exact first.
        assert_eq!(
            played(spot("4C 7S 9H", "JH", 13).attack(false)),
            mask_of("7S")
        );
        // R = 10: 5C (exact, v 5) before 10S (exact, v 10) and KD (v 20).
        assert_eq!(
            played(spot("5C 10S KD", "JH", 10).attack(false)),
            mask_of("5C")
        );
        // R = 5, every kill exact and of value 5: 5S (one card) before AS 4S (two); 5S before
        // 5H by lex order (spades < hearts).
        assert_eq!(
            played(spot("5H AS 4S 5S", "JD", 15).attack(false)),
            mask_of("5S")
        );
        // Among non-exact kills, least value: R = 3, 4H (v 4) before 9H and 2C (deals 4, v 2)
        // before 4H.
        assert_eq!(played(spot("4H 9H", "JD", 17).attack(false)), mask_of("4H"));
        assert_eq!(
            played(spot("4H 9H 2C", "JD", 17).attack(false)),
            mask_of("2C")
        );
    }

    #[test]
    fn rule_3_a_multiplayer_jester_comes_after_kills_only() {
        let mut s = spot("Jo1 2H 3H", "KH", 0);
        s.players = 2;
        assert_eq!(played(s.attack(true)), mask_of("Jo1"));
        let mut s = spot("Jo1 10C", "JH", 0);
        s.players = 2;
        assert_eq!(played(s.attack(true)), mask_of("10C"), "a kill first");
        // Solo, a Jester card is not played by rule 3; terms leave it out.
        let s = spot("Jo1 9H 8H", "JD", 0);
        assert_ne!(played(s.attack(false)), mask_of("Jo1"));
    }

    #[test]
    fn rule_4_the_safe_play_of_highest_score_then_fewest_cards_then_lex_first() {
        // Queen of clubs (R 30, attack 15), hand value 9+8+7+6+5+2 = 37.
        // 9D: score 18, safe (37 - 9 = 28 >= 15). 8S: score 16. 9D wins.
        let s = spot("9D 8S 7H 6H 5H 2H", "QC", 0);
        assert_eq!(played(s.attack(false)), mask_of("9D"));
        // The pair 5S 5D (v 10) scores 10 + 10 + 10 = 30 and stays safe (22 - 10 >= 15 - 10).
        let s = spot("5S 5D 4H 4C 2H 2C", "QH", 0);
        assert_eq!(played(s.attack(false)), mask_of("5S 5D"));
        // A tie of score and size: 4C (8) and 8H (8): 4C comes first in card order.
        let s = spot("8H 4C 7H 6H 5H", "JD", 0);
        assert_eq!(played(s.attack(false)), mask_of("4C"));
        // Fewest cards: 8H (score 8) against the pair 2H 2D (4 damage, 4 drawn), both safe.
        let s = spot("2H 2D 8H 7H 6H 5H", "JH", 0);
        assert_eq!(played(s.attack(false)), mask_of("8H"));
        // Rule 6 breaks ties the same way when nothing is safe (hand 19 against attack 20).
        let s = spot("2H 2D 8H 3H 4H", "KH", 0);
        assert_eq!(played(s.attack(false)), mask_of("8H"));
    }

    #[test]
    fn rules_5_to_7_yield_when_nothing_is_safe_else_the_best_score_else_yield() {
        // King of hearts (attack 20), hand 10H 9H 2C = 21: no play is safe (21 - 2 = 19 < 20),
        // but the hand covers the attack: yield if allowed.
        let mut s = spot("10H 9H 2C", "KH", 0);
        s.players = 2;
        assert_eq!(s.attack(true), Action::Yield);
        // Not allowed: rule 6, the highest score: 10H and 9H score their value, 2C doubles to 4.
        assert_eq!(played(s.attack(false)), mask_of("10H"));
        // The hand does not cover: rule 6 even when a yield is allowed.
        let mut s = spot("5H 2C", "KH", 0);
        s.players = 2;
        assert_eq!(played(s.attack(true)), mask_of("5H"));
        // Rule 7: an empty hand yields.
        let mut s = spot("", "KH", 0);
        s.players = 2;
        assert_eq!(s.attack(true), Action::Yield);
    }

    #[test]
    fn after_a_jester_the_most_cards_go_next_ties_clockwise_from_the_left_self_last() {
        let mut s = spot("", "JH", 0);
        s.players = 4;
        s.seat = 1;
        s.sizes = [3, 3, 2, 3];
        // Seats 2, 3, 0, 1 in turn: 3 and 0 tie at 3 cards; 3 comes first from seat 1's left.
        assert_eq!(most_cards(&s.view()), 3);
        s.sizes = [5, 5, 2, 3];
        assert_eq!(most_cards(&s.view()), 0, "itself last");
        s.sizes = [4, 5, 2, 3];
        assert_eq!(most_cards(&s.view()), 1);
    }

    #[test]
    fn step_4_least_total_then_fewest_cards_then_lex_first() {
        // Jack (attack 10): {10C}, {6S 4H}, {5C 5D} all total 10: 10C has fewest cards.
        assert_eq!(
            discarded(spot("10C 6S 4H 5D 5C", "JH", 0).defend(false)),
            mask_of("10C")
        );
        // Without the 10: {4H 6S} before {5C 5D}: 4H < 5C.
        assert_eq!(
            discarded(spot("6S 4H 5D 5C", "JH", 0).defend(false)),
            mask_of("4H 6S")
        );
        // The least total wins over fewer cards: {3C 7H} (10) before {KD} (20).
        assert_eq!(
            discarded(spot("KD 3C 7H", "JH", 0).defend(false)),
            mask_of("3C 7H")
        );
        // A shield covering the attack: nothing to discard.
        let mut s = spot("KD 3C", "JH", 0);
        s.spades = 12;
        assert_eq!(discarded(s.defend(false)), 0);
        // No cover and no Jester: the game is lost.
        assert_eq!(spot("3C", "JH", 0).defend(false), Defence::GiveUp);
    }

    #[test]
    fn step_4_solo_uses_one_jester_when_short_never_two() {
        let mut s = spot("3C", "JH", 0);
        s.jesters = 2;
        assert_eq!(s.defend(false), Defence::SoloJester);
        assert_eq!(s.defend(true), Defence::GiveUp);
        // Not when the hand covers.
        let mut s = spot("10C", "JH", 0);
        s.jesters = 2;
        assert_eq!(discarded(s.defend(false)), mask_of("10C"));
    }
}
