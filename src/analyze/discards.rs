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

use super::standard::Standard;
use super::{conclude, shape_with, Ready};
use crate::distance::{knitted_arrangement, knitted_rest, Check, KindMasks, INF, KNITTED, KNITTED_MASKS};
use crate::engine::Engine;
use crate::forms::View;
use crate::tiles::{self, Counts, Tile};

/// `visit(discard, (shanten, useful, waits))` for each kind of `concealed` (the hand's
/// concealed tiles, wild kinds included), in tile order: the same answers as [`shape`]
/// of the hand after that discard. `view` and `held` are the whole hand's.
pub fn discards(
    engine: &Engine,
    concealed: &Counts,
    view: &View,
    held: &Counts,
    wild_kinds: u64,
    left: &Counts,
    mut visit: impl FnMut(Tile, (i8, u64, u64)),
) {
    let forms = &engine.forms;
    let melds = (forms.melds - view.melds.count.min(forms.melds)) as usize;
    let pair_kinds = forms.pair_kinds;
    let standard_open = Check::Standard.open(forms, view);
    let mut standard = Standard::new(view, melds, pair_kinds);
    let whole = if standard_open { standard.distance() } else { INF };
    // The other checks on the whole hand, exact below `bound`: a hand left is at most one
    // further than the whole hand in the standard form, so a check at `bound` or beyond
    // cannot tie it.
    let masks = KindMasks::of(view);
    let bound = whole.saturating_add(2);
    let mut special: [(Check, u8); 11] = [(Check::Standard, INF); 11];
    let mut n = 0;
    // The knitted straight, arrangement by arrangement: one that the whole hand puts past
    // the least distance of a hand left cannot reach it there either. The rest beside an
    // arrangement (its melds and pair) is a standard form of its own, kept for the
    // discards as the whole hand's is.
    let mut knit = [INF; 6];
    let mut rests: [Option<Standard>; 6] = Default::default();
    for check in Check::ALL {
        if check != Check::Standard && check.open(forms, view) {
            let d = if check == Check::KnittedStraight {
                // An arrangement whose kinds not held already reach `bound` cannot come
                // under it, whatever its rest.
                knit = std::array::from_fn(|p| {
                    let lower = 9 - (masks.held[0] & KNITTED_MASKS[p]).count_ones() as u8;
                    if lower >= bound {
                        INF
                    } else {
                        knitted_arrangement(view, &masks, p, melds, pair_kinds)
                    }
                });
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
    // The hands a draw and a discard after each discard leave, found ready or not.
    let mut ready = Ready::default();
    for d in tiles::mask_tiles(tiles::kinds_mask(concealed)) {
        let du = d as usize;
        let mut h = *held;
        h[du] -= 1;
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
            visit(d, shape_with(engine, &v, &h, wild_kinds, left, &mut ready));
            continue;
        }
        let after = standard.without(du);
        let v = &after.view;
        let mut m = masks;
        m.held[v.counts[du] as usize] &= !(1u64 << d);
        let mut found: [(Check, u8); 11] = [(Check::Standard, INF); 11];
        let mut count = 0;
        let mut best = INF;
        if standard_open {
            found[0] = (Check::Standard, after.distance);
            count = 1;
            best = after.distance;
        }
        // The knitted straight of each arrangement within reach, for the hand left.
        let mut knit_left = [INF; 6];
        for &(check, whole) in &special[..n] {
            // The hand left is at this check's distance for the whole hand or one more.
            if whole > best {
                continue;
            }
            let dist = if check == Check::KnittedStraight {
                for p in (0..6).filter(|&p| knit[p] < INF && knit[p] <= best) {
                    knit_left[p] = if KNITTED_MASKS[p] >> d & 1 == 1 && view.counts[du] == 1 {
                        // The straight's only copy goes: its place is missing, the rest
                        // is as it was.
                        knit[p] + 1
                    } else {
                        let rest = rest_of(&mut rests, view, p, melds, pair_kinds);
                        let lower = 9 - (masks.held[0] & KNITTED_MASKS[p]).count_ones() as u8;
                        lower + rest.without(du).distance
                    };
                }
                knit_left.iter().copied().min().unwrap_or(INF)
            } else {
                check.distance_masked(forms, v, best.saturating_add(1), m)
            };
            best = best.min(dist);
            found[count] = (check, dist);
            count += 1;
        }
        let draws = |todo: u64, best: u8| standard.draws_after(&after, best, todo);
        // The knitted straight's draws at `best`: for each arrangement there, its kinds
        // not held and the draws that lower the rest beside it.
        let knitted = |todo: u64, best: u8| {
            let mut out = 0u64;
            for p in (0..6).filter(|&p| knit_left[p] == best) {
                out |= KNITTED_MASKS[p] & !m.held[0];
                let rest = rest_of(&mut rests, view, p, melds, pair_kinds);
                out |= if KNITTED_MASKS[p] >> d & 1 == 1 && view.counts[du] == 1 {
                    let standard = rest.distance();
                    rest.draws(standard, todo & !out)
                } else {
                    let left = rest.without(du);
                    rest.draws_after(&left, left.distance, todo & !out)
                };
            }
            out & todo
        };
        visit(d, conclude(engine, v, &h, wild_kinds, left, &found[..count], best, m, draws, knitted, &mut ready));
    }
}

/// The rest beside arrangement `p` of the knitted straight, counted when first asked.
fn rest_of<'a>(
    rests: &'a mut [Option<Standard>; 6],
    view: &View,
    p: usize,
    melds: usize,
    pair_kinds: u64,
) -> &'a mut Standard {
    rests[p].get_or_insert_with(|| Standard::new(&knitted_rest(view, &KNITTED[p], melds), melds - 3, pair_kinds))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::shape;
    use crate::engine::Wilds;
    use crate::forms::Forms;
    use crate::hand::{Hand, Meld, MeldKind};
    use crate::tiles::{ALL_KINDS, KINDS, SUITED_KINDS, WHITE};

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
        let changsha = Forms::changsha();
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
            let wilds = Wilds { kinds: wild_kinds, extra: 0, drawable: 0 };
            // Fewer hands in a debug build, where each costs some thirty times more.
            for _ in 0..if cfg!(debug_assertions) { 400 } else { 3000 } {
                let hand = deal(&mut rng, &engine);
                // Some copies seen elsewhere (half the hands), a kind now and then all of
                // them: the draws with no copy left are not tried, nor waits on them.
                let held = hand.held();
                let mut left = [0u8; KINDS];
                let some_seen = rng.below(2) == 0;
                for t in tiles::mask_tiles(engine.tiles) {
                    let t = t as usize;
                    let most = 4 - held[t];
                    let seen = if !some_seen || most == 0 {
                        0
                    } else if rng.below(5) == 0 {
                        most
                    } else {
                        rng.below(most as usize + 1) as u8
                    };
                    left[t] = most - seen;
                }
                let mut seen = Vec::new();
                discards(
                    &engine,
                    &hand.concealed,
                    &engine.view(&hand, wilds),
                    &hand.held(),
                    wild_kinds,
                    &left,
                    |d, r| seen.push((d, r)),
                );
                let mut alone = Vec::new();
                for d in tiles::mask_tiles(tiles::kinds_mask(&hand.concealed)) {
                    let mut h = hand.clone();
                    h.concealed[d as usize] -= 1;
                    alone.push((d, shape(&engine, &engine.view(&h, wilds), &h.held(), wild_kinds, &left)));
                }
                assert_eq!(seen, alone, "{} {}", engine.name, hand.notation());
            }
        }
    }
}
