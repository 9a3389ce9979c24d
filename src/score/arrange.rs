//! Every way to arrange a hand's tiles into groups, with wild tiles placed.
//!
//! A wild that joins real tiles is placed there (the group records which of its tiles are
//! wild). Groups made of wilds alone are not listed one kind at a time: an arrangement
//! says how many such *free* melds and pairs it has, and [`crate::score::evaluate`]
//! chooses their kinds, trying only kinds that the ruleset's patterns tell apart. That
//! keeps a hand with many wilds to a few hundred arrangements instead of tens of
//! thousands.
//!
//! Arrangements are handed to a callback as they are found; it returns `false` to stop.

use super::group::{Group, Groups, Shape, NO_GROUP};
use crate::forms::Forms;
use crate::hand::{Hand, MeldKind};
use crate::inline::Inline;
use crate::tiles::{self, Counts, Tile, ALL_KINDS, GREEN, KINDS, KINDS_258, ORPHANS, RED, WHITE};

/// The forms of a complete hand the scoring engine arranges, and the pseudo-forms of
/// hands it scores without a complete arrangement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Form {
    Standard,
    /// 七对.
    SevenPairs,
    /// 八对半: seven pairs and a triplet.
    EightPairs,
    /// 十三幺.
    ThirteenOrphans,
    /// 将将胡: every tile a 2, 5 or 8.
    All258,
    /// A dealt hand judged for the instant wins (Changsha's 起手胡).
    Dealt,
    /// A player who did not win: the groups that score, the rest left over (Longgang's 陪家).
    Partial,
    /// A win the ruleset grants whatever the shape (四惠牌, 三财神), by its index in the
    /// ruleset's list of such forms.
    Fallback(u8),
}

impl Form {
    /// A bit of its own, for sets of forms.
    pub const fn bit(self) -> u32 {
        match self {
            Form::Standard => 1,
            Form::SevenPairs => 1 << 1,
            Form::EightPairs => 1 << 2,
            Form::ThirteenOrphans => 1 << 3,
            Form::All258 => 1 << 4,
            Form::Dealt => 1 << 5,
            Form::Partial => 1 << 6,
            // `min` is not a const fn.
            Form::Fallback(i) => 1 << (8 + if i < 23 { i } else { 23 }),
        }
    }

    /// The forms written as one run of tiles rather than as groups.
    pub fn is_loose(self) -> bool {
        matches!(self, Form::ThirteenOrphans | Form::All258 | Form::Dealt | Form::Fallback(_))
    }
}

/// The tiles to arrange: the real concealed tiles, the wilds, and the declared melds.
#[derive(Clone, Copy, Debug)]
pub struct Tiles {
    /// Real concealed tiles (wild tiles not among them).
    pub counts: Counts,
    /// Wild tiles held.
    pub wilds: u8,
    /// Most concealed tiles that may stand for each kind: four less the melded copies,
    /// none for a kind the ruleset does not play.
    pub caps: Counts,
    /// The declared melds, as groups.
    pub melds: Groups,
}

impl Tiles {
    /// The tiles of `hand` with the kinds of `wild_kinds` wild and `extra` more wilds held
    /// (a flower that plays as a wild).
    pub fn new(hand: &Hand, tile_set: u64, wild_kinds: u64, extra: u8) -> Tiles {
        let melded = if hand.melds.is_empty() { [0; KINDS] } else { hand.melded() };
        let mut counts = hand.concealed;
        let mut wilds = extra;
        for t in tiles::mask_tiles(wild_kinds) {
            wilds += counts[t as usize];
            counts[t as usize] = 0;
        }
        let mut caps = [0u8; KINDS];
        for t in 0..KINDS {
            caps[t] = (tile_set >> t & 1) as u8 * 4u8.saturating_sub(melded[t]);
        }
        let mut melds = Groups::filled(NO_GROUP);
        for m in &hand.melds {
            let shape = match m.kind {
                MeldKind::Chow => Shape::Chow,
                MeldKind::Pung => Shape::Pung,
                _ => Shape::Kong,
            };
            melds.push(Group { meld: Some(m.kind), ..Group::new(shape, m.tile, 0) });
        }
        Tiles { counts, wilds, caps, melds }
    }

    pub fn real(&self) -> usize {
        self.counts.iter().map(|&c| c as usize).sum()
    }
}

/// An arrangement as found: its form and groups (the declared melds among them), with
/// the free groups still to be given kinds.
#[derive(Clone, Copy, Debug)]
pub struct Found {
    pub form: Form,
    pub groups: Groups,
    /// Melds made of three wilds (a pung or a chow of any kinds).
    pub free_melds: u8,
    /// Pairs made of two wilds.
    pub free_pairs: u8,
}

/// Whether a standard arrangement meets the ruleset's pair rule: a pair of `pair_kinds`,
/// or (Changsha) any pair for a hand of pungs, or for a hand of one suit.
pub fn pair_allowed(forms: &Forms, groups: &[Group]) -> bool {
    let pair = groups.iter().find(|g| g.shape == Shape::Pair).map_or(0, |g| g.tile);
    if forms.pair_kinds >> pair & 1 == 1 {
        return true;
    }
    let no_chows = groups.iter().all(|g| g.shape != Shape::Chow);
    let suits = groups.iter().flat_map(|g| g.kinds()).fold(0u8, |m, t| m | 1 << tiles::suit(t));
    (forms.all_pungs_any_pair && no_chows) || (forms.one_suit_any_pair && suits.count_ones() == 1 && suits & 8 == 0)
}

/// The kinds a standard pair may be during the search: the narrow rule is checked on
/// the finished arrangement when a relaxation may allow another pair.
fn search_pair_kinds(forms: &Forms) -> u64 {
    if forms.pair_kinds != ALL_KINDS && (forms.all_pungs_any_pair || forms.one_suit_any_pair) {
        ALL_KINDS
    } else {
        forms.pair_kinds
    }
}

struct Standard<'a, V> {
    /// Kinds whose real tiles and wilds are not to be swapped between groups (see
    /// [`Visit::fixed`]).
    fixed: u64,
    /// The kind of a real winning tile, held: once the groups holding its real tiles
    /// are taken, the visitor is asked whether to go on (see [`Visit::placed`]).
    win: Option<usize>,
    r: Counts,
    /// The kinds of `r` with a tile left, by bit.
    held: u64,
    stand: Counts,
    caps: &'a Counts,
    pair_ok: u64,
    dragon_sets: bool,
    /// The fewest melds the real tiles of the suits after each (the honours last) can be
    /// exactly all of, wilds added, without a pair and with one (see [`Need`]): a search
    /// whose tiles left cannot be melds and a pair is given up at once.
    after: [[u8; 2]; 4],
    found: Found,
    visit: &'a mut V,
    /// Arrangements listed so far.
    listed: u32,
    stopped: bool,
}

