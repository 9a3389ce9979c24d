//! The bodies of haidi's fuzz targets: each takes any bytes and feeds them to the pure-Rust
//! API, checking that every call returns a result or a `HandError` (a panic is a bug) and
//! that the results agree with each other where they must.
//!
//! cargo-fuzz runs them coverage-guided (`fuzz/fuzz_targets/*.rs`, nightly); the root
//! crate's `tests/fuzz_targets.rs` includes this file and runs the same bodies on stable
//! over the seeds, the regressions and pseudo-random bytes. docs/fuzzing.md says more.

use _core::engine::{Engine, Wilds};
use _core::forms::Forms;
use _core::hand::Hand;
use _core::mcr::batch::{evaluate_text, TextSituation};
use _core::mcr::{self, Options, Situation};
use _core::notation::{parse, parse_tile, Format};
use _core::score::data::{self, Data};
use _core::score::situation::{KeyKind, Reader, Value};
use _core::score::{self, Scheme};
use _core::tiles::{self, Tile, ALL_KINDS, KINDS, KINDS_258};
use _core::{batch, HandError};

/// Builds the tables that the first call of a process would (about 50 ms, seconds under a
/// sanitizer), so that a time limit on one input measures that input.
pub fn warm_up() {
    let hand = parse("1112345678999m", Format::Compact).unwrap().hand;
    Engine::standard(4).shanten(&hand, Wilds::default()).unwrap();
    let situation = Situation { win: 4, ..Default::default() };
    mcr::evaluate(&hand, situation, &Options::default(), false).unwrap();
    schemes();
}

/// Reads the fuzzer's bytes as choices; past the end every choice is 0.
pub struct Bytes<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data, pos: 0 }
    }

    pub fn byte(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    /// A number below `n` (n > 0).
    pub fn below(&mut self, n: u8) -> u8 {
        self.byte() % n
    }

    pub fn flag(&mut self) -> bool {
        self.byte() & 1 == 1
    }

    /// True about one time in `n`.
    pub fn one_in(&mut self, n: u8) -> bool {
        self.below(n) == 0
    }

    /// The bytes not read yet, as text.
    pub fn rest_text(&mut self) -> String {
        let rest = self.data.get(self.pos..).unwrap_or(&[]);
        self.pos = self.data.len();
        String::from_utf8_lossy(rest).into_owned()
    }
}

/// An error message is short whatever the input (it quotes at most a window of it).
fn check_error(e: &HandError) {
    let shown = e.to_string();
    assert!(shown.len() < 2_000, "an error message of {} bytes", shown.len());
}

/// Both readers on any text: a hand read back from its own notation is the same hand.
pub fn notation(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    for format in [Format::Compact, Format::Comh] {
        match parse(&text, format) {
            Ok(p) => {
                let written = p.hand.notation();
                let again =
                    parse(&written, Format::Compact).unwrap_or_else(|e| panic!("{written:?} does not read back: {e}"));
                assert_eq!(again.hand, p.hand, "{text:?} read back from {written:?}");
                assert!(again.rest.is_none());
                // Every reachable hand has at most four of a kind, melds included.
                assert!(p.hand.held().iter().all(|&c| c <= 4), "{text:?}");
            }
            Err(e) => check_error(&e),
        }
        if let Err(e) = parse_tile(&text, format) {
            check_error(&e);
        }
    }
}

/// Hand text that is mostly well formed: melds, then about `size` tiles, sometimes a
/// flower; now and then the raw bytes left.
pub fn hand_text(b: &mut Bytes<'_>, size: usize) -> String {
    if b.one_in(16) {
        return b.rest_text();
    }
    let mut out = String::new();
    let melds = b.below(6) as usize;
    for _ in 0..melds {
        let t = b.below(KINDS as u8);
        let from = if b.one_in(3) { format!(",{}", b.below(4)) } else { String::new() };
        let suit = tiles::SUIT_LETTERS[tiles::suit(t) as usize];
        let r = tiles::rank(t);
        out.push_str(&match b.below(5) {
            0 if r <= 7 && suit != 'z' => format!("[{r}{}{}{suit}{from}]", r + 1, r + 2),
            1 => format!("[{r}{r}{r}{suit}{from}]"),
            2 => format!("[{r}{r}{r}{r}{suit}{from}]"),
            3 => format!("{{{r}{r}{r}{r}{suit}}}"),
            _ => format!("[{r}{r}{r}{r}{suit}+{from}]"),
        });
    }
    let n = (size.saturating_sub(3 * melds) as isize + b.below(3) as isize - 1).max(0) as usize;
    for _ in 0..n {
        out.push_str(&tiles::name(b.below(KINDS as u8)));
    }
    if b.one_in(8) {
        out.push_str(&format!("{}f", 1 + b.below(8)));
    }
    out
}

