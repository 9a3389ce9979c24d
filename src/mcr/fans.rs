//! The fans of one arrangement of a winning hand, and the 不计 exclusions.
//!
//! Detection is generous: every fan whose definition the arrangement meets is set
//! (counts for the fans that repeat). `exclude` then applies the list's 不计 notes
//! (`EXCLUDES`) and the exclusions that follow from 不重复 (`IMPLIED_EXCLUDES`), from the
//! most valuable fan down, so that a fan already excluded excludes nothing.

use super::data::{EXCLUDES, FANS, IMPLIED_EXCLUDES};
use super::sets;
use super::situation::{Options, Situation};
use crate::inline::Inline;
use crate::tiles::{is_orphan, rank, suit, Counts, Tile, GREEN, WHITE};

/// Slot of ChineseOfficialMahjongHelper's 明暗杠 (5 points) when that option is on: it
/// has no number in the 2006 list.
pub const MINGANGANG: u8 = 82;
/// Points of 明暗杠.
pub const MINGANGANG_POINTS: u32 = 5;

/// Fan ids by their English names, as in the list.
#[allow(dead_code)]
pub mod id {
    pub const BIG_FOUR_WINDS: u8 = 1;
    pub const BIG_THREE_DRAGONS: u8 = 2;
    pub const ALL_GREEN: u8 = 3;
    pub const NINE_GATES: u8 = 4;
    pub const FOUR_KONGS: u8 = 5;
    pub const SEVEN_SHIFTED_PAIRS: u8 = 6;
    pub const THIRTEEN_ORPHANS: u8 = 7;
    pub const ALL_TERMINALS: u8 = 8;
    pub const LITTLE_FOUR_WINDS: u8 = 9;
    pub const LITTLE_THREE_DRAGONS: u8 = 10;
    pub const ALL_HONOURS: u8 = 11;
    pub const FOUR_CONCEALED_PUNGS: u8 = 12;
    pub const PURE_TERMINAL_CHOWS: u8 = 13;
    pub const QUADRUPLE_CHOW: u8 = 14;
    pub const FOUR_PURE_SHIFTED_PUNGS: u8 = 15;
    pub const FOUR_PURE_SHIFTED_CHOWS: u8 = 16;
    pub const THREE_KONGS: u8 = 17;
    pub const ALL_TERMINALS_AND_HONOURS: u8 = 18;
    pub const SEVEN_PAIRS: u8 = 19;
    pub const GREATER_HONOURS_AND_KNITTED: u8 = 20;
    pub const ALL_EVEN_PUNGS: u8 = 21;
    pub const FULL_FLUSH: u8 = 22;
    pub const PURE_TRIPLE_CHOW: u8 = 23;
    pub const PURE_SHIFTED_PUNGS: u8 = 24;
    pub const UPPER_TILES: u8 = 25;
    pub const MIDDLE_TILES: u8 = 26;
    pub const LOWER_TILES: u8 = 27;
    pub const PURE_STRAIGHT: u8 = 28;
    pub const THREE_SUITED_TERMINAL_CHOWS: u8 = 29;
    pub const PURE_SHIFTED_CHOWS: u8 = 30;
    pub const ALL_FIVES: u8 = 31;
    pub const TRIPLE_PUNG: u8 = 32;
    pub const THREE_CONCEALED_PUNGS: u8 = 33;
    pub const LESSER_HONOURS_AND_KNITTED: u8 = 34;
    pub const KNITTED_STRAIGHT: u8 = 35;
    pub const UPPER_FOUR: u8 = 36;
    pub const LOWER_FOUR: u8 = 37;
    pub const BIG_THREE_WINDS: u8 = 38;
    pub const MIXED_STRAIGHT: u8 = 39;
    pub const REVERSIBLE_TILES: u8 = 40;
    pub const MIXED_TRIPLE_CHOW: u8 = 41;
    pub const MIXED_SHIFTED_PUNGS: u8 = 42;
    pub const CHICKEN_HAND: u8 = 43;
    pub const LAST_TILE_DRAW: u8 = 44;
    pub const LAST_TILE_CLAIM: u8 = 45;
    pub const OUT_WITH_REPLACEMENT_TILE: u8 = 46;
    pub const ROBBING_THE_KONG: u8 = 47;
    pub const ALL_PUNGS: u8 = 48;
    pub const HALF_FLUSH: u8 = 49;
    pub const MIXED_SHIFTED_CHOWS: u8 = 50;
    pub const ALL_TYPES: u8 = 51;
    pub const MELDED_HAND: u8 = 52;
    pub const TWO_CONCEALED_KONGS: u8 = 53;
    pub const TWO_DRAGON_PUNGS: u8 = 54;
    pub const OUTSIDE_HAND: u8 = 55;
    pub const FULLY_CONCEALED_HAND: u8 = 56;
    pub const TWO_MELDED_KONGS: u8 = 57;
    pub const LAST_TILE: u8 = 58;
    pub const DRAGON_PUNG: u8 = 59;
    pub const PREVALENT_WIND: u8 = 60;
    pub const SEAT_WIND: u8 = 61;
    pub const CONCEALED_HAND: u8 = 62;
    pub const ALL_CHOWS: u8 = 63;
    pub const TILE_HOG: u8 = 64;
    pub const DOUBLE_PUNG: u8 = 65;
    pub const TWO_CONCEALED_PUNGS: u8 = 66;
    pub const CONCEALED_KONG: u8 = 67;
    pub const ALL_SIMPLES: u8 = 68;
    pub const PURE_DOUBLE_CHOW: u8 = 69;
    pub const MIXED_DOUBLE_CHOW: u8 = 70;
    pub const SHORT_STRAIGHT: u8 = 71;
    pub const TWO_TERMINAL_CHOWS: u8 = 72;
    pub const PUNG_OF_TERMINALS_OR_HONOURS: u8 = 73;
    pub const MELDED_KONG: u8 = 74;
    pub const ONE_VOIDED_SUIT: u8 = 75;
    pub const NO_HONOURS: u8 = 76;
    pub const EDGE_WAIT: u8 = 77;
    pub const CLOSED_WAIT: u8 = 78;
    pub const SINGLE_WAIT: u8 = 79;
    pub const SELF_DRAWN: u8 = 80;
    pub const FLOWER_TILES: u8 = 81;
}
use id::*;

