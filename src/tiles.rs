//! Tile kinds, flowers and their written forms.
//!
//! A tile kind is an index `0..34`: characters (万, `m`) 0-8, dots (筒, `p`) 9-17,
//! bamboo (条/索, `s`) 18-26, then the honours 27-33 in the order east, south, west,
//! north, white, green, red (`1z`-`7z`). Flowers (花) are `0..8`: spring, summer,
//! autumn, winter, plum, orchid, bamboo, chrysanthemum (`1f`-`8f`).

/// Number of tile kinds.
pub const KINDS: usize = 34;
/// Number of flower tiles.
pub const FLOWERS: usize = 8;

/// A tile kind, `0..34`.
pub type Tile = u8;

/// Tile counts by kind.
pub type Counts = [u8; KINDS];

/// Suit letters in kind order.
pub const SUIT_LETTERS: [char; 4] = ['m', 'p', 's', 'z'];

/// The first kind of the honours (east wind).
pub const HONOURS: Tile = 27;
pub const EAST: Tile = 27;
pub const WHITE: Tile = 31;
pub const GREEN: Tile = 32;
pub const RED: Tile = 33;

/// Suit of a kind: 0 characters, 1 dots, 2 bamboo, 3 honours.
#[inline]
pub const fn suit(t: Tile) -> u8 {
    t / 9
}

/// Rank 1-9 of a suited kind (1-7 for honours).
#[inline]
pub const fn rank(t: Tile) -> u8 {
    t % 9 + 1
}

#[inline]
pub const fn is_honour(t: Tile) -> bool {
    t >= HONOURS
}

/// Terminals and honours (幺九).
#[inline]
pub const fn is_orphan(t: Tile) -> bool {
    is_honour(t) || t % 9 == 0 || t % 9 == 8
}

/// The thirteen kinds of thirteen orphans (十三幺).
pub const ORPHANS: [Tile; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];

/// Bitmask over kinds with every kind set.
pub const ALL_KINDS: u64 = (1 << KINDS) - 1;
/// Bitmask of the 27 suited kinds.
pub const SUITED_KINDS: u64 = (1 << 27) - 1;
/// Bitmask of the 2, 5 and 8 of each suit (二五八将).
pub const KINDS_258: u64 = {
    let mut m = 0u64;
    let mut s = 0;
    while s < 3 {
        m |= (1 << (s * 9 + 1)) | (1 << (s * 9 + 4)) | (1 << (s * 9 + 7));
        s += 1;
    }
    m
};

/// The places of the bits set in `mask`, lowest first (the kinds of a mask of kinds, the
/// patterns of a mask of patterns); [`mask_tiles`] gives the kinds as tiles.
pub fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            i
        })
    })
}

/// Compact name of a kind, e.g. `"5p"`, `"7z"`.
pub fn name(t: Tile) -> String {
    format!("{}{}", rank(t), SUIT_LETTERS[suit(t) as usize])
}

/// Compact name of a flower, e.g. `"1f"`.
pub fn flower_name(f: u8) -> String {
    format!("{}f", f + 1)
}

/// Unicode glyph of a kind (the Mahjong Tiles block).
pub fn glyph(t: Tile) -> char {
    let cp = match suit(t) {
        0 => 0x1F007 + (t as u32),      // 🀇 one of characters
        1 => 0x1F019 + (t as u32 - 9),  // 🀙 one of circles
        2 => 0x1F010 + (t as u32 - 18), // 🀐 one of bamboos
        _ => HONOUR_GLYPHS[(t - HONOURS) as usize],
    };
    char::from_u32(cp).unwrap_or('?')
}

/// Glyphs of east, south, west, north, white, green, red.
const HONOUR_GLYPHS: [u32; 7] = [0x1F000, 0x1F001, 0x1F002, 0x1F003, 0x1F006, 0x1F005, 0x1F004];
/// Glyphs of spring, summer, autumn, winter, plum, orchid, bamboo, chrysanthemum.
const FLOWER_GLYPHS: [u32; 8] = [0x1F026, 0x1F027, 0x1F028, 0x1F029, 0x1F022, 0x1F023, 0x1F024, 0x1F025];

