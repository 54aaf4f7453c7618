//! Scoundrel's fair policies decide from what the player may know: permuting the cards the
//! player has not seen yet changes neither what a decision is shown nor what it decides.

use sim::games::scoundrel::card::Counts;
use sim::games::scoundrel::engine::{Turn, View};
use sim::games::scoundrel::greedy::Greedy;
use sim::games::scoundrel::hero::Hero;
use sim::games::scoundrel::heuristic::Heuristic;
use sim::games::scoundrel::lookahead::Lookahead;
use sim::games::scoundrel::policy::Policy;
use sim::games::scoundrel::tuned::Tuned;
use sim::games::scoundrel::tuned_lookahead;
use sim::games::scoundrel::{Engine, Rules, Streams};
use sim::rng::GameRng;

/// Everything a view holds, owned.
#[derive(Debug, PartialEq)]
struct Seen {
    room: Vec<u8>,
    hero: Hero,
    can_avoid: bool,
    to_face: usize,
    dungeon: Counts,
    last_room: bool,
}

impl Seen {
    fn of(view: &View) -> Self {
        Self {
            room: view.room.to_vec(),
            hero: view.hero,
            can_avoid: view.can_avoid,
            to_face: view.to_face,
            dungeon: *view.dungeon,
            last_room: view.last_room,
        }
    }
}

/// Plays `cards` with `policy` for at most `decisions` rooms: each decision's view and turn,
/// and how many cards were drawn from the dungeon by the last decision's room.
fn decisions<P: Policy>(
    rules: &Rules,
    policy: &P,
    cards: &[u8],
    decisions: usize,
) -> (Vec<(Seen, Turn)>, usize) {
    let mut e = Engine::stacked(rules, cards);
    let mut coins = GameRng::new(7, 0, Streams::POLICY);
    let mut avoid = GameRng::new(7, 0, Streams::AVOID);
    let (mut out, mut drawn) = (Vec::new(), 0);
    while out.len() < decisions {
        let before = e.dungeon().len();
        if !e.enter_room(rules) {
            break;
        }
        drawn += before - e.dungeon().len();
        let view = e.view(rules);
        let turn = policy.choose(rules, &view, &mut coins);
        out.push((Seen::of(&view), turn));
        e.apply(rules, &turn, &mut avoid);
    }
    (out, drawn)
}

/// Checks `policy` over 40 deals, each cut after 1 to 6 decisions.
fn unmoved_by_the_unseen<P: Policy>(spec: &str, policy: &P) {
    let rules = Rules::default();
    {
        for deal in 0..40u64 {
            let mut cards = rules.deck();
            GameRng::new(11, deal, Streams::DUNGEON).shuffle(&mut cards);
            let k = 1 + (deal % 6) as usize;
            let (first, drawn) = decisions(&rules, policy, &cards, k);
            // Every card drawn by then (a count that also covers avoided cards drawn again)
            // stays; the rest, never seen, are put in another order.
            let mut other = cards.clone();
            GameRng::new(12, deal, 0).shuffle(&mut other[drawn.min(cards.len())..]);
            let (second, _) = decisions(&rules, policy, &other, k);
            assert_eq!(first, second, "{spec}, deal {deal}, {k} decisions");
        }
    }
}

#[test]
fn permuting_the_unseen_cards_changes_no_view_and_no_decision() {
    unmoved_by_the_unseen("tuned-lookahead-8", &tuned_lookahead::new(8));
    unmoved_by_the_unseen("tuned", &Tuned::default());
    unmoved_by_the_unseen("lookahead-4", &Lookahead::with_samples(4));
    unmoved_by_the_unseen("heuristic", &Heuristic::default());
    unmoved_by_the_unseen("greedy", &Greedy);
}
