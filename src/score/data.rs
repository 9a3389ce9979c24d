//! A ruleset's scoring data as plain values, and the reader that checks it into a
//! [`Scheme`]. Each regional ruleset's Python module writes the data
//! (`haidi.rulesets._scheme.build`); the binding layer turns it into a [`Data`] tree, and
//! the fuzz targets read the same data from JSON, so one reader serves both. A mistake
//! in it is a `HandError` naming the part at fault.

use super::group::Role;
use super::rule::{role_bit, Cmp, KindSet, Quantity, Rule};
use super::scheme::{
    self, Exclusion, ExtraPoints, Fallback, GroupPoints, GroupState, Pattern, RankKey, Said, Scheme, Total, Unwon,
    MAX_PATTERNS,
};
use super::situation::{Key, KeyKind};
use crate::error::{ErrorKind, HandError, Result};
use crate::forms::Forms;
use crate::notation::{self, Format};
use crate::tiles::{self, KINDS};

/// Most levels of nesting scheme data may have (the rulesets' rules nest a few deep);
/// deeper data is refused before it is read, so no reading recursion can run deep.
pub const MAX_DEPTH: usize = 32;

/// A value of scheme data: what Python's None, bools, ints, strings, sequences and dicts
/// are, or JSON's values.
#[derive(Clone, Debug, PartialEq)]
pub enum Data {
    None,
    Bool(bool),
    Int(i64),
    Str(String),
    List(Vec<Data>),
    /// Items in order; a key given twice is found at its first place.
    Dict(Vec<(String, Data)>),
    /// Anything else (a float, a function), by its type's name.
    Other(String),
}

impl Data {
    pub fn is_none(&self) -> bool {
        matches!(self, Data::None)
    }

    /// The value of `key` in a dict.
    pub fn get(&self, key: &str) -> Option<&Data> {
        match self {
            Data::Dict(items) => items.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Levels of nesting: 1 for a plain value.
    pub fn depth(&self) -> usize {
        // Iterative, so that data nested too deep to read is measured without recursion.
        let mut deepest = 0;
        let mut stack = vec![(self, 1usize)];
        while let Some((d, level)) = stack.pop() {
            deepest = deepest.max(level);
            match d {
                Data::List(items) => stack.extend(items.iter().map(|i| (i, level + 1))),
                Data::Dict(items) => stack.extend(items.iter().map(|(_, v)| (v, level + 1))),
                _ => {}
            }
        }
        deepest
    }
}

const MISTAKE: &str = "ruleset data, ";

fn err(what: &str, m: impl std::fmt::Display) -> HandError {
    HandError::invalid(format!("{MISTAKE}{what}: {m}"))
}

/// The reading of item `at` of a list (`patterns[3] "ping_hu"`), its error placed there.
fn within<T>(at: impl FnOnce() -> String, r: Result<T>) -> Result<T> {
    r.map_err(|e| match &e.kind {
        ErrorKind::Invalid(m) => {
            HandError::invalid(format!("{MISTAKE}{}, {}", at(), m.strip_prefix(MISTAKE).unwrap_or(m)))
        }
        _ => e,
    })
}

/// Each item of a list read, its error placed at the item (`valid[2]`).
fn each<'d, T>(list: &'d [Data], what: &str, read: impl Fn(&'d Data) -> Result<T>) -> Result<Vec<T>> {
    list.iter().enumerate().map(|(i, d)| within(|| format!("{what}[{i}]"), read(d))).collect()
}

fn item<'d>(d: &'d Data, key: &str) -> Result<&'d Data> {
    match d {
        Data::Dict(_) => d.get(key).ok_or_else(|| err(key, "missing")),
        _ => Err(err(key, "expected a dict")),
    }
}

fn opt<'d>(d: &'d Data, key: &str) -> Result<Option<&'d Data>> {
    Ok(d.get(key).filter(|v| !v.is_none()))
}

