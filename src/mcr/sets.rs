//! Fans made by combining sets: chows (顺子) and pungs/kongs (刻子), two, three or four
//! at a time.
//!
//! The principles, as the seed's 2006 list and its commentary state them:
//! - a fan of four sets leaves nothing else to combine among them;
//! - with three sets forming a fan, the fourth set may add one two-set fan with one of
//!   them (套算一次: a set already combined combines once more, with a set not yet used);
//! - without a three-set fan, four chows give at most three two-chow fans and three chows
//!   at most two; two sets never make the same fan twice (不得相同).
//!
//! Where several choices exist the most valuable is kept (就高不就低); between equal
//! values the order is ChineseOfficialMahjongHelper's (tiles sorted m, s, p, winds,
//! dragons red/green/white), so that equal-valued results name the same fans.

use super::data::FANS;
use super::fans::{id, FanCounts};
use crate::tiles::{rank, suit, Tile, GREEN, RED, WHITE};

/// Sort key in ChineseOfficialMahjongHelper's tile order.
pub fn order(t: Tile) -> u8 {
    ORDER.get(t as usize).copied().unwrap_or(u8::MAX)
}

/// [`order`] by kind: characters, bamboo, dots, winds, then red, green, white.
const ORDER: [u8; 34] = {
    let mut o = [0u8; 34];
    let mut t = 0;
    while t < 34 {
        let r = (t % 9) as u8 + 1;
        o[t] = match t / 9 {
            0 => 10 + r,
            1 => 30 + r,
            2 => 20 + r,
            _ => match t as Tile {
                WHITE => 52,
                GREEN => 51,
                RED => 50,
                w => 40 + (w - 27),
            },
        };
        t += 1;
    }
    o
};

fn sorted<const N: usize>(mut a: [Tile; N]) -> [Tile; N] {
    a.sort_unstable_by_key(|&t| order(t));
    a
}

fn points(fan: u8) -> u32 {
    FANS[fan as usize - 1].points as u32
}

fn same_suit(ts: &[Tile]) -> bool {
    ts.iter().all(|&t| suit(t) == suit(ts[0]))
}

fn distinct_suits(a: Tile, b: Tile, c: Tile) -> bool {
    suit(a) != suit(b) && suit(a) != suit(c) && suit(b) != suit(c)
}

fn consecutive_unordered(a: u8, b: u8, c: u8) -> bool {
    let mut r = [a, b, c];
    r.sort_unstable();
    r[0] + 1 == r[1] && r[1] + 1 == r[2]
}

/// The three of four tiles that are not at `skip`, in order.
fn without(t: [Tile; 4], skip: usize) -> [Tile; 3] {
    let mut three = [0; 3];
    let mut k = 0;
    for (i, &x) in t.iter().enumerate() {
        if i != skip {
            three[k] = x;
            k += 1;
        }
    }
    three
}

/// The fan of two chows, given their lowest tiles.
pub fn two_chows(a: Tile, b: Tile) -> Option<u8> {
    if suit(a) != suit(b) {
        return (rank(a) == rank(b)).then_some(id::MIXED_DOUBLE_CHOW);
    }
    let (lo, hi) = (a.min(b), a.max(b));
    if lo + 3 == hi {
        Some(id::SHORT_STRAIGHT)
    } else if rank(lo) == 1 && rank(hi) == 7 {
        Some(id::TWO_TERMINAL_CHOWS)
    } else if a == b {
        Some(id::PURE_DOUBLE_CHOW)
    } else {
        None
    }
}