/// Arrangements the search with wilds lists before it asks [`Visit::placed`]: most
/// searches are shorter, and an answer costs the visitor as much as a few arrangements.
const PLACED_AFTER: u32 = 8;

/// The fewest melds some real tiles can be exactly all of, wilds added for the rest:
/// without a pair in the low four bits, with one in the high four (15: none).
type Need = u8;

/// Every number of melds from none, with a pair or without.
const ANY_NEED: Need = 0;

/// The [`Need`] of the counts of a suit or of the honours: read from a table made at
/// build time from the distance tables of groups whose caps do not bind (wilds standing
/// past a kind's copies, 惠牌), see [`crate::tables::need`]; past its limit, worked out
/// the same way from the dynamic programming's distances.
struct Needs;

impl Needs {
    /// The need of a suit's counts (nine) or the honours' (seven).
    #[inline]
    fn of(counts: &[u8]) -> Need {
        // The counts as one key: eight bytes, and the ninth count (7 for the honours,
        // which no suit has) in the top three bits, free while each count is below 8.
        let mut low = [0u8; 8];
        let n = counts.len().min(8);
        low[..n].copy_from_slice(&counts[..n]);
        let w = u64::from_le_bytes(low);
        let last = match counts.get(8) {
            Some(&c) if c < 7 => c,
            Some(_) => return Self::look_up(counts),
            None => 7,
        };
        if w & 0xF8F8_F8F8_F8F8_F8F8 != 0 {
            return Self::look_up(counts);
        }
        let key = w | (last as u64) << 61;
        let at = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - NEED_SLOTS_BITS)) as usize;
        NEEDS_MET.with(|met| {
            let (k, need) = &met[at];
            if k.get() == key {
                return need.get();
            }
            let n = Self::look_up(counts);
            k.set(key);
            need.set(n);
            n
        })
    }

    fn look_up(counts: &[u8]) -> Need {
        crate::tables::need(counts).unwrap_or_else(|| Self::past_limit(counts))
    }

    #[cold]
    fn past_limit(counts: &[u8]) -> Need {
        use crate::tables::{target_size, MAX_MELDS};
        let chows = counts.len() == 9;
        let dist = crate::distance::slow_group(counts, &[6; 9][..counts.len()], 0x1FF, chows);
        let tiles: usize = counts.iter().map(|&c| c as usize).sum();
        let least = |h: usize| {
            (0..=MAX_MELDS)
                .find(|&m| dist[2 * m + h] as usize + tiles == target_size(2 * m + h) as usize)
                .map_or(15, |m| m as u8)
        };
        least(0) | least(1) << 4
    }
}

/// Slots (a power of two) of the needs met last on a thread.
const NEED_SLOTS_BITS: u32 = 10;

thread_local! {
    /// The needs met last on this thread, by their counts' key (see [`Needs::of`]): the
    /// searches of one hand, and of the hands of one analysis, meet the same suits again
    /// and again. An empty slot's key has every bit set, which no counts' key has.
    static NEEDS_MET: [(std::cell::Cell<u64>, std::cell::Cell<Need>); 1 << NEED_SLOTS_BITS] =
        const { [const { (std::cell::Cell::new(u64::MAX), std::cell::Cell::new(0)) }; 1 << NEED_SLOTS_BITS] };
}

/// The fewest melds tiles of need `here` and tiles needing `after` (without a pair, with
/// one) are together, without a pair and with one.
fn together(here: Need, after: [u8; 2]) -> [u8; 2] {
    let (h0, h1) = (here & 15, here >> 4);
    [h0 + after[0], (h0 + after[1]).min(h1 + after[0])]
}

/// The real tiles of kind group `g` (a suit, or the honours for 3).
fn group_counts(counts: &Counts, g: usize) -> &[u8] {
    if g < 3 {
        &counts[9 * g..9 * g + 9]
    } else {
        &counts[27..]
    }
}

