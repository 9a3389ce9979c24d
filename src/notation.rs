//! Reading hands from text.
//!
//! Two notations are read, and the caller says which: haidi's compact notation
//! (`123m456p11z[789s]{1111z}1f`, Unicode glyphs allowed anywhere a tile may stand) and
//! the string format of ChineseOfficialMahjongHelper / GB-Mahjong (`[EEE,2]19m...`),
//! where `[1111m]` without an offset is a concealed kong. They disagree on brackets, so
//! the format is never guessed.

use crate::error::{ErrorKind, HandError, Result};
use crate::hand::{Hand, Meld, MeldKind, Melds, MAX_MELDS};
use crate::inline::Inline;
use crate::tiles::{self, Glyph, Tile, KINDS};

/// Which notation a text is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// haidi's compact notation: `[...]` exposed meld, `{...}` concealed kong,
    /// `[5555p+]` added kong, honours `1z`-`7z`, flowers `1f`-`8f`.
    Compact,
    /// ChineseOfficialMahjongHelper: honours `E S W N C F P`, `[xxx,N]` melds with the
    /// supplier's seat offset, `[xxxx]` without offset a concealed kong.
    Comh,
}

/// A parsed hand and, for COMH strings, the situation text after the first `|`.
pub struct Parsed<'a> {
    pub hand: Hand,
    pub rest: Option<&'a str>,
}

/// One tile as read, with where it stood.
#[derive(Clone, Copy)]
enum Item {
    Tile(Tile),
    Flower(u8),
}

/// Most tiles (flowers included) one text may name. The reader's buffers are inline: no
/// hand needs more places, and text that would overflow one is refused as too long
/// instead of allocating for it.
const MAX_TILES: usize = 64;

type Items = Inline<(Item, usize), MAX_TILES>;

fn too_long(input: &str, pos: usize, what: &str) -> HandError {
    HandError::at(ErrorKind::Invalid(format!("too many {what} for one hand")), pos, input)
}

struct Reader<'a> {
    input: &'a str,
    format: Format,
    /// Digits waiting for their suit letter: (digit, position).
    pending: Inline<(u8, usize), MAX_TILES>,
}

impl<'a> Reader<'a> {
    fn err(&self, kind: ErrorKind, pos: usize) -> HandError {
        HandError::at(kind, pos, self.input)
    }

    /// Turns pending digits into items of the suit `letter` found at `pos`.
    fn flush(&mut self, letter: char, pos: usize, out: &mut Items) -> Result<()> {
        if self.pending.is_empty() {
            return Err(self.err(ErrorKind::EmptySuit(letter), pos));
        }
        let (base, max) = match letter {
            'm' => (0u8, 9u8),
            'p' => (9, 9),
            's' => (18, 9),
            'z' if self.format == Format::Compact => (27, 7),
            'f' if self.format == Format::Compact => (0, 8),
            _ => return Err(self.err(ErrorKind::UnknownChar(letter), pos)),
        };
        for &(d, p) in self.pending.iter() {
            if d == 0 || d > max {
                return Err(self.err(ErrorKind::BadRank(format!("{d}{letter}")), p));
            }
            let item = if letter == 'f' { Item::Flower(d - 1) } else { Item::Tile(base + d - 1) };
            if !out.push((item, p)) {
                return Err(too_long(self.input, p, "tiles"));
            }
        }
        self.pending.clear();
        Ok(())
    }

    fn check_no_pending(&self) -> Result<()> {
        match self.pending.first() {
            Some(&(_, p)) => Err(self.err(ErrorKind::MissingSuit, p)),
            None => Ok(()),
        }
    }
}

fn comh_honour(c: char) -> Option<Tile> {
    let i = ['E', 'S', 'W', 'N', 'P', 'F', 'C'].iter().position(|&h| h == c)?;
    Some(tiles::HONOURS + i as Tile)
}

