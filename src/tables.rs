//! Precomputed distances for one suit (or the honours) to every partial target.
//!
//! For a suit's counts `c`, `distance(c)[m * 2 + h]` is the least number of tiles that
//! must be added to `c` so that it contains `m` melds (chows and pungs) plus `h` pairs
//! with at most four tiles of a kind; tiles of `c` left over are thrown away. Summed over
//! the suits and minimised over how melds are shared out, this is exactly one more than
//! the shanten number of the standard form, and zero for a complete hand.
//!
//! The tables are made at build time (`build.rs`, by [`crate::table_gen`]) and embedded:
//! a fresh process reads them with no wait. They hold every group of at most
//! [`LIMIT`] tiles, ordered by tile count (see [`crate::table_gen::Ranks`]); a group of
//! more is left to the dynamic programming of [`crate::distance`].

pub use crate::table_gen::{base5_index, fill_down, target_size, LIMIT, MAX_MELDS, PAIRS_258, POW5, TARGETS};
use crate::table_gen::{Ranks, Shape};

/// Distance of a group's counts to each (melds, pair) target, indexed `m * 2 + h`.
pub type Distances = [u8; TARGETS];

/// For each kind of a group (its j-th), the targets (bit m * 2 + h) whose distance its
/// draw lowers.
pub type Lowering = [u16; 9];

static RANKS_9: Ranks<9> = Ranks::new();
static RANKS_7: Ranks<7> = Ranks::new();

/// The distances of every group of one [`Shape`] holding at most [`LIMIT`] tiles.
pub struct Table {
    dist: &'static [Distances],
    shape: Shape,
}

impl Table {
    /// A table over the bytes the build script wrote for `shape`.
    const fn of(bytes: &'static [u8], shape: Shape) -> Table {
        // SAFETY: `Distances` is an array of bytes (size TARGETS, alignment 1), and the
        // slice covers whole entries of `bytes`, which live as long as the program.
        let dist = unsafe { std::slice::from_raw_parts(bytes.as_ptr().cast::<Distances>(), bytes.len() / TARGETS) };
        Table { dist, shape }
    }

    /// The entry of a group's counts: none past [`LIMIT`] tiles or four of a kind.
    #[inline(always)]
    pub fn rank(&self, counts: &[u8]) -> Option<usize> {
        if self.shape.kinds == 9 {
            RANKS_9.rank(counts)
        } else {
            RANKS_7.rank(counts)
        }
    }

    /// The distances of a group's counts, if the table holds them.
    #[inline(always)]
    pub fn get(&self, counts: &[u8]) -> Option<&Distances> {
        self.rank(counts).map(|r| &self.dist[r])
    }

    /// Entries of the table (the tests' sweeps).
    #[cfg(test)]
    pub fn entries(&self) -> usize {
        self.dist.len()
    }
}

/// Bit k set where `a[k] > b[k]`, for bytes below 128: one comparison of sixteen bytes
/// and its mask (SSE2, part of every x86-64; elsewhere byte by byte).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn more(a: &[u8; 16], b: &[u8; 16]) -> u16 {
    use std::arch::x86_64::{__m128i, _mm_cmpgt_epi8, _mm_movemask_epi8};
    // SAFETY: SSE2 is part of the x86_64 baseline; [u8; 16] and __m128i are both 16
    // plain bytes, and the bytes (distances, at most 99) compare the same signed.
    unsafe {
        let wide = |x: &[u8; 16]| std::mem::transmute::<[u8; 16], __m128i>(*x);
        _mm_movemask_epi8(_mm_cmpgt_epi8(wide(a), wide(b))) as u16
    }
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn more(a: &[u8; 16], b: &[u8; 16]) -> u16 {
    (0..16).fold(0u16, |m, k| m | ((a[k] > b[k]) as u16) << k)
}

/// The table of a suit (nine kinds, chows allowed).
pub fn suit() -> &'static Table {
    static T: Table = Table::of(include_bytes!(concat!(env!("OUT_DIR"), "/suit.bin")), Shape::SUIT);
    &T
}

/// The table of the honours (seven kinds, no chows).
pub fn honours() -> &'static Table {
    static T: Table = Table::of(include_bytes!(concat!(env!("OUT_DIR"), "/honours.bin")), Shape::HONOURS);
    &T
}

/// The table of a suit whose pair is a 2, 5 or 8 ([`PAIRS_258`]), full caps.
pub fn suit_258() -> &'static Table {
    static T: Table = Table::of(include_bytes!(concat!(env!("OUT_DIR"), "/suit_258.bin")), Shape::SUIT_258);
    &T
}

