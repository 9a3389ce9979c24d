//! Hand analysis (牌效): for each tile a hand could discard, the shanten of what is left,
//! the draws that would lower it and how many copies of them are unseen; for a ready hand,
//! its waits. Scoring (which waits win, and the draws to a winning ready hand) is asked of
//! a [`Scorer`], so that this module needs no ruleset's scoring.
//!
//! Everything is counted on the engine's own distances (`crate::distance`): shanten is
//! [`Engine::shanten`]'s, waits are [`Engine::waits_of_counts`]'s, so an analysis never
//! disagrees with the single-hand questions.

use std::collections::HashMap;

use crate::batch::{self, Rows};
use crate::distance::{
    group_distances, group_table, honours_and_knitted_draws, knitted_rest, seven_pairs_draws, thirteen_orphans_draws,
    Check, KindMasks, GROUPS, KNITTED, KNITTED_MASKS,
};
use crate::engine::{Engine, Wilds};
use crate::error::{ErrorKind, HandError, Result};
use crate::forms::{Forms, View};
use crate::hand::Hand;
use crate::tables::{self, Distances, Lowering, TARGETS};
use crate::tiles::{self, Counts, Tile, KINDS};

mod discards;
mod standard;
pub use discards::discards;
use standard::Standard;

/// What one choice leaves: a discard (`None` for a hand waiting for a tile) and the
/// hand after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub discard: Option<Tile>,
    /// Shanten (向听) of the hand left: 0 ready (听牌).
    pub shanten: i8,
    /// Kinds with an unseen copy whose draw lowers the shanten (for a ready hand: the
    /// waits with a copy left), bit t = kind t.
    pub useful: u64,
    /// Unseen copies of the useful kinds.
    pub useful_count: u32,
    /// The waits of a ready hand, whether copies are left or not (0 when not ready).
    pub waits: u64,
    /// The waits that score a win, with the value each scores, in tile order.
    pub winning: Vec<(Tile, i32)>,
    /// Unseen copies of the winning waits.
    pub winning_count: u32,
    /// Draws (each followed by a discard) to a ready hand with a winning wait.
    pub draws: Option<Draws>,
}

/// The least number of draws to a hand that is ready with a winning wait.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Draws {
    pub count: u8,
    /// False when `count` is a lower bound: the search looks [`EXACT_DRAWS`] draws ahead.
    pub exact: bool,
}

/// How many draws ahead [`Draws`] is searched exactly.
pub const EXACT_DRAWS: u8 = 2;

/// What the searches past one draw of one analysis may work out together (a distance,
/// or whether a wait wins, each asked once): about 0.2 s. One draw ahead is always
/// searched whole (at most 34 draws by 17 discards); two draws ahead may meet a few
/// hundred thousand hands (Beijing's `5555m6m12345678s1z` with 5m6m the 惠牌, every
/// discard ready and no wait winning on a discard: 3.4 s searched whole). Past this, an
/// entry's count is the draws searched whole plus one, a lower bound.
pub const DRAWS_WORK: u32 = 200_000;

/// Scores a win, for the waits that complete a hand.
pub trait Scorer {
    /// The value `hand` (one tile short) scores when it wins on `win`; `None` when the
    /// ruleset would not let it win (MCR under 8 points, Hainan without 番 ...).
    fn score(&mut self, hand: &Hand, win: Tile) -> Result<Option<i32>>;

    /// Whether `hand` wins on `win`: [`Scorer::score`] is `Some`, which a scorer may tell
    /// without working out the value.
    fn wins(&mut self, hand: &Hand, win: Tile) -> Result<bool> {
        Ok(self.score(hand, win)?.is_some())
    }
}

/// Copies of each kind not seen: four less the hand's own tiles (concealed and melded)
/// and the tiles seen elsewhere; zero for kinds the ruleset does not play.
pub fn unseen(engine: &Engine, hand: &Hand, visible: &Counts) -> Result<Counts> {
    let held = hand.held();
    let mut left = [0u8; KINDS];
    for t in 0..KINDS {
        let name = || tiles::name(t as Tile);
        if visible[t] > 0 && engine.tiles >> t & 1 == 0 {
            return Err(HandError::invalid(format!("visible tile {} is not played in {}", name(), engine.name)));
        }
        let seen = held[t] as u32 + visible[t] as u32;
        if seen > 4 {
            return Err(HandError::new(ErrorKind::Invalid(format!(
                "visible tiles make a fifth copy of {}: the hand holds {} and {} are visible",
                name(),
                held[t],
                visible[t]
            ))));
        }
        if engine.tiles >> t & 1 == 1 {
            left[t] = 4 - seen as u8;
        }
    }
    Ok(left)
}

fn copies(mask: u64, left: &Counts) -> u32 {
    tiles::mask_tiles(mask).map(|t| left[t as usize] as u32).sum()
}

/// The entries of a hand: one per distinct discard of a 14/17-tile hand, or one with no
/// discard for a 13/16-tile hand, in tile order (see [`order`]). Waits are not scored.
pub fn analyze(engine: &Engine, hand: &Hand, wilds: Wilds, visible: &Counts) -> Result<Vec<Entry>> {
    engine.check(hand, wilds, None)?;
    let left = unseen(engine, hand, visible)?;
    let ready = hand.size() + wilds.extra as usize == engine.forms.ready_size();
    if ready {
        return Ok(vec![entry(engine, hand, wilds, &left, None)]);
    }
    let mut out = Vec::with_capacity(14);
    discards(
        engine,
        &hand.concealed,
        &engine.view(hand, wilds),
        &hand.held(),
        wilds.kinds,
        &left,
        |d, (shanten, useful, waits)| {
            out.push(Entry {
                discard: Some(d),
                shanten,
                useful,
                useful_count: copies(useful, &left),
                waits,
                winning: Vec::new(),
                winning_count: 0,
                draws: None,
            })
        },
    );
    Ok(out)
}

