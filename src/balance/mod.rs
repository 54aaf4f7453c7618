//! `sim balance`: the rule values that hit a designer's target, found by playing games only
//! where the answer is still open.
//!
//! Every candidate (a value of one rule, or a combination of several) plays the same games in
//! batches (common random numbers); after each batch a sequential test ([`sequential`]) asks
//! whether the candidate's metric is settled below, above or within the tolerance of the
//! [`target`]. With one rule, [`bisect`] plays the ends, then halves the bracket, checking
//! [`monotone`] as it goes and playing every value when the metric is not; [`answer`] reads the
//! crossing off the verdicts. With several rules, [`contour`] plays every cell by successive
//! elimination. The searches see the games only through a [`sampler::Sampler`]: [`grid`] plays
//! real games, and the tests' sampler one of known truth.
//!
//! A designer's brief of several targets, each a [`figure`] of its own players, plays every
//! cell by the same elimination ([`brief`]) and reads the answer as a [`region`].
//!
//! Each candidate's test runs at `alpha / candidates` (Bonferroni over the candidates, which
//! covers every path a search can take, the scan included) and its interval holds at every look
//! at once, so with probability at least `1 - alpha` every verdict of a search is right.

pub mod answer;
pub mod bisect;
pub mod brief;
pub mod contour;
pub mod figure;
pub mod grid;
pub mod monotone;
pub mod region;
pub mod sampler;
pub mod search;
pub mod sequential;
#[cfg(test)]
mod synthetic;
pub mod target;
