//! Many hands stepped at once from integer actions, for learning: every seat played by
//! the caller (self-play), or one learning seat a game against built-in agents playing
//! the other three inside the step; one decision of the caller a game a step. Seats asked about one tile
//! answer one at a time, in turn order from the seat offering it (from the dealer for
//! wins on the dealt hands); the game resolves their answers by the ruleset's priority
//! once all are in. A game that ends is dealt again on the step after (Gymnasium's
//! next-step autoreset), from the seed of its next hand. Pure Rust: the payments of a
//! finished hand are the ruleset's `settle`, which the binding asks of Python.

use std::sync::Arc;

use rayon::prelude::*;

use super::actions::ActionSpace;
use super::encode;
use super::rng::{game_seed, Rng, AGENT_STREAM};
use super::rules::{Judge, Rules};
use super::simulate::{greedy, Agent, MAX_DECISIONS};
use super::state::{Action, Game, Phase};
use super::view::{Decision, SeatView};
use crate::error::{HandError, Result};
use crate::parallel;
use crate::tiles::{Tile, KINDS};

/// The seat that answers first among those awaited: the one after the seat offering a
/// tile, in turn order; from the dealer for the dealt hands.
pub fn first_to_act(g: &Game) -> Option<u8> {
    let awaited = g.to_act();
    if awaited == 0 {
        return None;
    }
    let start = match g.phase {
        Phase::Claims { from, .. } => from + 1,
        _ => g.dealer,
    };
    (0..4).map(|i| (start + i) % 4).find(|&s| awaited >> s & 1 == 1)
}

/// One game of the batch.
struct Slot {
    game: Game,
    /// Hands dealt in this slot before the one in play.
    hand: u64,
    /// The seat to play, None when the game is over (it is dealt again at the next step).
    seat: Option<u8>,
    /// The legal actions of `seat`, and the tile on offer to it.
    legal: Vec<Action>,
    offer: Option<Tile>,
    /// The seat the caller plays against the agents, and the agents' generator.
    learner: u8,
    rng: Rng,
    /// Each seat's shanten after the last step, for the shaped reward.
    shanten: [i8; 4],
}

impl Slot {
    fn deal(&mut self, game: Game, hand: u64, learner: u8) {
        self.rng = Rng::new(game.seed ^ AGENT_STREAM);
        self.game = game;
        self.hand = hand;
        self.learner = learner;
    }

    /// The agents play the seats asked before the learner's, until the learner is asked
    /// or the hand ends.
    fn agents_play(&mut self, agent: Agent) {
        for _ in 0..MAX_DECISIONS {
            match first_to_act(&self.game) {
                Some(s) if s != self.learner => {
                    self.game.legal_into(s, &mut self.legal);
                    let a = match agent {
                        Agent::Random => self.legal[self.rng.below(self.legal.len() as u32) as usize],
                        Agent::Greedy => greedy(&self.game, s, &self.legal),
                    };
                    // A legal action is always taken.
                    let _ = self.game.step(s, a);
                }
                _ => return,
            }
        }
    }
}

/// The arrays one step fills: an observation, a mask and the seat to play of each game,
/// and whether the game ended at this step.
pub struct Out<'a> {
    pub obs: &'a mut [u8],
    pub masks: &'a mut [bool],
    pub seats: &'a mut [i8],
    pub done: &'a mut [bool],
    /// Four a game, by seat: the shaped reward of this step when `VectorEnv::shaping` is
    /// not 0 (else left as it is). A seat's potential is `-shaping` times the shanten of
    /// its hand while the hand is in play and 0 once it is over; a step pays each seat the
    /// change of its potential, and the step that deals a hand pays nothing. So a hand's
    /// shaped rewards add up to `shaping` times the seat's shanten at the step that dealt
    /// it (against agents, after their moves in that step), whatever is played: the
    /// payments' best play stays the best (potential-based shaping).
    pub shaped: &'a mut [f32],
}

/// One game's part of [`Out`].
struct OneOut<'a> {
    obs: &'a mut [u8],
    mask: &'a mut [bool],
    seat: &'a mut i8,
    done: &'a mut bool,
    shaped: &'a mut [f32],
}