/// Points of one occurrence by fan id (index 0 unused, 82 = [`MINGANGANG`]).
const POINTS: [u32; 83] = {
    let mut p = [0u32; 83];
    let mut i = 0;
    while i < FANS.len() {
        p[FANS[i].id as usize] = FANS[i].points as u32;
        i += 1;
    }
    p[MINGANGANG as usize] = MINGANGANG_POINTS;
    p
};

/// Counts by fan id (index 0 unused, 82 = [`MINGANGANG`]), with a mask of the ids
/// counted so that totals and exclusions visit only those.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FanCounts {
    counts: [u8; 83],
    mask: u128,
}

impl Default for FanCounts {
    fn default() -> Self {
        FanCounts { counts: [0; 83], mask: 0 }
    }
}

impl FanCounts {
    pub fn get(&self, fan: u8) -> u8 {
        self.counts[fan as usize]
    }

    pub fn add(&mut self, fan: u8, n: u8) {
        self.set(fan, self.counts[fan as usize].saturating_add(n));
    }

    pub fn set(&mut self, fan: u8, n: u8) {
        self.counts[fan as usize] = n;
        // Without a branch: fans are often added 0 or 1 times as the tiles decide.
        self.mask = self.mask & !(1u128 << fan) | ((n > 0) as u128) << fan;
    }

    /// Counts by id, index 0 unused and 82 the optional 明暗杠.
    pub fn counts(&self) -> &[u8; 83] {
        &self.counts
    }

    /// Bit `id` set for every fan counted.
    pub fn mask(&self) -> u128 {
        self.mask
    }

    /// The ids counted, in increasing order (most valuable first).
    pub fn ids(&self) -> impl Iterator<Item = u8> {
        let mut m = self.mask;
        std::iter::from_fn(move || {
            (m != 0).then(|| {
                let id = m.trailing_zeros() as u8;
                m &= m - 1;
                id
            })
        })
    }

    /// Clears every fan whose bit is set in `mask`.
    fn clear(&mut self, mask: u128) {
        let mut m = self.mask & mask;
        while m != 0 {
            self.counts[m.trailing_zeros() as usize] = 0;
            m &= m - 1;
        }
        self.mask &= !mask;
    }

    /// Points of one fan id (明暗杠 included).
    pub fn points_of(fan: u8) -> u32 {
        POINTS.get(fan as usize).copied().unwrap_or(0)
    }

