//! A person in seat 0 of a Junkyard game at the desk, choosing among the state's legal moves:
//! step 3 one action at a time; the attack and the blocks as a whole, by adding and removing
//! automatons (then answered to the state one automaton at a time); each split. With hints,
//! seat 0's policy advises: a plain policy's plan (played on a copy of the game), or a search
//! player's choice with what it weighed.

use std::cell::{Cell, RefCell};

use crate::games::junkyard::combat::{self, Blocks, MAX_BOTS};
use crate::games::junkyard::greedy::LETHAL;
use crate::games::junkyard::lookahead::Lookahead;
use crate::games::junkyard::state::{At, Move, NO_BLOCKER, State as Position};
use crate::games::junkyard::{PolicyKind, View};
use crate::games::state::GameState;
use crate::rng::GameRng;
use crate::search::play::{Player, Searching};
use crate::trace::play::{Answer, Ask, Desk};

use super::{blocks_words, bot_words, card, masked, view_table};

/// A person at the desk in seat 0, advised by seat 0's player if `hints`. After `q` the person
/// builds nothing, attacks with nothing and blocks nothing, so the game ends unseen.
pub(super) struct Person<'a, 'd, 'r> {
    /// Seat 0's plain policy (the adviser without a search player).
    pub policy: &'a PolicyKind,
    /// Its name.
    pub label: &'a str,
    /// True to show its advice.
    pub hints: bool,
    /// Seat 0's search player, if it has one.
    pub adviser: Option<Searching<'a, Position<'r>>>,
    pub desk: &'a RefCell<&'d mut dyn Desk>,
    pub quit: &'a Cell<bool>,
    /// The advising policy's generator (seat 0's policy stream).
    pub coins: GameRng,
    /// The attack chosen at the turn's first attack decision.
    pub attack: Option<u32>,
    /// The blocks chosen at the combat's first block decision: the turn, and the blocks.
    pub blocks: Option<(u16, Blocks)>,
}

/// A step 3 (or set-up) move in words, as the person reads it among the choices;
/// `attack_next` if the attack follows step 3 (not at set-up).
fn act_words(mv: &Move, view: &View, attack_next: bool) -> String {
    match *mv {
        Move::Build(bot) => format!("build {}", bot_words(&bot)),
        Move::Deploy {
            card: tear,
            target,
            own,
        } => {
            let cost = own.map_or(String::new(), |i| {
                let i = usize::from(i);
                format!(", losing your #{} {}", i + 1, bot_words(&view.bots()[i]))
            });
            let t = usize::from(target);
            format!(
                "deploy {}: destroy their #{} {}{cost}",
                card(tear),
                t + 1,
                bot_words(&view.opp_bots()[t])
            )
        }
        _ if attack_next && !view.bots().is_empty() => "done building: choose attackers".into(),
        _ => "done".into(),
    }
}

impl<'r> Person<'_, '_, 'r> {
    /// Puts `ask` to the person; `None` once they quit.
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

    /// The adviser's next move on `game` (a copy the advice plays on): the search player's, or
    /// the plain policy's (its coins from the person's generator `coins`).
    fn advised(&mut self, game: &mut Position<'r>, coins: &mut GameRng) -> Move {
        match self.adviser.as_mut() {
            Some(adviser) => adviser.advise(game, 0).best,
            None => game.policy_move(self.policy, coins),
        }
    }

    /// The hint line naming `moves[i]` (in `words`), and the search's values of the moves it
    /// weighed, if a search advises.
    fn search_hint(
        &mut self,
        state: &Position<'r>,
        moves: &[Move],
        words: &[String],
    ) -> Vec<String> {
        let label = self.label;
        let Some(adviser) = self.adviser.as_mut() else {
            return Vec::new();
        };
        let advice = adviser.advise(state, 0);
        crate::trace::play::search_hint(label, &adviser.searcher.settings, &advice, moves, words)
    }

    /// The plain policy's plan of the rest of this step 3 (and its attack), played on a copy:
    /// the hint line, naming the choice of `moves` it starts with.
    fn plan_hint(&mut self, state: &Position<'r>, moves: &[Move]) -> Vec<String> {
        let mut game = state.clone();
        let mut coins = self.coins.clone();
        let mut plan = Vec::new();
        let mut first = None;
        let turn = state.engine().turns();
        // The actions of this call: the same decision, in the same turn.
        while game.at() == state.at() && game.engine().turns() == turn {
            let mv = self.advised(&mut game, &mut coins);
            first.get_or_insert(mv);
            let view = game.view(0);
            match mv {
                Move::Build(bot) => plan.push(format!("build {}", bot_words(&bot))),
                Move::Deploy {
                    card: tear, target, ..
                } => plan.push(format!(
                    "deploy {} on {}",
                    card(tear),
                    bot_words(&view.opp_bots()[usize::from(target)])
                )),
                _ => {}
            }
            game.apply(mv);
        }
        if matches!(state.at(), At::Act) {
            let bots = game.view(0).bots().to_vec();
            let mask = self.attack_of(&mut game, &mut coins);
            plan.push(if mask == 0 {
                "no attack".into()
            } else {
                format!("attack with {}", masked(&bots, mask))
            });
        }
        if plan.is_empty() {
            plan.push("done".into());
        }
        let pick = first
            .and_then(|f| moves.iter().position(|m| *m == f))
            .map_or(String::new(), |i| format!("{}) ", i + 1));
        vec![format!("hint ({}): {pick}{}", self.label, plan.join(", "))]
    }