impl<V: Visit> Standard<'_, V> {
    #[inline]
    fn push(&mut self, g: Group) {
        match g.shape {
            Shape::Chow | Shape::DragonSet => {
                for i in 0..3 {
                    let k = g.kind_at(i) as usize;
                    self.stand[k] += 1;
                    if g.wilds >> i & 1 == 0 {
                        self.take(k, 1);
                    }
                }
            }
            _ => {
                let k = g.tile as usize;
                let n = g.len() as u8;
                self.stand[k] += n;
                self.take(k, n - g.wilds.count_ones() as u8);
            }
        }
        self.found.groups.push(g);
    }

    #[inline]
    fn pop(&mut self, g: Group) {
        match g.shape {
            Shape::Chow | Shape::DragonSet => {
                for i in 0..3 {
                    let k = g.kind_at(i) as usize;
                    self.stand[k] -= 1;
                    if g.wilds >> i & 1 == 0 {
                        self.put_back(k, 1);
                    }
                }
            }
            _ => {
                let k = g.tile as usize;
                let n = g.len() as u8;
                self.stand[k] -= n;
                self.put_back(k, n - g.wilds.count_ones() as u8);
            }
        }
        self.found.groups.pop();
    }

    /// Takes `n` real tiles of kind `k` from those left, and puts them back.
    #[inline]
    fn take(&mut self, k: usize, n: u8) {
        self.r[k] -= n;
        if self.r[k] == 0 {
            self.held &= !(1 << k);
        }
    }

    #[inline]
    fn put_back(&mut self, k: usize, n: u8) {
        self.r[k] += n;
        if self.r[k] > 0 {
            self.held |= 1 << k;
        }
    }

    /// The lowest kind with a real tile left: no kind below the one last placed has one
    /// (the groups of a kind take it and kinds above it).
    fn lowest(&self) -> Option<usize> {
        (self.held != 0).then(|| self.held.trailing_zeros() as usize)
    }

    /// Whether `g` fits the tiles left: its real tiles are there, and no kind stands for
    /// more tiles than it has copies.
    #[inline]
    fn fits(&self, g: &Group) -> bool {
        match g.shape {
            Shape::Chow | Shape::DragonSet => g.kinds().all(|k| self.stand[k as usize] < self.caps[k as usize]),
            _ => self.stand[g.tile as usize] as usize + g.len() <= self.caps[g.tile as usize] as usize,
        }
    }

    /// Takes `g`, the choice `order` for the lowest real tile `from`, and searches on.
    fn try_group(&mut self, g: Group, from: usize, order: u8, w: u8, melds: u8, pair: u8) {
        let need = g.wilds.count_ones() as u8;
        if need > w || !self.fits(&g) {
            return;
        }
        self.push(g);
        let (m, p) = if g.shape == Shape::Pair { (melds, pair - 1) } else { (melds - 1, pair) };
        self.search(from, order, w - need, m, p);
        self.pop(g);
    }

    /// The lowest real tile left goes into some group; every choice is tried.
    ///
    /// The groups a kind is the lowest real tile of are taken in the order they are tried
    /// (`floor` is the order of the last one taken for `from`), so that each set of
    /// groups is listed once, not once for each order they could be taken in. And a wild
    /// stands for a kind only once no real tile of it is left, but for the kinds of
    /// `fixed`: a real tile left would go into a later group, and swapping the two gives
    /// the same groups by the kinds they stand for, the wild now in the later group
    /// (which may become a free group, one of wilds alone).
    fn search(&mut self, from: usize, floor: u8, w: u8, melds: u8, pair: u8) {
        if self.stopped {
            return;
        }
        // Every real tile of the winning kind taken: its places are known, and the
        // visitor may find nothing below worth listing (asked again at each step, as
        // the best it has found rises).
        if self.listed >= PLACED_AFTER
            && self.win.is_some_and(|t| self.r[t] == 0 && self.visit.placed(t as Tile, &self.found.groups))
        {
            return;
        }
        let Some(k) = self.lowest() else {
            if w == 3 * melds + 2 * pair {
                self.found.free_melds = melds;
                self.found.free_pairs = pair;
                self.listed += 1;
                self.stopped = !self.visit.found(&self.found);
            }
            return;
        };
        // The groups below are complete and those above untouched: the tiles left must
        // still be melds and a pair.
        let group = (k / 9).min(3);
        let here = if group == 3 && self.dragon_sets { ANY_NEED } else { Needs::of(group_counts(&self.r, group)) };
        let need = together(here, self.after[group]);
        if need[0] > melds && (pair == 0 || need[1] > melds) {
            return;
        }
        let kt = k as Tile;
        let real = self.r[k];
        let floor = if k == from { floor } else { 0 };
        // A group may take fewer of k's real tiles than it could where the rest matter
        // apart: a fixed kind, or the white dragon, whose other real tiles may go to a
        // 中发白 set, which takes no wild (elsewhere a wild and a real tile of k in two
        // groups of k could swap places, an arrangement listed already).
        let some = self.fixed >> k & 1 == 1 || (self.dragon_sets && kt == WHITE);
        // Only the choices the wilds left can pay for: n real tiles of k, the rest wild.
        // Orders: pairs 0-1, pungs 2-4, chows 5-16, the dragon set 17.
        if pair == 1 && self.pair_ok >> k & 1 == 1 {
            for n in (2u8.saturating_sub(w).max(1)..=real.min(2)).rev() {
                let order = 2 - n;
                if order >= floor && (n == 2 || n == real || some) {
                    self.try_group(Group::new(Shape::Pair, kt, (1 << (2 - n)) - 1), k, order, w, melds, pair);
                }
            }
        }
        if melds == 0 {
            return;
        }
        for n in (3u8.saturating_sub(w).max(1)..=real.min(3)).rev() {
            let order = 2 + 3 - n;
            if order >= floor && (n == 3 || n == real || some) {
                self.try_group(Group::new(Shape::Pung, kt, (1 << (3 - n)) - 1), k, order, w, melds, pair);
            }
        }
        if k < 27 {
            let rank = k % 9;
            for start in rank.saturating_sub(2).max(rank.saturating_sub(w as usize))..=rank.min(6) {
                let s = k - rank + start;
                let pos = k - s;
                // Places below k are wild (k is the lowest real tile); k itself is real;
                // the places above are real or wild, both tried: real where a real tile
                // is left, wild where none is (or the kind is fixed).
                let below = (1u8 << pos) - 1;
                let above = 0b111 & !((2u8 << pos) - 1);
                let left = (self.held >> s & 0b111) as u8;
                let loose = left & !((self.fixed >> s & 0b111) as u8);
                for choice in (0..1u8 << (2 - pos)).rev() {
                    let real_above = choice << (pos + 1);
                    let wild_above = above & !real_above;
                    let order = 5 + (2 - pos as u8) * 4 + (3 - choice);
                    if pos as u32 + wild_above.count_ones() > w as u32 || order < floor {
                        continue;
                    }
                    if left & real_above == real_above && loose & wild_above == 0 {
                        self.try_group(
                            Group::new(Shape::Chow, s as Tile, below | wild_above),
                            k,
                            order,
                            w,
                            melds,
                            pair,
                        );
                    }
                }
            }
        } else if self.dragon_sets && kt == WHITE && self.r[GREEN as usize] > 0 && self.r[RED as usize] > 0 {
            self.try_group(Group::new(Shape::DragonSet, 0, 0), k, 17, w, melds, pair);
        }
    }
}

impl<V: Visit> Standard<'_, V> {
    /// [`Standard::search`] when no tile is wild: the same arrangements in the same
    /// order, without the wilds' choices. Real tiles never pass a kind's copies, so
    /// nothing needs checking but that the tiles are there.
    fn search_real(&mut self, from: usize, floor: u8, melds: u8, pair: u8) {
        if self.stopped {
            return;
        }
        let Some(k) = self.lowest() else {
            if melds == 0 && pair == 0 {
                self.found.free_melds = 0;
                self.found.free_pairs = 0;
                self.stopped = !self.visit.found(&self.found);
            }
            return;
        };
        let kt = k as Tile;
        let real = self.r[k];
        // Orders as in `search`, the same for the same groups.
        let floor = if k == from { floor } else { 0 };
        let take = |s: &mut Self, g: Group, order: u8, used: &[usize], melds: u8, pair: u8| {
            if order < floor {
                return;
            }
            for &u in used {
                s.take(u, 1);
            }
            s.found.groups.push(g);
            s.search_real(k, order, melds, pair);
            s.found.groups.pop();
            for &u in used {
                s.put_back(u, 1);
            }
        };
        if pair == 1 && real >= 2 && self.pair_ok >> k & 1 == 1 {
            take(self, Group::new(Shape::Pair, kt, 0), 0, &[k, k], melds, 0);
        }
        if melds == 0 {
            return;
        }
        if real >= 3 {
            take(self, Group::new(Shape::Pung, kt, 0), 2, &[k, k, k], melds - 1, pair);
        }
        if k < 27 {
            if k % 9 <= 6 && self.r[k + 1] > 0 && self.r[k + 2] > 0 {
                take(self, Group::new(Shape::Chow, kt, 0), 13, &[k, k + 1, k + 2], melds - 1, pair);
            }
        } else if self.dragon_sets && kt == WHITE && self.r[GREEN as usize] > 0 && self.r[RED as usize] > 0 {
            let used = [WHITE as usize, GREEN as usize, RED as usize];
            take(self, Group::new(Shape::DragonSet, 0, 0), 17, &used, melds - 1, pair);
        }
    }
}

