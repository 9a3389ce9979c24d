//! Scoring a situation: every arrangement of the hand (free groups given kinds), every
//! place the winning tile may sit, the patterns of each, and the best kept by the
//! ruleset's rank (就高不就低).
//!
//! Free groups (wilds alone) are given kinds one group at a time. Kinds that every rule,
//! point table and pair rule treats alike, that stand as often in the arrangement and
//! have as much room left, give the same score, so one of each class is tried. Kinds of a
//! suit no group holds are alike across such suits, unless a rule names the suit.

use super::arrange::{self, Form, Found, Tiles};
use super::facts::{self, Facts, Situation};
use super::group::{Group, Groups, Placement, Shape, NO_GROUP};
use super::rule::{Bound, Context, Known};
use super::scheme::{Exclusion, GroupState, RankKey, Scheme, Total, MAX_PATTERNS};
use super::situation::{Prepared, Waits};
use crate::hash::Fast;
use crate::inline::Inline;
use crate::tiles::{self, bits, Counts, Tile, KINDS};

/// A point of the face: a group's row of the point table, or a situational row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Item {
    /// The row of `Scheme::group_points`, the group's kind.
    Group(usize, Tile),
    /// The row of `Scheme::extra_points`, times counted.
    Extra(usize, u32),
}

/// The score of a situation.
#[derive(Clone, Debug)]
pub struct Scored {
    /// Some arrangement (or a form granted whatever the shape) counts.
    pub complete: bool,
    /// It wins: complete, and no rule of the ruleset refuses the win.
    pub win: bool,
    pub reason: Option<std::sync::Arc<str>>,
    pub total: i32,
    /// The patterns' values summed (番, 台).
    pub value: i32,
    /// Face points (Longgang's 胡数), before the base and the multiple.
    pub face: i32,
    /// A limit hand: the total is the cap.
    pub lazi: bool,
    /// Patterns counted, by bit, and how many times each counts.
    pub counted: u64,
    pub counts: [u8; MAX_PATTERNS],
    /// Patterns found but voided by another, by bit.
    pub voided: u64,
    pub form: Option<Form>,
    pub groups: Groups,
    pub placement: Option<Placement>,
    /// The player did not win: the hand was scored as it stands.
    pub loser: bool,
    /// Wilds of a player who did not win that are in no group (财神卖兵).
    pub void_wilds: u8,
    pub situation: Situation,
    pub facts: Facts,
    /// Placements scored, and arrangements met (for measuring the search).
    pub tried: u32,
    pub met: u32,
}

impl Scored {
    /// The face points, item by item.
    pub fn items(&self, scheme: &Scheme, sets: &[u64]) -> Vec<(Item, i32)> {
        let mut out = Vec::with_capacity(self.groups.len() + scheme.extra_points.len());
        let winner = !self.loser;
        for (gi, g) in self.groups.iter().enumerate() {
            let on_discard = self.facts.pung_on_discard && self.placement.is_some_and(|p| p.group as usize == gi);
            if let Some((row, pts)) = scheme.group_points(g, on_discard, sets, winner) {
                out.push((Item::Group(row, g.tile), pts));
            }
        }
        let ctx = Context::new(&self.facts, &self.situation, sets, None);
        for (i, e) in scheme.extra_points.iter().enumerate() {
            if !(if winner { e.winners } else { e.losers }) {
                continue;
            }
            let n = ctx.eval(&e.rule);
            if n > 0 {
                out.push((Item::Extra(i, n), e.points.saturating_mul(n as i32)));
            }
        }
        out
    }

    /// The patterns counted, in table order, with their counts.
    pub fn fans(&self) -> impl Iterator<Item = (usize, u8)> + '_ {
        // Visits only the bits set: a result asks for these several times.
        let mut left = self.counted;
        std::iter::from_fn(move || {
            let i = left.trailing_zeros() as usize;
            left &= left.wrapping_sub(1);
            (i < MAX_PATTERNS).then(|| (i, self.counts[i]))
        })
    }

    /// The patterns voided, each with the pattern that voided it.
    pub fn voided_by(&self, scheme: &Scheme) -> Vec<(usize, u8, usize)> {
        let found = self.counted | self.voided;
        (0..scheme.patterns.len())
            .filter(|&i| self.voided >> i & 1 == 1)
            .filter_map(|i| {
                let by = (0..scheme.patterns.len())
                    .rev()
                    .find(|&j| found >> j & 1 == 1 && scheme.patterns[j].excludes >> i & 1 == 1)?;
                Some((i, self.counts[i], by))
            })
            .collect()
    }
}

/// The patterns of the situation alone (they read no arrangement): found, with their
/// counts.
fn situational(scheme: &Scheme, ctx: &Context) -> (u64, [u8; MAX_PATTERNS]) {
    let mut counts = [0u8; MAX_PATTERNS];
    let mut hits = 0u64;
    for i in bits(scheme.plan.situational) {
        let pat = &scheme.patterns[i];
        let n = ctx.judge(&pat.rule, &scheme.plan.pattern_needs[i]);
        if n > 0 {
            hits |= 1 << i;
            counts[i] = n.min(255) as u8;
        }
    }
    (hits, counts)
}

/// What a search has judged of its situation: its own patterns found, with their
/// counts, and the patterns it rules out (see [`shut`]).
#[derive(Clone, Copy)]
struct Judged {
    patterns: (u64, [u8; MAX_PATTERNS]),
    shut: u64,
}

/// The patterns whose situation parts fail here (see `Scheme::gates`), by bit.
fn shut(scheme: &Scheme, ctx: &Context) -> u64 {
    scheme.plan.gates.iter().filter(|(_, gate)| ctx.eval(gate) == 0).fold(0, |m, &(i, _)| m | 1 << i)
}

/// One arrangement scored, the winning tile placed.
#[derive(Clone, Copy)]
struct Candidate {
    form: Form,
    groups: Groups,
    placement: Option<Placement>,
    counted: u64,
    counts: [u8; MAX_PATTERNS],
    voided: u64,
    value: i32,
    face: i32,
    total: i32,
    lazi: bool,
    facts: Facts,
    void_wilds: u8,
}

/// The best candidate so far.
struct Best {
    rank: [i32; 4],
    cand: Option<Candidate>,
    tried: u32,
    /// Arrangements the search met (see [`Scored::met`]).
    met: u32,
    /// The reason of the first rule of `valid` that refused an arrangement.
    refused: Option<usize>,
    stop: bool,
    /// No arrangement ranks above this, of any form and of each form met (worked out once
    /// the search is long).
    bound: Option<[i32; 4]>,
    form_bounds: Inline<(u32, [i32; 4]), 8>,
    /// Forms (bits) none of whose arrangements can rank above the best.
    done_forms: u32,
}

/// Candidates tried before the search works out the most any arrangement could rank:
/// at the first where wilds make the arrangements many (the first is most often the
/// best, and the bound then ends the search), late where the tiles are all real (a bound
/// costs about as much as scoring a few dozen candidates).
const BOUND_AFTER: u32 = 1;
const BOUND_AFTER_REAL: u32 = 64;

/// Wilds held from which the arrangements holding a straight a rule names are listed
/// first. With many wilds the arrangements are many, and the straight's (the highest
/// pattern most often, where a rule names one) come late in their order, after every
/// arrangement of the lower kinds; listed first, the best is found at once, and the
/// bound of the arrangements without a straight (lower, the straight's patterns being
/// out of them) then often ends the search. The rest is listed all the same, bounded
/// or not: a search that scores every arrangement lists them in the same order, and
/// so comes to the same best, ties kept by the first found.
const STRAIGHT_FIRST_WILDS: u8 = 3;

struct Search<'a> {
    scheme: &'a Scheme,
    p: &'a Prepared,
    waits: &'a Waits<'a>,
    /// Kinds' classes for free pungs, chows and pairs (worked out when a free group
    /// first needs them).
    sig: Option<[[u64; KINDS]; 3]>,
    /// Suits a rule names (straights): not merged with others.
    special_suits: u8,
    /// Those of them in which the tiles may make a straight, once a bound asks.
    straights: Option<u8>,
    /// Whether bounds may cut the search short (see [`evaluate_with`]).
    bounded: bool,
    best: Best,
    /// The patterns of the situation alone, once judged: found, and their counts.
    situational: Option<(u64, [u8; MAX_PATTERNS])>,
    /// The patterns the situation rules out (see `Scheme::gates`), once judged.
    shut: Option<u64>,
    /// The patterns the situation's quantities admit (see `Scheme::situation_admits`),
    /// once looked up.
    admitted: Option<u64>,
    /// The bounds worked out of sets of patterns that may count (see [`bound_given`]).
    memo: BoundMemo,
    /// The ceiling of the arrangement whose free groups are being given kinds, once
    /// worked out (see `Search::ceiling_of`).
    ceiling: Option<[i32; 4]>,
    /// For a wild winning tile: the arrangements met, by [`WildWinClass`], with the
    /// places of the winning tile scored in them.
    met_places: std::collections::HashMap<WildWinClass, u64, Fast>,
    /// The bounds of the standard form with a real winning tile in places of these
    /// roles (bits by `role_bit`), once worked out (see `Visit::placed`).
    placed_bounds: Inline<(u8, [i32; 4]), 8>,
    /// Whether the places of the winning tile bound nothing below the standard form's
    /// own bound (the first such bound came out as that one): then they are not asked.
    places_idle: bool,
    /// Whether every arrangement holding a straight a rule names has been listed (see
    /// [`Search::complete`]).
    straights_listed: bool,
    /// Whether those are being listed (before the other forms).
    listing_straights: bool,
}

