//! Distance of a hand to completion, per form: the least number of tiles that must be
//! exchanged (added, with as many thrown away) to make a complete hand. A complete
//! hand is at distance 0, a ready hand (听牌) at 1; shanten (向听) is distance - 1.
//!
//! Every form is counted the same way: a target (a complete arrangement with at most
//! `caps[k]` tiles standing for kind `k`) is chosen to overlap the hand's real tiles as
//! much as possible, and each wild fills one missing place.

use crate::forms::{Form, Forms, View};
use crate::tables::{self, Distances, MAX_MELDS, TARGETS};
use crate::tiles::{self, KINDS, KINDS_258, ORPHANS};

/// The distance of a hand no form can complete.
pub const INF: u8 = 99;

/// Kind ranges of the four groups: three suits and the honours.
pub const GROUPS: [(usize, usize); 4] = [(0, 9), (9, 18), (18, 27), (27, 34)];

/// Distances of one group to every (melds, pair) target, respecting `caps` and the
/// kinds the pair may be (`pair_ok`, a bitmask over all kinds).
#[inline]
pub fn group_distances(view: &View, g: usize, pair_ok: u64) -> Distances {
    let (lo, hi) = GROUPS[g];
    let counts = &view.counts[lo..hi];
    if let Some(d) = group_table(view, g, pair_ok).and_then(|t| t.get(counts)) {
        return *d;
    }
    slow_group(counts, &view.caps[lo..hi], (pair_ok >> lo) as u16, g < 3)
}

/// The precomputed table group `g` of `view` reads its distances from, if any
/// ([`tables::for_caps`]: the caps and the kinds that may be the pair as a table has
/// them). The table holds the group's counts unless they pass [`tables::LIMIT`] tiles.
#[inline]
pub fn group_table(view: &View, g: usize, pair_ok: u64) -> Option<&'static tables::Table> {
    let (lo, hi) = GROUPS[g];
    tables::for_caps(&view.caps[lo..hi], g < 3, (pair_ok >> lo) as u16)
}

/// The distances of a suit's counts (`chows`) or the honours', four copies a kind and
/// any pair: from the table, or past its limit by the dynamic programming.
#[inline(always)]
pub fn plain_group(counts: &[u8], chows: bool) -> Distances {
    let table = if chows { tables::suit() } else { tables::honours() };
    match table.get(counts) {
        Some(d) => *d,
        None => plain_group_past_limit(counts, chows),
    }
}

#[cold]
#[inline(never)]
fn plain_group_past_limit(counts: &[u8], chows: bool) -> Distances {
    slow_group(counts, &[4; 9][..counts.len()], 0x1FF, chows)
}

/// Most groups [`slow_group`] keeps the distances of, per thread.
const SLOW_KEPT: usize = 1 << 16;

/// The same distances by dynamic programming over the group's kinds, for groups with
/// reduced caps or a restricted pair; the distances of the groups met last are kept
/// (waits try every tile in each group, and hands with melds repeat their caps).
#[inline(never)]
pub fn slow_group(counts: &[u8], caps: &[u8], pair_ok: u16, chows: bool) -> Distances {
    thread_local! {
        static KEPT: std::cell::RefCell<std::collections::HashMap<u128, Distances, crate::hash::Fast>> =
            Default::default();
    }
    // A byte a kind (its count 0-7 in three bits, its cap up to 15 in four above them),
    // then the pair kinds and chows; a group past those is worked out each time.
    let (mut c, mut p) = ([0u8; 16], [0u8; 16]);
    c[..counts.len()].copy_from_slice(counts);
    p[..caps.len()].copy_from_slice(caps);
    let (c, p) = (u128::from_le_bytes(c), u128::from_le_bytes(p));
    if c & u128::from_le_bytes([0xF8; 16]) != 0 || p & u128::from_le_bytes([0xF0; 16]) != 0 {
        return slow_group_dp(counts, caps, pair_ok, chows);
    }
    let key = c | p << 3 | (pair_ok as u128) << 80 | (chows as u128) << 96;
    if let Some(d) = KEPT.with(|k| k.borrow().get(&key).copied()) {
        return d;
    }
    let d = slow_group_dp(counts, caps, pair_ok, chows);
    KEPT.with(|k| {
        let mut k = k.borrow_mut();
        if k.len() >= SLOW_KEPT {
            k.clear();
        }
        k.insert(key, d);
    });
    d
}

/// [`slow_group`]'s dynamic programming over the kinds. States: chows begun one and two
/// kinds back, then the (melds, pair) reached; each way to take tiles of a kind adds the
/// same cost to every reached target, shifted by the melds and pair it makes. A state's
/// targets are a [`Row`]: one shift, one saturating add and one minimum a way, for all
/// twelve targets at once.
fn slow_group_dp(counts: &[u8], caps: &[u8], pair_ok: u16, chows: bool) -> Distances {
    let n = counts.len();
    let mut dp = [[Row::unreached(); 5]; 5];
    dp[0][0] = Row::start();
    for i in 0..n {
        let mut next = [[Row::unreached(); 5]; 5];
        let cap = caps[i] as usize;
        let count = counts[i] as usize;
        let cost = |t: usize| t.saturating_sub(count) as u8;
        // Four copies hold one pung or the pair; more (wilds standing past the copies)
        // may hold a pung and the pair, or two pungs, and two pungs and the pair.
        let pair = pair_ok >> i & 1 == 1;
        let most_new = if chows && i + 2 < n { 4 } else { 0 };
        for a in 0..5usize {
            for b in 0..5 - a {
                let row = dp[a][b];
                // Tiles of this kind the chows begun take, before any other.
                let taken = a + b;
                if taken > cap || row.is_unreached() {
                    continue;
                }
                // With c chows begun here: `melds` the row with c melds more, `more` with
                // c + 1.
                let mut melds = row;
                let mut more = row.melded();
                for c in 0..=(most_new - taken.min(most_new)).min(cap - taken) {
                    let t = taken + c;
                    let mut out = next[c][a].min_with(melds, cost(t));
                    if pair && t + 2 <= cap {
                        out = out.min_with(melds.paired(), cost(t + 2));
                    }
                    if t + 3 <= cap {
                        out = out.min_with(more, cost(t + 3));
                        if pair && t + 5 <= cap {
                            out = out.min_with(more.paired(), cost(t + 5));
                        }
                        if t + 6 <= cap && c + 1 < MAX_MELDS {
                            let two = more.melded();
                            out = out.min_with(two, cost(t + 6));
                            if pair && t + 8 <= cap {
                                out = out.min_with(two.paired(), cost(t + 8));
                            }
                        }
                    }
                    next[c][a] = out;
                    melds = more;
                    more = more.melded();
                }
            }
        }
        for row in next.iter_mut().flatten() {
            *row = row.settled();
        }
        dp = next;
    }
    dp[0][0].distances()
}

/// The distances of one state of [`slow_group_dp`] to the twelve (melds, pair) targets,
/// in the low twelve of sixteen bytes (target `m * 2 + h` at byte `m * 2 + h`). Bytes
/// of [`INF`] and above are unreached, and the four high bytes are never read: a shift
/// moves what would pass five melds there, or out. One SSE2 register on x86-64 (part of
/// its baseline), sixteen bytes elsewhere.
#[derive(Clone, Copy)]
struct Row(row::Bytes);

impl Row {
    const UNREACHED: [u8; 16] = [INF; 16];
    /// The bytes of targets without a pair (even) kept, the others made unreached.
    const EVEN: [u8; 16] = [0xFF, 0, 0xFF, 0, 0xFF, 0, 0xFF, 0, 0xFF, 0, 0xFF, 0, 0xFF, 0, 0xFF, 0];
    const ODD_INF: [u8; 16] = [0, INF, 0, INF, 0, INF, 0, INF, 0, INF, 0, INF, 0, INF, 0, INF];

