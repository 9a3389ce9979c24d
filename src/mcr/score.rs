//! Scoring a win: every arrangement of the hand, the fans of each, the best kept
//! (就高不就低), and the 8-point minimum.

use std::sync::OnceLock;

use super::fans::{self, id, Exclusion as FanExclusion, FanCounts, HandFacts, Set, SetKind, Sets};
use super::sets::order;
use super::shape;
use super::situation::{Options, Situation};
use crate::distance::{KNITTED, KNITTED_MASKS};
use crate::engine::Engine;
use crate::error::Result;
use crate::forms::{Form, Forms};
use crate::hand::{Hand, MeldKind};
use crate::tiles::{self, Counts, Tile, ALL_KINDS, KINDS};

pub use super::fans::Exclusion;

/// Points needed to win, flowers not counted (起和分).
pub const MINIMUM: u32 = 8;

/// The score of a situation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scored {
    /// Complete and worth at least 8 points without flowers.
    pub win: bool,
    /// Why `win` is false.
    pub reason: Option<String>,
    /// Complete under some MCR form (a complete hand may still fall short of 8 points).
    pub complete: bool,
    /// Points, flowers included.
    pub total: u32,
    pub fans: FanCounts,
    /// The arrangement scored: its form and sets (the pair is a `Pair` set). Special
    /// forms without sets (十三幺, 全不靠, 七星不靠) have none; seven pairs lists pairs.
    pub form: Option<Form>,
    pub sets: Sets,
    /// The nine tiles of a knitted straight (组合龙), when the form has one.
    pub knitted: Option<[Tile; 9]>,
    /// The concealed tiles, the winning tile among them (the groups of the forms
    /// without sets).
    pub tiles: Counts,
    /// Fans not counted and why (only when asked for).
    pub excluded: Vec<FanExclusion>,
    /// Whether they were asked for (the result then lists them, none or some).
    pub explained: bool,
}

fn engine() -> &'static Engine {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    ENGINE.get_or_init(|| {
        let forms = Forms::mcr();
        Engine::new("mcr", forms, ALL_KINDS)
    })
}

fn declared_sets(hand: &Hand) -> Sets {
    hand.melds
        .iter()
        .map(|m| {
            let kind = match m.kind {
                MeldKind::Chow => SetKind::Chow,
                MeldKind::Pung => SetKind::Pung,
                _ => SetKind::Kong,
            };
            Set { kind, tile: m.tile, melded: m.kind != MeldKind::ConcealedKong, declared: true }
        })
        .collect()
}

/// 九莲宝灯: before the winning tile the concealed hand is 1112345678999 of one suit.
fn nine_gates(before: &Counts, hand: &Hand, win: Tile) -> bool {
    if !hand.melds.is_empty() || win >= 27 {
        return false;
    }
    let base = (win / 9 * 9) as usize;
    let frame = [3, 1, 1, 1, 1, 1, 1, 1, 3];
    (0..KINDS).all(|t| {
        let want = if (base..base + 9).contains(&t) { frame[t - base] } else { 0 };
        before[t] == want
    })
}

/// The fans every concealed special form (七对, 十三幺, 全不靠) adds to its own: those of its
/// tiles, of the win and of concealment, and 单钓将, as each waits on a single tile.
fn concealed_form_fans(present: u64, s: &Situation, f: &mut FanCounts) {
    fans::tile_fans(present, f);
    fans::win_fans(s, f);
    fans::concealment_fans(0, s, f);
    f.add(id::SINGLE_WAIT, 1);
}

/// One arrangement (or special form) and its fans before exclusions.
#[derive(Clone, Copy)]
struct Candidate {
    fans: FanCounts,
    form: Form,
    sets: Sets,
    knitted: Option<[Tile; 9]>,
    dropped: u8,
    /// Part of a fan's count the form voids, for `explain`: 九莲宝灯's one 幺九刻 (its
    /// 111/999 frame), left out of `fans` where it was found.
    voided: Option<FanExclusion>,
}

