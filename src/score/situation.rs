//! Reading a situation: the keys a ruleset takes, each value read the same way whether it
//! came from a keyword argument, a dict in a list or a row of columns, and the checks
//! that refuse what cannot be.

use std::fmt;

use super::arrange::{Form, Tiles};
use super::facts::{self, Facts, Situation};
use super::rule::Context;
use super::scheme::{Scheme, Unwon, MAX_SETS};
use crate::error::{ErrorKind, HandError, Phrase, Result, Spelling, COMPACT_OR_COMH, TRUE_OR_FALSE};
use crate::hand::{Hand, MeldKind};
use crate::notation::{self, Format};
use crate::tiles::{self, Tile, KINDS};

/// A value as given, before it is read as what its key means.
#[derive(Clone, Debug)]
pub enum Value<'a> {
    None,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(&'a str),
    /// Text owned by the value (an item of a list).
    Text(String),
    List(Vec<Value<'a>>),
    Hand(Box<Hand>),
    /// Anything else, by its type's name; an integer too large for `i64`, by its digits.
    Other(String),
}

impl Value<'_> {
    /// The value with its text owned.
    pub fn into_owned(self) -> Value<'static> {
        match self {
            Value::Str(t) => Value::Text(t.to_string()),
            Value::None => Value::None,
            Value::Bool(b) => Value::Bool(b),
            Value::Int(i) => Value::Int(i),
            Value::Float(f) => Value::Float(f),
            Value::Hand(h) => Value::Hand(h),
            Value::Text(t) => Value::Text(t),
            Value::List(items) => Value::List(items.into_iter().map(Value::into_owned).collect()),
            Value::Other(t) => Value::Other(t),
        }
    }
}

impl fmt::Display for Value<'_> {
    /// The value as the user wrote it, short, in this thread's [`Spelling`]: `'yes'`, `1`,
    /// `None`, `a dict` (JSON: `"yes"`, `1`, `null`, `an object`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let spelling = Spelling::current();
        match self {
            Value::None => write!(f, "{}", spelling.none()),
            Value::Bool(b) => write!(f, "{}", spelling.flag(*b)),
            Value::Int(i) => write!(f, "{i}"),
            // pandas puts NaN in an empty cell.
            Value::Float(x) if x.is_nan() => {
                write!(f, "NaN (an empty cell? give {} for a key left out)", spelling.none())
            }
            Value::Float(x) => write!(f, "{}", float_text(*x)),
            Value::Str(s) => write!(f, "{}", spelling.text(s)),
            Value::Text(s) => write!(f, "{}", spelling.text(s)),
            Value::List(_) => write!(f, "a list"),
            Value::Hand(h) => write!(f, "Hand({:?})", h.notation()),
            Value::Other(t) if t == "dict" && spelling == Spelling::Json => write!(f, "an object"),
            Value::Other(t) if t.starts_with(|c: char| c.is_ascii_digit() || c == '-') => write!(f, "{t}"),
            Value::Other(t) => write!(f, "a {t}"),
        }
    }
}