/// Hand forms and a tile set as any ruleset (or `haidi._core.Engine`) may declare them.
fn forms_of(b: &mut Bytes<'_>) -> (Forms, u64) {
    let melds = 4 + b.below(2);
    let bits = b.byte() as u16 | (b.byte() as u16) << 8;
    let bit = |i: u16| bits >> i & 1 == 1;
    let forms = Forms {
        standard: !bit(0),
        pair_kinds: if bit(1) { KINDS_258 } else { ALL_KINDS },
        seven_pairs: bit(2),
        four_as_two_pairs: bit(3),
        eight_pairs_and_a_half: bit(4),
        thirteen_orphans: bit(5),
        honours_and_knitted: bit(6),
        knitted_straight: bit(7),
        all_pungs_any_pair: bit(8),
        one_suit_any_pair: bit(9),
        all_258: bit(10),
        wilds_beyond_copies: bit(11),
        ..Forms::standard(melds)
    };
    let tile_set = match b.below(4) {
        0 => ALL_KINDS & !(1 << tiles::WHITE),
        1 => tiles::SUITED_KINDS,
        _ => ALL_KINDS,
    };
    (forms, tile_set)
}

/// Up to two wild kinds, and extra wilds (seat flowers) now and then.
fn wilds_of(b: &mut Bytes<'_>) -> Wilds {
    let mut kinds = 0u64;
    for _ in 0..b.below(3) {
        kinds |= 1 << b.below(KINDS as u8);
    }
    let extra = if b.one_in(4) { b.below(18) } else { 0 };
    Wilds { kinds, extra, drawable: 0 }
}

/// The engine on hands read from text: shanten, waits, win and decompositions agree, and
/// the batch calls agree with the single ones.
pub fn engine(data: &[u8]) {
    let mut b = Bytes::new(data);
    let (forms, tile_set) = forms_of(&mut b);
    let e = Engine::new("fuzz", forms, tile_set);
    let wilds = wilds_of(&mut b);
    let ready = e.forms.ready_size();
    let size = ready + b.below(2) as usize;
    let text = hand_text(&mut b, size.saturating_sub(wilds.extra as usize));
    let hand = match parse(&text, Format::Compact) {
        Ok(p) => p.hand,
        Err(e) => return check_error(&e),
    };
    let shanten = e.shanten(&hand, wilds);
    if let Ok(s) = shanten {
        assert!((-1..=ready as i8).contains(&s), "shanten {s} of {text:?} {wilds:?} {:?}", e.forms);
    }
    let counted = hand.size() + wilds.extra as usize;
    if counted == ready + 1 {
        let win = e.is_win(&hand, wilds);
        let arrangements = e.decompose(&hand, wilds, 64);
        match (&win, &arrangements, &shanten) {
            (Ok(w), Ok(a), Ok(s)) => {
                assert_eq!(*w, *s == -1, "is_win {w} but shanten {s}: {text:?} {wilds:?} {:?}", e.forms);
                assert_eq!(
                    *w,
                    !a.is_empty(),
                    "is_win {w} but {} arrangements: {text:?} {wilds:?} {:?}",
                    a.len(),
                    e.forms
                );
            }
            (Err(_), Err(_), Err(_)) => {}
            _ => panic!(
                "the calls disagree on whether {text:?} is valid: {win:?} {:?} {shanten:?}",
                arrangements.is_ok()
            ),
        }
    } else if counted == ready {
        if let (Ok(waits), Ok(s)) = (e.waits(&hand, wilds), &shanten) {
            assert_eq!(*s == 0, !waits.is_empty(), "shanten {s} with waits {waits:?}: {text:?} {wilds:?}");
            let held = hand.held();
            for t in 0..KINDS as Tile {
                if e.tiles >> t & 1 == 0 || held[t as usize] >= 4 {
                    continue;
                }
                let wins = e.is_win(&hand.with_tile(t), wilds).unwrap_or(false);
                assert_eq!(
                    wins,
                    waits.contains(&t),
                    "{text:?} + {}: is_win {wins}, waits {waits:?} {wilds:?} {:?}",
                    tiles::name(t),
                    e.forms
                );
            }
        }
    } else {
        assert!(shanten.is_err(), "{text:?} of {} tiles has a shanten", hand.size());
    }
    batch_agrees(&e, &hand, wilds, counted == ready);
    raw_rows(&e, &mut b);
}

