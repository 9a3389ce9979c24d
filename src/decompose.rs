//! Every distinct arrangement of a complete hand, with what each wild stands for.

use std::collections::BTreeSet;

use crate::forms::{Form, Forms, View};
use crate::hand::{Hand, MeldKind};
use crate::tiles::{self, Counts, Tile, ALL_KINDS, KINDS, KINDS_258, ORPHANS};

/// The shape of one group of an arrangement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GroupKind {
    Pair,
    Chow,
    Pung,
    Kong,
    /// The fourteen tiles of thirteen orphans (十三幺).
    Orphans,
    /// The fourteen single tiles of honours and knitted (全不靠).
    Knitted,
    /// The nine tiles of a knitted straight (组合龙).
    KnittedStraight,
    /// Tiles that need no structure (将将胡).
    Loose,
}

impl GroupKind {
    pub fn name(self) -> &'static str {
        match self {
            GroupKind::Pair => "pair",
            GroupKind::Chow => "chow",
            GroupKind::Pung => "pung",
            GroupKind::Kong => "kong",
            GroupKind::Orphans => "orphans",
            GroupKind::Knitted => "knitted",
            GroupKind::KnittedStraight => "knitted_straight",
            GroupKind::Loose => "loose",
        }
    }
}

/// One group: the kinds its tiles stand for, which of them are wilds, and the declared
/// meld it is, if any.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Group {
    pub kind: GroupKind,
    pub tiles: Vec<Tile>,
    /// Bit i set when `tiles[i]` is played by a wild.
    pub wilds: u32,
    pub meld: Option<MeldKind>,
}

impl Group {
    fn new(kind: GroupKind, tiles: Vec<Tile>, wilds: u32) -> Group {
        Group { kind, tiles, wilds, meld: None }
    }

    /// The kinds the wilds of this group stand for.
    pub fn wild_tiles(&self) -> Vec<Tile> {
        self.tiles.iter().enumerate().filter(|(i, _)| self.wilds >> i & 1 == 1).map(|(_, &t)| t).collect()
    }
}

/// A complete hand split into groups.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Arrangement {
    pub form: Form,
    pub groups: Vec<Group>,
}

impl Arrangement {
    /// The pair of a standard arrangement.
    pub fn pair(&self) -> Option<&Group> {
        self.groups.iter().find(|g| g.kind == GroupKind::Pair)
    }
}

/// A pair, chow or pung as the searches build it: kind, first tile and wild mask in a
/// `u16`, so that arrangements are small arrays compared without allocating. Packed
/// groups order as the `Group`s they stand for: by kind, first tile, then wild mask.
type Packed = u16;

/// The most groups a packed arrangement holds (八对半: seven pairs and a triplet).
const MAX_GROUPS: usize = 8;

/// An arrangement of packed groups, sorted, `EMPTY` past its last group.
type Key = [Packed; MAX_GROUPS];

const EMPTY: Packed = Packed::MAX;

fn pack(kind: GroupKind, tile: usize, wilds: u32) -> Packed {
    (kind as Packed) << 9 | (tile as Packed) << 3 | wilds as Packed
}

fn packed_kind(p: Packed) -> GroupKind {
    match p >> 9 {
        0 => GroupKind::Pair,
        1 => GroupKind::Chow,
        _ => GroupKind::Pung,
    }
}

fn packed_tile(p: Packed) -> Tile {
    (p >> 3 & 63) as Tile
}

fn unpack(p: Packed) -> Group {
    let t = packed_tile(p);
    let kind = packed_kind(p);
    let tiles = match kind {
        GroupKind::Pair => vec![t; 2],
        GroupKind::Chow => vec![t, t + 1, t + 2],
        _ => vec![t; 3],
    };
    Group::new(kind, tiles, (p & 7) as u32)
}

fn unpack_all(key: &Key) -> Vec<Group> {
    key.iter().take_while(|&&p| p != EMPTY).map(|&p| unpack(p)).collect()
}

/// The key of the groups `acc`, in any order.
fn key_of(acc: &[Packed]) -> Key {
    let mut key = [EMPTY; MAX_GROUPS];
    key[..acc.len()].copy_from_slice(acc);
    key[..acc.len()].sort_unstable();
    key
}

