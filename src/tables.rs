//! Precomputed distances for one suit (or the honours) to every partial target.
//!
//! For a suit's counts `c` (nine digits base 5), `distance(c)[m][h]` is the least number
//! of tiles that must be added to `c` so that it contains `m` melds (chows and pungs) plus
//! `h` pairs with at most four tiles of a kind; tiles of `c` left over are thrown away.
//! Summed over the suits and minimised over how melds are shared out, this is exactly one
//! more than the shanten number of the standard form, and zero for a complete hand.
//!
//! The table is built once: mark every complete target, close the marks downwards
//! (every sub-multiset of a target can grow into it), then take for every `c` the
//! largest marked sub-multiset by a sweep over the lattice.

use std::sync::OnceLock;

/// Melds one group may need: up to 5 (16-tile hands).
pub const MAX_MELDS: usize = 5;
/// Number of (melds, pair) targets: `m * 2 + h`.
pub const TARGETS: usize = (MAX_MELDS + 1) * 2;

/// Distance of a group's counts to each (melds, pair) target, indexed `m * 2 + h`.
pub type Distances = [u8; TARGETS];

pub struct Table {
    pub dist: Vec<Distances>,
    /// The targets it reads.
    shape: Shape,
}

/// For each kind of a group (its j-th), the targets (bit m * 2 + h) whose distance its
/// draw lowers.
pub type Lowering = [u16; 9];

pub const POW5: [usize; 10] = [1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125];

/// Marks of counts in base 5 (`kinds` digits, a digit a kind) carried down: each entry
/// ends holding its own bits and those of every count above it by one copy of a kind,
/// so of every count it lies under. Runs from the top, with the digits of `i` kept by a
/// decrementing odometer.
pub(crate) fn fill_down(marks: &mut [u16], kinds: usize) {
    let mut digits = vec![4u8; kinds];
    for i in (0..marks.len()).rev() {
        let mut m = marks[i];
        for (d, p) in digits.iter().zip(POW5.iter()) {
            if *d < 4 {
                m |= marks[i + p];
            }
        }
        marks[i] = m;
        for d in digits.iter_mut() {
            if *d > 0 {
                *d -= 1;
                break;
            }
            *d = 4;
        }
    }
}

impl Table {
    /// Index of a group's counts (each at most 4).
    #[inline(always)]
    pub fn index(counts: &[u8]) -> usize {
        counts.iter().rev().fold(0usize, |acc, &c| acc * 5 + c as usize)
    }

    #[inline(always)]
    pub fn get(&self, counts: &[u8]) -> &Distances {
        &self.dist[Self::index(counts)]
    }

    /// The table of a group of `kinds` kinds whose targets hold at most `cap` tiles of a
    /// kind. Counts stay at most four (real tiles); a target past four copies of a kind
    /// (wilds standing past the copies) is marked where its tiles, four of that kind at
    /// most, lie: no count can use more of it.
    fn build(shape: Shape) -> Table {
        let kinds = shape.kinds;
        let size = POW5[kinds];
        // Bit (m * 2 + h) of marks[i]: counts i lie inside some target with m melds and h pairs.
        let mut marks = vec![0u16; size];
        let mut counts = vec![0u8; kinds];
        mark_targets(&mut counts, 0, 0, shape, &mut marks);
        fill_down(&mut marks, kinds);
        // best[i][k]: the most tiles of counts i that some target k can use. Rows are
        // padded to 16 bytes so that the element-wise max runs as one vector operation.
        let mut best = vec![[0u8; 16]; size];
        let mut digits = vec![0u8; kinds];
        let mut total = 0u8;
        for i in 0..size {
            let mut b = [0u8; 16];
            for (j, &d) in digits.iter().enumerate() {
                if d > 0 {
                    let below = best[i - POW5[j]];
                    for k in 0..16 {
                        b[k] = b[k].max(below[k]);
                    }
                }
            }
            let m = marks[i];
            for k in 0..TARGETS {
                if m >> k & 1 == 1 {
                    b[k] = total;
                }
            }
            best[i] = b;
            // Odometer increment of the base-5 digits, keeping their sum.
            for d in digits.iter_mut() {
                if *d < 4 {
                    *d += 1;
                    total += 1;
                    break;
                }
                total -= 4;
                *d = 0;
            }
        }
        let dist = best
            .iter()
            .map(|b| {
                let mut d = [0u8; TARGETS];
                for (k, slot) in d.iter_mut().enumerate() {
                    *slot = target_size(k) - b[k];
                }
                d
            })
            .collect();
        Table { dist, shape }
    }