/// The batch calls on the hand's counts (no melds: a batch row knows only their number)
/// give what the single calls give.
fn batch_agrees(e: &Engine, hand: &Hand, wilds: Wilds, ready: bool) {
    if !hand.melds.is_empty() || hand.flowers != 0 || wilds.extra != 0 {
        return;
    }
    let rows = batch::Rows::new(&hand.concealed, None);
    let Ok(()) = batch::validate(e, &rows, Some(ready)) else { return };
    if e.check(hand, wilds, Some(ready)).is_err() {
        return;
    }
    let s = batch::shanten(e, &rows, wilds.kinds)[0];
    assert_eq!(Ok(s), e.shanten(hand, wilds), "batch shanten of {}", hand.notation());
    if ready {
        let mask = batch::waits(e, &rows, wilds.kinds)[0];
        let single = e.waits(hand, wilds).unwrap().iter().fold(0u64, |m, &t| m | 1 << t);
        assert_eq!(mask, single, "batch waits of {}", hand.notation());
    } else {
        assert_eq!(Ok(batch::win(e, &rows, wilds.kinds)[0]), e.is_win(hand, wilds), "batch win of {}", hand.notation());
    }
}

/// Batch rows of any bytes: refused with an error naming the row, or answered.
fn raw_rows(e: &Engine, b: &mut Bytes<'_>) {
    let n = b.below(4) as usize;
    let counts: Vec<u8> = (0..n * KINDS + b.below(2) as usize).map(|_| b.below(6)).collect();
    let melds: Vec<u8> = (0..n).map(|_| b.below(7)).collect();
    let rows = batch::Rows::new(&counts, if b.flag() { Some(&melds) } else { None });
    let kinds = wilds_of(b).kinds & e.tiles;
    for ready in [None, Some(true), Some(false)] {
        match batch::validate(e, &rows, ready) {
            Ok(()) => {
                let s = batch::shanten(e, &rows, kinds);
                assert!(s.iter().all(|s| (-1..=17).contains(s)), "{s:?}");
                match ready {
                    Some(true) => drop(batch::waits(e, &rows, kinds)),
                    Some(false) => drop(batch::win(e, &rows, kinds)),
                    None => {}
                }
            }
            Err(e) => check_error(&e),
        }
    }
}

/// A situation of MCR's keys from bytes (winds and flowers sometimes out of range).
fn mcr_situation(b: &mut Bytes<'_>) -> Situation {
    Situation {
        win: 0,
        self_drawn: b.flag(),
        seat_wind: b.below(5),
        round_wind: b.below(5),
        flowers: if b.one_in(3) { b.below(10) } else { 0 },
        last_of_kind: b.one_in(4),
        wall_last: b.one_in(4),
        kong_replacement: b.one_in(4),
        robbing_kong: b.one_in(4),
    }
}