/// Which arrangements a search keeps: false when no arrangement that holds these groups
/// (and more) is kept, so that the search gives up on it.
type Keep<'a> = &'a dyn Fn(&[Packed]) -> bool;

struct Search<'a> {
    caps: &'a Counts,
    pair_ok: u64,
    /// The search stops when it has this many arrangements.
    limit: usize,
    /// Arrangements kept (all when None), before the limit counts them.
    accept: Option<Keep<'a>>,
    out: BTreeSet<Key>,
}

impl Search<'_> {
    /// Whether the search is over, or can keep nothing that holds the groups `acc`.
    fn done(&self, acc: &[Packed]) -> bool {
        self.out.len() >= self.limit || self.accept.is_some_and(|keep| !keep(acc))
    }

    fn full(&self) -> bool {
        self.out.len() >= self.limit
    }

    /// Standard groups: the lowest real tile left decides which group is built next.
    fn standard(
        &mut self,
        r: &mut Counts,
        w: u8,
        stand: &mut Counts,
        melds: usize,
        pair: usize,
        acc: &mut Vec<Packed>,
    ) {
        if self.done(acc) {
            return;
        }
        let Some(k) = (0..KINDS).find(|&t| r[t] > 0) else {
            if w as usize == 3 * melds + 2 * pair {
                self.wild_only(stand, melds, pair, 0, acc);
            }
            return;
        };
        // The pair: two real tiles or one real and a wild.
        if pair == 1 && self.pair_ok >> k & 1 == 1 && stand[k] + 2 <= self.caps[k] {
            for real in (1..=r[k].min(2)).rev() {
                let need = 2 - real;
                if need <= w {
                    r[k] -= real;
                    stand[k] += 2;
                    acc.push(pack(GroupKind::Pair, k, (1 << need) - 1));
                    self.standard(r, w - need, stand, melds, 0, acc);
                    acc.pop();
                    stand[k] -= 2;
                    r[k] += real;
                }
            }
        }
        if melds == 0 {
            return;
        }
        if stand[k] + 3 <= self.caps[k] {
            for real in (1..=r[k].min(3)).rev() {
                let need = 3 - real;
                if need <= w {
                    r[k] -= real;
                    stand[k] += 3;
                    acc.push(pack(GroupKind::Pung, k, (1 << need) - 1));
                    self.standard(r, w - need, stand, melds - 1, pair, acc);
                    acc.pop();
                    stand[k] -= 3;
                    r[k] += real;
                }
            }
        }
        if k < 27 {
            let rank = k % 9;
            for start in rank.saturating_sub(2)..=rank.min(6) {
                let s = k - rank + start;
                self.chow_from(r, w, stand, melds, pair, acc, k, s);
            }
        }
    }

    /// Chows starting at `s` that hold the real tile `k` and no lower real tile: places
    /// below `k` are wilds, places above are real or wild (both are tried).
    #[allow(clippy::too_many_arguments)]
    fn chow_from(
        &mut self,
        r: &mut Counts,
        w: u8,
        stand: &mut Counts,
        melds: usize,
        pair: usize,
        acc: &mut Vec<Packed>,
        k: usize,
        s: usize,
    ) {
        if (s..s + 3).any(|p| stand[p] + 1 > self.caps[p]) {
            return;
        }
        // Choices for the places above k: bit p - k - 1 set = a real tile at p.
        for choice in 0u32..(1 << (s + 2 - k)) {
            let mut wild_mask = 0u32;
            let mut need = 0u8;
            let mut ok = true;
            for (i, p) in (s..s + 3).enumerate() {
                let real = p == k || (p > k && choice >> (p - k - 1) & 1 == 1);
                if real {
                    ok &= r[p] > 0;
                } else {
                    wild_mask |= 1 << i;
                    need += 1;
                }
            }
            if !ok || need > w {
                continue;
            }
            for (i, p) in (s..s + 3).enumerate() {
                if wild_mask >> i & 1 == 0 {
                    r[p] -= 1;
                }
                stand[p] += 1;
            }
            acc.push(pack(GroupKind::Chow, s, wild_mask));
            self.standard(r, w - need, stand, melds - 1, pair, acc);
            acc.pop();
            for (i, p) in (s..s + 3).enumerate() {
                if wild_mask >> i & 1 == 0 {
                    r[p] += 1;
                }
                stand[p] -= 1;
            }
        }
    }

    /// Groups made of wilds alone: every concrete choice, in canonical order.
    fn wild_only(&mut self, stand: &mut Counts, melds: usize, pair: usize, from: usize, acc: &mut Vec<Packed>) {
        if self.done(acc) {
            return;
        }
        if pair == 1 {
            for k in 0..KINDS {
                if self.pair_ok >> k & 1 == 1 && stand[k] + 2 <= self.caps[k] {
                    stand[k] += 2;
                    acc.push(pack(GroupKind::Pair, k, 0b11));
                    self.wild_only(stand, melds, 0, 0, acc);
                    acc.pop();
                    stand[k] -= 2;
                }
            }
            return;
        }
        if melds == 0 {
            // `done` above has kept or refused the whole arrangement.
            self.out.insert(key_of(acc));
            return;
        }
        // Choices 0..34 are pungs of that kind, 34.. chows starting at suited kinds.
        for choice in from..KINDS + 27 {
            let (kind, start, len, each) = if choice < KINDS {
                (GroupKind::Pung, choice, 1, 3)
            } else {
                let s = choice - KINDS;
                if s % 9 > 6 {
                    continue;
                }
                (GroupKind::Chow, s, 3, 1)
            };
            if (start..start + len).any(|p| stand[p] + each > self.caps[p]) {
                continue;
            }
            for p in start..start + len {
                stand[p] += each;
            }
            acc.push(pack(kind, start, 0b111));
            self.wild_only(stand, melds - 1, 0, choice, acc);
            acc.pop();
            for p in start..start + len {
                stand[p] -= each;
            }
            if self.full() {
                return;
            }
        }
    }
}