    /// Sum of points, flowers included.
    pub fn total(&self) -> u32 {
        self.ids().map(|i| self.counts[i as usize] as u32 * POINTS[i as usize]).sum()
    }

    /// Sum of points without flowers (what the 8-point minimum looks at).
    pub fn total_without_flowers(&self) -> u32 {
        self.total() - self.get(FLOWER_TILES) as u32
    }

    pub fn is_empty(&self) -> bool {
        self.mask == 0
    }
}

/// A set (面子) or the pair (将) of an arrangement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetKind {
    Chow,
    Pung,
    Kong,
    Pair,
}

/// One set: its kind, lowest tile, and whether it was declared exposed (明).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Set {
    pub kind: SetKind,
    pub tile: Tile,
    /// Declared by a chow, pung or exposed kong (a concealed kong is not melded).
    pub melded: bool,
    /// Declared at all (exposed melds and concealed kongs).
    pub declared: bool,
}

/// The sets of one arrangement, kept inline: seven pairs is the most there can be.
pub type Sets = Inline<Set, 7>;

const NO_SET: Set = Set { kind: SetKind::Pair, tile: 0, melded: false, declared: false };

impl Inline<Set, 7> {
    pub const fn new() -> Sets {
        Inline::filled(NO_SET)
    }

    /// Sorts the sets not declared (which come first) by tile, and at one tile a pair
    /// before a pung before a chow; the declared melds stay as they are, after them.
    pub fn sort_in_tile_order(&mut self) {
        let rank = |x: &Set| match x.kind {
            SetKind::Pair => 0,
            SetKind::Pung => 1,
            SetKind::Kong => 2,
            SetKind::Chow => 3,
        };
        let concealed = self.iter().take_while(|x| !x.declared).count();
        self.as_mut_slice()[..concealed].sort_unstable_by_key(|x| (x.tile, rank(x)));
    }
}

impl Default for Sets {
    fn default() -> Self {
        Sets::new()
    }
}

impl FromIterator<Set> for Sets {
    /// Sets past the seventh are dropped: an arrangement never has more.
    fn from_iter<I: IntoIterator<Item = Set>>(iter: I) -> Sets {
        Inline::collect_with(NO_SET, iter)
    }
}

/// What the whole hand looks like, shared by every arrangement of it.
pub struct HandFacts {
    /// The fans of the tiles as a whole, of the win and of concealment: the same for
    /// every arrangement.
    pub common: FanCounts,
}

impl HandFacts {
    /// `tiles`: all the hand's tiles by kind, melds included, and `present` the mask of
    /// the kinds among them; `kongs` its kongs and `melded` its exposed melds (chows,
    /// pungs, exposed kongs).
    pub fn new(tiles: &Counts, present: u64, kongs: u8, melded: u8, s: &Situation) -> HandFacts {
        let mut common = FanCounts::default();
        tile_fans(present, &mut common);
        tile_hog(tiles, kongs, &mut common);
        win_fans(s, &mut common);
        concealment_fans(melded, s, &mut common);
        HandFacts { common }
    }
}

/// A reason a fan was not counted, for `explain`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exclusion {
    pub fan: u8,
    pub count: u8,
    /// The fan that excludes it, or 0 for a principle (套算一次).
    pub by: u8,
    /// `"list"` (the seed's 不计 note), `"implied"` (不重复) or `"account_once"`.
    pub rule: &'static str,
}

/// Bit masks of kinds (bit t for kind t).
mod kinds {
    const fn suit(ranks: &[u8], s: u32) -> u64 {
        let mut m = 0u64;
        let mut i = 0;
        while i < ranks.len() {
            m |= 1 << (9 * s + ranks[i] as u32 - 1);
            i += 1;
        }
        m
    }
    pub const HONOURS: u64 = 0x7F << 27;
    pub const WINDS: u64 = 0xF << 27;
    pub const DRAGONS: u64 = 0x7 << 31;
    pub const TERMINALS: u64 = suit(&[1, 9], 0) | suit(&[1, 9], 1) | suit(&[1, 9], 2);
    pub const ORPHANS: u64 = TERMINALS | HONOURS;
    /// 推不倒: 1234589p, 245689s, white.
    pub const REVERSIBLE: u64 = suit(&[1, 2, 3, 4, 5, 8, 9], 1) | suit(&[2, 4, 5, 6, 8, 9], 2) | 1 << super::WHITE;
    /// 绿一色: 23468s and green.
    pub const GREEN: u64 = suit(&[2, 3, 4, 6, 8], 2) | 1 << super::GREEN;
}