fn string(o: &Data, what: &str) -> Result<String> {
    match o {
        Data::Str(s) => Ok(s.clone()),
        _ => Err(err(what, "expected a str")),
    }
}

fn int(o: &Data, what: &str) -> Result<i32> {
    match o {
        Data::Int(i) => i32::try_from(*i).map_err(|_| err(what, "expected an int")),
        _ => Err(err(what, "expected an int")),
    }
}

/// What a pattern, a group or an extra is worth may be at most this (either way): the
/// rulesets' own data stays under 1,000, and the sum of all 64 patterns counted 255 times
/// each is then within an i32.
pub const MAX_POINTS: i32 = 10_000;

/// Points (see [`MAX_POINTS`]).
fn points(o: &Data, what: &str) -> Result<i32> {
    match o {
        Data::Int(i) if (-(MAX_POINTS as i64)..=MAX_POINTS as i64).contains(i) => Ok(*i as i32),
        _ => Err(err(what, format!("expected an int from -{MAX_POINTS} to {MAX_POINTS}"))),
    }
}

/// An int from 0 to `max` (a count or index kept in a byte).
fn small(o: &Data, what: &str, max: u8) -> Result<u8> {
    match o {
        Data::Int(i) if (0..=max as i64).contains(i) => Ok(*i as u8),
        _ => Err(err(what, format!("expected an int from 0 to {max}"))),
    }
}

fn boolean(o: &Data, what: &str) -> Result<bool> {
    match o {
        Data::Bool(b) => Ok(*b),
        _ => Err(err(what, "expected a bool")),
    }
}

fn seq<'d>(o: &'d Data, what: &str) -> Result<&'d [Data]> {
    match o {
        Data::List(items) => Ok(items),
        Data::Str(_) => Err(err(what, "expected a sequence, not a str")),
        _ => Err(err(what, "expected a sequence")),
    }
}

/// Item `i` of a sequence.
fn at<'d>(items: &'d [Data], i: usize, what: &str) -> Result<&'d Data> {
    items.get(i).ok_or_else(|| err(what, format!("needs {} items", i + 1)))
}

/// Kinds named in compact notation (`"258m258p258s"`), as a mask.
pub fn kinds(text: &str, what: &str) -> Result<u64> {
    let h = notation::parse(text, Format::Compact).map_err(|e| err(what, e))?.hand;
    Ok(tiles::kinds_mask(&h.concealed))
}

/// Flowers named in compact notation (`"15f"`), by bit.
fn flowers(text: &str, what: &str) -> Result<u8> {
    if text.is_empty() {
        return Ok(0);
    }
    Ok(notation::parse(text, Format::Compact).map_err(|e| err(what, e))?.hand.flowers)
}

fn kind_set(o: &Data) -> Result<KindSet> {
    let parts = seq(o, "set")?;
    let head = parts.first().ok_or_else(|| err("set", "empty"))?;
    let name = string(head, "set")?;
    let arg = |i: usize| parts.get(i).ok_or_else(|| err("set", format!("{name} needs an argument")));
    Ok(match name.as_str() {
        "kinds" => KindSet::Fixed(kinds(&string(arg(1)?, "set")?, "set")?),
        "seat_wind" => KindSet::SeatWind,
        "round_wind" => KindSet::RoundWind,
        "wilds" => KindSet::Wilds,
        "wild_suits" => KindSet::WildSuits,
        "suits" => {
            let letters = string(arg(1)?, "set")?;
            let mut m = 0u8;
            for c in letters.chars() {
                let s = tiles::SUIT_LETTERS.iter().position(|&l| l == c).ok_or_else(|| err("set", c))?;
                m |= 1 << s;
            }
            KindSet::Suits(m)
        }
        "union" => KindSet::Union(parts[1..].iter().map(kind_set).collect::<Result<_>>()?),
        "minus" => KindSet::Minus(Box::new(kind_set(arg(1)?)?), Box::new(kind_set(arg(2)?)?)),
        other => return Err(err("set", format!("unknown kind of set {other:?}"))),
    })
}

