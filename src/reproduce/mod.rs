//! Exhaustive enumeration of one-suit (清一色) and honours-only (字一色) hands: the
//! published wait tables of the Longgang text, 附二 to 附五 (`haidi reproduce`).
//!
//! A hand is a count vector over one suit (9 kinds, chows) or the honours (7 kinds, no
//! chows), at most four of a kind. Completeness comes from the core engine
//! ([`distance::is_complete`]) and is computed once per complete-size hand; the waits of a
//! hand are then the kinds `t`, held fewer than four times, with `hand + t` complete,
//! which is what [`crate::Engine::waits_of_counts`] answers (a test checks the two agree on
//! every 13-tile hand). The conventions for counting, and which of them reproduce which
//! published figure, are in `docs/reproduce.md`.

use crate::distance;
use crate::error::{HandError, Result};
use crate::forms::{Forms, View};
use crate::tiles::{Counts, ALL_KINDS, KINDS};

mod figures;
pub use figures::{kinds_notation, nine_wait_label, notation, published_figures, table_figures, PUBLISHED_TABLES};

/// Copies of each kind.
const COPIES: u8 = 4;
/// Most tiles a complete hand may have here: the distance tables go up to five melds.
const MAX_COMPLETE: usize = 17;
const POW5: [usize; 10] = [1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125];

/// Counts of a hand over the kinds of its tile set (unused places stay zero).
pub type Shape = [u8; 9];

/// The tiles a table is enumerated over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TileSet {
    /// One suit (清一色): nine kinds, chows allowed.
    OneSuit,
    /// Honours only (字一色): the seven honours, pungs only.
    Honours,
}

impl TileSet {
    pub fn kinds(self) -> usize {
        match self {
            TileSet::OneSuit => 9,
            TileSet::Honours => 7,
        }
    }

    /// First engine kind of the set: 1m, or east.
    fn first(self) -> usize {
        match self {
            TileSet::OneSuit => 0,
            TileSet::Honours => 27,
        }
    }

    /// Kinds outside the set that can supply the pairs a small pairs-form hand lacks.
    fn padding(self) -> usize {
        match self {
            TileSet::OneSuit => 27,
            TileSet::Honours => 0,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            TileSet::OneSuit => "one_suit",
            TileSet::Honours => "honours",
        }
    }
}

/// Bits of the completeness of one hand.
const STANDARD: u8 = 1;
const PAIRS: u8 = 2;
/// Pairs form with every kind used once (the text's 相异): no four of a kind as two pairs.
const PAIRS_DISTINCT: u8 = 4;

/// Every hand of `n` tiles with at most `caps[i]` of kind `i`. The first kind varies
/// fastest, as in the engine's base-5 table index, so that table reads run through
/// memory in order (the suit table is too large for the cache).
pub fn hands(n: usize, caps: &[u8]) -> Vec<Shape> {
    fn rec(i: usize, left: usize, caps: &[u8], room: &[usize], cur: &mut Shape, out: &mut Vec<Shape>) {
        if i == 0 {
            if left == 0 {
                out.push(*cur);
            }
            return;
        }
        let k = i - 1;
        for c in 0..=left.min(caps[k] as usize) {
            if left - c <= room[k] {
                cur[k] = c as u8;
                rec(k, left - c, caps, room, cur, out);
            }
        }
        cur[k] = 0;
    }
    // room[i]: most tiles kinds ..i can hold.
    let mut room = vec![0usize; caps.len() + 1];
    for i in 0..caps.len() {
        room[i + 1] = room[i] + caps[i] as usize;
    }
    let mut out = Vec::new();
    if n <= room[caps.len()] {
        rec(caps.len(), n, caps, &room, &mut [0; 9], &mut out);
    }
    out
}

#[inline]
fn index(s: &Shape) -> usize {
    s.iter().zip(POW5).map(|(&c, p)| c as usize * p).sum()
}

#[inline]
fn size(s: &Shape) -> usize {
    s.iter().map(|&c| c as usize).sum()
}

/// Number of sets of physical tiles with these counts: the product of C(4, c).
pub fn physical_combinations(s: &Shape) -> u64 {
    const C4: [u64; 5] = [1, 4, 6, 4, 1];
    s.iter().map(|&c| C4[c as usize]).product()
}

