//! [`shape`] after every discard of a hand with a tile to discard (14/17), from what the
//! discards share rather than each hand left counted afresh.
//!
//! A discard changes one group (a suit or the honours): the standard form's distance is
//! that group's new distances joined with the other three, combined once for the whole
//! hand; and the draws that lower a group's distances are worked out once per group
//! state, so the groups a discard leaves alone are not tried again draw by draw. A
//! form's distance rises by at most one when a tile goes (the target keeps every other
//! tile), so a form that the whole hand already puts past the standard form of the hand
//! left is not counted again.

use super::{conclude, lowering, shape, standard_draws, table_lowering, Lowering};
use crate::distance::{convolve, group_distances, join, knitted_arrangement, Check, KindMasks, GROUPS};
use crate::engine::Engine;
use crate::forms::View;
use crate::tables::{self, Table, TARGETS};
use crate::tiles::{self, Counts, Tile, KINDS};

const INF: u8 = 99;

/// `visit(discard, (shanten, useful, waits))` for each kind of `concealed` (the hand's
/// concealed tiles, wild kinds included), in tile order: the same answers as [`shape`]
/// of the hand after that discard. `view` and `held` are the whole hand's.
pub fn discards(
    engine: &Engine,
    concealed: &Counts,
    view: &View,
    held: &Counts,
    wild_kinds: u64,
    avail: u64,
    mut visit: impl FnMut(Tile, (i8, u64, u64)),
) {
    let forms = &engine.forms;
    let melds = (forms.melds - view.melds.count.min(forms.melds)) as usize;
    let pair_kinds = forms.pair_kinds;
    let standard_open = Check::Standard.open(forms, view);
    let groups = [0, 1, 2, 3].map(|g| group_distances(view, g, pair_kinds));
    // pairs[a][b]: groups a and b combined; others[g]: the three groups but g.
    let mut pairs = [[[INF; TARGETS]; 4]; 4];
    for a in 0..4 {
        for b in a + 1..4 {
            pairs[a][b] = convolve(&groups[a], &groups[b], melds);
            pairs[b][a] = pairs[a][b];
        }
    }
    let others = [
        convolve(&groups[1], &pairs[2][3], melds),
        convolve(&groups[0], &pairs[2][3], melds),
        convolve(&pairs[0][1], &groups[3], melds),
        convolve(&pairs[0][1], &groups[2], melds),
    ];
    let whole = if standard_open { join(&groups[0], &others[0], melds) } else { INF };
    // The other checks on the whole hand, exact below `bound`: a hand left is at most one
    // further than the whole hand in the standard form, so a check at `bound` or beyond
    // cannot tie it.
    let masks = KindMasks::of(view);
    let bound = whole.saturating_add(2);
    let mut special: [(Check, u8); 11] = [(Check::Standard, INF); 11];
    let mut n = 0;
    // The knitted straight, arrangement by arrangement: one that the whole hand puts past
    // the least distance of a hand left cannot reach it there either.
    let mut knit = [INF; 6];
    for check in Check::ALL {
        if check != Check::Standard && check.open(forms, view) {
            let d = if check == Check::KnittedStraight {
                knit = std::array::from_fn(|p| knitted_arrangement(view, &masks, p, melds, pair_kinds));
                knit.iter().copied().min().unwrap_or(INF)
            } else {
                check.distance_masked(forms, view, bound, masks)
            };
            if d < bound {
                special[n] = (check, d);
                n += 1;
            }
        }
    }
    let mut kept: [Option<Lowering>; 4] = [None; 4];
    // Groups that read the precomputed table, and their indexes in it: a discard moves
    // the index down by a power of five.
    let plain = GROUPS.map(|(lo, hi)| {
        let group_mask = ((1u64 << (hi - lo)) - 1) << lo;
        view.caps[lo..hi].iter().all(|&c| c == 4) && pair_kinds & group_mask == group_mask
    });
    let index = GROUPS.map(|(lo, hi)| Table::index(&view.counts[lo..hi]));
    for d in tiles::mask_tiles(concealed_mask(concealed)) {
        let du = d as usize;
        if wild_kinds >> d & 1 == 1 {
            // A wild goes: every group keeps its tiles but the wilds, and the caps that
            // count the wilds (`Forms::wilds_beyond_copies`) come down with them.
            let mut v = view.clone();
            v.wilds -= 1;
            if forms.wilds_beyond_copies {
                for t in tiles::mask_tiles(engine.tiles) {
                    v.caps[t as usize] -= 1;
                }
            }
            let mut h = *held;
            h[du] -= 1;
            visit(d, shape(engine, &v, &h, wild_kinds, avail));
            continue;
        }
        let g = GROUPS.iter().position(|&(lo, hi)| (lo..hi).contains(&du)).unwrap_or(3);
        let mut v = view.clone();
        v.counts[du] -= 1;
        let mut h = *held;
        h[du] -= 1;
        let mut m = masks;
        m.held[v.counts[du] as usize] &= !(1u64 << d);
        let (lo, hi) = GROUPS[g];
        let table = if g < 3 { tables::suit() } else { tables::honours() };
        let left_index = index[g] - tables::POW5[du - lo];
        let left = if plain[g] { table.dist[left_index] } else { group_distances(&v, g, pair_kinds) };
        let standard = if standard_open { join(&left, &others[g], melds) } else { INF };
        let mut found: [(Check, u8); 11] = [(Check::Standard, INF); 11];
        let mut count = 0;
        let mut best = INF;
        let mut arrangements = 0u8;
        if standard_open {
            found[0] = (Check::Standard, standard);
            count = 1;
            best = standard;
        }
        for &(check, whole) in &special[..n] {
            // The hand left is at this check's distance for the whole hand or one more.
            if whole > best {
                continue;
            }
            let dist = if check == Check::KnittedStraight {
                arrangements = (0..6).filter(|&p| knit[p] <= best).fold(0, |a, p| a | 1 << p);
                (0..6)
                    .filter(|&p| arrangements >> p & 1 == 1)
                    .map(|p| knitted_arrangement(&v, &m, p, melds, pair_kinds))
                    .min()
                    .unwrap_or(INF)
            } else {
                check.distance_masked(forms, &v, best.saturating_add(1), m)
            };
            best = best.min(dist);
            found[count] = (check, dist);
            count += 1;
        }
        let mut dist = groups;
        dist[g] = left;
        let draws = |todo: u64, best: u8| {
            let mut rest = [others[g]; 4];
            for (o, slot) in rest.iter_mut().enumerate() {
                if o != g {
                    let (a, b) = two_others(g, o);
                    *slot = convolve(&left, &pairs[a][b], melds);
                }
            }
            standard_draws(&dist, &rest, melds, best, todo, |o| {
                if o == g && plain[g] {
                    table_lowering(g, &v.counts[lo..hi], left_index, &left)
                } else if o == g {
                    lowering(&v, o, pair_kinds, &left)
                } else {
                    *kept[o].get_or_insert_with(|| lowering(view, o, pair_kinds, &groups[o]))
                }
            })
        };
        visit(d, conclude(engine, &v, &h, wild_kinds, avail, &found[..count], best, m, arrangements, draws));
    }
}