/// Names resolved while reading rules.
struct Names<'a> {
    flags: &'a [String],
    patterns: &'a [String],
    fallbacks: &'a [String],
}

impl Names<'_> {
    fn flag(&self, name: &str) -> Result<u8> {
        self.flags
            .iter()
            .position(|f| f == name)
            .map(|i| i as u8)
            .ok_or_else(|| err("rule", format!("no flag {name:?}")))
    }

    fn form(&self, name: &str) -> Result<u32> {
        use crate::score::arrange::Form;
        Ok(match name {
            "standard" => Form::Standard,
            "seven_pairs" => Form::SevenPairs,
            "eight_pairs" => Form::EightPairs,
            "thirteen_orphans" => Form::ThirteenOrphans,
            "all_258" => Form::All258,
            "dealt" => Form::Dealt,
            "partial" => Form::Partial,
            other => match self.fallbacks.iter().position(|f| f == other) {
                Some(i) => Form::Fallback(i as u8),
                None => return Err(err("rule", format!("no form {other:?}"))),
            },
        }
        .bit())
    }

    /// The index of pattern `id`, below 64 (a pattern is named by its bit).
    fn pattern(&self, id: &str) -> Result<u8> {
        match self.patterns.iter().position(|p| p == id) {
            Some(i) if i < 64 => Ok(i as u8),
            Some(_) => Err(err("rule", format!("pattern {id:?} is past the 64th; at most 64 patterns"))),
            None => Err(err("rule", format!("no pattern {id:?}"))),
        }
    }
}

fn set_index(o: &Data) -> Result<u8> {
    match o {
        Data::Int(i) => u8::try_from(*i).map_err(|_| err("rule", "a set is named by its index")),
        _ => Err(err("rule", "a set is named by its index")),
    }
}

fn rule(o: &Data, names: &Names<'_>) -> Result<Rule> {
    let parts = seq(o, "rule")?;
    let head = parts.first().ok_or_else(|| err("rule", "empty"))?;
    let name = string(head, "rule")?;
    let arg = |i: usize| parts.get(i).ok_or_else(|| err("rule", format!("{name} needs an argument")));
    let rest = || parts[1..].iter().map(|r| rule(r, names)).collect::<Result<Vec<_>>>();
    Ok(match name.as_str() {
        "always" => Rule::Always,
        "not" => Rule::Not(Box::new(rule(arg(1)?, names)?)),
        "all" => Rule::All(rest()?),
        "any" => any_of(rest()?),
        "flag" => Rule::Flag(names.flag(&string(arg(1)?, "rule")?)?),
        "form" => {
            let mut mask = 0;
            for f in &parts[1..] {
                mask |= names.form(&string(f, "rule")?)?;
            }
            Rule::Form(mask)
        }
        "is" => {
            let q = Quantity::named(&string(arg(1)?, "rule")?).map_err(|e| err("rule", e))?;
            let op = Cmp::named(&string(arg(2)?, "rule")?).map_err(|e| err("rule", e))?;
            Rule::Is(q, op, int(arg(3)?, "rule")?)
        }
        "compare" => {
            let op = Cmp::named(&string(arg(2)?, "rule")?).map_err(|e| err("rule", e))?;
            Rule::Compare(Box::new(rule(arg(1)?, names)?), op, int(arg(3)?, "rule")?)
        }
        "count" => Rule::Count(Quantity::named(&string(arg(1)?, "rule")?).map_err(|e| err("rule", e))?),
        "triplets" => Rule::Triplets(set_index(arg(1)?)?),
        "pairs" => Rule::Pairs(set_index(arg(1)?)?),
        "all_tiles" => Rule::AllTiles(set_index(arg(1)?)?),
        "any_tile" => Rule::AnyTile(set_index(arg(1)?)?),
        "straight" => Rule::Straight(set_index(arg(1)?)?),
        "only_wait" => Rule::OnlyWait(set_index(arg(1)?)?),
        "win" => {
            let mut roles = 0u8;
            for r in seq(arg(1)?, "rule")? {
                let r = string(r, "rule")?;
                let role =
                    Role::ALL.iter().find(|x| x.name() == r).ok_or_else(|| err("rule", format!("no role {r:?}")))?;
                roles |= 1 << role_bit(*role);
            }
            Rule::Win { roles, kinds: set_index(arg(2)?)? }
        }
        // A run is of ranks of one suit: at most nine.
        "run" => Rule::Run { kongs: string(arg(1)?, "rule")? == "kongs", len: small(arg(2)?, "rule", 9)? },
        "same_rank_kongs" => Rule::SameRankKongs,
        "pattern" => Rule::Patterns(1 << names.pattern(&string(arg(1)?, "rule")?)?),
        other => return Err(err("rule", format!("unknown rule {other:?}"))),
    })
}

