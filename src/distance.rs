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

const INF: u8 = 99;

/// Kind ranges of the four groups: three suits and the honours.
pub const GROUPS: [(usize, usize); 4] = [(0, 9), (9, 18), (18, 27), (27, 34)];

/// Distances of one group to every (melds, pair) target, respecting `caps` and the
/// kinds the pair may be (`pair_ok`, a bitmask over all kinds).
pub fn group_distances(view: &View, g: usize, pair_ok: u64) -> Distances {
    let (lo, hi) = GROUPS[g];
    let counts = &view.counts[lo..hi];
    let caps = &view.caps[lo..hi];
    let group_mask = ((1u64 << (hi - lo)) - 1) << lo;
    let chows = g < 3;
    if caps.iter().all(|&c| c == 4) && pair_ok & group_mask == group_mask {
        let table = if chows {
            tables::suit()
        } else {
            tables::honours()
        };
        return *table.get(counts);
    }
    slow_group(counts, caps, (pair_ok >> lo) as u16, chows)
}

/// The same distances by dynamic programming over the group's kinds, for groups with
/// reduced caps or a restricted pair. States: chows begun one and two kinds back.
pub fn slow_group(counts: &[u8], caps: &[u8], pair_ok: u16, chows: bool) -> Distances {
    let n = counts.len();
    let mut dp = [[[INF; TARGETS]; 5]; 5];
    dp[0][0][0] = 0;
    for i in 0..n {
        let mut next = [[[INF; TARGETS]; 5]; 5];
        let can_start = chows && i + 2 < n;
        for a in 0..5usize {
            for b in 0..5 - a {
                for k in 0..TARGETS {
                    let cost = dp[a][b][k];
                    if cost == INF {
                        continue;
                    }
                    let (m, h) = (k / 2, k % 2);
                    let max_new = if can_start { 4 - a - b } else { 0 };
                    for c in 0..=max_new {
                        for extra in 0..3 {
                            // extra: 0 nothing, 1 a pung, 2 the pair.
                            let pung = (extra == 1) as usize;
                            let pair = (extra == 2) as usize;
                            if pair == 1 && (h == 1 || pair_ok >> i & 1 == 0) {
                                continue;
                            }
                            let nm = m + c + pung;
                            if nm > MAX_MELDS {
                                continue;
                            }
                            let t = a + b + c + 3 * pung + 2 * pair;
                            if t > caps[i] as usize {
                                continue;
                            }
                            let add = (t as u8).saturating_sub(counts[i]);
                            let nk = nm * 2 + h + pair;
                            let slot = &mut next[c][a][nk];
                            *slot = (*slot).min(cost + add);
                        }
                    }
                }
            }
        }
        dp = next;
    }
    dp[0][0]
}

/// Min-plus combination of group distances: the least total distance for `melds` melds
/// and one pair shared out over the groups.
pub fn combine(groups: &[Distances; 4], melds: usize) -> u8 {
    let mut acc = [INF; TARGETS];
    acc[..TARGETS].copy_from_slice(&groups[0]);
    for g in &groups[1..] {
        let mut next = [INF; TARGETS];
        for m1 in 0..=melds {
            for h1 in 0..2 {
                let a = acc[m1 * 2 + h1];
                if a >= INF {
                    continue;
                }
                for m2 in 0..=melds - m1 {
                    for h2 in 0..2 - h1 {
                        let b = g[m2 * 2 + h2];
                        let k = (m1 + m2) * 2 + h1 + h2;
                        next[k] = next[k].min(a.saturating_add(b));
                    }
                }
            }
        }
        acc = next;
    }
    acc[melds * 2 + 1]
}

/// Melds still to be made in the concealed part.
#[inline]
fn melds_left(forms: &Forms, view: &View) -> usize {
    (forms.melds.saturating_sub(view.melds.count)) as usize
}

/// Standard form (melds + pair), any pair kind allowed by `pair_ok`.
pub fn standard_with(view: &View, melds: usize, pair_ok: u64) -> u8 {
    let groups = [0, 1, 2, 3].map(|g| group_distances(view, g, pair_ok));
    combine(&groups, melds)
}

/// Real tiles of the hand in kinds of `mask`, each counted at most `per` times and at
/// most its cap.
fn overlap_capped(view: &View, mask: u64, per: u8) -> u32 {
    tiles::mask_tiles(mask)
        .map(|t| view.counts[t as usize].min(per).min(view.caps[t as usize]) as u32)
        .sum()
}