/// Kinds with a tile.
fn concealed_mask(counts: &Counts) -> u64 {
    (0..KINDS).filter(|&t| counts[t] > 0).fold(0, |m, t| m | 1 << t)
}

/// The two groups that are neither `a` nor `b`.
fn two_others(a: usize, b: usize) -> (usize, usize) {
    let mut rest = (0..4).filter(|&x| x != a && x != b);
    (rest.next().unwrap_or(0), rest.next().unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Wilds;
    use crate::forms::Forms;
    use crate::hand::{Hand, Meld, MeldKind};
    use crate::tiles::{ALL_KINDS, KINDS_258, SUITED_KINDS, WHITE};

    /// A small deterministic generator (xorshift), so that a failure can be replayed.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    /// A hand of `melds * 3 + 2` tiles from the engine's tiles, up to two of them declared
    /// melds, drawn from a wall that is sometimes narrowed to a few kinds so that pairs,
    /// pungs and near-complete shapes turn up.
    fn deal(rng: &mut Rng, engine: &Engine) -> Hand {
        let kinds: Vec<usize> = (0..KINDS).filter(|&t| engine.tiles >> t & 1 == 1).collect();
        let narrow = rng.below(3) == 0;
        let pool: Vec<usize> = if narrow {
            let lo = rng.below(kinds.len() - 12);
            kinds[lo..lo + 12].to_vec()
        } else {
            kinds
        };
        let mut wall: Vec<usize> = pool.iter().flat_map(|&t| [t; 4]).collect();
        let mut hand = Hand::default();
        let declared = [0, 0, 1, 2][rng.below(4)];
        for _ in 0..declared {
            let t = pool[rng.below(pool.len())];
            let chow = t < 27 && t % 9 < 7 && rng.below(2) == 0;
            let need: Vec<usize> = if chow { vec![t, t + 1, t + 2] } else { vec![t; 3] };
            let mut taken = Vec::new();
            for &x in &need {
                if let Some(i) = wall.iter().position(|&w| w == x) {
                    taken.push(wall.swap_remove(i));
                }
            }
            if taken.len() == 3 {
                let kind = if chow { MeldKind::Chow } else { MeldKind::Pung };
                hand.melds.push(Meld { kind, tile: t as Tile, from: Some(1) });
            } else {
                wall.extend(taken);
            }
        }
        let size = engine.forms.melds as usize * 3 + 2 - 3 * hand.melds.len();
        for _ in 0..size {
            let i = rng.below(wall.len());
            hand.concealed[wall.swap_remove(i)] += 1;
        }
        hand
    }

    fn engines() -> Vec<(Engine, u64)> {
        let mcr = Forms::mcr();
        let changsha = Forms {
            pair_kinds: KINDS_258,
            seven_pairs: true,
            four_as_two_pairs: true,
            all_pungs_any_pair: true,
            one_suit_any_pair: true,
            all_258: true,
            ..Forms::standard(4)
        };
        let longgang = Forms {
            eight_pairs_and_a_half: true,
            four_as_two_pairs: true,
            wilds_beyond_copies: true,
            ..Forms::standard(5)
        };
        let tangshan =
            Forms { seven_pairs: true, four_as_two_pairs: true, thirteen_orphans: true, ..Forms::standard(4) };
        vec![
            (Engine::new("mcr", mcr, ALL_KINDS), 0),
            (Engine::new("changsha", changsha, SUITED_KINDS), 0),
            (Engine::new("longgang", longgang, ALL_KINDS & !(1 << WHITE)), 1 << 4),
            (Engine::new("tangshan", tangshan.clone(), ALL_KINDS), 1 << 33),
            (Engine::new("plain", tangshan, ALL_KINDS), 0),
        ]
    }

    #[test]
    fn shared_discards_answer_as_each_hand_left_alone() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for (engine, wild_kinds) in engines() {
            let wilds = Wilds { kinds: wild_kinds, extra: 0 };
            // Fewer hands in a debug build, where each costs some thirty times more.
            for _ in 0..if cfg!(debug_assertions) { 400 } else { 3000 } {
                let hand = deal(&mut rng, &engine);
                // Some kinds seen elsewhere: the draws with no copy left are not tried.
                let avail = (0..KINDS).filter(|_| rng.below(5) != 0).fold(engine.tiles, |m, t| m & !(1 << t));
                let avail = if rng.below(2) == 0 { engine.tiles } else { avail };
                // A kind held four times has no copy left to draw.
                let held = hand.held();
                let avail = (0..KINDS).filter(|&t| held[t] >= 4).fold(avail, |m, t| m & !(1 << t));
                let mut seen = Vec::new();
                discards(
                    &engine,
                    &hand.concealed,
                    &engine.view(&hand, wilds),
                    &hand.held(),
                    wild_kinds,
                    avail,
                    |d, r| seen.push((d, r)),
                );
                let mut alone = Vec::new();
                for d in tiles::mask_tiles(concealed_mask(&hand.concealed)) {
                    let mut h = hand.clone();
                    h.concealed[d as usize] -= 1;
                    alone.push((d, shape(&engine, &engine.view(&h, wilds), &h.held(), wild_kinds, avail)));
                }
                assert_eq!(seen, alone, "{} {}", engine.name, hand.notation());
            }
        }
    }
}