/// The engine's view of a hand of the set, nothing declared, every kind at four copies.
/// Kinds outside the set hold nothing, so a complete arrangement (distance 0) can only
/// use the hand's own tiles; full caps keep the engine on its precomputed suit tables.
fn view_of(set: TileSet, s: &Shape) -> View {
    let mut counts: Counts = [0; KINDS];
    counts[set.first()..set.first() + set.kinds()].copy_from_slice(&s[..set.kinds()]);
    View { counts, wilds: 0, drawable: 0, caps: [COPIES; KINDS], melds: Default::default() }
}

/// Standard form (melds and a pair) by the engine: the distance of the hand's one group
/// to `m` melds and a pair. The other groups are empty, so this is what
/// [`distance::is_complete`] finds after combining the groups, without the combining.
fn standard_complete(set: TileSet, s: &Shape) -> bool {
    let n = size(s);
    if n % 3 != 2 || n > MAX_COMPLETE {
        return false;
    }
    let group = set.first() / 9;
    distance::group_distances(&view_of(set, s), group, ALL_KINDS)[(n - 2) / 3 * 2 + 1] == 0
}

/// Whether the engine has a pairs form for complete hands of `n` tiles: all pairs for an
/// even size up to 14 (七对), pairs and one triplet for an odd size up to 17 (八对半).
pub fn has_pairs_form(n: usize) -> bool {
    n >= 2 && if n % 2 == 0 { n <= 14 } else { n <= MAX_COMPLETE }
}

/// Pairs form by the engine. The engine knows 七对 (14 tiles) and 八对半 (17 tiles); a
/// smaller hand is tested as the same form with its missing pairs supplied by kinds
/// outside the set, which cannot take part in anything else.
fn pairs_complete(set: TileSet, s: &Shape, four_as_two_pairs: bool) -> bool {
    let n = size(s);
    if !has_pairs_form(n) {
        return false;
    }
    // Every pairs-form hand holds an odd number of tiles of exactly n % 2 kinds. This
    // only saves the engine the hands it would reject anyway.
    if s.iter().filter(|&&c| c % 2 == 1).count() != n % 2 {
        return false;
    }
    let (full, mut forms) = if n % 2 == 0 { (14, Forms::standard(4)) } else { (17, Forms::standard(5)) };
    forms.standard = false;
    forms.seven_pairs = n % 2 == 0;
    forms.eight_pairs_and_a_half = n % 2 == 1;
    forms.four_as_two_pairs = four_as_two_pairs;
    let mut view = view_of(set, s);
    // Only the set and the padding are playable: fewer kinds for the pairs search.
    view.caps = [0; KINDS];
    for t in set.first()..set.first() + set.kinds() {
        view.caps[t] = COPIES;
    }
    let pad = (full - n) / 2;
    for t in set.padding()..set.padding() + pad {
        view.counts[t] = 2;
        view.caps[t] = COPIES;
    }
    distance::is_complete(&forms, &view)
}

/// Completeness flags of every hand of the sizes asked for, indexed by base-5 counts.
struct Completeness {
    set: TileSet,
    flags: Vec<u8>,
    done: u32,
}

impl Completeness {
    fn new(set: TileSet) -> Self {
        Completeness { set, flags: vec![0; POW5[set.kinds()]], done: 0 }
    }

    /// Computes the flags of every hand of `n` tiles (once).
    fn fill(&mut self, n: usize) {
        if self.done >> n & 1 == 1 {
            return;
        }
        self.done |= 1 << n;
        let caps = [COPIES; 9];
        let pairs = has_pairs_form(n);
        for s in hands(n, &caps[..self.set.kinds()]) {
            let mut f = 0;
            if standard_complete(self.set, &s) {
                f |= STANDARD;
            }
            if pairs && pairs_complete(self.set, &s, true) {
                f |= PAIRS;
                if pairs_complete(self.set, &s, false) {
                    f |= PAIRS_DISTINCT;
                }
            }
            self.flags[index(&s)] = f;
        }
    }