/// The suit of a letter byte (0-3 for m p s z), [`CLOSE`] for a closing bracket, and
/// 255 for anything else: one look-up instead of a branch for each letter.
const LETTER: [u8; 256] = {
    let mut t = [255u8; 256];
    t[b'm' as usize] = 0;
    t[b'p' as usize] = 1;
    t[b's' as usize] = 2;
    t[b'z' as usize] = 3;
    t[b'f' as usize] = FLOWERS;
    t[b']' as usize] = CLOSE;
    t[b'}' as usize] = CLOSE;
    t
};
const FLOWERS: u8 = 4;
const CLOSE: u8 = 5;

/// Compact notation of the usual shape, read without the general reader: digits with
/// suit letters `m p s z` (and `f`, flowers, each at most once), and brackets `[..]` /
/// `{..}` holding three or four digits of one suit. Anything else, and any mistake, gives
/// `None`, and `parse` reads the text again to say what is wrong and where.
///
/// The text is read backwards, so that a digit meets its suit letter first. A run of
/// digits is counted in one register, a byte per rank, and added to its suit at the next
/// letter; ranks a suit does not have and fifth copies are looked for once, at the end.
fn parse_plain(input: &[u8]) -> Option<Hand> {
    // One tile of each rank in a run's register (a table, not a 128-bit shift).
    const RANK_ONE: [u128; 9] = {
        let mut one = [0u128; 9];
        let mut r = 0;
        while r < 9 {
            one[r] = 1 << (8 * r);
            r += 1;
        }
        one
    };
    // Longer texts are the general reader's (no count can overflow below this).
    if input.len() > 96 {
        return None;
    }
    const NO_SUIT: usize = 5;
    // m p s z, then the flowers.
    let mut suits = [0u128; 5];
    let (mut run, mut run_len, mut suit) = (0u128, 0, NO_SUIT);
    let mut last: Option<(usize, u8)> = None;
    let mut melds = Melds::new();
    let mut i = input.len();
    while i > 0 {
        i -= 1;
        let b = input[i];
        let rank = b.wrapping_sub(b'1');
        if rank < 9 {
            if suit == NO_SUIT {
                return None;
            }
            run += RANK_ONE[rank as usize];
            run_len += 1;
            if suit < FLOWERS as usize {
                last = last.or(Some((suit, rank)));
            }
            continue;
        }
        // A letter or a bracket ends the run of digits before it (in reading order after).
        if suit != NO_SUIT {
            if run_len == 0 {
                return None;
            }
            suits[suit] += run;
        }
        (run, run_len) = (0, 0);
        suit = match LETTER[b as usize] {
            s @ 0..=FLOWERS => s as usize,
            CLOSE => {
                let (meld, start) = plain_meld(input, i)?;
                if melds.len() == MAX_MELDS {
                    return None;
                }
                melds.push(meld);
                i = start;
                NO_SUIT
            }
            _ => return None,
        };
    }
    if suit != NO_SUIT {
        if run_len == 0 {
            return None;
        }
        suits[suit] += run;
    }
    // Honours stop at 7z, flowers at 8f; each flower is in the set once.
    let flowers = suits[4].to_le_bytes();
    if suits[3] >> 56 != 0 || suits[4] >> 64 != 0 || flowers.iter().any(|&n| n > 1) {
        return None;
    }
    let mut hand = Hand { flowers: (0..8).fold(0, |m, f| m | flowers[f] << f), ..Hand::default() };
    for (s, counts) in suits[..4].iter().enumerate() {
        let ranks = if s == 3 { 7 } else { 9 };
        hand.concealed[s * 9..s * 9 + ranks].copy_from_slice(&counts.to_le_bytes()[..ranks]);
    }
    let mut held = hand.concealed;
    for m in melds.iter().rev() {
        m.add_to(&mut held);
        hand.melds.push(*m);
    }
    if held.iter().any(|&h| h > 4) {
        return None;
    }
    hand.last = last.map(|(s, r)| (s * 9) as Tile + r);
    Some(hand)
}