/// The entry of a hand one tile short (13/16), after `discard`.
fn entry(engine: &Engine, hand: &Hand, wilds: Wilds, left: &Counts, discard: Option<Tile>) -> Entry {
    let view = engine.view(hand, wilds);
    let held = hand.held();
    let (shanten, useful, waits) = shape(engine, &view, &held, wilds.kinds, left);
    Entry {
        discard,
        shanten,
        useful,
        useful_count: copies(useful, left),
        waits,
        winning: Vec::new(),
        winning_count: 0,
        draws: None,
    }
}

/// Shanten, useful draws and waits of a view one tile short; `held` gives the copies held
/// of each kind (concealed, melded, wild copies), `left` the copies unseen (a draw is of
/// one, and a wait needs one). Every form is counted on this view alone: [`discards`]
/// answers the same for each discard of a longer hand from what the discards share.
pub fn shape(engine: &Engine, view: &View, held: &Counts, wild_kinds: u64, left: &Counts) -> (i8, u64, u64) {
    shape_with(engine, view, held, wild_kinds, left, &mut Ready::default())
}

/// [`shape`] with the hands already found ready or not (see [`Ready`]).
fn shape_with(
    engine: &Engine,
    view: &View,
    held: &Counts,
    wild_kinds: u64,
    left: &Counts,
    ready: &mut Ready,
) -> (i8, u64, u64) {
    let forms = &engine.forms;
    let masks = KindMasks::of(view);
    let melds = (forms.melds - view.melds.count.min(forms.melds)) as usize;
    // The standard form first (its group distances serve the draws below), then the
    // others bounded one past the least so far: exact wherever they tie it.
    let mut standard = None;
    let mut found: [(Check, u8); 11] = [(Check::Standard, u8::MAX); 11];
    let mut n = 0;
    let mut best = u8::MAX;
    for check in Check::ALL {
        if !check.open(forms, view) {
            continue;
        }
        let d = if check == Check::Standard {
            standard.insert(Standard::new(view, melds, forms.pair_kinds)).distance()
        } else {
            check.distance_masked(forms, view, best.saturating_add(1), masks)
        };
        best = best.min(d);
        found[n] = (check, d);
        n += 1;
    }
    let draws = |todo: u64, best: u8| standard.as_mut().map_or(0, |s| s.draws(best, todo));
    let knitted = |todo: u64, best: u8| knitted_draws(forms, view, masks, best, todo);
    conclude(engine, view, held, wild_kinds, left, &found[..n], best, masks, draws, knitted, ready)
}

/// The rest of [`shape`] once the distance of each open check is known (`found`, exact
/// wherever it ties `best`, the least): the waits of a ready hand, or the useful draws.
/// `standard(todo, best)` gives the draws of `todo` that bring the standard form below
/// `best`, `knitted(todo, best)` those that bring the knitted straight below it.
#[allow(clippy::too_many_arguments)]
fn conclude(
    engine: &Engine,
    view: &View,
    held: &Counts,
    wild_kinds: u64,
    left: &Counts,
    found: &[(Check, u8)],
    best: u8,
    masks: KindMasks,
    standard: impl FnOnce(u64, u8) -> u64,
    knitted: impl FnOnce(u64, u8) -> u64,
    ready: &mut Ready,
) -> (i8, u64, u64) {
    let forms = &engine.forms;
    let avail = tiles::kinds_mask(left);
    let distance = best.saturating_sub(view.wilds);
    if distance <= 1 {
        let waits = engine.waits_of_counts(view, held, wild_kinds);
        if waits != 0 {
            return (0, waits & avail, waits);
        }
        // Ready in shape, but every completing tile is one the player holds all four of:
        // a draw helps only if some discard then leaves a real wait.
        let useful = tiles::mask_tiles(avail & engine.tiles)
            .filter(|&t| ready.after(engine, view, held, wild_kinds, left, t))
            .fold(0, |m, t| m | 1 << t);
        return (1, useful, 0);
    }
    let shanten = distance as i8 - 1;
    // A drawn wild fills a missing place of whichever check is at the least distance.
    let mut useful = avail & wild_kinds;
    let natural = avail & engine.tiles & !wild_kinds;
    let (mut standard, mut knitted) = (Some(standard), Some(knitted));
    // A draw raises the overlap with a target by at most one, so only the checks at the
    // least distance can come down.
    for &(check, d) in found {
        let todo = natural & !useful;
        if d != best || todo == 0 {
            continue;
        }
        useful |= match check {
            Check::Standard => standard.take().map_or(0, |f| f(todo, best)),
            Check::KnittedStraight => knitted.take().map_or(0, |f| f(todo, best)),
            Check::SevenPairs => todo & seven_pairs_draws(&masks, forms.four_as_two_pairs),
            Check::ThirteenOrphans => todo & thirteen_orphans_draws(view, &masks, best),
            Check::HonoursAndKnitted => todo & honours_and_knitted_draws(&masks, best),
            _ => check.draws_below(forms, view, masks, best, todo, false),
        };
    }
    if shanten == 1 && view.wilds > 0 {
        // With wilds in hand, a hand at distance one may still have no tile left that
        // completes it (see the ready case above): check the draws that reach it.
        // A wild kind with a copy unseen (one left after any draw) is a wait of any hand
        // at distance one.
        let free_wild = tiles::mask_tiles(wild_kinds).any(|k| left[k as usize] >= 2);
        if !free_wild {
            useful = tiles::mask_tiles(useful)
                .filter(|&t| ready.after(engine, view, held, wild_kinds, left, t))
                .fold(0, |m, t| m | 1 << t);
        }
    }
    (shanten, useful, 0)
}