/// What scoring reads of an arrangement but which of its tiles are the wilds: its form
/// (5 bits), its free melds and pairs (3 and 4), and its groups by shape, kind, meld and
/// whether all wild, sorted (13 bits each, at most eight: 116 bits in all; arrangements of
/// more groups are not told apart). Those alike in it differ only in where the wilds sit:
/// they have the same facts, and a place of the winning tile (a group, and the position
/// there) scores alike in each.
type WildWinClass = u128;

/// The class of `found` (see [`WildWinClass`]) and its places as bits: `3 g + i` for the
/// `i`-th position of the class's `g`-th group (the first of those alike; a pung's or a
/// pair's places are one). None for an arrangement of more than eight groups.
fn wild_win_class(found: &Found, places: &Places) -> Option<(WildWinClass, u64)> {
    let n = found.groups.len();
    if n > 8 {
        return None;
    }
    let code = |g: &Group| {
        g.shape as u32 | (g.tile as u32) << 3 | g.meld.map_or(0, |m| m as u32 + 1) << 9 | (g.is_free() as u32) << 12
    };
    // Each group's code above its index, sorted by a network of compare-exchanges: no
    // branch on the tiles (this is asked of every arrangement of a long search).
    let mut order = [u32::MAX; 8];
    for (i, g) in found.groups.iter().enumerate() {
        order[i] = code(g) << 5 | i as u32;
    }
    sort_8(&mut order);
    let mut class = u128::from(found.form.bit().trailing_zeros())
        | u128::from(found.free_melds & 7) << 5
        | u128::from(found.free_pairs & 15) << 8;
    let mut first = [0u8; 8];
    let mut at = 0u8;
    let mut last = u32::MAX;
    for (j, &o) in order.iter().enumerate() {
        let c = o >> 5 & 0x1FFF;
        class |= u128::from(c) << (12 + 13 * j);
        // The first of the groups alike, its place in the sorted list.
        at = if c == last { at } else { j as u8 };
        last = c;
        first[(o & 7) as usize] = at;
    }
    let mut mask = 0u64;
    for pl in places.iter() {
        let g = &found.groups[pl.group as usize];
        let pos = match g.shape {
            Shape::Chow => pl.kind.wrapping_sub(g.tile) as usize,
            Shape::DragonSet => pl.kind.wrapping_sub(tiles::WHITE) as usize,
            _ => 0,
        } % 3;
        mask |= 1 << (first[pl.group as usize & 7] as usize * 3 + pos);
    }
    Some((class, mask))
}

/// Sorts eight items by a sorting network (Batcher's odd-even merge, nineteen
/// compare-exchanges, each a min and a max: no branch).
#[inline]
fn sort_8(a: &mut [u32; 8]) {
    macro_rules! net {
        ($(($i:literal, $j:literal)),*) => {
            $(
                let (x, y) = (a[$i], a[$j]);
                a[$i] = x.min(y);
                a[$j] = x.max(y);
            )*
        };
    }
    net!(
        (0, 2),
        (1, 3),
        (4, 6),
        (5, 7),
        (0, 4),
        (1, 5),
        (2, 6),
        (3, 7),
        (0, 1),
        (2, 3),
        (4, 5),
        (6, 7),
        (2, 4),
        (3, 5),
        (1, 4),
        (3, 6),
        (1, 2),
        (3, 4),
        (5, 6)
    );
}

/// Classes made room for at once (a search that tells them apart meets many).
const CLASSES_KEPT: usize = 256;

/// Arrangements met before those alike are told apart (see `Search::met_places`): most
/// searches meet fewer, and keeping them would cost more than it saves.
const CLASSES_MET_AFTER: u32 = 8;

/// Where the winning tile may sit in an arrangement.
type Places = Inline<Placement, 24>;

/// What fills the unused places of a [`Places`].
const NO_PLACE: Placement = Placement { group: 0, role: super::group::Role::Single, kind: 0 };

/// The places of winning tile `win` (a wild one when `wild`) in `groups`, with those a
/// swap of two tiles gives where `swaps` (see `facts::placements`).
fn places_of(groups: &[Group], win: Tile, wild: bool, swaps: bool) -> Places {
    let mut places = Places::filled(NO_PLACE);
    facts::placements(groups, win, wild, swaps, &mut places);
    places
}

/// The best value and fan count of each set of patterns (with their counts) that may
/// count and void or are voided by one another (the situation's own patterns aside).
type BoundMemo = std::collections::HashMap<(u64, [u8; 10]), (i32, i32), Fast>;

/// The bit of a kind's class that tells the point tables' 大子 from their 小子.
const ORPHAN_CLASS: u64 = 1 << 63;

/// For pungs, chows and pairs: which of the sets that tell such groups apart hold each
/// kind, with the 大子 / 小子 of the point tables, the kinds a pair may be, and which kinds
/// are wild (财神归位) where rules read them.
fn classes(scheme: &Scheme, p: &Prepared) -> [[u64; KINDS]; 3] {
    let mut sig = scheme.plan.fixed_classes;
    add_class_sets(scheme, &p.sets, scheme.plan.situation_sets, &mut sig);
    if scheme.plan.reads_home {
        for k in tiles::mask_tiles(p.situation.wild_kinds) {
            for t in 0..3 {
                sig[t][k as usize] |= 1 << 61;
            }
        }
    }
    sig
}

/// The part of [`classes`] that no situation changes, worked out once for the scheme:
/// the sets that are the same in every situation, the point tables and the pair rule.
pub fn fixed_classes(scheme: &Scheme) -> [[u64; KINDS]; 3] {
    let mut sig = [[0u64; KINDS]; 3];
    add_class_sets(scheme, &scheme.plan.fixed_sets, !scheme.plan.situation_sets, &mut sig);
    let points = !scheme.group_points.is_empty();
    let pair_rule = scheme.forms.pair_kinds != tiles::ALL_KINDS;
    for k in 0..KINDS {
        if points && tiles::is_orphan(k as Tile) {
            for t in 0..3 {
                sig[t][k] |= ORPHAN_CLASS;
            }
        }
        sig[2][k] |= ((pair_rule && scheme.forms.pair_kinds >> k & 1 == 1) as u64) << 62;
    }
    sig
}

/// Marks in `sig` the kinds of each class set among `which` (by bit), as `sets` resolve it.
fn add_class_sets(scheme: &Scheme, sets: &[u64], which: u64, sig: &mut [[u64; KINDS]; 3]) {
    for (t, class_sets) in scheme.plan.class_sets.iter().enumerate() {
        for (bit, &set) in class_sets.iter().enumerate() {
            if which >> set & 1 == 1 {
                for k in tiles::mask_tiles(sets[set as usize]) {
                    sig[t][k as usize] |= 1 << bit.min(59);
                }
            }
        }
    }
}

/// Scores a prepared situation.
pub fn evaluate(scheme: &Scheme, p: &Prepared) -> Scored {
    evaluate_with(scheme, p, true)
}

/// Scores a prepared situation; without `bounded`, every arrangement is scored (no bound
/// cuts the search short: the same result, the way to test the bounds).
pub fn evaluate_with(scheme: &Scheme, p: &Prepared, bounded: bool) -> Scored {
    let special_suits = scheme.plan.suit_sets.iter().fold(0u8, |m, &s| m | p.sets[s as usize] as u8);
    let waits = Waits::new(scheme, p);
    let mut s = Search {
        scheme,
        p,
        waits: &waits,
        sig: None,
        special_suits,
        straights: None,
        bounded,
        best: Best {
            rank: [i32::MIN; 4],
            cand: None,
            tried: 0,
            met: 0,
            refused: None,
            stop: false,
            bound: None,
            form_bounds: Inline::filled((0, [0; 4])),
            done_forms: 0,
        },
        situational: None,
        admitted: None,
        shut: None,
        memo: BoundMemo::default(),
        ceiling: None,
        met_places: Default::default(),
        placed_bounds: Inline::filled((0, [0; 4])),
        places_idle: false,
        straights_listed: false,
        listing_straights: false,
    };
    if p.dealt {
        if let Some(found) = arrange::loose(&p.tiles, Form::Dealt, 0) {
            s.score(&found.groups, Form::Dealt, &[None], u64::MAX, None);
        }
    } else if p.loser {
        s.partial();
    } else {
        s.complete();
        if s.best.cand.is_none() {
            s.fallback();
        }
    }
    s.finish()
}