    /// Waits of a hand, by form: (standard, pairs, pairs with distinct kinds), each a
    /// mask over the set's kinds. A kind held four times is never a wait, and neither is
    /// a kind in `exhausted` (declared kongs).
    #[inline]
    fn waits(&self, s: &Shape, exhausted: u16) -> (u16, u16, u16) {
        let idx = index(s);
        let (mut std, mut prs, mut dis) = (0u16, 0u16, 0u16);
        for t in 0..self.set.kinds() {
            if s[t] >= COPIES || exhausted >> t & 1 == 1 {
                continue;
            }
            let f = self.flags[idx + POW5[t]];
            std |= ((f & STANDARD != 0) as u16) << t;
            prs |= ((f & PAIRS != 0) as u16) << t;
            dis |= ((f & PAIRS_DISTINCT != 0) as u16) << t;
        }
        (std, prs, dis)
    }
}

/// A hand listed by the table, with its waits by form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    pub counts: Shape,
    /// Kinds declared as kongs (each four tiles, counted as a meld of three).
    pub kongs: u16,
    pub standard_waits: u16,
    pub pairs_waits: u16,
}

impl Listed {
    /// Waits over both forms.
    pub fn waits(&self) -> u16 {
        self.standard_waits | self.pairs_waits
    }
}

/// Ready-hand figures of N-tile hands (附四, 附五 (一)/(三), 附二/附三).
#[derive(Clone, Debug, Default)]
pub struct Ready {
    pub hands: u64,
    /// 全听: ready in either form.
    pub any: u64,
    /// 无听.
    pub none: u64,
    /// 标准听: ready in the standard form.
    pub standard: u64,
    /// 七对听 / 八对半听: ready in the pairs form.
    pub pairs: u64,
    /// (相异): ready in the pairs form with every kind used once.
    pub pairs_distinct: u64,
    /// 复合: ready in both forms.
    pub composite: u64,
    /// One waiting kind completes both forms at once (the closest reading of 复合).
    pub composite_same_wait: u64,
    /// Hands by number of waiting kinds, waits of both forms.
    pub waits_any: [u64; 10],
    /// Hands by number of standard-form waiting kinds.
    pub waits_standard: [u64; 10],
    /// Hands by their exact set of waits (both forms), indexed by wait mask.
    pub by_wait_set: Vec<u64>,
    /// 张张可胡 hands by number of waits: every kind held fewer than four times is a wait.
    pub every_tile_wins: [u64; 10],
    /// Their physical tile sets, the sum of the product of C(4, c) (牌姿组合式).
    pub every_tile_wins_physical: [u64; 10],
    pub every_tile_wins_hands: Vec<Listed>,
    /// Ready hands whose counts are all 0 or 4 (清四杠刻 for 16 tiles).
    pub quads_only: Vec<Listed>,
}

/// Complete-hand figures of N+1-tile hands (附五 (二)/(四)).
#[derive(Clone, Debug, Default)]
pub struct Complete {
    pub hands: u64,
    pub any: u64,
    pub none: u64,
    pub standard: u64,
    pub pairs: u64,
    pub pairs_distinct: u64,
    /// Complete in both forms.
    pub composite: u64,
}

/// 含杠: hands holding k >= 1 declared kongs of distinct kinds, each a meld of three
/// toward the nominal size, the concealed part in the standard form.
#[derive(Clone, Debug, Default)]
pub struct Kongs {
    /// 含杠听: the concealed N - 3k tiles are ready.
    pub ready: u64,
    /// 含杠胡: the concealed N + 1 - 3k tiles are complete.
    pub complete: u64,
    /// 张张可胡 with kongs: every kind with tiles left is a wait.
    pub every_tile_wins: u64,
    pub every_tile_wins_hands: Vec<Listed>,
}

/// Every figure of one hand size and tile set.
#[derive(Clone, Debug)]
pub struct Table {
    pub tiles: usize,
    pub set: TileSet,
    pub ready: Ready,
    pub complete: Complete,
    pub kongs: Kongs,
}

