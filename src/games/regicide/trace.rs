//! Regicide traced and played: its events in words with the table after each, its deal (castle
//! and tavern as ordered, and every shuffle of the discard pile by hearts), its decisions
//! replayed through the stacked engine, and a person playing seat 0 (the other seats play their
//! own policies) with the advice of seat 0's policy.

use std::cell::{Cell, RefCell};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::error::{Result, SimError};
use crate::games::Game;
use crate::games::observe::{Cards, Scripted};
use crate::games::regicide::card::{self, CODES};
use crate::games::regicide::engine::Engine;
use crate::games::regicide::engine::Resume;
use crate::games::regicide::events::{Event as EngineEvent, Observer};
use crate::games::regicide::outcome::Loss;
use crate::games::regicide::policy::{Action, Defence, Policy, Step1, Step4};
use crate::games::regicide::rules::{MAX_PLAYERS, ROYALS};
use crate::games::regicide::search::moves::Move;
use crate::games::regicide::state::State as Position;
use crate::games::regicide::view::View;
use crate::games::regicide::{Regicide, Streams};
use crate::games::state::GameState;
use crate::rng::{GameKey, GameRng};
use crate::search::play::{Player, Searching};
use crate::search::seat::SEARCH;

use crate::trace::play::{Answer, Ask, Desk, search_hint};
use crate::trace::{Traceable, Traced, check_deal_cards, deal_pile, deal_piles, recorded_flag};

/// One thing that happened, as the trace writes it (card sets as lists of card codes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// Castle and tavern ordered, before the deal: the castle first enemy first, the tavern top
    /// first.
    Deal {
        /// The royals in the order they come.
        castle: Cards,
        /// The tavern, top first.
        tavern: Cards,
    },
    /// A card drawn into `seat`'s hand.
    Drew {
        /// Who drew.
        seat: u8,
        /// The card.
        card: u8,
    },
    /// A royal became the enemy.
    Revealed {
        /// The royal.
        enemy: u8,
    },
    /// A turn began.
    TurnStarted {
        /// Whose.
        seat: u8,
    },
    /// A set-aside Jester used (solo): the hand discarded, fresh cards follow.
    SoloJester {
        /// Who.
        seat: u8,
        /// The hand discarded.
        discarded: Cards,
    },
    /// Cards played against the enemy.
    Played {
        /// Who.
        seat: u8,
        /// The cards.
        cards: Cards,
    },
    /// After a Jester: who goes next.
    Chose {
        /// The next player.
        next: u8,
    },
    /// A player yielded.
    Yielded {
        /// Who.
        seat: u8,
    },
    /// Hearts: the discard pile shuffled to `order`, its first `cards` moved under the tavern.
    Healed {
        /// How many cards moved.
        cards: u8,
        /// The whole pile as shuffled (empty if nothing moved: no shuffle).
        order: Cards,
    },
    /// Damage dealt.
    Damaged {
        /// This play's.
        dealt: u16,
        /// The enemy's so far.
        total: u16,
    },
    /// The enemy defeated.
    Defeated {
        /// The royal.
        enemy: u8,
        /// True if exactly (it went on top of the tavern).
        exact: bool,
    },
    /// Cards discarded to the enemy's attack.
    Discarded {
        /// Who.
        seat: u8,
        /// The cards.
        cards: Cards,
    },
    /// The game was won.
    Won,
    /// The game was lost.
    Lost {
        /// How.
        how: Loss,
    },
}

/// The table after an event (every hand: a trace sees all).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The current enemy.
    pub enemy: u8,
    /// Its health.
    pub health: u16,
    /// Damage dealt to it so far.
    pub damage: u16,
    /// Its attack.
    pub attack: u16,
    /// The spade shield in effect.
    pub shield: u16,
    /// True once a Jester cancelled its immunity.
    pub cancelled: bool,
    /// Royals left after the enemy.
    pub castle: u8,
    /// Cards in the tavern.
    pub tavern: u8,
    /// Cards in the discard pile.
    pub discard: u8,
    /// Set-aside Jesters left (solo).
    pub solo_jesters: u8,
    /// Every seat's hand (empty for a seat not at the table).
    pub hands: [Cards; MAX_PLAYERS],
}

