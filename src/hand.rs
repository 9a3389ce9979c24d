//! A player's hand: concealed tiles, declared melds and flowers.

use crate::inline::Inline;
use crate::tiles::{self, Counts, Tile, KINDS};

/// How a meld was declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MeldKind {
    /// 吃: three consecutive suited tiles, one taken from a discard.
    Chow,
    /// 碰: three of a kind, one taken from a discard.
    Pung,
    /// 明杠: four of a kind, one taken from a discard.
    Kong,
    /// 暗杠: four of a kind, all drawn.
    ConcealedKong,
    /// 加杠 / 补杠: a melded pung completed by a drawn fourth tile.
    AddedKong,
}

impl MeldKind {
    pub fn is_kong(self) -> bool {
        matches!(self, MeldKind::Kong | MeldKind::ConcealedKong | MeldKind::AddedKong)
    }

    pub fn name(self) -> &'static str {
        match self {
            MeldKind::Chow => "chow",
            MeldKind::Pung => "pung",
            MeldKind::Kong => "kong",
            MeldKind::ConcealedKong => "concealed_kong",
            MeldKind::AddedKong => "added_kong",
        }
    }
}

/// A declared meld.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Meld {
    pub kind: MeldKind,
    /// The lowest tile of the meld.
    pub tile: Tile,
    /// Seat offset of the player who supplied the tile (1 the next player ... 3 the
    /// previous one, as in ChineseOfficialMahjongHelper), when known.
    pub from: Option<u8>,
}

impl Meld {
    /// The kinds of the meld's tiles, in order (without allocating: melds are counted in
    /// hot paths).
    pub fn tiles(&self) -> impl Iterator<Item = Tile> + Clone {
        let (len, step) = match self.kind {
            MeldKind::Chow => (3, 1),
            MeldKind::Pung => (3, 0),
            _ => (4, 0),
        };
        let first = self.tile;
        (0..len).map(move |i| first + i * step)
    }

    /// Adds the meld's tiles to `counts` without a loop whose length depends on the kind:
    /// the lowest tile gets 1, 3 or 4 copies, the next two 1 each for a chow.
    pub fn add_to(&self, counts: &mut Counts) {
        let chow = (self.kind == MeldKind::Chow) as u8;
        let four = matches!(self.kind, MeldKind::Kong | MeldKind::ConcealedKong | MeldKind::AddedKong) as u8;
        let t = self.tile as usize;
        if let Some(c) = counts.get_mut(t) {
            *c += 3 - 2 * chow + four;
        }
        for next in t + 1..t + 3 {
            if let Some(c) = counts.get_mut(next) {
                *c += chow;
            }
        }
    }

    /// Compact notation: `[123m]`, `[555p,2]`, `[5555p+]`, `{1111z}`.
    pub fn notation(&self) -> String {
        let body = tiles::tiles_to_string(&self.tiles().collect::<Vec<_>>());
        match self.kind {
            MeldKind::ConcealedKong => format!("{{{body}}}"),
            _ => {
                let plus = if self.kind == MeldKind::AddedKong { "+" } else { "" };
                match self.from {
                    Some(f) => format!("[{body}{plus},{f}]"),
                    None => format!("[{body}{plus}]"),
                }
            }
        }
    }
}

/// Most melds one hand may declare (the reader refuses more brackets than this).
pub const MAX_MELDS: usize = 8;

/// The declared melds of a hand, kept inline: reading a hand allocates nothing.
pub type Melds = Inline<Meld, MAX_MELDS>;

const NO_MELD: Meld = Meld { kind: MeldKind::Chow, tile: 0, from: None };

impl Inline<Meld, MAX_MELDS> {
    pub const fn new() -> Melds {
        Inline::filled(NO_MELD)
    }
}

/// Concealed tiles, melds and flowers. Two hands are equal when they hold the same
/// tiles, melds and flowers; `last` only records the order the text was written in.
#[derive(Clone, Debug, Eq)]
pub struct Hand {
    pub concealed: Counts,
    pub melds: Melds,
    /// Bit `f` set when flower `f` is held.
    pub flowers: u8,
    /// The concealed tile written last (in COMH strings: the winning tile).
    pub last: Option<Tile>,
}