/// The fan of three chows (lowest tiles, sorted by [`order`]).
fn three_chows(t: [Tile; 3]) -> Option<u8> {
    let [a, b, c] = t;
    let (ra, rb, rc) = (rank(a), rank(b), rank(c));
    if distinct_suits(a, b, c) {
        if consecutive_unordered(ra, rb, rc) {
            return Some(id::MIXED_SHIFTED_CHOWS);
        }
        if ra == rb && rb == rc {
            return Some(id::MIXED_TRIPLE_CHOW);
        }
        let mut r = [ra, rb, rc];
        r.sort_unstable();
        return (r == [1, 4, 7]).then_some(id::MIXED_STRAIGHT);
    }
    if !same_suit(&t) {
        return None;
    }
    if a + 3 == b && b + 3 == c {
        Some(id::PURE_STRAIGHT)
    } else if (a + 2 == b && b + 2 == c) || (a + 1 == b && b + 1 == c) {
        Some(id::PURE_SHIFTED_CHOWS)
    } else if a == b && b == c {
        Some(id::PURE_TRIPLE_CHOW)
    } else {
        None
    }
}

/// The fan of four chows (lowest tiles, sorted).
fn four_chows(t: [Tile; 4]) -> Option<u8> {
    if !same_suit(&t) {
        return None;
    }
    let step = t[1].wrapping_sub(t[0]);
    if (step == 1 || step == 2) && t[2] == t[1] + step && t[3] == t[2] + step {
        Some(id::FOUR_PURE_SHIFTED_CHOWS)
    } else if t.iter().all(|&x| x == t[0]) {
        Some(id::QUADRUPLE_CHOW)
    } else {
        None
    }
}

fn two_pungs(a: Tile, b: Tile) -> Option<u8> {
    let dragon = |t: Tile| t >= WHITE;
    if a < 27 && b < 27 {
        (rank(a) == rank(b) && a != b).then_some(id::DOUBLE_PUNG)
    } else if dragon(a) && dragon(b) {
        Some(id::TWO_DRAGON_PUNGS)
    } else {
        None
    }
}

fn three_pungs(t: [Tile; 3]) -> Option<u8> {
    let [a, b, c] = t;
    if a < 27 && b < 27 && c < 27 {
        if distinct_suits(a, b, c) {
            if consecutive_unordered(rank(a), rank(b), rank(c)) {
                return Some(id::MIXED_SHIFTED_PUNGS);
            }
            return (rank(a) == rank(b) && rank(b) == rank(c)).then_some(id::TRIPLE_PUNG);
        }
        return (same_suit(&t) && a + 1 == b && b + 1 == c).then_some(id::PURE_SHIFTED_PUNGS);
    }
    let wind = |x: Tile| (27..31).contains(&x);
    let dragon = |x: Tile| x >= WHITE;
    if wind(a) && wind(b) && wind(c) && a != b && b != c && a != c {
        Some(id::BIG_THREE_WINDS)
    } else if dragon(a) && dragon(b) && dragon(c) && a != b && b != c && a != c {
        Some(id::BIG_THREE_DRAGONS)
    } else {
        None
    }
}

fn four_pungs(t: [Tile; 4]) -> Option<u8> {
    let mut s = t;
    s.sort_unstable();
    if s[0] < 27 && same_suit(&s) && s[0] + 1 == s[1] && s[1] + 1 == s[2] && s[2] + 1 == s[3] {
        Some(id::FOUR_PURE_SHIFTED_PUNGS)
    } else if s == [27, 28, 29, 30] {
        Some(id::BIG_FOUR_WINDS)
    } else {
        None
    }
}

/// The two-chow fans among up to four chows, at most `max` of them: when there are
/// more, repeats are dropped first, starting from 老少副 (套算一次).
fn pairwise_chows(t: &[Tile], max: usize, fans: &mut FanCounts) -> u8 {
    // Counts of 一般高, 喜相逢, 连六, 老少副.
    let kinds = [id::PURE_DOUBLE_CHOW, id::MIXED_DOUBLE_CHOW, id::SHORT_STRAIGHT, id::TWO_TERMINAL_CHOWS];
    let mut table = [0usize; 4];
    let mut n = 0;
    for i in 0..t.len() {
        for j in i + 1..t.len() {
            if let Some(f) = two_chows(t[i], t[j]) {
                if let Some(k) = kinds.iter().position(|&x| x == f) {
                    table[k] += 1;
                    n += 1;
                }
            }
        }
    }
    let mut dropped = 0u8;
    let mut keep_each = 1usize;
    loop {
        for k in (0..4).rev() {
            while table[k] > keep_each && n > max {
                table[k] -= 1;
                n -= 1;
                dropped += 1;
            }
        }
        if n <= max || keep_each == 0 {
            break;
        }
        keep_each -= 1;
    }
    for (k, &f) in kinds.iter().enumerate() {
        fans.add(f, table[k] as u8);
    }
    dropped
}