/// An event with the table after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seen {
    /// What happened.
    #[serde(flatten)]
    pub event: Event,
    /// The table after it.
    pub state: State,
}

fn mask_cards(mask: u64) -> Cards {
    card::cards(mask).collect()
}

fn names(cards: &[u8]) -> String {
    if cards.is_empty() {
        return "-".into();
    }
    cards
        .iter()
        .map(|&c| card::name(c))
        .collect::<Vec<_>>()
        .join(" ")
}

fn mask_names(mask: u64) -> String {
    names(&card::cards(mask).collect::<Vec<_>>())
}

/// The table of `engine` now.
fn state(engine: &Engine, rules: &crate::games::regicide::Rules) -> State {
    let view = engine.view(rules, 0);
    State {
        enemy: view.enemy,
        health: view.health,
        damage: view.damage,
        attack: view.attack,
        shield: view.shield(),
        cancelled: view.cancelled,
        castle: view.castle,
        tavern: engine.tavern().len(),
        discard: engine.discard().len(),
        solo_jesters: engine.solo_jesters_left(),
        hands: engine.hands().map(mask_cards),
    }
}

/// The engine's event as the trace writes it, with the engine just after it.
fn convert(engine: &Engine, event: EngineEvent) -> Event {
    match event {
        EngineEvent::Drew { seat, card } => Event::Drew { seat, card },
        EngineEvent::Revealed { enemy } => Event::Revealed { enemy },
        EngineEvent::TurnStarted { seat } => Event::TurnStarted { seat },
        EngineEvent::SoloJester { seat, discarded } => Event::SoloJester {
            seat,
            discarded: mask_cards(discarded),
        },
        EngineEvent::Played { seat, cards } => Event::Played {
            seat,
            cards: mask_cards(cards),
        },
        EngineEvent::Chose { next } => Event::Chose { next },
        EngineEvent::Yielded { seat } => Event::Yielded { seat },
        EngineEvent::Healed { cards } => {
            // The pile was shuffled whole: its first `cards` are now the tavern's last.
            let order = if cards == 0 {
                Cards::of(&[])
            } else {
                let tavern: Vec<u8> = engine.tavern().iter().collect();
                let moved = &tavern[tavern.len() - usize::from(cards)..];
                moved
                    .iter()
                    .chain(engine.discard().cards())
                    .copied()
                    .collect()
            };
            Event::Healed { cards, order }
        }
        EngineEvent::Damaged { dealt, total } => Event::Damaged { dealt, total },
        EngineEvent::Defeated { enemy, exact } => Event::Defeated { enemy, exact },
        EngineEvent::Discarded { seat, cards } => Event::Discarded {
            seat,
            cards: mask_cards(cards),
        },
        EngineEvent::Won => Event::Won,
        EngineEvent::Lost { how } => Event::Lost { how },
    }
}

/// The deal event of an engine whose castle and tavern are ordered, nothing drawn.
fn dealt(engine: &Engine, rules: &crate::games::regicide::Rules) -> Seen {
    Seen {
        event: Event::Deal {
            castle: Cards::of(engine.castle()),
            tavern: engine.tavern().iter().collect(),
        },
        state: state(engine, rules),
    }
}

/// Hands every event, converted, to a function; the count of decisions seen so far to `cursor`
/// (the replay's script reads it).
struct Tracer<'a, F> {
    rules: &'a crate::games::regicide::Rules,
    each: F,
    cursor: Option<&'a Cell<usize>>,
}

impl<F: FnMut(Seen)> Observer for Tracer<'_, F> {
    fn event(&mut self, engine: &Engine, event: EngineEvent) {
        let seen = Seen {
            event: convert(engine, event),
            state: state(engine, self.rules),
        };
        if let Some(c) = self.cursor
            && Regicide::is_decision(&seen)
        {
            c.set(c.get() + 1);
        }
        (self.each)(seen);
    }
}