/// MCR scoring of any situation, given as text the way Python and the command line give
/// it: a win has at least 8 points, and `explain` changes no score.
pub fn mcr(data: &[u8]) {
    let mut b = Bytes::new(data);
    let format = if b.one_in(4) { Format::Comh } else { Format::Compact };
    let situation = mcr_situation(&mut b);
    let options = Options { concealed_and_melded_kong: b.flag() };
    let win = match b.below(4) {
        0 => None,
        1 => Some(tiles::name(b.below(KINDS as u8)) + if b.one_in(8) { "x" } else { "" }),
        _ => Some(tiles::name(b.below(KINDS as u8))),
    };
    let hand = hand_text(&mut b, 13);
    // Now and then a key a COMH case string also gives.
    let given = if b.one_in(8) { 1u8 << b.below(8) } else { 0 };
    let input =
        TextSituation { hand: &hand, win: win.as_deref(), format, situation, options: None, explain: false, given };
    match evaluate_text(&input, &options) {
        Ok(s) => {
            assert!(!s.win || s.total >= 8, "a win of {} points: {hand:?} {win:?}", s.total);
            let explaining = TextSituation { explain: true, ..input };
            let explained = evaluate_text(&explaining, &options).expect("explain refuses what it scored");
            assert_eq!((explained.win, explained.total), (s.win, s.total), "explain changes {hand:?}");
        }
        Err(e) => check_error(&e),
    }
    // The scorer proper, on a hand and situation built directly.
    if let Ok(p) = parse(&hand, Format::Compact) {
        let mut s = situation;
        s.win = b.byte() % 40;
        if let Err(e) = mcr::evaluate(&p.hand, s, &options, b.flag()) {
            check_error(&e);
        }
    }
}

/// The regional rulesets' scoring data, written by `python scripts/fuzz.py --schemes`: for
/// each, a list of schemes (its default options, and options that change scoring).
const SCHEME_DATA: [(&str, &str); 5] = [
    ("changsha", include_str!("../schemes/changsha.json")),
    ("hainan", include_str!("../schemes/hainan.json")),
    ("longgang", include_str!("../schemes/longgang.json")),
    ("tangshan", include_str!("../schemes/tangshan.json")),
    ("beijing", include_str!("../schemes/beijing.json")),
];

fn to_data(v: &serde_json::Value) -> Data {
    use serde_json::Value as J;
    match v {
        J::Null => Data::None,
        J::Bool(b) => Data::Bool(*b),
        J::Number(n) => n.as_i64().map_or_else(|| Data::Other("float".into()), Data::Int),
        J::String(s) => Data::Str(s.clone()),
        J::Array(items) => Data::List(items.iter().map(to_data).collect()),
        J::Object(items) => Data::Dict(items.iter().map(|(k, v)| (k.clone(), to_data(v))).collect()),
    }
}

/// Each regional ruleset's scheme data, one for each set of options, parsed once.
pub fn scheme_data() -> &'static [Vec<Data>] {
    static DATA: std::sync::OnceLock<Vec<Vec<Data>>> = std::sync::OnceLock::new();
    DATA.get_or_init(|| {
        SCHEME_DATA
            .iter()
            .map(|(name, text)| {
                let variants: serde_json::Value = serde_json::from_str(text).expect(name);
                variants.as_array().expect(name).iter().map(to_data).collect()
            })
            .collect()
    })
}

/// Each regional ruleset's schemes, read once.
pub fn schemes() -> &'static [Vec<Scheme>] {
    static SCHEMES: std::sync::OnceLock<Vec<Vec<Scheme>>> = std::sync::OnceLock::new();
    SCHEMES.get_or_init(|| {
        scheme_data()
            .iter()
            .zip(SCHEME_DATA)
            .map(|(variants, (name, _))| {
                variants.iter().map(|v| data::read(v).unwrap_or_else(|e| panic!("{name}: {e}"))).collect()
            })
            .collect()
    })
}

/// Every string of the scheme data (keys and values): the words mutations write.
fn scheme_words() -> &'static [String] {
    static WORDS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    WORDS.get_or_init(|| {
        let mut words = std::collections::BTreeSet::new();
        let mut stack: Vec<&Data> = scheme_data().iter().flatten().collect();
        while let Some(d) = stack.pop() {
            match d {
                Data::Str(s) => drop(words.insert(s.clone())),
                Data::List(items) => stack.extend(items),
                Data::Dict(items) => {
                    for (k, v) in items {
                        words.insert(k.clone());
                        stack.push(v);
                    }
                }
                _ => {}
            }
        }
        words.into_iter().collect()
    })
}

fn word(b: &mut Bytes<'_>) -> String {
    let words = scheme_words();
    let i = (b.byte() as usize) << 8 | b.byte() as usize;
    words[i % words.len()].clone()
}

