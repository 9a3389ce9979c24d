//! The questions every ruleset asks of a hand: is it complete, what does it wait on,
//! how far is it from ready, how can it be arranged.

use crate::decompose::{self, Arrangement};
use crate::distance::{self, combine_all, group_distances, join, Check, KindMasks, GROUPS};
use crate::error::{HandError, Result};
use crate::forms::{self, Forms, View};
use crate::hand::Hand;
use crate::tables::Distances;
use crate::tiles::{self, Counts, Tile, ALL_KINDS, KINDS};

/// Which tiles are wild in a deal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wilds {
    /// Kinds whose copies are wild (财神, 混, 惠牌).
    pub kinds: u64,
    /// Further wild tiles held that are not among the concealed tiles (e.g. a seat
    /// flower that plays as a wild).
    pub extra: u8,
    /// Wild tiles of no kind that may still be drawn: the flowers not held, where the
    /// flowers are the wilds (Longgang's 花财神). Like a wild kind's copies not held, they
    /// give each kind room where wilds stand past the copies.
    pub drawable: u8,
}

impl Wilds {
    /// The flowers not held among `played`, where the flowers are the wilds: wilds that
    /// may still be drawn (`drawable`).
    pub fn flowers_left(played: u8, held: u8) -> u8 {
        (played & !held).count_ones() as u8
    }
}

/// A ruleset's hand forms and tile set, ready to answer questions about hands.
#[derive(Clone, Debug)]
pub struct Engine {
    pub name: String,
    pub forms: Forms,
    /// Kinds played with (bitmask).
    pub tiles: u64,
    /// Flowers played, by bit (1f bit 0): those a hand may hold.
    pub flowers: u8,
    /// Whether the wilds may be the flowers (a `wilds` naming a flower makes every
    /// flower held a wild: Longgang's 花财神).
    pub flower_wilds: bool,
}

impl Engine {
    /// An engine of `forms` over the kinds `tiles`, every flower allowed (see
    /// [`Engine::with_flowers`]).
    pub fn new(name: impl Into<String>, forms: Forms, tiles: u64) -> Engine {
        Engine { name: name.into(), forms, tiles, flowers: u8::MAX, flower_wilds: false }
    }

    /// The engine of a ruleset that plays these flowers (bits, 1f bit 0), and whose
    /// wilds may be the flowers or not: a hand that holds another flower is refused, as
    /// the ruleset's scorer refuses it.
    pub fn with_flowers(self, flowers: u8, flower_wilds: bool) -> Engine {
        Engine { flowers, flower_wilds, ..self }
    }

    /// An engine for the standard form only, all 34 kinds.
    pub fn standard(melds: u8) -> Engine {
        Engine::new("standard", Forms::standard(melds), ALL_KINDS)
    }

    /// Refuses a wild kind not among the engine's tiles. (Any ruleset's engine answers
    /// its questions with wilds given, the rulesets without wilds too: what a hand would
    /// wait on were some kind wild. Scoring with them is refused by the scorers.)
    pub fn check_wilds(&self, wilds: Wilds) -> Result<()> {
        if wilds.kinds & !self.tiles != 0 {
            return Err(HandError::invalid(format!("a wild kind is not played in {}", self.name)).for_key("wilds"));
        }
        Ok(())
    }

    pub fn view(&self, hand: &Hand, wilds: Wilds) -> View {
        let mut v = View::new(hand, self.tiles, wilds.kinds, wilds.extra);
        v.drawable += wilds.drawable;
        v.with_forms(&self.forms, self.tiles)
    }

    /// Tiles away from ready (向听): -1 complete, 0 ready, 1 one tile from ready...
    /// Takes a hand of 13/16 tiles or 14/17 tiles (melds count 3).
    pub fn shanten(&self, hand: &Hand, wilds: Wilds) -> Result<i8> {
        self.check(hand, wilds, None)?;
        let ready_size = hand.size() + wilds.extra as usize == self.forms.ready_size();
        Ok(self.shanten_of(&self.view(hand, wilds), &hand.held(), wilds.kinds, ready_size))
    }