/// The meld in brackets that close at `close`: three or four digits of one suit, `[..]`
/// a chow, pung or exposed kong, `{..}` a concealed kong. Returns it and where its
/// opening bracket stands.
fn plain_meld(input: &[u8], close: usize) -> Option<(Meld, usize)> {
    let open = if input[close] == b']' { b'[' } else { b'{' };
    let start = input[..close].iter().rposition(|&c| c == open)?;
    let (&letter, ranks) = input[start + 1..close].split_last()?;
    let (first, max) = match LETTER[letter as usize] {
        3 => (27, 7),
        s @ 0..=2 => (9 * s, 9),
        _ => return None,
    };
    if !(3..=4).contains(&ranks.len()) {
        return None;
    }
    let mut ts = [0 as Tile; 4];
    for (slot, &d) in ts.iter_mut().zip(ranks) {
        *slot = first + d.checked_sub(b'1').filter(|&r| r < max)?;
    }
    let ts = &mut ts[..ranks.len()];
    ts.sort_unstable();
    let same = ts[0] == ts[ts.len() - 1];
    let kind = match (ts.len(), same, open) {
        (3, true, b'[') => MeldKind::Pung,
        (3, false, b'[') if letter != b'z' && ts[1] == ts[0] + 1 && ts[2] == ts[0] + 2 => MeldKind::Chow,
        (4, true, b'[') => MeldKind::Kong,
        (4, true, b'{') => MeldKind::ConcealedKong,
        _ => return None,
    };
    Some((Meld { kind, tile: ts[0], from: None }, start))
}

/// Reads a hand. For [`Format::Comh`], reading stops at the first `|` and the rest is
/// returned; in compact notation a `|` is an error.
pub fn parse(input: &str, format: Format) -> Result<Parsed<'_>> {
    if format == Format::Compact {
        if let Some(hand) = parse_plain(input.as_bytes()) {
            return Ok(Parsed { hand, rest: None });
        }
    }
    read(input, format)
}