    /// The adviser's attack from `game` (at the attack's first decision, or past it: none).
    fn attack_of(&mut self, game: &mut Position<'r>, coins: &mut GameRng) -> u32 {
        let mut mask = 0;
        while let At::Attack { next, .. } = game.at() {
            let mv = self.advised(game, coins);
            mask |= u32::from(mv == Move::Attack(true)) << next;
            game.apply(mv);
        }
        mask
    }

    /// A step 3 (or set-up) action chosen at the desk.
    fn step3(&mut self, state: &Position<'r>) -> Move {
        if self.quit.get() {
            return Move::Stop;
        }
        let mut moves = Vec::new();
        state.legal(&mut moves);
        let view = state.view(0);
        let attack_next = matches!(state.at(), At::Act);
        let words: Vec<String> = moves
            .iter()
            .map(|m| act_words(m, &view, attack_next))
            .collect();
        let hint = match (self.hints, self.adviser.is_some()) {
            (false, _) => Vec::new(),
            (true, true) => self.search_hint(state, &moves, &words),
            (true, false) => self.plan_hint(state, &moves),
        };
        let ask = Ask {
            table: view_table(&view),
            choices: words,
            hint,
        };
        self.ask(&ask).map_or(Move::Stop, |i| moves[i])
    }

    /// The attackers chosen at the desk, adding and removing automatons.
    fn choose_attack(&mut self, state: &Position<'r>) -> u32 {
        let view = state.view(0);
        let bots = view.bots();
        let advice = if self.hints {
            let mut game = state.clone();
            let mask = self.attack_of(&mut game, &mut self.coins.clone());
            vec![format!(
                "hint ({}): {}",
                self.label,
                if mask == 0 {
                    "no attack".to_string()
                } else {
                    format!("attack with {}", masked(bots, mask))
                }
            )]
        } else {
            Vec::new()
        };
        let mut mask = 0u32;
        loop {
            let mut hint = advice.clone();
            if let (true, PolicyKind::Greedy(g), None) = (self.hints, self.policy, &self.adviser) {
                // Greedy's own score of the attack each choice leaves (the one it maximizes).
                let score = |m: u32| {
                    let s = g.score_attack(bots, view.opp_bots(), m, view.hp(), view.opp_hp());
                    if s >= LETHAL {
                        "lethal".to_string()
                    } else {
                        format!("{s:.2}")
                    }
                };
                let scores: Vec<String> = std::iter::once(score(mask))
                    .chain((0..bots.len()).map(|i| score(mask ^ 1 << i)))
                    .enumerate()
                    .map(|(i, s)| format!("{}) {s}", i + 1))
                    .collect();
                hint.push(format!(
                    "  score of the attack each choice leaves: {}",
                    scores.join("  ")
                ));
            }
            let mut choices = vec![if mask == 0 {
                "no attack: end the turn".to_string()
            } else {
                format!("attack with {}", masked(bots, mask))
            }];
            for (i, b) in bots.iter().enumerate() {
                let verb = if mask & (1 << i) != 0 {
                    "remove"
                } else {
                    "add"
                };
                choices.push(format!("{verb} #{} {}", i + 1, bot_words(b)));
            }
            let ask = Ask {
                table: view_table(&view),
                choices,
                hint,
            };
            match self.ask(&ask) {
                Some(0) => return mask,
                Some(i) => mask ^= 1 << (i - 1),
                None => return 0,
            }
        }
    }

