//! MCR (Mahjong Competition Rules, 国标麻将): the 81-fan scorer.
//!
//! `data` holds the fan table; `situation` the checked facts of a win; `sets` the fans
//! that come from combining chows and pungs (套算一次, 不得相同); `fans` the fans of one
//! arrangement and the 不计 exclusions; `shape` lists a hand's arrangements and finds its
//! waits; `score` scores every arrangement and keeps the best (就高不就低). Pure Rust: the
//! bindings are in `src/python/mcr.rs`. `docs/mcr-speed.md` says where the time goes.

pub mod batch;
pub mod data;
pub mod fans;
pub mod score;
pub mod sets;
pub mod shape;
pub mod situation;

pub use fans::{FanCounts, MINGANGANG};
pub use score::{evaluate, Exclusion, Scored};
pub use situation::{Options, Situation};