/// Standard arrangements: `melds` melds (the declared ones among them) and a pair.
fn standard<V: Visit>(forms: &Forms, dragon_sets: bool, t: &Tiles, visit: &mut V) -> bool {
    let melds_left = (forms.melds as usize).saturating_sub(t.melds.len()) as u8;
    if t.wilds == 0 && !may_be_standard(&t.counts, dragon_sets) {
        return true;
    }
    let fixed = visit.fixed();
    let win = visit.placing().map(usize::from).filter(|&k| t.counts[k] > 0);
    let mut s = Standard {
        fixed,
        win,
        r: t.counts,
        held: tiles::kinds_mask(&t.counts),
        stand: [0; KINDS],
        caps: &t.caps,
        pair_ok: search_pair_kinds(forms),
        dragon_sets,
        after: [[0, 15]; 4],
        found: Found { form: Form::Standard, groups: t.melds, free_melds: 0, free_pairs: 0 },
        visit,
        listed: 0,
        stopped: false,
    };
    if t.wilds == 0 {
        s.search_real(0, 0, melds_left, 1);
    } else {
        for g in (0..3).rev() {
            let next = g + 1;
            let own = if next == 3 && dragon_sets { ANY_NEED } else { Needs::of(group_counts(&t.counts, next)) };
            s.after[g] = together(own, s.after[next]);
        }
        s.search(0, 0, t.wilds, melds_left, 1);
    }
    !s.stopped
}

/// Whether real tiles without wilds may make melds and one pair: each suit (and the
/// honours, unless 中发白 is a group) must split into melds and at most one pair on its
/// own, which the tables of distances tell at a glance. Most hands that are not complete
/// fail here, before any search.
fn may_be_standard(counts: &Counts, dragon_sets: bool) -> bool {
    let fits = |c: &[u8], chows: bool| {
        let n: u8 = c.iter().sum();
        n % 3 != 1
            && crate::distance::plain_group(c, chows).get((n / 3) as usize * 2 + (n % 3 == 2) as usize) == Some(&0)
    };
    (0..3).all(|s| fits(&counts[9 * s..9 * s + 9], true)) && (dragon_sets || fits(&counts[27..], false))
}

/// Seven pairs (`triplet` false) or eight pairs and a half: every real tile in a pair
/// (or the triplet), wilds pairing singles first and the rest free.
fn pairs<F: FnMut(&Found) -> bool>(forms: &Forms, t: &Tiles, triplet: bool, emit: &mut F) -> bool {
    let per_kind = if forms.four_as_two_pairs { 2 } else { 1 };
    // Without wilds, seven pairs needs every kind held an even number of times.
    if !triplet && t.wilds == 0 && t.counts.iter().any(|&c| c % 2 == 1 || c > 2 * per_kind) {
        return true;
    }
    // A kind held an odd number of times takes a wild, but for the triplet's.
    let odd = t.counts.iter().filter(|&&c| c % 2 == 1).count();
    if odd > t.wilds as usize + triplet as usize {
        return true;
    }
    let mut triplet_kinds: Inline<Option<usize>, { KINDS + 1 }> = Inline::filled(None);
    if triplet {
        // A triplet takes every real copy of its kind (with wilds for the rest): a kind
        // in both the triplet and a pair would stand for five tiles.
        for k in (0..KINDS).filter(|&k| (1..=3).contains(&t.counts[k]) && t.caps[k] >= 3) {
            triplet_kinds.push(Some(k));
        }
        triplet_kinds.push(None);
    } else {
        triplet_kinds.push(None);
    }
    for &tk in triplet_kinds.iter() {
        let mut groups = Groups::filled(NO_GROUP);
        let mut w = t.wilds as i32;
        let mut free_melds = 0;
        match tk {
            Some(k) => {
                let real = t.counts[k];
                w -= 3 - real as i32;
                groups.push(Group::new(Shape::Pung, k as Tile, (1 << (3 - real)) - 1));
            }
            None if triplet => {
                w -= 3;
                free_melds = 1;
            }
            None => {}
        }
        if w < 0 {
            continue;
        }
        let mut ok = true;
        for k in 0..KINDS {
            let c = if Some(k) == tk { 0 } else { t.counts[k] };
            if c == 0 {
                continue;
            }
            let n = c.div_ceil(2);
            if n > per_kind || 2 * n > t.caps[k] {
                ok = false;
                break;
            }
            // Wilds go to the later pair of a kind: a lone real tile pairs with a wild first.
            let mut left = c;
            for _ in 0..n {
                let real = left.min(2);
                left -= real;
                groups.push(Group::new(Shape::Pair, k as Tile, (1 << (2 - real)) - 1));
            }
            w -= (2 * n - c) as i32;
        }
        let pairs_made = groups.iter().filter(|g| g.shape == Shape::Pair).count() as i32;
        if !ok || w < 0 || w % 2 != 0 || pairs_made + w / 2 != 7 {
            continue;
        }
        let form = if triplet { Form::EightPairs } else { Form::SevenPairs };
        let found = Found { form, groups, free_melds, free_pairs: (w / 2) as u8 };
        if !emit(&found) {
            return false;
        }
    }
    true
}

/// Thirteen orphans: one of each terminal and honour and a second of one of them, the
/// wilds standing for the kinds missing.
fn orphans<F: FnMut(&Found) -> bool>(t: &Tiles, emit: &mut F) -> bool {
    let orphan_mask = ORPHANS.iter().fold(0u64, |m, &k| m | 1 << k);
    if (0..KINDS).any(|k| t.counts[k] > 0 && orphan_mask >> k & 1 == 0) {
        return true;
    }
    for &pair in &ORPHANS {
        let need = |k: Tile| if k == pair { 2 } else { 1 };
        if ORPHANS.iter().any(|&k| t.counts[k as usize] > need(k) || need(k) > t.caps[k as usize]) {
            continue;
        }
        let missing: u32 = ORPHANS.iter().map(|&k| (need(k) - t.counts[k as usize]) as u32).sum();
        if missing != t.wilds as u32 {
            continue;
        }
        let mut groups = Groups::filled(NO_GROUP);
        for &k in &ORPHANS {
            let real = t.counts[k as usize];
            let g = if k == pair {
                Group::new(Shape::Pair, k, (1 << (2 - real)) - 1)
            } else {
                Group::new(Shape::Single, k, (real == 0) as u8)
            };
            groups.push(g);
        }
        if !emit(&Found { form: Form::ThirteenOrphans, groups, free_melds: 0, free_pairs: 0 }) {
            return false;
        }
    }
    true
}