    /// The shanten of a view whose player holds `held` (concealed and melded copies),
    /// `ready_size` when it has 13/16 tiles: its distance less one, but a step further
    /// where a ready-size hand at distance one waits on nothing. Exchanges are counted
    /// against tiles that exist, so that is only when every tile that would complete it
    /// is one the player holds all four of (counting wild copies).
    pub fn shanten_of(&self, view: &View, held: &Counts, wild_kinds: u64, ready_size: bool) -> i8 {
        let d = distance::distance(&self.forms, view) as i8 - 1;
        if d == 0 && ready_size && self.waits_of_counts(view, held, wild_kinds) == 0 {
            1
        } else {
            d
        }
    }

    /// Whether a hand of 14/17 tiles is complete under the ruleset's forms.
    pub fn is_win(&self, hand: &Hand, wilds: Wilds) -> Result<bool> {
        self.check(hand, wilds, Some(false))?;
        Ok(distance::is_complete(&self.forms, &self.view(hand, wilds)))
    }

    /// Kinds that complete a hand of 13/16 tiles. A kind the player holds all four of
    /// (concealed, melded, or as wild copies) is not a wait.
    pub fn waits(&self, hand: &Hand, wilds: Wilds) -> Result<Vec<Tile>> {
        self.check(hand, wilds, Some(true))?;
        let mask = self.waits_mask(&self.view(hand, wilds), hand, wilds);
        Ok((0..KINDS as Tile).filter(|&t| mask >> t & 1 == 1).collect())
    }

    /// Wait mask of a ready-size view; `hand` gives the copies held of each kind.
    pub fn waits_mask(&self, view: &View, hand: &Hand, wilds: Wilds) -> u64 {
        let held = hand.held();
        self.waits_of_counts(view, &held, wilds.kinds)
    }

    /// Wait mask given the copies held of each kind (concealed, melded, wild copies).
    ///
    /// Only forms at distance one can be completed by one tile, so the others are never
    /// tried tile by tile; the standard form recomputes only the drawn tile's group.
    pub fn waits_of_counts(&self, view: &View, held: &Counts, wild_kinds: u64) -> u64 {
        self.waits_among(view, held, wild_kinds, u64::MAX, false)
    }

    /// Whether [`Engine::waits_of_counts`] has any wait: the search stops at the first.
    pub fn has_wait(&self, view: &View, held: &Counts, wild_kinds: u64) -> bool {
        self.waits_among(view, held, wild_kinds, u64::MAX, true) != 0
    }

    /// The waits among the kinds of `among` (each tried only if it is there), or only the
    /// first found when `first` (some wait, if there is one).
    pub fn waits_among(&self, view: &View, held: &Counts, wild_kinds: u64, among: u64, first: bool) -> u64 {
        let w = view.wilds;
        let mut ready = Vec::new();
        for check in Check::ALL {
            if check.open(&self.forms, view) && check.distance(&self.forms, view, w + 2) == w + 1 {
                ready.push(check);
            }
        }
        if ready.is_empty() {
            return self.wild_beyond_copies_completes(view, held, wild_kinds & among);
        }
        // A drawn wild fills the one missing place of whichever form is ready.
        let wild_waits =
            tiles::mask_tiles(wild_kinds & among).filter(|&t| held[t as usize] < 4).fold(0u64, |m, t| m | 1 << t);
        if first && wild_waits != 0 {
            return wild_waits;
        }
        let candidates: u64 = (0..KINDS)
            .filter(|&t| among >> t & 1 == 1 && self.tiles >> t & 1 == 1 && held[t] < 4 && wild_kinds >> t & 1 == 0)
            .fold(0, |m, t| m | 1 << t);
        if candidates == 0 {
            return wild_waits;
        }
        let mut mask = 0u64;
        for check in ready {
            if first && mask != 0 {
                break;
            }
            mask |= if check == Check::Standard {
                self.standard_completing(view, candidates & !mask, first)
            } else {
                check.draws_below(&self.forms, view, KindMasks::of(view), w + 1, candidates & !mask, first)
            };
        }
        mask | wild_waits
    }

