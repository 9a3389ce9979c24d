//! The one error type of the core. The binding layer turns it into `haidi.HandError`.

use std::fmt;

/// What is wrong with a hand or its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A character that has no meaning in the notation.
    UnknownChar(char),
    /// Digits that no suit letter follows.
    MissingSuit,
    /// A suit letter with no digits before it.
    EmptySuit(char),
    /// A rank the suit does not have (`0m`, `8z`, `9f`).
    BadRank(String),
    /// A fifth copy of a tile kind (counting concealed tiles and melds).
    FifthCopy(String),
    /// A bracket that is not closed, or closed without being opened.
    Bracket(char),
    /// A meld that is not a chow, pung or kong, or is written wrongly.
    BadMeld(String),
    /// A flower inside a meld, or an offset where none may stand.
    Misplaced(String),
    /// The number of tiles does not fit the ruleset.
    WrongSize { tiles: usize, expected: String },
    /// A tile kind the ruleset does not play with.
    NotInTileSet { tile: String, ruleset: String },
    /// Any other invalid argument, with its explanation.
    Invalid(String),
}

/// A bad hand or bad input, with where it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandError {
    pub kind: ErrorKind,
    /// Character index into `input` where the problem is, when it has a place.
    pub position: Option<usize>,
    /// The text that was being read, when the error came from text: the whole text when
    /// it is at most [`QUOTED`] characters, else the characters around `position`.
    pub input: Option<String>,
    /// Where `input` starts in the text (a character index), and the text's length in
    /// characters, when `input` is a part of a longer text.
    pub excerpt: Option<(usize, usize)>,
    /// The situation key and the batch row at fault, when known (boxed: most errors have
    /// neither, and a `Result` of the core stays small).
    pub place: Option<Box<Place>>,
}

/// The situation key and the row of a batch an error belongs to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Place {
    /// The key of the situation (or option) whose value is at fault.
    pub key: Option<String>,
    /// The row (or list item) of a batch, counted from 0, and the word the message names
    /// it by ("row", "situation").
    pub row: Option<(usize, &'static str)>,
}

/// The longest text an error keeps whole; of a longer one it keeps [`QUOTED`] characters
/// around the place at fault, so that a huge input never makes a huge message.
pub const QUOTED: usize = 80;

/// Text as an error message quotes it: whole when short, else its first characters and
/// its length.
pub fn quote(text: &str) -> String {
    let n = text.chars().count();
    if n <= QUOTED {
        escaped(text, '"')
    } else {
        let head: String = text.chars().take(QUOTED / 2).collect();
        format!("{}... ({n} characters)", escaped(&head, '"'))
    }
}

/// One character in single quotes (`'x'`), as [`quote`] writes a text.
pub fn quote_char(c: char) -> String {
    escaped(c.encode_utf8(&mut [0; 4]), '\'')
}

/// `text` between `mark`s, escaped as Python and JSON escape (`\n`, `\x07`, `\ufeff`),
/// not as Rust does (`\u{feff}`): the messages are read by Python and JSON users.
fn escaped(text: &str, mark: char) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push(mark);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == mark => {
                out.push('\\');
                out.push(c);
            }
            c if !python_printable(c) => push_python_escape(&mut out, c),
            c => out.push(c),
        }
    }
    out.push(mark);
    out
}

/// `c` as Python's repr escapes a character it does not print (`\x07`, `\ufeff`).
fn push_python_escape(out: &mut String, c: char) {
    let n = c as u32;
    out.push_str(&match n {
        0..=0xFF => format!("\\x{n:02x}"),
        0x100..=0xFFFF => format!("\\u{n:04x}"),
        _ => format!("\\U{n:08x}"),
    });
}

/// How a message writes the values it quotes: as Python writes them (`True`, `None`,
/// `'yes'`), for a caller that gave Python values, or as JSON does (`true`, `null`,
/// `"yes"`), for one that gave JSON (the `haidi` command: `eval --jsonl` lines, `--set`
/// values, the answers of `play`'s bots). Each thread has its own, Python unless set:
/// input is read, and refused, on the thread of the call that reads it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Spelling {
    #[default]
    Python,
    Json,
}

thread_local! {
    static SPELLING: std::cell::Cell<Spelling> = const { std::cell::Cell::new(Spelling::Python) };
}

/// Whether Python's `str.isprintable` holds for `c`, as far as it matters for quoting a
/// value: not the control characters, the separators but the space, the format
/// characters and the private use ones. (Unassigned code points, which Python escapes
/// too, are written as they are.)
fn python_printable(c: char) -> bool {
    let n = c as u32;
    !(c.is_control()
        || matches!(n, 0xA0 | 0xAD | 0x1680 | 0x180E | 0x2000..=0x200F | 0x2028..=0x202F | 0x205F..=0x206F)
        || matches!(n, 0x600..=0x605 | 0x61C | 0x6DD | 0x70F | 0x3000 | 0xFEFF | 0xFFF9..=0xFFFB)
        || matches!(n, 0xE000..=0xF8FF | 0xF0000..=0x10FFFF | 0xE0001 | 0xE0020..=0xE007F))
}