/// A float as Python's repr writes it, as JSON does too where it is finite: the fewest
/// digits that read back, positional from 1e-4 to below 1e16 (`1.0`, `0.0001`), else with
/// an exponent (`1e-05`, `1e+20`).
fn float_text(x: f64) -> String {
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.into();
    }
    // The fewest digits that read back, then those digits rounded exactly (ties to
    // even, as Python rounds where two such strings are as near).
    let shortest = format!("{:e}", x.abs());
    let n = shortest.split_once('e').map_or(1, |(m, _)| m.chars().filter(char::is_ascii_digit).count());
    let exact = format!("{:.*e}", n.saturating_sub(1), x.abs());
    let (mantissa, exp) = exact.split_once('e').unwrap_or((&exact, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let sign = if x.is_sign_negative() { "-" } else { "" };
    if !(-4..16).contains(&exp) {
        return format!("{sign}{mantissa}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs());
    }
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let point = exp + 1;
    if point <= 0 {
        return format!("{sign}0.{}{digits}", "0".repeat((-point) as usize));
    }
    let point = point as usize;
    if digits.len() <= point {
        format!("{sign}{digits}{}.0", "0".repeat(point - digits.len()))
    } else {
        format!("{sign}{}.{}", &digits[..point], &digits[point..])
    }
}

/// What the value of a key must be, as a message says it.
const HAND: Phrase = crate::error::A_HAND;
const WIN: Phrase = crate::error::A_TILE;
const WIND: Phrase = Phrase { python: "a wind E, S, W or N (or 0-3)", json: "a wind E, S, W or N (or 0-3)" };
const WILDS: Phrase = Phrase {
    python: "tile kinds such as '5z' (or a list of them)",
    json: "tile kinds such as \"5z\" (or a list of them)",
};
const WILD_KINDS: Phrase = Phrase { python: "tile kinds such as '5z'", json: "tile kinds such as \"5z\"" };
const INDICATOR: Phrase = Phrase { python: "a tile such as '3z'", json: "a tile such as \"3z\"" };
const FLOWERS: Phrase =
    Phrase { python: "the flower tiles held, such as '15f'", json: "the flower tiles held, such as \"15f\"" };
const FLOWER_TILES: Phrase = Phrase { python: "flower tiles such as '15f'", json: "flower tiles such as \"15f\"" };
const NEEDS_WIN: Phrase = Phrase { python: "the winning tile, e.g. '5p'", json: "the winning tile, e.g. \"5p\"" };
const TILE: Phrase = Phrase { python: "a tile", json: "a tile" };
const NAME: Phrase = Phrase { python: "a name", json: "a name" };

/// What a situation key means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeyKind {
    /// The hand without the winning tile (text or a `Hand`).
    Hand,
    /// The winning tile.
    Win,
    /// The notation of the hand and the tiles: "compact" or "comh".
    Format,
    /// A yes/no flag; `None` for one taken (and checked) but meaning nothing here.
    Flag(Option<u8>),
    /// The seat wind: E the dealer (or the seat 0-3).
    SeatWind,
    /// The seat (0 the dealer) or its wind.
    Seat,
    /// The prevalent wind (taken and checked; only rules that name it read it).
    RoundWind,
    /// The seat wind of the player who discarded the winning tile.
    DiscarderWind,
    /// The wild kinds (or a flower, where the wilds may be flowers).
    Wilds,
    /// The tile turned up; the wild is the next kind.
    Indicator,
    /// The flower tiles held (`"15f"`).
    Flowers,
    /// One of the named choices, each of which sets a flag (`xiaosa="ming"`).
    Choice(Vec<(String, u8)>),
    /// List the patterns not counted and why.
    Explain,
}

/// A situation key of a ruleset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Key {
    pub name: String,
    pub kind: KeyKind,
}

impl Key {
    /// Whether None is the key not given (a caller may skip it): so for every key but the
    /// hand, where a value is needed (`format` left out is the call's, or compact, as
    /// MCR reads it). Each kind is one key's, so nothing given before is undone.
    pub fn none_is_left_out(&self) -> bool {
        !matches!(self.kind, KeyKind::Hand)
    }
}

/// The winning tile as given: a kind, or a flower (where flowers may win).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WinTile {
    Kind(Tile),
    Flower(u8),
}

/// A situation read key by key; [`Reader::finish`] checks it against the hand.
#[derive(Clone, Debug, Default)]
pub struct Reader<'a> {
    hand: Option<Value<'a>>,
    win: Option<Value<'a>>,
    format: Option<Format>,
    flags: u32,
    given_false: u32,
    seat_wind: Option<u8>,
    seat: Option<u8>,
    round: Option<u8>,
    discarder: Option<u8>,
    wilds: Option<Value<'a>>,
    indicator: Option<Value<'a>>,
    flowers: Option<Value<'a>>,
    pub explain: bool,
    /// `wilds` as read by the first `finish` (a reader finished again for each wait of a
    /// hand reads them once); a reader is finished against one scheme.
    wilds_read: std::cell::Cell<Option<(u64, bool)>>,
}

fn invalid(key: &str, expected: &str, v: &Value<'_>) -> HandError {
    HandError::invalid(format!("{key} must be {expected}, not {v}")).for_key(key)
}

fn invalid_as(key: &str, expected: Phrase, v: &Value<'_>) -> HandError {
    invalid(key, expected.get(), v)
}

/// A wind given as a letter (E S W N, 1z-4z: MCR's reading of one) or as 0-3.
fn wind(key: &str, v: &Value<'_>) -> Result<u8> {
    match v {
        Value::Str(s) => crate::mcr::situation::wind(s).map_err(|_| invalid_as(key, WIND, v)),
        Value::Int(i) if (0..4).contains(i) => Ok(*i as u8),
        _ => Err(invalid_as(key, WIND, v)),
    }
}