/// One game's slot and parts of the output, as `run` zips them.
type Parts<'a> = ((((&'a mut Slot, &'a mut [u8]), &'a mut [bool]), (&'a mut i8, &'a mut bool)), &'a mut [f32]);

/// A batch of games of one ruleset.
pub struct VectorEnv {
    rules: Arc<Rules>,
    judge: Arc<Judge>,
    pub space: ActionSpace,
    pub version: &'static str,
    pub planes: usize,
    seed: u64,
    /// The agent of the seats the caller does not play (None: it plays every seat).
    opponents: Option<Agent>,
    /// The weight of the shaped reward (0: none), see [`Out::shaped`].
    pub shaping: f32,
    slots: Vec<Slot>,
}

/// The learning seat of game `i`'s hand `h` of `n` games: it goes round the table.
fn learner(i: usize, hand: u64, n: usize) -> u8 {
    ((hand * n as u64 + i as u64) % 4) as u8
}

impl VectorEnv {
    /// `n` games of `rules`, the observations of the encoding `version`; the hands dealt
    /// from `seed` (game `i`'s hand `h` from `game_seed(seed, h * n + i)`).
    /// `opponents`: the built-in agent playing every seat but game `i`'s learning seat in
    /// hand `h`, `(h * n + i) % 4`; None: the caller plays every seat.
    pub fn new(
        rules: Arc<Rules>,
        judge: Arc<Judge>,
        n: usize,
        seed: u64,
        version: &str,
        opponents: Option<Agent>,
    ) -> Result<VectorEnv> {
        let (version, planes) = *encode::VERSIONS.iter().find(|(v, _)| *v == version).ok_or_else(|| {
            HandError::invalid(format!("unknown observation version {}", crate::error::quote(version)))
        })?;
        if n == 0 {
            return Err(HandError::invalid("num_envs must be at least 1"));
        }
        let space = ActionSpace::of(&rules);
        let slots = (0..n as u64)
            .map(|i| Slot {
                game: Game::new(rules.clone(), judge.clone(), game_seed(seed, i)),
                hand: 0,
                seat: None,
                legal: Vec::with_capacity(24),
                offer: None,
                learner: learner(i as usize, 0, n),
                rng: Rng::new(game_seed(seed, i) ^ AGENT_STREAM),
                shanten: [0; 4],
            })
            .collect();
        Ok(VectorEnv { rules, judge, space, version, planes, seed, opponents, shaping: 0.0, slots })
    }

    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The seed of the hand in play in game `i` (`Game::new` deals it again).
    pub fn seed(&self, i: usize) -> u64 {
        self.slots[i].game.seed
    }

    /// The learning seat of the hand in play in game `i` (of the hand that just ended,
    /// until the next step deals again), where the agents play the other seats.
    pub fn learner(&self, i: usize) -> Option<u8> {
        self.opponents.map(|_| self.slots[i].learner)
    }

    /// The game `i` (finished until the next step deals it again).
    pub fn game(&self, i: usize) -> &Game {
        &self.slots[i].game
    }

    /// Deals every game again, from `seed` (None: the seed given before), its first hand.
    pub fn reset(&mut self, seed: Option<u64>, out: Out<'_>) -> Result<()> {
        if let Some(s) = seed {
            self.seed = s;
        }
        let (rules, judge, seed, opponents) = (self.rules.clone(), self.judge.clone(), self.seed, self.opponents);
        let n = self.slots.len();
        self.run(out, move |i, slot| {
            slot.seat = None;
            // Against agents, a hand they end before the learner's first decision is
            // passed over: a reset shows every learner a decision.
            for hand in 0.. {
                let game = Game::new(rules.clone(), judge.clone(), game_seed(seed, hand * n as u64 + i as u64));
                slot.deal(game, hand, learner(i, hand, n));
                match opponents {
                    Some(agent) => slot.agents_play(agent),
                    None => break,
                }
                if !slot.game.done() {
                    break;
                }
            }
            Ok(false)
        })
    }

