//! `sim explore`: which rules matter, by how much, and for whom. Every rule of a game (or the
//! rules given) is played one at a time over its values from the base rule set, every cell on
//! the same deals (common random numbers), for a few figures of a few players. Each rule's
//! swing on a figure (the largest change of the figure over the rule's values) gets a paired
//! interval that holds at every look, so a rule stops as soon as its swing is settled
//! ([`screen`]); the rules are then ranked per figure ([`answer`]).
//!
//! - [`plan`]: the values a rule is tried at (its whole range where small, else a spread
//!   around the base value; every value of a flag or a word).
//! - [`swing`]: a rule's swing on a figure and its interval, from the paired batches.
//! - [`screen`]: the games, batch by batch, each rule until its swing is settled.
//! - [`answer`]: the rules ranked per figure, each rule's curve, where it is flat, its
//!   direction.
//! - [`interactions`]: two rules at once, the grid's departure from the sum of their effects.

pub mod answer;
pub mod interactions;
pub mod plan;
pub mod screen;
pub mod swing;
