//! Observations as numbers for learning, by version: planes of 34 columns (`uint8`),
//! column k the tile kind k (`haidi.tile_names()` order) unless a plane says otherwise,
//! seats counted from the observer (0 itself, 1 the next seat, 2 opposite, 3 the one
//! before). Everything is read through [`SeatView`], so an encoding shows a seat what it
//! may know and nothing more. `"v0"` is the first 11-plane encoding; `"v1"` is complete
//! (docs/learning.md lists each plane); `"v2"` adds the analysis of the seat's own hand.
//! Each writes into a caller's buffer, so that many games can be encoded into one array.

use super::view::{Decision, SeatView};
use crate::hand::MeldKind;
use crate::tiles::{bits, KINDS};

/// The encodings by name, and their plane counts.
pub const VERSIONS: [(&str, usize); 3] = [("v0", V0_PLANES), ("v1", V1_PLANES), ("v2", V2_PLANES)];

pub const V0_PLANES: usize = 11;

/// The blocks of planes of `"v1"`, in order: name, planes, what they hold.
pub const V1_BLOCKS: &[(&str, usize, &str)] = &[
    ("hand", 4, "own concealed tiles: plane k is 1 where it holds more than k copies"),
    ("drawn", 1, "the tile it drew for this decision (1 at its kind)"),
    (
        "melds",
        32,
        "8 planes a seat: chow tiles (copies), pung kinds, exposed kongs (明杠, 加杠), concealed kongs whose kind it sees, \
         hidden concealed kongs (their number in every column), then the tile claimed from the melder's next seat, \
         opposite seat and seat before (copies)",
    ),
    (
        "discards",
        136,
        "34 planes a seat: its discards in order (plane i: 1 at the kind of its discard i, the first 32), \
         all its discards (copies), its discards that were claimed (copies)",
    ),
    ("offer", 1, "the tile on offer: a discard, a kong being added or made, the 海底 tile shown (1 at its kind)"),
    ("offer_from", 1, "the seat offering it (1 in column = its seat from the observer)"),
    ("decision", 1, "the decision asked of this seat (1 in column = its kind, `DECISIONS`); none: all 0"),
    ("seat_wind", 1, "its seat wind (1 in column 0-3: E S W N)"),
    ("round_wind", 1, "the prevailing wind (1 in column 0-3)"),
    ("dealer", 1, "the dealer (1 in column = its seat from the observer)"),
    ("streak", 1, "the dealer's streak (连庄) in every column, up to 255"),
    ("left", 1, "tiles left to draw, in every column, up to 255"),
    ("flowers", 4, "each seat's flowers it sees (1 in column f for flower f+1)"),
    ("held", 1, "tiles each seat holds concealed (column = its seat from the observer)"),
    ("wilds", 1, "the wild kinds (1)"),
    ("indicator", 1, "the tile turned up for the wilds (1 at its kind)"),
    ("flower_wilds", 1, "the flower turned up when every flower is wild (1 in column f)"),
    ("open", 4, "each seat's hand laid open (明听), copies"),
    (
        "state",
        1,
        "column 0: 漏胡 in force for it; 1: a go-round whose discards all follow the dealer's is under way (跟庄, 烧庄); \
         2: it laid its hand open; 3: it took the 海底 tile; 4: go-rounds followed until now; \
         5: the ruleset shows concealed kongs' kinds",
    ),
    ("follow", 1, "the tile the go-round under way follows (1 at its kind)"),
    ("passed_pungs", 1, "kinds whose pung it let go since its draw (过水碰)"),
    ("chow_barred", 1, "kinds it discarded since its draw, which it may not chow"),
];

pub const V1_PLANES: usize = 197;

/// The blocks `"v2"` adds after those of `"v1"`: the analysis engine's reading of the
/// seat's own hand against the tiles it sees (`crate::analyze`, the greedy agent's
/// measures). "With a discard" is a hand holding a tile to discard (3n+2 tiles).
pub const V2_BLOCKS: &[(&str, usize, &str)] = &[
    (
        "shanten",
        1,
        "with a discard: 1 + the shanten (向听, 0 ready) left after discarding kind k, 0 where k is not held; \
         otherwise 1 + the hand's shanten in every column",
    ),
    ("useful", 1, "as `shanten`: the unseen copies of the kinds whose draw lowers the shanten, up to 255"),
    ("winning", 1, "as `shanten`: the unseen copies of the waits that score a win, up to 255"),
    ("useful_kinds", 1, "without a discard: 1 at the kinds whose draw lowers the shanten; with one: all 0"),
];