/// The table of a suit whose every kind may hold five tiles or more (wilds standing past
/// the copies). A suit's targets gain nothing from a sixth tile of a kind: two pungs of a
/// kind reach no count that a pung and a chow through it do not, so caps of five and
/// more give the same distances (tested against the dynamic programming).
pub fn suit_past_four() -> &'static Table {
    static T: Table = Table::of(include_bytes!(concat!(env!("OUT_DIR"), "/suit_past_four.bin")), Shape::SUIT_PAST_FOUR);
    &T
}

/// The tables of the honours whose every kind may hold five tiles (`five`), or six and
/// more (no chows: two pungs of a kind need six; more gives nothing).
pub fn honours_past_four(five: bool) -> &'static Table {
    static FIVE: Table = Table::of(include_bytes!(concat!(env!("OUT_DIR"), "/honours_five.bin")), Shape::HONOURS_FIVE);
    static SIX: Table = Table::of(include_bytes!(concat!(env!("OUT_DIR"), "/honours_six.bin")), Shape::HONOURS_SIX);
    if five {
        &FIVE
    } else {
        &SIX
    }
}

/// The table that holds the distances of a group (a suit when `chows`, else the
/// honours) with these `caps` (a cap a kind) and these kinds that may be the pair (bit
/// j: the group's j-th kind), if one does: every kind the pair and all caps four, or all
/// past four alike as [`suit_past_four`] and [`honours_past_four`] read them; or a suit's
/// pair a 2, 5 or 8 and all caps four ([`suit_258`]).
#[inline]
pub fn for_caps(caps: &[u8], chows: bool, pairs: u16) -> Option<&'static Table> {
    let (lo, hi) = caps.iter().fold((u8::MAX, 0), |(lo, hi), &c| (lo.min(c), hi.max(c)));
    let every = (1u16 << caps.len()) - 1;
    if pairs & every != every {
        return (chows && pairs & every == PAIRS_258 && lo == 4 && hi == 4).then(suit_258);
    }
    match (lo, chows) {
        (4, true) if hi == 4 => Some(suit()),
        (4, false) if hi == 4 => Some(honours()),
        (5.., true) => Some(suit_past_four()),
        (5, false) if hi == 5 => Some(honours_past_four(true)),
        (6.., false) => Some(honours_past_four(false)),
        _ => None,
    }
}

/// The fewest melds all of the tiles of a suit's counts (nine) or the honours' (seven)
/// lie inside, wilds added for the rest, without a pair in the low four bits and with one
/// in the high four (15: none), any number of tiles standing for a kind (see
/// [`crate::table_gen::needs`]); `None` past [`LIMIT`] tiles.
#[inline]
pub fn need(counts: &[u8]) -> Option<u8> {
    static SUIT: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/suit_needs.bin"));
    static HONOURS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/honours_needs.bin"));
    if counts.len() == 9 {
        RANKS_9.rank(counts).map(|r| SUIT[r])
    } else {
        RANKS_7.rank(counts).map(|r| HONOURS[r])
    }
}

/// The draws that lower each target of a group's `counts` in `table`: bit k of the j-th
/// is set where one more tile of the j-th kind lowers the distance to target k (none
/// where the kind has four). `None` where the table cannot hold every counts a draw
/// makes ([`LIMIT`] tiles already).
///
/// The ranks of the counts one tile up come from the terms of the counts' own rank: a
/// tile more of kind j raises the tile count of every kind up to j by one, so the rank
/// up is the raised terms of the kinds before j, the term of j itself, and the kept
/// terms of the kinds after it.
pub fn lowering(table: &Table, counts: &[u8]) -> Option<Lowering> {
    if table.shape.kinds == 9 {
        lowering_with(table, &RANKS_9, counts)
    } else {
        lowering_with(table, &RANKS_7, counts)
    }
}