impl Traceable for Regicide {
    fn check_playable(&self) -> Result<()> {
        if self.solves() {
            return Err(SimError::input(format!(
                "policy {}: the clairvoyant sees the deal, so it gives no hints; watch its games with sim trace",
                self.seat_name(0)
            )));
        }
        Ok(())
    }

    type Seen = Seen;

    fn adviser(&self) -> &str {
        self.seat_name(0)
    }

    fn trace(&self, seed: u64, index: u64) -> Traced<Seen, Self::Outcome> {
        let events = RefCell::new(Vec::new());
        let rules = self.rules();
        let mut obs = Tracer {
            rules,
            each: |s| events.borrow_mut().push(s),
            cursor: None,
        };
        let outcome = self.play_observed(seed, index, &mut obs, |e| {
            events.borrow_mut().push(dealt(e, rules));
        });
        Traced {
            events: events.into_inner(),
            outcome,
        }
    }

    fn deal(events: &[Seen]) -> Value {
        let mut deal = json!({});
        let mut hearts = Vec::new();
        for seen in events {
            match seen.event {
                Event::Deal { castle, tavern } => {
                    deal = json!({ "castle": castle, "tavern": tavern });
                }
                Event::Healed { cards, order } if cards > 0 => hearts.push(order),
                _ => {}
            }
        }
        deal["hearts"] = json!(hearts);
        deal
    }

    /// The clairvoyant's word on its own search: whether it ran out of time.
    fn take_recorded(
        outcome: &mut Self::Outcome,
        recorded: &serde_json::Map<String, Value>,
    ) -> Result<()> {
        outcome.unsolved = recorded_flag(recorded, "unsolved")?;
        outcome.jesters_unproved = recorded_flag(recorded, "jesters_unproved")?;
        Ok(())
    }

    fn replay(&self, deal: &Value, events: &[Seen]) -> Result<Traced<Seen, Self::Outcome>> {
        check_deal_cards(self, deal, &[&["castle"], &["tavern"]])?;
        let castle = deal_pile(deal, "castle")?;
        let tavern = deal_pile(deal, "tavern")?;
        if castle.is_empty()
            || castle.len() > ROYALS
            || !castle
                .iter()
                .all(|&c| usize::from(c) < CODES && card::is_royal(c))
        {
            return Err(SimError::input(
                "the deal's castle: 1 to 12 royals (card codes 44 to 55)",
            ));
        }
        let mut seen_cards = 0u64;
        for &c in castle.iter().chain(&tavern) {
            if usize::from(c) >= CODES || seen_cards & card::bit(c) != 0 {
                return Err(SimError::input(format!(
                    "the deal holds card code {c} twice or out of range"
                )));
            }
            seen_cards |= card::bit(c);
        }
        if tavern.iter().any(|&c| card::is_royal(c)) {
            return Err(SimError::input("the deal's tavern holds a royal"));
        }
        let rules = self.rules();
        let engine = Engine::stacked(rules, &castle, &tavern);
        let cursor = Cell::new(0);
        let script = Script {
            decisions: events
                .iter()
                .filter(|s| Self::is_decision(s) || matches!(s.event, Event::Lost { .. }))
                .map(|s| s.event)
                .collect(),
            cursor: &cursor,
        };
        let mut out = vec![dealt(&engine, rules)];
        let mut obs = Tracer {
            rules,
            each: |s| out.push(s),
            cursor: Some(&cursor),
        };
        let mut hearts = Scripted::new(deal_piles(deal, "hearts")?);
        let mut engine = engine;
        let outcome = engine.play(
            rules,
            &script,
            &mut hearts,
            &mut GameRng::unused(),
            &mut obs,
        );
        Ok(Traced {
            events: out,
            outcome,
        })
    }

