//! What the patterns ask about: the facts of one arrangement with the winning tile
//! placed, worked out once as counts and kind masks, and the facts of the situation.

use super::arrange::Form;
use super::group::{Group, Placement, Role, Shape};
use crate::inline::Inline;
use crate::tiles::{Tile, RED, WHITE};

/// The situation as the patterns see it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Situation {
    /// The ruleset's named flags (自摸, 杠上开花 ...), by bit.
    pub flags: u32,
    /// Seat 0-3, seat 0 the dealer (East), and whether the situation named it.
    pub seat: u8,
    pub seat_given: bool,
    /// The prevalent wind 0-3.
    pub round: u8,
    /// The seat that discarded the winning tile, when known.
    pub discarder: Option<u8>,
    /// Wild kinds (财神 / 混 / 惠牌).
    pub wild_kinds: u64,
    /// Copies of the wild kinds held concealed, the winning tile and a concealed kong's
    /// included (a claimed meld's copies are plain tiles).
    pub wild_tiles: u8,
    /// Other wild tiles held: flowers playing as wilds (a seat flower, or every flower
    /// when the wilds are flowers).
    pub extra_wilds: u8,
    /// The wilds are flowers (Longgang's 花财神).
    pub flower_wilds: bool,
    /// Flowers held, by bit (1f bit 0).
    pub flowers: u8,
    /// The flower of the player's seat is held.
    pub seat_flower: bool,
    /// Flowers held that are not wilds (set aside, 客花).
    pub guest_flowers: u8,
    /// The winning tile's kind, and whether it is a wild; None for a hand that did not win.
    pub win: Option<(Tile, bool)>,
}

impl Situation {
    pub fn flag(&self, bit: u8) -> bool {
        self.flags >> bit & 1 == 1
    }
}

/// The facts of one arrangement, its free groups given kinds, the winning tile placed.
#[derive(Clone, Copy, Debug, Default)]
pub struct Facts {
    pub form: u32,
    /// Kinds some tile stands for.
    pub kinds: u64,
    /// Suits with a tile: bit 0 characters ... bit 3 honours.
    pub suits: u8,
    /// Kinds of pungs and kongs, and kinds of two of them (wilds standing past the
    /// copies).
    pub triplets: u64,
    pub triplets_twice: u64,
    pub n_triplets: u8,
    pub kongs: u64,
    pub n_kongs: u8,
    /// Lowest kinds of the chows.
    pub chows: u64,
    pub n_chows: u8,
    /// Most chows of one start.
    pub same_chows: u8,
    pub pairs: u64,
    /// Kinds of two pairs.
    pub pairs_twice: u64,
    pub n_pairs: u8,
    /// Kinds that are two of the pairs (four of a kind in seven pairs).
    pub doubled: u8,
    /// Declared melds; those exposed (all but concealed kongs).
    pub declared: u8,
    pub exposed: u8,
    /// Concealed pungs and kongs, a pung completed on a discard not among them.
    pub concealed_triplets: u8,
    /// Groups made of wilds alone.
    pub free_melds: u8,
    pub free_pairs: u8,
    pub dragon_sets: u8,
    /// Wild tiles standing for a wild kind (财神归位).
    pub home_wilds: u8,
    /// Wild tiles in the groups.
    pub wilds_used: u8,
    /// Of them, the seat flower (1 or 0) and the others.
    pub seat_flower_used: u8,
    pub real_wilds_used: u8,
    /// Kinds that four tiles stand for.
    pub fours: u8,
    /// Where the winning tile sits.
    pub win: Option<Placement>,
    /// Whether the winning tile completed a pung on another player's discard (the pung
    /// then counts as exposed).
    pub pung_on_discard: bool,
}