    fn unreached() -> Row {
        Row(row::splat(INF))
    }

    /// Nothing taken: no melds, no pair, at no cost.
    fn start() -> Row {
        let mut bytes = Row::UNREACHED;
        bytes[0] = 0;
        Row(row::load(bytes))
    }

    fn is_unreached(self) -> bool {
        row::equal(self.0, row::splat(INF))
    }

    /// The targets without a pair, the others unreached, moved up one place: the pair
    /// added.
    #[inline(always)]
    fn paired(self) -> Row {
        let kept = row::or(row::and(self.0, row::load(Row::EVEN)), row::load(Row::ODD_INF));
        Row(row::up::<1>(kept))
    }

    /// Every target moved up two places (a meld added), unreached moved in.
    #[inline(always)]
    fn melded(self) -> Row {
        Row(row::up::<2>(self.0))
    }

    /// Each byte the least of this row's and `other`'s plus `add` (saturating).
    #[inline(always)]
    fn min_with(self, other: Row, add: u8) -> Row {
        Row(row::min(self.0, row::adds(other.0, row::splat(add))))
    }

    /// Unreached bytes back to [`INF`], the high four to it, so that an unreached state
    /// is [`Row::is_unreached`].
    #[inline(always)]
    fn settled(self) -> Row {
        let mut high = [0u8; 16];
        high[TARGETS..].fill(INF);
        Row(row::or(row::min(self.0, row::splat(INF)), row::load(high)))
    }

    fn distances(self) -> Distances {
        let bytes = row::store(self.0);
        std::array::from_fn(|k| bytes[k].min(INF))
    }
}

/// The sixteen-byte operations of [`Row`].
#[cfg(target_arch = "x86_64")]
mod row {
    use std::arch::x86_64::*;

    pub type Bytes = __m128i;

    // SAFETY (every function): SSE2 is part of the x86_64 baseline, and [u8; 16] and
    // __m128i are both sixteen plain bytes.
    #[inline(always)]
    pub fn load(bytes: [u8; 16]) -> Bytes {
        unsafe { std::mem::transmute::<[u8; 16], __m128i>(bytes) }
    }
    #[inline(always)]
    pub fn store(x: Bytes) -> [u8; 16] {
        unsafe { std::mem::transmute::<__m128i, [u8; 16]>(x) }
    }
    #[inline(always)]
    pub fn splat(b: u8) -> Bytes {
        unsafe { _mm_set1_epi8(b as i8) }
    }
    #[inline(always)]
    pub fn equal(a: Bytes, b: Bytes) -> bool {
        unsafe { _mm_movemask_epi8(_mm_cmpeq_epi8(a, b)) == 0xFFFF }
    }
    #[inline(always)]
    pub fn and(a: Bytes, b: Bytes) -> Bytes {
        unsafe { _mm_and_si128(a, b) }
    }
    #[inline(always)]
    pub fn or(a: Bytes, b: Bytes) -> Bytes {
        unsafe { _mm_or_si128(a, b) }
    }
    #[inline(always)]
    pub fn min(a: Bytes, b: Bytes) -> Bytes {
        unsafe { _mm_min_epu8(a, b) }
    }
    #[inline(always)]
    pub fn adds(a: Bytes, b: Bytes) -> Bytes {
        unsafe { _mm_adds_epu8(a, b) }
    }
    /// Each byte moved up `N` places, [`super::INF`] moved in below.
    #[inline(always)]
    pub fn up<const N: i32>(a: Bytes) -> Bytes {
        let mut low = [0u8; 16];
        low[..N as usize].fill(super::INF);
        unsafe { _mm_or_si128(_mm_slli_si128::<N>(a), load(low)) }
    }
}

#[cfg(not(target_arch = "x86_64"))]
mod row {
    pub type Bytes = [u8; 16];

    pub fn load(bytes: [u8; 16]) -> Bytes {
        bytes
    }
    pub fn store(x: Bytes) -> [u8; 16] {
        x
    }
    pub fn splat(b: u8) -> Bytes {
        [b; 16]
    }
    pub fn equal(a: Bytes, b: Bytes) -> bool {
        a == b
    }
    pub fn and(a: Bytes, b: Bytes) -> Bytes {
        std::array::from_fn(|k| a[k] & b[k])
    }
    pub fn or(a: Bytes, b: Bytes) -> Bytes {
        std::array::from_fn(|k| a[k] | b[k])
    }
    pub fn min(a: Bytes, b: Bytes) -> Bytes {
        std::array::from_fn(|k| a[k].min(b[k]))
    }
    pub fn adds(a: Bytes, b: Bytes) -> Bytes {
        std::array::from_fn(|k| a[k].saturating_add(b[k]))
    }
    pub fn up<const N: i32>(a: Bytes) -> Bytes {
        std::array::from_fn(|k| if k < N as usize { super::INF } else { a[k - N as usize] })
    }
}

/// Min-plus combination of group distances: for every (melds, pair) target, the least
/// total distance with the melds and pair shared out over the groups.
pub fn combine_all(groups: &[Distances]) -> Distances {
    let mut acc = groups[0];
    for g in &groups[1..] {
        let mut next = [INF; TARGETS];
        for (k1, &a) in acc.iter().enumerate() {
            if a >= INF {
                continue;
            }
            let (m1, h1) = (k1 / 2, k1 % 2);
            for m2 in 0..=MAX_MELDS - m1 {
                for h2 in 0..2 - h1 {
                    let k = (m1 + m2) * 2 + h1 + h2;
                    next[k] = next[k].min(a.saturating_add(g[m2 * 2 + h2]));
                }
            }
        }
        acc = next;
    }
    acc
}

/// Min-plus product of two groups' distances, for targets up to `melds` melds (at most
/// [`MAX_MELDS`]).
#[inline]
pub fn convolve(a: &Distances, b: &Distances, melds: usize) -> Distances {
    // The common sizes get loops the compiler unrolls, with no bounds checks.
    match melds {
        0 => convolve_fixed::<0>(a, b),
        1 => convolve_fixed::<1>(a, b),
        2 => convolve_fixed::<2>(a, b),
        3 => convolve_fixed::<3>(a, b),
        4 => convolve_fixed::<4>(a, b),
        _ => convolve_fixed::<MAX_MELDS>(a, b),
    }
}

