//! Scoring a win: every arrangement of the hand, the fans of each, the best kept
//! (就高不就低), and the 8-point minimum.

use std::sync::OnceLock;

use super::fans::{self, id, Exclusion as FanExclusion, FanCounts, HandFacts, Set, SetKind, Sets};
use super::sets::order;
use super::situation::{Options, Situation};
use crate::distance::{KNITTED, KNITTED_MASKS};
use crate::engine::Engine;
use crate::error::Result;
use crate::forms::{Form, Forms};
use crate::hand::{Hand, MeldKind};
use crate::tiles::{self, Counts, Tile, ALL_KINDS, KINDS, ORPHANS};

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
    /// Fans not counted and why (only when asked for).
    pub excluded: Vec<FanExclusion>,
}

fn engine() -> &'static Engine {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    ENGINE.get_or_init(|| {
        let forms = Forms {
            seven_pairs: true,
            four_as_two_pairs: true,
            thirteen_orphans: true,
            honours_and_knitted: true,
            knitted_straight: true,
            ..Forms::standard(4)
        };
        Engine::new("mcr", forms, ALL_KINDS)
    })
}

/// Every way to split `counts` into `sets` sets and one pair (standard form).
fn standard_splits(counts: &mut Counts, sets: usize, acc: &mut Sets, out: &mut Vec<Sets>, pair: bool) {
    let Some(k) = (0..KINDS).find(|&t| counts[t] > 0) else {
        if sets == 0 && pair {
            out.push(*acc);
        }
        return;
    };
    let t = k as Tile;
    let plain = |kind, tile| Set { kind, tile, melded: false, declared: false };
    if !pair && counts[k] >= 2 {
        counts[k] -= 2;
        acc.push(plain(SetKind::Pair, t));
        standard_splits(counts, sets, acc, out, true);
        acc.pop();
        counts[k] += 2;
    }
    if sets == 0 {
        return;
    }
    if counts[k] >= 3 {
        counts[k] -= 3;
        acc.push(plain(SetKind::Pung, t));
        standard_splits(counts, sets - 1, acc, out, pair);
        acc.pop();
        counts[k] += 3;
    }
    if k < 27 && k % 9 <= 6 && counts[k + 1] > 0 && counts[k + 2] > 0 {
        counts[k..k + 3].iter_mut().for_each(|x| *x -= 1);
        acc.push(plain(SetKind::Chow, t));
        standard_splits(counts, sets - 1, acc, out, pair);
        acc.pop();
        counts[k..k + 3].iter_mut().for_each(|x| *x += 1);
    }
}

/// Whether `counts` splits into `sets` sets and one pair (shape only: counts may
/// exceed four).
fn splits_into(c: &mut Counts, sets: usize, pair: bool) -> bool {
    let Some(k) = (0..KINDS).find(|&t| c[t] > 0) else {
        return sets == 0 && pair;
    };
    if !pair && c[k] >= 2 {
        c[k] -= 2;
        let ok = splits_into(c, sets, true);
        c[k] += 2;
        if ok {
            return true;
        }
    }
    if sets == 0 {
        return false;
    }
    if c[k] >= 3 {
        c[k] -= 3;
        let ok = splits_into(c, sets - 1, pair);
        c[k] += 3;
        if ok {
            return true;
        }
    }
    if k < 27 && k % 9 <= 6 && c[k + 1] > 0 && c[k + 2] > 0 {
        c[k..k + 3].iter_mut().for_each(|x| *x -= 1);
        let ok = splits_into(c, sets - 1, pair);
        c[k..k + 3].iter_mut().for_each(|x| *x += 1);
        return ok;
    }
    false
}

/// Whether 14 concealed-part tiles (with `need` sets to make) are complete in any MCR
/// form, by shape. `present` has bit t set when `c[t] > 0`.
fn complete_shape(c: &Counts, present: u64, need: usize, concealed_hand: bool, sets_possible: bool) -> bool {
    if sets_possible && splits_into(&mut c.clone(), need, false) {
        return true;
    }
    if need >= 3 {
        for mask in KNITTED_MASKS {
            if present & mask != mask {
                continue;
            }
            let mut rest = *c;
            for t in 0..27 {
                rest[t] -= (mask >> t & 1) as u8;
            }
            if splits_into(&mut rest, need - 3, false) {
                return true;
            }
        }
    }
    if !concealed_hand {
        return false;
    }
    if c.iter().all(|&n| n % 2 == 0) {
        return true;
    }
    let orphans =
        ORPHANS.iter().all(|&t| c[t as usize] >= 1) && (0..KINDS).all(|t| c[t] == 0 || ORPHANS.contains(&(t as Tile)));
    if orphans {
        return true;
    }
    c.iter().all(|&n| n <= 1) && KNITTED_MASKS.into_iter().any(|mask| (0..27).all(|t| c[t] == 0 || mask >> t & 1 == 1))
}

