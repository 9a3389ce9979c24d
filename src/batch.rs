//! Many hands at once, given as rows of 34 tile counts.
//!
//! A row is the concealed part of a hand; `melds[i]` (optional) says how many melds row
//! `i` has declared besides. The batch knows nothing else of those melds, so forms that
//! depend on their shape treat them as chows of mixed suits. Rows run on the pool of
//! [`crate::parallel`] unless `HAIDI_PARALLELISM` turns it off.

use std::ops::Range;

use crate::distance;
use crate::engine::Engine;
use crate::error::{ErrorKind, HandError, Result};
use crate::forms::{MeldShape, View};
use crate::tiles::{self, Counts, ALL_KINDS, KINDS};

/// Rows below this many are not worth spreading over threads.
pub const PARALLEL_MIN_ROWS: usize = 2048;

/// A batch of rows: counts (n x 34, row-major) and declared melds per row.
pub struct Rows<'a> {
    pub counts: &'a [u8],
    pub melds: Option<&'a [u8]>,
    /// The number errors give the first row: a part of a batch names rows as the batch does.
    pub first: usize,
}

impl<'a> Rows<'a> {
    pub fn new(counts: &'a [u8], melds: Option<&'a [u8]>) -> Rows<'a> {
        Rows { counts, melds, first: 0 }
    }

    /// Rows `range` of these (empty where they have no such rows), named as here.
    pub fn part(&self, range: Range<usize>) -> Rows<'a> {
        let counts = self.counts.get(range.start * KINDS..range.end * KINDS).unwrap_or(&[]);
        let melds = self.melds.map(|m| m.get(range.clone()).unwrap_or(&[]));
        Rows { counts, melds, first: self.first + range.start }
    }

    pub fn len(&self) -> usize {
        self.counts.len() / KINDS
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn row(&self, i: usize) -> &Counts {
        // Rows are whole (validate checks the length); an empty row stands in otherwise,
        // so no index can panic.
        static EMPTY: Counts = [0; KINDS];
        self.counts.get(i * KINDS..(i + 1) * KINDS).and_then(|r| r.try_into().ok()).unwrap_or(&EMPTY)
    }

    fn melds(&self, i: usize) -> u8 {
        // As `row`: `check_lengths` makes them one a row; none stands in otherwise.
        self.melds.and_then(|m| m.get(i)).copied().unwrap_or(0)
    }
}

/// The error of row `i` of `rows`, named as the batch names it.
pub fn row_error(rows: &Rows<'_>, i: usize, what: String) -> HandError {
    HandError::new(ErrorKind::Invalid(what)).in_row("row", rows.first + i)
}

/// Checks that the counts are whole rows of 34 and that melds, if given, are one a row.
pub fn check_lengths(rows: &Rows<'_>) -> Result<()> {
    if rows.counts.len() % KINDS != 0 {
        return Err(HandError::invalid("tile counts must have 34 columns"));
    }
    if let Some(m) = rows.melds {
        if m.len() != rows.len() {
            return Err(HandError::invalid(format!("{} meld counts for {} rows", m.len(), rows.len())));
        }
    }
    Ok(())
}

/// Checks every row: counts at most 4, kinds in the tile set, a size that fits
/// (`ready`: 13/16 tiles; `Some(false)`: 14/17; `None`: either).
pub fn validate(engine: &Engine, rows: &Rows<'_>, ready: Option<bool>) -> Result<()> {
    check_lengths(rows)?;
    // A row gives how many melds it declared, not their kinds: forms that the melds'
    // kinds open (Changsha's 碰碰胡 and 清一色 with any pair, 将将胡) cannot be judged. A
    // guess would answer wrongly for every row whose melds open one: refused instead.
    let f = &engine.forms;
    if f.all_pungs_any_pair || f.one_suit_any_pair || f.all_258 {
        if let Some(i) = (0..rows.len()).find(|&i| rows.melds(i) > 0) {
            let what = format!(
                "{} has forms the melds' kinds open (all pungs or one suit with any pair, all 2-5-8), which a \
                 count of melds cannot tell: give such a hand with its melds to shanten, waits or is_win",
                engine.name
            );
            return Err(row_error(rows, i, what));
        }
    }
    let m = engine.forms.melds as usize;
    let missing: [bool; KINDS] = std::array::from_fn(|t| engine.tiles >> t & 1 == 0);
    for i in 0..rows.len() {
        let row = rows.row(i);
        // One cheap pass; the slower searches below only name what is wrong.
        let (size, mut bad) = quick_scan(row);
        if engine.tiles != ALL_KINDS {
            bad |= (0..KINDS).any(|t| row[t] > 0 && missing[t]);
        }
        let melds = rows.melds(i) as usize;
        if !bad && melds <= m {
            let size = size + 3 * melds;
            let ok = match ready {
                Some(true) => size == 3 * m + 1,
                Some(false) => size == 3 * m + 2,
                None => size == 3 * m + 1 || size == 3 * m + 2,
            };
            if ok {
                completable(engine, rows, i, row, melds)?;
                continue;
            }
        }
        if let Some(t) = (0..KINDS).find(|&t| row[t] > 4) {
            return Err(row_error(rows, i, format!("{} copies of {}", row[t], tiles::name(t as u8))));
        }
        if let Some(t) = (0..KINDS).find(|&t| row[t] > 0 && engine.tiles >> t & 1 == 0) {
            return Err(row_error(rows, i, format!("tile {} is not played in {}", tiles::name(t as u8), engine.name)));
        }
        let melds = rows.melds(i) as usize;
        if melds > m {
            return Err(row_error(rows, i, format!("{melds} melds; at most {m}")));
        }
        let size = row.iter().map(|&c| c as usize).sum::<usize>() + 3 * melds;
        let ok = match ready {
            Some(true) => size == 3 * m + 1,
            Some(false) => size == 3 * m + 2,
            None => size == 3 * m + 1 || size == 3 * m + 2,
        };
        if !ok {
            return Err(row_error(rows, i, format!("{size} tiles (melds count 3) do not fit {}", engine.name)));
        }
        completable(engine, rows, i, row, melds)?;
    }
    Ok(())
}

