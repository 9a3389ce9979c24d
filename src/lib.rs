//! haidi: a Chinese mahjong rules engine.
//!
//! The core (everything but `python`) is plain Rust: tiles and notation, hands, the
//! forms a ruleset accepts, distances to completion (shanten), waits and decompositions.
//! The `python` feature adds the PyO3 binding layer that maturin builds into
//! `haidi._core`.

pub mod analyze;
pub mod batch;
pub mod decompose;
pub mod distance;
pub mod engine;
pub mod error;
pub mod forms;
pub mod game;
pub mod hand;
pub mod hash;
pub mod inline;
pub mod mcr;
pub mod notation;
pub mod parallel;
pub mod reproduce;
pub mod score;
pub mod table_gen;
pub mod tables;
pub mod tiles;

#[cfg(feature = "python")]
mod python;

pub use engine::{Engine, Wilds};
pub use error::{ErrorKind, HandError};
pub use forms::{Form, Forms};
pub use hand::{Hand, Meld, MeldKind};