/// Singles of every concealed tile, the declared melds kept; wilds stand for the first
/// kinds of `wild_room` that have room (the forms without structure do not tell kinds
/// of wilds apart).
pub fn loose(t: &Tiles, form: Form, wild_room: u64) -> Option<Found> {
    let mut groups = t.melds;
    for k in 0..KINDS {
        for _ in 0..t.counts[k] {
            if !groups.push(Group::new(Shape::Single, k as Tile, 0)) {
                return None;
            }
        }
    }
    let mut stand = t.counts;
    let mut w = t.wilds;
    for k in tiles::mask_tiles(wild_room) {
        while w > 0 && stand[k as usize] < t.caps[k as usize] {
            stand[k as usize] += 1;
            w -= 1;
            if !groups.push(Group::new(Shape::Single, k, 1)) {
                return None;
            }
        }
    }
    (w == 0).then_some(Found { form, groups, free_melds: 0, free_pairs: 0 })
}

/// 将将胡: every tile a 2, 5 or 8, declared melds pungs or kongs of them.
fn all_258<F: FnMut(&Found) -> bool>(forms: &Forms, t: &Tiles, emit: &mut F) -> bool {
    let melds_ok = t.melds.iter().all(|m| m.shape != Shape::Chow && KINDS_258 >> m.tile & 1 == 1);
    let only = (0..KINDS).all(|k| t.counts[k] == 0 || KINDS_258 >> k & 1 == 1);
    let melds_left = (forms.melds as usize).saturating_sub(t.melds.len());
    if !melds_ok || !only || t.real() + t.wilds as usize != 3 * melds_left + 2 {
        return true;
    }
    match loose(t, Form::All258, KINDS_258) {
        Some(found) => emit(&found),
        None => true,
    }
}

/// Every arrangement of a complete hand under `forms`, free groups unassigned; the forms
/// with few arrangements first, the standard last. Returns `false` when `emit` stopped it.
pub fn complete<F: FnMut(&Found) -> bool>(forms: &Forms, dragon_sets: bool, t: &Tiles, emit: &mut F) -> bool {
    complete_with(forms, dragon_sets, t, &mut Each(emit))
}

/// What receives the arrangements of a complete hand.
pub trait Visit {
    /// Whether to leave out the arrangements of a form (asked of the standard form, the
    /// one with many, once the others are listed).
    fn skip(&mut self, form: Form) -> bool;
    /// One arrangement; `false` stops the listing.
    fn found(&mut self, found: &Found) -> bool;
    /// The kinds where it matters which groups a kind's real tiles are in and which its
    /// wilds: every kind (all arrangements listed) unless the visitor reads no more of
    /// an arrangement than the kinds its groups stand for, and which groups are of wilds
    /// alone, preferring more of those (scoring: all kinds but that of a real winning
    /// tile, whose place sets the wait; and the kinds whose groups score points where
    /// the wilds could make such a group alone, which scores none).
    fn fixed(&self) -> u64 {
        u64::MAX
    }
    /// The kind of a real winning tile whose places the visitor would judge (see
    /// [`Visit::placed`]), if any.
    fn placing(&self) -> Option<Tile> {
        None
    }
    /// Asked by the standard form's search with wilds, at each step once it has listed a
    /// few arrangements and taken the groups that hold every real tile of the kind
    /// [`Visit::placing`] names (`win`): whether no arrangement that begins with `groups`
    /// is worth listing (the places of the winning tile are now those of `groups`,
    /// whatever the groups to come).
    fn placed(&mut self, _win: Tile, _groups: &Groups) -> bool {
        false
    }
}

/// A closure that takes every arrangement.
struct Each<'a, F>(&'a mut F);

impl<F: FnMut(&Found) -> bool> Visit for Each<'_, F> {
    fn skip(&mut self, _: Form) -> bool {
        false
    }

    fn found(&mut self, found: &Found) -> bool {
        (self.0)(found)
    }
}

/// As [`complete`], for a [`Visit`].
pub fn complete_with<V: Visit>(forms: &Forms, dragon_sets: bool, t: &Tiles, v: &mut V) -> bool {
    let concealed = t.melds.is_empty();
    let emit = &mut |f: &Found| v.found(f);
    if concealed && forms.seven_pairs && forms.melds == 4 && !pairs(forms, t, false, emit) {
        return false;
    }
    if concealed && forms.eight_pairs_and_a_half && forms.melds == 5 && !pairs(forms, t, true, emit) {
        return false;
    }
    if concealed && forms.thirteen_orphans && forms.melds == 4 && !orphans(t, emit) {
        return false;
    }
    if forms.all_258 && !all_258(forms, t, emit) {
        return false;
    }
    !forms.standard || v.skip(Form::Standard) || standard(forms, dragon_sets, t, v)
}

/// One group a kind of a partial hand gives, best first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Take {
    /// No group: the end of a kind's groups.
    None,
    /// A pair of real tiles.
    Pair,
    /// A pung of this many real tiles, wilds for the rest.
    Pung(u8),
}

/// The groups one kind gives, best first and in non-increasing order, so that each set
/// of groups is listed once.
type KindTakes = [Take; 4];

/// One way a kind of a partial hand gives groups: the groups, the wilds they take,
/// whether one is the pair, and the fewest wilds more that give the kind one group more
/// (a pung, or a group beside the pair it holds; and a pair, where it holds none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Choice {
    takes: KindTakes,
    wilds: u8,
    uses_pair: bool,
    more: (u8, u8),
}

/// Every way a kind with `c` real tiles and room for `cap` tiles may give groups: pungs
/// of one to three of its real tiles with wilds for the rest, and a pair of real tiles
/// where `pair_ok`. Best tried first.
fn kind_takes(c: u8, cap: u8, pair_ok: bool) -> Vec<Choice> {
    fn rec(c: u8, room: u8, pair_ok: bool, at: usize, takes: &mut KindTakes, out: &mut Vec<Choice>) {
        let last = if at == 0 { Take::Pung(3) } else { takes[at - 1] };
        if at < takes.len() {
            for n in (1..=c.min(3)).rev() {
                if Take::Pung(n) <= last && room >= 3 {
                    takes[at] = Take::Pung(n);
                    rec(c - n, room - 3, pair_ok, at + 1, takes, out);
                }
            }
            if pair_ok && c >= 2 && room >= 2 && Take::Pair <= last {
                takes[at] = Take::Pair;
                rec(c - 2, room - 2, false, at + 1, takes, out);
            }
            takes[at] = Take::None;
        }
        let wilds = takes.iter().map(|t| if let Take::Pung(n) = t { 3 - n } else { 0 }).sum();
        out.push(Choice { takes: *takes, wilds, uses_pair: takes.contains(&Take::Pair), more: (0, 0) });
    }
    let mut out = vec![];
    rec(c, cap, pair_ok, 0, &mut [Take::None; 4], &mut out);
    // For each choice, the fewest wilds more for one group more: among the choices that
    // are it and one group more, a pung (or a group beside the pair it holds), and a
    // pair (where it holds none).
    let all = out.clone();
    for ch in &mut out {
        let mut fewest = (u8::MAX, u8::MAX);
        for m in all.iter().filter(|m| one_more(&ch.takes, &m.takes)) {
            let extra = m.wilds - ch.wilds;
            if !m.uses_pair || ch.takes.contains(&Take::Pair) {
                fewest.0 = fewest.0.min(extra);
            } else {
                fewest.1 = fewest.1.min(extra);
            }
        }
        ch.more = fewest;
    }
    out
}