    fn words(&self, seen: &Seen) -> Option<String> {
        let s = &seen.state;
        Some(match seen.event {
            Event::Deal { castle, tavern } => format!(
                "deal: castle {} (first enemy first) | tavern {} (top first)",
                names(castle.as_slice()),
                names(tavern.as_slice())
            ),
            Event::Drew { seat, card: c } => format!("  seat {seat} draws {}", card::name(c)),
            Event::Revealed { enemy } => format!(
                "enemy: {} (health {}, attack {}) | castle {} more | tavern {} | discard {}",
                card::name(enemy),
                s.health,
                s.attack,
                s.castle,
                s.tavern,
                s.discard
            ),
            Event::TurnStarted { seat } => format!(
                "turn: seat {seat} | hand {} | {}",
                names(s.hands[usize::from(seat)].as_slice()),
                enemy_words(s)
            ),
            Event::SoloJester { seat, discarded } => format!(
                "  seat {seat} uses a set-aside Jester: discards {}, draws afresh",
                names(discarded.as_slice())
            ),
            Event::Played { seat, cards } => {
                format!("  seat {seat} plays {}", names(cards.as_slice()))
            }
            Event::Chose { next } => format!("  the Jester's player picks seat {next} to go next"),
            Event::Yielded { seat } => format!("  seat {seat} yields"),
            Event::Healed { cards: 0, .. } => "  hearts: the discard pile is empty".into(),
            Event::Healed { cards, order } => format!(
                "  hearts: discard shuffled to {}; {cards} under the tavern",
                names(order.as_slice())
            ),
            Event::Damaged { dealt, total } => {
                format!("  {dealt} damage: {total} of {}", s.health)
            }
            Event::Defeated { enemy, exact } => format!(
                "  {} defeated{}",
                card::name(enemy),
                if exact {
                    " exactly: on top of the tavern"
                } else {
                    ""
                }
            ),
            Event::Discarded { seat, cards } => format!(
                "  seat {seat} discards {} to the attack | hand {}",
                names(cards.as_slice()),
                names(s.hands[usize::from(seat)].as_slice())
            ),
            Event::Won => "the castle is empty".into(),
            Event::Lost { how } => format!("lost to {}: {}", card::name(s.enemy), how.label()),
        })
    }

    fn is_decision(seen: &Seen) -> bool {
        matches!(
            seen.event,
            Event::SoloJester { .. }
                | Event::Played { .. }
                | Event::Chose { .. }
                | Event::Yielded { .. }
                | Event::Discarded { .. }
        )
    }

    fn play_person(
        &self,
        seed: u64,
        index: u64,
        hints: bool,
        desk: &mut dyn Desk,
    ) -> Option<Traced<Seen, Self::Outcome>> {
        let quit = Cell::new(false);
        let desk = RefCell::new(desk);
        let mut events = Vec::new();
        let rules = self.rules();
        let mut obs = Tracer {
            rules,
            each: |seen: Seen| {
                if !quit.get()
                    && let Some(words) = shown(self, &seen)
                {
                    desk.borrow_mut().show(&words);
                }
                events.push(seen);
            },
            cursor: None,
        };
        let mut deal = None;
        let state = self.deal_state(seed, index, &mut obs, |e| deal = Some(dealt(e, rules)));
        let key = GameKey::new(seed, index);
        let adviser = self
            .seat_search(0)
            .map(|s| Searching::new(s, key.stream(SEARCH)));
        let mut person = Person {
            game: self,
            hints,
            adviser,
            desk: &desk,
            quit: &quit,
            coins: GameRng::new(seed, index, Streams::POLICY),
        };
        let outcome = self.play_person_from(state, seed, index, &mut person, &mut obs);
        events.splice(0..0, deal);
        (!quit.get()).then_some(Traced { events, outcome })
    }
}