    /// The wild kinds that complete a view that is not ready: only where a drawn wild
    /// may stand past four copies (Longgang's 1111m and a 财神 as the pair).
    fn wild_beyond_copies_completes(&self, view: &View, held: &Counts, wild_kinds: u64) -> u64 {
        let drawable = tiles::mask_tiles(wild_kinds).filter(|&t| held[t as usize] < 4).fold(0u64, |m, t| m | 1 << t);
        if !self.forms.wilds_beyond_copies || drawable == 0 {
            return 0;
        }
        let mut v = view.clone();
        v.wilds += 1;
        for t in 0..KINDS {
            if self.tiles >> t & 1 == 1 {
                v.caps[t] += 1;
            }
        }
        if distance::is_complete(&self.forms, &v) {
            drawable
        } else {
            0
        }
    }

    /// Tiles of `candidates` that complete the standard form of a ready view.
    fn standard_completing(&self, view: &View, candidates: u64, first: bool) -> u64 {
        let melds = (self.forms.melds - view.melds.count.min(self.forms.melds)) as usize;
        let pair_ok = self.forms.pair_kinds;
        let groups: [Distances; 4] = [0, 1, 2, 3].map(|g| group_distances(view, g, pair_ok));
        // Without wilds, a drawn tile can only complete a standard hand by joining tiles of
        // its own kind or within two ranks of it in its suit: a tile alone forms nothing.
        let candidates = if view.wilds == 0 { candidates & near_held(&view.counts) } else { candidates };
        let mut mask = 0u64;
        let mut v = view.clone();
        // For the first wait, where a declared meld lowers a kind's cap, the groups whose
        // draws are read from a table are tried before those worked out by the dynamic
        // programming, each of whose draws costs far more.
        let slow: [bool; 4] =
            std::array::from_fn(|g| first && view.melds.count > 0 && distance::group_table(view, g, pair_ok).is_none());
        for later in [false, true] {
            for (g, &(lo, hi)) in GROUPS.iter().enumerate() {
                let group_mask = ((1u64 << (hi - lo)) - 1) << lo;
                if candidates & group_mask == 0 || slow[g] != later {
                    continue;
                }
                let others: Vec<Distances> = (0..4).filter(|&o| o != g).map(|o| groups[o]).collect();
                let others = combine_all(&others);
                for t in tiles::mask_tiles(candidates & group_mask) {
                    v.counts[t as usize] += 1;
                    if join(&group_distances(&v, g, pair_ok), &others, melds) <= view.wilds {
                        mask |= 1 << t;
                    }
                    v.counts[t as usize] -= 1;
                    if first && mask != 0 {
                        return mask;
                    }
                }
            }
        }
        mask
    }

    /// Every distinct arrangement of a complete hand (at most `limit`).
    pub fn decompose(&self, hand: &Hand, wilds: Wilds, limit: usize) -> Result<Vec<Arrangement>> {
        self.check(hand, wilds, Some(false))?;
        Ok(decompose::decompose(&self.forms, hand, &self.view(hand, wilds), limit))
    }

    /// Checks tiles, size and wilds; `ready` as in [`forms::check_hand`].
    pub fn check(&self, hand: &Hand, wilds: Wilds, ready: Option<bool>) -> Result<()> {
        self.check_wilds(wilds)?;
        flowers_played(&self.name, self.flowers, hand.flowers).map_err(|e| e.for_key("hand"))?;
        forms::check_hand(hand, &self.forms, self.tiles, &self.name, ready, wilds.extra as usize)?;
        // An engine of unusual forms may have none that can complete the hand (seven pairs
        // and a declared pung; thirteen orphans without honours): no distance to answer.
        if !self.always_completable() && distance::distance(&self.forms, &self.view(hand, wilds)) == distance::INF {
            return Err(no_form(&self.name, hand.melds.len()));
        }
        Ok(())
    }