/// The one two-chow fan the fourth chow adds to a three-chow fan: 一般高 first, then
/// 喜相逢, 连六, 老少副.
fn extra_chow_fan(three: [Tile; 3], extra: Tile) -> Option<u8> {
    let found = three.map(|x| two_chows(x, extra));
    [id::PURE_DOUBLE_CHOW, id::MIXED_DOUBLE_CHOW, id::SHORT_STRAIGHT, id::TWO_TERMINAL_CHOWS]
        .into_iter()
        .find(|&f| found.contains(&Some(f)))
}

/// Three of four sets with a fan, plus the one two-set fan the fourth adds to them
/// (套算一次): the most valuable choice is added to `fans`. False when no three of the
/// four make a fan.
fn three_and_one(
    t: [Tile; 4],
    three_fan: impl Fn([Tile; 3]) -> Option<u8>,
    extra_fan: impl Fn([Tile; 3], Tile) -> Option<u8>,
    fans: &mut FanCounts,
) -> bool {
    let mut best: Option<(u32, u8, Option<u8>)> = None;
    for skip in (0..4).rev() {
        let three = without(t, skip);
        if let Some(f) = three_fan(three) {
            let extra = extra_fan(three, t[skip]);
            let value = points(f) + extra.map_or(0, points);
            if best.is_none_or(|(v, _, _)| value > v) {
                best = Some((value, f, extra));
            }
        }
    }
    let Some((_, f, extra)) = best else {
        return false;
    };
    fans.add(f, 1);
    if let Some(e) = extra {
        fans.add(e, 1);
    }
    true
}

/// Adds the fans of the chows (lowest tiles) to `fans`, by the rules; returns the number
/// of two-chow fans left out by 套算一次. [`chow_fans`] looks the outcome up instead.
fn chow_fans_by_rule(chows: &[Tile], fans: &mut FanCounts) -> u8 {
    match chows.len() {
        4 => {
            let t = sorted([chows[0], chows[1], chows[2], chows[3]]);
            if let Some(f) = four_chows(t) {
                fans.add(f, 1);
                return 0;
            }
            if three_and_one(t, three_chows, extra_chow_fan, fans) {
                return 0;
            }
            // A chow related to none of the others lowers the limit of three.
            let isolated =
                (0..4).filter(|&i| (0..4).filter(|&j| j != i).all(|j| two_chows(t[i], t[j]).is_none())).count();
            if isolated >= 3 {
                return 0;
            }
            pairwise_chows(&t, 3 - isolated, fans)
        }
        3 => {
            let t = sorted([chows[0], chows[1], chows[2]]);
            if let Some(f) = three_chows(t) {
                fans.add(f, 1);
                return 0;
            }
            pairwise_chows(&t, 2, fans)
        }
        2 => {
            if let Some(f) = two_chows(chows[0], chows[1]) {
                fans.add(f, 1);
            }
            0
        }
        _ => 0,
    }
}

/// Adds the fans of combining pungs and kongs (their tiles) to `fans`, by the rules.
/// [`pung_fans`] looks the outcome up instead.
fn pung_fans_by_rule(pungs: &[Tile], fans: &mut FanCounts) {
    match pungs.len() {
        4 => {
            let t = sorted([pungs[0], pungs[1], pungs[2], pungs[3]]);
            if let Some(f) = four_pungs(t) {
                fans.add(f, 1);
                return;
            }
            let extra = |three: [Tile; 3], fourth| three.iter().find_map(|&x| two_pungs(x, fourth));
            if three_and_one(t, three_pungs, extra, fans) {
                return;
            }
            pairwise_pungs(&t, fans);
        }
        3 => {
            let t = sorted([pungs[0], pungs[1], pungs[2]]);
            match three_pungs(t) {
                Some(f) => fans.add(f, 1),
                None => pairwise_pungs(&t, fans),
            }
        }
        2 => pairwise_pungs(pungs, fans),
        _ => {}
    }
}