/// Facts of `groups`. `wild_kinds` tells which kinds are wild (for 财神归位);
/// `discard_win` whether the winning tile came from another player; `fours` whether to
/// count the kinds four tiles stand for (left 0 for a ruleset that reads none).
pub fn facts(
    form: Form,
    groups: &[Group],
    win: Option<Placement>,
    wild_kinds: u64,
    discard_win: bool,
    fours: bool,
) -> Facts {
    let mut f = Facts { form: form.bit(), win, ..Facts::default() };
    // Tiles standing for each kind (for the kinds four of them stand for).
    let mut stand = [0u8; crate::tiles::KINDS];
    let mut chows_twice = 0u64;
    let mut chows_thrice = 0u64;
    for (gi, g) in groups.iter().enumerate() {
        let n = g.wilds.count_ones() as u8;
        f.wilds_used += n;
        if n > 0 && wild_kinds != 0 {
            f.home_wilds += g.wild_kinds().filter(|&k| wild_kinds >> k & 1 == 1).count() as u8;
        }
        let len = g.len();
        let free = n as usize == len && len > 1;
        let t = g.tile as usize;
        let one = 1u64 << g.tile;
        match g.shape {
            Shape::Pair => {
                stand[t] += 2;
                f.kinds |= one;
                f.doubled += (f.pairs & one != 0) as u8;
                f.pairs_twice |= f.pairs & one;
                f.pairs |= one;
                f.n_pairs += 1;
                f.free_pairs += free as u8;
            }
            Shape::Chow => {
                for s in &mut stand[t..t + 3] {
                    *s += 1;
                }
                f.kinds |= 0b111 << t;
                f.same_chows = f.same_chows.max(
                    1 + (f.chows & one != 0) as u8 + (chows_twice & one != 0) as u8 + (chows_thrice & one != 0) as u8,
                );
                chows_thrice |= chows_twice & one;
                chows_twice |= f.chows & one;
                f.chows |= one;
                f.n_chows += 1;
                f.free_melds += free as u8;
            }
            Shape::Pung | Shape::Kong => {
                stand[t] += len as u8;
                f.kinds |= one;
                f.triplets_twice |= f.triplets & one;
                f.triplets |= one;
                f.n_triplets += 1;
                if g.shape == Shape::Kong {
                    f.kongs |= one;
                    f.n_kongs += 1;
                }
                f.free_melds += free as u8;
                let on_discard = discard_win && win.is_some_and(|p| p.group as usize == gi);
                f.pung_on_discard |= on_discard;
                f.concealed_triplets += (g.concealed() && !on_discard) as u8;
            }
            Shape::DragonSet => {
                for s in &mut stand[WHITE as usize..=RED as usize] {
                    *s += 1;
                }
                f.kinds |= 0b111 << WHITE;
                f.dragon_sets += 1;
            }
            Shape::Single => {
                stand[t] += 1;
                f.kinds |= one;
            }
        }
        if let Some(m) = g.meld {
            f.declared += 1;
            f.exposed += (m != crate::hand::MeldKind::ConcealedKong) as u8;
        }
    }
    let k = f.kinds;
    f.suits = (k & 0x1FF != 0) as u8
        | ((k >> 9 & 0x1FF != 0) as u8) << 1
        | ((k >> 18 & 0x1FF != 0) as u8) << 2
        | ((k >> 27 != 0) as u8) << 3;
    if fours {
        f.fours = stand.iter().filter(|&&c| c >= 4).count() as u8;
    }
    f
}

/// Every place the winning tile may sit in `groups`: a real tile of its kind in a
/// concealed group, or, for a wild winning tile, any wild there, and with `swaps` any real
/// tile of a kind a wild of another group stands for (see [`swappable`]).
pub fn placements(groups: &[Group], win: Tile, is_wild: bool, swaps: bool, out: &mut Inline<Placement, 24>) {
    out.clear();
    let swaps = if is_wild && swaps { swappable(groups) } else { 0 };
    for (gi, g) in groups.iter().enumerate() {
        if g.meld.is_some() {
            continue;
        }
        let group = gi as u8;
        // The tile may take a real tile's place where it keeps the group from being
        // all wilds (a free group is another arrangement, listed as such).
        let may_swap = g.wilds.count_ones() as usize + 1 < g.len();
        match g.shape {
            // Each position its own kind (and role): each that holds the tile.
            Shape::Chow | Shape::DragonSet => {
                for i in 0..3 {
                    let wild = g.wilds >> i & 1 == 1;
                    let k = g.kind_at(i);
                    let swap = may_swap && !wild && swaps >> k & 1 == 1;
                    if (is_wild && (wild || swap)) || (!is_wild && !wild && k == win) {
                        out.push(Placement { group, role: Role::of(g, i), kind: k });
                    }
                }
            }
            // One kind and one role: a place when some position holds the tile.
            _ => {
                let all = (1u8 << g.len()) - 1;
                let swap = may_swap && g.len() > 1 && swaps >> g.tile & 1 == 1;
                let holds = if is_wild { g.wilds & all != 0 || swap } else { g.tile == win && g.wilds & all != all };
                if holds {
                    out.push(Placement { group, role: Role::of(g, 0), kind: g.tile });
                }
            }
        }
    }
}

/// The kinds a wild stands for in a concealed group that holds a real tile too.
///
/// Arrangements are listed with a kind's real tiles in the first groups that can take
/// them and its wilds after (see `arrange::Visit::fixed`). A wild winning tile could be
/// any wild, and the arrangement with a wild and a real tile of its kind swapped between
/// two such groups has the same facts: so its places are those of the swapped tiles too,
/// and [`swap_in`] makes that arrangement when one of them is chosen.
fn swappable(groups: &[Group]) -> u64 {
    // No branch on a group's tiles: this is asked of every arrangement of a long search.
    let mut kinds = 0u64;
    for g in groups {
        let counts = (g.meld.is_none() && !g.is_free()) as u64;
        let wilds = u64::from(g.wilds) * counts;
        kinds |= match g.shape {
            Shape::Chow => (wilds & 0b111) << g.tile,
            Shape::DragonSet => (wilds & 0b111) << WHITE,
            _ => ((wilds != 0) as u64) << g.tile,
        };
    }
    kinds
}

