//! Situations given as text (a hand string and a winning tile), one or many; many run
//! on the pool of [`crate::parallel`] unless `HAIDI_PARALLELISM` says not to.

use super::score::{evaluate, Scored};
use super::situation::{apply_comh, wind, Options, Situation};
use crate::error::{HandError, Result};
use crate::hand::Hand;
use crate::notation::{parse, parse_tile, Format};
use crate::score::situation::Value;

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
    /// The situation's own options, where it gives them.
    pub options: Option<Options>,
    /// List the fans not counted and why (`explain`).
    pub explain: bool,
    /// The keys of [`CASE_KEYS`] given (bit `i` for key `i`): a COMH case string gives
    /// them too, and one given both ways is refused.
    pub given: u8,
}

/// The situation keys a COMH case string gives after its `|`, in the bits of
/// [`TextSituation::given`].
pub const CASE_KEYS: [&str; 8] = [
    "self_drawn",
    "last_of_kind",
    "wall_last",
    "kong_replacement",
    "robbing_kong",
    "seat_wind",
    "round_wind",
    "flowers",
];

/// The bit of a key of [`CASE_KEYS`] (0 for any other key).
pub fn case_bit(key: &str) -> u8 {
    CASE_KEYS.iter().position(|k| *k == key).map_or(0, |i| 1 << i)
}