fn pairwise_pungs(t: &[Tile], fans: &mut FanCounts) {
    for i in 0..t.len() {
        for j in i + 1..t.len() {
            if let Some(f) = two_pungs(t[i], t[j]) {
                fans.add(f, 1);
            }
        }
    }
}

/// Adds the fans of the chows (lowest tiles) to `fans`; returns the number of two-chow
/// fans left out by 套算一次.
pub fn chow_fans(chows: &[Tile], fans: &mut FanCounts) -> u8 {
    // A tile that begins no chow (rank 8 or 9, an honour) is past every slot, so the
    // rules are asked.
    let slot = |t: Tile| if t < 27 && t % 9 < 7 { (t / 9) as usize * 7 + (t % 9) as usize } else { usize::MAX / 8 };
    let slots = chows.iter().map(|&t| slot(t));
    match looked_up::outcome(&looked_up::TABLES.get_or_init(looked_up::build).chows, slots, looked_up::chow_code) {
        Some(code) => looked_up::apply(code, fans),
        None => chow_fans_by_rule(chows, fans),
    }
}

/// Adds the fans of combining pungs and kongs (their tiles) to `fans`.
pub fn pung_fans(pungs: &[Tile], fans: &mut FanCounts) {
    let slots = pungs.iter().map(|&t| t as usize);
    match looked_up::outcome(&looked_up::TABLES.get_or_init(looked_up::build).pungs, slots, looked_up::pung_code) {
        Some(code) => {
            looked_up::apply(code, fans);
        }
        None => pung_fans_by_rule(pungs, fans),
    }
}

/// The outcomes of [`chow_fans_by_rule`] and [`pung_fans_by_rule`], looked up. Each
/// depends only on the multiset of tiles it is given, so the outcome of each multiset
/// of two to four is worked out once, the first time it is met (of about 12,600 of chows
/// and 73,800 of pungs: working them all out at once made a first call wait 7 ms), and
/// packed in 32 bits: three (fan, count) pairs and
/// the two-chow fans dropped. The rules branch on the tiles at every step, which the
/// processor cannot foresee from one hand to the next; a look-up does not.
mod looked_up {
    use super::{chow_fans_by_rule, pung_fans_by_rule, FanCounts, Tile};
    use std::sync::atomic::{AtomicU32, Ordering};
    use std::sync::OnceLock;

    /// Lowest tiles of chows: ranks 1-7 of the three suits.
    const CHOW_SLOTS: usize = 21;
    /// Tiles of pungs: every kind.
    const PUNG_SLOTS: usize = 34;
    /// An outcome that does not fit the packing: the rules are asked. (Only lists that
    /// repeat a pung have one, as `[1m, 1p, 1m, 1p]` makes 双同刻 four times; no hand
    /// holds them.)
    const UNPACKED: u32 = u32::MAX;
    /// An outcome not yet worked out (no packed outcome has bit 29 or 30 set).
    const NOT_YET: u32 = u32::MAX - 1;

    /// Outcomes by number of sets (2 to 4), then by [`index`]. Threads that meet the same
    /// multiset first at once both work out its outcome, the same, and store it.
    pub struct Tables {
        pub chows: [Vec<AtomicU32>; 5],
        pub pungs: [Vec<AtomicU32>; 5],
    }

    pub static TABLES: OnceLock<Tables> = OnceLock::new();

    /// `C(n, r)` for `n < 38`, `r <= 4`.
    const BINOMIAL: [[u32; 5]; 38] = {
        let mut c = [[0u32; 5]; 38];
        let mut n = 0;
        while n < 38 {
            c[n][0] = 1;
            let mut r = 1;
            while r <= 4 && r <= n {
                c[n][r] = if r == n { 1 } else { c[n - 1][r - 1] + c[n - 1][r] };
                r += 1;
            }
            n += 1;
        }
        c
    };