/// What the person sees of an event: not the deal, not another seat's cards drawn.
fn shown(game: &Regicide, seen: &Seen) -> Option<String> {
    match seen.event {
        Event::Deal { .. } => None,
        Event::TurnStarted { seat: 0 } => None,
        Event::Drew { seat, .. } if seat != 0 => Some(format!("  seat {seat} draws a card")),
        _ => game.words(seen),
    }
}

/// The enemy in words: "JS 5/20, attack 10 (shield 3), immune to spades".
fn enemy_words(s: &State) -> String {
    let immune = if s.cancelled {
        "immunity cancelled".to_string()
    } else {
        let suit = ["clubs", "spades", "hearts", "diamonds"][usize::from(card::suit(s.enemy))];
        format!("immune to {suit}")
    };
    format!(
        "enemy {} {}/{} damage, attack {} (shield {}), {immune}",
        card::name(s.enemy),
        s.damage,
        s.health,
        s.attack,
        s.shield
    )
}

/// The recorded decisions, in order: the policy of a replay. `cursor` counts those the engine
/// has already taken (its observer moves it), so forced moves, which the engine takes without
/// asking, keep the script in step.
struct Script<'a> {
    decisions: Vec<Event>,
    cursor: &'a Cell<usize>,
}

impl Script<'_> {
    fn next(&self) -> Option<Event> {
        self.decisions.get(self.cursor.get()).copied()
    }
}

impl Policy for Script<'_> {
    fn attack(&self, _: &View, choices: &Step1, _: &mut GameRng) -> Action {
        let play = |cards: &Cards| {
            let mask = cards.as_slice().iter().fold(0, |m, &c| m | card::bit(c));
            choices.plays.iter().find(|p| p.cards == mask).copied()
        };
        match self.next() {
            Some(Event::SoloJester { .. }) if choices.solo_jester => Action::SoloJester,
            Some(Event::Yielded { .. }) if choices.can_yield => Action::Yield,
            Some(Event::Played { cards, .. }) if play(&cards).is_some() => {
                Action::Play(play(&cards).expect("found"))
            }
            // A replay that drifted: any legal move, and the comparison shows where.
            _ if choices.can_yield => Action::Yield,
            _ => choices
                .plays
                .first()
                .map_or(Action::SoloJester, |&p| Action::Play(p)),
        }
    }

    fn next_seat(&self, view: &View, _: &mut GameRng) -> u8 {
        match self.next() {
            Some(Event::Chose { next }) if next < view.players => next,
            _ => view.seat,
        }
    }

    fn defend(&self, _: &View, choices: &Step4, _: &mut GameRng) -> Defence {
        match self.next() {
            Some(Event::SoloJester { .. }) if choices.solo_jester => Defence::SoloJester,
            Some(Event::Discarded { cards, .. }) => {
                let mask = cards.as_slice().iter().fold(0, |m, &c| m | card::bit(c));
                choices
                    .covers
                    .iter()
                    .find(|c| c.cards == mask)
                    .map_or(Defence::GiveUp, |&c| Defence::Discard(c))
            }
            _ => Defence::GiveUp,
        }
    }
}

/// A person at seat 0, advised by seat 0's policy if `hints` (its search player's advice, or
/// the plain policy's pick); the choices are the state's legal moves. After `q` seat 0 yields or
/// plays its first play and gives up at the next attack, unseen, so the game ends.
struct Person<'a, 'd, 'r> {
    game: &'a Regicide,
    hints: bool,
    /// Seat 0's search player, if it has one.
    adviser: Option<Searching<'a, Position<'r>>>,
    desk: &'a RefCell<&'d mut dyn Desk>,
    quit: &'a Cell<bool>,
    /// The hint policy's own generator (`random`).
    coins: GameRng,
}