/// Whether `more` is `t` and one group more (both in non-increasing order).
fn one_more(t: &KindTakes, more: &KindTakes) -> bool {
    let n = t.iter().take_while(|x| **x != Take::None).count();
    let m = more.iter().take_while(|x| **x != Take::None).count();
    if m != n + 1 {
        return false;
    }
    // `t` is `more` with one group taken out.
    (0..m).any(|skip| (0..n).all(|i| t[i] == more[if i < skip { i } else { i + 1 }]))
}

/// Most room a kind's choices can use: four pungs.
const MOST_ROOM: u8 = 12;

/// The choices of a kind (see [`kind_takes`]), made once for each count of real tiles
/// (at most four), room (beyond `MOST_ROOM` none more can be used) and pairing.
fn choices_of(c: u8, cap: u8, pair_ok: bool) -> &'static [Choice] {
    static TABLE: std::sync::OnceLock<Vec<Vec<Choice>>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = vec![];
        for c in 0..=4u8 {
            for cap in 0..=MOST_ROOM {
                for pair_ok in [false, true] {
                    t.push(kind_takes(c, cap, pair_ok));
                }
            }
        }
        t
    });
    // A kind's real tiles are four at most (the reader refuses a fifth copy).
    debug_assert!(c <= 4, "{c} real tiles of a kind");
    let at = (c.min(4) as usize * (MOST_ROOM as usize + 1) + cap.min(MOST_ROOM) as usize) * 2 + pair_ok as usize;
    &table[at]
}

