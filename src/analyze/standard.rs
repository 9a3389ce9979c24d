//! The standard form of one hand, kept for every discard and draw that changes it by a
//! tile: each group's distances, every two groups and every three combined, and the
//! draws that lower each group's distances, worked out when first asked. A discard
//! changes one group, so the hand left is that group's new distances joined with the
//! other three; its useful draws need the draws of the other groups again, which are
//! kept. The whole hand ([`super::shape`]), each discard ([`super::discards`]) and the
//! rest beside each arrangement of the knitted straight use it alike.

use super::{lowering, standard_draws};
use crate::distance::{convolve, group_distances, join, INF};
use crate::forms::View;
use crate::tables::{Distances, Lowering, TARGETS};

pub(super) struct Standard {
    /// The hand whose standard form this is.
    view: View,
    /// Melds to make in the concealed part.
    melds: usize,
    pair_kinds: u64,
    groups: [Distances; 4],
    /// `pairs[a][b]`: groups a and b combined.
    pairs: [[Distances; 4]; 4],
    /// `others[g]`: the three groups but g combined.
    others: [Distances; 4],
    kept: [Option<Lowering>; 4],
}

/// The group of a (non-wild) kind.
pub(super) fn group_of(kind: usize) -> usize {
    (kind / 9).min(3)
}

impl Standard {
    pub(super) fn new(view: &View, melds: usize, pair_kinds: u64) -> Standard {
        let groups = [0, 1, 2, 3].map(|g| group_distances(view, g, pair_kinds));
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
        Standard { view: view.clone(), melds, pair_kinds, groups, pairs, others, kept: [None; 4] }
    }

    /// The distance of the whole hand.
    pub(super) fn distance(&self) -> u8 {
        join(&self.groups[0], &self.others[0], self.melds)
    }

    /// The hand with one tile of kind `d` gone (held): its view, the group changed, that
    /// group's distances and the hand's distance.
    pub(super) fn without(&self, d: usize) -> After {
        let g = group_of(d);
        let mut view = self.view.clone();
        view.counts[d] -= 1;
        let dist = group_distances(&view, g, self.pair_kinds);
        let distance = join(&dist, &self.others[g], self.melds);
        After { view, g, dist, distance }
    }

    /// Draws of `todo` that bring the whole hand below `best`.
    pub(super) fn draws(&mut self, best: u8, todo: u64) -> u64 {
        let Standard { view, pair_kinds, groups, others, kept, melds, .. } = self;
        standard_draws(groups, others, *melds, best, todo, |o| {
            *kept[o].get_or_insert_with(|| lowering(view, o, *pair_kinds, &groups[o]))
        })
    }

    /// Draws of `todo` that bring the hand left `after` (see [`Standard::without`]) below
    /// `best`.
    pub(super) fn draws_after(&mut self, after: &After, best: u8, todo: u64) -> u64 {
        let g = after.g;
        let mut dist = self.groups;
        dist[g] = after.dist;
        let mut rest = [self.others[g]; 4];
        for (o, slot) in rest.iter_mut().enumerate() {
            if o != g {
                let (a, b) = two_others(g, o);
                *slot = convolve(&after.dist, &self.pairs[a][b], self.melds);
            }
        }
        let Standard { view, pair_kinds, groups, kept, .. } = self;
        standard_draws(&dist, &rest, self.melds, best, todo, |o| {
            if o == g {
                lowering(&after.view, g, *pair_kinds, &after.dist)
            } else {
                *kept[o].get_or_insert_with(|| lowering(view, o, *pair_kinds, &groups[o]))
            }
        })
    }
}

/// A hand with one tile gone, as [`Standard::without`] gives it.
pub(super) struct After {
    pub view: View,
    /// The group of the kind gone, and its distances now.
    g: usize,
    dist: Distances,
    /// The standard form's distance of the hand left.
    pub distance: u8,
}

/// The two groups that are neither `a` nor `b`.
fn two_others(a: usize, b: usize) -> (usize, usize) {
    let mut rest = (0..4).filter(|&x| x != a && x != b);
    (rest.next().unwrap_or(0), rest.next().unwrap_or(0))
}