#[inline(always)]
fn lowering_with<const K: usize>(table: &Table, ranks: &Ranks<K>, counts: &[u8]) -> Option<Lowering> {
    let counts: &[u8; K] = counts.try_into().ok()?;
    let tiles: usize = counts.iter().map(|&c| c as usize).sum();
    if tiles + 1 > LIMIT || counts.iter().any(|&c| c > 4) {
        return None;
    }
    // below[i]: tiles in kinds i..; kept[i]: the kinds' own terms from i on.
    let mut below = [0usize; 10];
    let mut kept = [0u32; 10];
    for i in (0..K).rev() {
        below[i] = below[i + 1] + counts[i] as usize;
        kept[i] = kept[i + 1] + ranks.term[i][below[i]][counts[i] as usize];
    }
    let wide = |d: &Distances| {
        let mut w = [0u8; 16];
        w[..TARGETS].copy_from_slice(d);
        w
    };
    let now = wide(&table.dist[(ranks.start[tiles] + kept[0]) as usize]);
    let start = ranks.start[tiles + 1];
    // The terms of the kinds before j, each with one tile more after it.
    let mut raised = 0u32;
    let mut out = [0u16; 9];
    for j in 0..K {
        let c = counts[j] as usize;
        if c < 4 {
            let rank = start + raised + ranks.term[j][below[j] + 1][c + 1] + kept[j + 1];
            out[j] = more(&now, &wide(&table.dist[rank as usize]));
        }
        raised += ranks.term[j][below[j] + 1][c];
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn get(t: &Table, counts: &[u8]) -> Distances {
        *t.get(counts).unwrap()
    }

    #[test]
    fn known_distances() {
        let t = suit();
        // 1112345678999: nine gates, needs one tile for 4 melds + pair.
        assert_eq!(get(t, &[3, 1, 1, 1, 1, 1, 1, 1, 3])[4 * 2 + 1], 1);
        // Complete: 11123 = 123 + 11.
        assert_eq!(get(t, &[3, 1, 1, 0, 0, 0, 0, 0, 0])[3], 0);
        // Empty counts: target size.
        assert_eq!(get(t, &[0; 9])[4 * 2 + 1], 14);
        // Four of a kind cannot be a pung plus a pair.
        assert_eq!(get(t, &[4, 0, 0, 0, 0, 0, 0, 0, 0])[3], 2);
        let h = honours();
        assert_eq!(get(h, &[3, 2, 0, 0, 0, 0, 0])[3], 0);
        assert_eq!(get(h, &[1, 1, 1, 0, 0, 0, 0])[2], 2);
        // Past the limit, or past four of a kind, the table holds nothing.
        assert!(t.get(&[4, 4, 4, 3, 0, 0, 0, 0, 0]).is_none());
        assert!(t.get(&[5, 0, 0, 0, 0, 0, 0, 0, 0]).is_none());
        assert_eq!(t.entries(), 405_350);
    }

    /// Every counts of at most LIMIT tiles has its own entry, in order of tile count.
    #[test]
    fn ranks_are_one_to_one() {
        for (kinds, size) in [(9, RANKS_9.size()), (7, RANKS_7.size())] {
            let mut seen = vec![false; size];
            let mut last_tiles = vec![usize::MAX; size];
            for i in 0..POW5[kinds] {
                let counts: Vec<u8> = (0..kinds).map(|j| (i / POW5[j] % 5) as u8).collect();
                let tiles: usize = counts.iter().map(|&c| c as usize).sum();
                let rank = if kinds == 9 { RANKS_9.rank(&counts) } else { RANKS_7.rank(&counts) };
                assert_eq!(rank.is_some(), tiles <= LIMIT, "{counts:?}");
                if let Some(r) = rank {
                    assert!(!seen[r], "{counts:?}");
                    seen[r] = true;
                    last_tiles[r] = tiles;
                }
            }
            assert!(seen.iter().all(|&s| s));
            assert!(last_tiles.windows(2).all(|w| w[0] <= w[1]));
        }
    }

    #[test]
    fn lowering_is_where_one_more_tile_lowers_the_distance() {
        for (table, kinds) in
            [(suit(), 9), (honours(), 7), (suit_past_four(), 9), (honours_past_four(true), 7), (suit_258(), 9)]
        {
            // Every counts of the honours, a stride through the suit's.
            for i in (0..POW5[kinds]).step_by(if kinds == 9 { 97 } else { 1 }) {
                let counts: Vec<u8> = (0..kinds).map(|j| (i / POW5[j] % 5) as u8).collect();
                let tiles: usize = counts.iter().map(|&c| c as usize).sum();
                let got = lowering(table, &counts);
                if tiles >= LIMIT {
                    assert!(got.is_none());
                    continue;
                }
                let now = get(table, &counts);
                let mut expected = [0u16; 9];
                for j in 0..kinds {
                    if counts[j] < 4 {
                        let mut up = counts.clone();
                        up[j] += 1;
                        let after = get(table, &up);
                        expected[j] = (0..TARGETS).fold(0u16, |m, k| m | ((after[k] < now[k]) as u16) << k);
                    }
                }
                assert_eq!(got, Some(expected), "{counts:?}");
            }
        }
    }
}