/// Refuses a valid row that no form of the engine can complete (see [`Engine::check`]).
fn completable(engine: &Engine, rows: &Rows<'_>, i: usize, row: &Counts, melds: usize) -> Result<()> {
    if !engine.always_completable()
        && distance::distance(&engine.forms, &view(engine, row, melds as u8, 0)) == distance::INF
    {
        return Err(row_error(rows, i, crate::engine::no_form(&engine.name, melds).to_string()));
    }
    Ok(())
}

/// Tile count of a row and whether any count exceeds 4, eight counts at a time.
#[inline]
fn quick_scan(row: &Counts) -> (usize, bool) {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let (mut size, mut bad) = (0usize, false);
    for chunk in row.chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        // A byte of 5..=127 gets its top bit set by adding 123; 128 and up has it already.
        // Carries can only flag a good row as bad, which the exact search then clears.
        bad |= (w.wrapping_add(0x7B7B_7B7B_7B7B_7B7B) | w) & HIGH != 0;
        size += w.to_le_bytes().iter().map(|&b| b as usize).sum::<usize>();
    }
    (size, bad)
}

pub fn view(engine: &Engine, row: &Counts, melds: u8, wild_kinds: u64) -> View {
    let mut counts = *row;
    let mut wilds = 0;
    let caps = if engine.tiles == ALL_KINDS {
        [4u8; KINDS]
    } else {
        std::array::from_fn(|t| if engine.tiles >> t & 1 == 1 { 4 } else { 0 })
    };
    let mut drawable = 0;
    for t in tiles::mask_tiles(wild_kinds) {
        wilds += counts[t as usize];
        if engine.tiles >> t & 1 == 1 {
            drawable += 4u8.saturating_sub(counts[t as usize]);
        }
        counts[t as usize] = 0;
    }
    let shape =
        MeldShape { count: melds, chows: melds > 0, suits: if melds > 0 { 0b111 } else { 0 }, all_258: melds == 0 };
    View { counts, wilds, drawable, caps, melds: shape }.with_forms(&engine.forms, engine.tiles)
}

fn map_rows<T: Send>(rows: &Rows<'_>, f: impl Fn(&Counts, u8) -> T + Sync + Send) -> Vec<T> {
    map_indexed(rows, |_, row, melds| f(row, melds))
}

/// `f(i, row, melds)` for every row, on the pool when there are enough rows.
pub fn map_indexed<T: Send>(rows: &Rows<'_>, f: impl Fn(usize, &Counts, u8) -> T + Sync + Send) -> Vec<T> {
    crate::parallel::map(rows.len(), PARALLEL_MIN_ROWS, 1, |i| f(i, rows.row(i), rows.melds(i)))
}

/// Complete-hand flags for rows of 14/17 tiles. Call [`validate`] first.
pub fn win(engine: &Engine, rows: &Rows<'_>, wild_kinds: u64) -> Vec<bool> {
    map_rows(rows, |row, melds| distance::is_complete(&engine.forms, &view(engine, row, melds, wild_kinds)))
}

/// Shanten of each row (13/16 or 14/17 tiles). Call [`validate`] first.
pub fn shanten(engine: &Engine, rows: &Rows<'_>, wild_kinds: u64) -> Vec<i8> {
    map_rows(rows, |row, melds| row_shanten(engine, row, melds, wild_kinds))
}

/// The shanten of one row, as [`Engine::shanten`] gives it.
fn row_shanten(engine: &Engine, row: &Counts, melds: u8, wild_kinds: u64) -> i8 {
    let v = view(engine, row, melds, wild_kinds);
    let ready_size = v.len() + 3 * melds as usize == engine.forms.ready_size();
    engine.shanten_of(&v, row, wild_kinds, ready_size)
}

/// Wait masks (bit t = kind t) of rows of 13/16 tiles. Call [`validate`] first.
pub fn waits(engine: &Engine, rows: &Rows<'_>, wild_kinds: u64) -> Vec<u64> {
    map_rows(rows, |row, melds| engine.waits_of_counts(&view(engine, row, melds, wild_kinds), row, wild_kinds))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batch_matches_single_calls() {
        let e = Engine::standard(4);
        let mut counts = vec![0u8; 2 * KINDS];
        for (t, c) in [(0, 3), (1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (7, 1), (8, 3)] {
            counts[t] = c;
        }
        counts[KINDS] = 4;
        for t in 9..18 {
            counts[KINDS + t] = 1;
        }
        let rows = Rows::new(&counts, None);
        validate(&e, &rows, Some(true)).unwrap();
        assert_eq!(waits(&e, &rows, 0)[0], 0x1FF);
        assert_eq!(shanten(&e, &rows, 0), [0, 1]);
        counts[0] = 5;
        assert!(validate(&e, &Rows::new(&counts, None), None).is_err());
        // A part of the batch names its rows as the batch does.
        let e = validate(&e, &Rows::new(&counts, None).part(0..1), None).unwrap_err();
        assert!(e.to_string().starts_with("row 0:"), "{e}");
        counts[0] = 3;
        counts[KINDS + 1] = 5;
        let e = validate(&Engine::standard(4), &Rows::new(&counts, None).part(1..2), None).unwrap_err();
        assert!(e.to_string().starts_with("row 1:"), "{e}");
    }
}