    /// Whether every hand can be completed: the standard form, a pair kind in play, and a
    /// whole suit for the melds (every ruleset's engine).
    pub fn always_completable(&self) -> bool {
        let whole_suit = (0..3).any(|s| self.tiles >> (9 * s) & 0x1FF == 0x1FF);
        self.forms.standard && self.forms.pair_kinds & self.tiles != 0 && whole_suit
    }
}

/// Refuses the flowers among `held` that a ruleset `name` playing the flowers `played`
/// (bits, 1f bit 0) does not play.
pub fn flowers_played(name: &str, played: u8, held: u8) -> Result<()> {
    if held & !played == 0 {
        return Ok(());
    }
    let f = tiles::flower_name((held & !played).trailing_zeros() as u8);
    Err(HandError::invalid(if played == 0 {
        format!("{name} plays no flowers ({f} given)")
    } else {
        format!("the flower {f} is not played in {name}")
    }))
}

/// The error for a hand that no form of the engine takes.
pub fn no_form(name: &str, melds: usize) -> HandError {
    HandError::invalid(format!("no hand form of {name} takes a hand of this size with {melds} declared meld(s)"))
}

/// Kinds held, or within two ranks of a held kind in the same suit.
fn near_held(counts: &Counts) -> u64 {
    let held = tiles::kinds_mask(counts);
    let mut near = held & !tiles::SUITED_KINDS;
    for s in 0..3 {
        let suit = (held >> (9 * s)) & 0x1FF;
        let spread = (suit | suit << 1 | suit << 2 | suit >> 1 | suit >> 2) & 0x1FF;
        near |= spread << (9 * s);
    }
    near
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{parse, Format};
    use crate::tiles::name;

    fn hand(s: &str) -> Hand {
        parse(s, Format::Compact).unwrap().hand
    }

    fn waits(e: &Engine, s: &str, wilds: Wilds) -> String {
        e.waits(&hand(s), wilds).unwrap().iter().map(|&t| name(t)).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn waits_among_some_kinds_are_the_waits_in_them() {
        let e = Engine::standard(4);
        let cases = [
            ("1112345678999m", Wilds::default()),
            ("4666m123p456p789s", Wilds::default()),
            ("46m123p456p789s22z", Wilds::default()),
            ("1234m123p456p789s", Wilds { kinds: 1 << 3, extra: 0, drawable: 0 }),
            ("4m5m123p456p789s2z", Wilds { kinds: 1 << 4, extra: 0, drawable: 0 }),
            ("1111m234p567p789p", Wilds::default()),
            // A declared meld lowers its kind's cap: the bamboos are worked out without
            // a table, and the first wait is looked for in the other suits first.
            ("46m123p456p22z[999s]", Wilds::default()),
            ("78s123p456p22z[999s]", Wilds::default()),
            ("4m5m123p456p2z3z[777s]", Wilds { kinds: 1 << 4, extra: 0, drawable: 0 }),
        ];
        let amongs = [u64::MAX, 0, 1 << 4, 0x1FF, !(1u64 << 4), 0x1FF << 9, 0x1FF << 18, 0b1010_1010_1010];
        for (s, wilds) in cases {
            let h = hand(s);
            let view = e.view(&h, wilds);
            let held = h.held();
            let all = e.waits_of_counts(&view, &held, wilds.kinds);
            for among in amongs {
                assert_eq!(e.waits_among(&view, &held, wilds.kinds, among, false), all & among, "{s} {among:x}");
                let first = e.waits_among(&view, &held, wilds.kinds, among, true);
                assert_eq!(first != 0, all & among != 0, "{s} {among:x}");
                assert_eq!(first & !(all & among), 0, "{s} {among:x}");
            }
        }
    }

    #[test]
    fn nine_gates_waits_on_all_nine() {
        let e = Engine::standard(4);
        assert_eq!(waits(&e, "1112345678999m", Wilds::default()), "1m 2m 3m 4m 5m 6m 7m 8m 9m");
        assert_eq!(e.shanten(&hand("1112345678999m"), Wilds::default()).unwrap(), 0);
    }

    #[test]
    fn a_wait_on_a_fifth_copy_is_no_wait() {
        let e = Engine::standard(4);
        // 1111m beside three chows: every reading of it needs a fifth 1m.
        assert_eq!(waits(&e, "1111m234p567p789p", Wilds::default()), "");
        assert_eq!(e.shanten(&hand("1111m234p567p789p"), Wilds::default()).unwrap(), 1);
        assert_eq!(waits(&e, "1m234p567p789p[111m]", Wilds::default()), "");
    }

    #[test]
    fn wild_waits() {
        let e = Engine::standard(4);
        // 7z wild: the wild makes a pung of 2z (waiting on 1p) or of 1p (waiting on 2z);
        // drawing a second wild completes either.
        let w = Wilds { kinds: 1 << 33, extra: 0, drawable: 0 };
        let ws = waits(&e, "123456789m11p2z7z", w);
        assert!(ws.contains("2z") && ws.contains("1p") && ws.contains("7z"), "{ws}");
    }

    #[test]
    fn wilds_beyond_copies_keep_seven_pairs() {
        // Caps above 4 (wilds standing past the copies) once read as a cap of 1 in the
        // pair masks, and this hand was two from ready.
        let forms = Forms { standard: false, seven_pairs: true, wilds_beyond_copies: true, ..Forms::standard(4) };
        let e = Engine::new("pairs", forms, ALL_KINDS);
        let w = Wilds { kinds: 0, extra: 5, drawable: 0 };
        assert_eq!(e.shanten(&hand("1m244p5p3s99s"), w).unwrap(), 0);
        assert!(e.is_win(&hand("1m244p5p3s99s6m"), w).unwrap());
    }

    #[test]
    fn a_hand_no_form_can_complete_is_refused() {
        let pairs = Forms { standard: false, seven_pairs: true, ..Forms::standard(4) };
        let e = Engine::new("pairs", pairs, ALL_KINDS);
        let err = e.shanten(&hand("1122m3344p55s[777z]"), Wilds::default()).unwrap_err();
        assert!(err.to_string().contains("no hand form"), "{err}");
        let orphans = Forms { standard: false, thirteen_orphans: true, ..Forms::standard(4) };
        let e = Engine::new("no honours", orphans, tiles::SUITED_KINDS);
        assert!(e.shanten(&hand("19m19p19s1234567m"), Wilds::default()).is_err());
        let h = hand("19m19p19s1234567m");
        let rows = crate::batch::Rows::new(&h.concealed, None);
        assert!(crate::batch::validate(&e, &rows, Some(true)).is_err());
    }

    #[test]
    fn knitted_singles_leave_out_a_kind_not_played() {
        let forms = Forms { standard: false, honours_and_knitted: true, ..Forms::standard(4) };
        let e = Engine::new("no white", forms, ALL_KINDS & !(1 << tiles::WHITE));
        let h = hand("147m258p369s12346z");
        assert!(e.is_win(&h, Wilds::default()).unwrap());
        assert_eq!(e.decompose(&h, Wilds::default(), 10).unwrap().len(), 1);
    }

    #[test]
    fn sizes_are_checked() {
        let e = Engine::standard(4);
        assert!(e.waits(&hand("123m"), Wilds::default()).is_err());
        assert!(e.is_win(&hand("1112345678999m"), Wilds::default()).is_err());
    }
}