/// Unicode glyph of a flower.
pub fn flower_glyph(f: u8) -> char {
    char::from_u32(FLOWER_GLYPHS[f as usize]).unwrap_or('?')
}

/// What a glyph stands for, if it is a tile or flower glyph.
pub fn from_glyph(c: char) -> Option<Glyph> {
    let cp = c as u32;
    match cp {
        0x1F007..=0x1F00F => Some(Glyph::Tile((cp - 0x1F007) as Tile)),
        0x1F019..=0x1F021 => Some(Glyph::Tile((cp - 0x1F019 + 9) as Tile)),
        0x1F010..=0x1F018 => Some(Glyph::Tile((cp - 0x1F010 + 18) as Tile)),
        _ => {
            if let Some(i) = HONOUR_GLYPHS.iter().position(|&g| g == cp) {
                Some(Glyph::Tile(HONOURS + i as Tile))
            } else {
                FLOWER_GLYPHS.iter().position(|&g| g == cp).map(|i| Glyph::Flower(i as u8))
            }
        }
    }
}

/// A decoded glyph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Glyph {
    Tile(Tile),
    Flower(u8),
}

/// Compact notation of a tile multiset given as counts, suits in the order m, p, s, z:
/// `[3,1,..]` becomes `"1112m..."`.
pub fn counts_to_string(counts: &Counts) -> String {
    let mut out = String::new();
    for s in 0..4u8 {
        let lo = s * 9;
        let hi = if s == 3 { KINDS as u8 } else { lo + 9 };
        let mut any = false;
        for t in lo..hi {
            for _ in 0..counts[t as usize] {
                out.push(char::from(b'0' + rank(t)));
                any = true;
            }
        }
        if any {
            out.push(SUIT_LETTERS[s as usize]);
        }
    }
    out
}

/// Compact notation of a list of kinds, sorted.
pub fn tiles_to_string(tiles: &[Tile]) -> String {
    let mut counts = [0u8; KINDS];
    for &t in tiles {
        counts[t as usize] = counts[t as usize].saturating_add(1);
    }
    counts_to_string(&counts)
}

/// The kinds with a tile in `counts`, as a bitmask.
pub fn kinds_mask(counts: &Counts) -> u64 {
    (0..KINDS).filter(|&t| counts[t] > 0).fold(0, |m, t| m | 1 << t)
}

/// Kinds set in a bitmask, in order.
pub fn mask_tiles(mask: u64) -> impl Iterator<Item = Tile> {
    // By the set bits alone: most masks in hot loops are nearly empty.
    let mut mask = mask & ((1 << KINDS) - 1);
    std::iter::from_fn(move || {
        let t = mask.trailing_zeros();
        mask &= mask.wrapping_sub(1);
        (t < 64).then_some(t as Tile)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_glyphs_round_trip() {
        for t in 0..KINDS as Tile {
            assert_eq!(from_glyph(glyph(t)), Some(Glyph::Tile(t)), "{}", name(t));
        }
        for f in 0..FLOWERS as u8 {
            assert_eq!(from_glyph(flower_glyph(f)), Some(Glyph::Flower(f)));
        }
        assert_eq!(name(0), "1m");
        assert_eq!(name(33), "7z");
        assert_eq!(glyph(33), '🀄');
        assert_eq!(glyph(31), '🀆');
    }

    #[test]
    fn masks() {
        assert_eq!(KINDS_258.count_ones(), 9);
        assert_eq!(mask_tiles(KINDS_258).map(rank).collect::<Vec<_>>(), [2, 5, 8, 2, 5, 8, 2, 5, 8]);
        assert!(ORPHANS.iter().all(|&t| is_orphan(t)));
    }
}