/// Pair places for the pairs forms: each kind offers one place worth up to 2 tiles, and
/// a second one if four of a kind may be two pairs.
fn pair_slots(view: &View, four_as_two: bool, skip: Option<usize>) -> Vec<u8> {
    let mut slots = Vec::with_capacity(2 * KINDS);
    for t in 0..KINDS {
        if Some(t) == skip || view.caps[t] < 2 {
            continue;
        }
        let c = view.counts[t];
        slots.push(c.min(2));
        if four_as_two && view.caps[t] >= 4 {
            slots.push(c.saturating_sub(2).min(2));
        }
    }
    slots.sort_unstable_by(|a, b| b.cmp(a));
    slots
}

fn best_pairs(slots: &[u8], n: usize) -> Option<u32> {
    (slots.len() >= n).then(|| slots[..n].iter().map(|&s| s as u32).sum())
}

/// Seven pairs: 14 minus the tiles the best seven pairs can keep.
pub fn seven_pairs(view: &View, four_as_two: bool) -> u8 {
    match best_pairs(&pair_slots(view, four_as_two, None), 7) {
        Some(kept) => 14 - kept as u8,
        None => INF,
    }
}

/// Eight pairs and a half (八对半): seven pairs plus a triplet of another kind.
pub fn eight_pairs_and_a_half(view: &View, four_as_two: bool) -> u8 {
    let mut best = INF;
    for t in 0..KINDS {
        if view.caps[t] < 3 {
            continue;
        }
        let triplet = view.counts[t].min(3) as u32;
        if let Some(pairs) = best_pairs(&pair_slots(view, four_as_two, Some(t)), 7) {
            best = best.min(17 - (triplet + pairs) as u8);
        }
    }
    best
}

/// Thirteen orphans: one of each orphan plus one more of any of them.
pub fn thirteen_orphans(view: &View) -> u8 {
    if ORPHANS.iter().any(|&t| view.caps[t as usize] == 0) {
        return INF;
    }
    let kinds = ORPHANS
        .iter()
        .filter(|&&t| view.counts[t as usize] > 0)
        .count() as u8;
    let pair = ORPHANS
        .iter()
        .any(|&t| view.counts[t as usize] >= 2 && view.caps[t as usize] >= 2);
    14 - kinds - pair as u8
}

/// The six ways to give 147, 258 and 369 to the three suits, as kind masks.
pub fn knitted_masks() -> [u64; 6] {
    const PERMS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    PERMS.map(|p| {
        let mut m = 0u64;
        for (suit, &offset) in p.iter().enumerate() {
            for r in [0, 3, 6] {
                m |= 1 << (suit * 9 + offset + r);
            }
        }
        m
    })
}

const HONOUR_MASK: u64 = 0x7F << 27;

/// Honours and knitted (全不靠): 14 different kinds from the 16 of one knitted
/// arrangement plus the seven honours.
pub fn honours_and_knitted(view: &View) -> u8 {
    knitted_masks()
        .iter()
        .map(|&k| {
            let mask = k | HONOUR_MASK;
            if tiles::mask_tiles(mask)
                .filter(|&t| view.caps[t as usize] > 0)
                .count()
                < 14
            {
                return INF;
            }
            14 - overlap_capped(view, mask, 1).min(14) as u8
        })
        .min()
        .unwrap_or(INF)
}

/// Knitted straight (组合龙), which takes the place of three melds, plus the remaining
/// meld(s) and a pair.
pub fn knitted_straight(view: &View, melds: usize, pair_ok: u64) -> u8 {
    if melds < 3 {
        return INF;
    }
    let mut best = INF;
    for k in knitted_masks() {
        if tiles::mask_tiles(k).any(|t| view.caps[t as usize] == 0) {
            continue;
        }
        let kept = overlap_capped(view, k, 1) as u8;
        let lower = 9 - kept;
        if lower >= best {
            continue;
        }
        let mut rest = view.clone();
        for t in tiles::mask_tiles(k) {
            let t = t as usize;
            rest.counts[t] = rest.counts[t].saturating_sub(1);
            rest.caps[t] -= 1;
        }
        best = best.min(lower + standard_with(&rest, melds - 3, pair_ok));
    }
    best
}

