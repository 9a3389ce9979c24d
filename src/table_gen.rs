//! How the distance tables of [`crate::tables`] are made and laid out, shared with the
//! build script, which makes them once at build time (`build.rs` includes this file by
//! path, so it may use nothing of the crate).
//!
//! A group's counts (nine kinds of a suit or seven honours, each 0 to 4) holding at most
//! [`LIMIT`] tiles have an entry; entries are ordered by the group's tile count first,
//! then by the counts read as a number with the first kind most significant. The rank
//! of counts in that order is a sum of small precomputed terms, one a kind
//! ([`Ranks::rank`]), and groups of few tiles, the common ones, sit together at the start
//! of the table, where they share cache lines.

/// Most tiles of one group that a table holds: a whole 14-tile hand in one suit.
/// Groups of more (16-tile hands of one suit) are counted by the dynamic programming.
pub const LIMIT: usize = 14;

/// Melds one group may need: up to 5 (16-tile hands).
pub const MAX_MELDS: usize = 5;
/// Number of (melds, pair) targets: `m * 2 + h`.
pub const TARGETS: usize = (MAX_MELDS + 1) * 2;

pub const POW5: [usize; 10] = [1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125];

/// The terms of the rank of a group of `K` kinds.
pub struct Ranks<const K: usize> {
    /// `term[i][r][c]`: with `r` tiles in kinds `i..` and `c` of kind `i`, the counts
    /// of kinds `i + 1..` holding `r - v` tiles, summed over `v < c` (how many come
    /// before in the order).
    pub term: [[[u32; 5]; LIMIT + 1]; K],
    /// `start[n]`: counts of fewer than `n` tiles (`start[LIMIT + 1]`: every entry).
    pub start: [u32; LIMIT + 2],
}

impl<const K: usize> Default for Ranks<K> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const K: usize> Ranks<K> {
    pub const fn new() -> Self {
        // ways[k][r]: counts of k kinds holding r tiles.
        let mut ways = [[0u32; LIMIT + 1]; 10];
        ways[0][0] = 1;
        let mut k = 1;
        while k <= K {
            let mut r = 0;
            while r <= LIMIT {
                let mut v = 0;
                while v <= 4 && v <= r {
                    ways[k][r] += ways[k - 1][r - v];
                    v += 1;
                }
                r += 1;
            }
            k += 1;
        }
        let mut term = [[[0u32; 5]; LIMIT + 1]; K];
        let mut i = 0;
        while i < K {
            let mut r = 0;
            while r <= LIMIT {
                let mut c = 1;
                while c <= 4 {
                    let v = c - 1;
                    let before = if v <= r { ways[K - 1 - i][r - v] } else { 0 };
                    term[i][r][c] = term[i][r][c - 1] + before;
                    c += 1;
                }
                r += 1;
            }
            i += 1;
        }
        let mut start = [0u32; LIMIT + 2];
        let mut n = 1;
        while n <= LIMIT + 1 {
            start[n] = start[n - 1] + ways[K][n - 1];
            n += 1;
        }
        Ranks { term, start }
    }

    /// Entries of a table of `K` kinds.
    pub const fn size(&self) -> usize {
        self.start[LIMIT + 1] as usize
    }

    /// The entry of `counts` (`K` of them), if it has one: no count past four and at
    /// most [`LIMIT`] tiles.
    ///
    /// The tiles before each kind come at once from one multiplication (byte i of the
    /// product of the first eight counts by 0x0101...01 is the sum of bytes 0 to i), so
    /// the terms are read independently of each other.
    #[inline(always)]
    pub fn rank(&self, counts: &[u8]) -> Option<usize> {
        let counts: &[u8; K] = counts.try_into().ok()?;
        let mut low = [0u8; 8];
        low[..K.min(8)].copy_from_slice(&counts[..K.min(8)]);
        let w = u64::from_le_bytes(low);
        // A byte of 5 or more gets its top bit set by adding 123 (counts are below 128
        // here: a byte of 128 or more has it already).
        const HIGH: u64 = 0x8080_8080_8080_8080;
        let last = if K > 8 { counts[8] } else { 0 };
        if (w.wrapping_add(0x7B7B_7B7B_7B7B_7B7B) | w) & HIGH != 0 || last > 4 {
            return None;
        }
        let before = (w.wrapping_mul(0x0101_0101_0101_0101) << 8).to_le_bytes();
        let tiles = (w.wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize + last as usize;
        if tiles > LIMIT {
            return None;
        }
        let mut rank = self.start[tiles];
        for i in 0..K {
            // Tiles in kinds i.. : the whole less those before i.
            let from_here = tiles - if i < 8 { before[i] as usize } else { tiles - last as usize };
            rank += self.term[i][from_here][counts[i] as usize];
        }
        Some(rank as usize)
    }
}

/// The targets a table marks: a group of `kinds` kinds, chows or not, at most `cap`
/// tiles of a kind, the pair of a kind in `pairs` (bit j: the j-th kind).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Shape {
    pub kinds: usize,
    pub chows: bool,
    pub cap: u8,
    pub pairs: u16,
}

/// A suit's kinds 2, 5 and 8 (Changsha's pair, 将).
pub const PAIRS_258: u16 = 0b1001_0010;

impl Shape {
    pub const SUIT: Shape = Shape { kinds: 9, chows: true, cap: 4, pairs: 0x1FF };
    pub const HONOURS: Shape = Shape { kinds: 7, chows: false, cap: 4, pairs: 0x7F };
    pub const SUIT_258: Shape = Shape { pairs: PAIRS_258, ..Shape::SUIT };
    pub const SUIT_PAST_FOUR: Shape = Shape { cap: 5, ..Shape::SUIT };
    pub const HONOURS_FIVE: Shape = Shape { cap: 5, ..Shape::HONOURS };
    pub const HONOURS_SIX: Shape = Shape { cap: 6, ..Shape::HONOURS };