/// The general reader behind [`parse`]: every notation, and errors with positions.
fn read(input: &str, format: Format) -> Result<Parsed<'_>> {
    let none = (Item::Tile(0), 0);
    let mut r = Reader { input, format, pending: Inline::filled((0, 0)) };
    let mut concealed: Items = Inline::filled(none);
    let no_meld = (Meld { kind: MeldKind::Chow, tile: 0, from: None }, 0);
    let mut melds: Inline<(Meld, usize), MAX_MELDS> = Inline::filled(no_meld);
    let mut rest = None;
    // Inside a bracket: its opening char and position, tiles read so far, the offset,
    // and whether a `+` was seen.
    let mut open: Option<(char, usize)> = None;
    let mut inner: Items = Inline::filled(none);
    let mut offset: Option<(u8, usize)> = None;
    let mut in_offset = false;
    let mut plus = false;

    for (pos, (byte_pos, c)) in input.char_indices().enumerate() {
        if c.is_ascii_digit() {
            let d = c as u8 - b'0';
            if in_offset {
                if offset.is_some() {
                    return Err(r.err(ErrorKind::Misplaced("offset has more than one digit".into()), pos));
                }
                offset = Some((d, pos));
            } else {
                if !r.pending.push((d, pos)) {
                    return Err(too_long(input, pos, "tiles"));
                }
            }
            continue;
        }
        if c.is_whitespace() {
            continue;
        }
        let target = if open.is_some() { &mut inner } else { &mut concealed };
        match c {
            'm' | 'p' | 's' | 'z' | 'f' if !in_offset => r.flush(c, pos, target)?,
            'E' | 'S' | 'W' | 'N' | 'C' | 'F' | 'P' if format == Format::Comh && !in_offset => {
                r.check_no_pending()?;
                target.push((Item::Tile(comh_honour(c).unwrap_or(0)), pos));
            }
            '|' if format == Format::Comh && open.is_none() => {
                r.check_no_pending()?;
                rest = Some(&input[byte_pos + 1..]);
                break;
            }
            '[' | '{' => {
                r.check_no_pending()?;
                if open.is_some() || (c == '{' && format == Format::Comh) {
                    return Err(r.err(ErrorKind::Bracket(c), pos));
                }
                open = Some((c, pos));
                inner.clear();
                offset = None;
                in_offset = false;
                plus = false;
            }
            ',' if open.map(|o| o.0) == Some('[') && !in_offset => {
                r.check_no_pending()?;
                in_offset = true;
            }
            '+' if open.map(|o| o.0) == Some('[') && format == Format::Compact && !in_offset => {
                r.check_no_pending()?;
                plus = true;
            }
            ']' | '}' => {
                r.check_no_pending()?;
                if in_offset && offset.is_none() {
                    return Err(r.err(ErrorKind::Misplaced("a ',' with no seat offset after it".into()), pos));
                }
                let Some((oc, opos)) = open else {
                    return Err(r.err(ErrorKind::Bracket(c), pos));
                };
                if (oc == '[') != (c == ']') {
                    return Err(r.err(ErrorKind::Bracket(c), pos));
                }
                let meld = make_meld(&r, oc, opos, &inner, offset, plus)?;
                if !melds.push((meld, opos)) {
                    return Err(too_long(input, opos, "melds"));
                }
                open = None;
                in_offset = false;
            }
            _ => {
                if format == Format::Compact && !in_offset {
                    if let Some(g) = tiles::from_glyph(c) {
                        r.check_no_pending()?;
                        target.push((
                            match g {
                                Glyph::Tile(t) => Item::Tile(t),
                                Glyph::Flower(f) => Item::Flower(f),
                            },
                            pos,
                        ));
                        continue;
                    }
                }
                return Err(r.err(ErrorKind::UnknownChar(c), pos));
            }
        }
    }
    r.check_no_pending()?;
    if let Some((oc, opos)) = open {
        return Err(r.err(ErrorKind::Bracket(oc), opos));
    }

    let mut hand = Hand::default();
    let mut held = [0u8; KINDS];
    let add = |t: Tile, pos: usize, held: &mut [u8; KINDS]| -> Result<()> {
        held[t as usize] += 1;
        if held[t as usize] > 4 {
            return Err(HandError::at(ErrorKind::FifthCopy(tiles::name(t)), pos, input));
        }
        Ok(())
    };
    // Melds first so that a fifth copy is reported at the concealed tile, where the
    // mistake usually is.
    for (m, pos) in melds.iter() {
        for t in m.tiles() {
            add(t, *pos, &mut held)?;
        }
        // `melds` holds at most MAX_MELDS, as many as a hand can.
        hand.melds.push(*m);
    }
    for &(item, pos) in concealed.iter() {
        match item {
            Item::Tile(t) => {
                add(t, pos, &mut held)?;
                hand.concealed[t as usize] += 1;
                hand.last = Some(t);
            }
            Item::Flower(f) => {
                if hand.flowers >> f & 1 == 1 {
                    return Err(HandError::at(
                        ErrorKind::FifthCopy(format!("{} (each flower exists once)", tiles::flower_name(f))),
                        pos,
                        input,
                    ));
                }
                hand.flowers |= 1 << f;
            }
        }
    }
    Ok(Parsed { hand, rest })
}