impl PartialEq for Hand {
    fn eq(&self, other: &Self) -> bool {
        self.concealed == other.concealed && self.melds == other.melds && self.flowers == other.flowers
    }
}

impl Default for Hand {
    fn default() -> Self {
        Hand { concealed: [0; KINDS], melds: Melds::new(), flowers: 0, last: None }
    }
}

impl Hand {
    /// Number of concealed tiles.
    pub fn concealed_len(&self) -> usize {
        self.concealed.iter().map(|&c| c as usize).sum()
    }

    /// Tiles as the ruleset counts them: concealed tiles plus three per meld.
    pub fn size(&self) -> usize {
        self.concealed_len() + 3 * self.melds.len()
    }

    /// Copies of each kind in the melds.
    pub fn melded(&self) -> Counts {
        let mut m = [0u8; KINDS];
        for meld in &self.melds {
            meld.add_to(&mut m);
        }
        m
    }

    /// Copies of each kind the player holds, concealed and melded.
    pub fn held(&self) -> Counts {
        let mut m = self.melded();
        for (h, c) in m.iter_mut().zip(self.concealed.iter()) {
            *h += c;
        }
        m
    }

    /// Compact notation: concealed tiles (m, p, s, z), melds, flowers.
    pub fn notation(&self) -> String {
        self.notation_after(tiles::counts_to_string(&self.concealed))
    }

    /// Compact notation that reads back to this very hand, its last tile included (which
    /// `==` does not compare): the last tile written after the other concealed tiles.
    pub fn notation_keeping_last(&self) -> String {
        match self.last.filter(|&t| self.concealed.get(t as usize).is_some_and(|&c| c > 0)) {
            Some(t) => {
                let mut others = self.concealed;
                others[t as usize] -= 1;
                self.notation_after(tiles::counts_to_string(&others) + &tiles::name(t))
            }
            None => self.notation(),
        }
    }

    /// `concealed` followed by the melds and flowers in compact notation.
    fn notation_after(&self, concealed: String) -> String {
        let mut out = concealed;
        for m in &self.melds {
            out.push_str(&m.notation());
        }
        if self.flowers != 0 {
            for f in 0..8u8 {
                if self.flowers >> f & 1 == 1 {
                    out.push(char::from(b'1' + f));
                }
            }
            out.push('f');
        }
        out
    }

    /// The same hand with one more concealed tile.
    pub fn with_tile(&self, t: Tile) -> Hand {
        let mut h = self.clone();
        h.concealed[t as usize] += 1;
        h.last = Some(t);
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{parse, Format};

    #[test]
    fn notation_keeping_last_reads_back_to_the_same_hand() {
        for text in ["123m456p[789s,2]{1111z}55z23f", "55z123m", "1m", "[123m][456m][789m][111z]2z", "9p1112345678999m"]
        {
            let h = parse(text, Format::Compact).unwrap().hand;
            let back = parse(&h.notation_keeping_last(), Format::Compact).unwrap().hand;
            assert_eq!((&back, back.last), (&h, h.last), "{text}");
        }
        let h = parse("[123m]", Format::Compact).unwrap().hand;
        assert_eq!(h.notation_keeping_last(), h.notation());
    }

    #[test]
    fn a_meld_adds_its_tiles() {
        let kinds = [MeldKind::Chow, MeldKind::Pung, MeldKind::Kong, MeldKind::ConcealedKong, MeldKind::AddedKong];
        for kind in kinds {
            for tile in 0..KINDS as Tile {
                if kind == MeldKind::Chow && (tile >= 27 || tile % 9 > 6) {
                    continue;
                }
                let m = Meld { kind, tile, from: None };
                let mut by_loop = [0u8; KINDS];
                m.tiles().for_each(|t| by_loop[t as usize] += 1);
                let mut added = [0u8; KINDS];
                m.add_to(&mut added);
                assert_eq!(added, by_loop, "{m:?}");
            }
        }
    }
}
