//! Many hands at once, given as rows of 34 tile counts.
//!
//! A row is the concealed part of a hand; `melds[i]` (optional) says how many melds row
//! `i` has declared besides. The batch knows nothing else of those melds, so forms that
//! depend on their shape treat them as chows of mixed suits. Rows run in parallel with
//! rayon unless `HAIDI_PARALLELISM` is `0` or `false`.

use rayon::prelude::*;

use crate::distance;
use crate::engine::Engine;
use crate::error::{ErrorKind, HandError, Result};
use crate::forms::{MeldShape, View};
use crate::tiles::{self, Counts, KINDS};

/// Rows below this many are not worth spreading over threads.
const PARALLEL_MIN_ROWS: usize = 2048;

pub fn parallel_enabled() -> bool {
    !matches!(
        std::env::var("HAIDI_PARALLELISM")
            .as_deref()
            .map(str::to_ascii_lowercase)
            .as_deref(),
        Ok("0") | Ok("false") | Ok("off") | Ok("no")
    )
}

/// A batch of rows: counts (n x 34, row-major) and declared melds per row.
pub struct Rows<'a> {
    pub counts: &'a [u8],
    pub melds: Option<&'a [u8]>,
}

impl Rows<'_> {
    pub fn len(&self) -> usize {
        self.counts.len() / KINDS
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn row(&self, i: usize) -> &Counts {
        self.counts[i * KINDS..(i + 1) * KINDS]
            .try_into()
            .expect("rows are 34 wide")
    }

    fn melds(&self, i: usize) -> u8 {
        self.melds.map_or(0, |m| m[i])
    }
}

fn row_error(i: usize, what: String) -> HandError {
    HandError::new(ErrorKind::Invalid(format!("row {i}: {what}")))
}

/// Checks every row: counts at most 4, kinds in the tile set, a size that fits
/// (`ready`: 13/16 tiles; `Some(false)`: 14/17; `None`: either).
pub fn validate(engine: &Engine, rows: &Rows<'_>, ready: Option<bool>) -> Result<()> {
    if rows.counts.len() % KINDS != 0 {
        return Err(HandError::invalid("tile counts must have 34 columns"));
    }
    if let Some(m) = rows.melds {
        if m.len() != rows.len() {
            return Err(HandError::invalid(format!(
                "{} meld counts for {} rows",
                m.len(),
                rows.len()
            )));
        }
    }
    let m = engine.forms.melds as usize;
    for i in 0..rows.len() {
        let row = rows.row(i);
        if let Some(t) = (0..KINDS).find(|&t| row[t] > 4) {
            return Err(row_error(
                i,
                format!("{} copies of {}", row[t], tiles::name(t as u8)),
            ));
        }
        if let Some(t) = (0..KINDS).find(|&t| row[t] > 0 && engine.tiles >> t & 1 == 0) {
            return Err(row_error(
                i,
                format!(
                    "tile {} is not played in {}",
                    tiles::name(t as u8),
                    engine.name
                ),
            ));
        }
        let melds = rows.melds(i) as usize;
        if melds > m {
            return Err(row_error(i, format!("{melds} melds; at most {m}")));
        }
        let size = row.iter().map(|&c| c as usize).sum::<usize>() + 3 * melds;
        let ok = match ready {
            Some(true) => size == 3 * m + 1,
            Some(false) => size == 3 * m + 2,
            None => size == 3 * m + 1 || size == 3 * m + 2,
        };
        if !ok {
            return Err(row_error(
                i,
                format!("{size} tiles (melds count 3) do not fit {}", engine.name),
            ));
        }
    }
    Ok(())
}

fn view(engine: &Engine, row: &Counts, melds: u8, wild_kinds: u64) -> View {
    let mut counts = *row;
    let mut wilds = 0;
    let mut caps = [0u8; KINDS];
    for t in 0..KINDS {
        if wild_kinds >> t & 1 == 1 {
            wilds += counts[t];
            counts[t] = 0;
        }
        if engine.tiles >> t & 1 == 1 {
            caps[t] = 4;
        }
    }
    let shape = MeldShape {
        count: melds,
        chows: melds > 0,
        suits: if melds > 0 { 0b111 } else { 0 },
        all_258: melds == 0,
    };
    View {
        counts,
        wilds,
        caps,
        melds: shape,
    }
}

fn map_rows<T: Send>(rows: &Rows<'_>, f: impl Fn(&Counts, u8) -> T + Sync + Send) -> Vec<T> {
    let n = rows.len();
    if n >= PARALLEL_MIN_ROWS && parallel_enabled() {
        (0..n)
            .into_par_iter()
            .map(|i| f(rows.row(i), rows.melds(i)))
            .collect()
    } else {
        (0..n).map(|i| f(rows.row(i), rows.melds(i))).collect()
    }
}

/// Complete-hand flags for rows of 14/17 tiles. Call [`validate`] first.
pub fn win(engine: &Engine, rows: &Rows<'_>, wild_kinds: u64) -> Vec<bool> {
    map_rows(rows, |row, melds| {
        distance::is_complete(&engine.forms, &view(engine, row, melds, wild_kinds))
    })
}

/// Shanten of each row (13/16 or 14/17 tiles). Call [`validate`] first.
pub fn shanten(engine: &Engine, rows: &Rows<'_>, wild_kinds: u64) -> Vec<i8> {
    map_rows(rows, |row, melds| {
        let v = view(engine, row, melds, wild_kinds);
        let d = distance::distance(&engine.forms, &v) as i8 - 1;
        let ready_size = v.len() + 3 * melds as usize == engine.forms.ready_size();
        if d == 0 && ready_size && engine.waits_of_counts(&v, row, wild_kinds) == 0 {
            1
        } else {
            d
        }
    })
}

/// Wait masks (bit t = kind t) of rows of 13/16 tiles. Call [`validate`] first.
pub fn waits(engine: &Engine, rows: &Rows<'_>, wild_kinds: u64) -> Vec<u64> {
    map_rows(rows, |row, melds| {
        engine.waits_of_counts(&view(engine, row, melds, wild_kinds), row, wild_kinds)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batch_matches_single_calls() {
        let e = Engine::standard(4);
        let mut counts = vec![0u8; 2 * KINDS];
        for (t, c) in [
            (0, 3),
            (1, 1),
            (2, 1),
            (3, 1),
            (4, 1),
            (5, 1),
            (6, 1),
            (7, 1),
            (8, 3),
        ] {
            counts[t] = c;
        }
        counts[KINDS] = 4;
        for t in 9..18 {
            counts[KINDS + t] = 1;
        }
        let rows = Rows {
            counts: &counts,
            melds: None,
        };
        validate(&e, &rows, Some(true)).unwrap();
        assert_eq!(waits(&e, &rows, 0)[0], 0x1FF);
        assert_eq!(shanten(&e, &rows, 0), [0, 1]);
        counts[0] = 5;
        assert!(validate(
            &e,
            &Rows {
                counts: &counts,
                melds: None
            },
            None
        )
        .is_err());
    }
}