    /// The draws that lower each target from counts of index `i`: bit k of the j-th
    /// is set where one more tile of the j-th kind lowers the distance to target k (none
    /// where the kind has four).
    fn lowering_at(&self, i: usize, kinds: usize) -> Lowering {
        let wide = |d: &Distances| {
            let mut w = [0u8; 16];
            w[..TARGETS].copy_from_slice(d);
            w
        };
        let now = wide(&self.dist[i]);
        let mut out = [0u16; 9];
        for (j, slot) in out.iter_mut().enumerate().take(kinds) {
            if i / POW5[j] % 5 < 4 {
                *slot = more(&now, &wide(&self.dist[i + POW5[j]]));
            }
        }
        out
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

/// Tiles in target `k = m * 2 + h`.
#[inline]
pub const fn target_size(k: usize) -> u8 {
    ((k / 2) * 3 + (k % 2) * 2) as u8
}

/// The targets [`Table::build`] marks: a group of `kinds` kinds, chows or not, at most
/// `cap` tiles of a kind, the pair of a kind in `pairs` (bit j: the j-th kind).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Shape {
    kinds: usize,
    chows: bool,
    cap: u8,
    pairs: u16,
}

impl Shape {
    const SUIT: Shape = Shape { kinds: 9, chows: true, cap: 4, pairs: 0x1FF };
    const HONOURS: Shape = Shape { kinds: 7, chows: false, cap: 4, pairs: 0x7F };
}

/// A suit's kinds 2, 5 and 8 (Changsha's pair, 将).
pub const PAIRS_258: u16 = 0b1001_0010;

/// Index of a target's tiles, each kind's count clipped at four.
fn clipped_index(counts: &[u8]) -> usize {
    counts.iter().rev().fold(0usize, |acc, &c| acc * 5 + c.min(4) as usize)
}

/// Marks every complete target: melds chosen in non-decreasing order of (type, kind) so
/// each multiset is visited once, then with or without a pair.
fn mark_targets(counts: &mut [u8], from: usize, melds: usize, shape: Shape, marks: &mut [u16]) {
    let Shape { kinds, chows, cap, pairs } = shape;
    marks[clipped_index(counts)] |= 1 << (melds * 2);
    for p in 0..kinds {
        if pairs >> p & 1 == 1 && counts[p] + 2 <= cap {
            counts[p] += 2;
            marks[clipped_index(counts)] |= 1 << (melds * 2 + 1);
            counts[p] -= 2;
        }
    }
    if melds == MAX_MELDS {
        return;
    }
    // Meld choices: 0..kinds are pungs, kinds.. are chows starting at (choice - kinds).
    let choices = if chows { kinds + kinds - 2 } else { kinds };
    for choice in from..choices {
        let (start, len, each) = if choice < kinds { (choice, 1, 3) } else { (choice - kinds, 3, 1) };
        if (start..start + len).all(|t| counts[t] + each <= cap) {
            for t in start..start + len {
                counts[t] += each;
            }
            mark_targets(counts, choice, melds + 1, shape, marks);
            for t in start..start + len {
                counts[t] -= each;
            }
        }
    }
}

/// The table of a suit (nine kinds, chows allowed).
pub fn suit() -> &'static Table {
    static T: OnceLock<Table> = OnceLock::new();
    T.get_or_init(|| Table::build(Shape::SUIT))
}

/// The table of the honours (seven kinds, no chows).
pub fn honours() -> &'static Table {
    static T: OnceLock<Table> = OnceLock::new();
    T.get_or_init(|| Table::build(Shape::HONOURS))
}

/// The table of a suit whose pair is a 2, 5 or 8 ([`PAIRS_258`]), full caps. Made the
/// first time such a group is met (23 MB).
pub fn suit_258() -> &'static Table {
    static T: OnceLock<Table> = OnceLock::new();
    T.get_or_init(|| Table::build(Shape { pairs: PAIRS_258, ..Shape::SUIT }))
}