/// [`convolve_plain`] sixteen bytes at a time: for each meld count `i` of the first group,
/// its no-pair distance plus the second's distances moved up `2 i` targets gives every
/// no-pair target and the pair-from-the-second targets at once; its pair distance plus the
/// second's no-pair distances moved up one byte more gives the pair-from-the-first ones.
///
/// The sums are kept as their complements (255 less the sum), so that the bytes a move
/// shifts in, zero, are out of reach, and a saturating add becomes a saturating subtract
/// (`255 - min(a + b, 255) = max((255 - b) - a, 0)`). The first group's distances are each
/// repeated across a register by byte and word unpacks and one dword shuffle, and every
/// move is a byte shift by a constant, so nothing leaves the vector registers.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn convolve_fixed<const M: usize>(a: &Distances, b: &Distances) -> Distances {
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_loadu_si128, _mm_max_epu8, _mm_set1_epi16, _mm_set1_epi8, _mm_shuffle_epi32,
        _mm_slli_si128, _mm_storeu_si128, _mm_subs_epu8, _mm_unpackhi_epi16, _mm_unpackhi_epi8, _mm_unpacklo_epi16,
        _mm_unpacklo_epi8, _mm_xor_si128,
    };
    let pad = |d: &Distances| {
        let mut p = [INF; 16];
        p[..TARGETS].copy_from_slice(d);
        p
    };
    let (a, b) = (pad(a), pad(b));
    let mut out = [INF; 16];
    // SAFETY: SSE2 is part of the x86_64 baseline; the loads and the store are of 16-byte
    // arrays.
    unsafe {
        let b = _mm_xor_si128(_mm_loadu_si128(b.as_ptr().cast()), _mm_set1_epi8(-1));
        // The second group's no-pair targets only (its even bytes), for the pairs of the
        // first: its pair targets would make a second pair.
        let b_none = _mm_and_si128(b, _mm_set1_epi16(0x00FF));
        let a = _mm_loadu_si128(a.as_ptr().cast());
        let (twice_lo, twice_hi) = (_mm_unpacklo_epi8(a, a), _mm_unpackhi_epi8(a, a));
        // Lane j of `fours[q]` is a[4 q + j] four times over.
        let fours: [__m128i; 3] = [
            _mm_unpacklo_epi16(twice_lo, twice_lo),
            _mm_unpackhi_epi16(twice_lo, twice_lo),
            _mm_unpacklo_epi16(twice_hi, twice_hi),
        ];
        let mut acc = _mm_set1_epi8((255 - INF) as i8);
        macro_rules! meld {
            ($i:literal) => {
                if $i < M + 1 {
                    let none = _mm_shuffle_epi32::<{ (2 * $i % 4) * 0x55 }>(fours[2 * $i / 4]);
                    let pair = _mm_shuffle_epi32::<{ ((2 * $i + 1) % 4) * 0x55 }>(fours[(2 * $i + 1) / 4]);
                    let with_none = _mm_subs_epu8(_mm_slli_si128::<{ 2 * $i }>(b), none);
                    let with_pair = _mm_subs_epu8(_mm_slli_si128::<{ 2 * $i + 1 }>(b_none), pair);
                    acc = _mm_max_epu8(acc, _mm_max_epu8(with_none, with_pair));
                }
            };
        }
        meld!(0);
        meld!(1);
        meld!(2);
        meld!(3);
        meld!(4);
        meld!(5);
        _mm_storeu_si128(out.as_mut_ptr().cast(), _mm_xor_si128(acc, _mm_set1_epi8(-1)));
    }
    let mut d = [INF; TARGETS];
    d[..2 * (M + 1)].copy_from_slice(&out[..2 * (M + 1)]);
    d
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn convolve_fixed<const M: usize>(a: &Distances, b: &Distances) -> Distances {
    convolve_plain::<M>(a, b)
}

/// The min-plus product target by target.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
fn convolve_plain<const M: usize>(a: &Distances, b: &Distances) -> Distances {
    let mut out = [INF; TARGETS];
    for m in 0..=M {
        let (mut none, mut pair) = (INF, INF);
        for i in 0..=m {
            let (a0, a1, b0, b1) = (a[2 * i], a[2 * i + 1], b[2 * (m - i)], b[2 * (m - i) + 1]);
            none = none.min(a0.saturating_add(b0));
            pair = pair.min(a0.saturating_add(b1)).min(a1.saturating_add(b0));
        }
        out[2 * m] = none;
        out[2 * m + 1] = pair;
    }
    out
}

/// The least total distance for `melds` melds and one pair shared out over the groups.
pub fn combine(groups: &[Distances; 4], melds: usize) -> u8 {
    // The common sizes get loops the compiler can unroll.
    match melds {
        4 => combine_fixed::<4>(groups),
        5 => combine_fixed::<5>(groups),
        _ => {
            let left = convolve(&groups[0], &groups[1], melds);
            let right = convolve(&groups[2], &groups[3], melds);
            join(&left, &right, melds)
        }
    }
}

#[inline]
fn combine_fixed<const M: usize>(groups: &[Distances; 4]) -> u8 {
    let left = convolve(&groups[0], &groups[1], M);
    let right = convolve(&groups[2], &groups[3], M);
    join(&left, &right, M)
}

/// With the other groups combined into `others`, the least distance for `melds` melds and
/// a pair when one group has distances `g`.
#[inline]
pub fn join(g: &Distances, others: &Distances, melds: usize) -> u8 {
    let mut best = INF;
    for m in 0..=melds {
        best = best.min(g[m * 2].saturating_add(others[(melds - m) * 2 + 1]));
        best = best.min(g[m * 2 + 1].saturating_add(others[(melds - m) * 2]));
    }
    best
}

/// Melds still to be made in the concealed part.
#[inline]
fn melds_left(forms: &Forms, view: &View) -> usize {
    (forms.melds.saturating_sub(view.melds.count)) as usize
}

/// Standard form (melds + pair), any pair kind allowed by `pair_ok`.
pub fn standard_with(view: &View, melds: usize, pair_ok: u64) -> u8 {
    if pair_ok == tiles::ALL_KINDS && all_caps_four(&view.caps) {
        // The common case: every group reads the plain tables, with no caps to look at.
        let c = &view.counts;
        let groups = [
            plain_group(&c[0..9], true),
            plain_group(&c[9..18], true),
            plain_group(&c[18..27], true),
            plain_group(&c[27..34], false),
        ];
        return combine(&groups, melds);
    }
    let groups = [0, 1, 2, 3].map(|g| group_distances(view, g, pair_ok));
    combine(&groups, melds)
}

/// Whether every kind may hold four tiles (all kinds played, no melded copies, no wilds
/// standing past the copies): four words compared.
#[inline(always)]
pub fn all_caps_four(caps: &[u8; KINDS]) -> bool {
    const FOURS: u64 = 0x0404_0404_0404_0404;
    let word = |i: usize| u64::from_le_bytes(caps[i..i + 8].try_into().unwrap_or([0; 8]));
    (word(0) ^ FOURS) | (word(8) ^ FOURS) | (word(16) ^ FOURS) | (word(24) ^ FOURS) == 0
        && caps[32] == 4
        && caps[33] == 4
}

/// Bitmasks of kinds by how many tiles the hand holds and how many may stand for them:
/// `held[k]` has bit t set when `counts[t] > k`, `room[k]` when `caps[t] > k`.
#[derive(Clone, Copy, Debug)]
pub struct KindMasks {
    pub held: [u64; 4],
    pub room: [u64; 4],
}

impl KindMasks {
    pub fn of(view: &View) -> KindMasks {
        const ALL: u64 = tiles::ALL_KINDS;
        let room = if all_caps_four(&view.caps) {
            [ALL; 4]
        } else {
            // Caps pass 4 where wilds may stand beyond the copies; the masks read 0 to 4.
            threshold_masks(&view.caps.map(|c| c.min(4)))
        };
        KindMasks { held: threshold_masks(&view.counts), room }
    }

    /// The kinds held exactly `count` times with room for exactly `room` (each 0 to 4).
    pub fn alike(&self, count: usize, room: usize) -> u64 {
        let exactly = |levels: &[u64; 4], n: usize| {
            let at_least = if n == 0 { u64::MAX } else { levels[n - 1] };
            let above = if n < 4 { levels[n] } else { 0 };
            at_least & !above
        };
        exactly(&self.held, count) & exactly(&self.room, room)
    }
}

