//! Shapes of tile counts: every arrangement of a hand into sets and a pair, and which
//! kinds complete a hand in any MCR form (its waits, for the wait fans). Counts may
//! exceed four in the wait search: a wait is judged by shape, so a kind whose four copies
//! the hand holds still counts (public case 1234444678m456p + 1m).
//!
//! A suit splits into sets in one way that needs no search: the chows starting at each
//! rank can be taken as few as possible (three equal chows are three pungs), so at each
//! rank what the earlier chows leave is, modulo 3, the number of chows starting there.
//! The pair's rank is fixed modulo 3 by the sum of ranks (every set adds a multiple of
//! 3), which leaves at most three places to try it.

use super::fans::{Set, SetKind, Sets};
use crate::distance::{GROUPS, KNITTED_MASKS};
use crate::tiles::{Counts, Tile, ORPHANS};

const HONOURS: u64 = 0x7F << 27;

/// The thirteen orphans' kinds.
pub const ORPHAN_MASK: u64 = {
    let mut m = 0u64;
    let mut i = 0;
    while i < ORPHANS.len() {
        m |= 1 << ORPHANS[i];
        i += 1;
    }
    m
};

/// Whether the ranks of one suit split into chows and pungs only.
fn suit_sets(c: &[u8]) -> bool {
    suit_sets_but_pair(c, usize::MAX)
}

/// Whether the ranks of one suit, less a pair at rank `pair`, split into sets only.
fn suit_sets_but_pair(c: &[u8], pair: usize) -> bool {
    // Chows begun one and two ranks before, which still need a tile of this rank.
    let (mut one, mut two) = (0u8, 0u8);
    for (i, &n) in c.iter().enumerate() {
        let n = if i == pair { n - 2 } else { n };
        let Some(left) = n.checked_sub(one + two) else {
            return false;
        };
        let start = left % 3;
        if start > 0 && i + 2 >= c.len() {
            return false;
        }
        (two, one) = (one, start);
    }
    true
}

/// Whether the ranks of one suit split into sets and, when `pair`, one pair.
fn suit_splits(c: &[u8], pair: bool) -> bool {
    if !pair {
        return suit_sets(c);
    }
    let weighted: usize = c.iter().enumerate().map(|(i, &n)| i * n as usize).sum();
    (2 * weighted % 3..c.len()).step_by(3).any(|j| c[j] >= 2 && suit_sets_but_pair(c, j))
}

/// Whether honours split into pungs and, when `pair`, one pair.
fn honours_split(c: &[u8], pair: bool) -> bool {
    let mut pairs = 0;
    for &n in c {
        match n {
            0 | 3 => {}
            2 => pairs += 1,
            _ => return false,
        }
    }
    pairs == pair as u32
}

/// Sizes of the four groups (the suits and the honours) modulo 3.
fn residues(c: &Counts) -> [u8; 4] {
    sizes(c).map(|n| (n % 3) as u8)
}

/// Sizes of the four groups (the suits and the honours), eight counts at a time.
fn sizes(c: &Counts) -> [u32; 4] {
    // Every byte's sum lands in the top byte (counts below 16, so no byte carries).
    let sum = |w: u64| (w.wrapping_mul(LOW) >> 56) as u32;
    [
        sum(word(c, 0)) + c[8] as u32,
        sum(word(c, 9)) + c[17] as u32,
        sum(word(c, 18)) + c[26] as u32,
        sum(word(c, 26) >> 8),
    ]
}

const LOW: u64 = 0x0101_0101_0101_0101;

/// Counts `at..at + 8` as the bytes of a word, the first lowest.
fn word(c: &Counts, at: usize) -> u64 {
    let mut b = [0u8; 8];
    if let Some(bytes) = c.get(at..at + 8) {
        b.copy_from_slice(bytes);
    }
    u64::from_le_bytes(b)
}

/// Whether residues allow sets and exactly one pair: one group of size 2 modulo 3, the
/// others multiples of 3.
fn one_pair(r: [u8; 4]) -> bool {
    r.iter().filter(|&&x| x == 2).count() == 1 && !r.contains(&1)
}

/// Whether `part`, the counts of group `g` (a suit, or the honours) whose size is
/// `residue` modulo 3, splits into sets, with one pair when the residue is 2.
fn part_splits(part: &[u8], g: usize, residue: u8) -> bool {
    let pair = match residue {
        0 => false,
        2 => true,
        _ => return false,
    };
    if g < 3 {
        suit_complete(part).unwrap_or_else(|| suit_splits(part, pair))
    } else {
        honours_split(part, pair)
    }
}

