//! Crownfall traced and played: its events in words, its deal, its decisions replayed, a person's
//! push/bank and Joker choices, and the hints of a policy (with win probabilities for `optimal`
//! and `expectimax`).

use std::cell::{Cell, RefCell};

use serde_json::{Value, json};

use crate::cards::{Dealer, Stacked};
use crate::error::{Result, SimError};
use crate::games::Game;
use crate::games::crownfall::engine::{JokerView, StrikeView};
use crate::games::crownfall::events::{Event, Seen};
use crate::games::crownfall::policy::BankTable;
use crate::games::crownfall::solver::{self, Values};
use crate::games::crownfall::state::{Move, State};
use crate::games::crownfall::{Crownfall, Deck, Enemy, Engine, Policy, PolicyKind, Rules};
use crate::games::observe::{Each, Recorder, Scripted};
use crate::rng::{GameKey, GameRng};
use crate::search::play::{Player, Searching};
use crate::search::seat::SEARCH;

use crate::trace::play::{Answer, Ask, Desk};
use crate::trace::{Traceable, Traced, check_deal_cards, deal_pile, deal_piles};

/// A card's name: A for the Ace, else its value.
fn card(v: u8) -> String {
    if v == 1 { "A".into() } else { v.to_string() }
}

/// A tower card's short name.
fn tower_card(code: u8) -> &'static str {
    ["J", "Q", "K", "Jo"][usize::from(code & 3)]
}