impl Search<'_> {
    /// Lists the complete arrangements: with many wilds, first those holding a straight
    /// a rule names, then all of them (see [`STRAIGHT_FIRST_WILDS`]).
    fn complete(&mut self) {
        let scheme = self.scheme;
        let p = self.p;
        if p.tiles.wilds >= STRAIGHT_FIRST_WILDS && self.special_suits != 0 {
            let suits = *self.straights.get_or_insert_with(|| straight_suits(scheme, &p.tiles, self.special_suits));
            let standard = standard_only(&scheme.forms);
            // Whether every arrangement holding a straight was listed.
            let mut every = true;
            self.listing_straights = true;
            for suit in (0..3u8).filter(|s| suits >> s & 1 == 1) {
                let (rests, all) = straight_rests(scheme, &p.tiles, suit, arrange::Visit::fixed(self));
                every &= all;
                for rest in &rests {
                    arrange::complete_with(&standard, scheme.dragon_sets, rest, self);
                    if self.best.stop {
                        return;
                    }
                }
            }
            self.listing_straights = false;
            self.straights_listed = every;
        }
        arrange::complete_with(&scheme.forms, scheme.dragon_sets, &p.tiles, self);
    }

    /// The most the arrangement could rank, whatever kinds its free groups are given
    /// and wherever the winning tile sits (`places`, those of its groups).
    fn ceiling_of(&mut self, found: &Found, places: &Places) -> [i32; 4] {
        let (scheme, p) = (self.scheme, self.p);
        let mut f =
            facts::facts(found.form, &found.groups, None, p.situation.wild_kinds, false, scheme.plan.reads_fours);
        (f.seat_flower_used, f.real_wilds_used) = complete_wilds(&p.situation);
        let ctx = Context::new(&f, &p.situation, &p.sets, Some(self.waits));
        let known = Known::Groups {
            free_melds: found.free_melds as u32,
            free_pairs: found.free_pairs as u32,
            room: room_left(&p.tiles.caps, &found.groups),
        };
        let sit = *self.situational.get_or_insert_with(|| situational(scheme, &ctx));
        let shut = *self.shut.get_or_insert_with(|| shut(scheme, &ctx));
        let judged = Judged { patterns: sit, shut };
        // The places of the winning tile are those of its groups, and for a wild winning
        // tile those of the free groups (see `Bound::win_places`).
        let b = Bound::new(ctx, known, scheme.forms.melds as u32, Some(&places[..]));
        let face = face_most(scheme, p, &found.groups, &b);
        bound_given(scheme, p, b, face, Some(judged), Some(&mut self.memo))
    }

    /// Whether no other way to give the arrangement's free groups kinds could rank above
    /// the best: its ceiling, worked out once a search is bounded, is reached.
    fn out_of_reach(&mut self, found: &Found) -> bool {
        if self.best.cand.is_none() || !self.bounding() {
            return false;
        }
        let ceiling = match self.ceiling {
            Some(c) => c,
            None => {
                let places = self.places(&found.groups);
                let c = self.ceiling_of(found, &places);
                *self.ceiling.insert(c)
            }
        };
        ceiling <= self.best.rank
    }

    /// Whether no way to give the free groups still to come (`melds` and `pairs`) kinds
    /// beside `groups` could rank above the best: the ceiling of the arrangement with
    /// the kinds given so far. Worked out only once a search is bounded.
    fn subtree_out_of_reach(&mut self, found: &Found, groups: &Groups, melds: u8, pairs: u8) -> bool {
        if self.best.cand.is_none() || !self.bounding() {
            return false;
        }
        let partial = Found { groups: *groups, free_melds: melds, free_pairs: pairs, ..*found };
        let places = self.places(groups);
        self.ceiling_of(&partial, &places) <= self.best.rank
    }

    /// Where the winning tile may sit in `groups` (nowhere without a winning tile).
    fn places(&self, groups: &Groups) -> Places {
        match self.p.situation.win {
            // The places a swap of two tiles gives are of use once arrangements alike are
            // told apart (see `Visit::found`).
            Some((win, wild)) => places_of(groups, win, wild, self.best.met > CLASSES_MET_AFTER),
            None => Places::filled(NO_PLACE),
        }
    }

    /// Gives the free groups kinds, one at a time, then places the winning tile (in
    /// `places`, when they are those of `groups` already found).
    fn free(&mut self, found: &Found, mut groups: Groups, melds: u8, pairs: u8, places: Option<&Places>) {
        if self.best.stop || self.best.done_forms & found.form.bit() != 0 {
            return;
        }
        if melds == 0 && pairs == 0 {
            if found.form == Form::Standard && !arrange::pair_allowed(&self.scheme.forms, &groups) {
                return;
            }
            self.place(found.form, &groups, places);
            return;
        }
        let scheme = self.scheme;
        let sig = &*self.sig.get_or_insert_with(|| classes(scheme, self.p));
        let caps = &self.p.tiles.caps;
        let mut stand: Counts = [0; KINDS];
        let mut all: Counts = [0; KINDS];
        let mut suits = 0u8;
        let mut chow_starts = 0u64;
        let (mut pung_kinds, mut pair_kinds) = (0u64, 0u64);
        for g in groups.iter() {
            for k in g.kinds() {
                all[k as usize] += 1;
                suits |= 1 << tiles::suit(k);
                if g.meld.is_none() {
                    stand[k as usize] += 1;
                }
            }
            match g.shape {
                Shape::Chow => chow_starts |= 1 << g.tile,
                Shape::Pung | Shape::Kong => pung_kinds |= 1 << g.tile,
                Shape::Pair => pair_kinds |= 1 << g.tile,
                _ => {}
            }
        }
        let room = |k: usize| caps[k].saturating_sub(stand[k]);
        // Runs of pungs tell pung kinds apart by rank; otherwise only the sets do.
        let ranked = scheme.plan.pung_ranks;
        // Suits are told apart only where a rule reads the suits held (then a suit some
        // group holds is like any other such, the rules counting the suits, and a suit
        // none holds too) or names the suit for a straight; runs of pungs tell the held
        // suits apart.
        let suit_class = |k: usize| -> u64 {
            let s = tiles::suit(k as Tile);
            if self.special_suits >> s & 1 == 1 {
                s as u64
            } else if !scheme.plan.reads_suits {
                5
            } else if s == 3 || (ranked && suits >> s & 1 == 1) {
                s as u64
            } else if suits >> s & 1 == 1 {
                6
            } else {
                4
            }
        };
        // What else tells kinds apart for the scoring: what a group of the kind adds to the
        // facts that count copies (a second pung or pair of a kind, four tiles of a kind);
        // and, where more free groups are to come, the room the kind leaves them. The
        // point tables do not: free groups score no points.
        let more = melds + pairs > 1;
        let adds = |k: usize, t: usize| -> u64 {
            let (size, twice) = match t {
                0 => (3, pung_kinds),
                1 => (1, 0),
                _ => (2, pair_kinds),
            };
            (twice >> k & 1) | ((all[k] < 4 && all[k] + size >= 4) as u64) << 1
        };
        let key = |k: usize, t: usize| -> (u64, u64) {
            let rank = if ranked && t == 0 { k as u64 % 9 + 1 } else { 0 };
            let room = if more { room(k).min(4) as u64 } else { 0 };
            (sig[t][k] & !ORPHAN_CLASS, t as u64 | suit_class(k) << 4 | rank << 8 | adds(k, t) << 12 | room << 16)
        };
        // At most 34 pungs and 21 chows, or 34 pairs.
        let mut seen: Inline<(u64, u64), 64> = Inline::filled((0, 0));
        let mut choices: Inline<Group, 64> = Inline::filled(NO_GROUP);
        let form = found.form;
        if melds > 0 {
            for k in 0..KINDS {
                if room(k) >= 3 {
                    let key = key(k, 0);
                    if !seen.contains(&key) {
                        seen.push(key);
                        choices.push(Group::new(Shape::Pung, k as Tile, 0b111));
                    }
                }
            }
            if form == Form::Standard {
                for s in 0..27usize {
                    if s % 9 > 6 || (s..s + 3).any(|k| room(k) == 0) {
                        continue;
                    }
                    let start = s % 9;
                    let special = self.special_suits >> tiles::suit(s as Tile) & 1 == 1;
                    // A straight's chows start at 1, 4 and 7; an edge wait needs 123 or 789.
                    let place =
                        if (special && start % 3 == 0) || (scheme.plan.reads_chow_ends && (start == 0 || start == 6)) {
                            start as u64
                        } else {
                            9
                        };
                    let same = (scheme.plan.reads_same_chows && chow_starts >> s & 1 == 1) as u64;
                    let sk = [key(s, 1), key(s + 1, 1), key(s + 2, 1)];
                    let key = (
                        sk[0].0 ^ sk[1].0.rotate_left(21) ^ sk[2].0.rotate_left(42),
                        place | same << 4 | sk[0].1 << 5 ^ sk[1].1 << 24 ^ sk[2].1 << 43,
                    );
                    if !seen.contains(&key) {
                        seen.push(key);
                        choices.push(Group::new(Shape::Chow, s as Tile, 0b111));
                    }
                }
            }
        } else {
            let per_kind = if scheme.forms.four_as_two_pairs { 4 } else { 2 };
            for k in 0..KINDS {
                let ok = match form {
                    Form::Standard => room(k) >= 2,
                    _ => room(k) >= 2 && stand[k] + 2 <= per_kind,
                };
                if ok {
                    let key = key(k, 2);
                    if !seen.contains(&key) {
                        seen.push(key);
                        choices.push(Group::new(Shape::Pair, k as Tile, 0b11));
                    }
                }
            }
        }
        for (i, &g) in choices.iter().enumerate() {
            groups.push(g);
            let (m, p) = if g.shape == Shape::Pair { (melds, pairs - 1) } else { (melds - 1, pairs) };
            // With more free groups to come, the choices below this one are many: they
            // are left out when their ceiling, this group's kind now known, is reached.
            if m + p == 0 || !self.subtree_out_of_reach(found, &groups, m, p) {
                self.free(found, groups, m, p, None);
            }
            groups.pop();
            if self.best.stop || (i + 1 < choices.len() && self.out_of_reach(found)) {
                return;
            }
        }
    }

    /// Scores the arrangement with the winning tile in each place it may sit (places
    /// the scheme cannot tell apart counted once).
    fn place(&mut self, form: Form, groups: &Groups, known: Option<&Places>) {
        if self.p.situation.win.is_none() {
            self.score(groups, form, &[None], u64::MAX, None);
            return;
        }
        let mut places = known.copied().unwrap_or_else(|| self.places(groups));
        if !self.scheme.plan.placement_sensitive {
            places.truncate(1);
        } else {
            // The group holding the tile matters only through its shape, kind and
            // whether it is free (its points, and a pung completed on a discard).
            let key = |pl: &Placement| {
                let g = &groups[pl.group as usize];
                (pl.role, pl.kind, g.shape, g.tile, g.is_free())
            };
            let mut kept = 0;
            for i in 0..places.len() {
                let k = key(&places[i]);
                if !places[..kept].iter().any(|q| key(q) == k) {
                    places.as_mut_slice()[kept] = places[i];
                    kept += 1;
                }
            }
            places.truncate(kept);
        }
        let options: Inline<Option<Placement>, 24> = Inline::collect_with(None, places.iter().map(|&p| Some(p)));
        if !options.is_empty() {
            self.score(groups, form, &options, u64::MAX, None);
        }
    }

    /// A player who did not win: the best partial arrangement.
    fn partial(&mut self) {
        let scheme = self.scheme;
        let p = self.p;
        let pair_kinds = scheme
            .group_points
            .iter()
            .filter(|r| r.losers && r.state == super::scheme::GroupState::Pair)
            .fold(0u64, |m, r| m | p.sets[r.kinds as usize]);
        let mut class = [0u32; KINDS];
        let caps = &p.tiles.caps;
        let sig = classes(scheme, p);
        for k in 0..KINDS {
            // Kinds alike for every rule on pungs and pairs, with as much room: their
            // classes' bits folded.
            let s = sig[0][k] ^ sig[2][k].rotate_left(29);
            class[k] = (s ^ s >> 32) as u32 ^ (caps[k] as u32) << 28;
        }
        let sit = p.situation;
        // Where a group more never scores less, only the partial hands no group can be
        // added to (unless every arrangement is asked for).
        let maximal = scheme.maximal_partials && self.bounded;
        arrange::partial(&p.tiles, pair_kinds, &class, maximal, &mut |found: &Found, left: u8| {
            let used = p.tiles.wilds - left;
            // The seat flower among the wilds used, or not; the rest are the wild kind's
            // copies (or, when the wilds are flowers, all of them).
            let splits: &[u8] = if used > 0 && sit.seat_flower { &[0, 1] } else { &[0] };
            for &seat_used in splits {
                let real = if sit.flower_wilds { used } else { used - seat_used };
                if !sit.flower_wilds && real > sit.wild_tiles {
                    continue;
                }
                self.score(&found.groups, Form::Partial, &[None], u64::MAX, Some((seat_used, real, left)));
                if self.best.stop {
                    return false;
                }
            }
            true
        });
    }

    /// A form granted whatever the shape, when no arrangement is complete.
    fn fallback(&mut self) {
        let scheme = self.scheme;
        let p = self.p;
        let empty = Facts::default();
        let ctx = Context::new(&empty, &p.situation, &p.sets, Some(self.waits));
        for (i, fb) in scheme.fallbacks.iter().enumerate() {
            if ctx.eval(&fb.rule) == 0 {
                continue;
            }
            // The concealed tiles as they are, the wild kinds standing for themselves.
            let mut groups = p.tiles.melds;
            for k in 0..KINDS {
                let n = p.hand.concealed[k];
                let wild = (p.situation.wild_kinds >> k & 1) as u8;
                for _ in 0..n {
                    groups.push(Group::new(Shape::Single, k as Tile, wild));
                }
            }
            self.score(&groups, Form::Fallback(i as u8), &[None], fb.patterns, None);
            return;
        }
    }

    /// Scores one arrangement with the winning tile in each of `placements`: what does
    /// not depend on the place once, the rest for each. `allowed` limits the patterns;
    /// `partial` is a non-winner's (seat flower used, other wilds used, left).
    fn score(
        &mut self,
        groups: &Groups,
        form: Form,
        placements: &[Option<Placement>],
        allowed: u64,
        partial: Option<(u8, u8, u8)>,
    ) {
        let scheme = self.scheme;
        let p = self.p;
        if self.bounding() && self.reached(form) {
            return;
        }
        let sit = &p.situation;
        let loser = p.loser;
        let discard_win = scheme.self_drawn_flag.is_some_and(|b| !sit.flag(b)) && !loser;
        let mut base = facts::facts(form, groups, None, sit.wild_kinds, false, scheme.plan.reads_fours);
        match partial {
            Some((seat_used, real, _)) => {
                base.seat_flower_used = seat_used;
                base.real_wilds_used = real;
            }
            None => (base.seat_flower_used, base.real_wilds_used) = complete_wilds(sit),
        }
        let eligible = allowed & if loser { scheme.plan.loser_patterns } else { u64::MAX };
        // What the place of the winning tile does not change.
        let ctx = Context::new(&base, sit, &p.sets, Some(self.waits));
        for (i, v) in scheme.valid.iter().enumerate() {
            if scheme.plan.valid_placed >> i & 1 == 0 && ctx.judge(&v.rule, &scheme.plan.valid_needs[i]) == 0 {
                self.best.refused.get_or_insert(i);
                return;
            }
        }
        let situational = *self.situational.get_or_insert_with(|| situational(scheme, &ctx));
        // The situation's gates are judged once a second arrangement is scored.
        let open = if self.best.tried == 0 { u64::MAX } else { !*self.shut.get_or_insert_with(|| shut(scheme, &ctx)) };
        let (mut arr_hits, mut arr_counts) = situational;
        arr_hits &= eligible;
        // The patterns the quantities leave, of the situation (once) and the arrangement.
        let of_situation = *self.admitted.get_or_insert_with(|| scheme.plan.situation_admits.admitted(&ctx));
        let admitted = of_situation & scheme.plan.admits.admitted(&ctx);
        let patterns = u64::MAX.checked_shr(64 - scheme.patterns.len() as u32).unwrap_or(0);
        let per_arrangement =
            patterns & !scheme.plan.situational & !scheme.plan.placed & !scheme.plan.late & eligible & open & admitted;
        for i in bits(per_arrangement) {
            let pat = &scheme.patterns[i];
            let n = ctx.judge(&pat.rule, &scheme.plan.pattern_needs[i]);
            if n > 0 {
                arr_hits |= 1 << i;
                arr_counts[i] = n.min(255) as u8;
            }
        }
        let has_points = scheme.has_points();
        let mut base_face = 0;
        if has_points {
            for g in groups.iter() {
                if let Some((_, pts)) = scheme.group_points(g, false, &p.sets, !loser) {
                    base_face += pts;
                }
            }
            for (i, e) in scheme.extra_points.iter().enumerate() {
                if scheme.plan.extra_placed >> i & 1 == 0 && (if loser { e.losers } else { e.winners }) {
                    // Saturating: a rule may count the patterns' value (any data's points).
                    base_face = base_face.saturating_add(e.points.saturating_mul(ctx.eval(&e.rule) as i32));
                }
            }
        }
        let placed = scheme.plan.placed & eligible & open;
        for &placement in placements {
            self.best.tried += 1;
            let mut f = base;
            if let Some(pl) = placement {
                f.win = Some(pl);
                let g = &groups[pl.group as usize];
                if discard_win && g.shape == Shape::Pung && g.meld.is_none() {
                    f.pung_on_discard = true;
                    f.concealed_triplets -= 1;
                }
            }
            let mut ctx = Context::new(&f, sit, &p.sets, Some(self.waits));
            let refused = (0..scheme.valid.len()).find(|&i| {
                scheme.plan.valid_placed >> i & 1 == 1
                    && ctx.judge(&scheme.valid[i].rule, &scheme.plan.valid_needs[i]) == 0
            });
            if let Some(i) = refused {
                self.best.refused.get_or_insert(i);
                continue;
            }
            // A pung completed on a discard is not concealed: looked up again.
            let admitted = if f.pung_on_discard { of_situation & scheme.plan.admits.admitted(&ctx) } else { admitted };
            let (mut hits, mut counts) = (arr_hits, arr_counts);
            for i in bits(placed & admitted) {
                let pat = &scheme.patterns[i];
                let n = ctx.judge(&pat.rule, &scheme.plan.pattern_needs[i]);
                if n > 0 {
                    hits |= 1 << i;
                    counts[i] = n.min(255) as u8;
                }
            }
            let mut counted = exclude(scheme, hits);
            if scheme.plan.late != 0 {
                let (value, _) = value_of(scheme, loser, counted, &counts);
                ctx.counted = counted;
                ctx.value = value;
                ctx.fan_count = counted.count_ones() as i32;
                for i in bits(scheme.plan.late & eligible & open & admitted) {
                    let pat = &scheme.patterns[i];
                    let n = ctx.judge(&pat.rule, &scheme.plan.pattern_needs[i]);
                    if n > 0 {
                        hits |= 1 << i;
                        counts[i] = n.min(255) as u8;
                    }
                }
                counted = exclude(scheme, hits);
            }
            let (value, lazi) = value_of(scheme, loser, counted, &counts);
            let mut face = base_face;
            if has_points {
                if let Some(pl) = placement.filter(|_| f.pung_on_discard) {
                    let g = &groups[pl.group as usize];
                    // The pung the discard completed scores as exposed.
                    let concealed = scheme.group_points(g, false, &p.sets, !loser).map_or(0, |x| x.1);
                    let exposed = scheme.group_points(g, true, &p.sets, !loser).map_or(0, |x| x.1);
                    face = face.saturating_add(exposed - concealed);
                }
                for (i, e) in scheme.extra_points.iter().enumerate() {
                    if scheme.plan.extra_placed >> i & 1 == 1 && (if loser { e.losers } else { e.winners }) {
                        face = face.saturating_add(e.points.saturating_mul(ctx.eval(&e.rule) as i32));
                    }
                }
            }
            let total = scheme.total.of(value, face, lazi, !loser);
            let fan_count = counted.count_ones() as i32;
            let mut rank = [0i32; 4];
            for (r, key) in rank.iter_mut().zip(&scheme.rank) {
                *r = match key {
                    RankKey::Total => total,
                    RankKey::Value => value,
                    RankKey::Face => face,
                    RankKey::FanCount => fan_count,
                };
            }
            if self.best.cand.is_some() && rank <= self.best.rank {
                continue;
            }
            self.best.rank = rank;
            self.best.stop = scheme.stop.is_some_and(|(t, v)| total >= t && value >= v);
            let mut groups = *groups;
            if let (Some(pl), Some((_, true))) = (placement, sit.win) {
                facts::swap_in(groups.as_mut_slice(), pl);
            }
            self.best.cand = Some(Candidate {
                form,
                groups,
                placement,
                counted,
                counts,
                voided: hits & !counted,
                value,
                face,
                total,
                lazi,
                facts: f,
                void_wilds: partial.map_or(0, |(_, _, left)| left),
            });
            if self.best.stop || (!self.best.form_bounds.is_empty() && self.reached(form)) {
                return;
            }
        }
    }

    /// Whether the search has gone on long enough to be bounded.
    fn bounding(&self) -> bool {
        self.bounded && self.best.tried >= if self.p.tiles.wilds > 0 { BOUND_AFTER } else { BOUND_AFTER_REAL }
    }

    /// Whether no arrangement of `form` can rank above the best (the form is then done),
    /// or none of any form (the search then stops). Works out the bounds when first asked:
    /// the form's, and the one of every form only once the form's is reached (it is at
    /// least as high) and other forms are still to come (the standard form is searched
    /// last, and the other searches have one form each).
    fn reached(&mut self, form: Form) -> bool {
        let bit = form.bit();
        if self.best.done_forms & bit != 0 {
            return true;
        }
        let (scheme, p, waits, sit) = (self.scheme, self.p, self.waits, self.situational);
        let mut straights =
            || *self.straights.get_or_insert_with(|| straight_suits(scheme, &p.tiles, self.special_suits));
        let best = &mut self.best;
        let of_form = match best.form_bounds.iter().find(|(f, _)| *f == bit) {
            Some(&(_, b)) => b,
            None => {
                let b = bound(scheme, p, waits, sit, bit, None, &mut straights);
                best.form_bounds.push((bit, b));
                b
            }
        };
        if best.cand.is_none() || !reaches(&best.rank, &of_form) {
            return false;
        }
        best.done_forms |= bit;
        // The standard form is searched last, but for its straights listed first.
        let last = !matches!(form, Form::SevenPairs | Form::EightPairs | Form::ThirteenOrphans | Form::All258)
            && !self.listing_straights;
        best.stop = last
            || reaches(
                &best.rank,
                best.bound.get_or_insert_with(|| bound(scheme, p, waits, sit, u32::MAX, None, &mut straights)),
            );
        true
    }

    /// The best found (by reference: the search is large, and moving it costs a copy).
    fn finish(&self) -> Scored {
        let scheme = self.scheme;
        let p = self.p;
        let (tried, met) = (self.best.tried, self.best.met);
        let Some(c) = &self.best.cand else {
            let reason = match self.best.refused {
                Some(i) => scheme.valid[i].message.clone(),
                None => scheme.incomplete.clone(),
            };
            return Scored {
                complete: false,
                win: false,
                reason: Some(reason),
                total: 0,
                value: 0,
                face: 0,
                lazi: false,
                counted: 0,
                counts: [0; MAX_PATTERNS],
                voided: 0,
                form: None,
                groups: Groups::filled(NO_GROUP),
                placement: None,
                loser: p.loser,
                void_wilds: 0,
                situation: p.situation,
                facts: Facts::default(),
                tried,
                met,
            };
        };
        let mut s = Scored {
            complete: true,
            win: true,
            reason: None,
            total: c.total,
            value: c.value,
            face: c.face,
            lazi: c.lazi,
            counted: c.counted,
            counts: c.counts,
            voided: c.voided,
            form: Some(c.form),
            groups: c.groups,
            placement: c.placement,
            loser: p.loser,
            void_wilds: c.void_wilds,
            situation: p.situation,
            facts: c.facts,
            tried,
            met,
        };
        if s.loser {
            s.win = false;
        } else {
            let ctx = Context {
                counted: s.counted,
                total: s.total,
                value: s.value,
                fan_count: s.counted.count_ones() as i32,
                ..Context::new(&s.facts, &s.situation, &p.sets, Some(self.waits))
            };
            let mut no_win = scheme.no_win.iter().zip(&scheme.plan.no_win_needs);
            if let Some((nw, _)) = no_win.find(|(nw, needs)| ctx.judge(&nw.rule, needs) > 0) {
                s.win = false;
                s.reason = Some(nw.message.clone());
            }
        }
        s
    }
}

