//! Actions as integers: a fixed action space per ruleset, for learning code that wants a
//! mask over ids rather than dicts. Its first 235 ids are the layout of the Botzone
//! Chinese Standard Mahjong (MCR) baseline, so that its feature and model code plug in;
//! the rulesets that ask decisions MCR does not append their own ids after them.
//! docs/learning.md has the table.

use super::rules::Rules;
use super::state::Action;
use crate::tiles::{self, Tile, KINDS};

/// The first id of each block of the baseline layout.
pub const PASS: usize = 0;
pub const WIN: usize = 1;
pub const DISCARD: usize = 2;
/// 63 chows: suit (W T B) x middle rank 2-8 x which of the three tiles was claimed.
pub const CHOW: usize = 36;
pub const PUNG: usize = 99;
pub const KONG: usize = 133;
pub const CONCEALED_KONG: usize = 167;
pub const ADDED_KONG: usize = 201;
/// The size of the baseline layout: where a ruleset's own ids begin.
pub const BASE: usize = 235;

/// A tile's index in the baseline's tile order: W1-9, T1-9, B1-9, F1-4, J1-3, that is
/// haidi's m, s, p (W 万 = m, T 条 = s, B 饼 = p), the winds, then 中 發 白 (7z 6z 5z). The
/// map is its own inverse.
pub fn baseline_index(t: Tile) -> usize {
    let t = t as usize;
    match t {
        0..=8 | 27..=30 => t,
        9..=17 => t + 9,
        18..=26 => t - 9,
        _ => 64 - t, // 31 白 <-> 33, 32 發 stays
    }
}

/// The chow suits in the baseline's order (W T B), as haidi's first kind of each.
const CHOW_SUITS: [Tile; 3] = [0, 18, 9];

/// The action space of one ruleset: the baseline's 235 ids, then `take` (海底) where the
/// ruleset offers the 海底 tile, then 34 `open_ready` (明听 with its discard) where it
/// lets a hand be laid open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActionSpace {
    pub take: bool,
    pub open_ready: bool,
}

impl ActionSpace {
    pub fn of(rules: &Rules) -> ActionSpace {
        ActionSpace { take: rules.haidi, open_ready: rules.open_ready }
    }

    /// How many ids there are.
    pub fn size(&self) -> usize {
        BASE + self.take as usize + KINDS * self.open_ready as usize
    }

    fn open_base(&self) -> usize {
        BASE + self.take as usize
    }

    /// The id of `action`; `offer` is the tile on offer, which a chow, pung or kong on a
    /// discard needs (their ids name it). None for an action this space has no id for.
    pub fn id(&self, action: Action, offer: Option<Tile>) -> Option<usize> {
        Some(match action {
            Action::Pass => PASS,
            Action::Win => WIN,
            Action::Discard(t) => DISCARD + baseline_index(t),
            Action::Chow(low) => {
                let claimed = offer?;
                let suit = CHOW_SUITS.iter().position(|&s| (s..s + 7).contains(&low))?;
                if !(low..low + 3).contains(&claimed) {
                    return None;
                }
                let middle = tiles::rank(low) as usize + 1;
                CHOW + suit * 21 + (middle - 2) * 3 + (claimed - low) as usize
            }
            Action::Pung => PUNG + baseline_index(offer?),
            Action::Kong => KONG + baseline_index(offer?),
            Action::ConcealedKong(t) => CONCEALED_KONG + baseline_index(t),
            Action::AddedKong(t) => ADDED_KONG + baseline_index(t),
            Action::Take if self.take => BASE,
            Action::OpenReady(t) if self.open_ready => self.open_base() + t as usize,
            Action::Take | Action::OpenReady(_) => return None,
        })
    }

