//! Whole hands played by built-in agents, many at once on the shared pool.

use std::ops::Range;
use std::sync::Arc;

use super::rng::{game_seed, Rng, AGENT_STREAM};
use super::rules::{Judge, Rules};
use super::state::{Action, Game};
use crate::parallel;

/// A built-in agent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agent {
    /// A legal action chosen uniformly.
    Random,
}

/// Most decisions one hand can take: each draw is followed by at most a handful (claims
/// by three seats, kongs), and the wall holds at most 144 tiles.
pub const MAX_DECISIONS: usize = 4_000;

/// Plays one hand of `seed` to its end with `agent` at every seat.
pub fn play(rules: &Arc<Rules>, judge: &Arc<Judge>, seed: u64, agent: Agent) -> Game {
    let mut g = Game::new(rules.clone(), judge.clone(), seed);
    let mut rng = Rng::new(seed ^ AGENT_STREAM);
    let mut legal: Vec<Action> = Vec::with_capacity(24);
    for _ in 0..MAX_DECISIONS {
        let awaited = g.to_act();
        if awaited == 0 {
            break;
        }
        let seat = awaited.trailing_zeros() as u8;
        g.legal_into(seat, &mut legal);
        let a = match agent {
            Agent::Random => legal[rng.below(legal.len() as u32) as usize],
        };
        // A legal action is always taken.
        let _ = g.step(seat, a);
    }
    g
}

/// The hands numbered `games` of a batch, hand `i` from `game_seed(seed, i)`, spread
/// over the pool; `f` reads each finished hand into what the caller keeps.
pub fn simulate<T: Send>(
    rules: &Arc<Rules>,
    judge: &Arc<Judge>,
    games: Range<usize>,
    seed: u64,
    agent: Agent,
    f: impl Fn(&Game) -> T + Sync + Send,
) -> Vec<T> {
    let first = games.start;
    parallel::map(games.len(), 2, 8, |i| f(&play(rules, judge, game_seed(seed, (first + i) as u64), agent)))
}