impl arrange::Visit for Search<'_> {
    /// Once the other forms are done, the standard form (the one with many arrangements)
    /// is left out when none of its arrangements could rank above the best.
    fn skip(&mut self, form: Form) -> bool {
        if self.best.cand.is_none() || !self.bounded {
            return false;
        }
        if (self.p.tiles.wilds > 0 || self.bounding()) && self.reached(form) {
            return true;
        }
        // Every arrangement holding a straight listed already: the standard form's are
        // left out where none without one could rank above the best.
        form == Form::Standard && self.straights_listed && {
            let (scheme, p, waits, sit) = (self.scheme, self.p, self.waits, self.situational);
            reaches(&self.best.rank, &bound(scheme, p, waits, sit, Form::Standard.bit(), None, &mut || 0))
        }
    }

    fn fixed(&self) -> u64 {
        let win = match self.p.situation.win {
            // A wild winning tile sits in any wild's place.
            Some((_, true)) => u64::MAX,
            Some((t, false)) => 1 << t,
            None => 0,
        };
        win | pointed_kinds(self.scheme, self.p)
    }

    fn placing(&self) -> Option<Tile> {
        match self.p.situation.win {
            // Where a bound can tell (see `placed`).
            Some((t, false)) if self.bounded && !unbounded(self.scheme) => Some(t),
            _ => None,
        }
    }

    /// Whether no arrangement beginning with `groups`, which hold every real tile of the
    /// winning kind, could rank above the best: the standard form's bound with the
    /// winning tile in their places (a wait the groups do not make cannot count). Where
    /// a hand's waits differ by their roles (a closed wait made of wilds among pairs and
    /// pungs of them), this leaves out the arrangements of the rest below each place that
    /// cannot win more, rather than scoring each.
    fn placed(&mut self, win: Tile, groups: &Groups) -> bool {
        if self.places_idle || self.best.cand.is_none() || !self.bounding() {
            return false;
        }
        let places = places_of(groups, win, false, false);
        let roles = places.iter().fold(0u8, |m, pl| m | 1 << super::rule::role_bit(pl.role));
        let b = match self.placed_bounds.iter().find(|(r, _)| *r == roles) {
            Some(&(_, b)) => b,
            None => {
                let (scheme, p, waits, sit) = (self.scheme, self.p, self.waits, self.situational);
                let special = self.special_suits;
                let mut straights = || *self.straights.get_or_insert_with(|| straight_suits(scheme, &p.tiles, special));
                let standard = Form::Standard.bit();
                let b = bound(scheme, p, waits, sit, standard, Some(&places[..]), &mut straights);
                // Where the places leave the form's bound as it is (no pattern reads the
                // wait, or none that could count), asking again would cost as much.
                let form = self.best.form_bounds.iter().find(|(f, _)| *f == standard);
                self.places_idle = form.is_some_and(|&(_, f)| f == b);
                if self.placed_bounds.len() < 8 {
                    self.placed_bounds.push((roles, b));
                }
                b
            }
        };
        b <= self.best.rank
    }

    fn found(&mut self, found: &Found) -> bool {
        self.best.met += 1;
        if self.best.stop || self.best.done_forms & found.form.bit() != 0 {
            return !self.best.stop;
        }
        // The places of the winning tile, found when first needed (an arrangement the
        // pair rule refuses needs none). The same arrangement is rarely met twice, and
        // one met again only ties: it is scored again rather than looked up.
        let mut places = None;
        // For a wild winning tile, every arrangement alike but for where the wilds sit is
        // listed (see `arrange::Visit::fixed`), and the places of each include those of
        // the others a swap of two tiles makes (see `facts::placements`). Once the search
        // is long, one whose places were all met in another alike is left out: it would
        // score the same patterns in each.
        if matches!(self.p.situation.win, Some((_, true))) && self.best.met > CLASSES_MET_AFTER {
            let at = *places.get_or_insert_with(|| self.places(&found.groups));
            if let Some((class, mask)) = wild_win_class(found, &at) {
                if self.met_places.capacity() == 0 {
                    self.met_places.reserve(CLASSES_KEPT);
                }
                match self.met_places.entry(class) {
                    std::collections::hash_map::Entry::Occupied(mut o) => {
                        if mask & !o.get() == 0 {
                            return true;
                        }
                        *o.get_mut() |= mask;
                    }
                    std::collections::hash_map::Entry::Vacant(v) => {
                        v.insert(mask);
                    }
                }
            }
        }
        // Bounded when scoring it could cost more than the bound: free groups are given
        // kinds in many ways, and three places or more are scored one by one (two cost
        // less to score than to bound).
        self.ceiling = None;
        if self.best.cand.is_some() && self.bounding() {
            // The form's bound first: once the best reaches it, the form is done.
            if self.reached(found.form) {
                return !self.best.stop;
            }
            let at = *places.get_or_insert_with(|| self.places(&found.groups));
            let many = found.free_melds + found.free_pairs > 0 || at.len() > 2;
            if many {
                let ceiling = self.ceiling_of(found, &at);
                if ceiling <= self.best.rank {
                    return true;
                }
                self.ceiling = Some(ceiling);
            }
        }
        self.free(found, found.groups, found.free_melds, found.free_pairs, places.as_ref());
        !self.best.stop
    }
}