/// Whether one suit's counts split into sets and, when their sum is 2 modulo 3, one pair:
/// a look-up of every such suit of at most four sets and a pair, counts at most four.
/// `None` for counts beyond those (a fifth copy, judged by shape).
fn suit_complete(c: &[u8]) -> Option<bool> {
    suit_key(c).map(|(key, _)| complete_key(key))
}

/// `Σ count × 5^rank` of one suit's counts, and its number of tiles, when they are in
/// the range of [`complete_suits`].
fn suit_key(c: &[u8]) -> Option<(usize, usize)> {
    let mut key = 0usize;
    let mut tiles = 0;
    for &n in c.iter().rev() {
        if n > 4 {
            return None;
        }
        key = key * 5 + n as usize;
        tiles += n as usize;
    }
    (tiles <= 14).then_some((key, tiles))
}

/// The counts of one suit from its look-up key (see [`suit_key`]).
fn suit_of_key(key: usize) -> [u8; 9] {
    let mut c = [0u8; 9];
    let mut k = key;
    for n in c.iter_mut() {
        *n = (k % 5) as u8;
        k /= 5;
    }
    c
}

/// Whether the suit of look-up key `key` is complete.
fn complete_key(key: usize) -> bool {
    complete_suits().get(key / 64).is_some_and(|w| w >> (key % 64) & 1 == 1)
}

const POW5: [usize; 9] = [1, 5, 25, 125, 625, 3125, 15625, 78125, 390625];

/// Bit `Σ count × 5^rank` is set for every complete suit: up to four sets and at most one
/// pair, no count above four (21,743 of the 5^9 suits; a 244 KB bit table, built in a few
/// milliseconds by listing the sets).
fn complete_suits() -> &'static [u64] {
    static TABLE: std::sync::OnceLock<Vec<u64>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        // The 16 sets of a suit: pungs of 1-9, chows from 1-7, as counts.
        let sets: Vec<[u8; 9]> = (0..9)
            .map(|r| {
                let mut c = [0u8; 9];
                c[r] = 3;
                c
            })
            .chain((0..7).map(|r| {
                let mut c = [0u8; 9];
                c[r..r + 3].iter_mut().for_each(|x| *x = 1);
                c
            }))
            .collect();
        let mut table = vec![0u64; 5usize.pow(9).div_ceil(64)];
        fn mark(table: &mut [u64], c: &[u8; 9]) {
            if c.iter().all(|&n| n <= 4) {
                let key = c.iter().rev().fold(0usize, |k, &n| k * 5 + n as usize);
                if let Some(w) = table.get_mut(key / 64) {
                    *w |= 1 << (key % 64);
                }
            }
        }
        fn add(table: &mut [u64], sets: &[[u8; 9]], c: &mut [u8; 9], from: usize, left: usize) {
            mark(table, c);
            for pair in 0..9 {
                c[pair] += 2;
                mark(table, c);
                c[pair] -= 2;
            }
            if left == 0 {
                return;
            }
            for (i, set) in sets.iter().enumerate().skip(from) {
                c.iter_mut().zip(set).for_each(|(x, y)| *x += y);
                add(table, sets, c, i, left - 1);
                c.iter_mut().zip(set).for_each(|(x, y)| *x -= y);
            }
        }
        add(&mut table, &sets, &mut [0; 9], 0, 4);
        table
    })
}

/// Whether group `g` of `c` splits into sets, with one pair when its size is 2 modulo 3.
fn group_splits(c: &Counts, g: usize) -> bool {
    let part = &c[GROUPS[g].0..GROUPS[g].1];
    part_splits(part, g, (part.iter().map(|&n| n as u32).sum::<u32>() % 3) as u8)
}

/// Every way to split `counts` into `sets` sets and one pair (the standard form), each
/// given to `emit` once, its sets in no particular order. Within a suit the chows follow
/// from the counts except where three equal chows could be three pungs, and the pair's
/// rank is fixed modulo 3: little is tried.
pub fn arrangements(counts: &Counts, sets: usize, emit: &mut impl FnMut(&Sets)) {
    let total: usize = counts.iter().map(|&n| n as usize).sum();
    let r = residues(counts);
    if total != 3 * sets + 2 || !one_pair(r) {
        return;
    }
    group_ways(counts, 0, r, &mut Sets::new(), &mut |acc| emit(acc));
}

fn plain(kind: SetKind, tile: Tile) -> Set {
    Set { kind, tile, melded: false, declared: false }
}