/// An error of the value given to the scheme's key of kind `which`, named by that key.
fn key_error(scheme: &Scheme, which: impl Fn(&KeyKind) -> bool, message: impl Into<String>) -> HandError {
    let e = HandError::invalid(message);
    match scheme.keys.iter().find(|k| which(&k.kind)) {
        Some(k) => e.for_key(&k.name),
        None => e,
    }
}

/// An error of the flag `bit` as given, named by its key.
fn flag_error(scheme: &Scheme, bit: u8, message: impl Into<String>) -> HandError {
    key_error(scheme, |k| matches!(k, KeyKind::Flag(Some(b)) if *b == bit), message)
}

/// Refuses flowers the scheme does not play.
fn not_played_flowers(scheme: &Scheme, flowers: u8) -> Result<()> {
    crate::engine::flowers_played(&scheme.name, scheme.flowers, flowers)
}

fn text<'v>(key: &str, expected: Phrase, v: &'v Value<'_>) -> Result<&'v str> {
    match v {
        Value::Str(s) => Ok(s),
        Value::Text(s) => Ok(s),
        _ => Err(invalid_as(key, expected, v)),
    }
}

/// Gives `each` the texts of a key that holds a text or a list of texts, a list's items
/// all checked first (a wrong item is named before any text is read).
fn each_text<'v>(
    key: &str,
    expected: Phrase,
    v: &'v Value<'_>,
    mut each: impl FnMut(&'v str) -> Result<()>,
) -> Result<()> {
    match v {
        Value::Str(_) | Value::Text(_) => each(text(key, expected, v)?),
        Value::List(items) => {
            for i in items {
                text(key, expected, i)?;
            }
            items.iter().try_for_each(|i| each(text(key, expected, i)?))
        }
        _ => Ok(()),
    }
}

impl<'a> Reader<'a> {
    /// Reads `key = value` as the scheme's key means it.
    pub fn set(&mut self, scheme: &Scheme, key: &str, v: Value<'a>) -> Result<()> {
        let Some(k) = scheme.keys.iter().find(|k| k.name == key) else {
            let known: Vec<&str> = scheme.keys.iter().map(|k| k.name.as_str()).collect();
            let shown: String = key.chars().take(40).collect();
            return Err(HandError::invalid(format!(
                "unknown {} situation key {shown:?}; known: {}",
                scheme.name,
                known.join(", ")
            ))
            .for_key(&shown));
        };
        self.set_key(k, v)
    }

    /// Reads `value` for a key of the scheme found beforehand (a column's key).
    pub fn set_key(&mut self, k: &Key, v: Value<'a>) -> Result<()> {
        let name = k.name.as_str();
        if matches!(v, Value::None) && k.none_is_left_out() {
            return Ok(());
        }
        match &k.kind {
            KeyKind::Hand => match v {
                Value::Str(_) | Value::Text(_) | Value::Hand(_) => self.hand = Some(v),
                _ => return Err(invalid_as(name, HAND, &v)),
            },
            KeyKind::Win => match v {
                Value::None => {}
                Value::Str(_) | Value::Text(_) => self.win = Some(v),
                _ => return Err(invalid_as(name, WIN, &v)),
            },
            KeyKind::Format => {
                self.format = Some(match text(name, COMPACT_OR_COMH, &v)? {
                    "compact" => Format::Compact,
                    "comh" => Format::Comh,
                    _ => return Err(invalid_as(name, COMPACT_OR_COMH, &v)),
                })
            }
            KeyKind::Flag(bit) => match v {
                Value::Bool(b) => {
                    if let Some(bit) = bit {
                        if b {
                            self.flags |= 1 << bit;
                        } else {
                            self.given_false |= 1 << bit;
                        }
                    }
                }
                Value::None => {}
                _ => return Err(invalid_as(name, TRUE_OR_FALSE, &v)),
            },
            KeyKind::SeatWind => self.seat_wind = if matches!(v, Value::None) { None } else { Some(wind(name, &v)?) },
            KeyKind::Seat => self.seat = if matches!(v, Value::None) { None } else { Some(wind(name, &v)?) },
            KeyKind::RoundWind => self.round = if matches!(v, Value::None) { None } else { Some(wind(name, &v)?) },
            KeyKind::DiscarderWind => {
                self.discarder = if matches!(v, Value::None) { None } else { Some(wind(name, &v)?) }
            }
            KeyKind::Wilds => match v {
                Value::None => {}
                Value::Str(_) | Value::Text(_) | Value::List(_) => {
                    self.wilds = Some(v);
                    self.wilds_read.set(None);
                }
                _ => return Err(invalid_as(name, WILDS, &v)),
            },
            KeyKind::Indicator => match v {
                Value::None => {}
                Value::Str(_) | Value::Text(_) => self.indicator = Some(v),
                _ => return Err(invalid_as(name, INDICATOR, &v)),
            },
            KeyKind::Flowers => match v {
                Value::None => {}
                Value::Int(0) => {}
                Value::Str(_) | Value::Text(_) | Value::List(_) => self.flowers = Some(v),
                _ => return Err(invalid_as(name, FLOWERS, &v)),
            },
            KeyKind::Choice(choices) => {
                if matches!(v, Value::None) {
                    return Ok(());
                }
                let chosen = text(name, NAME, &v)?;
                match choices.iter().find(|(c, _)| c == chosen) {
                    Some((_, bit)) => self.flags |= 1 << bit,
                    None => {
                        let names: Vec<String> = choices.iter().map(|(c, _)| format!("{c:?}")).collect();
                        return Err(invalid(name, &format!("one of {}", names.join(", ")), &v));
                    }
                }
            }
            KeyKind::Explain => match v {
                Value::Bool(b) => self.explain = b,
                Value::None => {}
                _ => return Err(invalid_as(name, TRUE_OR_FALSE, &v)),
            },
        }
        Ok(())
    }