/// The most any arrangement of the situation (of the form with bit `form`, or of any
/// for `u32::MAX`) could rank, by each key (`i32::MAX` where no bound is known): the
/// situation's own patterns as they are, every other pattern as often as it could count,
/// the exclusions applied to each choice of them when they are few. Once the best found
/// ranks as high, no other arrangement can rank above it. `places`, where given, are
/// the winning tile's places in every arrangement bounded (see `Visit::placed`).
/// `situation`: the situation's own patterns, found and counted, where the search has
/// judged them (judged here otherwise). `straights` gives the suits in which the tiles
/// may make a straight (see [`straight_suits`]), asked only for the standard form, the
/// one that holds them.
fn bound(
    scheme: &Scheme,
    p: &Prepared,
    waits: &Waits,
    situation: Option<(u64, [u8; MAX_PATTERNS])>,
    form: u32,
    places: Option<&[Placement]>,
    straights: &mut impl FnMut() -> u8,
) -> [i32; 4] {
    if unbounded(scheme) {
        return [i32::MAX; 4];
    }
    let declared =
        facts::facts(Form::Standard, &p.tiles.melds, None, p.situation.wild_kinds, false, scheme.plan.reads_fours);
    let held = tiles::kinds_mask(&p.tiles.counts);
    let straights = if form & Form::Standard.bit() != 0 { straights() } else { 0 };
    let mut suits = 0u8;
    for k in 0..KINDS {
        if p.tiles.counts[k] > 0 {
            suits |= 1 << tiles::suit(k as Tile);
        }
    }
    for g in p.tiles.melds.iter() {
        suits |= 1 << tiles::suit(g.tile);
    }
    let wilds = p.tiles.wilds;
    let of = |form: u32, chows: Option<bool>| {
        let known = Known::Form { form, held, straights, suits, wilds, chows };
        // Face points are bounded only once the groups are known (see `face_most`).
        let face = if scheme.has_points() { i32::MAX } else { 0 };
        let ctx = Context::new(&declared, &p.situation, &p.sets, Some(waits));
        // The situation's own patterns, where the search has judged them.
        let judged = situation.map(|patterns| Judged { patterns, shut: 0 });
        bound_given(scheme, p, Bound::new(ctx, known, scheme.forms.melds as u32, places), face, judged, None)
    };
    // The standard form's arrangements with a chow and those without are bounded apart:
    // patterns of chows (a straight) and of none (all pungs) never count together, which
    // the bound of each pattern alone does not see.
    let standard = Form::Standard.bit();
    if form & standard == 0 {
        return of(form, None);
    }
    let declared_chow = p.tiles.melds.iter().any(|g| g.shape == Shape::Chow);
    let mut out = of(standard, Some(true));
    let without_chow = !declared_chow && pungs_may_fit(scheme, &p.tiles);
    let others =
        [without_chow.then_some((standard, Some(false))), (form != standard).then_some((form & !standard, None))];
    for (form, chows) in others.into_iter().flatten() {
        for (o, b) in out.iter_mut().zip(of(form, chows)) {
            *o = (*o).max(b);
        }
    }
    out
}