fn make_meld(
    r: &Reader<'_>,
    open: char,
    pos: usize,
    inner: &[(Item, usize)],
    offset: Option<(u8, usize)>,
    plus: bool,
) -> Result<Meld> {
    let text = |why: &str| ErrorKind::BadMeld(why.to_string());
    let mut ts: Vec<Tile> = Vec::with_capacity(4);
    for &(item, p) in inner {
        match item {
            Item::Tile(t) => ts.push(t),
            Item::Flower(_) => return Err(r.err(ErrorKind::Misplaced("a flower cannot be part of a meld".into()), p)),
        }
    }
    ts.sort_unstable();
    // COMH writes an added kong as the supplier's offset plus 4.
    let comh_added = r.format == Format::Comh && matches!(offset, Some((5..=7, _)));
    let offset = if comh_added { offset.map(|(o, p)| (o - 4, p)) } else { offset };
    if let Some((o, p)) = offset {
        if !(1..=3).contains(&o) {
            let allowed = if r.format == Format::Comh { "1-3, or 5-7 for an added kong" } else { "1, 2 or 3" };
            return Err(r.err(ErrorKind::Misplaced(format!("seat offset {o} (must be {allowed})")), p));
        }
        if open == '{' {
            return Err(r.err(ErrorKind::Misplaced("a concealed kong has no supplier".into()), p));
        }
    }
    let same = ts.windows(2).all(|w| w[0] == w[1]);
    let kind = match (ts.len(), same) {
        (3, true) => MeldKind::Pung,
        (3, false) => {
            let run = tiles::suit(ts[0]) < 3
                && tiles::suit(ts[0]) == tiles::suit(ts[2])
                && ts[1] == ts[0] + 1
                && ts[2] == ts[0] + 2;
            if !run {
                return Err(r.err(text("three tiles that are neither a chow nor a pung"), pos));
            }
            MeldKind::Chow
        }
        (4, true) => {
            if open == '{' {
                MeldKind::ConcealedKong
            } else if plus || comh_added {
                MeldKind::AddedKong
            } else if r.format == Format::Comh && offset.is_none() {
                MeldKind::ConcealedKong
            } else {
                MeldKind::Kong
            }
        }
        (4, false) => return Err(r.err(text("four tiles that are not four of a kind"), pos)),
        (0, _) => return Err(r.err(text("empty brackets"), pos)),
        (n, _) => return Err(r.err(text(&format!("{n} tiles (a meld has 3 or 4)")), pos)),
    };
    if open == '{' && kind != MeldKind::ConcealedKong {
        return Err(r.err(text("braces hold a concealed kong of four tiles"), pos));
    }
    if (plus || comh_added) && kind != MeldKind::AddedKong {
        return Err(r.err(text("'+' marks an added kong of four tiles"), pos));
    }
    Ok(Meld { kind, tile: ts[0], from: offset.map(|o| o.0) })
}

