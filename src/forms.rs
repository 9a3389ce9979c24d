//! What completes a hand under a ruleset, and a hand prepared for counting.

use crate::error::{ErrorKind, HandError, Result};
use crate::hand::{Hand, MeldKind};
use crate::tiles::{self, Counts, Tile, ALL_KINDS, KINDS, KINDS_258};

/// The hand forms a ruleset accepts. Each ruleset module builds one of these.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forms {
    /// Melds of a standard hand: 4 (13-tile hands) or 5 (16-tile hands).
    pub melds: u8,
    /// Melds (chows, pungs, kongs) plus one pair.
    pub standard: bool,
    /// Kinds the pair of a standard hand may be (all kinds; Changsha: 2, 5 and 8, 将).
    pub pair_kinds: u64,
    /// 七对: seven pairs (13-tile hands only).
    pub seven_pairs: bool,
    /// Whether four of a kind may count as two of the pairs (豪华七对).
    pub four_as_two_pairs: bool,
    /// 八对半: seven pairs and a triplet (16-tile hands only).
    pub eight_pairs_and_a_half: bool,
    /// 十三幺: one of each terminal and honour plus a pair of one of them.
    pub thirteen_orphans: bool,
    /// 全不靠 / 七星不靠: fourteen different tiles, honours and knitted suit tiles.
    pub honours_and_knitted: bool,
    /// 组合龙: the knitted straight 147/258/369 in three suits, plus a meld and a pair.
    pub knitted_straight: bool,
    /// A standard hand of pungs and kongs only may have any pair even when
    /// `pair_kinds` is narrower (Changsha 碰碰胡).
    pub all_pungs_any_pair: bool,
    /// A standard hand of one suit may have any pair (Changsha 清一色).
    pub one_suit_any_pair: bool,
    /// 将将胡: every tile a 2, 5 or 8, with no structure needed.
    pub all_258: bool,
    /// Wilds may stand for a kind whose four copies are all held (Longgang: "如手牌已碰
    /// 红中…再胡红中配两财神，计3台"); real tiles are still four a kind.
    pub wilds_beyond_copies: bool,
}

impl Forms {
    /// Only the standard form with any pair.
    pub fn standard(melds: u8) -> Self {
        Forms {
            melds,
            standard: true,
            pair_kinds: ALL_KINDS,
            seven_pairs: false,
            four_as_two_pairs: false,
            eight_pairs_and_a_half: false,
            thirteen_orphans: false,
            honours_and_knitted: false,
            knitted_straight: false,
            all_pungs_any_pair: false,
            one_suit_any_pair: false,
            all_258: false,
            wilds_beyond_copies: false,
        }
    }

    /// MCR's forms: the standard, seven pairs (a four counting as two pairs), thirteen
    /// orphans, honours and knitted, the knitted straight.
    pub fn mcr() -> Self {
        Forms {
            seven_pairs: true,
            four_as_two_pairs: true,
            thirteen_orphans: true,
            honours_and_knitted: true,
            knitted_straight: true,
            ..Forms::standard(4)
        }
    }

    /// Changsha's forms, as its ruleset's data gives them (`python/haidi/rulesets/changsha.py`),
    /// for the tests: a 2-5-8 pair, seven pairs, and any pair in 碰碰胡, 清一色 and 将将胡.
    #[cfg(test)]
    pub fn changsha() -> Self {
        Forms {
            pair_kinds: KINDS_258,
            seven_pairs: true,
            four_as_two_pairs: true,
            all_pungs_any_pair: true,
            one_suit_any_pair: true,
            all_258: true,
            ..Forms::standard(4)
        }
    }

    /// Tiles of a hand one short of complete (13 or 16).
    pub fn ready_size(&self) -> usize {
        self.melds as usize * 3 + 1
    }

    /// Whether a special form fits this hand size: seven pairs and the knitted forms are
    /// 14-tile shapes, eight pairs and a half is a 17-tile shape.
    pub fn fits(&self, form: Form) -> bool {
        match form {
            Form::SevenPairs | Form::ThirteenOrphans | Form::HonoursAndKnitted | Form::KnittedStraight => {
                self.melds == 4
            }
            Form::EightPairsAndAHalf => self.melds == 5,
            _ => true,
        }
    }
}

/// The shape of a complete hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Form {
    Standard,
    SevenPairs,
    EightPairsAndAHalf,
    ThirteenOrphans,
    HonoursAndKnitted,
    KnittedStraight,
    All258,
}

impl Form {
    pub fn name(self) -> &'static str {
        match self {
            Form::Standard => "standard",
            Form::SevenPairs => "seven_pairs",
            Form::EightPairsAndAHalf => "eight_pairs_and_a_half",
            Form::ThirteenOrphans => "thirteen_orphans",
            Form::HonoursAndKnitted => "honours_and_knitted",
            Form::KnittedStraight => "knitted_straight",
            Form::All258 => "all_258",
        }
    }
}