/// Whether the concealed tiles may make the melds still to make and the pair with no
/// chow: in such an arrangement a group holds at most three tiles of one kind (or, where
/// 中发白 is a group, three dragons), so the kinds held need no more groups than there
/// are. The wilds, free to stand for anything, fill the rest (the tiles always add up).
fn pungs_may_fit(scheme: &super::scheme::Spec, t: &Tiles) -> bool {
    let groups = (scheme.forms.melds as usize + 1).saturating_sub(t.melds.len());
    let dragons = if scheme.dragon_sets { tiles::WHITE as usize..KINDS } else { 0..0 };
    let mut needed: usize = 0;
    for (k, &n) in t.counts.iter().enumerate() {
        if !dragons.contains(&k) {
            needed += (n as usize).div_ceil(3);
        }
    }
    let held_dragons: usize = t.counts[dragons].iter().map(|&n| n as usize).sum();
    needed + held_dragons.div_ceil(3) <= groups
}

/// The suits (bits) among `named` in which the tiles may make a straight in a complete
/// standard hand: the chows 123, 456 and 789 the declared melds lack are melds still to
/// make, each of their tiles a real one held or else a wild (a wild can stand for
/// anything a real tile can, so this leaves the rest the most it can have), and the rest
/// is a complete hand.
fn straight_suits(scheme: &Scheme, t: &Tiles, named: u8) -> u8 {
    let forms = standard_only(&scheme.forms);
    let melds_left = (scheme.forms.melds as usize).saturating_sub(t.melds.len());
    let mut out = 0;
    for suit in (0..3u8).filter(|s| named >> s & 1 == 1) {
        let declared = |start: Tile| t.melds.iter().any(|g| g.shape == Shape::Chow && g.tile == start);
        let lacking: Inline<Tile, 3> =
            Inline::collect_with(0, [0, 3, 6].map(|r| 9 * suit + r).into_iter().filter(|&s| !declared(s)));
        if lacking.len() > melds_left {
            continue;
        }
        let mut rest = *t;
        let mut fits = true;
        for &start in lacking.iter() {
            for k in start as usize..start as usize + 3 {
                // A copy of the kind for the chow, real or a wild standing for it.
                if rest.caps[k] == 0 {
                    fits = false;
                } else if rest.counts[k] > 0 {
                    rest.counts[k] -= 1;
                    rest.caps[k] -= 1;
                } else if rest.wilds > 0 {
                    rest.wilds -= 1;
                    rest.caps[k] -= 1;
                } else {
                    fits = false;
                }
            }
            rest.melds.push(Group::new(Shape::Chow, start, 0));
        }
        if !fits {
            continue;
        }
        let mut complete = false;
        arrange::complete(&forms, scheme.dragon_sets, &rest, &mut |_| {
            complete = true;
            false
        });
        out |= (complete as u8) << suit;
    }
    out
}