/// Checks a hand size: the engine's forms reach complete hands of 17 tiles, and has no
/// all-pairs form of 16.
pub fn check_size(tiles: usize, set: TileSet) -> Result<()> {
    let most = (COPIES as usize * set.kinds()).min(MAX_COMPLETE - 1);
    if tiles == 0 || tiles > most {
        return Err(HandError::invalid(format!(
            "a hand size must be between 1 and {most} for {} (complete hands of at most {MAX_COMPLETE} tiles), not {tiles}",
            set.name()
        )));
    }
    if tiles == 15 {
        return Err(HandError::invalid(
            "a hand size of 15 tiles: a complete 16-tile pairs hand would be eight pairs, a form the engine does not have \
             (it has 七对 for 14 tiles and 八对半 for 17)"
                .to_string(),
        ));
    }
    Ok(())
}

/// Enumerates every hand of `tiles` tiles (and `tiles + 1` for completeness, and the
/// 含杠 hands) of the set.
pub fn table(tiles: usize, set: TileSet) -> Result<Table> {
    table_with(&mut Completeness::new(set), tiles)
}

/// The same, reusing the completeness already computed for other sizes of the set.
fn table_with(c: &mut Completeness, tiles: usize) -> Result<Table> {
    check_size(tiles, c.set)?;
    for k in 0..=tiles / 3 {
        c.fill(tiles + 1 - 3 * k);
    }
    Ok(Table { tiles, set: c.set, ready: ready(c, tiles), complete: complete(c, tiles + 1), kongs: kongs(c, tiles) })
}

fn ready(c: &Completeness, n: usize) -> Ready {
    let kinds = c.set.kinds();
    let mut r = Ready { by_wait_set: vec![0; 1 << kinds], ..Default::default() };
    for s in hands(n, &[COPIES; 9][..kinds]) {
        r.hands += 1;
        let (std, prs, dis) = c.waits(&s, 0);
        let both = std | prs;
        r.by_wait_set[both as usize] += 1;
        if both == 0 {
            r.none += 1;
            continue;
        }
        r.any += 1;
        r.waits_any[both.count_ones() as usize] += 1;
        if std != 0 {
            r.standard += 1;
            r.waits_standard[std.count_ones() as usize] += 1;
        }
        if prs != 0 {
            r.pairs += 1;
            r.pairs_distinct += (dis != 0) as u64;
        }
        if std != 0 && prs != 0 {
            r.composite += 1;
            r.composite_same_wait += (std & prs != 0) as u64;
        }
        let listed = Listed { counts: s, kongs: 0, standard_waits: std, pairs_waits: prs };
        let live = (0..kinds).filter(|&t| s[t] < COPIES).fold(0u16, |m, t| m | 1 << t);
        if live & !both == 0 {
            let k = both.count_ones() as usize;
            r.every_tile_wins[k] += 1;
            r.every_tile_wins_physical[k] += physical_combinations(&s);
            r.every_tile_wins_hands.push(listed.clone());
        }
        if s.iter().all(|&x| x == 0 || x == COPIES) {
            r.quads_only.push(listed);
        }
    }
    r
}

fn complete(c: &Completeness, m: usize) -> Complete {
    let mut r = Complete::default();
    for s in hands(m, &[COPIES; 9][..c.set.kinds()]) {
        let f = c.flags[index(&s)];
        r.hands += 1;
        let (std, prs) = (f & STANDARD != 0, f & PAIRS != 0);
        r.any += (std || prs) as u64;
        r.none += !(std || prs) as u64;
        r.standard += std as u64;
        r.pairs += prs as u64;
        r.pairs_distinct += (f & PAIRS_DISTINCT != 0) as u64;
        r.composite += (std && prs) as u64;
    }
    r
}

/// Sets of `k` kinds out of `kinds`, as masks, in increasing order.
fn kong_sets(kinds: usize, k: usize) -> impl Iterator<Item = u16> {
    (0u16..1 << kinds).filter(move |m| m.count_ones() as usize == k)
}