impl<'r> Person<'_, '_, 'r> {
    /// The table as seat 0 sees it.
    fn table(&self, view: &View) -> Vec<String> {
        let mut lines = vec![format!(
            "{} | castle {} more | tavern {} | discard {}",
            enemy_words(&State {
                enemy: view.enemy,
                health: view.health,
                damage: view.damage,
                attack: view.attack,
                shield: view.shield(),
                cancelled: view.cancelled,
                castle: view.castle,
                tavern: view.tavern,
                discard: 0,
                solo_jesters: view.solo_jesters,
                hands: [Cards::of(&[]); MAX_PLAYERS],
            }),
            view.castle,
            view.tavern,
            view.discard.count_ones()
        )];
        if view.damage < view.health {
            lines.push(format!("the attack asks a discard of {}", view.need()));
        }
        let mut hand = format!(
            "your hand: {} (value {})",
            mask_names(view.hand),
            view.hand_value
        );
        if view.solo() {
            hand += &format!(" | set-aside Jesters {}", view.solo_jesters);
        } else {
            let others: Vec<String> = (1..view.players)
                .map(|p| format!("seat {p} {} cards", view.hand_sizes[usize::from(p)]))
                .collect();
            hand += &format!(" | {}", others.join(", "));
        }
        lines.push(hand);
        lines
    }

    /// The hint lines at `state`'s decision among `moves` (listed as `words`).
    fn hint(&mut self, state: &Position<'r>, moves: &[Move], words: &[String]) -> Vec<String> {
        let name = self.game.seat_name(0);
        let line = |i: Option<usize>| match i {
            Some(i) => format!("hint ({name}): {}) {}", i + 1, words[i]),
            None => format!("hint ({name}): none"),
        };
        let at = |m: &Move| moves.iter().position(|x| x == m);
        let Some(adviser) = self.adviser.as_mut() else {
            let pick = state.policy_move_with_kind(self.game.seat_policy(0), &mut self.coins);
            return vec![line(at(&pick))];
        };
        let advice = adviser.advise(state, 0);
        search_hint(name, &adviser.searcher.settings, &advice, moves, words)
    }
}

/// A move in words, as the person reads it among the choices.
fn move_words(mv: &Move, view: &View) -> String {
    match mv {
        Move::Attack(Action::Play(p)) => {
            format!("play {} (value {})", mask_names(p.cards), p.value)
        }
        Move::Attack(Action::Yield) => "yield".into(),
        Move::Attack(Action::SoloJester) | Move::Defend(Defence::SoloJester) => {
            "use a set-aside Jester (discard your hand, draw afresh)".into()
        }
        Move::Defend(Defence::Discard(c)) => {
            format!("discard {} (value {})", mask_names(c.cards), c.total)
        }
        Move::Defend(Defence::GiveUp) => "give up (no discard covers the attack)".into(),
        Move::Next(0) => "seat 0 (you) goes next".to_string(),
        Move::Next(p) => format!(
            "seat {p} goes next ({} cards)",
            view.hand_sizes[usize::from(*p)]
        ),
    }
}

impl<'r> Player<Position<'r>> for Person<'_, '_, 'r> {
    fn decide(&mut self, state: &mut Position<'r>, _seat: u8, _coins: &mut GameRng) -> Move {
        let mut moves = Vec::new();
        state.legal(&mut moves);
        let quit_move = |moves: &[Move]| match state.at() {
            Some(Resume::Defend { .. }) => Move::Defend(Defence::GiveUp),
            Some(Resume::Next(_)) => Move::Next(0),
            _ => *moves
                .iter()
                .find(|m| **m == Move::Attack(Action::Yield))
                .unwrap_or(&moves[0]),
        };
        if self.quit.get() {
            return quit_move(&moves);
        }
        let view = state.view(0);
        let words: Vec<String> = moves.iter().map(|m| move_words(m, &view)).collect();
        let hint = if self.hints {
            self.hint(state, &moves, &words)
        } else {
            Vec::new()
        };
        let ask = Ask {
            table: self.table(&view),
            choices: words,
            hint,
        };
        let answer = self.desk.borrow_mut().ask(&ask);
        match answer {
            Answer::Pick(i) => moves[i],
            Answer::Quit => {
                self.quit.set(true);
                quit_move(&moves)
            }
        }
    }
}