/// The largest count of `rules`: the patterns among them, each counting 0 or 1, are one
/// mask read at once (a list of patterns is the usual rule on other patterns).
fn any_of(rules: Vec<Rule>) -> Rule {
    let mask = rules.iter().fold(0, |m, r| if let Rule::Patterns(p) = r { m | p } else { m });
    let mut rules: Vec<Rule> = rules.into_iter().filter(|r| !matches!(r, Rule::Patterns(_))).collect();
    if mask != 0 {
        rules.insert(0, Rule::Patterns(mask));
    }
    match rules.len() {
        1 => rules.remove(0),
        _ => Rule::Any(rules),
    }
}

fn said(o: &Data, names: &Names<'_>, what: &str) -> Result<Said> {
    let parts = seq(o, what)?;
    match parts {
        [r, m] => Ok(Said { rule: rule(r, names)?, message: string(m, what)?.into() }),
        _ => Err(err(what, "expected (rule, message)")),
    }
}

fn key(o: &Data, names: &Names<'_>) -> Result<Key> {
    let parts = seq(o, "key")?;
    let name = string(parts.first().ok_or_else(|| err("key", "empty"))?, "key")?;
    let kind = string(parts.get(1).ok_or_else(|| err("key", "no kind"))?, "key")?;
    let arg = parts.get(2).filter(|a| !a.is_none());
    let kind = match kind.as_str() {
        "hand" => KeyKind::Hand,
        "win" => KeyKind::Win,
        "format" => KeyKind::Format,
        "flag" => KeyKind::Flag(match arg {
            Some(f) => Some(names.flag(&string(f, "key")?)?),
            None => None,
        }),
        "seat_wind" => KeyKind::SeatWind,
        "seat" => KeyKind::Seat,
        "round_wind" => KeyKind::RoundWind,
        "discarder_wind" => KeyKind::DiscarderWind,
        "wilds" => KeyKind::Wilds,
        "indicator" => KeyKind::Indicator,
        "flowers" => KeyKind::Flowers,
        "explain" => KeyKind::Explain,
        "choice" => {
            let mut choices = vec![];
            for c in seq(arg.ok_or_else(|| err("key", "choices"))?, "key")? {
                let pair = seq(c, "key")?;
                let (Some(v), Some(f)) = (pair.first(), pair.get(1)) else {
                    return Err(err("key", "a choice is (value, flag)"));
                };
                choices.push((string(v, "key")?, names.flag(&string(f, "key")?)?));
            }
            KeyKind::Choice(choices)
        }
        other => return Err(err("key", format!("unknown kind of key {other:?}"))),
    };
    Ok(Key { name, kind })
}