/// Facts about the declared melds that decide which forms are still open.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MeldShape {
    pub count: u8,
    pub chows: bool,
    /// Bit s set when a meld is of suit s (3 = honours).
    pub suits: u8,
    /// Every meld is a pung or kong of a 2, 5 or 8.
    pub all_258: bool,
}

/// A hand prepared for counting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// Concealed tiles that are not wild.
    pub counts: Counts,
    /// Wild tiles held (copies of the wild kinds, plus any extra wilds such as a seat flower).
    pub wilds: u8,
    /// Copies of the wild kinds the player does not hold (concealed or melded): wilds that
    /// may still be drawn. Where wilds stand past a kind's copies, a place past them is
    /// filled by a wild held or drawn.
    pub drawable: u8,
    /// Most tiles that may stand for each kind in the concealed part: four less the
    /// melded copies, zero for kinds the ruleset does not play with.
    pub caps: Counts,
    pub melds: MeldShape,
}

impl View {
    /// Prepares `hand` for counting with the kinds in `wild_kinds` wild and
    /// `extra_wilds` more wild tiles held (e.g. a flower that acts as a wild).
    pub fn new(hand: &Hand, tile_set: u64, wild_kinds: u64, extra_wilds: u8) -> View {
        let melded = hand.melded();
        let mut counts = hand.concealed;
        let mut wilds = extra_wilds;
        let mut drawable = 0;
        let mut caps = [0u8; KINDS];
        for t in 0..KINDS {
            if wild_kinds >> t & 1 == 1 {
                wilds += counts[t];
                if tile_set >> t & 1 == 1 {
                    drawable += 4u8.saturating_sub(counts[t] + melded[t]);
                }
                counts[t] = 0;
            }
            if tile_set >> t & 1 == 1 {
                caps[t] = 4u8.saturating_sub(melded[t]);
            }
        }
        let mut shape = MeldShape { count: hand.melds.len() as u8, all_258: true, ..Default::default() };
        for m in &hand.melds {
            shape.chows |= m.kind == MeldKind::Chow;
            shape.suits |= 1 << tiles::suit(m.tile);
            shape.all_258 &= m.kind != MeldKind::Chow && KINDS_258 >> m.tile & 1 == 1;
        }
        View { counts, wilds, drawable, caps, melds: shape }
    }

    /// Lets the wilds stand for kinds of `tile_set` past their four copies, as `forms`
    /// asks: each kind gets room for every wild held or still to be drawn. (Room for a
    /// drawn wild is what makes a hand such as `12m7777m4p13s4z[2222s][3333m]`, with 4m
    /// wild, two from ready: a drawn 4m may stand for the melded 3m, 2s and a fifth 7m.)
    pub fn with_forms(mut self, forms: &Forms, tile_set: u64) -> View {
        if forms.wilds_beyond_copies {
            for t in 0..KINDS {
                if tile_set >> t & 1 == 1 {
                    self.caps[t] += self.wilds + self.drawable;
                }
            }
        }
        self
    }

    /// Tiles in the concealed part, wilds included.
    pub fn len(&self) -> usize {
        self.counts.iter().map(|&c| c as usize).sum::<usize>() + self.wilds as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Checks that the hand's tiles are in the tile set and its size fits the forms:
/// `ready` asks for a hand one tile short (13/16), otherwise a complete-size hand
/// (14/17); `None` accepts either. `extra` wild tiles held outside the concealed
/// tiles (a flower playing as a wild) count towards the size.
pub fn check_hand(
    hand: &Hand,
    forms: &Forms,
    tile_set: u64,
    ruleset: &str,
    ready: Option<bool>,
    extra: usize,
) -> Result<()> {
    let held = hand.held();
    for t in 0..KINDS {
        if held[t] > 0 && tile_set >> t & 1 == 0 {
            return Err(HandError::new(ErrorKind::NotInTileSet {
                tile: tiles::name(t as Tile),
                ruleset: ruleset.to_string(),
            }));
        }
    }
    let m = forms.melds as usize;
    if hand.melds.len() > m {
        return Err(HandError::invalid(format!(
            "{} melds declared; a {ruleset} hand has at most {m}",
            hand.melds.len()
        )));
    }
    let size = hand.size() + extra;
    let (short, full) = (3 * m + 1, 3 * m + 2);
    let ok = match ready {
        Some(true) => size == short,
        Some(false) => size == full,
        None => size == short || size == full,
    };
    if !ok {
        let expected = match ready {
            Some(true) => format!("{short} (a hand waiting for its last tile)"),
            Some(false) => format!("{full} (a complete hand)"),
            None => format!("{short} or {full}"),
        };
        return Err(HandError::new(ErrorKind::WrongSize { tiles: size, expected }));
    }
    Ok(())
}