fn cards(values: &[u8], name: impl Fn(u8) -> String) -> String {
    values
        .iter()
        .map(|&v| name(v))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A strike's total in words: "15", "soft 17".
fn total(hard: u8, best: u8) -> String {
    if best != hard {
        format!("soft {best}")
    } else {
        best.to_string()
    }
}

impl Crownfall {
    /// An endless deck draws every card with fresh odds: its deal is any run of the deck's
    /// faces as long as a dealt deck.
    fn check_endless_deck(&self, deal: &Value) -> Result<()> {
        let dealt = deal_pile(&Self::deal(&self.trace(0, 0).events), "deck")?.len();
        let deck = deal_pile(deal, "deck")?;
        if deck.len() != dealt || !fresh_faces(&deck) {
            return Err(SimError::input(format!(
                "the deal's deck: not a deal of the endless deck ({dealt} cards of faces 1 to {})",
                solver::strike::FACES
            )));
        }
        Ok(())
    }
}

/// True if every card of `cards` is a face of the endless deck.
fn fresh_faces(cards: &[u8]) -> bool {
    cards
        .iter()
        .all(|&c| (1..=solver::strike::FACES as u8).contains(&c))
}

/// The recorded reshuffles of an endless deck, dealt in turn: fresh cards, so each is any run
/// of the deck's faces as long as the pile (a record that is not leaves the pile as it is, and
/// the replay then differs from it).
struct FreshScript {
    orders: Vec<Vec<u8>>,
    next: usize,
}

impl Dealer for FreshScript {
    fn shuffle(&mut self, cards: &mut [u8]) {
        if let Some(order) = self.orders.get(self.next)
            && order.len() == cards.len()
            && fresh_faces(order)
        {
            cards.copy_from_slice(order);
        }
        self.next += 1;
    }
}

impl Traceable for Crownfall {
    type Seen = Seen;

    fn check_playable(&self) -> Result<()> {
        if self.solves() {
            return Err(SimError::input(format!(
                "policy {}: the clairvoyant sees the deal, so it gives no hints; watch its games with sim trace",
                self.policy_name()
            )));
        }
        Ok(())
    }

    fn trace(&self, seed: u64, index: u64) -> Traced<Seen, Self::Outcome> {
        let mut rec = Recorder::default();
        let outcome = self.play_observed(seed, index, &mut rec);
        Traced {
            events: rec.events,
            outcome,
        }
    }

    fn deal(events: &[Seen]) -> Value {
        let mut deal = json!({});
        let mut reshuffles = Vec::new();
        for seen in events {
            match seen.event {
                Event::Deal { tower, deck } => {
                    deal = json!({"tower": tower, "deck": deck});
                }
                Event::Reshuffle { deck } => reshuffles.push(deck),
                _ => {}
            }
        }
        deal["reshuffles"] = json!(reshuffles);
        deal
    }

    fn replay(&self, deal: &Value, events: &[Seen]) -> Result<Traced<Seen, Self::Outcome>> {
        if self.rules().deck == Deck::Infinite {
            check_deal_cards(self, deal, &[&["tower"]])?;
            self.check_endless_deck(deal)?;
        } else {
            check_deal_cards(self, deal, &[&["tower"], &["deck"]])?;
        }
        let tower = deal_pile(deal, "tower")?;
        if let Some(bad) = tower.iter().find(|&&c| c > 3) {
            return Err(SimError::input(format!(
                "the deal's tower holds {bad}: enemy codes are 0 to 3"
            )));
        }
        let tower: Vec<Enemy> = tower.into_iter().map(Enemy::from_code).collect();
        let deck = deal_pile(deal, "deck")?;
        let mut orders = vec![deck.clone()];
        orders.extend(deal_piles(deal, "reshuffles")?);
        let script = Script::of(events);
        let mut rec = Recorder::default();
        let engine = Engine::stacked(self.rules(), &tower, &deck);
        let outcome = if self.rules().deck == Deck::Infinite {
            let mut dealer = FreshScript { orders, next: 0 };
            engine.play_observed(self.rules(), &script, &mut Stacked, &mut dealer, &mut rec)
        } else {
            let mut dealer = Scripted::new(orders);
            engine.play_observed(self.rules(), &script, &mut Stacked, &mut dealer, &mut rec)
        };
        Ok(Traced {
            events: rec.events,
            outcome,
        })
    }

    fn words(&self, seen: &Seen) -> Option<String> {
        let s = &seen.state;
        Some(match seen.event {
            Event::Deal { tower, deck } => format!(
                "deal: tower {} (top first); deck {}",
                tower
                    .as_slice()
                    .iter()
                    .map(|&c| tower_card(c))
                    .collect::<Vec<_>>()
                    .join(" "),
                cards(deck.as_slice(), card)
            ),
            Event::Strike { enemy, target } => format!(
                "strike vs the {} (target {target}) | HP {} | tower card {} of {} | deck {} cards",
                enemy.name(),
                s.hp,
                s.cleared + 1,
                s.cleared + s.tower_left,
                s.deck_left
            ),
            Event::Flip { card: c, hard, .. } if hard > 21 => {
                format!("  flip {}: {hard}, bust", card(c))
            }
            Event::Flip {
                card: c,
                hard,
                best,
            } => {
                format!("  flip {}: {}", card(c), total(hard, best))
            }
            Event::Choice { bank } => format!(
                "  choice (bank or push): {}",
                if bank { "BANK" } else { "PUSH" }
            ),
            Event::StrikeEnd {
                total,
                damage,
                heal,
                defeated,
            } => {
                let what = if defeated && heal > 0 {
                    format!("perfect 21: defeated, healed {heal}")
                } else if defeated {
                    format!("{total}: defeated")
                } else if total > 21 {
                    format!("bust: {damage} damage")
                } else {
                    format!("{total}, short: {damage} damage")
                };
                format!("  {what} | HP {}", s.hp)
            }
            Event::Joker => format!("joker | HP {} | deck {} cards", s.hp, s.deck_left),
            Event::JokerFlip { card: c } => format!(
                "  joker flip {}: {}",
                card(c),
                if c % 2 == 1 { "odd" } else { "even" }
            ),
            Event::JokerChoice { gamble } => format!(
                "  choice (accept or double or nothing): {}",
                if gamble {
                    "DOUBLE OR NOTHING"
                } else {
                    "ACCEPT"
                }
            ),
            Event::JokerEnd { damage } => format!("  joker: {damage} damage | HP {}", s.hp),
            Event::Reshuffle { deck } => format!(
                "  reshuffle: {} cards become the deck: {}",
                deck.as_slice().len(),
                cards(deck.as_slice(), card)
            ),
        })
    }

    fn is_decision(seen: &Seen) -> bool {
        matches!(seen.event, Event::Choice { .. } | Event::JokerChoice { .. })
    }

    fn play_person(
        &self,
        seed: u64,
        index: u64,
        hints: bool,
        desk: &mut dyn Desk,
    ) -> Option<Traced<Seen, Self::Outcome>> {
        let desk = RefCell::new(desk);
        let quit = Cell::new(false);
        let mut events = Vec::new();
        let mut obs = Each(|seen: Seen| {
            // The person sees neither the deal nor a new deck's order.
            let words = match seen.event {
                Event::Deal { .. } => None,
                Event::Reshuffle { deck } => Some(format!(
                    "  reshuffle: {} cards become the deck",
                    deck.as_slice().len()
                )),
                _ => self.words(&seen),
            };
            if let Some(words) = words.filter(|_| !quit.get()) {
                desk.borrow_mut().show(&words);
            }
            events.push(seen);
        });
        let key = GameKey::new(seed, index);
        let mut state = State::deal_observed(self, key, &mut obs);
        let mut person = Person {
            game: self,
            hints,
            desk: &desk,
            quit: &quit,
            adviser: self
                .searcher()
                .map(|s| Searching::new(s, key.stream(SEARCH))),
        };
        self.play_state(&mut state, key, Some(&mut person), &mut obs);
        (!quit.get()).then_some(Traced {
            events,
            outcome: state.outcome(),
        })
    }
}

/// The decisions of a recorded game, in order: the policy of a replay.
struct Script {
    banks: Vec<bool>,
    gambles: Vec<bool>,
    next_bank: Cell<usize>,
    next_gamble: Cell<usize>,
}

impl Script {
    fn of(events: &[Seen]) -> Self {
        let banks = events.iter().filter_map(|s| match s.event {
            Event::Choice { bank } => Some(bank),
            _ => None,
        });
        let gambles = events.iter().filter_map(|s| match s.event {
            Event::JokerChoice { gamble } => Some(gamble),
            _ => None,
        });
        Self {
            banks: banks.collect(),
            gambles: gambles.collect(),
            next_bank: Cell::new(0),
            next_gamble: Cell::new(0),
        }
    }

    /// The next recorded decision of a list; past its end (a replay that drifted), `fallback`.
    fn next(list: &[bool], at: &Cell<usize>, fallback: bool) -> bool {
        let i = at.get();
        at.set(i + 1);
        list.get(i).copied().unwrap_or(fallback)
    }
}

impl Policy for Script {
    fn strike_table(&self, _: &Rules, _: &StrikeView) -> Option<BankTable> {
        None
    }
    fn bank(&self, _: &Rules, _: &StrikeView) -> bool {
        Self::next(&self.banks, &self.next_bank, true)
    }
    fn double_or_nothing(&self, _: &Rules, _: &JokerView) -> bool {
        Self::next(&self.gambles, &self.next_gamble, false)
    }
}

/// A person choosing at the desk, advised by the game's policy if `hints` (a search player's
/// advice, or the plain policy's choice with its win probabilities). After `q` every decision
/// banks or accepts, unseen, so the game ends.
struct Person<'a, 'd, 'r> {
    game: &'a Crownfall,
    hints: bool,
    desk: &'a RefCell<&'d mut dyn Desk>,
    quit: &'a Cell<bool>,
    /// The game's search player, if it has one.
    adviser: Option<Searching<'a, State<'r>>>,
}