fn forms(d: &Data) -> Result<(Forms, bool)> {
    let flag = |k: &str| -> Result<bool> { opt(d, k)?.map_or(Ok(false), |v| boolean(v, k)) };
    let melds = match int(item(d, "melds")?, "melds")? {
        m @ (4 | 5) => m as u8,
        m => return Err(err("melds", format!("4 or 5, not {m}"))),
    };
    let pair_kinds = match opt(d, "pair_kinds")? {
        Some(v) => kinds(&string(v, "pair_kinds")?, "pair_kinds")?,
        None => tiles::ALL_KINDS,
    };
    let forms = Forms {
        pair_kinds,
        seven_pairs: flag("seven_pairs")?,
        four_as_two_pairs: flag("four_as_two_pairs")?,
        eight_pairs_and_a_half: flag("eight_pairs_and_a_half")?,
        thirteen_orphans: flag("thirteen_orphans")?,
        all_pungs_any_pair: flag("all_pungs_any_pair")?,
        one_suit_any_pair: flag("one_suit_any_pair")?,
        all_258: flag("all_258")?,
        wilds_beyond_copies: flag("wilds_beyond_copies")?,
        ..Forms::standard(melds)
    };
    Ok((forms, flag("dragon_sets")?))
}

/// A scheme from its data (see `haidi.rulesets._scheme.build`).
pub fn read(d: &Data) -> Result<Scheme> {
    if d.depth() > MAX_DEPTH {
        return Err(err("scheme", format!("nested more than {MAX_DEPTH} deep")));
    }
    let name = string(item(d, "name")?, "name")?;
    let (forms, dragon_sets) = forms(item(d, "forms")?)?;
    let mut s = scheme::empty(&name, forms);
    s.dragon_sets = dragon_sets;
    s.tiles = kinds(&string(item(d, "tiles")?, "tiles")?, "tiles")?;
    s.flowers = flowers(&string(item(d, "flowers")?, "flowers")?, "flowers")?;
    s.sets = each(seq(item(d, "sets")?, "sets")?, "sets", kind_set)?;
    s.flags = seq(item(d, "flags")?, "flags")?.iter().map(|f| string(f, "flags")).collect::<Result<_>>()?;
    let pattern_data = seq(item(d, "patterns")?, "patterns")?;
    // Patterns are bits of a u64 from here on (`prepare` checks the rest of the limits).
    if pattern_data.len() > MAX_PATTERNS {
        return Err(err("patterns", format!("{} patterns; at most {MAX_PATTERNS}", pattern_data.len())));
    }
    let mut ids = vec![];
    for p in pattern_data {
        ids.push(string(item(p, "id")?, "patterns")?);
    }
    let fallback_data = seq(item(d, "fallbacks")?, "fallbacks")?;
    let mut fallback_names = vec![];
    for f in fallback_data {
        fallback_names.push(string(at(seq(f, "fallbacks")?, 0, "fallbacks")?, "fallbacks")?);
    }
    let flags = s.flags.clone();
    let names = Names { flags: &flags, patterns: &ids, fallbacks: &fallback_names };
    let pattern_bits = |list: &Data| -> Result<u64> {
        let mut m = 0u64;
        for id in seq(list, "patterns")? {
            m |= 1 << names.pattern(&string(id, "patterns")?)?;
        }
        Ok(m)
    };
    for (i, p) in pattern_data.iter().enumerate() {
        let id = string(item(p, "id")?, "patterns")?;
        let pattern = || -> Result<Pattern> {
            Ok(Pattern {
                value: points(item(p, "value")?, "value")?,
                loser_value: opt(p, "loser_value")?.map(|v| points(v, "loser_value")).transpose()?,
                rule: rule(item(p, "rule")?, &names)?,
                excludes: pattern_bits(item(p, "excludes")?)?,
                lazi: boolean(item(p, "lazi")?, "lazi")?,
                instant: boolean(item(p, "instant")?, "instant")?,
                // Results count patterns by class in a 32-bit mask.
                class: small(item(p, "class")?, "class", 31)?,
                id: id.clone(),
            })
        };
        // The id as given, cut short: it is in the message only to find the pattern.
        let at = || format!("patterns[{i}] {:?}", id.chars().take(40).collect::<String>());
        s.patterns.push(within(at, pattern())?);
    }
    s.fallbacks = each(fallback_data, "fallbacks", |f| {
        let parts = seq(f, "fallbacks")?;
        let [n, r, pats] = parts else { return Err(err("fallbacks", "(name, rule, patterns)")) };
        Ok(Fallback { name: string(n, "fallbacks")?, rule: rule(r, &names)?, patterns: pattern_bits(pats)? })
    })?;
    s.keys = each(seq(item(d, "keys")?, "keys")?, "keys", |k| key(k, &names))?;
    for i in seq(item(d, "implies")?, "implies")? {
        let parts = seq(i, "implies")?;
        let [a, b, m] = parts else { return Err(err("implies", "(flag, flag, message)")) };
        s.implies.push((
            names.flag(&string(a, "implies")?)?,
            names.flag(&string(b, "implies")?)?,
            string(m, "implies")?,
        ));
    }
    let saids = |what: &str| each(seq(item(d, what)?, what)?, what, |r| said(r, &names, what));
    (s.refuse, s.valid, s.no_win) = (saids("refuse")?, saids("valid")?, saids("no_win")?);
    s.exclusion = match string(item(d, "exclusion")?, "exclusion")?.as_str() {
        "every_hit" => Exclusion::EveryHit,
        "top_down" => Exclusion::TopDown,
        other => return Err(err("exclusion", other)),
    };
    s.group_points = each(seq(item(d, "group_points")?, "group_points")?, "group_points", |g| {
        let parts = seq(g, "group_points")?;
        let [n, state, set, small, big, winners, losers] = parts else {
            return Err(err("group_points", "(name, state, set, small, big, winners, losers)"));
        };
        let state = match string(state, "group_points")?.as_str() {
            "concealed_kong" => GroupState::ConcealedKong,
            "exposed_kong" => GroupState::ExposedKong,
            "exposed_pung" => GroupState::ExposedPung,
            "concealed_pung" => GroupState::ConcealedPung,
            "pair" => GroupState::Pair,
            other => return Err(err("group_points", other)),
        };
        Ok(GroupPoints {
            name: string(n, "group_points")?,
            state,
            kinds: set_index(set)?,
            small: points(small, "group_points")?,
            big: points(big, "group_points")?,
            winners: boolean(winners, "group_points")?,
            losers: boolean(losers, "group_points")?,
        })
    })?;
    s.extra_points = each(seq(item(d, "extra_points")?, "extra_points")?, "extra_points", |e| {
        let parts = seq(e, "extra_points")?;
        let [n, r, pts, winners, losers] = parts else {
            return Err(err("extra_points", "(name, rule, points, winners, losers)"));
        };
        Ok(ExtraPoints {
            name: string(n, "extra_points")?,
            rule: rule(r, &names)?,
            points: points(pts, "extra_points")?,
            winners: boolean(winners, "extra_points")?,
            losers: boolean(losers, "extra_points")?,
        })
    })?;
    let total = seq(item(d, "total")?, "total")?;
    s.total = match string(at(total, 0, "total")?, "total")?.as_str() {
        "sum" => Total::Sum,
        "fixed" => Total::Fixed(int(at(total, 1, "total")?, "total")?),
        "hu_tai" => Total::HuTai {
            base: int(at(total, 1, "total")?, "total")?,
            cap: int(at(total, 2, "total")?, "total")?,
            step: int(at(total, 3, "total")?, "total")?,
        },
        other => return Err(err("total", other)),
    };
    s.rank = seq(item(d, "rank")?, "rank")?
        .iter()
        .map(|r| {
            Ok(match string(r, "rank")?.as_str() {
                "total" => RankKey::Total,
                "value" => RankKey::Value,
                "face" => RankKey::Face,
                "fan_count" => RankKey::FanCount,
                other => return Err(err("rank", other)),
            })
        })
        .collect::<Result<_>>()?;
    if s.rank.len() > 4 {
        return Err(err("rank", "at most four keys"));
    }
    s.stop = match opt(d, "stop")? {
        Some(v) => {
            let parts = seq(v, "stop")?;
            Some((int(at(parts, 0, "stop")?, "stop")?, int(at(parts, 1, "stop")?, "stop")?))
        }
        None => None,
    };
    s.unwon = match string(item(d, "unwon")?, "unwon")?.as_str() {
        "refused" => Unwon::Refused,
        "last_tile" => Unwon::LastTile,
        "loser" => Unwon::Loser,
        other => return Err(err("unwon", other)),
    };
    s.dealt_flag = opt(d, "dealt_flag")?.map(|f| names.flag(&string(f, "dealt_flag")?)).transpose()?;
    s.self_drawn_flag = opt(d, "self_drawn_flag")?.map(|f| names.flag(&string(f, "self_drawn_flag")?)).transpose()?;
    s.seat_flower_wild = boolean(item(d, "seat_flower_wild")?, "seat_flower_wild")?;
    s.flower_wilds = boolean(item(d, "flower_wilds")?, "flower_wilds")?;
    let seat_flowers = seq(item(d, "seat_flowers")?, "seat_flowers")?;
    for (i, f) in seat_flowers.iter().take(4).enumerate() {
        s.seat_flowers[i] = flowers(&string(f, "seat_flowers")?, "seat_flowers")?;
    }
    s.wild_kinds_in_melds = boolean(item(d, "wild_kinds_in_melds")?, "wild_kinds_in_melds")?;
    s.maximal_partials = boolean(item(d, "maximal_partials")?, "maximal_partials")?;
    s.max_wild_kinds = small(item(d, "max_wild_kinds")?, "max_wild_kinds", KINDS as u8)?;
    s.incomplete = string(item(d, "incomplete")?, "incomplete")?.into();
    s.wild_name = string(item(d, "wild_name")?, "wild_name")?;
    s.tiles_note = string(item(d, "tiles_note")?, "tiles_note")?;
    if let Some(n) = opt(d, "eight_pairs_name")? {
        s.eight_pairs_name = string(n, "eight_pairs_name")?;
    }
    s.prepare().map_err(|e| err("scheme", e))
}