/// For values 0 to 4, bit t of `out[k]` is set when `values[t] > k`. Eight bytes at a
/// time: the three low bits of each byte give the thresholds, and one multiplication
/// gathers a bit from each byte.
#[inline]
fn threshold_masks(values: &[u8; KINDS]) -> [u64; 4] {
    const LOW: u64 = 0x0101_0101_0101_0101;
    let gather = |bits: u64| bits.wrapping_mul(0x0102_0408_1020_4080) >> 56;
    let mut out = [0u64; 4];
    for (i, chunk) in values.chunks(8).enumerate() {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        let (b0, b1, b2) = (w & LOW, w >> 1 & LOW, w >> 2 & LOW);
        let ge = [b0 | b1 | b2, b1 | b2, (b0 & b1) | b2, b2];
        for k in 0..4 {
            out[k] |= gather(ge[k]) << (8 * i);
        }
    }
    out
}

const HONOUR_MASK: u64 = 0x7F << 27;

/// Real tiles of the hand in kinds of `mask`, each counted at most `per` times and at
/// most its cap.
fn overlap_capped(view: &View, mask: u64, per: u8) -> u32 {
    tiles::mask_tiles(mask).map(|t| view.counts[t as usize].min(per).min(view.caps[t as usize]) as u32).sum()
}

/// Pair places for the pairs forms: each kind offers one place worth up to 2 tiles, and
/// a second one if four of a kind may be two pairs. Only how many places are worth 0, 1
/// or 2 matters, so they are kept as a histogram.
#[derive(Clone, Copy)]
struct PairSlots([u8; 3]);

impl PairSlots {
    /// Tiles kept by the best `n` places, if there are `n`.
    fn best(self, n: u8) -> Option<u8> {
        let [zero, one, two] = self.0;
        if zero + one + two < n {
            return None;
        }
        let twos = two.min(n);
        let ones = one.min(n - twos);
        Some(2 * twos + ones)
    }
}

/// Seven pairs: 14 minus the tiles the best seven pairs can keep.
pub fn seven_pairs(m: &KindMasks, four_as_two: bool) -> u8 {
    let count = |x: u64| x.count_ones() as u8;
    let (held, room) = (&m.held, &m.room);
    // First pair places (kinds with room for two), then second ones (room for four).
    let (mut slots, mut twos, mut ones) =
        (count(room[1]), count(held[1] & room[1]), count(held[0] & !held[1] & room[1]));
    if four_as_two {
        slots += count(room[3]);
        twos += count(held[3] & room[3]);
        ones += count(held[2] & !held[3] & room[3]);
    }
    PairSlots([slots - twos - ones, ones, twos]).best(7).map_or(INF, |kept| 14 - kept)
}

/// The kinds whose draw lowers [`seven_pairs`]: a kind's next copy turns a place worth one
/// into one worth two (always a gain while fewer than seven pairs are held), or opens a
/// place (a gain while fewer than seven places are worth anything).
pub fn seven_pairs_draws(m: &KindMasks, four_as_two: bool) -> u64 {
    let count = |x: u64| x.count_ones();
    let (held, room) = (&m.held, &m.room);
    let (mut twos, mut ones) = (count(held[1] & room[1]), count(held[0] & !held[1] & room[1]));
    // Kinds whose next copy completes a pair, and kinds whose next copy starts one.
    let (mut pairing, mut opening) = (held[0] & !held[1] & room[1], !held[0] & room[1]);
    if four_as_two {
        twos += count(held[3] & room[3]);
        ones += count(held[2] & !held[3] & room[3]);
        pairing |= held[2] & !held[3] & room[3];
        opening |= held[1] & !held[2] & room[3];
    }
    let mut out = 0;
    if twos < 7 {
        out |= pairing;
    }
    if twos + ones < 7 {
        out |= opening;
    }
    out
}

/// Eight pairs and a half (八对半): seven pairs plus a triplet of another kind.
///
/// The pair places are counted as for [`seven_pairs`]; the triplet's kind takes its own
/// places out, and what they were worth depends only on how many of the kind are held
/// and whether it has room for four. So the kinds with room for a triplet fall into at
/// most ten classes, each asked once, rather than each kind in turn.
pub fn eight_pairs_and_a_half(m: &KindMasks, four_as_two: bool) -> u8 {
    let count = |x: u64| x.count_ones() as u8;
    let (held, room) = (&m.held, &m.room);
    // First pair places (room for two) and second ones (room for four), as histograms of
    // what they keep: zero, one or two tiles.
    let second = if four_as_two { room[3] } else { 0 };
    let places = count(room[1]) + count(second);
    let twos = count(held[1] & room[1]) + count(held[3] & second);
    let ones = count(held[0] & !held[1] & room[1]) + count(held[2] & !held[3] & second);
    let mut best = INF;
    for c in 0..=4u8 {
        let holding = match c {
            0 => !held[0],
            4 => held[3],
            _ => held[c as usize - 1] & !held[c as usize],
        };
        let kinds = room[2] & holding;
        // Its first place kept min(c, 2); its second, if it has one, what is over two.
        let first = c.min(2);
        let over = c.saturating_sub(2).min(2);
        for with_second in [false, true] {
            let class = if with_second { kinds & second } else { kinds & !second };
            if class == 0 {
                continue;
            }
            let s = with_second as u8;
            let left = places - 1 - s;
            let twos = twos - (first == 2) as u8 - s * (over == 2) as u8;
            let ones = ones - (first == 1) as u8 - s * (over == 1) as u8;
            if let Some(pairs) = PairSlots([left - twos - ones, ones, twos]).best(7) {
                best = best.min(17 - c.min(3) - pairs);
            }
        }
    }
    best
}

/// Thirteen orphans: one of each orphan plus one more of any of them.
pub fn thirteen_orphans(view: &View) -> u8 {
    let (mut kinds, mut pair) = (0u8, false);
    for &t in &ORPHANS {
        let (c, cap) = (view.counts[t as usize], view.caps[t as usize]);
        if cap == 0 {
            return INF;
        }
        kinds += (c > 0) as u8;
        pair |= c >= 2 && cap >= 2;
    }
    14 - kinds - pair as u8
}

/// The kinds whose draw lowers [`thirteen_orphans`] of a hand at `now`: an orphan not
/// held, or, with no pair yet, a second copy of one held.
pub fn thirteen_orphans_draws(view: &View, m: &KindMasks, now: u8) -> u64 {
    let orphans = ORPHANS.iter().fold(0u64, |acc, &t| acc | 1 << t);
    if now >= INF || m.room[0] & orphans != orphans {
        return 0;
    }
    let pair = ORPHANS.iter().any(|&t| view.counts[t as usize] >= 2 && view.caps[t as usize] >= 2);
    let mut out = orphans & !m.held[0];
    if !pair {
        out |= orphans & m.held[0] & !m.held[1] & m.room[1];
    }
    out
}

/// The kinds of the six ways to give 147, 258 and 369 to the three suits.
pub const KNITTED: [[u8; 9]; 6] = {
    let mut out = [[0u8; 9]; 6];
    let mut p = 0;
    while p < 6 {
        let mut suit = 0;
        while suit < 3 {
            let mut r = 0;
            while r < 3 {
                out[p][suit * 3 + r] = suit as u8 * 9 + PERMS[p][suit] + 3 * r as u8;
                r += 1;
            }
            suit += 1;
        }
        p += 1;
    }
    out
};

/// Which of 147, 258 and 369 (0, 1, 2) each suit is given by each arrangement of
/// [`KNITTED`].
const PERMS: [[u8; 3]; 6] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];

/// For the nine bits of a suit, how many of its kinds 147, 258 and 369 they hold.
const RESIDUE_COUNTS: [[u8; 3]; 512] = {
    let mut out = [[0u8; 3]; 512];
    let mut bits = 0;
    while bits < 512 {
        let mut rank = 0;
        while rank < 9 {
            out[bits][rank % 3] += (bits >> rank & 1) as u8;
            rank += 1;
        }
        bits += 1;
    }
    out
};