/// The ways of group `g` onwards, each completed arrangement given to `emit`.
fn group_ways<F: FnMut(&mut Sets)>(counts: &Counts, g: usize, r: [u8; 4], acc: &mut Sets, emit: &mut F) {
    let Some(&(lo, hi)) = GROUPS.get(g) else {
        emit(acc);
        return;
    };
    let mut next = |acc: &mut Sets| group_ways(counts, g + 1, r, acc, emit);
    if g == 3 {
        // Honours: pungs, and the pair when this group holds it.
        let mark = acc.len();
        let mut pairs = 0;
        for (i, &n) in counts[lo..hi].iter().enumerate() {
            let kind = match n {
                0 => continue,
                2 => {
                    pairs += 1;
                    SetKind::Pair
                }
                3 => SetKind::Pung,
                _ => {
                    acc.truncate(mark);
                    return;
                }
            };
            acc.push(plain(kind, (lo + i) as Tile));
        }
        if pairs == (r[3] == 2) as usize {
            next(acc);
        }
        acc.truncate(mark);
        return;
    }
    let mut c = [0u8; 9];
    c.copy_from_slice(&counts[lo..hi]);
    if c == [0; 9] {
        next(acc);
        return;
    }
    // A suit of the usual range is looked up; beyond it (a fifth copy, more than 14
    // tiles) it is walked.
    if let Some((key, _)) = suit_key(&c) {
        let (ways, n) = ways_of(key);
        for &way in &ways[..n] {
            let mark = acc.len();
            push_way(way, lo as Tile, acc);
            next(acc);
            acc.truncate(mark);
        }
        return;
    }
    suit_splits_walked(&mut c, r[g], lo as Tile, acc, &mut next);
}

/// The ways of one suit (`base` its first tile), by walking its ranks: with a pair when
/// its size is 2 modulo 3 (`residue`), at each rank it may stand on.
fn suit_splits_walked(c: &mut [u8; 9], residue: u8, base: Tile, acc: &mut Sets, next: &mut impl FnMut(&mut Sets)) {
    let lo = base as usize;
    if residue == 2 {
        let weighted: usize = c.iter().enumerate().map(|(i, &n)| i * n as usize).sum();
        for j in (2 * weighted % 3..9).step_by(3) {
            if c[j] >= 2 {
                c[j] -= 2;
                acc.push(plain(SetKind::Pair, (lo + j) as Tile));
                suit_ways(c, 0, 0, 0, base, acc, next);
                acc.pop();
                c[j] += 2;
            }
        }
    } else {
        suit_ways(c, 0, 0, 0, base, acc, next);
    }
}

/// Every way complete suits (see [`complete_suits`]) split into sets and their pair,
/// each found once by walking it and then looked up by its key: a walk branches on the
/// counts at every rank, which the processor cannot foresee from one hand to the next.
/// The ways keep the walk's order. Each thread fills its own as suits are met (see
/// [`ways_of`]), so that no call waits for all 21,743 of them to be walked.
struct SplitSuits {
    /// Open addressing by [`SplitSuits::slot`]: `(key + 1, first way << 4 | ways)`,
    /// `(0, 0)` where empty.
    slots: Vec<(u32, u32)>,
    /// Each way packed as [`pack_way`] does.
    ways: Vec<u32>,
}

const SPLIT_SLOTS: usize = 1 << 15;

impl SplitSuits {
    fn slot(key: usize) -> usize {
        ((key as u32).wrapping_mul(0x9E37_79B1) >> (32 - 15)) as usize
    }

    /// The ways of the suit of key `key`, if it has been walked.
    fn find(&self, key: usize) -> Option<&[u32]> {
        let mut i = Self::slot(key);
        loop {
            let &(k, v) = self.slots.get(i)?;
            if k == 0 {
                return None;
            }
            if k as usize == key + 1 {
                let first = (v >> 4) as usize;
                return self.ways.get(first..first + (v & 15) as usize);
            }
            i = (i + 1) % SPLIT_SLOTS;
        }
    }

    /// Records the ways of the suit of key `key` (a complete suit: at most 21,743 keys,
    /// which the slots hold).
    fn insert(&mut self, key: usize, ways: &[u32]) {
        let first = self.ways.len();
        self.ways.extend_from_slice(ways);
        let mut i = Self::slot(key);
        while self.slots[i].0 != 0 {
            i = (i + 1) % SPLIT_SLOTS;
        }
        self.slots[i] = (key as u32 + 1, (first as u32) << 4 | ways.len() as u32);
    }
}

/// Most ways one complete suit splits (the count has four bits).
const MOST_WAYS: usize = 15;