/// Fans of the tiles as a whole: suits, honours, terminals, ranges (for every form).
/// `present` is the mask of the kinds held.
pub fn tile_fans(present: u64, fans: &mut FanCounts) {
    // Counted without branches where the tiles decide (how many suits, whether
    // honours): an absent fan is added 0 times, and fan 0 is no fan.
    let honours = present & kinds::HONOURS != 0;
    let suited: usize = (0..3).map(|s| (present >> (9 * s) & 0x1FF != 0) as usize).sum();
    // By the number of suits held, without honours and with them.
    const BY_SUITS: [[u8; 2]; 4] =
        [[ONE_VOIDED_SUIT, ONE_VOIDED_SUIT], [FULL_FLUSH, HALF_FLUSH], [ONE_VOIDED_SUIT, ONE_VOIDED_SUIT], [0, 0]];
    let by_suits = BY_SUITS[suited.min(3)][honours as usize];
    fans.add(by_suits, (by_suits != 0) as u8);
    fans.add(NO_HONOURS, !honours as u8);
    let all_types = suited == 3 && present & kinds::WINDS != 0 && present & kinds::DRAGONS != 0;
    fans.add(ALL_TYPES, all_types as u8);
    let only = |allowed: u64| present & !allowed == 0;
    fans.add(ALL_SIMPLES, (present & kinds::ORPHANS == 0) as u8);
    fans.add(REVERSIBLE_TILES, only(kinds::REVERSIBLE) as u8);
    fans.add(ALL_GREEN, only(kinds::GREEN) as u8);
    if only(kinds::HONOURS) {
        fans.add(ALL_HONOURS, 1);
    } else if only(kinds::TERMINALS) {
        fans.add(ALL_TERMINALS, 1);
    } else if only(kinds::ORPHANS) {
        fans.add(ALL_TERMINALS_AND_HONOURS, 1);
    }
    // Bit r - 1 for every rank r held; the ranges need no honours.
    let ranks = if honours { u64::MAX } else { (present | present >> 9 | present >> 18) & 0x1FF };
    let within = |lo: u32, hi: u32| ranks & !(((1u64 << hi) - 1) & !((1u64 << (lo - 1)) - 1)) == 0;
    if within(1, 4) {
        fans.add(if ranks & 1 << 3 != 0 { LOWER_FOUR } else { LOWER_TILES }, 1);
    } else if within(6, 9) {
        fans.add(if ranks & 1 << 5 != 0 { UPPER_FOUR } else { UPPER_TILES }, 1);
    } else if within(4, 6) {
        fans.add(MIDDLE_TILES, 1);
    }
}

/// 和绝张, 自摸, 妙手回春, 海底捞月, 杠上开花, 抢杠和.
pub fn win_fans(s: &Situation, fans: &mut FanCounts) {
    // Flags added 0 or 1 times rather than branched on: whether a win is self-drawn is
    // as likely as not.
    fans.add(LAST_TILE, s.last_of_kind as u8);
    fans.add(SELF_DRAWN, s.self_drawn as u8);
    fans.add(LAST_TILE_DRAW, (s.self_drawn & s.wall_last) as u8);
    fans.add(LAST_TILE_CLAIM, (!s.self_drawn & s.wall_last) as u8);
    fans.add(OUT_WITH_REPLACEMENT_TILE, s.kong_replacement as u8);
    fans.add(ROBBING_THE_KONG, s.robbing_kong as u8);
}

/// 不求人 / 门前清 / 全求人 by the number of exposed melds.
pub fn concealment_fans(melded: u8, s: &Situation, fans: &mut FanCounts) {
    fans.add(FULLY_CONCEALED_HAND, (melded == 0 && s.self_drawn) as u8);
    fans.add(CONCEALED_HAND, (melded == 0 && !s.self_drawn) as u8);
    fans.add(MELDED_HAND, (melded == 4 && !s.self_drawn) as u8);
}

/// 四归一: kinds held four times outside a kong.
pub fn tile_hog(tiles: &Counts, kongs: u8, fans: &mut FanCounts) {
    let fours = super::shape::fours(tiles) as u8;
    fans.add(TILE_HOG, fours.saturating_sub(kongs));
}