/// A partial hand (a player who did not win): any pungs of one to three real tiles with
/// wilds for the rest (a kind may give more than one where the wilds allow), and at most
/// one pair of real tiles of `pair_kinds`; the declared melds kept and the wilds left over
/// unused. Kinds of one `class` that hold as many tiles are alike, so only one order of
/// choices among them is tried. With `maximal`, only the partial hands to which no pung
/// or pair can be added (with the wilds left, the pair only where none is taken).
pub fn partial<F: FnMut(&Found, u8) -> bool>(
    t: &Tiles,
    pair_kinds: u64,
    class: &[u32; KINDS],
    maximal: bool,
    emit: &mut F,
) {
    let kinds: Inline<usize, KINDS> = Inline::collect_with(0, (0..KINDS).filter(|&k| t.counts[k] > 0));
    let choices: Inline<&'static [Choice], KINDS> =
        Inline::collect_with(&[], kinds.iter().map(|&k| choices_of(t.counts[k], t.caps[k], pair_kinds >> k & 1 == 1)));
    // For each kind, the last kind before it alike (of its class, with as many tiles),
    // whose choice bounds its own.
    let alike: Inline<Option<usize>, KINDS> = Inline::collect_with(
        None,
        (0..kinds.len()).map(|i| {
            let k = kinds[i];
            (0..i).rev().find(|&j| class[kinds[j]] == class[k] && t.counts[kinds[j]] == t.counts[k])
        }),
    );
    let mut groups = t.melds;
    // The choice taken for each kind so far, by its place in the kind's choices.
    let mut taken_at: Inline<usize, KINDS> = Inline::collect_with(0, kinds.iter().map(|_| 0));
    struct Search<'a, F> {
        kinds: &'a [usize],
        choices: &'a [&'static [Choice]],
        alike: &'a [Option<usize>],
        emit: &'a mut F,
        maximal: bool,
    }
    /// Whether some kind could give one group more with the wilds left (`w`), a pair only
    /// where none is taken (`pair`): one of its choices is its groups and one more.
    fn extendable(choices: &[&[Choice]], taken_at: &[usize], w: u8, pair: bool) -> bool {
        choices.iter().zip(taken_at).any(|(c, &j)| {
            let (pung, new_pair) = c[j].more;
            pung <= w || (!pair && new_pair <= w)
        })
    }
    fn rec<F: FnMut(&Found, u8) -> bool>(
        s: &mut Search<'_, F>,
        i: usize,
        w: u8,
        pair: bool,
        groups: &mut Groups,
        taken_at: &mut [usize],
    ) -> bool {
        let Some(&k) = s.kinds.get(i) else {
            if s.maximal && extendable(s.choices, taken_at, w, pair) {
                return true;
            }
            return (s.emit)(&Found { form: Form::Partial, groups: *groups, free_melds: 0, free_pairs: 0 }, w);
        };
        // Alike kinds take their choices in a non-increasing order.
        let bound = s.alike[i].map(|j| s.choices[j][taken_at[j]].takes);
        for (j, ch) in s.choices[i].iter().enumerate() {
            if ch.wilds > w || (pair && ch.uses_pair) || bound.is_some_and(|b| ch.takes > b) {
                continue;
            }
            let before = groups.len();
            for take in ch.takes {
                match take {
                    Take::None => break,
                    Take::Pair => groups.push(Group::new(Shape::Pair, k as Tile, 0)),
                    Take::Pung(n) => groups.push(Group::new(Shape::Pung, k as Tile, (1 << (3 - n)) - 1)),
                };
            }
            taken_at[i] = j;
            let go = rec(s, i + 1, w - ch.wilds, pair || ch.uses_pair, groups, taken_at);
            groups.truncate(before);
            if !go {
                return false;
            }
        }
        true
    }
    let mut s = Search { kinds: &kinds, choices: &choices, alike: &alike, emit, maximal };
    rec(&mut s, 0, t.wilds, false, &mut groups, taken_at.as_mut_slice());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{parse, Format};

    fn tiles(s: &str, wild_kinds: u64, extra: u8) -> Tiles {
        let h = parse(s, Format::Compact).unwrap().hand;
        Tiles::new(&h, ALL_KINDS, wild_kinds, extra)
    }

    fn all(forms: &Forms, t: &Tiles) -> Vec<Found> {
        let mut out = vec![];
        complete(forms, false, t, &mut |f| {
            out.push(*f);
            true
        });
        out
    }

    #[test]
    fn nine_gates_plus_five_reads_once() {
        let a = all(&Forms::standard(4), &tiles("11123455678999m", 0, 0));
        assert_eq!(a.len(), 1);
    }

    #[test]
    fn three_chows_or_three_pungs() {
        assert_eq!(all(&Forms::standard(4), &tiles("111222333m456p77z", 0, 0)).len(), 2);
    }

    #[test]
    fn wilds_alone_are_free_groups() {
        // Three wilds beside four complete groups: one free meld, no other reading... but
        // the wilds may also join the pair or a set; a free meld is among the readings.
        let a = all(&Forms::standard(4), &tiles("123m456p789s11z", 0, 3));
        assert!(a.iter().any(|f| f.free_melds == 1 && f.groups.len() == 4));
        // Five wilds and three tiles of a pung.
        let a = all(&Forms::standard(4), &tiles("111m123p456p", 0, 5));
        assert!(a.iter().any(|f| f.free_melds == 1 && f.free_pairs == 1));
    }

    #[test]
    fn declared_melds_are_kept() {
        let a = all(&Forms::standard(4), &tiles("123m456p11z[789s]{2222z}", 0, 0));
        assert_eq!(a.len(), 1);
        assert_eq!(a[0].groups.iter().filter(|g| g.meld.is_some()).count(), 2);
    }

    #[test]
    fn seven_pairs_with_a_four() {
        let forms = Forms { seven_pairs: true, four_as_two_pairs: true, ..Forms::standard(4) };
        let a = all(&forms, &tiles("1111m22p33p44s55s66z", 0, 0));
        assert_eq!(a.iter().filter(|f| f.form == Form::SevenPairs).count(), 1);
        let plain = Forms { seven_pairs: true, ..Forms::standard(4) };
        assert_eq!(all(&plain, &tiles("1111m22p33p44s55s66z", 0, 0)).len(), 0);
    }

    #[test]
    fn orphans_with_a_wild() {
        let forms = Forms { thirteen_orphans: true, ..Forms::standard(4) };
        let a = all(&forms, &tiles("19m19p19s1234566z", 1 << 33, 1));
        // 7z missing: the wild is 7z, and the pair is 6z; or the wild makes a pair of any
        // orphan... no: 7z is missing, so the one wild must be 7z.
        assert_eq!(a.len(), 1);
    }

    #[test]
    fn dragon_sets_when_asked() {
        let t = tiles("567z123m456p789s99s", 0, 0);
        let mut n = 0;
        complete(&Forms::standard(4), true, &t, &mut |f| {
            n += f.groups.iter().any(|g| g.shape == Shape::DragonSet) as usize;
            true
        });
        assert_eq!(n, 1);
        assert_eq!(all(&Forms::standard(4), &t).len(), 0);
    }

    /// The needs as first worked out: the counts some melds and a pair hold, a kind's
    /// count clipped at four, marked and carried down to every counts below.
    fn needs_marked(kinds: usize, chows: bool) -> Vec<Need> {
        use crate::tables::POW5;
        /// Bit `m` (or `8 + m` with a pair) of the counts some `m` melds hold.
        fn mark(counts: &mut [u8], from: usize, melds: usize, chows: bool, out: &mut [u16]) {
            let index = |c: &[u8]| c.iter().rev().fold(0usize, |a, &n| a * 5 + n.min(4) as usize);
            let kinds = counts.len();
            out[index(counts)] |= 1 << melds;
            for p in 0..kinds {
                counts[p] += 2;
                out[index(counts)] |= 1 << (8 + melds);
                counts[p] -= 2;
            }
            if melds == 5 {
                return;
            }
            let choices = if chows { 2 * kinds - 2 } else { kinds };
            for choice in from..choices {
                let (start, len, each) = if choice < kinds { (choice, 1, 3) } else { (choice - kinds, 3, 1) };
                (start..start + len).for_each(|t| counts[t] += each);
                mark(counts, choice, melds + 1, chows, out);
                (start..start + len).for_each(|t| counts[t] -= each);
            }
        }
        let size = POW5[kinds];
        let mut held = vec![0u16; size];
        mark(&mut vec![0; kinds], 0, 0, chows, &mut held);
        // Downwards: counts below held ones are held too.
        crate::tables::fill_down(&mut held, kinds);
        let least = |bits: u16| (bits & 0x3f).trailing_zeros().min(15) as u8;
        held.iter().map(|&r| least(r) | least(r >> 8) << 4).collect()
    }

    #[test]
    fn needs_match_the_marked_counts() {
        use crate::tables::POW5;
        for (kinds, chows) in [(9, true), (7, false)] {
            let marked = needs_marked(kinds, chows);
            // Every counts of the honours; of a suit a stride (every counts in release:
            // the ones past the tables' limit go to the dynamic programming).
            for i in (0..POW5[kinds]).step_by(if kinds == 9 { 7 } else { 1 }) {
                let counts: Vec<u8> = (0..kinds).map(|j| (i / POW5[j] % 5) as u8).collect();
                assert_eq!(Needs::of(&counts), marked[i], "{counts:?}");
            }
        }
    }

    #[test]
    fn needs_met_again_are_the_needs_looked_up() {
        // Every suit of up to eight tiles, and the first seven counts of each as the
        // honours', twice over in two orders: slots are shared and overwritten, and a need
        // read back from one is the table's.
        let mut all: Vec<Vec<u8>> = vec![];
        for code in 0..5usize.pow(9) {
            let c: Vec<u8> = (0..9).map(|i| (code / 5usize.pow(i) % 5) as u8).collect();
            if c.iter().map(|&n| n as usize).sum::<usize>() <= 8 {
                all.push(c[..7].to_vec());
                all.push(c);
            }
        }
        for round in 0..2 {
            let order: Box<dyn Iterator<Item = &Vec<u8>>> =
                if round == 0 { Box::new(all.iter()) } else { Box::new(all.iter().rev()) };
            for c in order {
                assert_eq!(Needs::of(c), Needs::look_up(c), "{c:?}");
            }
        }
    }

    #[test]
    fn needs_count_the_melds_tiles_are_all_of() {
        // 1, 5 and 9 apart: a meld each, or two and a pair.
        assert_eq!(Needs::of(&[1, 0, 0, 0, 1, 0, 0, 0, 1]), 3 | 2 << 4);
        // 1234: a chow and a meld of the 4, or a chow and a pair; four 1s: two melds
        // (a fifth copy wild) or a pung and a pair.
        assert_eq!(Needs::of(&[1, 1, 1, 1, 0, 0, 0, 0, 0]), 2 | 1 << 4);
        assert_eq!(Needs::of(&[4, 0, 0, 0, 0, 0, 0, 0, 0]), 2 | 1 << 4);
        // Honours have no chows; none at all need nothing.
        assert_eq!(Needs::of(&[1, 1, 0, 0, 0, 0, 0]), 2 | 1 << 4);
        assert_eq!(Needs::of(&[0; 7]), 0);
    }

    #[test]
    fn partial_hands_try_alike_kinds_once() {
        // Two singles of alike kinds and two wilds: a pung with one or the other is the same.
        let t = tiles("3m4m", 0, 2);
        let class = [0u32; KINDS];
        let mut seen = 0;
        partial(&t, 0, &class, false, &mut |_, _| {
            seen += 1;
            true
        });
        // nothing; a pung of 3m; (a pung of 4m alone is the same as of 3m).
        assert_eq!(seen, 2);
    }

    #[test]
    fn a_kinds_choices_need_no_more_room_than_four_pungs() {
        // The table keeps rooms up to MOST_ROOM: a larger room gives the same choices.
        for c in 0..=4 {
            for pair_ok in [false, true] {
                assert_eq!(kind_takes(c, MOST_ROOM, pair_ok), kind_takes(c, 20, pair_ok), "{c} {pair_ok}");
                assert_eq!(choices_of(c, 20, pair_ok), kind_takes(c, 20, pair_ok).as_slice());
            }
        }
        // Three 7z, room for seven (wilds past the copies). 777z takes every real tile, and
        // a pung holds one: no group more. 77z and a wild may add 7z and two wilds: two
        // wilds more. Nothing taken: a pung of the three, no wild more.
        let three = choices_of(3, 7, false);
        let more = |takes: &[Take]| {
            three
                .iter()
                .find(|c| c.takes.starts_with(takes) && c.takes[takes.len()..].iter().all(|t| *t == Take::None))
                .map(|c| c.more)
        };
        assert_eq!(more(&[Take::Pung(3)]), Some((u8::MAX, u8::MAX)));
        assert_eq!(more(&[Take::Pung(2)]), Some((2, u8::MAX)));
        assert_eq!(more(&[]), Some((0, u8::MAX)));
    }

    #[test]
    fn maximal_partial_hands_take_every_group_they_can() {
        let count = |hand: &str, wilds: u8, pair_kinds: u64| {
            let mut seen = vec![];
            partial(&tiles(hand, 0, wilds), pair_kinds, &[0u32; KINDS], true, &mut |f, left| {
                seen.push((f.groups.len(), left));
                true
            });
            seen
        };
        // Two wilds: a pung of 3m (or of 4m, alike), no room for more; nothing is left out.
        assert_eq!(count("3m4m", 2, 0), vec![(1, 0)]);
        // 1133m and one wild: a pung of one kind and the pair of the other (the kinds
        // alike, one order); a pung alone could still take the pair, a pair alone the pung.
        assert_eq!(count("1133m", 1, 1 | 1 << 2), vec![(2, 0)]);
        // No pair kinds: one pung, either kind, the other pair of real tiles is no group.
        assert_eq!(count("1133m", 1, 0), vec![(1, 0)]);
    }
}