/// The ways the suit of key `key` splits into sets and its pair (none when it is not
/// complete), packed as [`pack_way`] does and copied out, so that the caller may ask
/// again while it goes through them.
fn ways_of(key: usize) -> ([u32; MOST_WAYS], usize) {
    thread_local! {
        static WALKED: std::cell::RefCell<SplitSuits> =
            std::cell::RefCell::new(SplitSuits { slots: vec![(0, 0); SPLIT_SLOTS], ways: Vec::new() });
    }
    let mut out = [0u32; MOST_WAYS];
    if !complete_key(key) {
        return (out, 0);
    }
    WALKED.with(|w| {
        let mut table = w.borrow_mut();
        if let Some(ways) = table.find(key) {
            out[..ways.len()].copy_from_slice(ways);
            return (out, ways.len());
        }
        let mut c = suit_of_key(key);
        let residue = (c.iter().map(|&n| n as u32).sum::<u32>() % 3) as u8;
        let mut ways = Vec::new();
        suit_splits_walked(&mut c, residue, 0, &mut Sets::new(), &mut |acc| ways.push(pack_way(acc, 0)));
        table.insert(key, &ways);
        let n = ways.len().min(MOST_WAYS);
        out[..n].copy_from_slice(&ways[..n]);
        (out, n)
    })
}

/// A suit's way packed in 32 bits: up to five sets of 6 bits each, the kind (chow 0,
/// pung 1, pair 2; 3 ends the list) above the rank.
fn pack_way(sets: &[Set], base: Tile) -> u32 {
    let mut way = u32::MAX;
    for (i, x) in sets.iter().enumerate().take(5) {
        let kind = match x.kind {
            SetKind::Chow => 0,
            SetKind::Pung => 1,
            _ => 2,
        };
        way &= !(63 << (6 * i));
        way |= (kind << 4 | (x.tile - base) as u32) << (6 * i);
    }
    way
}

/// Adds a packed way's sets, of the suit beginning at `base`.
fn push_way(way: u32, base: Tile, acc: &mut Sets) {
    const KINDS: [SetKind; 3] = [SetKind::Chow, SetKind::Pung, SetKind::Pair];
    let mut w = way;
    for _ in 0..5 {
        let Some(&kind) = KINDS.get((w >> 4 & 3) as usize) else { break };
        acc.push(plain(kind, base + (w & 15) as Tile));
        w >>= 6;
    }
}

/// The ways the ranks `i..` of one suit split into sets, given the chows begun one and
/// two ranks before. Ranks are walked in a loop; only where three more chows could
/// stand for three pungs does the walk branch.
fn suit_ways(
    c: &[u8; 9],
    mut i: usize,
    mut one: u8,
    mut two: u8,
    base: Tile,
    acc: &mut Sets,
    k: &mut impl FnMut(&mut Sets),
) {
    let mark = acc.len();
    while let Some(&n) = c.get(i) {
        let Some(left) = n.checked_sub(one + two) else {
            acc.truncate(mark);
            return;
        };
        let start = left % 3;
        let fits = i + 2 < c.len();
        if start > 0 && !fits {
            acc.truncate(mark);
            return;
        }
        let tile = base + i as Tile;
        if start + 3 <= left && fits {
            let branch = acc.len();
            for _ in 0..start + 3 {
                acc.push(plain(SetKind::Chow, tile));
            }
            suit_ways(c, i + 1, start + 3, one, base, acc, k);
            acc.truncate(branch);
        }
        for _ in 0..(left - start) / 3 {
            acc.push(plain(SetKind::Pung, tile));
        }
        for _ in 0..start {
            acc.push(plain(SetKind::Chow, tile));
        }
        (two, one) = (one, start);
        i += 1;
    }
    k(acc);
    acc.truncate(mark);
}

/// Kinds that could join a set or pair with `present`: held honours, and suited kinds
/// within two ranks of a held kind of their suit.
fn near(present: u64) -> u64 {
    let mut out = present & HONOURS;
    for s in 0..3 {
        let suit = (present >> (9 * s)) & 0x1FF;
        out |= ((suit | suit << 1 | suit << 2 | suit >> 1 | suit >> 2) & 0x1FF) << (9 * s);
    }
    out
}

/// `c` less one of each of the nine kinds of the knitted straight `mask` (all held).
fn without_knitted(c: &Counts, mask: u64) -> Counts {
    let mut rest = *c;
    for (t, r) in rest.iter_mut().enumerate().take(27) {
        *r -= (mask >> t & 1) as u8;
    }
    rest
}

/// Whether `c` (the concealed part with the winning tile: `need` sets and a pair), less
/// the knitted straight (组合龙) `mask`, all of whose kinds it holds, is `need - 3` sets
/// and a pair, by shape.
fn knitted_complete(c: &Counts, mask: u64, need: usize) -> bool {
    let rest = without_knitted(c, mask);
    one_pair(residues(&rest))
        && (0..4).all(|g| group_splits(&rest, g))
        && rest.iter().map(|&n| n as usize).sum::<usize>() == 3 * (need - 3) + 2
}