/// Reads a situation as a plain JSON line gives it ([`crate::score::json::object`]): the
/// known keys, each with a value of its usual type. None for any other line (an unknown
/// key, `options`, `explain`, a value of another type or out of range, no hand): the full
/// reader reads it, and names what is wrong with it.
pub fn read_plain<'a>(items: &'a [(&str, Value<'_>)], format: Format) -> Option<TextSituation<'a>> {
    fn text<'a>(v: &'a Value<'_>) -> Option<&'a str> {
        match v {
            Value::Str(s) => Some(s),
            Value::Text(s) => Some(s),
            _ => None,
        }
    }
    fn flag(v: &Value<'_>) -> Option<bool> {
        match v {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }
    fn wind_of(v: &Value<'_>) -> Option<u8> {
        match v {
            Value::Str(s) => wind(s).ok(),
            Value::Int(i @ 0..=3) => Some(*i as u8),
            _ => None,
        }
    }
    let mut r = TextSituation {
        hand: "",
        win: None,
        format,
        situation: Situation::default(),
        options: None,
        explain: false,
        given: 0,
    };
    let mut hand = None;
    let s = &mut r.situation;
    for (k, v) in items {
        // A null value is the full reader's: a known key given null is as if not given,
        // and an unknown one, whatever its value, is named there.
        if matches!(v, Value::None) {
            return None;
        }
        r.given |= case_bit(k);
        match *k {
            "hand" => hand = Some(text(v)?),
            "win" => r.win = Some(text(v)?),
            "format" => {
                r.format = match text(v)? {
                    "compact" => Format::Compact,
                    "comh" => Format::Comh,
                    _ => return None,
                }
            }
            "self_drawn" => s.self_drawn = flag(v)?,
            "last_of_kind" => s.last_of_kind = flag(v)?,
            "wall_last" => s.wall_last = flag(v)?,
            "kong_replacement" => s.kong_replacement = flag(v)?,
            "robbing_kong" => s.robbing_kong = flag(v)?,
            "seat_wind" => s.seat_wind = wind_of(v)?,
            "round_wind" => s.round_wind = wind_of(v)?,
            "flowers" => match v {
                Value::Int(n @ 0..=8) => s.flowers = *n as u8,
                _ => return None,
            },
            "explain" if flag(v)? => return None,
            "explain" => {}
            "concealed_and_melded_kong" => {
                r.options = Some(Options { concealed_and_melded_kong: flag(v)? });
            }
            _ => return None,
        }
    }
    r.hand = hand?;
    Some(r)
}

/// Reads the hand and winning tile. A COMH case string gives the situation after its `|`:
/// a key of it given as well is refused, as any key given twice (one of the two would
/// be dropped).
pub fn prepare(input: &TextSituation<'_>) -> Result<(Hand, Situation)> {
    let parsed = parse(input.hand, input.format).map_err(|e| e.for_key("hand"))?;
    let mut hand = parsed.hand;
    let mut s = input.situation;
    if let Some(rest) = parsed.rest {
        if input.given != 0 {
            let key = CASE_KEYS[input.given.trailing_zeros() as usize];
            return Err(HandError::invalid(format!(
                "{key} is given twice: as a key and in the COMH case string after '|'"
            ))
            .for_key(key));
        }
        apply_comh(rest, &mut s)?;
    }
    match &input.win {
        Some(_) if input.format == Format::Comh && hand.size() == 14 => {
            return Err(HandError::invalid("win is given twice: as a key and as the last tile of the COMH string's 14")
                .for_key("win"))
        }
        Some(w) => s.win = parse_tile(w, Format::Compact).map_err(|e| e.for_key("win"))?,
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

/// Scores one situation given as text (with its own options, or `options`).
pub fn evaluate_text(input: &TextSituation<'_>, options: &Options) -> Result<Scored> {
    let (hand, s) = prepare(input)?;
    evaluate(&hand, s, input.options.as_ref().unwrap_or(options), input.explain).map_err(|e| match e.kind {
        // The size is the hand's (the winning tile is one tile whatever it is).
        crate::error::ErrorKind::WrongSize { .. } => e.for_key("hand"),
        _ => e,
    })
}

/// Scores many; each result stands alone (a bad situation does not stop the others).
pub fn evaluate_texts(inputs: &[TextSituation<'_>], options: &Options) -> Vec<Result<Scored>> {
    crate::parallel::map(inputs.len(), PARALLEL_MIN, 1, |i| evaluate_text(&inputs[i], options))
}

/// Columns of the fan counts a [`Chunk`] writes: one per fan id 1..=81, and column 0 for
/// the optional 明暗杠 (which has no id in the list).
pub const FAN_COLUMNS: usize = 82;

/// Scores one situation into its row of the columns: its win, total and fan counts.
pub fn score_into(
    input: &TextSituation<'_>,
    options: &Options,
    win: &mut bool,
    total: &mut i32,
    fans: &mut [u8],
) -> Result<()> {
    let r = evaluate_text(input, options)?;
    *win = r.win;
    *total = r.total as i32;
    fans[1..].copy_from_slice(&r.fans.counts()[1..FAN_COLUMNS]);
    fans[0] = r.fans.get(super::MINGANGANG);
    Ok(())
}

/// Situations with their texts copied into one string, so that another thread can score
/// them without borrowing from the caller.
pub struct Texts {
    pub format: Format,
    pub text: String,
    pub rows: Vec<Row>,
}

/// One situation of [`Texts`]: where its hand and winning tile stand in the text, and
/// its own format and options when it gives them.
pub struct Row {
    pub hand: std::ops::Range<usize>,
    pub win: Option<std::ops::Range<usize>>,
    pub situation: Situation,
    pub format: Option<Format>,
    pub options: Option<Options>,
    pub explain: bool,
    /// The keys of [`CASE_KEYS`] the row gives (see [`TextSituation::given`]).
    pub given: u8,
}

/// None yet, in the compact format.
impl Default for Texts {
    fn default() -> Texts {
        Texts { format: Format::Compact, text: String::new(), rows: vec![] }
    }
}

impl Texts {
    pub fn situations(&self) -> impl Iterator<Item = TextSituation<'_>> {
        (0..self.rows.len()).map(|i| self.situation(i))
    }

    /// Situation `i`, its texts borrowed from [`Texts::text`].
    pub fn situation(&self, i: usize) -> TextSituation<'_> {
        let at = |r: &std::ops::Range<usize>| self.text.get(r.clone()).unwrap_or("");
        let row = &self.rows[i];
        TextSituation {
            hand: at(&row.hand),
            win: row.win.as_ref().map(at),
            format: row.format.unwrap_or(self.format),
            situation: row.situation,
            options: row.options,
            explain: row.explain,
            given: row.given,
        }
    }

    /// Adds a situation, its texts copied.
    pub fn push(&mut self, s: &TextSituation<'_>) {
        let mut add = |t: &str| {
            self.text.push_str(t);
            self.text.len() - t.len()..self.text.len()
        };
        let hand = add(s.hand);
        let win = s.win.map(add);
        let (situation, format, options, explain) = (s.situation, Some(s.format), s.options, s.explain);
        self.rows.push(Row { hand, win, situation, format, options, explain, given: s.given });
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
            options: None,
            explain: false,
            given: 0,
        };
        let r = evaluate_text(&t, &Options::default()).unwrap();
        assert_eq!(r.total, 98);
        // A key of the case string given as well is refused, whatever its value: one of
        // the two would be dropped.
        for key in CASE_KEYS {
            let e = evaluate_text(&TextSituation { given: case_bit(key), ..t }, &Options::default()).unwrap_err();
            assert_eq!(e.place.and_then(|p| p.key).as_deref(), Some(key));
        }
        let e = evaluate_text(&TextSituation { win: Some("N"), ..t }, &Options::default()).unwrap_err();
        assert_eq!(e.place.and_then(|p| p.key).as_deref(), Some("win"));
    }

    #[test]
    fn a_row_scores_into_its_columns() {
        let mut text = Texts::default();
        for (hand, win) in [("[111z][2222z]55p33344z", "4z"), ("12x", "1z")] {
            let situation = Situation { self_drawn: true, ..Default::default() };
            let format = Format::Compact;
            text.push(&TextSituation {
                hand,
                win: Some(win),
                format,
                situation,
                options: None,
                explain: false,
                given: 0,
            });
        }
        let (mut win, mut total, mut fans) = (false, 0i32, [0u8; FAN_COLUMNS]);
        score_into(&text.situation(0), &Options::default(), &mut win, &mut total, &mut fans).unwrap();
        assert!(win);
        assert_eq!(total, 98);
        // 大四喜 is fan 1, counted once.
        assert_eq!(fans[1], 1);
        let e = score_into(&text.situation(1), &Options::default(), &mut win, &mut total, &mut fans).unwrap_err();
        assert_eq!(e.place.and_then(|p| p.key).as_deref(), Some("hand"));
    }

    #[test]
    fn errors_stay_per_item() {
        let good = TextSituation {
            hand: "[111z][2222z]55p33344z",
            win: Some("4z"),
            format: Format::Compact,
            situation: Situation { self_drawn: true, ..Default::default() },
            options: None,
            explain: false,
            given: 0,
        };
        let bad = TextSituation { hand: "12x", ..good };
        let r = evaluate_texts(&[good, bad], &Options::default());
        assert!(r[0].is_ok() && r[1].is_err());
    }
}