impl Candidate {
    fn special(fans: FanCounts, form: Form) -> Candidate {
        Candidate { fans, form, sets: Sets::new(), knitted: None, dropped: 0, voided: None }
    }
}

/// Where a candidate stands in ChineseOfficialMahjongHelper's order of trying them:
/// the special forms first (0), then the standard arrangements (1) by [`comh_order`],
/// then the knitted straight's (2), each group but the standard in the order found.
/// The arrangement's place is worked out only when two candidates tie.
#[derive(Clone, Copy)]
struct Order {
    group: u8,
    found: u16,
}

impl Order {
    fn key(self, sets: &Sets) -> (u8, [[u8; 3]; 4], u16) {
        let place = if self.group == 1 { comh_order(sets) } else { [[0; 3]; 4] };
        (self.group, place, self.found)
    }
}

/// A candidate kept, with its fans after exclusions.
struct Kept {
    total: u32,
    fans: FanCounts,
    candidate: Candidate,
    order: Order,
}

/// The best candidates so far (就高不就低). ChineseOfficialMahjongHelper tries candidates
/// in [`Order`] and replaces the best by a higher total or, at an equal total, by one
/// with its preferences (一色三同顺 or 三同刻, or a set reading over seven pairs). So of
/// the highest-scoring candidates it keeps the last with a preference, or else the first:
/// both are tracked, and candidates may come in any order.
#[derive(Default)]
struct Best {
    first: Option<Kept>,
    preferred: Option<Kept>,
    seven_pairs: bool,
}

impl Best {
    fn consider(&mut self, c: Candidate, order: Order) {
        let mut f = c.fans;
        fans::exclude(&mut f, None);
        let total = f.total();
        let top = self.first.as_ref().map_or(0, |k| k.total);
        if self.first.is_some() && total < top {
            return;
        }
        let preferred = f.get(id::PURE_TRIPLE_CHOW) > 0
            || f.get(id::TRIPLE_PUNG) > 0
            || (self.seven_pairs && c.form == Form::Standard);
        if self.first.is_none() || total > top {
            self.preferred = None;
            self.first = None;
        }
        let kept = || Kept { total, fans: f, candidate: c, order };
        let key = |k: &Kept| k.order.key(&k.candidate.sets);
        if self.first.as_ref().is_none_or(|k| order.key(&c.sets) < key(k)) {
            self.first = Some(kept());
        }
        if preferred && self.preferred.as_ref().is_none_or(|k| order.key(&c.sets) > key(k)) {
            self.preferred = Some(kept());
        }
    }

    /// The candidate chosen, if any.
    fn chosen(&self) -> Option<&Kept> {
        self.preferred.as_ref().or(self.first.as_ref())
    }
}

/// ChineseOfficialMahjongHelper's order of arrangements: the concealed sets sorted,
/// compared in its tile order, a pung before a chow of the same tile. At most four sets
/// besides the pair; unused places sort last and are the same in every arrangement of
/// one hand.
fn comh_order(sets: &Sets) -> [[u8; 3]; 4] {
    let mut key = [[u8::MAX; 3]; 4];
    let melds = sets.iter().filter(|x| x.kind != SetKind::Pair && !x.declared);
    for (slot, x) in key.iter_mut().zip(melds) {
        *slot = match x.kind {
            SetKind::Chow => [order(x.tile), order(x.tile + 1), order(x.tile + 2)],
            _ => [order(x.tile); 3],
        };
    }
    key.sort_unstable();
    key
}

