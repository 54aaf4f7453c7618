//! `simple`: the deterministic baseline of issue 11, implemented literally, every tie-break
//! included. Each rule below names the rule of the text it implements.
//!
//! Card order: Jester < A < 2 < .. < 10 < J < Q < K, within a rank ♣ < ♠ < ♥ < ♦ (the card
//! codes' order, see [`super::card`]); *lex-first* is the smallest set as an ascending list.
//!
//! Terms, for a play P other than a Jester of total value v: a suit *works* if P holds it and the
//! enemy is not immune to it; H = the hand's value; R = health − damage so far; S = the shield in
//! effect now; dmg(P) = 2v if clubs work else v; P *kills* if dmg(P) ≥ R, *exactly* if equal;
//! gain(P) = v if spades work else 0; need = max(0, attack − S), need(P) = max(0, need −
//! gain(P)); P is *safe* if H − v ≥ need(P); score(P) = dmg(P) + gain(P) + (v if diamonds work).

use crate::rng::GameRng;

use super::card::{self, CLUBS, DIAMONDS, SPADES};
use super::moves::{Cover, Play};
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
        let dmg = if works & (1 << CLUBS) != 0 { 2 * v } else { v };
        let gain = if works & (1 << SPADES) != 0 { v } else { 0 };
        let draw = if works & (1 << DIAMONDS) != 0 { v } else { 0 };
        let r = view.remaining();
        let need_p = view.need().saturating_sub(gain);
        Self {
            dmg,
            gain,
            score: dmg + gain + draw,
            kills: dmg >= r,
            exact: dmg == r,
            safe: view.hand_value >= v && view.hand_value - v >= need_p,
        }
    }
}

/// True if `a` beats `b` under rule 2: exact first, then least v, fewest cards, lex-first.
#[inline]
fn better_kill(a: (&Play, Terms), b: (&Play, Terms)) -> bool {
    let key = |(p, t): (&Play, Terms)| (!t.exact, p.value, p.count);
    let (ka, kb) = (key(a), key(b));
    ka < kb || (ka == kb && card::lex_before(a.0.cards, b.0.cards))
}

/// True if `a` beats `b` under rules 4 and 6: highest score, then fewest cards, lex-first.
#[inline]
fn better_score(a: (&Play, Terms), b: (&Play, Terms)) -> bool {
    let key = |(p, t): (&Play, Terms)| (u16::MAX - t.score, p.count);
    let (ka, kb) = (key(a), key(b));
    ka < kb || (ka == kb && card::lex_before(a.0.cards, b.0.cards))
}

/// The best plays of rules 2, 4 and 6, found in one pass over the plays (Jesters left out).
#[derive(Clone, Copy, Debug, Default)]
struct Bests<'a> {
    kill: Option<(&'a Play, Terms)>,
    safe: Option<(&'a Play, Terms)>,
    any: Option<(&'a Play, Terms)>,
}

impl<'a> Bests<'a> {
    #[inline]
    fn of(view: &View, plays: &'a [Play]) -> Self {
        let mut b = Self::default();
        for p in plays.iter().filter(|p| !p.is_jester()) {
            let t = Terms::of(view, p);
            if t.kills && b.kill.is_none_or(|k| better_kill((p, t), k)) {
                b.kill = Some((p, t));
            }
            // A killing play is never needed below rule 2: rules 4 and 6 apply only without one.
            if t.safe && b.safe.is_none_or(|k| better_score((p, t), k)) {
                b.safe = Some((p, t));
            }
            if b.any.is_none_or(|k| better_score((p, t), k)) {
                b.any = Some((p, t));
            }
        }
        b
    }
}

/// Step 4's discard: the cover of least total, then fewest cards, then lex-first.
#[inline]
pub fn least_cover(covers: &[Cover]) -> Option<Cover> {
    let mut found: Option<&Cover> = None;
    for c in covers {
        let better = found.is_none_or(|b| {
            (c.total, c.count) < (b.total, b.count)
                || ((c.total, c.count) == (b.total, b.count) && card::lex_before(c.cards, b.cards))
        });
        if better {
            found = Some(c);
        }
    }
    found.copied()
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
        let bests = Bests::of(view, choices.plays);
        // 2. A killing play: exact first, least v, fewest cards, lex-first.
        if let Some((p, _)) = bests.kill {
            return Action::Play(*p);
        }
        // 3. Multiplayer, a Jester in hand: play it.
        if !view.solo()
            && let Some(j) = choices.plays.iter().find(|p| p.is_jester())
        {
            return Action::Play(*j);
        }
        // 4. A safe play: highest score, fewest cards, lex-first.
        if let Some((p, _)) = bests.safe {
            return Action::Play(*p);
        }
        // 5. The hand covers the attack as it stands and a yield is allowed: yield.
        if view.hand_value >= view.need() && choices.can_yield {
            return Action::Yield;
        }
        // 6. Any play: highest score, ties as in rule 4.
        if let Some((p, _)) = bests.any {
            return Action::Play(*p);
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
}
