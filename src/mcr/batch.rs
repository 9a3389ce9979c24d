//! Situations given as text (a hand string and a winning tile), one or many; many run
//! in parallel with rayon unless `HAIDI_PARALLELISM` says not to.

use rayon::prelude::*;

use super::score::{evaluate, Scored};
use super::situation::{apply_comh, Options, Situation};
use crate::error::{HandError, Result};
use crate::hand::Hand;
use crate::notation::{parse, parse_tile, Format};

/// Batches smaller than this are not worth spreading over threads.
pub const PARALLEL_MIN: usize = 512;

/// One situation as text: `situation.win` is ignored when `win` is given.
#[derive(Clone, Copy, Debug)]
pub struct TextSituation<'a> {
    pub hand: &'a str,
    /// The winning tile; for a COMH string of 14 tiles it may be left out (the tile
    /// written last is the winning tile).
    pub win: Option<&'a str>,
    pub format: Format,
    pub situation: Situation,
}

/// Reads the hand and winning tile. For COMH strings the situation after `|` is read
/// first and flags given as `true` are added to it.
pub fn prepare(input: &TextSituation<'_>) -> Result<(Hand, Situation)> {
    let parsed = parse(input.hand, input.format)?;
    let mut hand = parsed.hand;
    let mut s = input.situation;
    if let Some(rest) = parsed.rest {
        let given = s;
        apply_comh(rest, &mut s)?;
        s.self_drawn |= given.self_drawn;
        s.last_of_kind |= given.last_of_kind;
        s.wall_last |= given.wall_last;
        s.kong_replacement |= given.kong_replacement;
        s.robbing_kong |= given.robbing_kong;
        s.flowers = s.flowers.max(given.flowers);
    }
    match &input.win {
        Some(w) => s.win = parse_tile(w, Format::Compact)?,
        None => {
            let last = match (input.format, hand.last) {
                (Format::Comh, Some(t)) if hand.size() == 14 => t,
                _ => return Err(HandError::invalid("the winning tile (win) is missing")),
            };
            hand.concealed[last as usize] -= 1;
            s.win = last;
        }
    }
    Ok((hand, s))
}

/// Scores one situation given as text.
pub fn evaluate_text(input: &TextSituation<'_>, options: &Options, explain: bool) -> Result<Scored> {
    let (hand, s) = prepare(input)?;
    evaluate(&hand, s, options, explain)
}

/// Scores many; each result stands alone (a bad situation does not stop the others).
pub fn evaluate_texts(inputs: &[TextSituation<'_>], options: &Options, explain: bool) -> Vec<Result<Scored>> {
    if inputs.len() >= PARALLEL_MIN && crate::batch::parallel_enabled() {
        inputs.par_iter().map(|i| evaluate_text(i, options, explain)).collect()
    } else {
        inputs.iter().map(|i| evaluate_text(i, options, explain)).collect()
    }
}

/// Columns of the fan counts of [`evaluate_into_columns`]: one per fan id 1..=81, and
/// column 0 for the optional 明暗杠 (which has no id in the list).
pub const FAN_COLUMNS: usize = 82;

/// Scores many straight into columns: `wins[i]`, `totals[i]`, and the [`FAN_COLUMNS`]
/// fan counts of row `i` in `fans`. Every good row is scored; the first bad one is
/// returned as the error, naming its row.
pub fn evaluate_into_columns(
    inputs: &[TextSituation<'_>],
    options: &Options,
    wins: &mut [bool],
    totals: &mut [i32],
    fans: &mut [u8],
) -> Result<()> {
    // One row: its index, its input, and where its win, total and fan counts go.
    type Row<'r, 'i> = (usize, (&'r TextSituation<'i>, ((&'r mut bool, &'r mut i32), &'r mut [u8])));
    let score = |(i, (input, ((win, total), row))): Row<'_, '_>| match evaluate_text(input, options, false) {
        Ok(r) => {
            *win = r.win;
            *total = r.total as i32;
            row[1..].copy_from_slice(&r.fans.counts()[1..82]);
            row[0] = r.fans.get(super::MINGANGANG);
            None
        }
        Err(e) => Some((i, e)),
    };
    let first_bad = if inputs.len() >= PARALLEL_MIN && crate::batch::parallel_enabled() {
        let outputs = wins.par_iter_mut().zip(totals.par_iter_mut()).zip(fans.par_chunks_mut(FAN_COLUMNS));
        inputs.par_iter().zip(outputs).enumerate().filter_map(score).min_by_key(|(i, _)| *i)
    } else {
        let outputs = wins.iter_mut().zip(totals.iter_mut()).zip(fans.chunks_mut(FAN_COLUMNS));
        inputs.iter().zip(outputs).enumerate().filter_map(score).next()
    };
    match first_bad {
        Some((i, mut e)) => {
            e.kind = crate::error::ErrorKind::Invalid(format!("row {i}: {}", e.kind));
            Err(e)
        }
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comh_strings_carry_their_situation() {
        let t = TextSituation {
            hand: "[EEE,2][SSSS,1]WWWNN55pN|EE1000",
            win: None,
            format: Format::Comh,
            situation: Situation::default(),
        };
        let r = evaluate_text(&t, &Options::default(), false).unwrap();
        assert_eq!(r.total, 98);
    }

    #[test]
    fn errors_stay_per_item() {
        let good = TextSituation {
            hand: "[111z][2222z]55p33344z",
            win: Some("4z"),
            format: Format::Compact,
            situation: Situation { self_drawn: true, ..Default::default() },
        };
        let bad = TextSituation { hand: "12x", ..good };
        let r = evaluate_texts(&[good, bad], &Options::default(), false);
        assert!(r[0].is_ok() && r[1].is_err());
    }
}