/// Draws of `candidates` that bring `check` below `best`, each draw counted out (the
/// reference the draws found at once are checked against).
#[cfg(test)]
fn one_by_one(forms: &Forms, view: &View, masks: KindMasks, check: Check, best: u8, candidates: u64) -> u64 {
    let mut v = view.clone();
    tiles::mask_tiles(candidates).fold(0u64, |m, t| {
        let c = v.counts[t as usize] as usize;
        // One more copy of t: bit t moves up one level of the held masks.
        let mut drawn = masks;
        drawn.held[c] |= 1 << t;
        v.counts[t as usize] += 1;
        let lower = check.distance_masked(forms, &v, best, drawn) < best;
        v.counts[t as usize] -= 1;
        if lower {
            m | 1 << t
        } else {
            m
        }
    })
}

/// Draws of `candidates` that bring the standard form below `best` (before wilds), given
/// each group's distances `dist`, what the other three groups leave it (`others`, for
/// up to `melds` melds) and the draws that lower each of its targets (`lowering(g)`).
///
/// A draw lowers a group's distance to a target by one at most, and `best` is no more
/// than any group's distance plus its complement's, so a draw brings the total below
/// `best` exactly when it lowers a target of its group that meets `best` with equality.
fn standard_draws(
    dist: &[Distances; 4],
    others: &[Distances; 4],
    melds: usize,
    best: u8,
    candidates: u64,
    mut lowering: impl FnMut(usize) -> Lowering,
) -> u64 {
    let mut mask = 0u64;
    for (g, &(lo, hi)) in GROUPS.iter().enumerate() {
        let group_mask = ((1u64 << (hi - lo)) - 1) << lo;
        if candidates & group_mask == 0 {
            continue;
        }
        let tight = tight_targets(&dist[g], &others[g], melds, best);
        if tight == 0 {
            continue;
        }
        mask |= meeting(&lowering(g), tight) << lo;
    }
    mask & candidates
}

/// The targets k = m * 2 + h (bit k) of a group at `dist` that meet what the others leave
/// it (`others`, target (melds - m) * 2 + 1 - h) with a total of `best`. Sixteen bytes at
/// a time: the others' targets in that order are `others` reversed, and distances are at
/// most 99, so the bytes add without carries.
#[inline]
fn tight_targets(dist: &Distances, others: &Distances, melds: usize, best: u8) -> u16 {
    let wide = |d: &Distances| {
        let mut w = [0u8; 16];
        w[..TARGETS].copy_from_slice(d);
        u128::from_le_bytes(w)
    };
    let used = 2 * (melds + 1);
    // Byte j of the reversed others is others[used - 1 - j]; the bytes past the targets
    // used are left out by the mask.
    let sums = wide(dist) + (wide(others).swap_bytes() >> (8 * (16 - used)));
    equal_bytes(sums, best) & ((1u32 << used) - 1) as u16
}

/// Bit j set where byte j of `x` is `value`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn equal_bytes(x: u128, value: u8) -> u16 {
    use std::arch::x86_64::{__m128i, _mm_cmpeq_epi8, _mm_movemask_epi8, _mm_set1_epi8};
    // SAFETY: SSE2 is part of the x86_64 baseline; u128 and __m128i are both 16 plain bytes.
    unsafe {
        let x = std::mem::transmute::<u128, __m128i>(x);
        _mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8(value as i8))) as u16
    }
}

/// Bit j set where byte j of `x` is `value`: the top bit of a byte stays clear only where
/// the byte is zero, and one multiplication gathers a bit from each of eight bytes.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn equal_bytes(x: u128, value: u8) -> u16 {
    const LOW7: u128 = u128::from_le_bytes([0x7F; 16]);
    const HIGH: u128 = u128::from_le_bytes([0x80; 16]);
    let x = x ^ u128::from_le_bytes([value; 16]);
    let zero = !(((x & LOW7) + LOW7) | x) & HIGH;
    let gather = |bits: u64| ((bits >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u16;
    gather(zero as u64) | gather((zero >> 64) as u64) << 8
}

/// Bit i set where the draw of a group's i-th kind lowers one of the targets `tight`
/// (`lower` as [`Lowering`]): eight kinds at once, the ninth alone.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn meeting(lower: &Lowering, tight: u16) -> u64 {
    use std::arch::x86_64::{
        _mm_and_si128, _mm_cmpeq_epi16, _mm_loadu_si128, _mm_movemask_epi8, _mm_packs_epi16, _mm_set1_epi16,
        _mm_setzero_si128,
    };
    // SAFETY: SSE2 is part of the x86_64 baseline; the load reads the first eight of the
    // nine u16 of `lower`.
    let missed = unsafe {
        let first = _mm_loadu_si128(lower.as_ptr().cast());
        let none = _mm_cmpeq_epi16(_mm_and_si128(first, _mm_set1_epi16(tight as i16)), _mm_setzero_si128());
        // Each lane's all-ones or zero narrowed to a byte: one bit a kind.
        _mm_movemask_epi8(_mm_packs_epi16(none, none)) as u64 & 0xFF
    };
    (!missed & 0xFF) | ((lower[8] & tight != 0) as u64) << 8
}

/// Bit i set where the draw of a group's i-th kind lowers one of the targets `tight`.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn meeting(lower: &Lowering, tight: u16) -> u64 {
    (0..9).fold(0u64, |b, i| b | ((lower[i] & tight != 0) as u64) << i)
}