/// Scheme data made from the bytes: any value, strings mostly the scheme's words.
fn any_data(b: &mut Bytes<'_>, depth: usize) -> Data {
    match b.below(if depth >= 4 { 5 } else { 7 }) {
        0 => Data::None,
        1 => Data::Bool(b.flag()),
        2 => Data::Int(edge_int(b)),
        3 => Data::Str(if b.one_in(8) { b.byte().to_string() } else { word(b) }),
        4 => Data::Other("float".into()),
        5 => Data::List((0..b.below(5)).map(|_| any_data(b, depth + 1)).collect()),
        _ => Data::Dict((0..b.below(5)).map(|_| (word(b), any_data(b, depth + 1))).collect()),
    }
}

/// A small int or one at an edge (of a u8, a bit index, an i32).
fn edge_int(b: &mut Bytes<'_>) -> i64 {
    let edges = [0, 1, -1, 2, 3, 4, 5, 16, 17, 31, 32, 63, 64, 65, 255, 256, 1_000_000, i32::MAX as i64 + 1, i64::MIN];
    if b.flag() {
        edges[b.below(edges.len() as u8) as usize]
    } else {
        b.byte() as i64 - 64
    }
}

fn children(d: &Data) -> usize {
    match d {
        Data::List(items) => items.len(),
        Data::Dict(items) => items.len(),
        _ => 0,
    }
}

fn child_mut(d: &mut Data, i: usize) -> &mut Data {
    match d {
        Data::List(items) => &mut items[i],
        Data::Dict(items) => &mut items[i].1,
        _ => unreachable!("only lists and dicts have children"),
    }
}

/// A part of `d` chosen by the bytes: a child of the root, or a child of it, and so on.
fn part<'d>(d: &'d Data, b: &mut Bytes<'_>) -> &'d Data {
    let mut node = d;
    while children(node) > 0 && (std::ptr::eq(node, d) || !b.one_in(4)) {
        let i = b.byte() as usize % children(node);
        node = match node {
            Data::List(items) => &items[i],
            Data::Dict(items) => &items[i].1,
            _ => unreachable!(),
        };
    }
    node
}

/// Changes one part of `d` below its root: replaced by any value or by another part of
/// `donor`, a child removed or doubled, an int moved to an edge, a string made another
/// word, a value wrapped in a list.
fn mutate(d: &mut Data, donor: &Data, b: &mut Bytes<'_>) {
    let mut node = d;
    let mut root = true;
    while children(node) > 0 && (root || !b.one_in(4)) {
        let i = b.byte() as usize % children(node);
        node = child_mut(node, i);
        root = false;
    }
    let n = children(node);
    match b.below(7) {
        0 => *node = any_data(b, 0),
        1 => *node = part(donor, b).clone(),
        2 if n > 0 => {
            let i = b.byte() as usize % n;
            match node {
                Data::List(items) => drop(items.remove(i)),
                Data::Dict(items) => drop(items.remove(i)),
                _ => {}
            }
        }
        3 if n > 0 => {
            let i = b.byte() as usize % n;
            match node {
                Data::List(items) => items.insert(i, items[i].clone()),
                Data::Dict(items) => items.insert(i, items[i].clone()),
                _ => {}
            }
        }
        4 => match node {
            Data::Int(v) => *v = if b.flag() { edge_int(b) } else { v.wrapping_add(b.below(3) as i64 - 1) },
            Data::Str(s) => *s = word(b),
            Data::Bool(v) => *v = !*v,
            _ => *node = Data::Int(edge_int(b)),
        },
        5 => *node = Data::List(vec![std::mem::replace(node, Data::None)]),
        _ => match node {
            Data::List(items) => items.truncate(b.below(items.len() as u8 + 1) as usize),
            Data::Dict(items) => items.push((word(b), any_data(b, 2))),
            _ => *node = Data::None,
        },
    }
}

/// The scheme reader (src/score/data.rs) on the rulesets' scheme data with up to four
/// parts changed, and now and then on data made from the bytes: a scheme or a
/// `HandError`. A scheme read must be one the scorer can use: it scores a situation of
/// its keys as `regional` does.
pub fn scheme(data: &[u8]) {
    let mut b = Bytes::new(data);
    let all = scheme_data();
    let variants = &all[b.below(all.len() as u8) as usize];
    let donor = &variants[b.below(variants.len() as u8) as usize];
    let mut d = if b.one_in(16) { any_data(&mut b, 0) } else { donor.clone() };
    for _ in 0..b.below(5) {
        mutate(&mut d, donor, &mut b);
    }
    match data::read(&d) {
        Ok(scheme) => score_situation(&scheme, &mut b),
        Err(e) => check_error(&e),
    }
}

