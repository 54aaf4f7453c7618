//! `heuristic`: every legal move scored by a weighted sum of what it does; weights from a
//! strategy file or built in (found by the search in `examples/regicide_tune.rs`).
//!
//! Step 1, for a play P of value v (terms as in [`super::simple`]: dmg, gain, R, need(P)),
//! `left` = the hand's value after P, `draws` = the cards diamonds would deal (min of v, the
//! tavern and the free hand slots round the table), `heals` = the cards hearts would move
//! (min of v and the discard pile):
//! - a kill scores `kill + exact·[dmg = R] − overkill·(dmg − R) − spend·v + draw·draws + heal·heals`;
//! - any other play `damage·dmg + shield·gain + draw·draws + heal·heals − spend·v
//!   − discard·min(need(P), left) − short·max(0, need(P) − left) + margin·min(left − need(P), 10)`,
//!   with `short_jester` for `short` while a set-aside Jester is left;
//! - a yield the same with v = 0 and nothing dealt; a Jester card `jester`;
//! - a set-aside Jester `solo_jester − hand·H` (H the hand's value).
//!
//! The best score is played. Step 4 discards the cover of least cost
//! `Σ value·(1 + keep_<suit>) + card·cards` and uses a set-aside Jester when the hand cannot
//! cover, or when what the best cover leaves is worth less than `solo_keep`. After a Jester the
//! player with most cards goes next (as `simple`).
//!
//! ```toml
//! name = "tuned"               # optional; defaults to the file name
//! description = "..."          # optional
//! [weights]                    # any subset; the rest keep the built-in values
//! kill = 10.16
//! ```

use std::hint::select_unpredictable;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Result, SimError};
use crate::rng::GameRng;

use super::card;
use super::moves::{Cover, Prices};
use super::policy::{Action, Defence, Policy, Step1, Step4};
use super::simple::most_cards;
use super::view::View;

#[cfg(target_arch = "x86_64")]
mod lanes;
mod play_scores;

/// The heuristic's weights (see the module notes for where each one counts).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
#[allow(missing_docs)]
pub struct Weights {
    pub kill: f32,
    pub exact: f32,
    pub overkill: f32,
    pub spend: f32,
    pub draw: f32,
    pub heal: f32,
    pub damage: f32,
    pub shield: f32,
    pub discard: f32,
    pub short: f32,
    pub short_jester: f32,
    pub margin: f32,
    #[serde(rename = "yield")]
    pub yield_: f32,
    pub jester: f32,
    pub solo_jester: f32,
    pub hand: f32,
    pub keep_clubs: f32,
    pub keep_spades: f32,
    pub keep_hearts: f32,
    pub keep_diamonds: f32,
    pub card: f32,
    pub solo_keep: f32,
}

impl Default for Weights {
    /// The weights the search of `examples/regicide_tune.rs` found (`strategies/regicide/tuned.toml`).
    fn default() -> Self {
        Self {
            kill: 10.16,
            exact: 5.6,
            overkill: 0.18,
            spend: 0.68,
            draw: 2.301,
            heal: 0.888,
            damage: 0.68,
            shield: 0.32,
            discard: 0.68,
            short: 2.226,
            short_jester: 0.64,
            margin: 0.5,
            yield_: 0.468,
            jester: 7.184,
            solo_jester: -1.647,
            hand: 0.2,
            keep_clubs: -0.5,
            keep_spades: -0.5,
            keep_hearts: -0.5,
            keep_diamonds: 1.438,
            card: -0.6,
            solo_keep: 1.75,
        }
    }
}