/// How many kinds complete the hand `before` by shape, counting up to `stop`.
fn shape_waits(before: &Counts, need: usize, concealed_hand: bool, stop: u32) -> u32 {
    let present = (0..KINDS).fold(0u64, |m, t| m | ((before[t] > 0) as u64) << t);
    let mut n = 0;
    for t in 0..KINDS {
        // A tile with no neighbour within two (nor a copy) cannot join a set or pair.
        let sets_possible = if t >= 27 {
            before[t] > 0
        } else {
            let lo = t - t % 9;
            (t.saturating_sub(2).max(lo)..=(t + 2).min(lo + 8)).any(|u| before[u] > 0)
        };
        let mut c = *before;
        c[t] += 1;
        if !sets_possible && !concealed_hand {
            continue;
        }
        if complete_shape(&c, present | 1 << t, need, concealed_hand, sets_possible) {
            n += 1;
            if n >= stop {
                break;
            }
        }
    }
    n
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
fn concealed_form_fans(counts: &Counts, s: &Situation, f: &mut FanCounts) {
    fans::tile_fans(counts, f);
    fans::win_fans(s, f);
    fans::concealment_fans(0, s, f);
    f.add(id::SINGLE_WAIT, 1);
}

struct Candidate {
    fans: FanCounts,
    form: Form,
    sets: Sets,
    knitted: Option<[Tile; 9]>,
    dropped: u8,
}

/// Scores a situation. `explain` fills [`Scored::excluded`].
pub fn evaluate(hand: &Hand, situation: Situation, options: &Options, explain: bool) -> Result<Scored> {
    let e = engine();
    e.check(hand, Default::default(), Some(true))?;
    let s = situation.checked(hand)?;
    let before = hand.concealed;
    let mut counts = before;
    counts[s.win as usize] += 1;
    let declared = declared_sets(hand);
    let melded = declared.iter().filter(|x| x.melded).count() as u8;
    let kongs = declared.iter().filter(|x| x.kind == SetKind::Kong).count() as u8;
    let mut all = counts;
    for m in &hand.melds {
        for t in m.tiles() {
            all[t as usize] += 1;
        }
    }
    let mut facts = HandFacts { tiles: all, kongs, melded, unique_wait: false };
    let mut candidates: Vec<Candidate> = Vec::with_capacity(8);
    let mut seven_pairs = false;
    let concealed_hand = hand.melds.is_empty();

    if concealed_hand {
        if counts.iter().all(|&c| c % 2 == 0) {
            // 七对 (a four of a kind is two pairs) or 连七对.
            seven_pairs = true;
            let mut f = FanCounts::default();
            let kinds: Vec<usize> = (0..KINDS).filter(|&t| counts[t] > 0).collect();
            let shifted = kinds.len() == 7
                && kinds[0] < 27
                && kinds[6] == kinds[0] + 6
                && tiles::suit(kinds[0] as Tile) == tiles::suit(kinds[6] as Tile);
            f.add(if shifted { id::SEVEN_SHIFTED_PAIRS } else { id::SEVEN_PAIRS }, 1);
            fans::tile_hog(&counts, 0, &mut f);
            concealed_form_fans(&counts, &s, &mut f);
            let sets = (0..KINDS)
                .flat_map(|t| std::iter::repeat_n(t as Tile, counts[t] as usize / 2))
                .map(|t| Set { kind: SetKind::Pair, tile: t, melded: false, declared: false })
                .collect();
            candidates.push(Candidate { fans: f, form: Form::SevenPairs, sets, knitted: None, dropped: 0 });
        }
        let orphans = ORPHANS.iter().all(|&t| counts[t as usize] >= 1)
            && (0..KINDS).all(|t| counts[t] == 0 || ORPHANS.contains(&(t as Tile)));
        if orphans {
            let mut f = FanCounts::default();
            f.add(id::THIRTEEN_ORPHANS, 1);
            concealed_form_fans(&counts, &s, &mut f);
            candidates.push(Candidate {
                fans: f,
                form: Form::ThirteenOrphans,
                sets: Sets::new(),
                knitted: None,
                dropped: 0,
            });
        }
        if counts.iter().all(|&c| c <= 1) {
            for mask in KNITTED_MASKS {
                if (0..27).any(|t| counts[t] == 1 && mask >> t & 1 == 0) {
                    continue;
                }
                let honours = (27..KINDS).filter(|&t| counts[t] == 1).count();
                let mut f = FanCounts::default();
                if honours == 7 {
                    f.add(id::GREATER_HONOURS_AND_KNITTED, 1);
                } else {
                    f.add(id::LESSER_HONOURS_AND_KNITTED, 1);
                    if honours == 5 {
                        f.add(id::KNITTED_STRAIGHT, 1);
                    }
                }
                concealed_form_fans(&counts, &s, &mut f);
                candidates.push(Candidate {
                    fans: f,
                    form: Form::HonoursAndKnitted,
                    sets: Sets::new(),
                    knitted: None,
                    dropped: 0,
                });
                break;
            }
        }
        if nine_gates(&before, hand, s.win) {
            // The fixed reading of ChineseOfficialMahjongHelper by the winning rank (see
            // docs/mcr-fans.md): the frame never adds 清一色, 不求人 or 门前清.
            let mut f = FanCounts::default();
            f.add(id::NINE_GATES, 1);
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
            fans::win_fans(&s, &mut f);
            candidates.push(Candidate { fans: f, form: Form::Standard, sets: Sets::new(), knitted: None, dropped: 0 });
        }
    }

    // Standard arrangements, and the knitted straight (组合龙) with one set and a pair.
    let mut splits: Vec<(Sets, Option<[Tile; 9]>)> = Vec::with_capacity(8);
    let need = 4 - hand.melds.len();
    let mut out = Vec::with_capacity(4);
    standard_splits(&mut counts.clone(), need, &mut Sets::new(), &mut out, false);
    // ChineseOfficialMahjongHelper's order of arrangements (sets sorted, compared in its
    // tile order, a pung before a chow of the same tile): between equal totals the first
    // is kept, so the fans named agree with it.
    if out.len() > 1 {
        out.sort_by_cached_key(|sets| {
            // At most four sets besides the pair; unused places sort last and are the same
            // in every arrangement of one hand.
            let mut key = [[u8::MAX; 3]; 4];
            let melds = sets.iter().filter(|x| x.kind != SetKind::Pair);
            for (slot, x) in key.iter_mut().zip(melds) {
                *slot = match x.kind {
                    SetKind::Chow => [order(x.tile), order(x.tile + 1), order(x.tile + 2)],
                    _ => [order(x.tile); 3],
                };
            }
            key.sort_unstable();
            key
        });
    }
    splits.extend(out.into_iter().map(|v| (v, None)));
    if need >= 3 {
        for nine in KNITTED {
            if nine.iter().any(|&t| counts[t as usize] == 0) {
                continue;
            }
            let mut rest = counts;
            for &t in &nine {
                rest[t as usize] -= 1;
            }
            let mut out = Vec::new();
            standard_splits(&mut rest, need - 3, &mut Sets::new(), &mut out, false);
            splits.extend(out.into_iter().map(|v| (v, Some(nine))));
        }
    }
    if !splits.is_empty() {
        // The wait fans need the hand's waits; only ask when a set could hold them.
        let could_wait = splits.iter().any(|(sets, _)| {
            sets.iter().any(|x| match x.kind {
                SetKind::Chow => (x.tile..x.tile + 3).contains(&s.win),
                SetKind::Pair => x.tile == s.win,
                _ => false,
            })
        });
        if could_wait {
            // A wait is judged by shape: a tile whose four copies the hand holds still
            // counts as a wait here (public case 1234444678m456p + 1m: no 单钓将).
            facts.unique_wait = shape_waits(&before, need, concealed_hand, 2) == 1;
        }
    }
    for (mut sets, knitted) in splits {
        for &d in &declared {
            sets.push(d);
        }
        let (f, dropped) = fans::standard_fans(&sets, knitted.is_some(), &facts, &s, options);
        let mut f = f;
        if knitted.is_some() {
            f.add(id::KNITTED_STRAIGHT, 1);
        }
        let form = if knitted.is_some() { Form::KnittedStraight } else { Form::Standard };
        candidates.push(Candidate { fans: f, form, sets, knitted, dropped });
    }

    if candidates.is_empty() {
        return Ok(Scored {
            win: false,
            reason: Some(format!("not a complete hand with {}", tiles::name(s.win))),
            complete: false,
            total: 0,
            fans: FanCounts::default(),
            form: None,
            sets: Sets::new(),
            knitted: None,
            excluded: vec![],
        });
    }

    // 就高不就低. Between equal totals ChineseOfficialMahjongHelper's preferences: an
    // arrangement with 一色三同顺 or 三同刻, and a set reading over seven pairs.
    let mut best: Option<(u32, usize, FanCounts)> = None;
    for (i, c) in candidates.iter().enumerate() {
        let mut f = c.fans;
        fans::exclude(&mut f, None);
        let total = f.total();
        let better = match &best {
            None => true,
            Some((b, _, _)) => {
                total > *b
                    || (total == *b
                        && (f.get(id::PURE_TRIPLE_CHOW) > 0
                            || f.get(id::TRIPLE_PUNG) > 0
                            || (seven_pairs && c.form == Form::Standard)))
            }
        };
        if better {
            best = Some((total, i, f));
        }
    }
    let Some((_, index, mut chosen)) = best else {
        return Err(crate::error::HandError::invalid("no arrangement"));
    };
    let c = &candidates[index];
    let mut excluded = Vec::new();
    if explain {
        let mut f = c.fans;
        fans::exclude(&mut f, Some(&mut excluded));
        if c.dropped > 0 {
            excluded.push(FanExclusion { fan: 0, count: c.dropped, by: 0, rule: "account_once" });
        }
    }
    chosen.add(id::FLOWER_TILES, s.flowers);
    let total = chosen.total();
    let base = chosen.total_without_flowers();
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
        sets: c.sets,
        knitted: c.knitted,
        excluded,
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