    /// Whether the situation's format was given.
    pub fn has_format(&self) -> bool {
        self.format.is_some()
    }

    /// The format to read the hand in, when the situation gives none.
    pub fn default_format(&mut self, format: Format) {
        self.format.get_or_insert(format);
    }

    /// The kinds `wilds` names, and whether they are the flowers.
    fn read_wilds(&self, scheme: &Scheme) -> Result<(u64, bool)> {
        let mut flower_wilds = false;
        let mut wild_kinds = 0u64;
        if let Some(w) = &self.wilds {
            each_text("wilds", WILD_KINDS, w, |t| {
                // The common case, one kind, without reading a hand.
                if let [b'1'..=b'9', b'm' | b'p' | b's' | b'z'] = t.as_bytes() {
                    if let Ok(k) = notation::parse_tile(t, Format::Compact) {
                        wild_kinds |= 1 << k;
                        return Ok(());
                    }
                }
                let h = notation::parse(t, Format::Compact).map_err(|e| e.for_key("wilds"))?.hand;
                if !h.melds.is_empty() || h.flowers != 0 && !scheme.flower_wilds {
                    return Err(HandError::invalid(format!("wilds name tile kinds such as \"5z\", not {:?}", t)));
                }
                flower_wilds |= h.flowers != 0;
                wild_kinds |= tiles::kinds_mask(&h.concealed);
                Ok(())
            })?;
            if flower_wilds && wild_kinds != 0 {
                return Err(HandError::invalid("the wilds are either flowers or tile kinds, not both"));
            }
        }
        Ok((wild_kinds, flower_wilds))
    }

    /// Checks the situation against the hand and the scheme.
    pub fn finish(&self, scheme: &Scheme) -> Result<Prepared> {
        self.finish_given(scheme, None)
    }

    /// [`Reader::finish`] with the hand and the winning tile given as such, in place of
    /// the reader's: what analysis asks of each wait of a hand, the rest of the situation
    /// read once.
    pub fn finish_with(&self, scheme: &Scheme, hand: &Hand, win: Tile) -> Result<Prepared> {
        self.finish_given(scheme, Some((hand, win)))
    }