    /// The place of a sorted multiset among all multisets of its size: `v[i] + i` is
    /// strictly increasing, and combinations are numbered by `Σ C(v[i] + i, i + 1)`.
    fn index(v: &[usize]) -> usize {
        v.iter().enumerate().map(|(i, &x)| BINOMIAL.get(x + i).map_or(usize::MAX / 8, |c| c[i + 1] as usize)).sum()
    }

    /// The packed outcome for the tiles in `slots` (two to four of them), or `None` for
    /// fewer or more (no fan), or one the table does not hold.
    pub fn outcome(
        table: &[Vec<AtomicU32>; 5],
        slots: impl Iterator<Item = usize>,
        rule: fn(&[usize]) -> u32,
    ) -> Option<u32> {
        let mut v = [usize::MAX; 4];
        let mut k = 0;
        for (slot, x) in v.iter_mut().zip(slots) {
            *slot = x;
            k += 1;
        }
        // Sorted by compare-and-swap, without branches; empty places sort last.
        let mut swap = |i: usize, j: usize| {
            let (a, b) = (v[i].min(v[j]), v[i].max(v[j]));
            (v[i], v[j]) = (a, b);
        };
        swap(0, 1);
        swap(2, 3);
        swap(0, 2);
        swap(1, 3);
        swap(1, 2);
        let cell = table.get(k)?.get(index(&v[..k]))?;
        let mut code = cell.load(Ordering::Relaxed);
        if code == NOT_YET {
            code = rule(&v[..k]);
            cell.store(code, Ordering::Relaxed);
        }
        (code != UNPACKED).then_some(code)
    }

    /// Adds a packed outcome's fans to `fans`; returns its dropped two-chow fans.
    pub fn apply(code: u32, fans: &mut FanCounts) -> u8 {
        for j in 0..3 {
            let pair = code >> (9 * j);
            // An unused pair is fan 0 (no fan) added 0 times, which changes nothing.
            fans.add((pair & 0x7F) as u8, (pair >> 7 & 3) as u8);
        }
        (code >> 27 & 3) as u8
    }

    fn pack(fans: &FanCounts, dropped: u8) -> u32 {
        let mut code = 0;
        for (j, id) in fans.ids().enumerate() {
            let count = fans.get(id);
            if j >= 3 || count > 3 {
                return UNPACKED;
            }
            code |= (id as u32 | (count as u32) << 7) << (9 * j);
        }
        if dropped > 3 {
            return UNPACKED;
        }
        code | (dropped as u32) << 27
    }

    /// The packed outcome of chows of lowest tiles `v` (slots, sorted).
    pub fn chow_code(v: &[usize]) -> u32 {
        let mut tiles = [0 as Tile; 4];
        for (t, &x) in tiles.iter_mut().zip(v) {
            *t = (x / 7 * 9 + x % 7) as Tile;
        }
        let mut fans = FanCounts::default();
        let dropped = chow_fans_by_rule(&tiles[..v.len()], &mut fans);
        pack(&fans, dropped)
    }

    /// The packed outcome of pungs of tiles `v` (sorted).
    pub fn pung_code(v: &[usize]) -> u32 {
        let mut tiles = [0 as Tile; 4];
        for (t, &x) in tiles.iter_mut().zip(v) {
            *t = x as Tile;
        }
        let mut fans = FanCounts::default();
        pung_fans_by_rule(&tiles[..v.len()], &mut fans);
        pack(&fans, 0)
    }

    /// Room for the outcome of every sorted multiset of two to four values below
    /// `values`, none worked out yet.
    fn empty(values: usize) -> [Vec<AtomicU32>; 5] {
        [0, 1, 2, 3, 4].map(|k| {
            let size = if k < 2 { 0 } else { BINOMIAL[values + k - 1][k] as usize };
            (0..size).map(|_| AtomicU32::new(NOT_YET)).collect()
        })
    }

