//! The game's random numbers: SplitMix64, small and fully specified, so that a seed
//! gives the same wall on every machine and in every version that keeps this file.
//!
//! Each number is the SplitMix64 output of the state after adding 0x9E3779B97F4A7C15
//! (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014).
//! `below(n)` takes the high 32 bits `x` of a number and returns `x * n >> 32`: exact
//! to one part in 2^32 / n, deterministic, no rejection loop. A wall is shuffled by
//! Fisher-Yates from the last place down: place `i` swaps with `below(i + 1)`.

/// A SplitMix64 generator.
#[derive(Clone, Debug)]
pub struct Rng(u64);

/// Added to a game's seed for the random agent's generator, so that the agent's choices
/// and the wall are two streams.
pub const AGENT_STREAM: u64 = 0xA6E7_5EED_0000_0001;

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix(self.0)
    }

    /// A number in `0..n` (`n` at least 1).
    pub fn below(&mut self, n: u32) -> u32 {
        (((self.next_u64() >> 32) * n as u64) >> 32) as u32
    }

    /// Fisher-Yates, from the last place down.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// The SplitMix64 finaliser.
pub fn mix(z: u64) -> u64 {
    let z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    let z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of game `i` of a batch started from `seed` (`haidi.simulate`): the game can
/// be played again alone as `Game(rules, seed=game_seed(seed, i))`.
pub fn game_seed(seed: u64, i: u64) -> u64 {
    mix(seed ^ mix(i.wrapping_add(0x5EED)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_matches_the_published_sequence() {
        // The first outputs of SplitMix64 seeded with 0 (as in Vigna's reference code).
        let mut r = Rng::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(r.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn shuffles_are_permutations_and_repeat() {
        let mut a: Vec<u32> = (0..136).collect();
        let mut b = a.clone();
        Rng::new(7).shuffle(&mut a);
        Rng::new(7).shuffle(&mut b);
        assert_eq!(a, b);
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, (0..136).collect::<Vec<_>>());
        assert!(Rng::new(1).below(1) == 0);
    }
}