/// `groups` with the wild winning tile at `pl`: where `pl` is a real tile's place, that
/// tile and a wild standing for its kind in another group (see [`swappable`]) swapped.
pub fn swap_in(groups: &mut [Group], pl: Placement) {
    let gi = pl.group as usize;
    let Some(&g) = groups.get(gi) else { return };
    let at = |g: &Group| (0..g.len()).find(|&i| g.kind_at(i) == pl.kind);
    let all = (1u8 << g.len()) - 1;
    let wild_here = match g.shape {
        Shape::Chow | Shape::DragonSet => at(&g).is_some_and(|i| g.wilds >> i & 1 == 1),
        _ => g.wilds & all != 0,
    };
    if wild_here {
        return;
    }
    let other = groups
        .iter()
        .enumerate()
        .position(|(hi, h)| hi != gi && h.meld.is_none() && !h.is_free() && h.wild_kinds().any(|k| k == pl.kind));
    let Some(hi) = other else { return };
    let h = &mut groups[hi];
    h.wilds = match h.shape {
        Shape::Chow | Shape::DragonSet => h.wilds & !at(h).map_or(0, |i| 1 << i),
        // Wilds of one kind are written in the low places.
        _ => h.wilds >> 1,
    };
    let g = &mut groups[gi];
    g.wilds = match g.shape {
        Shape::Chow | Shape::DragonSet => g.wilds | at(g).map_or(0, |i| 1 << i),
        _ => (g.wilds << 1 | 1) & all,
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_of_a_hand() {
        let groups = [
            Group::new(Shape::Chow, 0, 0),
            Group::new(Shape::Chow, 0, 0b100),
            Group::new(Shape::Pung, 27, 0),
            Group::new(Shape::Pung, 5, 0b111),
            Group::new(Shape::Pair, 33, 0),
        ];
        let win = Some(Placement { group: 2, role: Role::Pung, kind: 27 });
        let f = facts(Form::Standard, &groups, win, 0, true, true);
        assert_eq!((f.n_chows, f.same_chows, f.n_triplets, f.free_melds), (2, 2, 2, 1));
        assert_eq!(f.concealed_triplets, 1, "the pung completed on a discard is exposed");
        assert_eq!(f.suits, 0b1001);
        assert_eq!(f.wilds_used, 4);
        let mut out = Inline::filled(Placement { group: 0, role: Role::Single, kind: 0 });
        placements(&groups, 2, true, true, &mut out);
        assert_eq!(out.len(), 3, "the wild 3m of the chow, the other chow's 3m, and the free pung's wilds");
    }

    #[test]
    fn a_wild_winning_tile_may_take_a_real_tiles_place_a_wild_of_its_kind_could() {
        // 456m with a wild 5m, 555m of real tiles, 77z of a real 7z and a wild.
        let mut groups =
            [Group::new(Shape::Chow, 3, 0b010), Group::new(Shape::Pung, 4, 0), Group::new(Shape::Pair, 33, 0b01)];
        let mut out = Inline::filled(Placement { group: 0, role: Role::Single, kind: 0 });
        placements(&groups, 0, true, true, &mut out);
        let places: Vec<_> = out.iter().map(|p| (p.group, p.role, p.kind)).collect();
        // The pung's place: the wild 5m of the chow swapped with one of its real 5m. The
        // chow's real 4m and 6m have no wild of their kind elsewhere.
        assert_eq!(places, [(0, Role::Closed, 4), (1, Role::Pung, 4), (2, Role::Single, 33)]);
        swap_in(&mut groups, Placement { group: 1, role: Role::Pung, kind: 4 });
        assert_eq!((groups[0].wilds, groups[1].wilds, groups[2].wilds), (0, 0b001, 0b01), "the wild moved");
        // Taking the place of a group's last real tile would leave it all wilds (another
        // arrangement, listed as such): a pair of a real 5m and a wild, beside a chow's
        // wild 5m.
        let groups = [Group::new(Shape::Chow, 3, 0b010), Group::new(Shape::Pair, 4, 0b01)];
        placements(&groups, 0, true, true, &mut out);
        assert_eq!(out.len(), 2, "the two wilds' places only");
        // No swap without a wild winning tile, nor with a wild in a free group.
        let groups = [Group::new(Shape::Pung, 4, 0b111), Group::new(Shape::Pair, 4, 0)];
        placements(&groups, 0, true, true, &mut out);
        assert_eq!(out.len(), 1, "the free pung's place only");
        placements(&groups, 4, false, true, &mut out);
        assert_eq!(out.len(), 1, "a real 5m: the pair");
    }
}