    /// Every distance table the crate embeds, with the file the build script writes it
    /// to.
    pub const ALL: [(Shape, &'static str); 6] = [
        (Shape::SUIT, "suit.bin"),
        (Shape::HONOURS, "honours.bin"),
        (Shape::SUIT_258, "suit_258.bin"),
        (Shape::SUIT_PAST_FOUR, "suit_past_four.bin"),
        (Shape::HONOURS_FIVE, "honours_five.bin"),
        (Shape::HONOURS_SIX, "honours_six.bin"),
    ];
}

/// Marks of counts in base 5 (`kinds` digits, a digit a kind) carried down: each entry
/// ends holding its own bits and those of every count above it by one copy of a kind,
/// so of every count it lies under. Runs from the top, with the digits of `i` kept by a
/// decrementing odometer.
pub fn fill_down(marks: &mut [u16], kinds: usize) {
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

/// Index of counts in base 5, the first kind least significant, each count clipped at
/// four.
pub fn base5_index(counts: &[u8]) -> usize {
    counts.iter().rev().fold(0usize, |acc, &c| acc * 5 + c.min(4) as usize)
}

/// Tiles in target `k = m * 2 + h`.
pub const fn target_size(k: usize) -> u8 {
    ((k / 2) * 3 + (k % 2) * 2) as u8
}

/// Marks every complete target: melds chosen in non-decreasing order of (type, kind) so
/// each multiset is visited once, then with or without a pair. A target past four copies
/// of a kind (wilds standing past the copies) is marked where its tiles, four of that
/// kind at most, lie: no count can use more of it.
fn mark_targets(counts: &mut [u8], from: usize, melds: usize, shape: Shape, marks: &mut [u16]) {
    let Shape { kinds, chows, cap, pairs } = shape;
    marks[base5_index(counts)] |= 1 << (melds * 2);
    for p in 0..kinds {
        if pairs >> p & 1 == 1 && counts[p] + 2 <= cap {
            counts[p] += 2;
            marks[base5_index(counts)] |= 1 << (melds * 2 + 1);
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

/// The distances of every counts of a group of `shape` to each (melds, pair) target, in
/// the order of [`Ranks`], as bytes (`TARGETS` an entry): the least number of tiles to
/// add so that the counts lie inside some target, which makes the targets, closes them
/// downwards (every sub-multiset of a target can grow into it), then takes for every
/// counts the largest target-held counts below it by a sweep over the lattice.
pub fn build(shape: Shape) -> Vec<u8> {
    let kinds = shape.kinds;
    let size = POW5[kinds];
    // Bit (m * 2 + h) of marks[i]: counts i lie inside some target with m melds and h pairs.
    let mut marks = vec![0u16; size];
    let mut counts = vec![0u8; kinds];
    mark_targets(&mut counts, 0, 0, shape, &mut marks);
    fill_down(&mut marks, kinds);
    // best[i][k]: the most tiles of counts i that some target k can use; only counts of
    // at most LIMIT tiles are kept, and they lie below only such counts.
    let mut best = vec![[0u8; TARGETS]; size];
    let mut digits = vec![0u8; kinds];
    let mut total = 0usize;
    let ranks9 = Ranks::<9>::new();
    let ranks7 = Ranks::<7>::new();
    let entries = if kinds == 9 { ranks9.size() } else { ranks7.size() };
    let mut out = vec![0u8; entries * TARGETS];
    for i in 0..size {
        if total <= LIMIT {
            let mut b = [0u8; TARGETS];
            for (j, &d) in digits.iter().enumerate() {
                if d > 0 {
                    let below = &best[i - POW5[j]];
                    for k in 0..TARGETS {
                        b[k] = b[k].max(below[k]);
                    }
                }
            }
            let m = marks[i];
            for (k, slot) in b.iter_mut().enumerate() {
                if m >> k & 1 == 1 {
                    *slot = total as u8;
                }
            }
            best[i] = b;
            let rank = if kinds == 9 { ranks9.rank(&digits) } else { ranks7.rank(&digits) };
            let at = rank.expect("counts within the limit have an entry") * TARGETS;
            for k in 0..TARGETS {
                out[at + k] = target_size(k) - b[k];
            }
        }
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
    out
}

/// The need of every entry of a table of `kinds` kinds (its distances `dist`, as
/// [`build`] makes them): the fewest melds all of the counts' tiles lie inside, without
/// a pair in the low four bits and with one in the high four (15: none). Counts lie inside
/// a target exactly when the distance to it is the target's size less their tiles.
/// Read from the tables of groups whose caps do not bind (past four), it is what
/// scoring with wilds asks of a group of real tiles.
pub fn needs(dist: &[u8], kinds: usize) -> Vec<u8> {
    let start = if kinds == 9 { Ranks::<9>::new().start } else { Ranks::<7>::new().start };
    let mut tiles = 0;
    (0..dist.len() / TARGETS)
        .map(|r| {
            while r as u32 >= start[tiles + 1] {
                tiles += 1;
            }
            let d = &dist[r * TARGETS..(r + 1) * TARGETS];
            let least = |h: usize| {
                (0..=MAX_MELDS)
                    .find(|&m| d[2 * m + h] as usize + tiles == target_size(2 * m + h) as usize)
                    .map_or(15, |m| m as u8)
            };
            least(0) | least(1) << 4
        })
        .collect()
}