impl<'r> Person<'_, '_, 'r> {
    /// The hint at `state`'s decision between `names` (the first: bank or accept); `plain` gives
    /// the plain policy's choice (true for the second) and its win probabilities.
    fn hint(
        &mut self,
        state: &State<'r>,
        names: [&str; 2],
        plain: impl FnOnce() -> (bool, Option<(f64, f64)>),
    ) -> Vec<String> {
        let name = self.game.policy_name();
        let Some(adviser) = self.adviser.as_mut() else {
            let (second, values) = plain();
            let mut hint = format!("hint ({name}): {}", names[usize::from(second)]);
            if let Some((a, b)) = values {
                hint += &format!(
                    " | win probability: {} {:.2}%, {} {:.2}%",
                    names[0],
                    100.0 * a,
                    names[1],
                    100.0 * b
                );
            }
            return vec![hint];
        };
        let advice = adviser.advise(state, 0);
        let index = |m: Move| usize::from(matches!(m, Move::Push | Move::Double));
        let mut hint = format!("hint ({name}): {}", names[index(advice.best)]);
        let values: Vec<String> = advice
            .values
            .iter()
            .map(|(m, visits, mean)| match visits {
                Some(n) => format!("{} {n} visits ({mean:.3})", names[index(*m)]),
                None => format!("{} {mean:.3}", names[index(*m)]),
            })
            .collect();
        if !values.is_empty() {
            hint += &format!(" | {}", values.join(", "));
        }
        vec![hint]
    }