/// The table of a suit whose every kind may hold five tiles or more (wilds standing past
/// the copies). A suit's targets gain nothing from a sixth tile of a kind: two pungs of a
/// kind reach no count that a pung and a chow through it do not, so caps of five and
/// more give the same distances (tested against the dynamic programming). Made the first
/// time such a group is met (23 MB).
pub fn suit_past_four() -> &'static Table {
    static T: OnceLock<Table> = OnceLock::new();
    T.get_or_init(|| Table::build(Shape { cap: 5, ..Shape::SUIT }))
}

/// The tables of the honours whose every kind may hold five tiles (`five`), or six and
/// more (no chows: two pungs of a kind need six; more gives nothing).
pub fn honours_past_four(five: bool) -> &'static Table {
    static FIVE: OnceLock<Table> = OnceLock::new();
    static SIX: OnceLock<Table> = OnceLock::new();
    if five {
        FIVE.get_or_init(|| Table::build(Shape { cap: 5, ..Shape::HONOURS }))
    } else {
        SIX.get_or_init(|| Table::build(Shape { cap: 6, ..Shape::HONOURS }))
    }
}

/// The table that holds the distances of a group (a suit when `chows`, else the
/// honours) with these `caps` (a cap a kind) and these kinds that may be the pair (bit
/// j: the group's j-th kind), if one does: every kind the pair and all caps four, or all
/// past four alike as [`suit_past_four`] and [`honours_past_four`] read them; or a suit's
/// pair a 2, 5 or 8 and all caps four ([`suit_258`]). Counts must be at most four.
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

/// [`Table::lowering_at`] of `table` at the counts' index. For [`suit`] and [`honours`]
/// read from a table of them made for every counts the first time the analysis asks (the
/// suit's are 35 MB, which scoring alone never needs); for the other tables, which only
/// some rulesets' hands read, worked out each time (a read of the table a kind).
pub fn lowering(table: &Table, i: usize) -> Lowering {
    static SUIT: OnceLock<Vec<Lowering>> = OnceLock::new();
    static HONOURS: OnceLock<Vec<Lowering>> = OnceLock::new();
    let made = match table.shape {
        Shape::SUIT => &SUIT,
        Shape::HONOURS => &HONOURS,
        _ => return table.lowering_at(i, table.shape.kinds),
    };
    made.get_or_init(|| (0..table.dist.len()).map(|i| table.lowering_at(i, table.shape.kinds)).collect())[i]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_distances() {
        let t = suit();
        // 1112345678999: nine gates, needs one tile for 4 melds + pair.
        let d = t.get(&[3, 1, 1, 1, 1, 1, 1, 1, 3]);
        assert_eq!(d[4 * 2 + 1], 1);
        // Complete: 11123 = 111 + 23? No: 123 + 11.
        assert_eq!(t.get(&[3, 1, 1, 0, 0, 0, 0, 0, 0])[3], 0);
        // Empty counts: target size.
        assert_eq!(t.get(&[0; 9])[4 * 2 + 1], 14);
        // Four of a kind cannot be a pung plus a pair.
        assert_eq!(t.get(&[4, 0, 0, 0, 0, 0, 0, 0, 0])[3], 2);
        let h = honours();
        assert_eq!(h.get(&[3, 2, 0, 0, 0, 0, 0])[3], 0);
        assert_eq!(h.get(&[1, 1, 1, 0, 0, 0, 0])[2], 2);
    }

    #[test]
    fn lowering_is_where_one_more_tile_lowers_the_distance() {
        for (table, kinds) in
            [(suit(), 9), (honours(), 7), (suit_past_four(), 9), (honours_past_four(true), 7), (suit_258(), 9)]
        {
            // Every state of the honours, a stride through the suit's.
            for i in (0..POW5[kinds]).step_by(if kinds == 9 { 97 } else { 1 }) {
                for j in 0..kinds {
                    let expected = if i / POW5[j] % 5 == 4 {
                        0
                    } else {
                        let (now, after) = (&table.dist[i], &table.dist[i + POW5[j]]);
                        (0..TARGETS).fold(0u16, |m, k| m | ((after[k] < now[k]) as u16) << k)
                    };
                    assert_eq!(lowering(table, i)[j], expected, "{i} {j}");
                }
            }
        }
    }
}