/// Masks of the kinds held at least once, at least twice, and an odd number of times
/// (counts below 16), eight kinds at a time: one multiplication gathers a bit from each
/// byte.
pub fn kind_masks(c: &Counts) -> (u64, u64, u64) {
    let gather = |bits: u64| bits.wrapping_mul(0x0102_0408_1020_4080) >> 56;
    let (mut present, mut multi, mut odd) = (0, 0, 0);
    let last = u64::from(c[32]) | u64::from(c[33]) << 8;
    for (i, w) in [word(c, 0), word(c, 8), word(c, 16), word(c, 24), last].into_iter().enumerate() {
        let (one, high) = (w & LOW, (w >> 1 | w >> 2 | w >> 3) & LOW);
        present |= gather(one | high) << (8 * i);
        multi |= gather(high) << (8 * i);
        odd |= gather(one) << (8 * i);
    }
    (present, multi, odd)
}

/// The masks of [`kind_masks`] once a copy of `t` is taken away, `had` being its
/// count before.
pub fn less_one((present, multi, odd): (u64, u64, u64), t: Tile, had: u8) -> (u64, u64, u64) {
    let bit = 1u64 << t;
    let gone = |left: u8| if had == left + 1 { bit } else { 0 };
    (present & !gone(0), multi & !gone(1), odd ^ bit)
}

/// The number of kinds held exactly four times (counts below 16), eight kinds at a time.
pub fn fours(c: &Counts) -> u32 {
    let last = u64::from(c[32]) | u64::from(c[33]) << 8;
    [word(c, 0), word(c, 8), word(c, 16), word(c, 24), last]
        .into_iter()
        .map(|w| (w >> 2 & !(w | w >> 1 | w >> 3) & LOW).count_ones())
        .sum()
}

/// The kinds that complete `before` (a concealed part that needs `need` sets and a
/// pair) in any MCR form, by shape, as a mask. `known` holds kinds already known to
/// complete it, `standard` one of them that completes it in the standard form, if any;
/// the search stops once `stop` are found. The special forms count only for a hand
/// without melds (`concealed_hand`).
pub fn waits(before: &Counts, need: usize, concealed_hand: bool, stop: u32, known: u64, standard: Option<Tile>) -> u64 {
    waits_masked(before, kind_masks(before), need, concealed_hand, stop, known, standard)
}