/// Bit k set where `after[k] < now[k]`. Eight bytes at a time: distances are at most 99,
/// so `128 + now - after - 1` never borrows from the next byte and its top bit says
/// whether `after < now`; one multiplication gathers a bit from each byte.
#[inline]
fn lower_mask(after: &Distances, now: &Distances) -> u16 {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const ONE: u64 = 0x0101_0101_0101_0101;
    let word = |d: &Distances, at: usize| {
        let mut w = [0u8; 8];
        let n = (TARGETS - at).min(8);
        w[..n].copy_from_slice(&d[at..at + n]);
        u64::from_le_bytes(w)
    };
    let below = |a: u64, b: u64| (((b | HIGH) - a - ONE) & HIGH) >> 7;
    let gather = |bits: u64| (bits.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u16;
    gather(below(word(after, 0), word(now, 0))) | gather(below(word(after, 8), word(now, 8))) << 8
}

/// [`Lowering`] of group `g` of `view`, whose distances are `now`.
fn lowering(view: &View, g: usize, pair_kinds: u64, now: &Distances) -> Lowering {
    let (lo, hi) = GROUPS[g];
    if let Some(l) = group_table(view, g, pair_kinds).and_then(|t| tables::lowering(t, &view.counts[lo..hi])) {
        return l;
    }
    let mut out = [0u16; 9];
    let mut v = view.clone();
    for (i, slot) in out.iter_mut().enumerate().take(hi - lo) {
        v.counts[lo + i] += 1;
        *slot = lower_mask(&group_distances(&v, g, pair_kinds), now);
        v.counts[lo + i] -= 1;
    }
    out
}

/// Draws of `candidates` that bring the knitted straight (组合龙) below `best`. The
/// distance is the least over the six arrangements of the straight's kinds not held plus
/// the distance of the rest to its meld and pair, and a draw lowers one of the two by one
/// at most: so the draws are, for each arrangement at `best`, its kinds not held and the
/// draws that lower the rest's standard form.
fn knitted_draws(forms: &Forms, view: &View, masks: KindMasks, best: u8, candidates: u64) -> u64 {
    let melds = (forms.melds - view.melds.count.min(forms.melds)) as usize;
    if melds < 3 {
        return 0;
    }
    let (once, playable) = (masks.held[0], masks.room[0]);
    let mut out = 0u64;
    for (ks, &k) in KNITTED.iter().zip(KNITTED_MASKS.iter()) {
        let lower = 9 - (once & k).count_ones() as u8;
        if playable & k != k || lower > best {
            continue;
        }
        let mut rest = Standard::new(&knitted_rest(view, ks, melds), melds - 3, forms.pair_kinds);
        let standard = rest.distance();
        if lower + standard != best {
            continue;
        }
        out |= k & !once;
        out |= rest.draws(standard, candidates & !out);
    }
    out & candidates
}

/// The view with tile `t` drawn (a wild kind's copy becomes a wild).
fn drawn(view: &View, held: &Counts, wild_kinds: u64, t: Tile) -> (View, Counts) {
    let (mut v, mut h) = (view.clone(), *held);
    if wild_kinds >> t & 1 == 1 {
        v.wilds += 1;
    } else {
        v.counts[t as usize] += 1;
    }
    h[t as usize] += 1;
    (v, h)
}

/// The view with tile `t` discarded, or None when the view holds none.
fn discarded(view: &View, held: &Counts, wild_kinds: u64, t: Tile) -> Option<(View, Counts)> {
    let (mut v, mut h) = (view.clone(), *held);
    if wild_kinds >> t & 1 == 1 {
        // A wild kind's copies are the view's wilds (besides any extra wilds).
        if v.wilds == 0 || held[t as usize] == 0 {
            return None;
        }
        v.wilds -= 1;
    } else {
        if v.counts[t as usize] == 0 {
            return None;
        }
        v.counts[t as usize] -= 1;
    }
    h[t as usize] -= 1;
    Some((v, h))
}

/// The hands one tile short found ready or not, by the copies held of each kind: within
/// one analysis (one engine, melds and wild kinds) they give the view. A draw and a
/// discard after each of a hand's discards meet the same hands many times over (drawing
/// t after discarding d and then discarding e leaves what discarding e and then d does).
#[derive(Default)]
pub(super) struct Ready(HashMap<(Counts, u64), bool, crate::hash::Fast>);

impl Ready {
    /// Whether drawing `t` and some discard leave a hand with a wait that has a tile left:
    /// a copy unseen (`left`, the drawn one taken off; the tiles discarded are seen).
    fn after(&mut self, engine: &Engine, view: &View, held: &Counts, wild_kinds: u64, left: &Counts, t: Tile) -> bool {
        let (v, h) = drawn(view, held, wild_kinds, t);
        let among = tiles::kinds_mask(left) & !(((left[t as usize] <= 1) as u64) << t);
        (0..KINDS as Tile).any(|e| {
            discarded(&v, &h, wild_kinds, e).is_some_and(|(v2, h2)| {
                *self.0.entry((h2, among)).or_insert_with(|| is_ready(engine, &v2, &h2, wild_kinds, among))
            })
        })
    }
}

/// Whether a view one tile short has a wait among the kinds of `among` (those with a copy
/// unseen) that completes it.
fn is_ready(engine: &Engine, view: &View, held: &Counts, wild_kinds: u64, among: u64) -> bool {
    crate::distance::distance(&engine.forms, view) <= 1 && engine.waits_among(view, held, wild_kinds, among, true) != 0
}

/// Scores the waits of the ready entries: `winning` and `winning_count`.
pub fn score_waits(entries: &mut [Entry], hand: &Hand, left: &Counts, scorer: &mut dyn Scorer) -> Result<()> {
    for e in entries.iter_mut() {
        if e.shanten != 0 {
            continue;
        }
        let h = after(hand, e.discard);
        for t in tiles::mask_tiles(e.waits) {
            if let Some(v) = scorer.score(&h, t)? {
                e.winning.push((t, v));
                e.winning_count += left[t as usize] as u32;
            }
        }
    }
    Ok(())
}

/// The hand after a discard.
fn after(hand: &Hand, discard: Option<Tile>) -> Hand {
    let mut h = hand.clone();
    if let Some(d) = discard {
        h.concealed[d as usize] -= 1;
    }
    h
}

/// Orders entries best first: lowest shanten, then most useful copies, then most
/// winning copies, then the discard in tile order (m, p, s, z; 1 to 9).
pub fn order(entries: &mut [Entry]) {
    entries
        .sort_by_key(|e| (e.shanten, std::cmp::Reverse(e.useful_count), std::cmp::Reverse(e.winning_count), e.discard));
}

/// Fills `draws` of every entry: the least number of draws, each followed by a discard,
/// to a hand that is ready with a winning wait. Exact up to [`EXACT_DRAWS`]; beyond, the
/// shanten or `EXACT_DRAWS + 1`, whichever is more, as a lower bound; and once the searches
/// two draws ahead have worked out `work` hands ([`DRAWS_WORK`]), 2 as a lower bound.
///
/// The search tries every draw with a copy unseen (the copies it takes are not given
/// back) and every discard, and asks the scorer about each ready hand met; hands met
/// twice are looked up, not scored again.
pub fn score_draws(
    engine: &Engine,
    entries: &mut [Entry],
    hand: &Hand,
    wilds: Wilds,
    left: &Counts,
    scorer: &mut dyn Scorer,
    work: u32,
) -> Result<()> {
    let mut search = Search {
        engine,
        wilds,
        scorer,
        waits: HashMap::default(),
        wins: HashMap::default(),
        distances: HashMap::default(),
        work,
        counting: false,
    };
    // The waits already scored are not asked again.
    for e in entries.iter().filter(|e| e.shanten == 0) {
        let h = after(hand, e.discard);
        search.waits.insert(h.concealed, e.waits);
        for t in tiles::mask_tiles(e.waits) {
            search.wins.insert((h.concealed, t), e.winning.iter().any(|&(w, _)| w == t));
        }
    }
    for e in entries.iter_mut() {
        let h = after(hand, e.discard);
        let draws = if e.shanten == 0 && e.winning_count > 0 {
            Draws { count: 0, exact: true }
        } else {
            search.least(&h, e.shanten, left)?
        };
        e.draws = Some(draws);
    }
    Ok(())
}

struct Search<'a> {
    engine: &'a Engine,
    wilds: Wilds,
    scorer: &'a mut dyn Scorer,
    /// The waits of the hands one tile short met (by their concealed tiles: the melds do
    /// not change), and whether a hand wins on a wait: neither depends on the copies left,
    /// so hands met again by other draws are not counted or scored again.
    waits: HashMap<Counts, u64, crate::hash::Fast>,
    wins: HashMap<(Counts, Tile), bool, crate::hash::Fast>,
    distances: HashMap<Counts, u8, crate::hash::Fast>,
    /// What the searches past one draw may still work out ([`DRAWS_WORK`] for a call).
    work: u32,
    /// Whether the search under way is counted: one past one draw.
    counting: bool,
}