/// A value for a situation key: mostly of the kind the key takes, sometimes anything.
fn value_for(b: &mut Bytes<'_>, kind: &KeyKind, hand_size: usize) -> Value<'static> {
    if b.one_in(12) {
        return match b.below(7) {
            0 => Value::None,
            1 => Value::Bool(b.flag()),
            2 => Value::Int(if b.flag() { i64::MAX } else { b.byte() as i64 - 128 }),
            3 => Value::Float(f64::NAN),
            4 => Value::List(vec![Value::Int(1), Value::Text("1m".into())]),
            5 => Value::Other("dict".into()),
            _ => Value::Text(tiles::name(b.below(KINDS as u8)) + &tiles::name(b.below(KINDS as u8))),
        };
    }
    let tile = |b: &mut Bytes<'_>| Value::Text(tiles::name(b.below(KINDS as u8)));
    let wind = |b: &mut Bytes<'_>| {
        if b.flag() {
            Value::Int(b.below(4) as i64)
        } else {
            Value::Text(["E", "S", "W", "N"][b.below(4) as usize].into())
        }
    };
    match kind {
        KeyKind::Hand => Value::Text(hand_text(b, hand_size)),
        KeyKind::Win if b.one_in(10) => Value::Text(format!("{}f", 1 + b.below(8))),
        KeyKind::Win | KeyKind::Indicator => tile(b),
        KeyKind::Format => Value::Text(if b.one_in(6) { "comh" } else { "compact" }.into()),
        KeyKind::Flag(_) | KeyKind::Explain => Value::Bool(b.one_in(3)),
        KeyKind::SeatWind | KeyKind::Seat | KeyKind::RoundWind | KeyKind::DiscarderWind => wind(b),
        KeyKind::Wilds if b.one_in(4) => Value::List(vec![tile(b), tile(b)]),
        KeyKind::Wilds if b.one_in(8) => Value::Text(format!("{}f", 1 + b.below(8))),
        KeyKind::Wilds => tile(b),
        KeyKind::Flowers => {
            let f: String = (1..=8u8).filter(|_| b.one_in(3)).map(|f| char::from(b'0' + f)).collect();
            Value::Text(if f.is_empty() { String::new() } else { f + "f" })
        }
        KeyKind::Choice(choices) if !choices.is_empty() => {
            Value::Text(choices[b.below(choices.len() as u8) as usize].0.clone())
        }
        KeyKind::Choice(_) => Value::None,
    }
}

/// The regional scorer (src/score/) of every regional ruleset, each with each of its
/// scoring options, on situations of its keys.
pub fn regional(data: &[u8]) {
    let mut b = Bytes::new(data);
    let all = schemes();
    let variants = &all[b.below(all.len() as u8) as usize];
    let scheme = &variants[b.below(variants.len() as u8) as usize];
    score_situation(scheme, &mut b);
}

/// A situation of the scheme's keys, mostly of the right kind of value and sometimes
/// not, scored: a win is complete.
fn score_situation(scheme: &Scheme, b: &mut Bytes<'_>) {
    let mut reader = Reader::default();
    let size = scheme.hand_size() + b.one_in(4) as usize;
    for key in &scheme.keys {
        let wanted = if key.kind == KeyKind::Hand { !b.one_in(16) } else { b.one_in(3) };
        if wanted {
            let v = value_for(b, &key.kind, size);
            if let Err(e) = reader.set(scheme, &key.name, v) {
                check_error(&e);
            }
        }
    }
    if b.one_in(32) {
        assert!(reader.set(scheme, "no_such_key", Value::Bool(true)).is_err());
    }
    let prepared = match reader.finish(scheme) {
        Ok(p) => p,
        Err(e) => return check_error(&e),
    };
    let scored = score::evaluate(scheme, &prepared);
    assert!(!scored.win || scored.complete, "{}: a win that is not complete", scheme.name);
    scored.items(scheme, &prepared.sets);
    scored.voided_by(scheme);
}