/// [`waits`], given the [`kind_masks`] of `before`.
pub fn waits_masked(
    before: &Counts,
    (present, multi, odd): (u64, u64, u64),
    need: usize,
    concealed_hand: bool,
    stop: u32,
    known: u64,
    standard: Option<Tile>,
) -> u64 {
    let mut found = known;
    if concealed_hand {
        // 七对 (four of a kind as two pairs), 十三幺, 全不靠 / 七星不靠.
        if odd.count_ones() == 1 {
            found |= odd;
        }
        if present & !ORPHAN_MASK == 0 {
            if present == ORPHAN_MASK {
                found |= ORPHAN_MASK;
            } else if present.count_ones() == 12 {
                found |= ORPHAN_MASK & !present;
            }
        }
        if multi == 0 {
            for mask in KNITTED_MASKS {
                let allowed = mask | HONOURS;
                if present & !allowed == 0 {
                    found |= allowed & !present;
                }
            }
        }
    }
    // The standard form: a tile changes only the group it joins, which must leave one
    // group (of size 2 modulo 3) to hold the pair, and the others must split as they are.
    // Whether a group splits as it is is found when first needed; an empty group does,
    // and so does every group but the tile's when `standard` completes the hand.
    let r = residues(before);
    let mut ok: [Option<bool>; 4] = std::array::from_fn(|g| {
        let (lo, hi) = GROUPS[g];
        let beside = standard.is_some_and(|w| !(lo..hi).contains(&(w as usize)));
        (beside || present >> lo & ((1 << (hi - lo)) - 1) == 0).then_some(true)
    });
    let near = near(present);
    for (g, &(lo, hi)) in GROUPS.iter().enumerate() {
        let mut after = r;
        after[g] = (after[g] + 1) % 3;
        let mut candidates = (near & !found) >> lo & ((1 << (hi - lo)) - 1);
        if candidates == 0 || !one_pair(after) {
            continue;
        }
        let others_split = (0..4)
            .filter(|&h| h != g)
            .all(|h| *ok[h].get_or_insert_with(|| part_splits(&before[GROUPS[h].0..GROUPS[h].1], h, r[h])));
        if !others_split {
            continue;
        }
        let mut part = [0u8; 9];
        part[..hi - lo].copy_from_slice(&before[lo..hi]);
        // A suit's key is found once: each candidate adds one to it.
        let key = if g < 3 { suit_key(&part).filter(|&(_, tiles)| tiles < 14) } else { None };
        while candidates != 0 && found.count_ones() < stop {
            let i = candidates.trailing_zeros() as usize;
            candidates &= candidates - 1;
            let complete = match key {
                Some((key, _)) if part[i] < 4 => complete_key(key + POW5[i]),
                _ => {
                    part[i] += 1;
                    let ok = part_splits(&part[..hi - lo], g, after[g]);
                    part[i] -= 1;
                    ok
                }
            };
            if complete {
                found |= 1 << (lo + i);
            }
        }
    }
    // The knitted straight (组合龙) with sets. With all nine of its kinds held, the rest
    // waits in the standard form; with eight, only the missing kind can complete it.
    if need >= 3 {
        for mask in KNITTED_MASKS {
            if found.count_ones() >= stop {
                break;
            }
            let missing = mask & !present;
            match missing.count_ones() {
                0 => found = waits(&without_knitted(before, mask), need - 3, false, stop, found, None),
                1 if found & missing == 0 => {
                    let mut c = *before;
                    c[missing.trailing_zeros() as usize] += 1;
                    if knitted_complete(&c, mask, need) {
                        found |= missing;
                    }
                }
                _ => {}
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{parse, Format};
    use crate::tiles::name;
    use crate::tiles::KINDS;

    /// Whether `c` splits into `sets` sets and one pair, by a plain search.
    fn splits_into(c: &mut Counts, sets: usize, pair: bool) -> bool {
        let Some(k) = (0..KINDS).find(|&t| c[t] > 0) else {
            return sets == 0 && pair;
        };
        let try_take = |c: &mut Counts, take: &[usize], sets: usize, pair: bool| {
            if take.iter().any(|&t| c[t] == 0) {
                return false;
            }
            take.iter().for_each(|&t| c[t] -= 1);
            let ok = splits_into(c, sets, pair);
            take.iter().for_each(|&t| c[t] += 1);
            ok
        };
        (!pair && c[k] >= 2 && try_take(c, &[k, k], sets, true))
            || (sets > 0 && c[k] >= 3 && try_take(c, &[k, k, k], sets - 1, pair))
            || (sets > 0 && k < 27 && k % 9 <= 6 && try_take(c, &[k, k + 1, k + 2], sets - 1, pair))
    }

    /// Every MCR form by the definitions, one kind at a time: the reference for `waits`.
    fn complete(c: &Counts, need: usize, concealed_hand: bool) -> bool {
        if splits_into(&mut c.clone(), need, false) {
            return true;
        }
        if need >= 3
            && KNITTED_MASKS.iter().any(|&m| {
                let mut rest = *c;
                (0..27).filter(|t| m >> t & 1 == 1).all(|t| {
                    let had = rest[t] > 0;
                    rest[t] = rest[t].saturating_sub(1);
                    had
                }) && splits_into(&mut rest, need - 3, false)
            })
        {
            return true;
        }
        if !concealed_hand {
            return false;
        }
        let kinds = (0..KINDS).filter(|&t| c[t] > 0);
        c.iter().all(|&n| n % 2 == 0)
            || (ORPHANS.iter().all(|&t| c[t as usize] > 0) && kinds.clone().all(|t| ORPHANS.contains(&(t as u8))))
            || (c.iter().all(|&n| n <= 1)
                && KNITTED_MASKS.iter().any(|&m| kinds.clone().all(|t| t >= 27 || m >> t & 1 == 1)))
    }

    fn reference(before: &Counts, need: usize, concealed_hand: bool) -> u64 {
        (0..KINDS).fold(0, |m, t| {
            let mut c = *before;
            c[t] += 1;
            m | (complete(&c, need, concealed_hand) as u64) << t
        })
    }

    /// A small deterministic generator (xorshift): `next(n)` is below `n`.
    fn numbers(mut seed: u64) -> impl FnMut(u64) -> u64 {
        move |n| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        }
    }

    fn names(m: u64) -> Vec<String> {
        (0..KINDS).filter(|&t| m >> t & 1 == 1).map(|t| name(t as u8)).collect()
    }

    fn check(hand: &str) -> Vec<String> {
        let h = parse(hand, Format::Compact).unwrap().hand;
        let need = 4 - h.melds.len();
        let got = waits(&h.concealed, need, h.melds.is_empty(), 34, 0, None);
        assert_eq!(names(got), names(reference(&h.concealed, need, h.melds.is_empty())), "{hand}");
        names(got)
    }

    #[test]
    fn kind_masks_fours_and_less_one_match_a_plain_loop() {
        let mut seed = 7u64;
        for _ in 0..10_000 {
            let mut c = [0u8; KINDS];
            for n in c.iter_mut() {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                *n = ((seed >> 33) % 16) as u8 * ((seed >> 40) % 2) as u8;
            }
            let plain = c.iter().enumerate().fold((0u64, 0u64, 0u64), |(p, m, o), (t, &n)| {
                (p | ((n > 0) as u64) << t, m | ((n > 1) as u64) << t, o | ((n & 1) as u64) << t)
            });
            assert_eq!(kind_masks(&c), plain, "{c:?}");
            assert_eq!(fours(&c), c.iter().filter(|&&n| n == 4).count() as u32, "{c:?}");
            for t in (0..KINDS).filter(|&t| c[t] > 0) {
                let mut less = c;
                less[t] -= 1;
                assert_eq!(less_one(plain, t as Tile, c[t]), kind_masks(&less), "{c:?} less {t}");
            }
            let sums: Vec<u32> = GROUPS.iter().map(|&(lo, hi)| c[lo..hi].iter().map(|&n| n as u32).sum()).collect();
            assert_eq!(sizes(&c).to_vec(), sums);
        }
    }

    #[test]
    fn the_suit_table_holds_what_its_comment_says() {
        let bits: u32 = complete_suits().iter().map(|w| w.count_ones()).sum();
        assert_eq!(bits, 21_743);
    }

    #[test]
    fn the_suit_table_agrees_with_the_split_rule() {
        // Every suit of at most 14 tiles, counts up to four.
        let mut checked = 0;
        for key in 0..5usize.pow(9) {
            let c = suit_of_key(key);
            let tiles: u32 = c.iter().map(|&n| n as u32).sum();
            if tiles > 14 {
                assert_eq!(suit_complete(&c), None);
                continue;
            }
            let rule = match tiles % 3 {
                0 => suit_splits(&c, false),
                2 => suit_splits(&c, true),
                _ => false,
            };
            assert_eq!(suit_complete(&c), Some(rule), "{c:?}");
            checked += 1;
        }
        assert!(checked > 100_000, "{checked}");
    }

    #[test]
    fn the_split_table_holds_every_way_of_every_complete_suit() {
        let mut most = 0;
        for key in 0..5usize.pow(9) {
            let mut c = suit_of_key(key);
            let residue = (c.iter().map(|&n| n as u32).sum::<u32>() % 3) as u8;
            let mut walked = Vec::new();
            if residue != 1 && c.iter().map(|&n| n as u32).sum::<u32>() <= 14 {
                suit_splits_walked(&mut c, residue, 0, &mut Sets::new(), &mut |acc| walked.push(pack_way(acc, 0)));
            }
            let (ways, n) = ways_of(key);
            assert_eq!(&ways[..n], walked.as_slice(), "{c:?}");
            most = most.max(walked.len());
        }
        // The count of ways has four bits.
        assert!(most < 16, "{most}");
    }

    #[test]
    fn suits_split_without_search() {
        assert!(!suit_sets(&[3, 1, 1, 1, 1, 1, 1, 1, 3]));
        assert!(suit_sets(&[3, 3, 3, 0, 0, 0, 0, 0, 0]));
        assert!(suit_sets(&[1, 2, 2, 1, 0, 0, 0, 0, 0]));
        assert!(!suit_sets(&[1, 2, 1, 1, 0, 0, 0, 0, 0]));
        assert!(!suit_sets(&[0, 0, 0, 0, 0, 0, 0, 1, 1]));
        assert!(suit_splits(&[4, 1, 1, 1, 1, 1, 1, 1, 3], true));
        assert!(suit_splits(&[2, 0, 0, 0, 0, 0, 0, 0, 0], true));
        assert!(!suit_splits(&[1, 1, 0, 0, 0, 0, 0, 0, 0], true));
    }

    #[test]
    fn waits_of_every_form() {
        assert_eq!(check("1112345678999m").len(), 9);
        assert_eq!(check("19m19p19s1234567z").len(), 13);
        assert_eq!(check("1122334455667m"), ["1m", "4m", "7m"]);
        assert_eq!(check("147m258p369s1234z"), ["5z", "6z", "7z"]);
        assert_eq!(check("147m258p36s11z[123m]"), ["9s"]);
        check("1234444678m456p");
        check("1111m234p567p789p");
    }

    #[test]
    fn waits_agree_with_a_plain_search() {
        // Hands drawn from a few kinds, so that sets, pairs, fives of a kind and the
        // special forms all occur.
        let mut next = numbers(0x9E37_79B9_7F4A_7C15);
        for i in 0..20_000 {
            let need = [4, 4, 3, 2, 1][i % 5];
            let pool: Vec<usize> = match i % 3 {
                0 => (0..9).collect(),
                1 => (0..KINDS).collect(),
                _ => (0..KINDS).filter(|&t| ORPHANS.contains(&(t as u8)) || KNITTED_MASKS[0] >> t & 1 == 1).collect(),
            };
            let mut before = [0u8; KINDS];
            for _ in 0..3 * need + 1 {
                before[pool[next(pool.len() as u64) as usize]] += 1;
            }
            let concealed_hand = need == 4;
            let got = waits(&before, need, concealed_hand, 34, 0, None);
            assert_eq!(got, reference(&before, need, concealed_hand), "{before:?} need {need}");
            // Stopping early still finds at least `stop` when there are that many.
            let two = waits(&before, need, concealed_hand, 2, 0, None);
            assert_eq!(two.count_ones().min(2), got.count_ones().min(2));
            // Kinds known to complete the hand are kept and need no search.
            let first = got & got.wrapping_neg();
            assert_eq!(waits(&before, need, concealed_hand, 34, first, None), got);
            // So are those that complete it in the standard form.
            let standard = (0..KINDS).find(|&t| {
                let mut c = before;
                c[t] += 1;
                splits_into(&mut c, need, false)
            });
            if let Some(w) = standard {
                assert_eq!(waits(&before, need, concealed_hand, 34, 1 << w, Some(w as Tile)), got, "{before:?}");
            }
        }
    }

    /// Every split by a plain search over the lowest kind left (repeats included).
    fn splits_by_search(counts: &mut Counts, sets: usize, acc: &mut Sets, out: &mut Vec<Sets>, pair: bool) {
        let Some(k) = counts.iter().position(|&c| c > 0) else {
            if sets == 0 && pair {
                out.push(*acc);
            }
            return;
        };
        let mut take = |counts: &mut Counts, kind, kinds: &[usize], sets: usize, pair: bool| {
            if kinds.iter().all(|&t| counts[t] > 0) && kinds.iter().filter(|&&t| t == k).count() <= counts[k] as usize {
                kinds.iter().for_each(|&t| counts[t] -= 1);
                acc.push(plain(kind, k as Tile));
                splits_by_search(counts, sets, acc, out, pair);
                acc.pop();
                kinds.iter().for_each(|&t| counts[t] += 1);
            }
        };
        if !pair {
            take(counts, SetKind::Pair, &[k, k], sets, true);
        }
        if sets > 0 {
            take(counts, SetKind::Pung, &[k, k, k], sets - 1, pair);
            if k < 27 && k % 9 <= 6 {
                take(counts, SetKind::Chow, &[k, k + 1, k + 2], sets - 1, pair);
            }
        }
    }

    #[test]
    fn arrangements_agree_with_a_plain_search() {
        let mut next = numbers(0x1234_5678_9ABC_DEF1);
        let mut several = 0;
        for i in 0..50_000 {
            let sets = [4, 3, 2, 1, 0][i % 5];
            let pool: Vec<usize> = match i % 4 {
                0 => (0..9).collect(),
                1 => (0..6).chain(27..30).collect(),
                2 => (0..KINDS).collect(),
                _ => (9..18).chain(18..21).collect(),
            };
            let mut counts = [0u8; KINDS];
            if i % 2 == 0 {
                // Any tiles: mostly not complete.
                let mut placed = 0;
                while placed < 3 * sets + 2 {
                    let t = pool[next(pool.len() as u64) as usize];
                    if counts[t] < 4 {
                        counts[t] += 1;
                        placed += 1;
                    }
                }
            } else {
                // Sets and a pair near each other: complete, often in several ways.
                let lo = [0, 9, 18][next(3) as usize] + next(4) as usize;
                let mut groups: Vec<Vec<usize>> = vec![vec![lo + next(5) as usize; 2]];
                for _ in 0..sets {
                    let t = lo + next(4) as usize;
                    groups.push(if next(2) == 0 { vec![t; 3] } else { vec![t, t + 1, t + 2] });
                }
                for t in groups.into_iter().flatten() {
                    counts[t] += 1;
                }
                if counts.iter().any(|&n| n > 4) {
                    continue;
                }
            }
            let mut expected = Vec::new();
            splits_by_search(&mut counts.clone(), sets, &mut Sets::new(), &mut expected, false);
            for x in expected.iter_mut() {
                x.sort_in_tile_order();
            }
            expected.sort_by_key(|x| x.iter().map(|s| (s.tile, s.kind as u8)).collect::<Vec<_>>());
            expected.dedup();
            let mut got = Vec::new();
            arrangements(&counts, sets, &mut |x| {
                let mut x = *x;
                x.sort_in_tile_order();
                got.push(x)
            });
            got.sort_by_key(|x| x.iter().map(|s| (s.tile, s.kind as u8)).collect::<Vec<_>>());
            // Each once.
            assert_eq!(got, expected, "{counts:?}");
            several += (got.len() > 1) as usize;
        }
        assert!(several > 500, "{several}");
    }
}