/// `forms` with the standard form alone: the one that holds a straight.
fn standard_only(forms: &crate::forms::Forms) -> crate::forms::Forms {
    crate::forms::Forms {
        seven_pairs: false,
        eight_pairs_and_a_half: false,
        thirteen_orphans: false,
        honours_and_knitted: false,
        knitted_straight: false,
        all_258: false,
        ..*forms
    }
}

/// The most ways [`straight_rests`] lists of placing a straight's real tiles and wilds.
const STRAIGHT_WAYS: usize = 64;

/// The tiles of `t` with the chows 123, 456 and 789 of `suit` taken out as concealed
/// groups, to be completed by the search (see [`Search::complete`]): one `Tiles` for
/// each way to make the chows of the real tiles held and the wilds (first all the real
/// tiles they can take), and whether those are every way (at most [`STRAIGHT_WAYS`]).
/// Ways that differ only in kinds outside `fixed` (see [`arrange::Visit::fixed`]) are
/// alike to the scoring, and one of them is listed, as the search lists one. No ways
/// (and not every way) where the hand declared a chow or too many melds.
fn straight_rests(scheme: &Scheme, t: &Tiles, suit: u8, fixed: u64) -> (Vec<Tiles>, bool) {
    let melds_left = (scheme.forms.melds as usize).saturating_sub(t.melds.len());
    if melds_left < 3 || t.melds.iter().any(|g| g.shape == Shape::Chow) {
        // A declared chow may be one of the straight's: such arrangements are listed in
        // their turn (and the caller, told not every way is here, does not end early).
        return (vec![], false);
    }
    let first = 9 * suit as usize;
    // The kinds that may be a real tile or a wild: each choice a bit.
    let both: Vec<usize> =
        (first..first + 9).filter(|&k| t.counts[k] > 0 && t.wilds > 0 && fixed >> k & 1 == 1).collect();
    // Too many ways: the first alone (most often the best), and not every way.
    let ways = 1usize << both.len().min(16);
    let every = ways <= STRAIGHT_WAYS;
    let mut out = vec![];
    for way in 0..if every { ways } else { 1 } {
        let mut rest = *t;
        let mut fits = true;
        for start in [0, 3, 6].map(|r| first + r) {
            let mut wilds = 0u8;
            for (i, k) in (start..start + 3).enumerate() {
                let wild_chosen = both.iter().position(|&b| b == k).is_some_and(|j| way >> j & 1 == 1);
                if rest.caps[k] == 0 {
                    fits = false;
                    break;
                }
                rest.caps[k] -= 1;
                if rest.counts[k] > 0 && !wild_chosen {
                    rest.counts[k] -= 1;
                } else if rest.wilds > 0 {
                    rest.wilds -= 1;
                    wilds |= 1 << i;
                } else {
                    fits = false;
                    break;
                }
            }
            if !fits {
                break;
            }
            rest.melds.push(Group::new(Shape::Chow, start as Tile, wilds));
        }
        if fits {
            out.push(rest);
        }
    }
    (out, every)
}

/// The bound of the arrangements that fit what `b` knows (see [`bound`]), with `face` the
/// most face points they could score (`i32::MAX` where that is not known); `judged`, what
/// the search has judged of the situation, when it has; `memo` keeps the best choice of
/// each set of patterns that may count.
fn bound_given(
    scheme: &Scheme,
    p: &Prepared,
    mut b: Bound,
    face: i32,
    judged: Option<Judged>,
    memo: Option<&mut BoundMemo>,
) -> [i32; 4] {
    let (ctx, known) = (b.ctx, b.known);
    if face == i32::MAX && unbounded(scheme) {
        return [i32::MAX; 4];
    }
    let Some(valued) = scheme.plan.valued[p.loser as usize] else {
        return [i32::MAX; 4];
    };
    // The situation's own patterns, as they are.
    let (fixed, mut counts) = judged.map_or_else(|| situational(scheme, &ctx), |j| j.patterns);
    let shut = judged.map_or(0, |j| j.shut);
    let fixed = fixed & valued;
    // The form's bit where it is known (for the needs of each pattern), else any form.
    let flags = ctx.situation.flags;
    let form = match known {
        Known::Groups { .. } => Some(ctx.facts.form),
        Known::Form { form, .. } if form.count_ones() == 1 => Some(form),
        Known::Form { .. } => None,
    };
    // The others as often as they could count; those judged after the others once it is
    // known which of those may count.
    let mut optional = 0u64;
    for late in [false, true] {
        let these = valued & !scheme.plan.situational & !shut & if late { scheme.plan.late } else { !scheme.plan.late };
        if late {
            let possible = fixed | optional;
            let void = bits(possible).fold(0u64, |m, i| m | scheme.patterns[i].excludes);
            b.sure = fixed & !void;
            b.possible = possible;
        }
        for i in bits(these) {
            let (pat, needs) = (&scheme.patterns[i], &scheme.plan.pattern_needs[i]);
            if !form.map_or(needs.met_flags(flags), |form| needs.met(flags, form)) {
                continue;
            }
            let rule = &pat.rule;
            let n = match known {
                _ if late => b.decided(rule).map_or_else(|| b.most(rule), |d| d as u32),
                Known::Groups { .. } if scheme.plan.known_from_groups >> i & 1 == 1 => b.ctx.eval(rule),
                // Every group known, and the rule does not read the winning tile's place.
                Known::Groups { free_melds: 0, free_pairs: 0, .. } if scheme.plan.placed >> i & 1 == 0 => {
                    b.ctx.eval(rule)
                }
                _ => b.most(rule),
            };
            if n > 0 {
                optional |= 1 << i;
                counts[i] = n.min(255) as u8;
            }
        }
    }
    // The best choice of the patterns an arrangement may add, with the exclusions. A
    // pattern that voids none of the others and that none of them voids counts whatever
    // else does, so the best choice has it: only the others are chosen among, and when
    // they are many, all of them are taken with no exclusion.
    let all = fixed | optional;
    let mut voided = 0u64;
    let mut voiding = 0u64;
    for i in bits(all) {
        let excludes = scheme.patterns[i].excludes;
        voided |= excludes;
        if excludes & all != 0 {
            voiding |= 1 << i;
        }
    }
    // Late patterns that read only the patterns counted (a plain win where no other
    // counts) are worked out for each choice of those they read, as scoring does.
    let derived = optional & scheme.plan.late_exact;
    // Patterns that never count with another that may (see `Scheme::disjoint`) are
    // chosen among too.
    let apart = bits(all).filter(|&i| disjoint(scheme, i) & all != 0).fold(0u64, |m, i| m | 1 << i);
    let entangled = optional & (voided | voiding | apart | scheme.plan.late_reads) & !derived;
    let free = optional & !entangled & !derived;
    let (free_value, _) = value_of(scheme, p.loser, free, &counts);
    let chosen: Inline<u32, 10> = Inline::collect_with(0, bits(entangled).take(10).map(|i| i as u32));
    let mut key = (entangled | derived, [0u8; 10]);
    for (j, &i) in chosen.iter().enumerate() {
        key.1[j] = counts[i as usize];
    }
    let (mut value, mut fans) = (0, 0);
    let memoed = memo.as_deref().and_then(|m| m.get(&key).copied());
    if let Some((v, n)) = memoed {
        (value, fans) = (v, n);
    } else if entangled.count_ones() <= 10 {
        let mut ctx = b.ctx;
        let mut counts = counts;
        for choice in 0u32..1 << chosen.len() {
            let mut hits =
                chosen.iter().enumerate().filter(|&(j, _)| choice >> j & 1 == 1).fold(fixed, |m, (_, &i)| m | 1 << i);
            // The patterns chosen (the situation's own are sure to count together).
            if bits(hits & !fixed).any(|i| disjoint(scheme, i) & hits != 0) {
                continue;
            }
            let mut counted = exclude(scheme, hits);
            if derived != 0 {
                ctx.counted = counted;
                for i in bits(derived) {
                    let n = ctx.eval(&scheme.patterns[i].rule);
                    if n > 0 {
                        hits |= 1 << i;
                        counts[i] = n.min(255) as u8;
                    }
                }
                counted = exclude(scheme, hits);
            }
            value = value.max(value_of(scheme, p.loser, counted, &counts).0);
            fans = fans.max(counted.count_ones() as i32);
        }
        if let Some(m) = memo {
            m.insert(key, (value, fans));
        }
    } else {
        value = value_of(scheme, p.loser, fixed | entangled | derived, &counts).0;
        fans = (fixed | entangled | derived).count_ones() as i32;
    }
    let (value, fans) = (value + free_value, fans + free.count_ones() as i32);
    // 胡数 x 2^台数 grows with both (the 胡数 not below zero), but a limit hand is the cap.
    let lazi = bits(all).any(|i| scheme.patterns[i].lazi);
    let total = match scheme.total {
        Total::Sum => value,
        Total::Fixed(n) => n,
        Total::HuTai { base, cap, .. } if face == i32::MAX || lazi || face.saturating_add(base) < 0 => cap,
        t @ Total::HuTai { .. } => t.of(value, face, false, !p.loser),
    };
    let mut out = [i32::MIN; 4];
    for (o, key) in out.iter_mut().zip(&scheme.rank) {
        *o = match key {
            RankKey::Total => total,
            RankKey::Value => value,
            RankKey::Face => face,
            RankKey::FanCount => fans,
        };
    }
    out
}