fn kongs(c: &Completeness, n: usize) -> Kongs {
    let kinds = c.set.kinds();
    let mut r = Kongs::default();
    for k in 1..=(n / 3).min(kinds) {
        for kong in kong_sets(kinds, k) {
            let mut caps = [COPIES; 9];
            for t in 0..kinds {
                if kong >> t & 1 == 1 {
                    caps[t] = 0;
                }
            }
            let live_kinds = (0..kinds).fold(0u16, |m, t| m | ((kong >> t & 1 == 0) as u16) << t);
            for s in hands(n - 3 * k, &caps[..kinds]) {
                let (std, _, _) = c.waits(&s, kong);
                if std == 0 {
                    continue;
                }
                r.ready += 1;
                let live = (0..kinds).filter(|&t| s[t] < COPIES).fold(0u16, |m, t| m | 1 << t) & live_kinds;
                if live != 0 && live & !std == 0 {
                    r.every_tile_wins += 1;
                    r.every_tile_wins_hands.push(Listed {
                        counts: s,
                        kongs: kong,
                        standard_waits: std,
                        pairs_waits: 0,
                    });
                }
            }
            for s in hands(n + 1 - 3 * k, &caps[..kinds]) {
                r.complete += (c.flags[index(&s)] & STANDARD != 0) as u64;
            }
        }
    }
    r
}

/// Tables of several sizes, each hand's completeness computed once per set (14-tile hands
/// serve 13-tile waits and 16-tile hands with a kong).
pub struct Enumerator {
    suit: Completeness,
    honours: Completeness,
}

impl Default for Enumerator {
    fn default() -> Self {
        Enumerator { suit: Completeness::new(TileSet::OneSuit), honours: Completeness::new(TileSet::Honours) }
    }
}

impl Enumerator {
    pub fn table(&mut self, tiles: usize, set: TileSet) -> Result<Table> {
        match set {
            TileSet::OneSuit => table_with(&mut self.suit, tiles),
            TileSet::Honours => table_with(&mut self.honours, tiles),
        }
    }
}