impl Weights {
    /// Every weight with its name, in declaration order (files, checks and the tuner).
    pub fn fields_mut(&mut self) -> [(&'static str, &mut f32); 22] {
        [
            ("kill", &mut self.kill),
            ("exact", &mut self.exact),
            ("overkill", &mut self.overkill),
            ("spend", &mut self.spend),
            ("draw", &mut self.draw),
            ("heal", &mut self.heal),
            ("damage", &mut self.damage),
            ("shield", &mut self.shield),
            ("discard", &mut self.discard),
            ("short", &mut self.short),
            ("short_jester", &mut self.short_jester),
            ("margin", &mut self.margin),
            ("yield", &mut self.yield_),
            ("jester", &mut self.jester),
            ("solo_jester", &mut self.solo_jester),
            ("hand", &mut self.hand),
            ("keep_clubs", &mut self.keep_clubs),
            ("keep_spades", &mut self.keep_spades),
            ("keep_hearts", &mut self.keep_hearts),
            ("keep_diamonds", &mut self.keep_diamonds),
            ("card", &mut self.card),
            ("solo_keep", &mut self.solo_keep),
        ]
    }

    /// What facing an attack of `need` with `left` in hand is worth.
    #[inline]
    fn defence(&self, spot: &Spot, left: u16, need: u16) -> f32 {
        let short = need.saturating_sub(left);
        -self.discard * f32::from(need.min(left)) - spot.short * f32::from(short)
            + self.margin * f32::from(left.saturating_sub(need).min(10))
    }

    /// The cost of discarding each card of `hand`, by card code (others 0, and 0 at 64, "no
    /// card", see [`cover_cost`]).
    #[inline]
    fn costs(&self, view: &View) -> [f32; 65] {
        let mut costs = [0.0; 65];
        let prices = self.prices();
        for c in card::cards(view.hand) {
            costs[usize::from(c)] = prices.of(view.values, c);
        }
        costs
    }

    /// What discarding a card costs: its value times `1 + keep_<suit>`, plus `card`.
    #[inline]
    fn prices(&self) -> Prices {
        Prices {
            factor: [
                1.0 + self.keep_clubs,
                1.0 + self.keep_spades,
                1.0 + self.keep_hearts,
                1.0 + self.keep_diamonds,
            ],
            each: self.card,
        }
    }
}

/// The index of the first cover of least cost in `covers` (`usize::MAX` for none), found
/// without branches (every cost is finite).
#[inline]
fn cheapest_cover(w: &Weights, view: &View, covers: &[Cover]) -> usize {
    let costs = w.costs(view);
    let mut least = (f32::INFINITY, usize::MAX);
    for (i, c) in covers.iter().enumerate() {
        let cost = cover_cost(&costs, c.cards);
        least = select_unpredictable(cost < least.0, (cost, i), least);
    }
    least.1
}

/// The cost of discarding `cards`: its cards' `costs` added in card order, as `Iterator::sum`
/// does (from -0.0), the first four without a loop whose end a branch predictor would have to
/// guess: past the last card, the lowest bit of nothing is 64, whose cost is 0.0, and adding
/// 0.0 changes a sum at most in a zero's sign, which compares equal.
#[inline]
fn cover_cost(costs: &[f32; 65], mut cards: u64) -> f32 {
    let mut sum = -0.0;
    for _ in 0..4 {
        sum += costs[cards.trailing_zeros() as usize];
        cards &= cards.wrapping_sub(1);
    }
    for c in card::cards(cards) {
        sum += costs[usize::from(c)];
    }
    sum
}

/// What every play's score shares at one decision, worked out once.
struct Spot {
    /// The suits the enemy is immune to, a bit each, in a whole word: the play scores, a call
    /// of their own, load it as a word, and a load wider than the store that wrote it cannot
    /// take its value from that store (it waits until the store reaches the cache).
    immune: u32,
    remaining: u16,
    need: u16,
    hand_value: u16,
    /// Free hand slots round the table before the play.
    free: u16,
    tavern: u16,
    discard: u16,
    /// The weight of a point the hand is short: `short_jester` while a set-aside Jester is left.
    short: f32,
    /// A set-aside Jester is left.
    #[cfg(target_arch = "x86_64")]
    jester_left: bool,
}

impl Spot {
    #[inline]
    fn of(view: &View, w: &Weights) -> Self {
        Self {
            immune: view.immune().into(),
            remaining: view.remaining(),
            need: view.need(),
            hand_value: view.hand_value,
            free: view.hand_sizes[..usize::from(view.players)]
                .iter()
                .map(|&n| u16::from(view.max_hand.saturating_sub(n)))
                .sum(),
            tavern: view.tavern.into(),
            discard: view.discard.count_ones() as u16,
            short: if view.solo_jesters > 0 {
                w.short_jester
            } else {
                w.short
            },
            #[cfg(target_arch = "x86_64")]
            jester_left: view.solo_jesters > 0,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    name: Option<String>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    weights: Weights,
}

/// The heuristic with its weights.
#[derive(Clone, Debug)]
pub struct Heuristic {
    /// Display name.
    pub name: String,
    /// What the file says the strategy is for.
    pub description: Option<String>,
    /// The weights (private: [`Heuristic::lanes`] is worked out from them).
    weights: Weights,
    /// The weights in the lanes of the play scores, worked out once.
    #[cfg(target_arch = "x86_64")]
    lanes: play_scores::WeightLanes,
}

impl PartialEq for Heuristic {
    /// The same name, description and weights (the lanes follow from the weights).
    fn eq(&self, other: &Self) -> bool {
        (&self.name, &self.description, &self.weights)
            == (&other.name, &other.description, &other.weights)
    }
}

impl Default for Heuristic {
    fn default() -> Self {
        Self::with(Weights::default())
    }
}

impl Heuristic {
    /// The heuristic named `heuristic` with `weights`.
    pub fn with(weights: Weights) -> Self {
        Self::named("heuristic".into(), None, weights)
    }

    /// The heuristic named `name` with `weights`, its lanes worked out.
    fn named(name: String, description: Option<String>, weights: Weights) -> Self {
        Self {
            name,
            description,
            weights,
            #[cfg(target_arch = "x86_64")]
            lanes: play_scores::WeightLanes::of(&weights),
        }
    }

    /// The weights.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// Reads and checks a strategy file.
    pub fn load(path: &Path) -> Result<Self> {
        let file: File = crate::rules::read_toml(path, "cannot read strategy file")?;
        let mut w = file.weights;
        for (field, v) in w.fields_mut() {
            if !v.is_finite() || !(-1000.0..=1000.0).contains(v) {
                return Err(SimError::input(format!(
                    "{}: weights.{field} = {v} is out of range: allowed -1000..=1000",
                    path.display()
                )));
            }
        }
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "strategy".into());
        Ok(Self::named(file.name.unwrap_or(stem), file.description, w))
    }
}

impl Policy for Heuristic {
    #[inline(always)]
    fn attack(&self, view: &View, choices: &Step1, _: &mut GameRng) -> Action {
        let w = &self.weights;
        let spot = Spot::of(view, w);
        let top = play_scores::best(self, &spot, choices.plays);
        let mut best = match choices.plays.get(top.1) {
            Some(p) => (Action::Play(*p), top.0),
            None => (Action::SoloJester, f32::NEG_INFINITY),
        };
        if choices.can_yield {
            let s = w.yield_ + w.defence(&spot, view.hand_value, spot.need);
            if s > best.1 {
                best = (Action::Yield, s);
            }
        }
        if choices.solo_jester {
            let s = w.solo_jester - w.hand * f32::from(view.hand_value);
            if s > best.1 || view.hand == 0 {
                best = (Action::SoloJester, s);
            }
        }
        best.0
    }