/// What a set is, by kind (chow or not) and tile, for the fans every set must share:
/// it holds a terminal or honour (全带幺), a five (全带五), or is an even pung or pair
/// (全双刻).
const OUTSIDE: u8 = 1;
const FIVES: u8 = 2;
const EVEN: u8 = 4;
const SHAPES: [[u8; 34]; 2] = {
    let mut t = [[0u8; 34]; 2];
    let mut k = 0;
    while k < 34 {
        let tile = k as Tile;
        let r = k % 9 + 1;
        let suited = k < 27;
        // Pungs, kongs and pairs.
        t[0][k] = if is_orphan(tile) { OUTSIDE } else { 0 }
            | if suited && r == 5 { FIVES } else { 0 }
            | if suited && r % 2 == 0 { EVEN } else { 0 };
        // Chows, by their lowest tile.
        t[1][k] =
            if suited && (r == 1 || r == 7) { OUTSIDE } else { 0 } | if suited && r >= 3 && r <= 5 { FIVES } else { 0 };
        k += 1;
    }
    t
};

/// The fans of a standard arrangement (four sets and a pair; the knitted straight
/// counts as its three chows' worth of structure and is passed as `knitted`).
/// Returns the fans before exclusions and the two-chow fans dropped by 套算一次.
/// `unique_wait` says whether the winning tile is the hand's only wait (独听); it is
/// asked only when the arrangement could score a wait fan.
pub fn standard_fans(
    sets: &[Set],
    knitted: bool,
    hand: &HandFacts,
    s: &Situation,
    opts: &Options,
    unique_wait: &mut impl FnMut() -> bool,
) -> (FanCounts, u8) {
    let mut fans = hand.common;
    // One pass over the sets, without branching on their kinds, which follow the tiles
    // and so cannot be foreseen: each set is written to both lists and counted in the
    // one it belongs to (at most seven sets).
    let (mut chow_tiles, mut pung_tiles) = ([0 as Tile; 8], [0 as Tile; 8]);
    let (mut n_chows, mut n_pungs) = (0, 0);
    let mut pair = 0;
    let mut pung_mask = 0u64;
    let mut shape = u8::MAX;
    let (mut concealed_pungs, mut melded_kongs, mut concealed_kongs) = (0u8, 0u8, 0u8);
    // Where the winning tile sits in the concealed sets.
    let (mut win_in_chow, mut win_pung) = (false, false);
    let (mut edge, mut closed, mut single) = (false, false, false);
    // A chow completed at an open end (4 to 56): the other end (7) completes the same
    // sets, so the hand waits on two tiles.
    let mut two_sided = false;
    for set in sets {
        let t = set.tile;
        let (chow, is_pair, kong) = (set.kind == SetKind::Chow, set.kind == SetKind::Pair, set.kind == SetKind::Kong);
        let pung = !chow & !is_pair;
        chow_tiles[n_chows & 7] = t;
        n_chows += chow as usize;
        pung_tiles[n_pungs & 7] = t;
        n_pungs += pung as usize;
        pung_mask |= (pung as u64) << t;
        shape &= SHAPES[chow as usize][t as usize];
        let concealed = !set.declared;
        let in_chow = chow & concealed & (s.win.wrapping_sub(t) < 3);
        win_in_chow |= in_chow;
        closed |= in_chow & (t + 1 == s.win);
        edge |= in_chow & (t + 1 != s.win);
        let r = rank(t);
        two_sided |= in_chow & (((t == s.win) & (r <= 6)) | ((t + 2 == s.win) & (r >= 2)));
        let concealed_pung = (set.kind == SetKind::Pung) & !set.melded;
        concealed_pungs += concealed_pung as u8;
        win_pung |= concealed_pung & concealed & (t == s.win);
        melded_kongs += (kong & set.melded) as u8;
        concealed_kongs += (kong & !set.melded) as u8;
        single |= is_pair & concealed & (t == s.win);
        pair = if is_pair { t } else { pair };
    }
    let (chows, pungs) = (&chow_tiles[..n_chows], &pung_tiles[..n_pungs]);
    // A pung completed by a discard is exposed (明刻), unless the winning tile can be
    // read as part of a concealed chow.
    if !s.self_drawn && !win_in_chow && win_pung {
        concealed_pungs -= 1;
    }
    let concealed = concealed_pungs + concealed_kongs;
    match concealed {
        2 => fans.add(TWO_CONCEALED_PUNGS, 1),
        3 => fans.add(THREE_CONCEALED_PUNGS, 1),
        4 => fans.add(FOUR_CONCEALED_PUNGS, 1),
        _ => {}
    }
    match (melded_kongs, concealed_kongs) {
        (1, 0) => fans.add(MELDED_KONG, 1),
        (0, 1) => fans.add(CONCEALED_KONG, 1),
        (2, 0) => fans.add(TWO_MELDED_KONGS, 1),
        (1, 1) if opts.concealed_and_melded_kong => fans.add(MINGANGANG, 1),
        (1, 1) => {
            fans.add(MELDED_KONG, 1);
            fans.add(CONCEALED_KONG, 1);
        }
        (0, 2) => fans.add(TWO_CONCEALED_KONGS, 1),
        (m, c) if m + c == 3 => fans.add(THREE_KONGS, 1),
        (m, c) if m + c == 4 => fans.add(FOUR_KONGS, 1),
        _ => {}
    }
    if pungs.len() == 4 {
        fans.add(ALL_PUNGS, 1);
    }
    let mut dropped = 0;
    if knitted {
        if chows.len() == 1 && pair < 27 {
            fans.add(ALL_CHOWS, 1);
        }
    } else {
        // 三色双龙会 / 一色双龙会: 123 and 789 chows with a pair of 5s.
        let terminal_chows =
            chows.len() == 4 && rank(pair) == 5 && pair < 27 && chows.iter().all(|&c| matches!(rank(c), 1 | 7));
        let pure = terminal_chows && chows.iter().all(|&c| suit(c) == suit(pair)) && {
            let lo = chows.iter().filter(|&&c| rank(c) == 1).count();
            lo == 2
        };
        let mixed = terminal_chows && chows.iter().all(|&c| suit(c) != suit(pair)) && {
            let mut seen = [[false; 2]; 3];
            for &c in chows {
                seen[suit(c) as usize][(rank(c) == 7) as usize] = true;
            }
            (0..3).filter(|&x| x != suit(pair) as usize).all(|x| seen[x] == [true, true])
        };
        if mixed {
            fans.add(THREE_SUITED_TERMINAL_CHOWS, 1);
        } else if pure {
            fans.add(PURE_TERMINAL_CHOWS, 1);
        } else {
            dropped = sets::chow_fans(chows, &mut fans);
        }
        if chows.len() == 4 && pair < 27 {
            fans.add(ALL_CHOWS, 1);
        }
    }
    sets::pung_fans(pungs, &mut fans);
    let wind_pair = (27..31).contains(&pair);
    let dragon_pair = pair >= WHITE;
    if fans.get(TWO_DRAGON_PUNGS) > 0 && dragon_pair {
        fans.add(LITTLE_THREE_DRAGONS, 1);
    }
    if fans.get(BIG_THREE_WINDS) > 0 && wind_pair {
        fans.add(LITTLE_FOUR_WINDS, 1);
    }
    // One-pung fans. A wind pung that scores 圈风刻, 门风刻 or belongs to 三风刻 is not
    // also a 幺九刻.
    let three_winds = fans.get(BIG_THREE_WINDS) > 0;
    let winds = (pung_mask >> 27 & 0xF) as u32;
    let (round, seat) = (1u32 << s.round_wind, 1u32 << s.seat_wind);
    let plain_winds = if three_winds { 0 } else { (winds & !round & !seat).count_ones() };
    fans.add(DRAGON_PUNG, (pung_mask & kinds::DRAGONS).count_ones() as u8);
    fans.add(PREVALENT_WIND, (winds & round != 0) as u8);
    fans.add(SEAT_WIND, (winds & seat != 0) as u8);
    fans.add(PUNG_OF_TERMINALS_OR_HONOURS, ((pung_mask & kinds::TERMINALS).count_ones() + plain_winds) as u8);
    // 全带幺 / 全带五 / 全双刻: every set and the pair.
    if !knitted {
        if shape & OUTSIDE != 0 {
            fans.add(OUTSIDE_HAND, 1);
        } else if shape & FIVES != 0 {
            fans.add(ALL_FIVES, 1);
        } else if shape & EVEN != 0 {
            fans.add(ALL_EVEN_PUNGS, 1);
        }
    }
    if (edge | closed | single) && !two_sided && unique_wait() {
        // 边张 over 坎张 over 单钓将.
        if edge {
            fans.add(EDGE_WAIT, 1);
        } else if closed {
            fans.add(CLOSED_WAIT, 1);
        } else if single {
            fans.add(SINGLE_WAIT, 1);
        }
    }
    (fans, dropped)
}