/// The special forms of a hand without melds: 七对 / 连七对, 十三幺, 全不靠 / 七星不靠,
/// 九莲宝灯.
/// `masks` are the [`shape::kind_masks`] of `counts`.
fn special_forms(
    counts: &Counts,
    masks: (u64, u64, u64),
    before: &Counts,
    hand: &Hand,
    s: &Situation,
    best: &mut Best,
) {
    let mut seq = 0u16;
    let mut consider = |best: &mut Best, c: Candidate| {
        best.consider(c, Order { group: 0, found: seq });
        seq += 1;
    };
    let (present, multi, odd) = masks;
    if odd == 0 {
        // 七对 (a four of a kind is two pairs) or 连七对.
        best.seven_pairs = true;
        let mut f = FanCounts::default();
        let (lo, hi) = (present.trailing_zeros() as Tile, 63 - present.leading_zeros() as Tile);
        let shifted = present.count_ones() == 7 && lo < 27 && hi == lo + 6 && tiles::suit(lo) == tiles::suit(hi);
        f.add(if shifted { id::SEVEN_SHIFTED_PAIRS } else { id::SEVEN_PAIRS }, 1);
        fans::tile_hog(counts, 0, &mut f);
        concealed_form_fans(present, s, &mut f);
        let sets = (0..KINDS)
            .flat_map(|t| std::iter::repeat_n(t as Tile, counts[t] as usize / 2))
            .map(|t| Set { kind: SetKind::Pair, tile: t, melded: false, declared: false })
            .collect();
        let c = Candidate { fans: f, form: Form::SevenPairs, sets, knitted: None, dropped: 0, voided: None };
        consider(best, c);
    }
    if present == shape::ORPHAN_MASK {
        let mut f = FanCounts::default();
        f.add(id::THIRTEEN_ORPHANS, 1);
        concealed_form_fans(present, s, &mut f);
        consider(best, Candidate::special(f, Form::ThirteenOrphans));
    }
    if multi == 0 && KNITTED_MASKS.iter().any(|&m| present & ((1 << 27) - 1) & !m == 0) {
        let honours = (present >> 27).count_ones();
        let mut f = FanCounts::default();
        if honours == 7 {
            f.add(id::GREATER_HONOURS_AND_KNITTED, 1);
        } else {
            f.add(id::LESSER_HONOURS_AND_KNITTED, 1);
            if honours == 5 {
                f.add(id::KNITTED_STRAIGHT, 1);
            }
        }
        concealed_form_fans(present, s, &mut f);
        consider(best, Candidate::special(f, Form::HonoursAndKnitted));
    }
    if nine_gates(before, hand, s.win) {
        // The fixed reading of ChineseOfficialMahjongHelper by the winning rank (see
        // docs/mcr-fans.md). The fans the form implies (清一色, 不求人 or 门前清, 缺一门,
        // 无字) are put in for the exclusions to take out, so that they are explained.
        let mut f = FanCounts::default();
        f.add(id::NINE_GATES, 1);
        f.add(id::FULL_FLUSH, 1);
        f.add(if s.self_drawn { id::FULLY_CONCEALED_HAND } else { id::CONCEALED_HAND }, 1);
        f.add(id::ONE_VOIDED_SUIT, 1);
        f.add(id::NO_HONOURS, 1);
        match tiles::rank(s.win) {
            1 | 9 => {
                f.add(id::PURE_STRAIGHT, 1);
                f.add(id::TILE_HOG, 1);
            }
            2 | 8 => {
                f.add(id::TWO_CONCEALED_PUNGS, 1);
                f.add(id::SHORT_STRAIGHT, 1);
                f.add(id::PUNG_OF_TERMINALS_OR_HONOURS, 1);
            }
            5 => {
                f.add(id::TWO_CONCEALED_PUNGS, 1);
                f.add(id::PUNG_OF_TERMINALS_OR_HONOURS, 1);
            }
            _ => f.add(id::SHORT_STRAIGHT, 1),
        }
        fans::win_fans(s, &mut f);
        // Its arrangement: the hand always reads as standard sets.
        let mut sets = Sets::new();
        shape::arrangements(counts, 4, &mut |found| {
            if sets.is_empty() {
                sets = *found;
            }
        });
        // Whatever the winning tile, the arrangement holds one pung of the frame more than
        // the fans above count: 九莲宝灯 voids its 幺九刻 (不重复: the frame is the form's).
        let voided =
            Some(FanExclusion { fan: id::PUNG_OF_TERMINALS_OR_HONOURS, count: 1, by: id::NINE_GATES, rule: "implied" });
        consider(best, Candidate { fans: f, form: Form::Standard, sets, knitted: None, dropped: 0, voided });
    }
}

