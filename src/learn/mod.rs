//! Value estimates: the chance that the seat to move wins, from what it has observed (see
//! docs/learn.md). [`train`] plays seeded games of one of a game's ladder rungs and fits a
//! logistic regression (linfa-logistic) to the features the game offers
//! ([`crate::games::value::Featured`]) at every decision; [`model`] is the file it writes, with
//! its provenance, checked field by field when read back; [`calibration`] measures an estimate
//! against the outcomes of held-out deals (Brier score, reliability by tenths).

pub mod calibration;
pub mod train;

pub use crate::search::value_model::Model;
pub use calibration::Calibration;