    #[inline]
    fn next_seat(&self, view: &View, _: &mut GameRng) -> u8 {
        most_cards(view)
    }

    #[inline]
    fn discard_prices(&self, _: u8) -> Option<Prices> {
        Some(self.weights.prices())
    }

    #[inline(always)]
    fn defend(&self, view: &View, choices: &Step4, _: &mut GameRng) -> Defence {
        let w = &self.weights;
        // The engine lists the cheapest cover alone ([`Policy::discard_prices`]); other
        // callers may list them all.
        let cheapest = if choices.covers.len() == 1 {
            0
        } else {
            cheapest_cover(w, view, choices.covers)
        };
        match choices.covers.get(cheapest) {
            None if choices.solo_jester => Defence::SoloJester,
            None => Defence::GiveUp,
            Some(c) => {
                let left = view.hand_value - c.total;
                if choices.solo_jester && f32::from(left) < w.solo_keep {
                    Defence::SoloJester
                } else {
                    Defence::Discard(*c)
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lanes' pick ([`play_scores::best`]) against the play-by-play formula
    /// ([`play_scores::plain`]), on random positions at every table size, under several card
    /// values and weight sets (integer weights tie often).
    #[test]
    fn the_best_play_is_the_formulas_first_best() {
        use crate::games::regicide::card::Values;
        use crate::games::regicide::moves::Plays;
        let mut rng = GameRng::new(11, 4, 2);
        let (mut ties, mut checked) = (0, 0);
        for players in 1..=4 {
            for sets in [
                &[][..],
                &["king.value=25", "max_combo=16"],
                &["jack.value=0"],
            ] {
                let rules = positions::rules(players, sets);
                let values = Values::new(&rules);
                let mut plays = Plays::default();
                for w in positions::weights(&mut rng) {
                    let h = Heuristic::with(w);
                    for _ in 0..500 {
                        let view = positions::view(&mut rng, &rules, &values);
                        plays.generate(view.hand, &values);
                        let spot = Spot::of(&view, &w);
                        let want = play_scores::plain::best(&w, &spot, plays.as_slice());
                        let got = play_scores::best(&h, &spot, plays.as_slice());
                        assert_eq!(got.1, want.1, "{view:?} {w:?}");
                        assert!(got.0 == want.0, "{got:?} {want:?}");
                        let scores = plays.as_slice().iter().map(|p| {
                            if p.is_jester() {
                                w.jester
                            } else {
                                play_scores::plain::score(&w, &spot, p)
                            }
                        });
                        ties += usize::from(scores.filter(|&s| s == want.0).count() > 1);
                        checked += 1;
                    }
                }
            }
        }
        assert!(ties > checked / 40, "{ties} ties in {checked}");
    }

    /// The engine's cheapest cover alone (the heuristic's prices) against the heuristic's pass
    /// over the whole list, through `defend`, on random positions at every table size.
    #[test]
    fn the_discard_from_the_cheapest_alone_is_the_one_from_the_whole_list() {
        use crate::games::regicide::card::Values;
        use crate::games::regicide::moves::Covers;
        let mut rng = GameRng::new(12, 5, 3);
        let (mut all, mut cheapest) = (Covers::default(), Covers::default());
        let mut many = 0;
        for players in 1..=4 {
            for sets in [&[][..], &["king.value=25"], &["jack.value=0"]] {
                let rules = positions::rules(players, sets);
                let values = Values::new(&rules);
                for w in positions::weights(&mut rng) {
                    let h = Heuristic::with(w);
                    let prices = h.discard_prices(0).unwrap();
                    for _ in 0..300 {
                        let view = positions::view(&mut rng, &rules, &values);
                        let need = view.need();
                        all.generate(view.hand, need, &values);
                        cheapest.generate_cheapest(view.hand, need, &values, &prices);
                        assert_eq!(cheapest.only_one(), all.only_one());
                        for (solo_jester, used_jester) in [(false, false), (true, false)] {
                            let decide = |covers: &Covers| {
                                let choices = Step4 {
                                    covers: covers.as_slice(),
                                    solo_jester,
                                    used_jester,
                                };
                                h.defend(&view, &choices, &mut GameRng::new(0, 0, 0))
                            };
                            assert_eq!(decide(&cheapest), decide(&all), "{view:?} {w:?}");
                        }
                        many += usize::from(all.as_slice().len() > 1);
                    }
                }
            }
        }
        assert!(many > 5000, "{many} lists of two or more");
    }

    #[test]
    fn cover_costs_add_up_in_card_order_as_a_sum_does() {
        let mut rng = crate::rng::GameRng::new(3, 2, 1);
        let mut costs = [0.0f32; 65];
        for c in costs.iter_mut().take(card::CODES) {
            *c = (rng.below(1000) as f32 - 400.0) / 7.0;
        }
        for _ in 0..2000 {
            let mask = rng.next_u64() & rng.next_u64() & rng.next_u64() & ((1 << card::CODES) - 1);
            let want: f32 = card::cards(mask).map(|c| costs[usize::from(c)]).sum();
            assert_eq!(cover_cost(&costs, mask), want, "{mask:x}");
        }
    }
}

/// Random positions and weights for the tests of the heuristic's lanes against its formulas.
#[cfg(test)]
pub(super) mod positions {
    use super::*;
    use crate::games::regicide::card::Values;
    use crate::games::regicide::rules::Rules;

    /// The rules at `players` players under `sets`.
    pub fn rules(players: u8, sets: &[&str]) -> Rules {
        let mut sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
        sets.push(format!("players={players}"));
        crate::rules::load(None, &sets).unwrap()
    }

    /// Weight sets to test with: the built-in ones, the untuned file's, small integers (many
    /// ties) and random fractions.
    pub fn weights(rng: &mut GameRng) -> Vec<Weights> {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/strategies/regicide/");
        let mut out = vec![
            Weights::default(),
            *Heuristic::load(Path::new(&format!("{dir}untuned.toml")))
                .unwrap()
                .weights(),
        ];
        for small in [true, true, false, false] {
            let mut w = Weights::default();
            for (_, v) in w.fields_mut() {
                *v = if small {
                    rng.below(5) as f32 - 2.0
                } else {
                    (rng.below(20001) as f32 - 10000.0) / 997.0
                };
            }
            out.push(w);
        }
        out
    }

    /// A random position for the seat to move at the table of `rules`: a hand of 1 to the
    /// hand limit cards, any royal as the enemy with any damage and shield so far, random
    /// piles and hand sizes.
    pub fn view<'a>(rng: &mut GameRng, rules: &'a Rules, values: &'a Values) -> View<'a> {
        let mut deck: Vec<u8> = (0..card::CODES as u8).collect();
        rng.shuffle(&mut deck);
        let enemy_at = deck.iter().position(|&c| card::is_royal(c)).unwrap();
        let enemy = deck.remove(enemy_at);
        let max_hand = rules.hand_limit();
        let n = 1 + rng.below(u64::from(max_hand)) as usize;
        let hand = deck[..n].iter().fold(0, |m, &c| m | card::bit(c));
        let discard = deck[n..]
            .iter()
            .filter(|_| rng.below(3) == 0)
            .fold(0, |m, &c| m | card::bit(c));
        let royal = rules.royal(card::rank(enemy));
        let players = rules.players;
        let seat = rng.below(u64::from(players)) as u8;
        let mut hand_sizes = [0; 4];
        for (p, size) in hand_sizes.iter_mut().enumerate().take(players.into()) {
            *size = if p == usize::from(seat) {
                n as u8
            } else {
                rng.below(u64::from(max_hand) + 1) as u8
            };
        }
        View {
            rules,
            values,
            seat,
            players,
            max_hand,
            hand,
            hand_value: values.sum(hand),
            enemy,
            health: royal.health.into(),
            attack: royal.attack.into(),
            damage: rng.below(u64::from(royal.health) + 3) as u16,
            spades: rng.below(25) as u16,
            cancelled: rng.below(3) == 0,
            table: 0,
            discard,
            tavern: rng.below(45) as u8,
            castle: rng.below(12) as u8,
            hand_sizes,
            yielded: [false; 4],
            known_top: None,
            solo_jesters: if players == 1 { rng.below(3) as u8 } else { 0 },
        }
    }
}
