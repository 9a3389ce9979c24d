//! Whole hands played by built-in agents, many at once on the shared pool.

use std::ops::Range;
use std::sync::Arc;

use super::rng::{game_seed, Rng, AGENT_STREAM};
use super::rules::{Judge, Rules};
use super::state::{Action, Game};
use super::view::SeatView;
use crate::analyze;
use crate::parallel;

/// A built-in agent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agent {
    /// A legal action chosen uniformly.
    Random,
    /// Wins whenever it may; otherwise discards what leaves the lowest shanten and the
    /// most useful tiles it has not seen (`crate::analyze`), takes the 海底 tile, and
    /// claims nothing.
    Greedy,
}

/// The greedy agent's choice among `legal` (never empty).
pub fn greedy(g: &Game, seat: u8, legal: &[Action]) -> Action {
    if legal.contains(&Action::Win) {
        return Action::Win;
    }
    if legal.contains(&Action::Take) {
        return Action::Take;
    }
    let Some(&first) = legal.iter().find(|a| matches!(a, Action::Discard(_))) else {
        return Action::Pass;
    };
    match SeatView::new(g, seat).analysis() {
        Ok(mut entries) => {
            analyze::order(&mut entries);
            entries.iter().filter_map(|e| e.discard.map(Action::Discard)).find(|a| legal.contains(a)).unwrap_or(first)
        }
        Err(_) => first,
    }
}

/// Most decisions one hand can take: each draw is followed by at most a handful (claims
/// by three seats, kongs), and the wall holds at most 144 tiles.
pub const MAX_DECISIONS: usize = 4_000;

/// Who plays a batch: the agent of each player, and whether each wall is played once
/// per seat rotation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seating {
    /// The agent of players 0 to 3.
    pub agents: [Agent; 4],
    /// Duplicate play: hand `i` deals wall `i / 4` with rotation `i % 4`.
    pub duplicate: bool,
}

impl Seating {
    /// One agent at every seat, each hand its own wall.
    pub fn all(agent: Agent) -> Seating {
        Seating { agents: [agent; 4], duplicate: false }
    }

    /// The wall number and the rotation of hand `i`.
    pub fn hand(self, i: u64) -> (u64, u8) {
        if self.duplicate {
            (i / 4, (i % 4) as u8)
        } else {
            (i, 0)
        }
    }

    /// The player at `seat` in `rotation`: player `p` sits at seat `(p + rotation) % 4`.
    pub fn player(rotation: u8, seat: u8) -> u8 {
        (seat + 4 - rotation) % 4
    }
}

/// Plays one hand of `seed` to its end with `agents[s]` at seat `s`; the random agents
/// draw from one generator seeded from `seed` (so that the four rotations of a
/// duplicate wall draw the same numbers).
pub fn play(rules: &Arc<Rules>, judge: &Arc<Judge>, seed: u64, agents: [Agent; 4]) -> Game {
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
        let a = match agents[seat as usize] {
            Agent::Random => legal[rng.below(legal.len() as u32) as usize],
            Agent::Greedy => greedy(&g, seat, &legal),
        };
        // A legal action is always taken.
        let _ = g.step(seat, a);
    }
    g
}