/// Scores a situation. `explain` fills [`Scored::excluded`].
pub fn evaluate(hand: &Hand, situation: Situation, options: &Options, explain: bool) -> Result<Scored> {
    // Every kind is in play and a fifth copy cannot be written, so only the size needs
    // checking; the engine's check gives the error.
    if hand.melds.len() > 4 || hand.size() != 13 {
        engine().check(hand, Default::default(), Some(true))?;
    }
    let s = situation.checked(hand)?;
    let before = hand.concealed;
    let mut counts = before;
    counts[s.win as usize] += 1;
    let declared = declared_sets(hand);
    let melded = declared.iter().filter(|x| x.melded).count() as u8;
    let kongs = declared.iter().filter(|x| x.kind == SetKind::Kong).count() as u8;
    // The kinds held, once found, serve the tile fans, the special forms and the waits.
    let masks = shape::kind_masks(&counts);
    let mut all = counts;
    let mut present_all = masks.0;
    for m in &hand.melds {
        m.add_to(&mut all);
        present_all |= if m.kind == MeldKind::Chow { 0b111 } else { 1 } << m.tile;
    }
    let facts = HandFacts::new(&all, present_all, kongs, melded, &s);
    let mut best = Best::default();
    let concealed_hand = hand.melds.is_empty();
    if concealed_hand {
        special_forms(&counts, masks, &before, hand, &s, &mut best);
    }

    // The standard arrangements, and the knitted straight (组合龙) with its sets and pair.
    let need = 4 - hand.melds.len();
    // The wait fans need the hand's waits: found once, when an arrangement could hold one.
    let mut unique_wait: Option<bool> = None;
    let mut seq = 0u16;
    let mut score = |sets: &Sets, knitted: Option<[Tile; 9]>| {
        // The winning tile is one wait (in the standard form, when this arrangement is
        // one): the search stops at a second.
        let standard = knitted.is_none().then_some(s.win);
        let mut unique = || {
            *unique_wait.get_or_insert_with(|| {
                let masks = shape::less_one(masks, s.win, counts[s.win as usize]);
                shape::waits_masked(&before, masks, need, concealed_hand, 2, 1 << s.win, standard).count_ones() == 1
            })
        };
        let mut sets = *sets;
        for &d in &declared {
            sets.push(d);
        }
        let (mut f, dropped) = fans::standard_fans(&sets, knitted.is_some(), &facts, &s, options, &mut unique);
        let (form, order) = match knitted {
            Some(_) => {
                f.add(id::KNITTED_STRAIGHT, 1);
                (Form::KnittedStraight, Order { group: 2, found: seq })
            }
            None => (Form::Standard, Order { group: 1, found: 0 }),
        };
        seq += 1;
        best.consider(Candidate { fans: f, form, sets, knitted, dropped, voided: None }, order);
    };
    shape::arrangements(&counts, need, &mut |sets| score(sets, None));
    if need >= 3 {
        for (nine, mask) in KNITTED.into_iter().zip(KNITTED_MASKS) {
            if masks.0 & mask != mask {
                continue;
            }
            let mut rest = counts;
            for &t in &nine {
                rest[t as usize] -= 1;
            }
            shape::arrangements(&rest, need - 3, &mut |sets| score(sets, Some(nine)));
        }
    }

    let Some(&Kept { fans: mut chosen, candidate: ref c, total: base, .. }) = best.chosen() else {
        return Ok(Scored {
            win: false,
            reason: Some(format!("not a complete hand with {}", tiles::name(s.win))),
            complete: false,
            total: 0,
            fans: FanCounts::default(),
            form: None,
            sets: Sets::new(),
            knitted: None,
            tiles: counts,
            excluded: vec![],
            explained: explain,
        });
    };
    let mut sets = c.sets;
    sets.sort_in_tile_order();
    let mut excluded = Vec::new();
    if explain {
        let mut f = c.fans;
        fans::exclude(&mut f, Some(&mut excluded));
        excluded.extend(c.voided);
        if c.dropped > 0 {
            excluded.push(FanExclusion { fan: 0, count: c.dropped, by: 0, rule: "account_once" });
        }
    }
    // The kept total has no flowers: they count, but not towards the minimum.
    chosen.add(id::FLOWER_TILES, s.flowers);
    let total = base + s.flowers as u32;
    let (win, reason) = if base >= MINIMUM {
        (true, None)
    } else {
        (false, Some(format!("{base} points without flowers; {MINIMUM} are needed to win")))
    };
    Ok(Scored {
        win,
        reason,
        complete: true,
        total,
        fans: chosen,
        form: Some(c.form),
        sets,
        knitted: c.knitted,
        tiles: counts,
        excluded,
        explained: explain,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{parse, Format};

    fn score(h: &str, win: &str, f: impl Fn(&mut Situation)) -> Scored {
        let hand = parse(h, Format::Compact).unwrap().hand;
        let w = parse(win, Format::Compact).unwrap().hand.last.unwrap();
        let mut s = Situation { win: w, ..Default::default() };
        f(&mut s);
        evaluate(&hand, s, &Options::default(), true).unwrap()
    }

    fn ids(s: &Scored) -> Vec<u8> {
        (1..=82u8).flat_map(|i| std::iter::repeat_n(i, s.fans.get(i) as usize)).collect()
    }

    #[test]
    fn big_four_winds() {
        let s = score("[111z][2222z]55p33344z", "4z", |s| s.self_drawn = true);
        assert_eq!(ids(&s), [1, 49, 66, 74, 80]);
        assert_eq!(s.total, 98);
        assert!(s.win);
    }

    #[test]
    fn nine_gates_on_five() {
        let s = score("1112345678999p", "2p", |_| {});
        assert_eq!(ids(&s), [4, 66, 71, 73]);
    }

    #[test]
    fn nine_gates_explains_the_frame_pung_it_voids() {
        // Every winning rank leaves one pung of the 111/999 frame a 幺九刻 not counted.
        for win in ["1m", "2m", "5m", "7m", "9m"] {
            let s = score("1112345678999m", win, |_| {});
            let voided: Vec<_> = s.excluded.iter().filter(|e| e.fan == id::PUNG_OF_TERMINALS_OR_HONOURS).collect();
            assert_eq!(voided.len(), 1, "{win}");
            assert_eq!((voided[0].count, voided[0].by, voided[0].rule), (1, id::NINE_GATES, "implied"));
        }
    }

    #[test]
    fn chicken_hand_below_the_minimum_is_no_win() {
        // 无番和 is worth 8: a win.
        let s = score("[123m][345m]678p56s11z", "7s", |_| {});
        assert!(s.win && ids(&s) == [43], "{:?}", ids(&s));
        // Self-drawn, the same hand has only 自摸: complete, but not a win.
        let s = score("[123m][345m]678p56s11z", "7s", |s| s.self_drawn = true);
        assert!(s.complete && !s.win);
        assert_eq!(s.total, 1);
        assert!(s.reason.is_some());
    }

    #[test]
    fn incomplete_hand() {
        let s = score("123m456p789s1234z", "5z", |_| {});
        assert!(!s.complete && !s.win);
    }

    #[test]
    fn bad_input_is_an_error() {
        let hand = parse("123m", Format::Compact).unwrap().hand;
        assert!(evaluate(&hand, Situation::default(), &Options::default(), false).is_err());
    }
}