    /// Plays `actions[i]` (an id) for the seat to play in game `i`; a game over at the
    /// step before is dealt again and its action ignored. An id that is not legal is an
    /// error naming the game, and no game is stepped.
    pub fn step(&mut self, actions: &[i64], out: Out<'_>) -> Result<()> {
        if actions.len() != self.slots.len() {
            return Err(HandError::invalid(format!(
                "actions: one id a game, {} ids for {} games",
                actions.len(),
                self.slots.len()
            )));
        }
        let mut chosen: Vec<Option<Action>> = Vec::with_capacity(actions.len());
        for (i, (slot, &id)) in self.slots.iter().zip(actions).enumerate() {
            let Some(seat) = slot.seat else {
                chosen.push(None);
                continue;
            };
            let found = usize::try_from(id).ok().and_then(|k| self.space.action(k));
            match found {
                Some((a, offer)) if (offer.is_none() || offer == slot.offer) && slot.legal.contains(&a) => {
                    chosen.push(Some(a))
                }
                _ => {
                    let name = usize::try_from(id).ok().and_then(|k| self.space.name(k));
                    let what = name.map_or(String::new(), |n| format!(" ({n})"));
                    return Err(HandError::invalid(format!(
                        "game {i}: action id {id}{what} is not legal for seat {seat} now"
                    )));
                }
            }
        }
        let (rules, judge) = (self.rules.clone(), self.judge.clone());
        let n = self.slots.len() as u64;
        let seed = self.seed;
        self.run(out, move |i, slot| match chosen[i] {
            Some(a) => {
                let seat = slot.seat.expect("a game in play has a seat to play");
                slot.game.step(seat, a)?;
                Ok(slot.game.done())
            }
            None => {
                let hand = slot.hand + 1;
                let game = Game::new(rules.clone(), judge.clone(), game_seed(seed, hand * n + i as u64));
                slot.deal(game, hand, learner(i, hand, n as usize));
                Ok(false)
            }
        })
    }

    /// `act(i, slot)` for each game (true: the game ended), then its observation and mask
    /// written, in parallel on the shared pool.
    fn run(&mut self, out: Out<'_>, act: impl Fn(usize, &mut Slot) -> Result<bool> + Sync) -> Result<()> {
        let (space, version, opponents, shaping) = (self.space, self.version, self.opponents, self.shaping);
        let width = self.planes * KINDS;
        let size = space.size();
        let one = |i: usize, slot: &mut Slot, out: OneOut<'_>| {
            let OneOut { obs, mask, seat, done, shaped } = out;
            let acted = slot.seat;
            *done = act(i, slot)?;
            if let Some(agent) = opponents {
                slot.agents_play(agent);
                // A hand the agents end, even before the learner's first decision, ends
                // at this step: the learner is paid for it.
                *done = slot.game.done();
            }
            if shaping != 0.0 {
                // Potential-based: a seat's potential is -shaping x its shanten, 0 once the
                // hand is over; a step pays the change, and a deal (no step of a seat) 0.
                let dealt = acted.is_none();
                let now: [i8; 4] = std::array::from_fn(|s| SeatView::new(&slot.game, s as u8).shanten());
                for (s, r) in shaped.iter_mut().enumerate() {
                    let before = slot.shanten[s] as f32;
                    *r = match (dealt, *done) {
                        (true, _) => 0.0,
                        (false, true) => shaping * before,
                        (false, false) => shaping * (before - now[s] as f32),
                    };
                }
                slot.shanten = now;
            }
            slot.seat = first_to_act(&slot.game);
            // A game over shows its last player (the learner, against agents) the end.
            let last = if opponents.is_some() { Some(slot.learner) } else { acted };
            let viewer = slot.seat.or(last).unwrap_or(0);
            let view = SeatView::new(&slot.game, viewer);
            encode::encode(version, &view, obs);
            slot.offer = match view.decision() {
                Some(Decision::Offer { tile, .. }) if slot.seat.is_some() => Some(tile),
                _ => None,
            };
            match slot.seat {
                Some(s) => {
                    slot.game.legal_into(s, &mut slot.legal);
                    space.mask(&slot.legal, slot.offer, mask);
                }
                None => {
                    slot.legal.clear();
                    mask.fill(false);
                }
            }
            *seat = slot.seat.map_or(-1, |s| s as i8);
            Ok(())
        };
        let Out { obs, masks, seats, done, shaped } = out;
        let slots = &mut self.slots;
        let each = |(i, ((((slot, obs), mask), (seat, done)), shaped)): (usize, Parts<'_>)| {
            one(i, slot, OneOut { obs, mask, seat, done, shaped })
        };
        match parallel::pool().filter(|_| slots.len() >= 64) {
            Some(pool) => pool.install(|| {
                slots
                    .par_iter_mut()
                    .zip(obs.par_chunks_mut(width))
                    .zip(masks.par_chunks_mut(size))
                    .zip(seats.par_iter_mut().zip(done.par_iter_mut()))
                    .zip(shaped.par_chunks_mut(4))
                    .enumerate()
                    .with_min_len(16)
                    .try_for_each(each)
            }),
            None => slots
                .iter_mut()
                .zip(obs.chunks_mut(width))
                .zip(masks.chunks_mut(size))
                .zip(seats.iter_mut().zip(done.iter_mut()))
                .zip(shaped.chunks_mut(4))
                .enumerate()
                .try_for_each(each),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(n: usize, opponents: Option<Agent>) -> VectorEnv {
        let rules = Rules { name: "mcr".into(), flowers: 0xFF, ..Rules::default() };
        VectorEnv::new(Arc::new(rules), Arc::new(Judge::mcr(Default::default())), n, 9, "v0", opponents).unwrap()
    }

    /// Plays `steps` steps of the first legal id a game; the hands ended.
    /// The arrays a step of `e` fills, owned.
    struct Arrays {
        obs: Vec<u8>,
        masks: Vec<bool>,
        seats: Vec<i8>,
        done: Vec<bool>,
        shaped: Vec<f32>,
    }

    impl Arrays {
        fn of(e: &VectorEnv) -> Arrays {
            let n = e.len();
            Arrays {
                obs: vec![0; n * e.planes * KINDS],
                masks: vec![false; n * e.space.size()],
                seats: vec![0; n],
                done: vec![false; n],
                shaped: vec![0.0; 4 * n],
            }
        }

        fn out(&mut self) -> Out<'_> {
            let Arrays { obs, masks, seats, done, shaped } = self;
            Out { obs, masks, seats, done, shaped }
        }
    }