impl Search<'_> {
    /// Counts one thing worked out; false when the work allowed has run out.
    fn spend(&mut self) -> bool {
        if self.out_of_work() {
            return false;
        }
        self.work -= self.counting as u32;
        true
    }

    fn out_of_work(&self) -> bool {
        self.counting && self.work == 0
    }

    /// Draws from `hand` (shanten `shanten`) to a winning ready hand.
    fn least(&mut self, hand: &Hand, shanten: i8, left: &Counts) -> Result<Draws> {
        let bound = Draws { count: (shanten.max(0) as u8).max(EXACT_DRAWS + 1), exact: false };
        if shanten > EXACT_DRAWS as i8 {
            return Ok(Draws { count: shanten as u8, exact: false });
        }
        if shanten <= 0 && self.winning_ready(hand, left)? {
            return Ok(Draws { count: 0, exact: true });
        }
        for depth in 1..=EXACT_DRAWS {
            if (shanten as u8) > depth {
                continue;
            }
            self.counting = depth > 1;
            let found = self.reach(hand, left, depth)?;
            let cut = self.out_of_work();
            self.counting = false;
            if found {
                return Ok(Draws { count: depth, exact: true });
            }
            if cut {
                // Every hand `depth - 1` draws away was searched: `depth` at least.
                return Ok(Draws { count: depth, exact: false });
            }
        }
        Ok(bound)
    }

    /// Whether `depth` exchanges can make `hand` a winning ready hand.
    fn reach(&mut self, hand: &Hand, left: &Counts, depth: u8) -> Result<bool> {
        for t in 0..KINDS as Tile {
            if left[t as usize] == 0 || self.engine.tiles >> t & 1 == 0 {
                continue;
            }
            let mut drawn = hand.clone();
            drawn.concealed[t as usize] += 1;
            let mut rest = *left;
            rest[t as usize] -= 1;
            for e in 0..KINDS {
                if drawn.concealed[e] == 0 || e == t as usize {
                    continue;
                }
                let mut h = drawn.clone();
                h.concealed[e] -= 1;
                // Shanten drops by at most one an exchange: prune what cannot get there.
                let d = self.distance(&h) as i32 - 1;
                if self.out_of_work() {
                    return Ok(false);
                }
                if d > depth as i32 - 1 {
                    continue;
                }
                let found = if depth == 1 { self.winning_ready(&h, &rest)? } else { self.reach(&h, &rest, depth - 1)? };
                if found {
                    return Ok(true);
                }
                if self.out_of_work() {
                    return Ok(false);
                }
            }
        }
        Ok(false)
    }

    /// The engine's distance of a hand met (a hand is met again by other draws).
    /// Past the work allowed, a distance not worked out yet is read as too far (the
    /// search is then cut, see [`Search::least`]).
    fn distance(&mut self, hand: &Hand) -> u8 {
        if let Some(&d) = self.distances.get(&hand.concealed) {
            return d;
        }
        if !self.spend() {
            return u8::MAX;
        }
        let d = crate::distance::distance(&self.engine.forms, &self.engine.view(hand, self.wilds));
        self.distances.insert(hand.concealed, d);
        d
    }

    /// Whether a hand one tile short is ready with a winning wait that has a copy left.
    fn winning_ready(&mut self, hand: &Hand, left: &Counts) -> Result<bool> {
        let waits = match self.waits.get(&hand.concealed) {
            Some(&w) => w,
            None => {
                let d = self.distance(hand);
                if self.out_of_work() {
                    return Ok(false); // (nothing kept of a hand not worked out)
                }
                let w = if d <= 1 {
                    let view = self.engine.view(hand, self.wilds);
                    self.engine.waits_of_counts(&view, &hand.held(), self.wilds.kinds)
                } else {
                    0
                };
                self.waits.insert(hand.concealed, w);
                w
            }
        };
        for t in tiles::mask_tiles(waits) {
            if left[t as usize] == 0 {
                continue;
            }
            let wins = match self.wins.get(&(hand.concealed, t)) {
                Some(&k) => k,
                None => {
                    if !self.spend() {
                        return Ok(false);
                    }
                    let k = self.scorer.wins(hand, t)?;
                    self.wins.insert((hand.concealed, t), k);
                    k
                }
            };
            if wins {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// `analyze_batch`'s shanten where the row holds no tile of the kind.
pub const NOT_HELD_SHANTEN: i8 = i8::MAX;
/// `analyze_batch`'s useful copies where the row holds no tile of the kind.
pub const NOT_HELD_USEFUL: i16 = -1;

/// For rows of 14/17 tiles (see [`crate::batch`]): the shanten after each discard and the
/// unseen copies of the useful draws after it, n x 34 each, row-major; the sentinels
/// [`NOT_HELD_SHANTEN`] and [`NOT_HELD_USEFUL`] where a row holds no tile of the kind.
/// `visible` is one row of 34 counts for every row, or one per row. Call
/// [`crate::batch::validate`] first.
pub fn batch(engine: &Engine, rows: &Rows<'_>, wild_kinds: u64, visible: Option<&[u8]>) -> Result<(Vec<i8>, Vec<i16>)> {
    let n = rows.len();
    let seen = |i: usize| -> &[u8] {
        match visible {
            Some(v) if v.len() == KINDS => v,
            Some(v) => &v[i * KINDS..(i + 1) * KINDS],
            None => &[0; KINDS],
        }
    };
    if let Some(v) = visible {
        if v.len() != KINDS && v.len() != n * KINDS {
            return Err(HandError::invalid(format!(
                "visible must be one row of 34 counts or one per hand ({n}), not {} rows",
                v.len() / KINDS
            )));
        }
    }
    for i in 0..n {
        let (row, v) = (rows.row(i), seen(i));
        for t in 0..KINDS {
            if v[t] > 0 && engine.tiles >> t & 1 == 0 {
                return Err(batch::row_error(
                    rows,
                    i,
                    format!("visible tile {} is not played in {}", tiles::name(t as Tile), engine.name),
                ));
            }
            if row[t] as u32 + v[t] as u32 > 4 {
                return Err(batch::row_error(
                    rows,
                    i,
                    format!(
                        "visible tiles make a fifth copy of {} ({} held, {} visible)",
                        tiles::name(t as Tile),
                        row[t],
                        v[t]
                    ),
                ));
            }
        }
    }
    let per_row = batch::map_indexed(rows, |i, row, melds| {
        let v = seen(i);
        let mut left = [0u8; KINDS];
        for t in 0..KINDS {
            if engine.tiles >> t & 1 == 1 {
                left[t] = 4 - row[t] - v[t];
            }
        }
        let mut shanten = [NOT_HELD_SHANTEN; KINDS];
        let mut useful = [NOT_HELD_USEFUL; KINDS];
        let view = batch::view(engine, row, melds, wild_kinds);
        discards(engine, row, &view, row, wild_kinds, &left, |d, (s, u, _)| {
            shanten[d as usize] = s;
            useful[d as usize] = copies(u, &left) as i16;
        });
        (shanten, useful)
    });
    let mut s = Vec::with_capacity(n * KINDS);
    let mut u = Vec::with_capacity(n * KINDS);
    for (a, b) in per_row {
        s.extend_from_slice(&a);
        u.extend_from_slice(&b);
    }
    Ok((s, u))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::distance::{combine, convolve};
    use crate::forms::Forms;
    use crate::notation::{parse, Format};

    fn hand(s: &str) -> Hand {
        parse(s, Format::Compact).unwrap().hand
    }

    /// Wins on a discard only on `tile`: a search of draws that often goes two deep.
    struct OnlyOn(Tile);

    impl Scorer for OnlyOn {
        fn score(&mut self, _hand: &Hand, win: Tile) -> Result<Option<i32>> {
            Ok((win == self.0).then_some(1))
        }
    }

    #[test]
    fn draws_cut_short_are_a_lower_bound_of_the_draws_searched_whole() {
        let e = Engine::new("mcr-like", Forms { seven_pairs: true, ..Forms::standard(4) }, tiles::ALL_KINDS);
        let mut rng = 11u64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let (mut cut, mut checked) = (0, 0);
        for _ in 0..60 {
            // A complete hand of four chows or pungs and a pair, two tiles then changed.
            let mut h = Hand::default();
            for g in 0..5 {
                let k = (next() % KINDS as u64) as usize;
                match (g, next() % 2) {
                    (4, _) => h.concealed[k] += 2,
                    (_, 0) if k < 27 && k % 9 <= 6 => (k..k + 3).for_each(|t| h.concealed[t] += 1),
                    _ => h.concealed[k] += 3,
                }
            }
            for _ in 0..2 {
                let held: Vec<usize> = (0..KINDS).filter(|&t| h.concealed[t] > 0).collect();
                h.concealed[held[next() as usize % held.len()]] -= 1;
                h.concealed[(next() % KINDS as u64) as usize] += 1;
            }
            if h.concealed.iter().any(|&c| c > 4) || e.shanten(&h, Wilds::default()).unwrap() > 1 {
                continue;
            }
            let left = unseen(&e, &h, &[0; KINDS]).unwrap();
            let only_on = (next() % KINDS as u64) as Tile;
            let draws = |work: u32| {
                let mut entries = analyze(&e, &h, Wilds::default(), &[0; KINDS]).unwrap();
                let mut s = OnlyOn(only_on);
                score_waits(&mut entries, &h, &left, &mut s).unwrap();
                score_draws(&e, &mut entries, &h, Wilds::default(), &left, &mut s, work).unwrap();
                entries.iter().map(|x| x.draws.unwrap()).collect::<Vec<_>>()
            };
            for (whole, short) in draws(u32::MAX).into_iter().zip(draws(300)) {
                checked += 1;
                if short.exact {
                    assert_eq!(short, whole);
                } else {
                    assert!(short.count <= whole.count, "{short:?} is no lower bound of {whole:?}");
                    cut += (short != whole) as u32;
                }
            }
        }
        assert!(checked > 100 && cut > 10, "{checked} entries, {cut} cut");
    }

    #[test]
    fn entries_follow_the_engine_and_the_batch_follows_the_entries() {
        let e = Engine::new("mcr-like", Forms { seven_pairs: true, ..Forms::standard(4) }, tiles::ALL_KINDS);
        let h = hand("123m456m78p11s5z223z");
        let entries = analyze(&e, &h, Wilds::default(), &[0; KINDS]).unwrap();
        let rows = h.concealed.to_vec();
        let (s, u) = batch(&e, &Rows::new(&rows, None), 0, None).unwrap();
        for entry in &entries {
            let d = entry.discard.unwrap();
            let mut after = h.clone();
            after.concealed[d as usize] -= 1;
            assert_eq!(entry.shanten, e.shanten(&after, Wilds::default()).unwrap());
            assert_eq!((s[d as usize], u[d as usize] as u32), (entry.shanten, entry.useful_count));
        }
        assert_eq!(s[33], NOT_HELD_SHANTEN);
        assert_eq!(u[33], NOT_HELD_USEFUL);
    }

    #[test]
    fn draws_found_at_once_are_the_draws_tried_one_by_one() {
        let forms = Forms::mcr();
        // Hands near a knitted straight (147m 258p 369s beside a meld and a pair) and
        // random ones, by a fixed xorshift.
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |n: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n as u64) as usize
        };
        let (mut knitted, mut standard) = (0, 0);
        // Fewer hands in a debug build, where each costs some thirty times more.
        let rounds = if cfg!(debug_assertions) { 3_000 } else { 20_000 };
        for round in 0..rounds {
            let mut counts = [0u8; KINDS];
            let mut placed = 0;
            if round % 2 == 0 {
                for &t in &KNITTED[next(6)] {
                    if next(4) != 0 {
                        counts[t as usize] += 1;
                        placed += 1;
                    }
                }
            }
            // Some rounds draw from the orphans or from seven kinds, for hands near
            // thirteen orphans and near seven pairs.
            let pool: Vec<usize> = match round % 4 {
                1 => tiles::ORPHANS.iter().map(|&t| t as usize).collect(),
                3 => {
                    let from = next(KINDS - 7);
                    (from..from + 7).collect()
                }
                _ => (0..KINDS).collect(),
            };
            while placed < 13 {
                let t = pool[next(pool.len())];
                if counts[t] < 4 {
                    counts[t] += 1;
                    placed += 1;
                }
            }
            let h = Hand { concealed: counts, ..Hand::default() };
            let mut view = View::new(&h, tiles::ALL_KINDS, 0, 0);
            if round % 5 == 4 {
                // Copies of a few kinds out of reach, as a declared meld leaves them.
                for _ in 0..3 {
                    let t = next(KINDS);
                    view.caps[t] = counts[t].max(next(4) as u8);
                }
            }
            let masks = KindMasks::of(&view);
            let candidates = (0..KINDS).filter(|&t| counts[t] < view.caps[t]).fold(0u64, |m, t| m | 1 << t);
            let best = Check::KnittedStraight.distance(&forms, &view, u8::MAX);
            if best < 99 {
                knitted += 1;
                assert_eq!(
                    knitted_draws(&forms, &view, masks, best, candidates),
                    one_by_one(&forms, &view, masks, Check::KnittedStraight, best, candidates),
                    "{}",
                    h.notation()
                );
            }
            let fat = round % 3 == 0;
            let pairs = Forms { four_as_two_pairs: fat, ..forms.clone() };
            for (check, at_once) in [
                (Check::SevenPairs, seven_pairs_draws(&masks, fat)),
                (
                    Check::ThirteenOrphans,
                    thirteen_orphans_draws(&view, &masks, Check::ThirteenOrphans.distance(&forms, &view, 99)),
                ),
                (
                    Check::HonoursAndKnitted,
                    honours_and_knitted_draws(&masks, Check::HonoursAndKnitted.distance(&forms, &view, 99)),
                ),
            ] {
                let best = check.distance(&pairs, &view, u8::MAX);
                if best < 99 {
                    let one = one_by_one(&pairs, &view, masks, check, best, candidates);
                    assert_eq!(at_once & candidates, one, "{check:?} {}", h.notation());
                }
            }
            let g = [0, 1, 2, 3].map(|g| group_distances(&view, g, tiles::ALL_KINDS));
            let best = combine(&g, 4);
            let (a, b) = (convolve(&g[0], &g[1], 4), convolve(&g[2], &g[3], 4));
            let others =
                [convolve(&g[1], &b, 4), convolve(&g[0], &b, 4), convolve(&a, &g[3], 4), convolve(&a, &g[2], 4)];
            standard += 1;
            assert_eq!(
                standard_draws(&g, &others, 4, best, candidates, |h| lowering(&view, h, tiles::ALL_KINDS, &g[h])),
                one_by_one(&forms, &view, masks, Check::Standard, best, candidates),
                "{}",
                h.notation()
            );
        }
        assert!(knitted > rounds / 2 && standard == rounds);
    }

    #[test]
    fn draws_counted_by_class_are_the_draws_tried_one_by_one() {
        // The pairs forms read only how many kinds are held how often: draws_below asks
        // each class of kinds once. Random hands of 13 and 16 tiles, some with room past
        // four copies (a drawn wild standing past them), against every draw tried.
        let forms = Forms { seven_pairs: true, eight_pairs_and_a_half: true, ..Forms::standard(5) };
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |n: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n as u64) as usize
        };
        let mut lowered = 0;
        for round in 0..4_000 {
            let size = if round % 2 == 0 { 13 } else { 16 };
            let from = next(KINDS - 10);
            let mut counts = [0u8; KINDS];
            let mut placed = 0;
            while placed < size {
                let t = from + next(10);
                if counts[t] < 4 {
                    counts[t] += 1;
                    placed += 1;
                }
            }
            let h = Hand { concealed: counts, ..Hand::default() };
            let mut view = View::new(&h, tiles::ALL_KINDS, 0, (round % 3) as u8);
            for t in 0..KINDS {
                match round % 4 {
                    1 => view.caps[t] += 1,
                    3 if next(3) == 0 => view.caps[t] = counts[t].max(next(4) as u8),
                    _ => {}
                }
            }
            let masks = KindMasks::of(&view);
            let candidates = (0..KINDS).filter(|&t| counts[t] < view.caps[t].min(4)).fold(0u64, |m, t| m | 1 << t);
            let fat = round % 5 == 0;
            let pairs = Forms { four_as_two_pairs: fat, ..forms.clone() };
            for check in [Check::SevenPairs, Check::EightPairsAndAHalf] {
                let now = check.distance(&pairs, &view, u8::MAX);
                for bound in [now, now + 1] {
                    let one = one_by_one(&pairs, &view, masks, check, bound, candidates);
                    lowered += (one != 0) as u32;
                    assert_eq!(
                        check.draws_below(&pairs, &view, masks, bound, candidates, false),
                        one,
                        "{check:?} {} bound {bound}",
                        h.notation()
                    );
                    let some = check.draws_below(&pairs, &view, masks, bound, candidates, true);
                    assert!(some & !one == 0 && (some == 0) == (one == 0), "{check:?} {}", h.notation());
                }
            }
        }
        assert!(lowered > 4_000, "{lowered}");
    }

    #[test]
    fn tight_targets_match_a_plain_loop() {
        let mut x = 5u64;
        for _ in 0..20_000 {
            let mut pick = || {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                [0, 1, 2, 3, 5, 13, 98, 99][(x >> 33) as usize % 8]
            };
            let (a, b): (Distances, Distances) = (std::array::from_fn(|_| pick()), std::array::from_fn(|_| pick()));
            let best = pick();
            for melds in 0..=5 {
                let mut plain = 0u16;
                for m in 0..=melds {
                    for h in 0..2 {
                        let sum = a[m * 2 + h] as u16 + b[(melds - m) * 2 + 1 - h] as u16;
                        plain |= ((sum == best as u16) as u16) << (m * 2 + h);
                    }
                }
                assert_eq!(tight_targets(&a, &b, melds, best), plain, "{a:?} {b:?} {melds} {best}");
            }
        }
    }

    #[test]
    fn meeting_matches_a_plain_loop() {
        let mut x = 3u64;
        for _ in 0..20_000 {
            let mut pick = || {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let v = (x >> 33) as u16;
                // Sparse and dense masks alike.
                if v & 1 == 0 {
                    v >> 1 & (v >> 5) & 0xFFF
                } else {
                    v >> 1 & 0xFFF
                }
            };
            let lower: Lowering = std::array::from_fn(|_| pick());
            let tight = pick();
            let plain = (0..9).fold(0u64, |b, i| b | ((lower[i] & tight != 0) as u64) << i);
            assert_eq!(meeting(&lower, tight), plain, "{lower:?} {tight}");
        }
    }

    #[test]
    fn lower_mask_matches_a_plain_loop() {
        let mut x = 7u64;
        for _ in 0..10_000 {
            let mut pick = || {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                [0, 1, 2, 5, 13, 98, 99][(x >> 33) as usize % 7]
            };
            let (a, b): (Distances, Distances) = (std::array::from_fn(|_| pick()), std::array::from_fn(|_| pick()));
            let plain = (0..TARGETS).fold(0u16, |m, k| m | ((a[k] < b[k]) as u16) << k);
            assert_eq!(lower_mask(&a, &b), plain, "{a:?} {b:?}");
        }
    }

    #[test]
    fn a_fifth_copy_in_sight_is_an_error() {
        let e = Engine::standard(4);
        let mut seen = [0; KINDS];
        seen[0] = 2;
        assert!(analyze(&e, &hand("111m456p789s1234z5z"), Wilds::default(), &seen).is_err());
    }
}