/// A rule naming the flags, patterns and forms of `scheme` (for rules of results).
pub fn read_rule(o: &Data, scheme: &Scheme) -> Result<Rule> {
    if o.depth() > MAX_DEPTH {
        return Err(err("rule", format!("nested more than {MAX_DEPTH} deep")));
    }
    let ids: Vec<String> = scheme.patterns.iter().map(|p| p.id.clone()).collect();
    let fallbacks: Vec<String> = scheme.fallbacks.iter().map(|f| f.name.clone()).collect();
    rule(o, &Names { flags: &scheme.flags, patterns: &ids, fallbacks: &fallbacks })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(items: &[Data]) -> Data {
        Data::List(items.to_vec())
    }

    fn s(t: &str) -> Data {
        Data::Str(t.into())
    }

    #[test]
    fn patterns_named_side_by_side_are_one_mask() {
        let ids: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let flags = vec!["self_drawn".to_string()];
        let names = Names { flags: &flags, patterns: &ids, fallbacks: &[] };
        let pattern = |id: &str| list(&[s("pattern"), s(id)]);
        let read = |o: Data| rule(&o, &names).unwrap_or_else(|e| panic!("{e}"));
        let flag = list(&[s("flag"), s("self_drawn")]);
        let mixed = read(list(&[s("any"), pattern("a"), flag.clone(), pattern("c")]));
        assert_eq!(mixed, Rule::Any(vec![Rule::Patterns(0b101), Rule::Flag(0)]));
        // Patterns alone are the mask; one rule is itself.
        assert_eq!(read(list(&[s("any"), pattern("b"), pattern("c")])), Rule::Patterns(0b110));
        assert_eq!(read(list(&[s("any"), flag])), Rule::Flag(0));
        assert_eq!(read(list(&[s("any")])), Rule::Any(vec![]));
    }
}
