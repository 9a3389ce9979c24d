//! The game around a hand: a state machine for one hand of each ruleset (the wall, the
//! deal, draws, flowers, discards, claims, kongs, the last tiles, wins judged by the
//! ruleset's own scorer), a small seeded generator, and whole hands played by built-in
//! agents on the shared pool; what each seat may see of it (`view`, the one rule every
//! observation reads), actions as integers (`actions`) and observations as planes
//! (`encode`) for learning. Pure Rust: the bindings are in `src/python/game.rs` and
//! `src/python/learn.rs`.

pub mod actions;
pub mod audit;
pub mod encode;
pub mod rng;
pub mod rules;
pub mod simulate;
pub mod state;
pub mod vector;
pub mod view;

pub use rules::{Judge, Rules, WildRule, WinFacts, Winners};
pub use state::{Action, Chance, Event, Game};