    pub fn build() -> Tables {
        Tables { chows: empty(CHOW_SLOTS), pungs: empty(PUNG_SLOTS) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chows(ts: &[Tile]) -> (FanCounts, u8) {
        let mut f = FanCounts::default();
        let d = chow_fans(ts, &mut f);
        (f, d)
    }

    #[test]
    fn account_once_for_two_chow_fans() {
        // 234567p + 234567s: 喜相逢 x2 and 连六 x2 found, three kept.
        let (f, d) = chows(&[10, 13, 19, 22]);
        assert_eq!(f.get(id::MIXED_DOUBLE_CHOW) + f.get(id::SHORT_STRAIGHT), 3);
        assert_eq!(d, 1);
        // 234s 234p 345p 456p: 一般高? no: 一色三步高 + 喜相逢.
        let (f, _) = chows(&[19, 10, 11, 12]);
        assert_eq!(f.get(id::PURE_SHIFTED_CHOWS), 1);
        assert_eq!(f.get(id::MIXED_DOUBLE_CHOW), 1);
    }

    #[test]
    fn four_and_three_chow_fans() {
        assert_eq!(chows(&[0, 0, 0, 0]).0.get(id::QUADRUPLE_CHOW), 1);
        assert_eq!(chows(&[0, 1, 2, 3]).0.get(id::FOUR_PURE_SHIFTED_CHOWS), 1);
        let (f, _) = chows(&[0, 3, 6, 9]);
        assert_eq!(f.get(id::PURE_STRAIGHT), 1);
        assert_eq!(f.get(id::MIXED_DOUBLE_CHOW), 1);
        // 789m and 123p are not a short straight across suits.
        assert_eq!(two_chows(6, 9), None);
        assert_eq!(chows(&[3, 6, 9]).0.get(id::PURE_STRAIGHT), 0);
    }

    #[test]
    fn looked_up_outcomes_are_the_rules_outcomes() {
        // Every tile list of two to four, in a scrambled order (a small generator).
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for i in 0..200_000 {
            let k = 2 + i % 3;
            let chows: Vec<Tile> = (0..k).map(|_| (next(3) * 9 + next(7)) as Tile).collect();
            let pungs: Vec<Tile> = (0..k).map(|_| next(34) as Tile).collect();
            let (mut looked, mut ruled) = (FanCounts::default(), FanCounts::default());
            let dropped = (chow_fans(&chows, &mut looked), chow_fans_by_rule(&chows, &mut ruled));
            assert_eq!((looked, dropped.0), (ruled, dropped.1), "{chows:?}");
            let (mut looked, mut ruled) = (FanCounts::default(), FanCounts::default());
            pung_fans(&pungs, &mut looked);
            pung_fans_by_rule(&pungs, &mut ruled);
            assert_eq!(looked, ruled, "{pungs:?}");
        }
        // Tiles that begin no chow are the rules' to judge.
        for chows in [[7, 12], [8, 16], [27, 28]] {
            let (mut looked, mut ruled) = (FanCounts::default(), FanCounts::default());
            assert_eq!(chow_fans(&chows, &mut looked), chow_fans_by_rule(&chows, &mut ruled));
            assert_eq!(looked, ruled, "{chows:?}");
        }
        let tables = looked_up::TABLES.get_or_init(looked_up::build);
        assert_eq!(tables.chows.iter().map(Vec::len).sum::<usize>(), 231 + 1771 + 10_626);
        assert_eq!(tables.pungs.iter().map(Vec::len).sum::<usize>(), 595 + 7140 + 66_045);
    }

    #[test]
    fn pungs() {
        let mut f = FanCounts::default();
        pung_fans(&[0, 1, 2, 9], &mut f);
        assert_eq!(f.get(id::PURE_SHIFTED_PUNGS), 1);
        assert_eq!(f.get(id::DOUBLE_PUNG), 1);
        let mut f = FanCounts::default();
        pung_fans(&[27, 28, 29, 30], &mut f);
        assert_eq!(f.get(id::BIG_FOUR_WINDS), 1);
        let mut f = FanCounts::default();
        pung_fans(&[31, 32, 0], &mut f);
        assert_eq!(f.get(id::TWO_DRAGON_PUNGS), 1);
    }
}