/// The four published tables, computed one after the other.
pub fn published_tables() -> Result<[Table; 4]> {
    let mut e = Enumerator::default();
    let [a, b, c, d] = PUBLISHED_TABLES;
    Ok([e.table(a.0, a.1)?, e.table(b.0, b.1)?, e.table(c.0, c.1)?, e.table(d.0, d.1)?])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Engine;
    use std::collections::HashMap;

    fn figures() -> HashMap<String, u64> {
        published_figures(&published_tables().unwrap()).into_iter().collect()
    }

    #[test]
    fn hand_counts() {
        let suit = [4u8; 9];
        let honours = [4u8; 7];
        for (n, want) in [(13, 93_600), (14, 118_800), (16, 162_585), (17, 175_725)] {
            assert_eq!(hands(n, &suit).len(), want, "{n}");
        }
        for (n, want) in [(13, 7_875), (14, 8_135), (16, 7_140), (17, 6_055)] {
            assert_eq!(hands(n, &honours).len(), want, "{n}");
        }
        assert_eq!(hands(0, &suit).len(), 1);
        assert_eq!(hands(37, &suit).len(), 0);
        assert_eq!(hands(3, &[0, 4, 0]), vec![[0, 3, 0, 0, 0, 0, 0, 0, 0]]);
    }

    #[test]
    fn waits_agree_with_the_engine() {
        // Lookup waits against Engine::waits_of_counts, one form at a time, on every
        // 13-tile one-suit hand and every 13-tile honours hand.
        for set in [TileSet::OneSuit, TileSet::Honours] {
            let mut c = Completeness::new(set);
            c.fill(14);
            let tiles = ((1u64 << set.kinds()) - 1) << set.first();
            let standard = Engine::new("standard", Forms::standard(4), tiles);
            let mut f = Forms::standard(4);
            f.standard = false;
            f.seven_pairs = true;
            f.four_as_two_pairs = true;
            let pairs = Engine::new("pairs", f, tiles);
            for s in hands(13, &[4; 9][..set.kinds()]) {
                let view = view_of(set, &s);
                let (std, prs, _) = c.waits(&s, 0);
                let shift = |m: u64| (m >> set.first()) as u16;
                assert_eq!(std, shift(standard.waits_of_counts(&view, &view.counts, 0)), "{s:?}");
                assert_eq!(prs, shift(pairs.waits_of_counts(&view, &view.counts, 0)), "{s:?}");
            }
        }
    }

    #[test]
    fn standard_form_agrees_with_is_complete() {
        for set in [TileSet::OneSuit, TileSet::Honours] {
            for n in [2, 5, 8, 11, 14] {
                for s in hands(n, &[4; 9][..set.kinds()]) {
                    let forms = Forms::standard(((n - 2) / 3) as u8);
                    assert_eq!(standard_complete(set, &s), distance::is_complete(&forms, &view_of(set, &s)), "{s:?}");
                }
            }
        }
    }

    #[test]
    fn padded_pairs_form() {
        let s = TileSet::OneSuit;
        assert!(pairs_complete(s, &[2, 2, 0, 0, 0, 0, 0, 0, 0], true));
        assert!(pairs_complete(s, &[4, 0, 0, 0, 0, 0, 0, 0, 0], true));
        assert!(!pairs_complete(s, &[4, 0, 0, 0, 0, 0, 0, 0, 0], false));
        assert!(pairs_complete(s, &[3, 2, 0, 0, 0, 0, 0, 0, 0], false));
        assert!(!pairs_complete(s, &[1, 2, 2, 0, 0, 0, 0, 0, 0], true));
        assert!(pairs_complete(TileSet::Honours, &[3, 0, 0, 0, 0, 0, 0, 0, 0], true));
        assert!(!has_pairs_form(16));
    }

    #[test]
    fn nine_gates_is_every_tile_wins() {
        let t = table(13, TileSet::OneSuit).unwrap();
        let names: Vec<String> = t.ready.every_tile_wins_hands.iter().map(|l| notation(t.set, l)).collect();
        assert!(names.contains(&"1112345678999".to_string()), "{names:?}");
        let nine = t.ready.every_tile_wins_hands.iter().find(|l| l.counts == figures::NINE_GATES).unwrap();
        assert_eq!(kinds_notation(nine.waits()), "123456789");
        let kongs: Vec<String> = t.kongs.every_tile_wins_hands.iter().map(|l| notation(t.set, l)).collect();
        assert_eq!(kongs, ["3334567888[1111]", "2223456777[9999]"]);
    }

    #[test]
    fn sizes_are_checked() {
        assert!(table(0, TileSet::OneSuit).is_err());
        assert!(table(15, TileSet::OneSuit).is_err());
        assert!(table(17, TileSet::OneSuit).is_err());
        for n in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] {
            assert!(table(n, TileSet::Honours).is_ok(), "{n}");
        }
    }

    #[test]
    fn published_figures_as_computed() {
        // haidi's values (not the published ones), equal to the pure-Python enumeration
        // of benches/pure_python_tables.py.
        let f = figures();
        assert_eq!(f.len(), 105);
        for (id, want) in [
            ("zz16_total", 133),
            ("zz16_physical_total", 8_505_728),
            ("zz16_with_kongs", 76),
            ("zz13_with_kongs", 2),
            ("multiwait16_1", 38_980),
            ("multiwait13_1", 14_067),
            ("multiwait13_total", 40_070),
            ("multiwait13_complete", 13_259),
            ("four_quads16", 16),
            ("four_quads16_consecutive", 6),
            ("exact_waits16_123456", 44),
            ("exact_waits16_12345678", 21),
            ("ready16_standard", 81_885),
            ("ready16_pairs_distinct", 513),
            ("ready16_composite", 14_617),
            ("complete17_standard", 26_414),
            ("complete17_composite", 1_060),
            ("ready13_any", 47_933),
            ("ready13_composite", 3_729),
            ("complete14_composite", 214),
            ("honours13_ready_with_kongs", 3_045),
            ("honours16_ready_total", 6_307),
            ("honours17_complete_total", 2_226),
        ] {
            assert_eq!(f[id], want, "{id}");
        }
    }

    #[test]
    fn small_table() {
        // 7 one-suit tiles, counted by hand for the pure-Python enumeration.
        let t = table(7, TileSet::OneSuit).unwrap();
        assert_eq!(t.ready.hands, hands(7, &[4; 9]).len() as u64);
        assert_eq!(t.ready.any, t.ready.hands - t.ready.none);
        assert_eq!(t.complete.any, t.complete.standard + t.complete.pairs - t.complete.composite);
    }
}