/// How many kinds of `mask` each arrangement of [`KNITTED`] holds (a look-up a suit,
/// rather than a count of bits an arrangement).
#[inline]
pub fn knitted_counts(mask: u64) -> [u8; 6] {
    let suits = [0, 1, 2].map(|s| RESIDUE_COUNTS[(mask >> (9 * s) & 0x1FF) as usize]);
    PERMS.map(|p| suits[0][p[0] as usize] + suits[1][p[1] as usize] + suits[2][p[2] as usize])
}

/// The same as bitmasks over kinds.
pub const KNITTED_MASKS: [u64; 6] = {
    let mut out = [0u64; 6];
    let mut p = 0;
    while p < 6 {
        let mut i = 0;
        while i < 9 {
            out[p] |= 1 << KNITTED[p][i];
            i += 1;
        }
        p += 1;
    }
    out
};

/// Honours and knitted (全不靠): 14 different kinds from the 16 of one knitted
/// arrangement plus the seven honours.
pub fn honours_and_knitted(m: &KindMasks) -> u8 {
    let (once, playable) = (m.held[0], m.room[0]);
    let held = knitted_counts(once);
    let held_honours = (once & HONOUR_MASK).count_ones() as u8;
    // Every kind playable (the common case): every arrangement has room.
    let (room, room_honours) = if playable == tiles::ALL_KINDS {
        ([9; 6], 7)
    } else {
        (knitted_counts(playable), (playable & HONOUR_MASK).count_ones() as u8)
    };
    let mut best = INF;
    for p in 0..6 {
        if room[p] + room_honours >= 14 {
            best = best.min(14 - (held[p] + held_honours).min(14));
        }
    }
    best
}

/// The kinds whose draw lowers [`honours_and_knitted`] from `now`: a kind not held of an
/// arrangement at `now`.
pub fn honours_and_knitted_draws(m: &KindMasks, now: u8) -> u64 {
    let (once, playable) = (m.held[0], m.room[0]);
    KNITTED_MASKS
        .iter()
        .map(|&k| k | HONOUR_MASK)
        .filter(|&k| (playable & k).count_ones() >= 14 && 14 - ((once & k).count_ones() as u8).min(14) == now)
        .fold(0, |out, k| out | (k & playable & !once))
}

/// Knitted straight (组合龙), which takes the place of three melds, plus the remaining
/// meld(s) and a pair. Arrangements that cannot beat `bound` are not counted out: each
/// is first bounded below by its kinds not held, plus one where the tiles left beside it
/// hold no pair and one more where they hold no meld (a pung, or three kinds in a row)
/// while a meld is left to make; most arrangements of most hands stop there.
pub fn knitted_straight(view: &View, m: &KindMasks, melds: usize, pair_ok: u64, bound: u8) -> u8 {
    if melds < 3 {
        return INF;
    }
    // Kinds that may begin a chow: the first seven of each suit.
    const CHOW_STARTS: u64 = 0x7F | 0x7F << 9 | 0x7F << 18;
    // The straight's kinds held, by arrangement: when no arrangement comes below the
    // bound by them alone (most hands), nothing more is counted.
    let held = knitted_counts(m.held[0]);
    if 9 - held.iter().max().copied().unwrap_or(0) >= bound {
        return INF;
    }
    let room = if m.room[0] == tiles::ALL_KINDS { [9; 6] } else { knitted_counts(m.room[0]) };
    let mut best = bound;
    for (p, (ks, &k)) in KNITTED.iter().zip(KNITTED_MASKS.iter()).enumerate() {
        let lower = 9 - held[p];
        if lower >= best || room[p] < 9 {
            continue;
        }
        // The tiles left once the straight has taken one of each of its kinds held.
        let left = |level: usize| (m.held[level] & !k) | (m.held[level + 1] & k);
        let no_pair = left(1) & pair_ok == 0;
        let one = left(0);
        let no_meld = melds > 3 && left(2) == 0 && one & one >> 1 & one >> 2 & CHOW_STARTS == 0;
        if lower + no_pair as u8 + no_meld as u8 >= best {
            continue;
        }
        best = best.min(lower + standard_with(&knitted_rest(view, ks, melds), melds - 3, pair_ok));
    }
    if best >= bound {
        INF
    } else {
        best
    }
}

/// The knitted straight of arrangement `p` of [`KNITTED`] alone: its kinds not held plus
/// the rest's distance to the melds and pair left ([`knitted_straight`] is the least over
/// the six).
pub fn knitted_arrangement(view: &View, m: &KindMasks, p: usize, melds: usize, pair_ok: u64) -> u8 {
    let k = KNITTED_MASKS[p];
    if melds < 3 || m.room[0] & k != k {
        return INF;
    }
    let lower = 9 - (m.held[0] & k).count_ones() as u8;
    lower + standard_with(&knitted_rest(view, &KNITTED[p], melds), melds - 3, pair_ok)
}

/// The hand left for the melds and pair beside a knitted straight of kinds `ks` (one of
/// each held taken out), with `melds` melds left to make in all.
pub fn knitted_rest(view: &View, ks: &[u8; 9], melds: usize) -> View {
    let mut rest = view.clone();
    for &t in ks {
        let t = t as usize;
        rest.counts[t] = rest.counts[t].saturating_sub(1);
        // One meld and a pair hold at most three of a kind, within the cap that the
        // straight's tile leaves; only with more melds left does the cap bind.
        if melds - 3 > 1 {
            rest.caps[t] -= 1;
        }
    }
    rest
}

/// A hand of pungs and one pair, any pair kind.
///
/// Each pung a kind has room for keeps some of its real tiles (a kind's pungs in turn,
/// after the pair where the kind is the pair's; past four copies, wilds standing for
/// more, a kind may hold a pung and the pair, or two pungs). The tiles a kind's next pung
/// keeps never grow, so the best pungs are the ones keeping most, whichever kinds they
/// are of: only how many pungs keep 0, 1, 2 or 3 tiles matters. Those counts are summed
/// over the kinds once; each choice of the pair's kind then swaps its own kind's counts
/// for the ones it has as the pair's.
pub fn all_pungs(view: &View, melds: usize) -> u8 {
    /// How many pungs of a kind keep 0, 1, 2 and 3 of its `count` tiles, the first
    /// `used` places taken.
    fn pungs(count: usize, cap: usize, mut used: usize) -> [u32; 4] {
        let mut out = [0u32; 4];
        while used + 3 <= cap {
            out[count.min(used + 3) - count.min(used)] += 1;
            used += 3;
        }
        out
    }
    let mut all = [0u32; 4];
    for t in 0..KINDS {
        let p = pungs(view.counts[t] as usize, view.caps[t] as usize, 0);
        for k in 0..4 {
            all[k] += p[k];
        }
    }
    let mut best = INF;
    for p in (0..KINDS).filter(|&t| view.caps[t] >= 2) {
        let (count, cap) = (view.counts[p] as usize, view.caps[p] as usize);
        let (without, with) = (pungs(count, cap, 0), pungs(count, cap, 2));
        let here: [u32; 4] = std::array::from_fn(|k| all[k] - without[k] + with[k]);
        if (here.iter().sum::<u32>() as usize) < melds {
            continue;
        }
        // The best `melds` pungs: those keeping three first.
        let (mut left, mut kept) = (melds as u32, count.min(2) as u32);
        for k in (1..4).rev() {
            let n = here[k].min(left);
            kept += n * k as u32;
            left -= n;
        }
        best = best.min((3 * melds as u32 + 2 - kept) as u8);
    }
    best
}