/// The most characters of a text a message quotes.
const SHOWN: usize = 40;

impl Spelling {
    /// The spelling of the messages made on this thread now.
    pub fn current() -> Spelling {
        SPELLING.with(|s| s.get())
    }

    /// Makes `self` this thread's spelling; returns the one it replaces.
    pub fn set(self) -> Spelling {
        SPELLING.with(|s| s.replace(self))
    }

    /// A text as a literal of this spelling (`'yes'`, `"yes"`), cut to its first 40
    /// characters and `...`.
    pub fn text(self, s: &str) -> String {
        // Python's repr quotes with ' unless the text holds a ' and no "; JSON with ".
        let quote = match self {
            Spelling::Python if s.contains('\'') && !s.contains('"') => '"',
            Spelling::Python => '\'',
            Spelling::Json => '"',
        };
        let mut out = String::with_capacity(s.len().min(4 * SHOWN) + 5);
        out.push(quote);
        for c in s.chars().take(SHOWN) {
            match c {
                '\\' => out.push_str("\\\\"),
                c if c == quote => {
                    out.push('\\');
                    out.push(c);
                }
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                // json.dumps escapes the other characters below a space, and no more.
                c if self == Spelling::Json && (c as u32) < 0x20 => match c {
                    '\u{8}' => out.push_str("\\b"),
                    '\u{c}' => out.push_str("\\f"),
                    c => out.push_str(&format!("\\u{:04x}", c as u32)),
                },
                // repr escapes what Python does not print.
                c if self == Spelling::Python && !python_printable(c) => push_python_escape(&mut out, c),
                c => out.push(c),
            }
        }
        out.push(quote);
        if s.chars().nth(SHOWN).is_some() {
            out.push_str("...");
        }
        out
    }

    /// `True` / `False`, or `true` / `false`.
    pub fn flag(self, b: bool) -> &'static str {
        match (self, b) {
            (Spelling::Python, true) => "True",
            (Spelling::Python, false) => "False",
            (Spelling::Json, true) => "true",
            (Spelling::Json, false) => "false",
        }
    }

    /// `None`, or `null`.
    pub fn none(self) -> &'static str {
        match self {
            Spelling::Python => "None",
            Spelling::Json => "null",
        }
    }
}

/// A phrase of a message that names literals or types, in both spellings; [`Phrase::get`]
/// gives this thread's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Phrase {
    pub python: &'static str,
    pub json: &'static str,
}

impl Phrase {
    /// The phrase in the spelling of this thread.
    pub fn get(self) -> &'static str {
        match Spelling::current() {
            Spelling::Python => self.python,
            Spelling::Json => self.json,
        }
    }
}

/// What a hand must be.
pub const A_HAND: Phrase = Phrase { python: "a hand (text or a Hand)", json: "a hand (text)" };

/// What a winning tile must be.
pub const A_TILE: Phrase = Phrase { python: "a tile such as '5p'", json: "a tile such as \"5p\"" };

/// What a flag must be.
pub const TRUE_OR_FALSE: Phrase = Phrase { python: "True or False", json: "true or false" };
/// What a format must be.
pub const COMPACT_OR_COMH: Phrase = Phrase { python: "'compact' or 'comh'", json: "\"compact\" or \"comh\"" };

impl HandError {
    pub fn new(kind: ErrorKind) -> Self {
        HandError { kind, position: None, input: None, excerpt: None, place: None }
    }

    /// An error at character `position` of `input`.
    pub fn at(kind: ErrorKind, position: usize, input: &str) -> Self {
        // Count only as far as needed: a text is long once it passes QUOTED characters.
        if input.chars().nth(QUOTED).is_none() {
            return HandError {
                kind,
                position: Some(position),
                input: Some(input.to_string()),
                excerpt: None,
                place: None,
            };
        }
        let start = position.saturating_sub(QUOTED / 2);
        let part: String = input.chars().skip(start).take(QUOTED).collect();
        let len = input.chars().count();
        HandError { kind, position: Some(position), input: Some(part), excerpt: Some((start, len)), place: None }
    }

    pub fn invalid(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Invalid(message.into()))
    }

    /// The error as the value of situation key `key`; a key already set (by a nested
    /// reading) is kept.
    pub fn for_key(mut self, key: &str) -> Self {
        let place = self.place.get_or_insert_with(Box::default);
        if place.key.is_none() {
            place.key = Some(key.to_string());
        }
        self
    }

    /// The error as that of row `row` of a batch; the message begins "{word} {row}: ".
    pub fn in_row(mut self, word: &'static str, row: usize) -> Self {
        self.place.get_or_insert_with(Box::default).row = Some((row, word));
        self
    }

    /// The situation key at fault, when known.
    pub fn key(&self) -> Option<&str> {
        self.place.as_ref().and_then(|p| p.key.as_deref())
    }

    /// The batch row at fault, when known.
    pub fn row(&self) -> Option<usize> {
        self.place.as_ref().and_then(|p| p.row).map(|(row, _)| row)
    }
}