/// A hand of pungs and one pair, any pair kind.
pub fn all_pungs(view: &View, melds: usize) -> u8 {
    let mut best = INF;
    let pungs: Vec<(usize, u8)> = (0..KINDS)
        .filter(|&t| view.caps[t] >= 3)
        .map(|t| (t, view.counts[t].min(3)))
        .collect();
    for p in (0..KINDS).filter(|&t| view.caps[t] >= 2) {
        let mut vals: Vec<u8> = pungs
            .iter()
            .filter(|(t, _)| *t != p)
            .map(|&(_, v)| v)
            .collect();
        if vals.len() < melds {
            continue;
        }
        vals.sort_unstable_by(|a, b| b.cmp(a));
        let kept =
            view.counts[p].min(2) as u32 + vals[..melds].iter().map(|&v| v as u32).sum::<u32>();
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
    let avail: u32 = tiles::mask_tiles(KINDS_258)
        .map(|t| view.caps[t as usize] as u32)
        .sum();
    if avail < need {
        return INF;
    }
    (need - overlap_capped(view, KINDS_258, 4).min(need)) as u8
}

/// Distance of each form the ruleset allows and that the declared melds leave open,
/// before wilds are spent. `visit` returns true to stop early.
pub fn form_distances(forms: &Forms, view: &View, mut visit: impl FnMut(Form, u8) -> bool) {
    let melds = melds_left(forms, view);
    let shape = view.melds;
    let concealed = shape.count == 0;
    if forms.standard {
        if visit(Form::Standard, standard_with(view, melds, forms.pair_kinds)) {
            return;
        }
        let narrow = forms.pair_kinds != tiles::ALL_KINDS;
        if narrow && forms.all_pungs_any_pair && !shape.chows {
            if visit(Form::Standard, all_pungs(view, melds)) {
                return;
            }
        }
        if narrow && forms.one_suit_any_pair {
            for s in 0..3 {
                if shape.suits & !(1 << s) == 0 {
                    if visit(Form::Standard, one_suit(view, melds, s)) {
                        return;
                    }
                }
            }
        }
    }
    if concealed && forms.seven_pairs && forms.fits(Form::SevenPairs) {
        if visit(Form::SevenPairs, seven_pairs(view, forms.four_as_two_pairs)) {
            return;
        }
    }
    if concealed && forms.eight_pairs_and_a_half && forms.fits(Form::EightPairsAndAHalf) {
        if visit(
            Form::EightPairsAndAHalf,
            eight_pairs_and_a_half(view, forms.four_as_two_pairs),
        ) {
            return;
        }
    }
    if concealed && forms.thirteen_orphans && forms.fits(Form::ThirteenOrphans) {
        if visit(Form::ThirteenOrphans, thirteen_orphans(view)) {
            return;
        }
    }
    if concealed && forms.honours_and_knitted && forms.fits(Form::HonoursAndKnitted) {
        if visit(Form::HonoursAndKnitted, honours_and_knitted(view)) {
            return;
        }
    }
    if shape.count <= 1 && forms.knitted_straight && forms.fits(Form::KnittedStraight) {
        if visit(
            Form::KnittedStraight,
            knitted_straight(view, melds, forms.pair_kinds),
        ) {
            return;
        }
    }
    if forms.all_258 && shape.all_258 {
        if visit(Form::All258, all_258(view, melds)) {
            return;
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
    best.saturating_sub(view.wilds)
}

/// Whether the hand (3m+2 tiles) is complete: some form is at distance 0 once the
/// wilds are spent. Stops at the first such form.
pub fn is_complete(forms: &Forms, view: &View) -> bool {
    let mut done = false;
    form_distances(forms, view, |_, d| {
        done = d <= view.wilds;
        done
    });
    done
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
            assert_eq!(
                slow_group(&counts, &[4; 9], 0x1FF, true),
                *t.get(&counts),
                "{counts:?}"
            );
        }
        let h = tables::honours();
        for i in 0..78125usize {
            let mut x = i;
            let mut c7 = [0u8; 7];
            for c in c7.iter_mut() {
                *c = (x % 5) as u8;
                x /= 5;
            }
            assert_eq!(slow_group(&c7, &[4; 7], 0x7F, false), *h.get(&c7));
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
    fn caps_from_melds_block_a_fifth_tile() {
        // [111m] melded, 1m + 456p789p234s single: the only wait, 1m, is a fifth copy.
        let h = parse("1m456p789p234s[111m]", Format::Compact).unwrap().hand;
        let v = View::new(&h, ALL_KINDS, 0, 0);
        assert_eq!(distance(&Forms::standard(4), &v), 2);
    }
}