    /// The blocks chosen at the desk, adding and removing one blocker at a time among the pairs
    /// the state allows.
    fn choose_blocks(&mut self, state: &Position<'r>) -> Blocks {
        let At::Block { attackers, .. } = state.at() else {
            unreachable!("at the blocks")
        };
        let view = state.view(0);
        let (theirs, mine) = (view.opp_bots(), view.bots());
        // Each blocker's legal attackers, from the state's moves, blocker by blocker.
        let mut can = [0u32; MAX_BOTS];
        let mut game = state.clone();
        let mut moves = Vec::new();
        while let At::Block { next, .. } = game.at() {
            if next != NO_BLOCKER {
                game.legal(&mut moves);
                for m in &moves {
                    if let Move::Block(Some(j)) = m {
                        can[usize::from(next)] |= 1 << j;
                    }
                }
            }
            game.apply(Move::Block(None));
        }
        let hint = if self.hints {
            let mut game = state.clone();
            let mut coins = std::mem::replace(&mut self.coins, GameRng::unused());
            let mut advice = Blocks::NONE;
            while let At::Block { next, .. } = game.at() {
                let mv = self.advised(&mut game, &mut coins);
                if let (Move::Block(Some(j)), true) = (mv, next != NO_BLOCKER) {
                    advice.assign(usize::from(next), usize::from(j));
                }
                game.apply(mv);
            }
            self.coins = coins;
            vec![format!(
                "hint ({}): {}",
                self.label,
                blocks_words(&advice.of, mine, theirs)
            )]
        } else {
            Vec::new()
        };
        let mut blocks = Blocks::NONE;
        loop {
            let mut choices = vec![format!("done: {}", blocks_words(&blocks.of, mine, theirs))];
            let mut pairs = Vec::new();
            for (i, b) in mine.iter().enumerate() {
                for j in combat::bits(attackers & can[i]) {
                    let mut with = blocks;
                    with.of[i] = if blocks.of[i] == j as u8 + 1 {
                        0
                    } else {
                        j as u8 + 1
                    };
                    let verb = if with.of[i] == 0 { "stop: " } else { "" };
                    choices.push(format!(
                        "{verb}#{} {} blocks their #{} {}",
                        i + 1,
                        bot_words(b),
                        j + 1,
                        bot_words(&theirs[j])
                    ));
                    pairs.push(with);
                }
            }
            let ask = Ask {
                table: view_table(&view),
                choices,
                hint: hint.clone(),
            };
            match self.ask(&ask) {
                Some(0) | None => return blocks,
                Some(i) => blocks = pairs[i - 1],
            }
        }
    }

    /// A blocked attacker's split chosen at the desk.
    fn choose_split(&mut self, state: &Position<'r>) -> Move {
        let At::Split { blocks, strike } = state.at() else {
            unreachable!("at a split")
        };
        let mut moves = Vec::new();
        state.legal(&mut moves);
        let view = state.view(0);
        let j = strike.next().expect("a split waits for an attacker");
        let attacker = view.bots()[j];
        let of = blocks.blockers_of(j);
        let blockers: Vec<_> = combat::bits(of).map(|i| view.opp_bots()[i]).collect();
        let destroyed = |mv: &Move| match *mv {
            Move::Split(m) => combat::gathered(m, of),
            _ => 0,
        };
        let words: Vec<String> = moves
            .iter()
            .map(|m| match destroyed(m) {
                0 => "destroy none of its blockers".to_string(),
                m => format!("destroy {}", masked(&blockers, m)),
            })
            .collect();
        let mut hint = Vec::new();
        if self.hints && self.adviser.is_some() {
            hint = self.search_hint(state, &moves, &words);
        } else if self.hints {
            let mv = state.clone().policy_move(self.policy, &mut self.coins);
            let i = moves.iter().position(|m| *m == mv).unwrap_or(0);
            hint.push(format!("hint ({}): {}", self.label, words[i]));
            // Greedy and lookahead split to destroy the most worth (greedy's).
            if let PolicyKind::Greedy(g) | PolicyKind::Lookahead(Lookahead { greedy: g, .. }) =
                self.policy
            {
                let worth: Vec<String> = moves
                    .iter()
                    .enumerate()
                    .map(|(i, m)| {
                        let w: f32 = combat::bits(destroyed(m))
                            .map(|k| g.worth(&blockers[k]))
                            .sum();
                        format!("{}) {w:.2}", i + 1)
                    })
                    .collect();
                hint.push(format!("  worth each split destroys: {}", worth.join("  ")));
            }
        }
        let ask = Ask {
            table: vec![format!(
                "your {} is blocked by {}",
                bot_words(&attacker),
                masked(&blockers, combat::all(blockers.len()))
            )],
            choices: words,
            hint,
        };
        self.ask(&ask).map_or(moves[0], |i| moves[i])
    }
}

impl<'r> Player<Position<'r>> for Person<'_, '_, 'r> {
    fn decide(&mut self, state: &mut Position<'r>, _seat: u8, _coins: &mut GameRng) -> Move {
        match state.at() {
            At::Setup(_) | At::Act => self.step3(state),
            At::Attack { next, .. } => {
                if next == 0 {
                    self.attack = Some(if self.quit.get() {
                        0
                    } else {
                        self.choose_attack(state)
                    });
                }
                Move::Attack(self.attack.unwrap_or(0) >> next & 1 == 1)
            }
            At::Block { next, .. } => {
                let turn = state.engine().turns();
                if self.blocks.is_none_or(|(t, _)| t != turn) {
                    let blocks = if self.quit.get() {
                        Blocks::NONE
                    } else {
                        self.choose_blocks(state)
                    };
                    self.blocks = Some((turn, blocks));
                }
                let blocks = self.blocks.map_or(Blocks::NONE, |(_, b)| b);
                match next {
                    NO_BLOCKER => Move::Block(None),
                    i => Move::Block(blocks.target(usize::from(i)).map(|j| j as u8)),
                }
            }
            At::Split { .. } => self.choose_split(state),
            At::Over(_) => unreachable!("a decision of a game not over"),
        }
    }
}