/// Reads a single tile kind, e.g. `"5p"`, `"7z"` or a glyph (`"E"`... in COMH format).
pub fn parse_tile(input: &str, format: Format) -> Result<Tile> {
    // The common case, a digit and a suit letter, without the general reader.
    if let [d @ b'1'..=b'9', letter] = input.as_bytes() {
        let rank = d - b'1';
        match (letter, format) {
            (b'm', _) => return Ok(rank),
            (b'p', _) => return Ok(9 + rank),
            (b's', _) => return Ok(18 + rank),
            (b'z', Format::Compact) if rank < 7 => return Ok(27 + rank),
            _ => {}
        }
    }
    let p = parse(input, format)?;
    let h = p.hand;
    if h.melds.is_empty() && h.flowers == 0 && h.concealed_len() == 1 {
        if let Some(t) = h.last {
            return Ok(t);
        }
    }
    Err(HandError::at(ErrorKind::Invalid("expected exactly one tile".into()), 0, input))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compact(s: &str) -> Result<Hand> {
        parse(s, Format::Compact).map(|p| p.hand)
    }

    #[test]
    fn compact_round_trip() {
        let h = compact("123m456p11z[789s]{2222z}[9999p+][777m,2]13f").unwrap();
        assert_eq!(h.concealed_len(), 8);
        assert_eq!(h.melds.len(), 4);
        assert_eq!(h.melds[1].kind, MeldKind::ConcealedKong);
        assert_eq!(h.melds[2].kind, MeldKind::AddedKong);
        assert_eq!(h.melds[3].from, Some(2));
        assert_eq!(h.flowers, 0b101);
        assert_eq!(h.notation(), "123m456p11z[789s]{2222z}[9999p+][777m,2]13f");
        assert_eq!(compact(&h.notation()).unwrap(), h);
    }

    #[test]
    fn glyphs() {
        let h = compact("🀇🀈🀉 🀄🀄").unwrap();
        assert_eq!(h.notation(), "123m77z");
    }

    #[test]
    fn comh_kongs_and_honours() {
        let p = parse("[EEE,2][SSSS,1][CCCC]WN55pN|EE1000", Format::Comh).unwrap();
        assert_eq!(p.rest, Some("EE1000"));
        let h = p.hand;
        assert_eq!(h.melds[1].kind, MeldKind::Kong);
        assert_eq!(h.melds[2].kind, MeldKind::ConcealedKong);
        assert_eq!(h.melds[2].tile, tiles::RED);
        assert_eq!(h.last, Some(30));
        let added = parse("[5555p,6]", Format::Comh).unwrap().hand.melds[0];
        assert_eq!((added.kind, added.from), (MeldKind::AddedKong, Some(2)));
        // The same brackets mean an exposed kong in compact notation.
        assert_eq!(compact("[1111m]").unwrap().melds[0].kind, MeldKind::Kong);
    }

    #[test]
    fn single_tiles() {
        for t in 0..KINDS as Tile {
            assert_eq!(parse_tile(&tiles::name(t), Format::Compact), Ok(t));
        }
        assert_eq!(parse_tile("E", Format::Comh), Ok(27));
        assert!(parse_tile("8z", Format::Compact).is_err());
        assert!(parse_tile("1z", Format::Comh).is_err());
        assert!(parse_tile("0m", Format::Compact).is_err());
        assert!(parse_tile("11m", Format::Compact).is_err());
    }

    #[test]
    fn the_plain_reader_agrees_with_the_general_one() {
        // Texts from the characters both readers meet, valid or not: wherever the plain
        // reader accepts a text, the general one reads the same hand.
        let alphabet = b"1234567890mpsz[]{}+,f ";
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut accepted = 0;
        for i in 0..200_000 {
            let text: String = if i % 2 == 0 {
                (0..next(20)).map(|_| alphabet[next(alphabet.len())] as char).collect()
            } else {
                // Mostly well-formed: runs of one suit and brackets.
                (0..next(6))
                    .map(|_| {
                        let letter = ["m", "p", "s", "z", "f"][next(5)];
                        let digits: String = (0..1 + next(4)).map(|_| char::from(b'1' + next(9) as u8)).collect();
                        match next(4) {
                            0 => format!("[{digits}{letter}]"),
                            1 => format!("{{{digits}{letter}}}"),
                            _ => format!("{digits}{letter}"),
                        }
                    })
                    .collect()
            };
            if let Some(fast) = parse_plain(text.as_bytes()) {
                accepted += 1;
                let general = read(&text, Format::Compact).unwrap_or_else(|e| panic!("{text:?}: {e}")).hand;
                assert_eq!((&fast, fast.last), (&general, general.last), "{text:?}");
                assert_eq!(fast.melds.iter().map(|m| m.from).collect::<Vec<_>>(), vec![None; fast.melds.len()]);
            }
        }
        assert!(accepted > 20_000, "{accepted}");
        // Counts that would wrap around are the general reader's to refuse.
        let long = format!("{}m", "1".repeat(257));
        assert!(parse_plain(long.as_bytes()).is_none() && parse(&long, Format::Compact).is_err());
    }

    #[test]
    fn errors_have_positions() {
        let e = compact("12x3m").unwrap_err();
        assert_eq!((e.kind.clone(), e.position), (ErrorKind::UnknownChar('x'), Some(2)));
        assert_eq!(compact("11111m").unwrap_err().position, Some(4));
        assert_eq!(compact("8z").unwrap_err().kind, ErrorKind::BadRank("8z".into()));
        assert_eq!(compact("123").unwrap_err().kind, ErrorKind::MissingSuit);
        assert_eq!(compact("[123m").unwrap_err().kind, ErrorKind::Bracket('['));
        assert!(matches!(compact("[124m]").unwrap_err().kind, ErrorKind::BadMeld(_)));
        assert!(matches!(compact("{111m}").unwrap_err().kind, ErrorKind::BadMeld(_)));
        assert_eq!(compact("m").unwrap_err().kind, ErrorKind::EmptySuit('m'));
        assert!(compact("1m|").is_err());
        assert!(parse("1z", Format::Comh).is_err());
    }
}