    fn finish_given(&self, scheme: &Scheme, given: Option<(&Hand, Tile)>) -> Result<Prepared> {
        let format = self.format.unwrap_or(Format::Compact);
        let mut hand = match (&self.hand, given) {
            (_, Some((h, _))) => h.clone(),
            (None, None) => return Err(HandError::invalid("the situation needs a hand")),
            (Some(Value::Hand(h)), None) => (**h).clone(),
            (Some(v), None) => {
                let s = text("hand", HAND, v)?;
                let p = notation::parse(s, format).map_err(|e| e.for_key("hand"))?;
                if p.rest.is_some() {
                    return Err(HandError::invalid(format!(
                        "{}: the part after '|' is a situation, not a hand",
                        Value::Str(s)
                    )));
                }
                p.hand
            }
        };
        let bad = |m: String| Err(HandError::invalid(m));

        // Seats and winds.
        let seat = match (self.seat, self.seat_wind) {
            (Some(a), Some(b)) if a != b => {
                return Err(HandError::invalid("seat and seat_wind disagree").for_key("seat_wind"));
            }
            (a, b) => a.or(b).unwrap_or(0),
        };
        if self.discarder == Some(seat) {
            let message = "the discarder is another player than the one who wins";
            return Err(key_error(scheme, |k| matches!(k, KeyKind::DiscarderWind), message));
        }

        // Wilds.
        if self.wilds.is_some() && self.indicator.is_some() {
            return Err(HandError::invalid("give either wilds or indicator, not both").for_key("indicator"));
        }
        let (mut wild_kinds, flower_wilds) = match self.wilds_read.get() {
            Some(read) => read,
            None => {
                let read = self.read_wilds(scheme).map_err(|e| e.for_key("wilds"))?;
                self.wilds_read.set(Some(read));
                read
            }
        };
        if let Some(ind) = &self.indicator {
            let tile = notation::parse_tile(text("indicator", TILE, ind)?, Format::Compact);
            wild_kinds = 1 << next_kind(tile.map_err(|e| e.for_key("indicator"))?);
        }
        let wilds_key = if self.indicator.is_some() { "indicator" } else { "wilds" };
        if wild_kinds & !scheme.tiles != 0 {
            let t = tiles::mask_tiles(wild_kinds & !scheme.tiles).next().unwrap_or(0);
            return Err(HandError::invalid(format!(
                "the {} {} is not played in {}{}",
                scheme.wild_name,
                tiles::name(t),
                scheme.name,
                scheme.tiles_note
            ))
            .for_key(wilds_key));
        }
        if wild_kinds.count_ones() > scheme.max_wild_kinds as u32 {
            return Err(HandError::invalid(format!(
                "{} has at most {} {} kind(s) in a deal",
                scheme.name, scheme.max_wild_kinds, scheme.wild_name
            ))
            .for_key(wilds_key));
        }

        // Flowers: written in the hand, given as a key, or the winning tile.
        let mut flowers = hand.flowers;
        hand.flowers = 0;
        not_played_flowers(scheme, flowers).map_err(|e| e.for_key("hand"))?;
        if let Some(f) = &self.flowers {
            each_text("flowers", FLOWER_TILES, f, |t| {
                if t.is_empty() {
                    return Ok(());
                }
                let h = notation::parse(t, format).map_err(|e| e.for_key("flowers"))?.hand;
                if h.concealed_len() > 0 || !h.melds.is_empty() {
                    return Err(HandError::invalid(format!("flowers must be flower tiles such as \"15f\", not {t:?}")));
                }
                if flowers & h.flowers != 0 {
                    return Err(HandError::invalid("a flower is given twice (each is in the set once)"));
                }
                flowers |= h.flowers;
                Ok(())
            })
            .and_then(|()| not_played_flowers(scheme, flowers))
            .map_err(|e| e.for_key("flowers"))?;
        }
        let mut win: Option<WinTile> = given.map(|(_, t)| WinTile::Kind(t));
        if let (Some(w), None) = (&self.win, given) {
            let w = text("win", TILE, w)?;
            win = match w.as_bytes() {
                // The common case, a digit and a suit letter, without reading a hand.
                [b'1'..=b'9', b'm' | b'p' | b's'] => notation::parse_tile(w, format).ok().map(WinTile::Kind),
                _ => {
                    let p = notation::parse(w, format).map_err(|e| e.for_key("win"))?.hand;
                    match (p.concealed_len(), p.flowers.count_ones(), p.melds.len()) {
                        (1, 0, 0) => p.last.map(WinTile::Kind),
                        (0, 1, 0) => Some(WinTile::Flower(p.flowers.trailing_zeros() as u8)),
                        _ => None,
                    }
                }
            };
            if win.is_none() {
                return Err(HandError::invalid(format!("win must be one tile, not {}", Value::Str(w))).for_key("win"));
            }
        }

        let dealt = scheme.dealt_flag.is_some_and(|b| self.flags >> b & 1 == 1);
        let mut flags = self.flags;
        let mut win_is_wild = false;
        let win_kind = match win {
            Some(WinTile::Flower(f)) => {
                let bad_win = |m: String| Err(HandError::invalid(m).for_key("win"));
                let seat_flower = scheme.seat_flowers[seat as usize] >> f & 1 == 1;
                if !(flower_wilds || scheme.seat_flower_wild && seat_flower) {
                    return bad_win(
                        "a flower wins only as a wild: the seat flower (坐花), or any flower when the wilds are flowers"
                            .into(),
                    );
                }
                if flowers >> f & 1 == 1 {
                    return bad_win("a flower is given twice (each is in the set once)".into());
                }
                if scheme.flowers >> f & 1 == 0 {
                    return bad_win(format!("the flower {} is not played in {}", tiles::flower_name(f), scheme.name));
                }
                flowers |= 1 << f;
                win_is_wild = true;
                // A flower is always drawn.
                if let Some(sd) = scheme.self_drawn_flag {
                    if self.given_false >> sd & 1 == 1 {
                        return Err(flag_error(scheme, sd, "a flower is drawn, so a win on one is self-drawn"));
                    }
                    flags |= 1 << sd;
                }
                None
            }
            Some(WinTile::Kind(t)) => {
                win_is_wild = wild_kinds >> t & 1 == 1;
                Some(t)
            }
            None => None,
        };
        for (from, to, message) in &scheme.implies {
            if flags >> from & 1 == 1 {
                if self.given_false >> to & 1 == 1 {
                    // Named by the flag given False that the other implies.
                    return Err(flag_error(scheme, *to, message.clone()));
                }
                flags |= 1 << to;
            }
        }

        // The hand and its size.
        let size = hand.size();
        let seat_flower = scheme.seat_flowers[seat as usize] & flowers != 0;
        let held_wild_flowers =
            if flower_wilds { flowers.count_ones() as u8 } else { (scheme.seat_flower_wild && seat_flower) as u8 };
        let winning = win.is_some();
        let ready = scheme.hand_size();
        let melds = hand.melds.len();
        if melds > scheme.forms.melds as usize {
            return Err(HandError::invalid(format!(
                "{melds} melds declared; a {} hand has at most {}",
                scheme.name, scheme.forms.melds
            ))
            .for_key("hand"));
        }
        let mut loser = false;
        let mut last_tile = None;
        if dealt {
            if winning {
                return Err(HandError::invalid("a dealt hand has no winning tile").for_key("dealt"));
            }
            if melds > 0 || flowers != 0 {
                return Err(HandError::invalid("a dealt hand has no melds and no flowers").for_key("dealt"));
            }
            // "莊家的起張數目為14張，閒家的起張數目為13張": a seat given names the size.
            let seat_key = if self.seat_wind.is_some() { "seat_wind" } else { "seat" };
            let dealer = seat == 0;
            if (self.seat.is_some() || self.seat_wind.is_some()) && size != ready + dealer as usize {
                let wind = ["E", "S", "W", "N"][seat as usize & 3];
                let whose = if dealer { "the dealer's" } else { "a non-dealer's" };
                return Err(HandError::new(ErrorKind::WrongSize {
                    tiles: size,
                    expected: format!(
                        "{} in {whose} dealt hand (dealt=True, {seat_key} {wind})",
                        ready + dealer as usize
                    ),
                })
                .for_key("hand"));
            }
            if size != ready && size != ready + 1 {
                return Err(HandError::invalid(format!(
                    "a dealt hand has {ready} tiles ({} for the dealer), not {size}",
                    ready + 1
                ))
                .for_key("hand"));
            }
        } else if let Some(w) = win {
            let counted = size + held_wild_flowers as usize - matches!(w, WinTile::Flower(_)) as usize;
            if counted != ready {
                return Err(HandError::new(ErrorKind::WrongSize {
                    tiles: counted,
                    expected: if held_wild_flowers > 0 {
                        format!("{ready} without the winning tile, each wild flower held counted as one")
                    } else {
                        format!("{ready} without the winning tile")
                    },
                })
                .for_key("hand"));
            }
        } else {
            match scheme.unwon {
                Unwon::Refused => {
                    return Err(
                        HandError::invalid(format!("the situation needs win ({})", NEEDS_WIN.get())).for_key("win")
                    );
                }
                Unwon::LastTile => {
                    if size + held_wild_flowers as usize != ready + 1 {
                        return Err(HandError::invalid(format!(
                            "give the winning tile (win), or a complete hand of {} tiles (a meld counts as 3)",
                            ready + 1
                        ))
                        .for_key("hand"));
                    }
                    last_tile = hand.last;
                    let Some(t) = last_tile else {
                        return Err(HandError::invalid("give the winning tile (win)").for_key("win"));
                    };
                    win_is_wild = wild_kinds >> t & 1 == 1;
                }
                Unwon::Loser => {
                    loser = true;
                    if size + held_wild_flowers as usize != ready {
                        return Err(HandError::new(ErrorKind::WrongSize {
                            tiles: size + held_wild_flowers as usize,
                            expected: format!("{ready}"),
                        })
                        .for_key("hand"));
                    }
                }
            }
        }
        if let Some(t) = win_kind {
            if scheme.tiles >> t & 1 == 0 {
                return Err(HandError::new(ErrorKind::NotInTileSet {
                    tile: tiles::name(t),
                    ruleset: format!("{}{}", scheme.name, scheme.tiles_note),
                })
                .for_key("win"));
            }
            hand.concealed[t as usize] += 1;
            hand.last = Some(t);
        }
        let held = hand.held();
        // One pass over the counts (vectorised) finds whether some kind is held more
        // often than it may be; then the first such is named.
        if held.iter().zip(&scheme.plan.most_copies).fold(false, |over, (h, most)| over | (h > most)) {
            for k in 0..KINDS {
                if held[k] > 4 {
                    return Err(HandError::new(ErrorKind::FifthCopy(tiles::name(k as Tile))));
                }
                if held[k] > 0 && scheme.tiles >> k & 1 == 0 {
                    return Err(HandError::new(ErrorKind::NotInTileSet {
                        tile: tiles::name(k as Tile),
                        ruleset: format!("{}{}", scheme.name, scheme.tiles_note),
                    })
                    .for_key("hand"));
                }
            }
        }
        if !scheme.wild_kinds_in_melds && hand.melds.iter().any(|m| m.tiles().any(|t| wild_kinds >> t & 1 == 1)) {
            return Err(HandError::invalid(format!(
                "a {0} cannot be claimed or konged: a declared meld holds no {0}",
                scheme.wild_name
            ))
            .for_key("hand"));
        }

        let mut t = Tiles::new(&hand, scheme.tiles, wild_kinds, held_wild_flowers);
        if scheme.forms.wilds_beyond_copies && t.wilds > 0 {
            // The copies left still bound the real tiles; only wilds go past them.
            for k in 0..KINDS {
                if scheme.tiles >> k & 1 == 1 {
                    t.caps[k] += t.wilds;
                }
            }
        }
        // The wilds proper (正财神): the wild kind's copies, or the flowers when the wilds
        // are flowers; the others are a seat flower playing as a wild. A concealed kong of
        // a wild kind is still four wilds held, though it plays as the kong (Tangshan's
        // "不管是吃,碰或是明杠，混无效" voids the wilds of claimed melds only; Beijing's
        // 四惠牌 and 门清's "手中没有惠牌" see them).
        let konged_wilds =
            hand.melds.iter().filter(|m| m.kind == MeldKind::ConcealedKong && wild_kinds >> m.tile & 1 == 1).count()
                as u8
                * 4;
        let (wild_tiles, extra) = if flower_wilds {
            (held_wild_flowers, 0)
        } else {
            (t.wilds - held_wild_flowers + konged_wilds, held_wild_flowers)
        };
        let guest_flowers = flowers.count_ones() as u8 - held_wild_flowers;
        let situation = Situation {
            flags,
            seat,
            seat_given: self.seat.is_some() || self.seat_wind.is_some(),
            round: self.round.unwrap_or(0),
            discarder: self.discarder,
            wild_kinds,
            wild_tiles,
            extra_wilds: extra,
            flower_wilds,
            flowers,
            seat_flower,
            guest_flowers,
            win: match win {
                Some(WinTile::Flower(_)) => Some((0, true)),
                _ => win_kind.or(last_tile).map(|t| (t, win_is_wild)),
            },
        };
        // Refusals read the situation and the declared melds (杠上花 needs a kong).
        let facts = if hand.melds.is_empty() || scheme.refuse.is_empty() {
            Facts::default()
        } else {
            facts::facts(Form::Standard, &t.melds, None, wild_kinds, false, false)
        };
        let ctx = Context {
            facts: &facts,
            situation: &situation,
            sets: &[],
            waits: None,
            counted: 0,
            total: 0,
            value: 0,
            fan_count: 0,
        };
        let sets = scheme.sets_of(&situation);
        let ctx = Context { sets: &sets, ..ctx };
        for (r, needs) in scheme.refuse.iter().zip(&scheme.plan.refuse_needs) {
            if ctx.judge(&r.rule, needs) > 0 {
                return bad(r.message.to_string());
            }
        }
        let win_flower = matches!(win, Some(WinTile::Flower(_)));
        Ok(Prepared { hand, tiles: t, situation, sets, loser, dealt, win_flower, explain: self.explain })
    }
}