impl ErrorKind {
    /// A short name of the kind, as `HandError.kind` gives it in Python.
    pub fn code(&self) -> &'static str {
        match self {
            ErrorKind::UnknownChar(_) => "unknown_char",
            ErrorKind::MissingSuit => "missing_suit",
            ErrorKind::EmptySuit(_) => "empty_suit",
            ErrorKind::BadRank(_) => "bad_rank",
            ErrorKind::FifthCopy(_) => "fifth_copy",
            ErrorKind::Bracket(_) => "bracket",
            ErrorKind::BadMeld(_) => "bad_meld",
            ErrorKind::Misplaced(_) => "misplaced",
            ErrorKind::WrongSize { .. } => "wrong_size",
            ErrorKind::NotInTileSet { .. } => "not_in_tile_set",
            ErrorKind::Invalid(_) => "invalid",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::UnknownChar(c) => write!(f, "unknown character {}", quote_char(*c)),
            ErrorKind::MissingSuit => write!(f, "digits without a suit letter (m, p, s, z or f)"),
            ErrorKind::EmptySuit(c) => write!(f, "suit letter {} with no digits before it", quote_char(*c)),
            ErrorKind::BadRank(t) => write!(f, "no such tile {}", escaped(t, '"')),
            ErrorKind::FifthCopy(t) => write!(f, "a fifth copy of {t}"),
            ErrorKind::Bracket(c) => write!(f, "unbalanced bracket {}", quote_char(*c)),
            ErrorKind::BadMeld(m) => write!(f, "malformed meld: {m}"),
            ErrorKind::Misplaced(m) => write!(f, "{m}"),
            ErrorKind::WrongSize { tiles, expected } => {
                write!(f, "hand has {tiles} tiles (a meld counts as 3); expected {expected}")
            }
            ErrorKind::NotInTileSet { tile, ruleset } => {
                write!(f, "tile {tile} is not played in {ruleset}")
            }
            ErrorKind::Invalid(m) => write!(f, "{m}"),
        }
    }
}

impl fmt::Display for HandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some((row, word)) = self.place.as_ref().and_then(|p| p.row) {
            write!(f, "{word} {row}: ")?;
        }
        write!(f, "{}", self.kind)?;
        if let Some(p) = self.position {
            write!(f, " at position {p}")?;
        }
        // The text read, named by its key where known (`in win "True"`).
        let named = match self.key() {
            Some(k) if self.input.is_some() => format!("{k} "),
            _ => String::new(),
        };
        match (&self.input, self.excerpt) {
            (Some(s), None) => write!(f, " in {named}{}", escaped(s, '"'))?,
            (Some(s), Some((start, len))) => write!(
                f,
                " in {named}{} (characters {start} to {} of {len})",
                escaped(s, '"'),
                start + s.chars().count()
            )?,
            _ => {}
        }
        Ok(())
    }
}

impl std::error::Error for HandError {}

pub type Result<T> = std::result::Result<T, HandError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_quoted_in_each_spelling() {
        // As Python's repr: double quotes around a single one, escapes for what it does not print.
        assert_eq!(Spelling::Python.text("it's"), "\"it's\"");
        assert_eq!(Spelling::Python.text("'\""), "'\\'\"'");
        assert_eq!(Spelling::Python.text("x\u{7f}\u{200b}\u{a0}"), "'x\\x7f\\u200b\\xa0'");
        assert_eq!(Spelling::Json.text("say \"hi\"\n"), "\"say \\\"hi\\\"\\n\"");
        assert_eq!(Spelling::Json.text("\u{1}"), "\"\\u0001\"");
        assert!(Spelling::Json.text(&"1".repeat(100)).ends_with("1\"..."));
        assert_eq!((Spelling::Json.flag(true), Spelling::Json.none()), ("true", "null"));
        // A thread's own, Python until set, and set back.
        assert_eq!(Spelling::current(), Spelling::Python);
        assert_eq!(Spelling::Json.set(), Spelling::Python);
        assert_eq!(TRUE_OR_FALSE.get(), "true or false");
        std::thread::spawn(|| assert_eq!(Spelling::current(), Spelling::Python)).join().unwrap();
        assert_eq!(Spelling::Python.set(), Spelling::Json);
        assert_eq!(TRUE_OR_FALSE.get(), "True or False");
    }

    #[test]
    fn a_row_leads_the_message_and_the_first_key_stays() {
        let e = HandError::at(ErrorKind::UnknownChar('x'), 2, "12x").for_key("hand").for_key("situation");
        assert_eq!((e.key(), e.row()), (Some("hand"), None));
        let e = e.in_row("row", 7);
        assert_eq!(e.row(), Some(7));
        // The text read is named by its key.
        assert_eq!(e.to_string(), "row 7: unknown character 'x' at position 2 in hand \"12x\"");
        assert_eq!(e.kind.code(), "unknown_char");
    }
}