/// `EXCLUDE_MASKS[id]`: every fan that fan `id` makes not counted, by the list and by
/// 不重复 together. 明暗杠 stands for 明杠 + 暗杠, so the kong fans that exclude those
/// exclude it.
const EXCLUDE_MASKS: [u128; 82] = {
    let mut masks = [0u128; 82];
    let mut id = 0;
    while id < 82 {
        let mut m = 0u128;
        let (list, implied) = (EXCLUDES[id], IMPLIED_EXCLUDES[id]);
        let mut j = 0;
        while j < list.len() {
            m |= 1 << list[j];
            j += 1;
        }
        j = 0;
        while j < implied.len() {
            m |= 1 << implied[j];
            j += 1;
        }
        if id == FOUR_KONGS as usize || id == THREE_KONGS as usize {
            m |= 1 << MINGANGANG;
        }
        masks[id] = m;
        id += 1;
    }
    masks
};

/// Applies the 不计 exclusions, most valuable fan first, so that a fan already excluded
/// excludes nothing; records them in `log` when given. Sets 无番和 when nothing is left
/// (flowers do not count as a fan).
pub fn exclude(fans: &mut FanCounts, mut log: Option<&mut Vec<Exclusion>>) {
    // Fans 1..=80 can exclude others; ids rise as points fall.
    let mut by_left = fans.mask() & (((1u128 << 81) - 1) & !1);
    while by_left != 0 {
        let by = by_left.trailing_zeros() as u8;
        by_left &= by_left - 1;
        let hit = fans.mask() & EXCLUDE_MASKS[by as usize];
        if hit == 0 {
            continue;
        }
        if let Some(l) = log.as_deref_mut() {
            for (table, rule) in [(&EXCLUDES, "list"), (&IMPLIED_EXCLUDES, "implied")] {
                for &e in table[by as usize] {
                    if hit >> e & 1 == 1 {
                        l.push(Exclusion { fan: e, count: fans.get(e), by, rule });
                    }
                }
            }
        }
        fans.clear(hit);
        by_left &= !hit;
    }
    if fans.mask() & !(1u128 << FLOWER_TILES) == 0 {
        fans.add(CHICKEN_HAND, 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiles::KINDS;

    #[test]
    fn suits_and_ranges() {
        let mut t = [0u8; KINDS];
        for k in [0, 1, 2, 3] {
            t[k] = 3;
        }
        t[4] = 2;
        let mut f = FanCounts::default();
        tile_fans(super::super::shape::kind_masks(&t).0, &mut f);
        assert_eq!(f.get(FULL_FLUSH), 1);
        assert_eq!(f.get(NO_HONOURS), 1);
        let mut t = [0u8; KINDS];
        t[27] = 14;
        let mut f = FanCounts::default();
        tile_fans(super::super::shape::kind_masks(&t).0, &mut f);
        assert_eq!(f.get(ALL_HONOURS), 1);
    }

    #[test]
    fn an_excluded_fan_excludes_nothing() {
        let mut f = FanCounts::default();
        f.add(FOUR_CONCEALED_PUNGS, 1);
        f.add(FULLY_CONCEALED_HAND, 1);
        f.add(SELF_DRAWN, 1);
        f.add(ALL_PUNGS, 1);
        let mut log = Vec::new();
        exclude(&mut f, Some(&mut log));
        assert_eq!(f.get(SELF_DRAWN), 1);
        assert_eq!(f.get(FULLY_CONCEALED_HAND), 0);
        assert_eq!(f.get(ALL_PUNGS), 0);
        assert_eq!(log.len(), 2);
    }

    #[test]
    fn chicken_hand_ignores_flowers() {
        let mut f = FanCounts::default();
        f.add(FLOWER_TILES, 2);
        exclude(&mut f, None);
        assert_eq!(f.get(CHICKEN_HAND), 1);
        assert_eq!(f.total(), 10);
        assert_eq!(f.total_without_flowers(), 8);
    }
}