/// The waits of the hand before its winning tile, as far as a rule asks (捉五魁's
/// "只和…一张牌"): most situations never need them, and a rule that asks whether they are
/// all of some kinds has its answer at the first wait found outside them.
pub struct Waits<'a> {
    scheme: &'a Scheme,
    p: &'a Prepared,
    /// The last kinds asked about, and the answer.
    known: std::cell::Cell<Option<(u64, bool)>>,
}

impl<'a> Waits<'a> {
    pub fn new(scheme: &'a Scheme, p: &'a Prepared) -> Waits<'a> {
        Waits { scheme, p, known: std::cell::Cell::new(None) }
    }

    /// Whether the hand waited on some kinds other than its wild kinds, all of them
    /// among `kinds` (a drawn wild completes every ready hand, so the wild kinds are not
    /// counted as waits).
    pub fn only_among(&self, kinds: u64) -> bool {
        if let Some((k, answer)) = self.known.get() {
            if k == kinds {
                return answer;
            }
        }
        let answer = !self.p.loser && !self.p.dealt && only_among(self.scheme, self.p, kinds);
        self.known.set(Some((kinds, answer)));
        answer
    }
}

/// See [`Waits::only_among`]: no wait outside `kinds` (the search stops at the first),
/// then some wait among them.
fn only_among(scheme: &Scheme, p: &Prepared, kinds: u64) -> bool {
    let Some((t, _)) = p.situation.win else { return false };
    let mut before = p.hand.clone();
    // Flowers held as wilds, which the engine takes as extra wilds.
    let mut extra = if p.situation.flower_wilds { p.situation.wild_tiles } else { p.situation.extra_wilds };
    if p.win_flower {
        extra -= 1;
    } else {
        before.concealed[t as usize] -= 1;
    }
    let wilds = crate::engine::Wilds { kinds: p.situation.wild_kinds, extra, drawable: 0 };
    let view = scheme.engine.view(&before, wilds);
    let held = before.held();
    let real = !p.situation.wild_kinds;
    let waits = |among: u64| scheme.engine.waits_among(&view, &held, wilds.kinds, among & real, true) != 0;
    !waits(!kinds) && waits(kinds)
}