pub const V2_PLANES: usize = V1_PLANES + 4;

/// Plane counts of the encoding `version`; None for a name not known.
pub fn planes(version: &str) -> Option<usize> {
    VERSIONS.iter().find(|(n, _)| *n == version).map(|&(_, p)| p)
}

/// Writes the encoding `version` of `view` into `out` (planes x 34, cleared first);
/// false for a version not known or a buffer not of its size.
pub fn encode(version: &str, view: &SeatView<'_>, out: &mut [u8]) -> bool {
    match planes(version) {
        Some(p) if out.len() == p * KINDS => {}
        _ => return false,
    }
    out.fill(0);
    match version {
        "v0" => v0(view, out),
        "v1" => v1(view, out),
        _ => {
            let (v1_part, rest) = out.split_at_mut(V1_PLANES * KINDS);
            v1(view, v1_part);
            analysis(view, rest);
        }
    }
    true
}

fn others(view: &SeatView<'_>) -> impl Iterator<Item = (usize, u8)> {
    let s = view.seat();
    (0..4u8).map(move |r| (r as usize, (s + r) % 4))
}

/// The first encoding: own tiles, each seat's melded tiles and discards, wilds, indicator.
fn v0(view: &SeatView<'_>, out: &mut [u8]) {
    let row = |p: usize| p * KINDS;
    out[..KINDS].copy_from_slice(view.hand());
    for (r, o) in others(view) {
        for m in view.melds(o) {
            if let Some(t) = m.tile {
                let meld = crate::hand::Meld { kind: m.kind, tile: t, from: None };
                for k in meld.tiles() {
                    out[row(1 + r) + k as usize] += 1;
                }
            }
        }
        for &(t, _) in view.rivers(o) {
            out[row(5 + r) + t as usize] += 1;
        }
    }
    for t in bits(view.wild_kinds()) {
        out[row(9) + t] = 1;
    }
    if let Some(t) = view.indicator() {
        out[row(10) + t as usize] = 1;
    }
}