/// Pairs forms: `pairs` pairs plus, if `triplet`, a triplet of another kind.
fn pairs_forms(view: &View, four_as_two: bool, pairs: usize, triplet: bool, limit: usize) -> BTreeSet<Key> {
    let mut out = BTreeSet::new();
    let max_per_kind = if four_as_two { 2 } else { 1 };
    let triplet_kinds: Vec<Option<usize>> =
        if triplet { (0..KINDS).filter(|&t| view.caps[t] >= 3).map(Some).collect() } else { vec![None] };
    for tk in triplet_kinds {
        let mut r = view.counts;
        let mut w = view.wilds as i32;
        let mut acc = Vec::with_capacity(MAX_GROUPS);
        if let Some(t) = tk {
            let real = r[t].min(3);
            r[t] -= real;
            w -= (3 - real) as i32;
            if w < 0 {
                continue;
            }
            acc.push(pack(GroupKind::Pung, t, (1 << (3 - real)) - 1));
        }
        pairs_rec(view, &r, w as u8, 0, pairs, max_per_kind, tk, &mut acc, &mut out, limit);
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn pairs_rec(
    view: &View,
    r: &Counts,
    w: u8,
    k: usize,
    left: usize,
    max_per_kind: u8,
    skip: Option<usize>,
    acc: &mut Vec<Packed>,
    out: &mut BTreeSet<Key>,
    limit: usize,
) {
    if out.len() >= limit {
        return;
    }
    if k == KINDS {
        if left == 0 && w == 0 {
            out.insert(key_of(acc));
        }
        return;
    }
    // The kinds left must take exactly `left` pairs: without this check a kind late in
    // the order that cannot be paired (three real 7z) was found only after every
    // placement of the wilds before it, seconds of search with a dozen wilds.
    let (mut forced, mut room) = (0usize, 0usize);
    for j in k..KINDS {
        let hi = if Some(j) == skip { 0 } else { max_per_kind.min(view.caps[j] / 2) as usize };
        let lo = r[j].div_ceil(2) as usize;
        if lo > hi {
            return;
        }
        (forced, room) = (forced + lo, room + hi);
    }
    if forced > left || room < left {
        return;
    }
    let c = r[k];
    if Some(k) == skip {
        if c == 0 {
            pairs_rec(view, r, w, k + 1, left, max_per_kind, skip, acc, out, limit);
        }
        return;
    }
    let lo = c.div_ceil(2);
    let hi = max_per_kind.min(view.caps[k] / 2);
    for p in lo..=hi {
        let need = 2 * p - c;
        if need > w || p as usize > left {
            continue;
        }
        // Wilds go to the later pair of a kind first: a single real tile is paired
        // with a wild in the first pair.
        let mut real_left = c;
        for _ in 0..p {
            let real = real_left.min(2);
            real_left -= real;
            acc.push(pack(GroupKind::Pair, k, (1 << (2 - real)) - 1));
        }
        pairs_rec(view, r, w - need, k + 1, left - p as usize, max_per_kind, skip, acc, out, limit);
        for _ in 0..p {
            acc.pop();
        }
    }
}

/// Fourteen single tiles from `candidates` (kinds), real tiles first, wilds for the rest.
fn singles(
    view: &View,
    candidates: &[Tile],
    total: usize,
    kind: GroupKind,
    extra_pair: bool,
    out: &mut BTreeSet<Vec<Group>>,
    limit: usize,
) {
    // Fourteen of the candidates (全不靠) may leave out a kind the tile set lacks (白板 in
    // Longgang's set); thirteen orphans needs every one, and a lacking one refuses below.
    let playable: Vec<Tile>;
    let candidates = if extra_pair {
        candidates
    } else {
        playable = candidates.iter().copied().filter(|&t| view.caps[t as usize] > 0).collect();
        &playable
    };
    let cand_mask: u64 = candidates.iter().fold(0, |m, &t| m | 1 << t);
    let real: Vec<Tile> =
        (0..KINDS as Tile).flat_map(|t| std::iter::repeat_n(t, view.counts[t as usize] as usize)).collect();
    if real.iter().any(|&t| cand_mask >> t & 1 == 0) {
        return;
    }
    // Pair kinds to try (thirteen orphans): each candidate.
    let pair_choices: Vec<Option<Tile>> =
        if extra_pair { candidates.iter().map(|&t| Some(t)).collect() } else { vec![None] };
    for pair in pair_choices {
        let mut need = [0u8; KINDS];
        for &t in candidates {
            need[t as usize] = 1;
        }
        if let Some(p) = pair {
            need[p as usize] = 2;
        }
        if (0..KINDS).any(|t| view.counts[t] > need[t] || need[t] > view.caps[t]) {
            continue;
        }
        // Kinds still open, of which the wilds take some.
        let open: Vec<Tile> =
            candidates.iter().copied().filter(|&t| view.counts[t as usize] < need[t as usize]).collect();
        let fixed: usize = candidates.iter().map(|&t| view.counts[t as usize] as usize).sum();
        let missing: usize = candidates.iter().map(|&t| (need[t as usize] - view.counts[t as usize]) as usize).sum();
        if fixed + view.wilds as usize != total || (!extra_pair && view.wilds as usize > open.len()) {
            continue;
        }
        if extra_pair && missing != view.wilds as usize {
            continue;
        }
        // Thirteen orphans: the wilds fill every place open (the pair's two among them),
        // so the one choice is every open kind. 全不靠: the wilds take some of them.
        let take = if extra_pair { open.len() } else { view.wilds as usize };
        choose(&open, take, 0, &mut Vec::new(), &mut |wild_kinds| {
            if out.len() >= limit {
                return;
            }
            let mut tiles: Vec<(Tile, bool)> = real.iter().map(|&t| (t, false)).collect();
            if extra_pair {
                for &t in &open {
                    for _ in view.counts[t as usize]..need[t as usize] {
                        tiles.push((t, true));
                    }
                }
            } else {
                tiles.extend(wild_kinds.iter().map(|&t| (t, true)));
            }
            tiles.sort();
            let mask = tiles.iter().enumerate().fold(0u32, |m, (i, &(_, w))| m | (w as u32) << i);
            out.insert(vec![Group::new(kind, tiles.iter().map(|&(t, _)| t).collect(), mask)]);
        });
    }
}

/// Calls `f` with every `n`-subset of `items` (in order).
fn choose(items: &[Tile], n: usize, from: usize, acc: &mut Vec<Tile>, f: &mut impl FnMut(&[Tile])) {
    if acc.len() == n {
        f(acc);
        return;
    }
    for i in from..items.len() {
        acc.push(items[i]);
        choose(items, n, i + 1, acc, f);
        acc.pop();
    }
}

/// Every distinct arrangement of a complete hand (at most `limit`), declared melds
/// included, sorted.
///
/// The forms are searched in the order of [`Form`], which is the order of the result,
/// and share the limit: each search stops as soon as the arrangements found reach it, so
/// the work is bounded by the limit, however many arrangements the hand has. A hand with
/// more than `limit` lists those the searches find first.
pub fn decompose(forms: &Forms, hand: &Hand, view: &View, limit: usize) -> Vec<Arrangement> {
    let mut result: Vec<Arrangement> = Vec::new();
    let melds_left = (forms.melds as usize).saturating_sub(hand.melds.len());
    let declared: Vec<Group> = hand
        .melds
        .iter()
        .map(|m| {
            let kind = match m.kind {
                MeldKind::Chow => GroupKind::Chow,
                MeldKind::Pung => GroupKind::Pung,
                _ => GroupKind::Kong,
            };
            Group { kind, tiles: m.tiles().collect(), wilds: 0, meld: Some(m.kind) }
        })
        .collect();
    let push = |form: Form, sets: Vec<Vec<Group>>, result: &mut Vec<Arrangement>| {
        for mut groups in sets {
            groups.extend(declared.iter().cloned());
            result.push(Arrangement { form, groups });
        }
    };
    let push_packed = |form: Form, set: BTreeSet<Key>, result: &mut Vec<Arrangement>| {
        push(form, set.iter().map(unpack_all).collect(), result);
    };
    let push_groups = |form: Form, set: BTreeSet<Vec<Group>>, result: &mut Vec<Arrangement>| {
        push(form, set.into_iter().collect(), result);
    };
    let shape = view.melds;
    let left = |result: &Vec<Arrangement>| limit - result.len();

    if forms.standard && left(&result) > 0 {
        let narrow = forms.pair_kinds != ALL_KINDS;
        let relaxed = narrow && (forms.all_pungs_any_pair || forms.one_suit_any_pair);
        let pair_ok = if relaxed { ALL_KINDS } else { forms.pair_kinds };
        // Where the pair may be any kind in some hands (碰碰胡, 清一色 under a 2-5-8 pair),
        // the other hands' arrangements are left out as they are found, so that the
        // limit counts only the arrangements kept. A partial arrangement with another
        // pair, a chow and two suits is given up: more groups cannot make it either hand.
        let exception = |groups: &[Packed]| -> bool {
            let Some(pair) = groups.iter().find(|&&g| packed_kind(g) == GroupKind::Pair).map(|&g| packed_tile(g))
            else {
                return true;
            };
            if forms.pair_kinds >> pair & 1 == 1 {
                return true;
            }
            let no_chows = !shape.chows && groups.iter().all(|&g| packed_kind(g) != GroupKind::Chow);
            let suits = groups.iter().fold(shape.suits, |m, &g| m | 1 << tiles::suit(packed_tile(g)));
            (forms.all_pungs_any_pair && no_chows)
                || (forms.one_suit_any_pair && suits.count_ones() <= 1 && suits & 8 == 0)
        };
        let accept: Option<Keep<'_>> = if relaxed { Some(&exception) } else { None };
        let mut s = Search { caps: &view.caps, pair_ok, limit: left(&result), accept, out: BTreeSet::new() };
        let mut r = view.counts;
        let mut stand = [0u8; KINDS];
        s.standard(&mut r, view.wilds, &mut stand, melds_left, 1, &mut Vec::with_capacity(MAX_GROUPS));
        push_packed(Form::Standard, s.out, &mut result);
    }
    let concealed = shape.count == 0;
    if concealed && forms.seven_pairs && forms.fits(Form::SevenPairs) && left(&result) > 0 {
        let set = pairs_forms(view, forms.four_as_two_pairs, 7, false, left(&result));
        push_packed(Form::SevenPairs, set, &mut result);
    }
    if concealed && forms.eight_pairs_and_a_half && forms.fits(Form::EightPairsAndAHalf) && left(&result) > 0 {
        let set = pairs_forms(view, forms.four_as_two_pairs, 7, true, left(&result));
        push_packed(Form::EightPairsAndAHalf, set, &mut result);
    }
    if concealed && forms.thirteen_orphans && forms.fits(Form::ThirteenOrphans) && left(&result) > 0 {
        let mut set = BTreeSet::new();
        singles(view, &ORPHANS, 14, GroupKind::Orphans, true, &mut set, left(&result));
        push_groups(Form::ThirteenOrphans, set, &mut result);
    }
    if concealed && forms.honours_and_knitted && forms.fits(Form::HonoursAndKnitted) && left(&result) > 0 {
        let mut set = BTreeSet::new();
        for k in crate::distance::KNITTED_MASKS {
            let cands: Vec<Tile> = tiles::mask_tiles(k | (0x7F << 27)).collect();
            singles(view, &cands, 14, GroupKind::Knitted, false, &mut set, left(&result));
        }
        push_groups(Form::HonoursAndKnitted, set, &mut result);
    }
    if shape.count <= 1
        && melds_left >= 3
        && forms.knitted_straight
        && forms.fits(Form::KnittedStraight)
        && left(&result) > 0
    {
        let mut set = BTreeSet::new();
        for k in crate::distance::KNITTED_MASKS {
            knitted_straight(view, k, forms.pair_kinds, melds_left - 3, left(&result), &mut set);
        }
        push_groups(Form::KnittedStraight, set, &mut result);
    }
    if forms.all_258 && shape.all_258 && left(&result) > 0 {
        let need = 3 * melds_left + 2;
        let real: usize = view.counts.iter().map(|&c| c as usize).sum();
        let only_258 = (0..KINDS).all(|t| view.counts[t] == 0 || KINDS_258 >> t & 1 == 1);
        if only_258 && real + view.wilds as usize == need {
            let mut set = BTreeSet::new();
            loose_258(view, left(&result), &mut set);
            push_groups(Form::All258, set, &mut result);
        }
    }
    debug_assert!(result.windows(2).all(|p| p[0] < p[1]), "arrangements out of order");
    result
}

fn knitted_straight(view: &View, mask: u64, pair_ok: u64, melds: usize, limit: usize, out: &mut BTreeSet<Vec<Group>>) {
    let kinds: Vec<usize> = tiles::mask_tiles(mask).map(|t| t as usize).collect();
    if kinds.iter().any(|&t| view.caps[t] == 0) {
        return;
    }
    // Each of the nine places is a real tile (when there is one) or a wild. Arrangements
    // of different choices differ in the straight, so none is found twice.
    for choice in 0u32..(1 << 9) {
        if out.len() >= limit {
            return;
        }
        let mut r = view.counts;
        let mut caps = view.caps;
        let mut need = 0u8;
        let mut ok = true;
        let mut wild_mask = 0u32;
        for (i, &t) in kinds.iter().enumerate() {
            caps[t] -= 1;
            if choice >> i & 1 == 1 {
                if r[t] == 0 {
                    ok = false;
                    break;
                }
                r[t] -= 1;
            } else {
                need += 1;
                wild_mask |= 1 << i;
            }
        }
        if !ok || need > view.wilds {
            continue;
        }
        let mut s = Search { caps: &caps, pair_ok, limit: limit - out.len(), accept: None, out: BTreeSet::new() };
        s.standard(&mut r, view.wilds - need, &mut [0u8; KINDS], melds, 1, &mut Vec::with_capacity(MAX_GROUPS));
        let straight = Group::new(GroupKind::KnittedStraight, kinds.iter().map(|&t| t as Tile).collect(), wild_mask);
        for key in &s.out {
            let mut groups = unpack_all(key);
            groups.push(straight.clone());
            groups.sort();
            out.insert(groups);
        }
    }
}

fn loose_258(view: &View, limit: usize, out: &mut BTreeSet<Vec<Group>>) {
    let kinds: Vec<Tile> = tiles::mask_tiles(KINDS_258).collect();
    fn rec(
        view: &View,
        kinds: &[Tile],
        i: usize,
        w: u8,
        extra: &mut Vec<Tile>,
        out: &mut BTreeSet<Vec<Group>>,
        limit: usize,
    ) {
        if out.len() >= limit {
            return;
        }
        if w == 0 {
            let mut tiles: Vec<(Tile, bool)> = extra.iter().map(|&t| (t, true)).collect();
            for &t in kinds {
                tiles.extend(std::iter::repeat_n((t, false), view.counts[t as usize] as usize));
            }
            tiles.sort();
            let mask = tiles.iter().enumerate().fold(0u32, |m, (j, &(_, wl))| m | (wl as u32) << j);
            out.insert(vec![Group::new(GroupKind::Loose, tiles.iter().map(|&(t, _)| t).collect(), mask)]);
            return;
        }
        for j in i..kinds.len() {
            let t = kinds[j];
            let used = view.counts[t as usize] + extra.iter().filter(|&&e| e == t).count() as u8;
            if used < view.caps[t as usize] {
                extra.push(t);
                rec(view, kinds, j, w - 1, extra, out, limit);
                extra.pop();
            }
        }
    }
    rec(view, &kinds, 0, view.wilds, &mut Vec::new(), out, limit);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{parse, Format};

    fn arrangements(s: &str, forms: &Forms, wild: u64) -> Vec<Arrangement> {
        let h = parse(s, Format::Compact).unwrap().hand;
        let v = View::new(&h, ALL_KINDS, wild, 0);
        decompose(forms, &h, &v, usize::MAX)
    }

    #[test]
    fn nine_gates_plus_five() {
        // 11123455678999m reads only as 111 234 55 678 999.
        let a = arrangements("11123455678999m", &Forms::standard(4), 0);
        assert_eq!(a.len(), 1);
        let firsts: Vec<(GroupKind, Tile)> = a[0].groups.iter().map(|g| (g.kind, g.tiles[0])).collect();
        use GroupKind::*;
        assert_eq!(firsts, [(Pair, 4), (Chow, 1), (Chow, 5), (Pung, 0), (Pung, 8)]);
    }

    #[test]
    fn pure_triple_chow_reads_two_ways() {
        // 111222333m + 456p + 77z: three pungs or three chows.
        let a = arrangements("111222333m456p77z", &Forms::standard(4), 0);
        assert_eq!(a.len(), 2);
    }

    #[test]
    fn wilds_stand_for_kinds() {
        // 5z wild: 123456789m 11p 22z and one wild, which must make 22z or 11p a pung.
        let a = arrangements("123456789m11p22z5z", &Forms::standard(4), 1 << 31);
        // The wild must make 22z a pung (or 2z + wild a pair? no: 11p is then a pung short).
        assert!(a.iter().all(|arr| arr.groups.iter().map(|g| g.wilds.count_ones()).sum::<u32>() == 1));
        assert!(a
            .iter()
            .any(|arr| arr.groups.iter().any(|g| g.kind == GroupKind::Pung && g.tiles[0] == 28 && g.wilds == 1)));
    }

    /// A listing at a limit is that many of the hand's arrangements, in order: the forms
    /// share the limit, and each search stops when it is reached.
    #[test]
    fn a_limit_lists_that_many_in_order() {
        let changsha = Forms::changsha();
        let cases = [
            (Forms::mcr(), ALL_KINDS, ["147m258p369s", "1122m3344p55s", "222555888m", "19m19p19s1234z"]),
            (changsha, tiles::SUITED_KINDS, ["123456m11p", "1122m3344p55s", "222555888m", "258m258p"]),
        ];
        for (forms, tile_set, hands) in cases {
            for text in hands {
                let h = parse(text, Format::Compact).unwrap().hand;
                let v = View::new(&h, tile_set, 0, 14 - h.size() as u8);
                let all = decompose(&forms, &h, &v, usize::MAX);
                assert!(all.len() > 10 && all.windows(2).all(|p| p[0] < p[1]), "{text}: {} or out of order", all.len());
                for limit in [0, 1, 7, 100, 1000, all.len() - 1, all.len(), all.len() + 1] {
                    let some = decompose(&forms, &h, &v, limit);
                    assert_eq!(some.len(), limit.min(all.len()), "{text} at {limit}");
                    assert!(some.windows(2).all(|p| p[0] < p[1]), "{text} at {limit}: out of order");
                    assert!(some.iter().all(|a| all.binary_search(a).is_ok()), "{text} at {limit}: not an arrangement");
                }
            }
        }
    }

    #[test]
    fn declared_melds_are_kept() {
        let a = arrangements("123m456p11z[789s]{2222z}", &Forms::standard(4), 0);
        assert_eq!(a.len(), 1);
        assert_eq!(a[0].groups.iter().filter(|g| g.meld.is_some()).count(), 2);
    }
}