/// A standard hand in suit `s` alone, any pair.
pub fn one_suit(view: &View, melds: usize, s: usize) -> u8 {
    group_distances(view, s, tiles::ALL_KINDS)[melds * 2 + 1]
}

/// 将将胡: any tiles, all of them 2, 5 or 8.
pub fn all_258(view: &View, melds: usize) -> u8 {
    let need = 3 * melds as u32 + 2;
    let avail: u32 = tiles::mask_tiles(KINDS_258).map(|t| view.caps[t as usize] as u32).sum();
    if avail < need {
        return INF;
    }
    (need - overlap_capped(view, KINDS_258, 4).min(need)) as u8
}

/// One way a hand can be complete, as the distance code counts it. Several checks can
/// share a [`Form`] (碰碰胡 and 清一色 are standard hands with a relaxed pair).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    Standard,
    AllPungs,
    OneSuit(u8),
    SevenPairs,
    EightPairsAndAHalf,
    ThirteenOrphans,
    HonoursAndKnitted,
    KnittedStraight,
    All258,
}

impl Check {
    /// Every check, cheapest and most common first.
    pub const ALL: [Check; 11] = [
        Check::Standard,
        Check::SevenPairs,
        Check::EightPairsAndAHalf,
        Check::ThirteenOrphans,
        Check::HonoursAndKnitted,
        Check::KnittedStraight,
        Check::AllPungs,
        Check::OneSuit(0),
        Check::OneSuit(1),
        Check::OneSuit(2),
        Check::All258,
    ];

    pub fn form(self) -> Form {
        match self {
            Check::Standard | Check::AllPungs | Check::OneSuit(_) => Form::Standard,
            Check::SevenPairs => Form::SevenPairs,
            Check::EightPairsAndAHalf => Form::EightPairsAndAHalf,
            Check::ThirteenOrphans => Form::ThirteenOrphans,
            Check::HonoursAndKnitted => Form::HonoursAndKnitted,
            Check::KnittedStraight => Form::KnittedStraight,
            Check::All258 => Form::All258,
        }
    }

    /// Whether the ruleset allows this check and the declared melds leave it open.
    pub fn open(self, forms: &Forms, view: &View) -> bool {
        let shape = view.melds;
        let concealed = shape.count == 0;
        let narrow = forms.pair_kinds != tiles::ALL_KINDS;
        let allowed = match self {
            Check::Standard => forms.standard,
            Check::AllPungs => forms.standard && narrow && forms.all_pungs_any_pair && !shape.chows,
            Check::OneSuit(s) => forms.standard && narrow && forms.one_suit_any_pair && shape.suits & !(1 << s) == 0,
            Check::SevenPairs => concealed && forms.seven_pairs,
            Check::EightPairsAndAHalf => concealed && forms.eight_pairs_and_a_half,
            Check::ThirteenOrphans => concealed && forms.thirteen_orphans,
            Check::HonoursAndKnitted => concealed && forms.honours_and_knitted,
            Check::KnittedStraight => shape.count <= 1 && forms.knitted_straight,
            Check::All258 => forms.all_258 && shape.all_258,
        };
        allowed && forms.fits(self.form())
    }

    /// Distance before wilds are spent. Only values below `bound` need be exact: a
    /// check may answer anything at or above `bound` once it knows it cannot beat it.
    pub fn distance(self, forms: &Forms, view: &View, bound: u8) -> u8 {
        self.distance_with(forms, view, bound, &mut None)
    }

    /// [`Check::distance`] given the view's kind masks (a caller trying many draws
    /// updates them by one bit a draw rather than counting them again).
    pub fn distance_masked(self, forms: &Forms, view: &View, bound: u8, masks: KindMasks) -> u8 {
        self.distance_with(forms, view, bound, &mut Some(masks))
    }

    /// Whether the distance reads no more of a hand than how many kinds are held how
    /// many times, with how much room (the pairs forms): then kinds alike in both lower
    /// it alike when drawn.
    fn reads_classes(self) -> bool {
        matches!(self, Check::SevenPairs | Check::EightPairsAndAHalf)
    }

    /// The draws among `candidates` after which the distance is below `bound`, each
    /// counted out (`masks` are the view's), or only some when `first` (the first found,
    /// with the kinds alike). A check that reads classes (see `reads_classes`) is asked
    /// once for each class of the candidates, not once for each kind.
    pub fn draws_below(
        self,
        forms: &Forms,
        view: &View,
        masks: KindMasks,
        bound: u8,
        candidates: u64,
        first: bool,
    ) -> u64 {
        let mut v = view.clone();
        let mut out = 0u64;
        let mut todo = candidates;
        while todo != 0 {
            let t = todo.trailing_zeros() as usize;
            let c = v.counts[t] as usize;
            // Past four copies the masks hold no level for the draw: counted afresh.
            let (alike, d) = if c < 4 {
                let alike = if self.reads_classes() { masks.alike(c, v.caps[t].min(4) as usize) } else { 0 };
                let mut drawn = masks;
                drawn.held[c] |= 1 << t;
                v.counts[t] += 1;
                (alike, self.distance_masked(forms, &v, bound, drawn))
            } else {
                v.counts[t] += 1;
                (0, self.distance(forms, &v, bound))
            };
            v.counts[t] -= 1;
            let class = (alike | 1 << t) & todo;
            todo &= !class;
            if d < bound {
                out |= class;
                if first {
                    break;
                }
            }
        }
        out
    }

    /// [`Check::distance`] with the kind masks of the view computed at most once across
    /// calls on the same view.
    fn distance_with(self, forms: &Forms, view: &View, bound: u8, masks: &mut Option<KindMasks>) -> u8 {
        let melds = melds_left(forms, view);
        let mut masks = || *masks.get_or_insert_with(|| KindMasks::of(view));
        match self {
            Check::Standard => standard_with(view, melds, forms.pair_kinds),
            Check::AllPungs => all_pungs(view, melds),
            Check::OneSuit(s) => one_suit(view, melds, s as usize),
            Check::SevenPairs => seven_pairs(&masks(), forms.four_as_two_pairs),
            Check::EightPairsAndAHalf => eight_pairs_and_a_half(&masks(), forms.four_as_two_pairs),
            Check::ThirteenOrphans => thirteen_orphans(view),
            Check::HonoursAndKnitted => honours_and_knitted(&masks()),
            Check::KnittedStraight => knitted_straight(view, &masks(), melds, forms.pair_kinds, bound),
            Check::All258 => all_258(view, melds),
        }
    }
}

/// Distance of each open check, before wilds are spent. `visit` returns true to stop.
pub fn form_distances(forms: &Forms, view: &View, mut visit: impl FnMut(Check, u8) -> bool) {
    let mut best = INF;
    let mut masks = None;
    for check in Check::ALL {
        if check.open(forms, view) {
            let d = check.distance_with(forms, view, best, &mut masks);
            best = best.min(d);
            if visit(check, d) {
                return;
            }
        }
    }
}

/// Distance to completion over all forms, wilds spent: 0 complete, 1 ready.
pub fn distance(forms: &Forms, view: &View) -> u8 {
    let mut best = INF;
    form_distances(forms, view, |_, d| {
        best = best.min(d);
        false
    });
    if best >= INF {
        return INF;
    }
    best.saturating_sub(view.wilds)
}