    /// Asks; `None` once the person has quit.
    fn ask(&self, ask: &Ask) -> Option<usize> {
        if self.quit.get() {
            return None;
        }
        match self.desk.borrow_mut().ask(ask) {
            Answer::Pick(i) => Some(i),
            Answer::Quit => {
                self.quit.set(true);
                None
            }
        }
    }
}

impl<'r> Player<State<'r>> for Person<'_, '_, 'r> {
    fn decide(&mut self, state: &mut State<'r>, _seat: u8, _coins: &mut GameRng) -> Move {
        let rules = self.game.rules();
        if let Some(view) = state.strike_view() {
            if self.quit.get() {
                return Move::Bank;
            }
            let strike: Vec<String> = view.deck.held().iter().map(|&v| card(v)).collect();
            let mut ask = Ask {
                table: vec![format!(
                    "HP {} | the {} (target {}) | strike {} = {} | tower {} more | deck {} cards",
                    view.hp,
                    view.enemy.name(),
                    view.target,
                    strike.join(" "),
                    total(view.hard, view.best),
                    view.tower.unrevealed_len(),
                    view.deck.len()
                )],
                choices: vec![
                    format!("bank {}", view.best),
                    "push: flip another card".into(),
                ],
                hint: Vec::new(),
            };
            if self.hints {
                let game = self.game;
                let plain = || {
                    let push = !game.policy().bank(rules, &view);
                    (push, values_of(game).map(|v| v.strike(&view)))
                };
                ask.hint = self.hint(state, ["bank", "push"], plain);
            }
            return match self.ask(&ask) {
                Some(1) => Move::Push,
                _ => Move::Bank,
            };
        }
        let view = state
            .joker_view()
            .expect("a decision is asked of a game not over");
        if self.quit.get() {
            return Move::Accept;
        }
        let mut ask = Ask {
            table: vec![format!(
                "HP {} | joker: the first flip was odd | deck {} cards",
                view.hp,
                view.deck.len()
            )],
            choices: vec![
                format!("accept {} damage", rules.joker_damage),
                format!(
                    "double or nothing: flip again, odd deals {}, even nothing",
                    rules.crushing_damage
                ),
            ],
            hint: Vec::new(),
        };
        if self.hints {
            let game = self.game;
            let plain = || {
                let gamble = game.policy().double_or_nothing(rules, &view);
                (gamble, values_of(game).map(|v| v.joker(rules, &view)))
            };
            ask.hint = self.hint(state, ["accept", "double or nothing"], plain);
        }
        match self.ask(&ask) {
            Some(1) => Move::Double,
            _ => Move::Accept,
        }
    }
}

/// The values behind the game's policy, if it is one that values its choices: `optimal` (fresh
/// odds: every flip Ace..10 alike) and `expectimax` (the real deck counted).
fn values_of(game: &Crownfall) -> Option<Values> {
    let counted = match game.policy() {
        PolicyKind::Expectimax(_) => game.rules().deck == Deck::Finite,
        PolicyKind::Plan(_) if game.policy_name() == "optimal" => false,
        _ => return None,
    };
    // The solution the policy was built on: solved once per process.
    let solution = solver::solved(game.rules()).ok()?;
    Some(Values::new(solution, counted))
}