/// The hands numbered `games` of a batch spread over the pool: hand `i` deals the wall
/// of `game_seed(seed, w)`, `(w, rotation) = seating.hand(i)`, with player `p`'s agent
/// at seat `(p + rotation) % 4`; `f` reads each finished hand into what the caller keeps.
pub fn simulate<T: Send>(
    rules: &Arc<Rules>,
    judge: &Arc<Judge>,
    games: Range<usize>,
    seed: u64,
    seating: Seating,
    f: impl Fn(&Game) -> T + Sync + Send,
) -> Vec<T> {
    let first = games.start;
    parallel::map(games.len(), 2, 8, |i| {
        let (wall, rotation) = seating.hand((first + i) as u64);
        let agents: [Agent; 4] = std::array::from_fn(|s| seating.agents[Seating::player(rotation, s as u8) as usize]);
        f(&play(rules, judge, game_seed(seed, wall), agents))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiles::KINDS;

    fn mcr() -> (Arc<Rules>, Arc<Judge>) {
        let rules = Rules { name: "mcr".into(), flowers: 0xFF, ..Rules::default() };
        (Arc::new(rules), Arc::new(Judge::mcr(Default::default())))
    }

    #[test]
    fn random_hands_end_with_every_tile_in_place_and_wins_that_score() {
        let (rules, judge) = mcr();
        let mut won = 0;
        for i in 0..300 {
            let g = play(&rules, &judge, game_seed(1, i), [Agent::Random; 4]);
            assert!(g.done(), "hand {i} did not end");
            let (counts, flowers) = g.tile_counts();
            assert_eq!(counts, [4; KINDS]);
            assert_eq!(flowers, 8);
            for w in &g.wins {
                assert_eq!(judge.score(&w.facts).unwrap(), Some(w.total));
                assert!(w.total >= 8);
                won += 1;
            }
        }
        assert!(won > 0);
    }

    #[test]
    fn a_seed_plays_the_same_hand_and_batches_do_not_depend_on_threads() {
        let (rules, judge) = mcr();
        let a = play(&rules, &judge, 5, [Agent::Random; 4]);
        let b = play(&rules, &judge, 5, [Agent::Random; 4]);
        assert_eq!(a.events, b.events);
        let turns = |r: Range<usize>| simulate(&rules, &judge, r, 3, Seating::all(Agent::Random), |g| g.discards);
        let whole = turns(0..40);
        assert_eq!(&whole[10..], &turns(10..40)[..]);
    }

    #[test]
    fn duplicate_play_seats_each_player_at_each_seat_of_a_wall() {
        let s = Seating { agents: [Agent::Greedy, Agent::Random, Agent::Random, Agent::Random], duplicate: true };
        for w in 0..3u64 {
            let mut seats_of_player0 = vec![];
            for r in 0..4u64 {
                let (wall, rotation) = s.hand(4 * w + r);
                assert_eq!(wall, w);
                seats_of_player0.push((0..4u8).find(|&seat| Seating::player(rotation, seat) == 0).unwrap());
            }
            seats_of_player0.sort();
            assert_eq!(seats_of_player0, [0, 1, 2, 3]);
        }
        // One agent kind at every seat: the four rotations of a wall are one hand.
        let (rules, judge) = mcr();
        let same = Seating { agents: [Agent::Random; 4], duplicate: true };
        let events = simulate(&rules, &judge, 0..8, 9, same, |g| g.events.clone());
        assert!(events[0..4].iter().all(|e| *e == events[0]) && events[4] != events[0]);
    }

    #[test]
    fn the_quick_test_of_waits_drops_none() {
        // Every ready-size hand met in play, with and without a wild kind: the waits with
        // the quick test are the engine's own.
        let (rules, judge) = mcr();
        let engine = judge.engine();
        let mut ready = 0;
        for i in 0..60 {
            let mut g = Game::new(rules.clone(), judge.clone(), game_seed(2, i));
            let mut rng = Rng::new(i);
            let mut legal = vec![];
            while !g.done() {
                for h in &g.hands {
                    if h.size() != 13 {
                        continue;
                    }
                    for wilds in [0, 1 << 33, 1 << 4] {
                        let w = crate::engine::Wilds { kinds: wilds, extra: 0, drawable: 0 };
                        let exact = engine.waits_mask(&engine.view(h, w), h, w);
                        assert_eq!(judge.waits(h, wilds), exact, "{}", h.notation());
                        ready += (exact != 0) as u32;
                    }
                }
                let seat = g.to_act().trailing_zeros() as u8;
                g.legal_into(seat, &mut legal);
                let a = legal[rng.below(legal.len() as u32) as usize];
                g.step(seat, a).unwrap();
            }
        }
        assert!(ready > 100, "{ready}");
    }

    #[test]
    fn a_wall_that_is_not_the_tile_set_is_refused() {
        let (rules, judge) = mcr();
        assert!(Game::from_wall(rules.clone(), judge.clone(), vec![0; 144]).is_err());
        let mut wall = Game::tile_set(&rules);
        assert!(Game::from_wall(rules.clone(), judge.clone(), wall.clone()).is_ok());
        wall.pop();
        assert!(Game::from_wall(rules, judge, wall).is_err());
    }
}