fn v1(view: &SeatView<'_>, out: &mut [u8]) {
    let s = view.seat();
    let rel = |o: u8| ((o + 4 - s) % 4) as usize;
    let mut p = 0usize;
    let mut plane = |n: usize| {
        let at = p;
        p += n;
        at
    };
    let at = |plane: usize, col: usize| plane * KINDS + col;
    let fill = |out: &mut [u8], plane: usize, v: usize| out[plane * KINDS..(plane + 1) * KINDS].fill(v.min(255) as u8);

    let hand = plane(4);
    for (t, &c) in view.hand().iter().enumerate() {
        for k in 0..c.min(4) as usize {
            out[at(hand + k, t)] = 1;
        }
    }
    let drawn = plane(1);
    if let Some(d) = view.drawn().filter(|&d| (d as usize) < KINDS) {
        out[at(drawn, d as usize)] = 1;
    }
    let melds = plane(32);
    for (r, o) in others(view) {
        let base = melds + 8 * r;
        for m in view.melds(o) {
            match (m.kind, m.tile) {
                (MeldKind::Chow, Some(t)) => (t..t + 3).for_each(|k| out[at(base, k as usize)] += 1),
                (MeldKind::Pung, Some(t)) => out[at(base + 1, t as usize)] = 1,
                (MeldKind::Kong | MeldKind::AddedKong, Some(t)) => out[at(base + 2, t as usize)] = 1,
                (MeldKind::ConcealedKong, Some(t)) => out[at(base + 3, t as usize)] = 1,
                (_, None) => (0..KINDS).for_each(|k| out[at(base + 4, k)] += 1),
            }
            if let (Some(f), Some(c)) = (m.from, m.claimed) {
                let by = ((f + 4 - o) % 4) as usize; // 1 next, 2 opposite, 3 before
                out[at(base + 4 + by, c as usize)] += 1;
            }
        }
    }
    let discards = plane(136);
    for (r, o) in others(view) {
        let base = discards + 34 * r;
        for (i, &(t, claimed)) in view.rivers(o).iter().enumerate() {
            if i < 32 {
                out[at(base + i, t as usize)] = 1;
            }
            out[at(base + 32, t as usize)] += 1;
            out[at(base + 33, t as usize)] += claimed as u8;
        }
    }
    let offer = plane(1);
    let offer_from = plane(1);
    if let Some((t, from, _)) = view.offer() {
        out[at(offer, t as usize)] = 1;
        out[at(offer_from, rel(from))] = 1;
    }
    let decision = plane(1);
    if let Some(d) = view.decision() {
        out[at(decision, Decision::kind(d))] = 1;
    }
    let seat_wind = plane(1);
    out[at(seat_wind, (s + 4 - view.dealer()) as usize % 4)] = 1;
    let round_wind = plane(1);
    out[at(round_wind, view.round_wind() as usize)] = 1;
    let dealer = plane(1);
    out[at(dealer, rel(view.dealer()))] = 1;
    let streak = plane(1);
    fill(out, streak, view.streak() as usize);
    let left = plane(1);
    fill(out, left, view.drawable());
    let flowers = plane(4);
    let held = plane(1);
    for (r, o) in others(view) {
        for k in bits(view.flowers(o) as u64) {
            out[at(flowers + r, k)] = 1;
        }
        out[at(held, r)] = view.tiles_held(o).min(255) as u8;
    }
    let wilds = plane(1);
    for t in bits(view.wild_kinds()) {
        out[at(wilds, t)] = 1;
    }
    let indicator = plane(1);
    if let Some(t) = view.indicator() {
        out[at(indicator, t as usize)] = 1;
    }
    let flower_wilds = plane(1);
    if let Some(f) = view.flower_wilds() {
        out[at(flower_wilds, f as usize)] = 1;
    }
    let open = plane(4);
    for (r, o) in others(view) {
        if let Some(c) = view.open_hand(o) {
            out[at(open + r, 0)..at(open + r + 1, 0)].copy_from_slice(&c);
        }
    }
    let state = plane(1);
    let (rounds, lead) = view.followed();
    out[at(state, 0)] = view.passed_win() as u8;
    out[at(state, 1)] = lead.is_some() as u8;
    out[at(state, 2)] = view.is_open(s) as u8;
    out[at(state, 3)] = (view.haidi_taker() == Some(s)) as u8;
    out[at(state, 4)] = rounds;
    out[at(state, 5)] = view.concealed_kongs_shown() as u8;
    let follow = plane(1);
    if let Some(t) = lead {
        out[at(follow, t as usize)] = 1;
    }
    let passed = plane(1);
    let barred = plane(1);
    for t in bits(view.passed_pungs()) {
        out[at(passed, t)] = 1;
    }
    for t in bits(view.discarded_since_draw()) {
        out[at(barred, t)] = 1;
    }
    debug_assert_eq!(plane(0), V1_PLANES);
}

/// The blocks of `V2_BLOCKS`; all 0 where the hand cannot be analysed (none is dealt).
fn analysis(view: &SeatView<'_>, out: &mut [u8]) {
    let Ok(entries) = view.analysis() else {
        return;
    };
    let cap = |n: u32| n.min(255) as u8;
    let (shanten, rest) = out.split_at_mut(KINDS);
    let (useful, rest) = rest.split_at_mut(KINDS);
    let (winning, kinds) = rest.split_at_mut(KINDS);
    for e in &entries {
        let row = (1 + e.shanten).max(0) as u8;
        let (useful_n, winning_n) = (cap(e.useful_count), cap(e.winning_count));
        match e.discard {
            Some(d) => {
                let d = d as usize;
                (shanten[d], useful[d], winning[d]) = (row, useful_n, winning_n);
            }
            None => {
                shanten.fill(row);
                useful.fill(useful_n);
                winning.fill(winning_n);
                for (t, k) in kinds.iter_mut().enumerate() {
                    *k = (e.useful >> t & 1) as u8;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_blocks_add_up_to_the_planes() {
        assert_eq!(V1_BLOCKS.iter().map(|b| b.1).sum::<usize>(), V1_PLANES);
        assert_eq!(V1_PLANES + V2_BLOCKS.iter().map(|b| b.1).sum::<usize>(), V2_PLANES);
    }
}
