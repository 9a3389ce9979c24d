//! The scoring engine of the regional rulesets: one design for all of them.
//!
//! A ruleset's scoring is data, a [`scheme::Scheme`]: its forms, the keys of its
//! situations, its patterns (each a [`rule::Rule`] with a value, what it voids, and
//! flags such as 腊子), point tables, total and rank. The engine reads a situation
//! ([`situation`]), lists the arrangements of the hand ([`arrange`]) with groups of wilds
//! alone left free, gives those kinds, places the winning tile, works out the
//! [`facts`] of each, counts the patterns and keeps the best ([`evaluate`]).
//!
//! MCR keeps its own tuned scorer (`crate::mcr`); this engine shares the core's hands,
//! forms and errors with it.

pub mod arrange;
pub mod data;
pub mod evaluate;
pub mod facts;
pub mod group;
pub mod json;
pub mod rule;
pub mod scheme;
pub mod situation;

pub use evaluate::{evaluate, evaluate_with, Scored};
pub use scheme::Scheme;
pub use situation::{Prepared, Reader, Value};