/// The kind an indicator names: the next in its suit, 9 wrapping to 1, the winds in turn
/// (东南西北), the dragons 中→发→白→中.
pub fn next_kind(t: Tile) -> Tile {
    match t {
        27..=30 => 27 + (t - 27 + 1) % 4,
        33 => 32,
        32 => 31,
        31 => 33,
        _ => t - t % 9 + (t % 9 + 1) % 9,
    }
}

/// A situation ready to score.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// The hand, its winning tile among the concealed tiles; flowers not in it.
    pub hand: Hand,
    pub tiles: Tiles,
    pub situation: Situation,
    /// The scheme's sets in this situation, by index.
    pub sets: [u64; MAX_SETS],
    /// The player did not win (the hand as it stands is scored).
    pub loser: bool,
    /// A dealt hand judged for the instant wins.
    pub dealt: bool,
    /// The winning tile is a flower (a wild).
    pub win_flower: bool,
    pub explain: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indicators_name_the_next_kind() {
        let name = |t| tiles::name(next_kind(t));
        assert_eq!(name(8), "1m");
        assert_eq!(name(3), "5m");
        assert_eq!(name(30), "1z");
        assert_eq!(name(33), "6z");
        assert_eq!(name(31), "7z");
    }

    #[test]
    fn values_are_shown_short() {
        assert_eq!(Value::Str("yes").to_string(), "'yes'");
        assert_eq!(Value::Str("it's").to_string(), "\"it's\"");
        assert_eq!(Value::Int(2).to_string(), "2");
        // Floats as Python's repr writes them: never as the int they equal.
        let floats = [1.0, -0.0, 0.0001, 1e-5, 1e15, 1e16, 1e20, 123456.789];
        let shown: Vec<String> = floats.iter().map(|&x| Value::Float(x).to_string()).collect();
        assert_eq!(shown, ["1.0", "-0.0", "0.0001", "1e-05", "1000000000000000.0", "1e+16", "1e+20", "123456.789"]);
        let long = "1".repeat(100);
        assert!(Value::Str(&long).to_string().len() < 50);
        let before = Spelling::Json.set();
        let shown: Vec<String> = [Value::Str("yes"), Value::Bool(true), Value::None, Value::Other("dict".into())]
            .iter()
            .map(|v| v.to_string())
            .collect();
        Spelling::Python.set();
        assert_eq!(shown, ["\"yes\"", "true", "null", "an object"]);
        assert_eq!(before, Spelling::Python);
    }
}