    fn play(e: &mut VectorEnv, steps: usize) -> usize {
        let (n, size) = (e.len(), e.space.size());
        let mut a = Arrays::of(e);
        e.reset(None, a.out()).unwrap();
        let mut ended = 0;
        for _ in 0..steps {
            let row = |i: usize| &a.masks[i * size..(i + 1) * size];
            let ids: Vec<i64> = (0..n).map(|i| row(i).iter().position(|&m| m).unwrap_or(0) as i64).collect();
            for i in 0..n {
                let seat = e.slots[i].seat;
                assert_eq!(a.seats[i], seat.map_or(-1, |s| s as i8));
                assert_eq!(seat.is_some(), row(i).iter().any(|&m| m));
            }
            e.step(&ids, a.out()).unwrap();
            ended += a.done.iter().filter(|&&d| d).count();
        }
        ended
    }

    #[test]
    fn games_end_and_are_dealt_again_the_same_way_each_time() {
        let (mut a, mut b) = (env(5, None), env(5, None));
        let ended = play(&mut a, 600);
        assert!(ended >= 5);
        assert_eq!(play(&mut b, 600), ended);
        assert!((0..5).all(|i| a.seed(i) == b.seed(i)));
    }

    #[test]
    fn against_agents_the_caller_plays_only_its_seat() {
        let mut e = env(4, Some(Agent::Random));
        assert!(play(&mut e, 300) >= 4);
        for slot in &e.slots {
            assert!(slot.seat.is_none_or(|s| s == slot.learner));
        }
    }

    #[test]
    fn an_illegal_id_steps_no_game() {
        let mut e = env(2, None);
        let mut a = Arrays::of(&e);
        e.reset(None, a.out()).unwrap();
        let before: Vec<usize> = e.slots.iter().map(|s| s.game.events.len()).collect();
        let err = e.step(&[0, 0], a.out());
        assert!(err.unwrap_err().to_string().contains("game 0: action id 0 (pass) is not legal for seat 0 now"));
        assert_eq!(e.slots.iter().map(|s| s.game.events.len()).collect::<Vec<_>>(), before);
    }
}