/// The patterns pattern `i` never counts with.
fn disjoint(scheme: &Scheme, i: usize) -> u64 {
    scheme.plan.disjoint.get(i).copied().unwrap_or(0)
}

/// The kinds (bits) with a copy left for free groups to stand for, beside `groups`'
/// concealed tiles (the declared melds are counted in `caps`).
fn room_left(caps: &Counts, groups: &Groups) -> u64 {
    let mut stand: Counts = [0; KINDS];
    for g in groups.iter().filter(|g| g.meld.is_none()) {
        for k in g.kinds() {
            stand[k as usize] += 1;
        }
    }
    (0..KINDS).filter(|&k| stand[k] < caps[k]).fold(0, |m, k| m | 1 << k)
}

/// The kinds whose real tiles a group of wilds alone could take to score points: such a
/// group scores none (`Scheme::group_points`), so `111z` and three wilds standing for 1z
/// read as `11z` + a wild and `1z` + two (two pungs of points) may outscore `111z` beside
/// three wilds alone, and the search lists where these kinds' real tiles go (see
/// `Visit::fixed`). A pair of wilds alone takes two wilds, a pung three.
fn pointed_kinds(scheme: &Scheme, p: &Prepared) -> u64 {
    let wilds = p.tiles.wilds;
    scheme
        .group_points
        .iter()
        .filter(|r| if p.loser { r.losers } else { r.winners })
        .filter(|r| match r.state {
            GroupState::Pair => wilds >= 2,
            GroupState::ConcealedPung | GroupState::ExposedPung => wilds >= 3,
            GroupState::ConcealedKong | GroupState::ExposedKong => false,
        })
        .fold(0, |m, r| m | p.sets.get(r.kinds as usize).copied().unwrap_or(0))
}

/// The wilds a complete hand is scored with: the seat flower (1 where it is one of them, or
/// 0), and the others (all of the situation's).
fn complete_wilds(sit: &Situation) -> (u8, u8) {
    ((sit.seat_flower && (sit.flower_wilds || sit.extra_wilds > 0)) as u8, sit.wild_tiles)
}

/// The most face points (胡数) an arrangement of `groups` could score, the free groups to
/// come scoring none: each group's points, concealed or exposed, and each extra's as
/// often as `b` bounds its rule; `i32::MAX` where some points are negative.
fn face_most(scheme: &Scheme, p: &Prepared, groups: &Groups, b: &Bound) -> i32 {
    if !scheme.has_points() {
        return 0;
    }
    let winner = !p.loser;
    let mut face = 0i32;
    for g in groups.iter() {
        let concealed = scheme.group_points(g, false, &p.sets, winner).map_or(0, |x| x.1);
        let exposed = scheme.group_points(g, true, &p.sets, winner).map_or(0, |x| x.1);
        if concealed < 0 || exposed < 0 {
            return i32::MAX;
        }
        face = face.saturating_add(concealed.max(exposed));
    }
    for e in scheme.extra_points.iter().filter(|e| if winner { e.winners } else { e.losers }) {
        if e.points < 0 {
            return i32::MAX;
        }
        let n = b.most(&e.rule).min(i32::MAX as u32) as i32;
        face = face.saturating_add(e.points.saturating_mul(n));
    }
    face
}

/// Whether the ruleset ranks by face points, of which no bound is worked out before the
/// groups are known: the bound of the situation is then `i32::MAX` by every key.
fn unbounded(scheme: &Scheme) -> bool {
    scheme.has_points() && scheme.rank.contains(&RankKey::Face)
}

/// Whether a rank is as high as the bound by every key.
fn reaches(rank: &[i32; 4], bound: &[i32; 4]) -> bool {
    rank.iter().zip(bound).all(|(r, b)| r >= b)
}

/// The patterns' values summed, and whether one is a limit hand.
fn value_of(scheme: &Scheme, loser: bool, counted: u64, counts: &[u8; MAX_PATTERNS]) -> (i32, bool) {
    let mut value = 0;
    let mut lazi = false;
    for i in bits(counted) {
        let pat = &scheme.patterns[i];
        let v = if loser { pat.loser_value.unwrap_or(0) } else { pat.value };
        value += v * counts[i] as i32;
        lazi |= pat.lazi;
    }
    (value, lazi)
}

/// The patterns counted of those found.
fn exclude(scheme: &Scheme, hits: u64) -> u64 {
    match scheme.exclusion {
        Exclusion::EveryHit => hits & !bits(hits).fold(0u64, |m, i| m | scheme.patterns[i].excludes),
        Exclusion::TopDown => {
            let mut void = 0u64;
            let mut counted = 0u64;
            for i in bits(hits) {
                if void >> i & 1 == 0 {
                    counted |= 1 << i;
                    void |= scheme.patterns[i].excludes;
                }
            }
            counted
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::forms::Forms;
    use crate::notation::{parse, Format};

    #[test]
    fn the_sorting_network_sorts_eight_items() {
        // By the 0-1 principle, sorting every sequence of zeros and ones suffices.
        for bits in 0u32..256 {
            let mut a: [u32; 8] = std::array::from_fn(|i| bits >> i & 1);
            sort_8(&mut a);
            assert!(a.windows(2).all(|w| w[0] <= w[1]), "{bits:08b}");
        }
    }

    #[test]
    fn arrangements_alike_but_where_the_wilds_sit_are_one_class() {
        let found = |groups: &[Group]| Found {
            form: Form::Standard,
            groups: Groups::collect_with(NO_GROUP, groups.iter().copied()),
            free_melds: 0,
            free_pairs: 1,
        };
        let places = |groups: &[Group]| places_of(groups, 0, true, true);
        // 456m with a wild 5m and 555m, or the other way round, in either order.
        let a = [Group::new(Shape::Chow, 3, 0b010), Group::new(Shape::Pung, 4, 0)];
        let b = [Group::new(Shape::Pung, 4, 0b001), Group::new(Shape::Chow, 3, 0)];
        let (ca, ma) = wild_win_class(&found(&a), &places(&a)).unwrap();
        let (cb, mb) = wild_win_class(&found(&b), &places(&b)).unwrap();
        assert_eq!(ca, cb);
        // Sorted, the chow (shape 1) is before the pung (shape 2): the chow's 5m is bit 1,
        // the pung's place bit 3. In `b` the chow's real 5m takes the wild's place.
        assert_eq!((ma, mb), (0b1010, 0b1010));
        // A declared pung, or another free pair, is another class.
        let mut c = a;
        c[1].meld = Some(crate::hand::MeldKind::Pung);
        assert_ne!(wild_win_class(&found(&c), &places(&c)).unwrap().0, ca);
        let other = Found { free_pairs: 0, ..found(&a) };
        assert_ne!(wild_win_class(&other, &places(&a)).unwrap().0, ca);
        // More than eight groups are not told apart.
        let nine = [Group::new(Shape::Pair, 0, 0); 9];
        assert!(wild_win_class(&found(&nine), &places(&nine)).is_none());
    }

    #[test]
    fn pungs_fit_where_the_kinds_held_need_no_more_groups_than_there_are() {
        let fits = |hand: &str, wild_kinds: u64, dragon_sets: bool| {
            let mut scheme = super::super::scheme::empty("test", Forms::standard(4));
            scheme.dragon_sets = dragon_sets;
            let h = parse(hand, Format::Compact).unwrap().hand;
            pungs_may_fit(&scheme, &Tiles::new(&h, u64::MAX, wild_kinds, 0))
        };
        // 2m wild: 777m 6778p 789s hold seven kinds for five groups.
        assert!(!fits("2222777m6778p789s", 1 << 1, false));
        // Five kinds, a fourth copy a group of its own: 1111m 22m 333p 9s and two wilds.
        assert!(fits("1111m22m333p9s55z", 1 << 31, false));
        assert!(!fits("1111m22m333p9s6s5z", 1 << 31, false));
        // Where 中发白 is a group, three dragons may share one.
        assert!(!fits("111m444p777s567z1z", 0, false));
        assert!(fits("111m444p777s567z1z", 0, true));
        // Declared melds take their groups: one group left for 3 kinds.
        assert!(!fits("[111m][222m][333m]45m6m", 0, false));
    }
}