#[cfg(test)]
mod agreement {
    //! The enumerator agrees with the engine's distance tables on which hands are
    //! complete (a free group counts, as the tables count wilds).
    use super::*;
    use crate::engine::{Engine, Wilds};
    use crate::hand::Meld;

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    /// A random hand of `size` tiles near completion: groups drawn at random, one tile
    /// swapped now and then, a few wild copies.
    fn hand(rng: &mut Rng, melds: u8, size: usize) -> Hand {
        let mut h = Hand::default();
        let mut held = [0u8; KINDS];
        let put = |h: &mut Hand, held: &mut [u8; KINDS], t: usize| {
            if held[t] < 4 {
                held[t] += 1;
                h.concealed[t] += 1;
                true
            } else {
                false
            }
        };
        let declared = rng.below(3) as usize;
        for _ in 0..declared.min(melds as usize) {
            let t = rng.below(34) as usize;
            if held[t] == 0 {
                held[t] = 3;
                h.melds.push(Meld { kind: MeldKind::Pung, tile: t as Tile, from: None });
            }
        }
        let mut guard = 0;
        while h.size() < size && guard < 200 {
            guard += 1;
            let t = rng.below(34) as usize;
            match rng.below(4) {
                0 if t < 27 && t % 9 <= 6 && size - h.size() >= 3 => {
                    if (t..t + 3).all(|k| held[k] < 4) {
                        for k in t..t + 3 {
                            put(&mut h, &mut held, k);
                        }
                    }
                }
                1 if size - h.size() >= 2 => {
                    put(&mut h, &mut held, t);
                    put(&mut h, &mut held, t);
                }
                2 if size - h.size() >= 3 => {
                    for _ in 0..3 {
                        put(&mut h, &mut held, t);
                    }
                }
                _ => {
                    put(&mut h, &mut held, t);
                }
            }
        }
        h
    }

    #[test]
    fn complete_exactly_when_the_engine_says_so() {
        let mut rng = Rng(0x9E3779B97F4A7C15);
        let variants = [
            Forms { seven_pairs: true, four_as_two_pairs: true, thirteen_orphans: true, ..Forms::standard(4) },
            Forms { seven_pairs: true, ..Forms::standard(4) },
            Forms::changsha(),
            Forms { eight_pairs_and_a_half: true, four_as_two_pairs: true, ..Forms::standard(5) },
            Forms {
                eight_pairs_and_a_half: true,
                four_as_two_pairs: true,
                wilds_beyond_copies: true,
                ..Forms::standard(5)
            },
        ];
        let mut checked = [0usize; 2];
        for forms in &variants {
            let engine = Engine::new("t", forms.clone(), ALL_KINDS);
            for _ in 0..4000 {
                let extra = rng.below(3) as u8;
                let size = forms.ready_size() + 1 - extra as usize;
                let h = hand(&mut rng, forms.melds, size);
                if h.size() != size {
                    continue;
                }
                let wild_kinds = if rng.below(3) == 0 { 1u64 << rng.below(34) } else { 0 };
                let wilds = Wilds { kinds: wild_kinds, extra, drawable: 0 };
                let Ok(expected) = engine.is_win(&h, wilds) else { continue };
                let mut t = Tiles::new(&h, ALL_KINDS, wild_kinds, extra);
                if forms.wilds_beyond_copies {
                    t.caps.iter_mut().for_each(|c| *c += t.wilds);
                }
                let mut found = false;
                complete(forms, false, &t, &mut |f| {
                    found = f.form != Form::Standard || f.free_pairs > 0 || pair_allowed(forms, &f.groups);
                    !found
                });
                assert_eq!(found, expected, "{} wilds {wild_kinds:x} +{extra}", h.notation());
                checked[expected as usize] += 1;
            }
        }
        assert!(checked[1] > 500, "{checked:?}");
    }
}