/// Whether the hand (3m+2 tiles) is complete: some form is at distance 0 once the
/// wilds are spent. Stops at the first such form.
pub fn is_complete(forms: &Forms, view: &View) -> bool {
    let plain = view.wilds == 0 && forms.pair_kinds == tiles::ALL_KINDS && view.caps.iter().all(|&c| c == 4);
    if plain {
        return Check::ALL.iter().any(|c| c.open(forms, view) && complete_plain(*c, forms, view));
    }
    let bound = view.wilds + 1;
    Check::ALL.iter().any(|c| c.open(forms, view) && c.distance(forms, view, bound) <= view.wilds)
}

/// The same question without wilds, caps or pair limits, where each form reduces to a
/// test on the counts (a group is complete exactly when its own distance is zero).
fn complete_plain(check: Check, forms: &Forms, view: &View) -> bool {
    let c = &view.counts;
    match check {
        Check::Standard => {
            let mut pairs = 0;
            for (g, &(lo, hi)) in GROUPS.iter().enumerate() {
                let counts = &c[lo..hi];
                let n: u8 = counts.iter().sum();
                match n % 3 {
                    1 => return false,
                    r => {
                        pairs += (r == 2) as u8;
                        let k = (n / 3) as usize * 2 + (r == 2) as usize;
                        if pairs > 1 || k >= TARGETS || plain_group(counts, g < 3)[k] != 0 {
                            return false;
                        }
                    }
                }
            }
            pairs == 1
        }
        Check::SevenPairs => c.iter().all(|&n| n % 2 == 0 && (n < 4 || forms.four_as_two_pairs)),
        Check::EightPairsAndAHalf => {
            c.iter().filter(|&&n| n == 3).count() == 1
                && c.iter().all(|&n| n != 1 && (n != 4 || forms.four_as_two_pairs))
        }
        Check::ThirteenOrphans => {
            ORPHANS.iter().all(|&t| c[t as usize] >= 1)
                && (0..KINDS as u8).all(|t| c[t as usize] == 0 || tiles::is_orphan(t))
        }
        Check::HonoursAndKnitted => c.iter().all(|&n| n <= 1) && check.distance(forms, view, 1) == 0,
        _ => check.distance(forms, view, 1) == 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hand::Hand;
    use crate::notation::{parse, Format};
    use crate::tiles::ALL_KINDS;

    fn view(s: &str) -> View {
        let h: Hand = parse(s, Format::Compact).unwrap().hand;
        View::new(&h, ALL_KINDS, 0, 0)
    }

    /// The dynamic programming of [`slow_group_dp`] target by target, as it was first
    /// written: the reference its rows are held to.
    /// States: chows begun one and two
    /// kinds back, then the (melds, pair) reached; each way to take tiles of a kind adds the
    /// same cost to every reached target, shifted by the melds and pair it makes.
    fn slow_group_dp_plain(counts: &[u8], caps: &[u8], pair_ok: u16, chows: bool) -> Distances {
        let n = counts.len();
        let mut dp = [[[INF; TARGETS]; 5]; 5];
        dp[0][0][0] = 0;
        for i in 0..n {
            let mut next = [[[INF; TARGETS]; 5]; 5];
            let can_start = chows && i + 2 < n;
            let cap = caps[i] as usize;
            // Four copies hold one pung or the pair; more (wilds standing past the copies)
            // may hold a pung and the pair, or two pungs.
            let most_pungs = if cap > 4 { 2 } else { 1 };
            let pairs = if pair_ok >> i & 1 == 1 { 1 } else { 0 };
            for a in 0..5usize {
                for b in 0..5 - a {
                    let row = dp[a][b];
                    if row.iter().all(|&x| x == INF) {
                        continue;
                    }
                    let max_new = if can_start { 4 - a - b } else { 0 };
                    for c in 0..=max_new {
                        for pung in 0..=most_pungs {
                            for pair in 0..=pairs {
                                let t = a + b + c + 3 * pung + 2 * pair;
                                if (cap <= 4 && pung + pair > 1) || t > cap || c + pung > MAX_MELDS {
                                    continue;
                                }
                                let add = (t as u8).saturating_sub(counts[i]);
                                let out = &mut next[c][a];
                                for m in 0..=MAX_MELDS - (c + pung) {
                                    for h in 0..2 - pair {
                                        let v = row[m * 2 + h];
                                        if v < INF {
                                            let k = (m + c + pung) * 2 + h + pair;
                                            out[k] = out[k].min(v + add);
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            dp = next;
        }
        dp[0][0]
    }

    #[test]
    fn rows_match_the_plain_programming() {
        let mut rng = crate::game::rng::Rng::new(1);
        let mut next = move || rng.next_u64();
        for _ in 0..20_000 {
            let (kinds, chows) = if next() % 4 == 0 { (7, false) } else { (9, true) };
            let caps: Vec<u8> = (0..kinds).map(|_| [0, 1, 2, 3, 4, 4, 4, 5, 6, 9][(next() % 10) as usize]).collect();
            let counts: Vec<u8> = caps.iter().map(|&c| (next() % (c.min(4) as u64 + 1)) as u8).collect();
            let pair_ok = if next() % 3 == 0 { next() as u16 } else { 0x1FF };
            let plain = slow_group_dp_plain(&counts, &caps, pair_ok, chows);
            assert_eq!(slow_group_dp(&counts, &caps, pair_ok, chows), plain, "{counts:?} {caps:?} {pair_ok:#x}");
        }
    }

    #[test]
    fn slow_matches_table_on_full_caps() {
        let t = tables::suit();
        let mut counts = [0u8; 9];
        // A deterministic sweep over many suit shapes.
        for i in 0..200_000usize {
            let mut x = i.wrapping_mul(2654435761) % 1953125;
            for c in counts.iter_mut() {
                *c = (x % 5) as u8;
                x /= 5;
            }
            if counts.iter().map(|&c| c as usize).sum::<usize>() > 17 {
                continue;
            }
            if let Some(d) = t.get(&counts) {
                assert_eq!(slow_group(&counts, &[4; 9], 0x1FF, true), *d, "{counts:?}");
            }
        }
        let h = tables::honours();
        for i in 0..78125usize {
            let mut x = i;
            let mut c7 = [0u8; 7];
            for c in c7.iter_mut() {
                *c = (x % 5) as u8;
                x /= 5;
            }
            if let Some(d) = h.get(&c7) {
                assert_eq!(slow_group(&c7, &[4; 7], 0x7F, false), *d);
            }
        }
    }

    /// The tables against the dynamic programming: `for_caps` of caps all past four
    /// (alike or mixed, up to twelve, past which no target of six melds and a pair holds
    /// more of a kind), or of a suit whose pair is a 2, 5 or 8, reads the same distances,
    /// on counts of every kind's copies (`step` 1: every counts).
    fn tables_match_slow(suit_step: usize, honours_step: usize) {
        let caps_tried: [[u8; 9]; 6] =
            [[4; 9], [5; 9], [6; 9], [12; 9], [5, 7, 9, 12, 5, 6, 8, 10, 11], [6, 6, 12, 7, 9, 6, 8, 6, 6]];
        for (kinds, chows, step) in [(9, true, suit_step), (7, false, honours_step)] {
            let all = (1u16 << kinds) - 1;
            for i in (0..tables::POW5[kinds]).step_by(step) {
                let mut x = i;
                let mut counts = [0u8; 9];
                for c in counts.iter_mut().take(kinds) {
                    *c = (x % 5) as u8;
                    x /= 5;
                }
                let counts = &counts[..kinds];
                for caps in &caps_tried {
                    let caps = &caps[..kinds];
                    for pairs in [all, tables::PAIRS_258] {
                        if let Some(t) = tables::for_caps(caps, chows, pairs) {
                            if let Some(d) = t.get(counts) {
                                assert_eq!(*d, slow_group_dp(counts, caps, pairs, chows), "{counts:?} {caps:?}");
                            }
                        } else {
                            let mixed = caps.contains(&5) && caps.iter().any(|&c| c > 5);
                            assert!(!chows && (mixed || pairs != all) || chows && pairs != all && caps[0] != 4);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn tables_match_slow_on_a_sweep() {
        tables_match_slow(97, 1);
    }

    /// Every counts of a suit (two minutes in a release build: `cargo test --release
    /// -- --ignored`).
    #[test]
    #[ignore]
    fn tables_match_slow_on_every_counts() {
        tables_match_slow(1, 1);
    }

    #[test]
    fn convolve_matches_the_plain_product() {
        let mut x = 11u64;
        let mut pick = || {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            [0u8, 1, 2, 3, 7, 14, 40, 98, INF][(x >> 33) as usize % 9]
        };
        for _ in 0..20_000 {
            let a: Distances = std::array::from_fn(|_| pick());
            let b: Distances = std::array::from_fn(|_| pick());
            assert_eq!(convolve_fixed::<0>(&a, &b), convolve_plain::<0>(&a, &b));
            assert_eq!(convolve_fixed::<1>(&a, &b), convolve_plain::<1>(&a, &b));
            assert_eq!(convolve_fixed::<3>(&a, &b), convolve_plain::<3>(&a, &b));
            assert_eq!(convolve_fixed::<4>(&a, &b), convolve_plain::<4>(&a, &b), "{a:?} {b:?}");
            assert_eq!(convolve_fixed::<5>(&a, &b), convolve_plain::<5>(&a, &b), "{a:?} {b:?}");
        }
    }

    #[test]
    fn forms_distances() {
        let mut f = Forms::standard(4);
        assert_eq!(distance(&f, &view("1112345678999m")), 1);
        assert_eq!(distance(&f, &view("11123456789999m")), 0);
        f.seven_pairs = true;
        assert_eq!(distance(&f, &view("1133557799m1122z")), 0);
        assert_eq!(distance(&f, &view("1111335577m112z")), 3);
        f.four_as_two_pairs = true;
        assert_eq!(distance(&f, &view("1111335577m112z")), 1);
        f.thirteen_orphans = true;
        assert_eq!(distance(&f, &view("19m19p19s1234567z")), 1);
        f.honours_and_knitted = true;
        assert_eq!(distance(&f, &view("147m258p369s12345z")), 0);
        f.knitted_straight = true;
        assert_eq!(distance(&f, &view("147m258p369s234m11z")), 0);
    }

    #[test]
    fn eight_pairs_by_classes_match_each_kind_in_turn() {
        // Each kind's pair places (one for room for two, a second for room for four) as
        // (worth, count); the triplet's kind tried one by one, its places taken out.
        fn plain(view: &View, four_as_two: bool) -> u8 {
            let places = |t: usize| {
                let (c, cap) = (view.counts[t], view.caps[t]);
                let mut p = Vec::new();
                if cap >= 2 {
                    p.push(c.min(2));
                    if four_as_two && cap >= 4 {
                        p.push(c.saturating_sub(2).min(2));
                    }
                }
                p
            };
            let mut best = INF;
            for t in (0..KINDS).filter(|&t| view.caps[t] >= 3) {
                let mut worth: Vec<u8> = (0..KINDS).filter(|&k| k != t).flat_map(places).collect();
                if worth.len() < 7 {
                    continue;
                }
                worth.sort_unstable_by(|a, b| b.cmp(a));
                let pairs: u8 = worth[..7].iter().sum();
                best = best.min(17 - view.counts[t].min(3) - pairs);
            }
            best
        }
        let mut x = 17u64;
        let mut next = |n: u64| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (x >> 33) % n
        };
        for round in 0..20_000 {
            let mut v = view("1m");
            for t in 0..KINDS {
                v.counts[t] = [0, 0, 0, 1, 1, 2, 2, 3, 4][next(9) as usize];
                // Caps as melds and wilds past the copies leave them.
                v.caps[t] = [0, 1, 2, 3, 4, 4, 4, 5, 6][next(9) as usize].max(v.counts[t]);
            }
            let fat = round % 2 == 0;
            assert_eq!(eight_pairs_and_a_half(&KindMasks::of(&v), fat), plain(&v, fat), "{v:?}");
        }
    }

    #[test]
    fn knitted_counts_are_the_bits_of_each_arrangement() {
        let mut x = 5u64;
        for _ in 0..10_000 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let mask = x >> 20 & ((1 << 34) - 1);
            let plain = KNITTED_MASKS.map(|k| (mask & k).count_ones() as u8);
            assert_eq!(knitted_counts(mask), plain, "{mask:#x}");
        }
    }

    #[test]
    fn threshold_masks_match_a_plain_loop() {
        let mut v = [0u8; KINDS];
        for i in 0..KINDS * 5 {
            v[i % KINDS] = ((i * 7) % 5) as u8;
            let masks = threshold_masks(&v);
            for k in 0..4 {
                let plain = (0..KINDS).fold(0u64, |m, t| m | ((v[t] as usize > k) as u64) << t);
                assert_eq!(masks[k], plain);
            }
        }
    }

    /// `all_pungs` against every choice of the pair's kind and of the pungs each kind
    /// holds (two where wilds stand past the copies), on views of six kinds.
    #[test]
    fn all_pungs_matches_every_choice_of_pungs() {
        fn best(counts: &[u8], caps: &[u8], t: usize, left: usize, pair: Option<usize>) -> Option<u32> {
            if t == counts.len() {
                return (left == 0 && pair.is_some()).then_some(0);
            }
            let mut out = None;
            for is_pair in [false, true] {
                if is_pair && pair.is_some() {
                    continue;
                }
                for k in 0..=left {
                    let used = 3 * k + 2 * is_pair as usize;
                    if used > caps[t] as usize {
                        break;
                    }
                    let here = (counts[t] as usize).min(used) as u32;
                    let pair = if is_pair { Some(t) } else { pair };
                    if let Some(rest) = best(counts, caps, t + 1, left - k, pair) {
                        out = Some(out.map_or(here + rest, |o: u32| o.max(here + rest)));
                    }
                }
            }
            out
        }
        let mut rng = crate::game::rng::Rng::new(2);
        let mut next = move || rng.next_u64();
        for _ in 0..5_000 {
            let kinds: Vec<usize> = (0..6).map(|_| (next() % 34) as usize).collect();
            let mut v = View { counts: [0; KINDS], wilds: 0, drawable: 0, caps: [0; KINDS], melds: Default::default() };
            for &t in &kinds {
                v.caps[t] = (next() % 9) as u8;
                v.counts[t] = (next() % (v.caps[t].min(4) as u64 + 1)) as u8;
            }
            let melds = 1 + (next() % 5) as usize;
            let (counts, caps): (Vec<u8>, Vec<u8>) = (0..KINDS).map(|t| (v.counts[t], v.caps[t])).unzip();
            let expected = best(&counts, &caps, 0, melds, None).map_or(INF, |kept| (3 * melds as u32 + 2 - kept) as u8);
            assert_eq!(all_pungs(&v, melds), expected, "{counts:?} {caps:?} {melds}");
        }
    }

    #[test]
    fn caps_from_melds_block_a_fifth_tile() {
        // [111m] melded, 1m + 456p789p234s single: the only wait, 1m, is a fifth copy.
        let h = parse("1m456p789p234s[111m]", Format::Compact).unwrap().hand;
        let v = View::new(&h, ALL_KINDS, 0, 0);
        assert_eq!(distance(&Forms::standard(4), &v), 2);
    }
}