    /// The action of `id`, and the tile on offer it names (a chow's, pung's or kong's on
    /// a discard); None for an id out of range.
    pub fn action(&self, id: usize) -> Option<(Action, Option<Tile>)> {
        let tile = |base: usize| baseline_index((id - base) as Tile) as Tile;
        Some(match id {
            PASS => (Action::Pass, None),
            WIN => (Action::Win, None),
            DISCARD..CHOW => (Action::Discard(tile(DISCARD)), None),
            CHOW..PUNG => {
                let k = id - CHOW;
                let (suit, middle, which) = (k / 21, k % 21 / 3 + 2, k % 3);
                let low = CHOW_SUITS[suit] + middle as Tile - 2;
                (Action::Chow(low), Some(low + which as Tile))
            }
            PUNG..KONG => (Action::Pung, Some(tile(PUNG))),
            KONG..CONCEALED_KONG => (Action::Kong, Some(tile(KONG))),
            CONCEALED_KONG..ADDED_KONG => (Action::ConcealedKong(tile(CONCEALED_KONG)), None),
            ADDED_KONG..BASE => (Action::AddedKong(tile(ADDED_KONG)), None),
            BASE if self.take => (Action::Take, None),
            _ if self.open_ready && (self.open_base()..self.open_base() + KINDS).contains(&id) => {
                (Action::OpenReady((id - self.open_base()) as Tile), None)
            }
            _ => return None,
        })
    }

    /// A short name of `id`: `"discard 5m"`, `"chow 345m on 4m"`, `"pung 5m"` ...
    pub fn name(&self, id: usize) -> Option<String> {
        let (a, offer) = self.action(id)?;
        Some(match (a, offer) {
            (Action::Chow(low), Some(c)) => {
                let three: Vec<Tile> = (low..low + 3).collect();
                format!("chow {} on {}", tiles::tiles_to_string(&three), tiles::name(c))
            }
            (_, Some(t)) => format!("{} {}", a.name(), tiles::name(t)),
            (_, None) => match a.tile() {
                Some(t) => format!("{} {}", a.name(), tiles::name(t)),
                None => a.name().to_string(),
            },
        })
    }

    /// Sets `mask[id]` for each of `legal` (`mask` cleared first, of [`ActionSpace::size`]).
    pub fn mask(&self, legal: &[Action], offer: Option<Tile>, mask: &mut [bool]) {
        mask.fill(false);
        for &a in legal {
            if let Some(id) = self.id(a, offer) {
                mask[id] = true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_baseline_tile_order_is_w_t_b_then_winds_then_red_green_white() {
        // W1 = 1m, T1 = 1s, B1 = 1p, F1 = 1z (East), J1 = 7z (中), J3 = 5z (白).
        assert_eq!(baseline_index(0), 0);
        assert_eq!(baseline_index(18), 9);
        assert_eq!(baseline_index(9), 18);
        assert_eq!(baseline_index(27), 27);
        assert_eq!(baseline_index(33), 31);
        assert_eq!(baseline_index(32), 32);
        assert_eq!(baseline_index(31), 33);
        for t in 0..KINDS as Tile {
            assert_eq!(baseline_index(baseline_index(t) as Tile), t as usize);
        }
    }

    #[test]
    fn every_id_reads_back_to_itself() {
        for space in [
            ActionSpace { take: false, open_ready: false },
            ActionSpace { take: true, open_ready: false },
            ActionSpace { take: false, open_ready: true },
            ActionSpace { take: true, open_ready: true },
        ] {
            for id in 0..space.size() {
                let (a, offer) = space.action(id).unwrap();
                assert_eq!(space.id(a, offer), Some(id), "{id} {a:?}");
                assert!(space.name(id).is_some());
            }
            assert_eq!(space.action(space.size()), None);
        }
    }

    #[test]
    fn chows_follow_the_baseline_formula() {
        let s = ActionSpace { take: false, open_ready: false };
        // W3 claimed into W3-W4-W5 (middle W4): 36 + 0*21 + (4-2)*3 + 0.
        assert_eq!(s.id(Action::Chow(2), Some(2)), Some(42));
        // T7 claimed into T5-T6-T7: middle 6, the third tile.
        assert_eq!(s.id(Action::Chow(18 + 4), Some(18 + 6)), Some(36 + 21 + 4 * 3 + 2));
        // B2 claimed into B1-B2-B3: middle 2, the second tile.
        assert_eq!(s.id(Action::Chow(9), Some(10)), Some(36 + 42 + 1));
        assert_eq!(s.id(Action::Chow(9), Some(13)), None);
        assert_eq!(s.id(Action::Pung, Some(33)), Some(99 + 31));
        assert_eq!(s.size(), 235);
        assert_eq!(ActionSpace { take: true, open_ready: true }.size(), 270);
    }
}
