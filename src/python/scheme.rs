//! Reading a ruleset's scoring data from Python into a [`Scheme`]. The data is plain
//! Python (dicts, tuples, strings) written by `haidi.rulesets._scheme`; a mistake in it
//! is a `ValueError` naming the part at fault.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};

use super::errors::hand_error;
use crate::forms::Forms;
use crate::notation::{self, Format};
use crate::score::group::Role;
use crate::score::rule::{role_bit, Cmp, KindSet, Quantity, Rule};
use crate::score::scheme::{
    self, Exclusion, ExtraPoints, Fallback, GroupPoints, GroupState, Pattern, RankKey, Said, Scheme, Total, Unwon,
};
use crate::score::situation::{Key, KeyKind};
use crate::tiles::{self, KINDS};

type Obj<'py> = Bound<'py, PyAny>;

fn err(py: Python<'_>, what: &str, m: impl std::fmt::Display) -> PyErr {
    hand_error(py, format!("ruleset data, {what}: {m}"))
}

fn item<'py>(d: &Bound<'py, PyDict>, key: &str) -> PyResult<Obj<'py>> {
    d.get_item(key)?.ok_or_else(|| err(d.py(), key, "missing"))
}

fn opt<'py>(d: &Bound<'py, PyDict>, key: &str) -> PyResult<Option<Obj<'py>>> {
    Ok(d.get_item(key)?.filter(|v| !v.is_none()))
}

fn string(o: &Obj<'_>, what: &str) -> PyResult<String> {
    o.extract::<String>().map_err(|_| err(o.py(), what, "expected a str"))
}

fn int(o: &Obj<'_>, what: &str) -> PyResult<i32> {
    o.extract::<i32>().map_err(|_| err(o.py(), what, "expected an int"))
}

fn boolean(o: &Obj<'_>, what: &str) -> PyResult<bool> {
    o.extract::<bool>().map_err(|_| err(o.py(), what, "expected a bool"))
}

fn seq<'py>(o: &Obj<'py>, what: &str) -> PyResult<Vec<Obj<'py>>> {
    if o.cast::<PyString>().is_ok() {
        return Err(err(o.py(), what, "expected a sequence, not a str"));
    }
    o.try_iter().map_err(|_| err(o.py(), what, "expected a sequence"))?.collect()
}

/// Kinds named in compact notation (`"258m258p258s"`), as a mask.
pub fn kinds(py: Python<'_>, text: &str, what: &str) -> PyResult<u64> {
    let h = notation::parse(text, Format::Compact).map_err(|e| err(py, what, e))?.hand;
    Ok((0..KINDS).filter(|&k| h.concealed[k] > 0).fold(0u64, |m, k| m | 1 << k))
}

/// Flowers named in compact notation (`"15f"`), by bit.
fn flowers(py: Python<'_>, text: &str, what: &str) -> PyResult<u8> {
    if text.is_empty() {
        return Ok(0);
    }
    Ok(notation::parse(text, Format::Compact).map_err(|e| err(py, what, e))?.hand.flowers)
}

fn kind_set(o: &Obj<'_>) -> PyResult<KindSet> {
    let py = o.py();
    let parts = seq(o, "set")?;
    let head = parts.first().ok_or_else(|| err(py, "set", "empty"))?;
    let name = string(head, "set")?;
    let arg = |i: usize| parts.get(i).ok_or_else(|| err(py, "set", format!("{name} needs an argument")));
    Ok(match name.as_str() {
        "kinds" => KindSet::Fixed(kinds(py, &string(arg(1)?, "set")?, "set")?),
        "seat_wind" => KindSet::SeatWind,
        "round_wind" => KindSet::RoundWind,
        "wilds" => KindSet::Wilds,
        "wild_suits" => KindSet::WildSuits,
        "suits" => {
            let letters = string(arg(1)?, "set")?;
            let mut m = 0u8;
            for c in letters.chars() {
                let s = tiles::SUIT_LETTERS.iter().position(|&l| l == c).ok_or_else(|| err(py, "set", c))?;
                m |= 1 << s;
            }
            KindSet::Suits(m)
        }
        "union" => KindSet::Union(parts[1..].iter().map(kind_set).collect::<PyResult<_>>()?),
        "minus" => KindSet::Minus(Box::new(kind_set(arg(1)?)?), Box::new(kind_set(arg(2)?)?)),
        other => return Err(err(py, "set", format!("unknown kind of set {other:?}"))),
    })
}

/// Names resolved while reading rules.
struct Names<'a> {
    flags: &'a [String],
    patterns: &'a [String],
    fallbacks: &'a [String],
}

impl Names<'_> {
    fn flag(&self, py: Python<'_>, name: &str) -> PyResult<u8> {
        self.flags
            .iter()
            .position(|f| f == name)
            .map(|i| i as u8)
            .ok_or_else(|| err(py, "rule", format!("no flag {name:?}")))
    }

    fn form(&self, py: Python<'_>, name: &str) -> PyResult<u32> {
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
                None => return Err(err(py, "rule", format!("no form {other:?}"))),
            },
        }
        .bit())
    }

    fn pattern(&self, py: Python<'_>, id: &str) -> PyResult<u8> {
        self.patterns
            .iter()
            .position(|p| p == id)
            .map(|i| i as u8)
            .ok_or_else(|| err(py, "rule", format!("no pattern {id:?}")))
    }
}

fn set_index(o: &Obj<'_>) -> PyResult<u8> {
    o.extract::<u8>().map_err(|_| err(o.py(), "rule", "a set is named by its index"))
}

fn rule(o: &Obj<'_>, names: &Names<'_>) -> PyResult<Rule> {
    let py = o.py();
    let parts = seq(o, "rule")?;
    let head = parts.first().ok_or_else(|| err(py, "rule", "empty"))?;
    let name = string(head, "rule")?;
    let arg = |i: usize| parts.get(i).ok_or_else(|| err(py, "rule", format!("{name} needs an argument")));
    let rest = || parts[1..].iter().map(|r| rule(r, names)).collect::<PyResult<Vec<_>>>();
    Ok(match name.as_str() {
        "always" => Rule::Always,
        "not" => Rule::Not(Box::new(rule(arg(1)?, names)?)),
        "all" => Rule::All(rest()?),
        "any" => Rule::Any(rest()?),
        "flag" => Rule::Flag(names.flag(py, &string(arg(1)?, "rule")?)?),
        "form" => {
            let mut mask = 0;
            for f in &parts[1..] {
                mask |= names.form(py, &string(f, "rule")?)?;
            }
            Rule::Form(mask)
        }
        "is" => {
            let q = Quantity::named(&string(arg(1)?, "rule")?).map_err(|e| err(py, "rule", e))?;
            let op = Cmp::named(&string(arg(2)?, "rule")?).map_err(|e| err(py, "rule", e))?;
            Rule::Is(q, op, int(arg(3)?, "rule")?)
        }
        "compare" => {
            let op = Cmp::named(&string(arg(2)?, "rule")?).map_err(|e| err(py, "rule", e))?;
            Rule::Compare(Box::new(rule(arg(1)?, names)?), op, int(arg(3)?, "rule")?)
        }
        "count" => Rule::Count(Quantity::named(&string(arg(1)?, "rule")?).map_err(|e| err(py, "rule", e))?),
        "triplets" => Rule::Triplets(set_index(arg(1)?)?),
        "pairs" => Rule::Pairs(set_index(arg(1)?)?),
        "all_tiles" => Rule::AllTiles(set_index(arg(1)?)?),
        "any_tile" => Rule::AnyTile(set_index(arg(1)?)?),
        "straight" => Rule::Straight(set_index(arg(1)?)?),
        "only_wait" => Rule::OnlyWait(set_index(arg(1)?)?),
        "win" => {
            let mut roles = 0u8;
            for r in seq(arg(1)?, "rule")? {
                let r = string(&r, "rule")?;
                let role = Role::ALL
                    .iter()
                    .find(|x| x.name() == r)
                    .ok_or_else(|| err(py, "rule", format!("no role {r:?}")))?;
                roles |= 1 << role_bit(*role);
            }
            Rule::Win { roles, kinds: set_index(arg(2)?)? }
        }
        "run" => Rule::Run { kongs: string(arg(1)?, "rule")? == "kongs", len: int(arg(2)?, "rule")? as u8 },
        "same_rank_kongs" => Rule::SameRankKongs,
        "pattern" => Rule::Pattern(names.pattern(py, &string(arg(1)?, "rule")?)?),
        other => return Err(err(py, "rule", format!("unknown rule {other:?}"))),
    })
}

fn said(o: &Obj<'_>, names: &Names<'_>, what: &str) -> PyResult<Said> {
    let parts = seq(o, what)?;
    match parts.as_slice() {
        [r, m] => Ok(Said { rule: rule(r, names)?, message: string(m, what)?.into() }),
        _ => Err(err(o.py(), what, "expected (rule, message)")),
    }
}

fn key(o: &Obj<'_>, names: &Names<'_>) -> PyResult<Key> {
    let py = o.py();
    let parts = seq(o, "key")?;
    let name = string(parts.first().ok_or_else(|| err(py, "key", "empty"))?, "key")?;
    let kind = string(parts.get(1).ok_or_else(|| err(py, "key", "no kind"))?, "key")?;
    let arg = parts.get(2).filter(|a| !a.is_none());
    let kind = match kind.as_str() {
        "hand" => KeyKind::Hand,
        "win" => KeyKind::Win,
        "format" => KeyKind::Format,
        "flag" => KeyKind::Flag(match arg {
            Some(f) => Some(names.flag(py, &string(f, "key")?)?),
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
            for c in seq(arg.ok_or_else(|| err(py, "key", "choices"))?, "key")? {
                let pair = seq(&c, "key")?;
                let (Some(v), Some(f)) = (pair.first(), pair.get(1)) else {
                    return Err(err(py, "key", "a choice is (value, flag)"));
                };
                choices.push((string(v, "key")?, names.flag(py, &string(f, "key")?)?));
            }
            KeyKind::Choice(choices)
        }
        other => return Err(err(py, "key", format!("unknown kind of key {other:?}"))),
    };
    Ok(Key { name, kind })
}

fn forms(d: &Bound<'_, PyDict>) -> PyResult<(Forms, bool)> {
    let py = d.py();
    let flag = |k: &str| -> PyResult<bool> { opt(d, k)?.map_or(Ok(false), |v| boolean(&v, k)) };
    let melds = int(&item(d, "melds")?, "melds")? as u8;
    let pair_kinds = match opt(d, "pair_kinds")? {
        Some(v) => kinds(py, &string(&v, "pair_kinds")?, "pair_kinds")?,
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
pub fn read(d: &Bound<'_, PyDict>) -> PyResult<Scheme> {
    let py = d.py();
    let name = string(&item(d, "name")?, "name")?;
    let (forms, dragon_sets) =
        forms(&item(d, "forms")?.cast_into::<PyDict>().map_err(|_| err(py, "forms", "a dict"))?)?;
    let mut s = scheme::empty(&name, forms);
    s.dragon_sets = dragon_sets;
    s.tiles = kinds(py, &string(&item(d, "tiles")?, "tiles")?, "tiles")?;
    s.flowers = flowers(py, &string(&item(d, "flowers")?, "flowers")?, "flowers")?;
    s.sets = seq(&item(d, "sets")?, "sets")?.iter().map(kind_set).collect::<PyResult<_>>()?;
    s.flags = seq(&item(d, "flags")?, "flags")?.iter().map(|f| string(f, "flags")).collect::<PyResult<_>>()?;
    let pattern_data = seq(&item(d, "patterns")?, "patterns")?;
    let mut ids = vec![];
    for p in &pattern_data {
        let p = p.cast::<PyDict>().map_err(|_| err(py, "patterns", "each a dict"))?;
        ids.push(string(&item(p, "id")?, "patterns")?);
    }
    let fallback_data = seq(&item(d, "fallbacks")?, "fallbacks")?;
    let mut fallback_names = vec![];
    for f in &fallback_data {
        fallback_names.push(string(&seq(f, "fallbacks")?[0], "fallbacks")?);
    }
    let flags = s.flags.clone();
    let names = Names { flags: &flags, patterns: &ids, fallbacks: &fallback_names };
    let pattern_bits = |list: &Obj<'_>| -> PyResult<u64> {
        let mut m = 0u64;
        for id in seq(list, "patterns")? {
            m |= 1 << names.pattern(py, &string(&id, "patterns")?)?;
        }
        Ok(m)
    };
    for p in &pattern_data {
        let p = p.cast::<PyDict>()?;
        let id = string(&item(p, "id")?, "patterns")?;
        s.patterns.push(Pattern {
            value: int(&item(p, "value")?, &id)?,
            loser_value: opt(p, "loser_value")?.map(|v| int(&v, &id)).transpose()?,
            rule: rule(&item(p, "rule")?, &names)?,
            excludes: pattern_bits(&item(p, "excludes")?)?,
            lazi: boolean(&item(p, "lazi")?, &id)?,
            instant: boolean(&item(p, "instant")?, &id)?,
            class: int(&item(p, "class")?, &id)? as u8,
            id,
        });
    }
    for f in &fallback_data {
        let parts = seq(f, "fallbacks")?;
        let [n, r, pats] = parts.as_slice() else { return Err(err(py, "fallbacks", "(name, rule, patterns)")) };
        s.fallbacks.push(Fallback {
            name: string(n, "fallbacks")?,
            rule: rule(r, &names)?,
            patterns: pattern_bits(pats)?,
        });
    }
    s.keys = seq(&item(d, "keys")?, "keys")?.iter().map(|k| key(k, &names)).collect::<PyResult<_>>()?;
    for i in seq(&item(d, "implies")?, "implies")? {
        let parts = seq(&i, "implies")?;
        let [a, b, m] = parts.as_slice() else { return Err(err(py, "implies", "(flag, flag, message)")) };
        s.implies.push((
            names.flag(py, &string(a, "implies")?)?,
            names.flag(py, &string(b, "implies")?)?,
            string(m, "implies")?,
        ));
    }
    s.refuse =
        seq(&item(d, "refuse")?, "refuse")?.iter().map(|r| said(r, &names, "refuse")).collect::<PyResult<_>>()?;
    s.valid = seq(&item(d, "valid")?, "valid")?.iter().map(|r| said(r, &names, "valid")).collect::<PyResult<_>>()?;
    s.no_win =
        seq(&item(d, "no_win")?, "no_win")?.iter().map(|r| said(r, &names, "no_win")).collect::<PyResult<_>>()?;
    s.exclusion = match string(&item(d, "exclusion")?, "exclusion")?.as_str() {
        "every_hit" => Exclusion::EveryHit,
        "top_down" => Exclusion::TopDown,
        other => return Err(err(py, "exclusion", other)),
    };
    for g in seq(&item(d, "group_points")?, "group_points")? {
        let parts = seq(&g, "group_points")?;
        let [n, state, set, small, big, winners, losers] = parts.as_slice() else {
            return Err(err(py, "group_points", "(name, state, set, small, big, winners, losers)"));
        };
        let state = match string(state, "group_points")?.as_str() {
            "concealed_kong" => GroupState::ConcealedKong,
            "exposed_kong" => GroupState::ExposedKong,
            "exposed_pung" => GroupState::ExposedPung,
            "concealed_pung" => GroupState::ConcealedPung,
            "pair" => GroupState::Pair,
            other => return Err(err(py, "group_points", other)),
        };
        s.group_points.push(GroupPoints {
            name: string(n, "group_points")?,
            state,
            kinds: set_index(set)?,
            small: int(small, "group_points")?,
            big: int(big, "group_points")?,
            winners: boolean(winners, "group_points")?,
            losers: boolean(losers, "group_points")?,
        });
    }
    for e in seq(&item(d, "extra_points")?, "extra_points")? {
        let parts = seq(&e, "extra_points")?;
        let [n, r, pts, winners, losers] = parts.as_slice() else {
            return Err(err(py, "extra_points", "(name, rule, points, winners, losers)"));
        };
        s.extra_points.push(ExtraPoints {
            name: string(n, "extra_points")?,
            rule: rule(r, &names)?,
            points: int(pts, "extra_points")?,
            winners: boolean(winners, "extra_points")?,
            losers: boolean(losers, "extra_points")?,
        });
    }
    let total = seq(&item(d, "total")?, "total")?;
    s.total = match string(&total[0], "total")?.as_str() {
        "sum" => Total::Sum,
        "fixed" => Total::Fixed(int(&total[1], "total")?),
        "hu_tai" => Total::HuTai {
            base: int(&total[1], "total")?,
            cap: int(&total[2], "total")?,
            step: int(&total[3], "total")?,
        },
        other => return Err(err(py, "total", other)),
    };
    s.rank = seq(&item(d, "rank")?, "rank")?
        .iter()
        .map(|r| {
            Ok(match string(r, "rank")?.as_str() {
                "total" => RankKey::Total,
                "value" => RankKey::Value,
                "face" => RankKey::Face,
                "fan_count" => RankKey::FanCount,
                other => return Err(err(py, "rank", other)),
            })
        })
        .collect::<PyResult<_>>()?;
    if s.rank.len() > 4 {
        return Err(err(py, "rank", "at most four keys"));
    }
    s.stop = match opt(d, "stop")? {
        Some(v) => {
            let parts = seq(&v, "stop")?;
            Some((int(&parts[0], "stop")?, int(&parts[1], "stop")?))
        }
        None => None,
    };
    s.unwon = match string(&item(d, "unwon")?, "unwon")?.as_str() {
        "refused" => Unwon::Refused,
        "last_tile" => Unwon::LastTile,
        "loser" => Unwon::Loser,
        other => return Err(err(py, "unwon", other)),
    };
    s.dealt_flag = opt(d, "dealt_flag")?.map(|f| names.flag(py, &string(&f, "dealt_flag")?)).transpose()?;
    s.self_drawn_flag =
        opt(d, "self_drawn_flag")?.map(|f| names.flag(py, &string(&f, "self_drawn_flag")?)).transpose()?;
    s.seat_flower_wild = boolean(&item(d, "seat_flower_wild")?, "seat_flower_wild")?;
    s.flower_wilds = boolean(&item(d, "flower_wilds")?, "flower_wilds")?;
    let seat_flowers = seq(&item(d, "seat_flowers")?, "seat_flowers")?;
    for (i, f) in seat_flowers.iter().take(4).enumerate() {
        s.seat_flowers[i] = flowers(py, &string(f, "seat_flowers")?, "seat_flowers")?;
    }
    s.wild_kinds_in_melds = boolean(&item(d, "wild_kinds_in_melds")?, "wild_kinds_in_melds")?;
    s.max_wild_kinds = int(&item(d, "max_wild_kinds")?, "max_wild_kinds")? as u8;
    s.incomplete = string(&item(d, "incomplete")?, "incomplete")?.into();
    s.wild_name = string(&item(d, "wild_name")?, "wild_name")?;
    s.tiles_note = string(&item(d, "tiles_note")?, "tiles_note")?;
    if let Some(n) = opt(d, "eight_pairs_name")? {
        s.eight_pairs_name = string(&n, "eight_pairs_name")?;
    }
    s.prepare().map_err(|e| err(py, "scheme", e))
}

/// A rule naming the flags, patterns and forms of `scheme` (for rules of results).
pub fn read_rule(o: &Obj<'_>, scheme: &Scheme) -> PyResult<Rule> {
    let ids: Vec<String> = scheme.patterns.iter().map(|p| p.id.clone()).collect();
    let fallbacks: Vec<String> = scheme.fallbacks.iter().map(|f| f.name.clone()).collect();
    rule(o, &Names { flags: &scheme.flags, patterns: &ids, fallbacks: &fallbacks })
}

/// The ids of the patterns.
pub fn ids(s: &Scheme) -> Vec<&str> {
    s.patterns.iter().map(|p| p.id.as_str()).collect()
}

/// A tuple of Python strings.
pub fn str_tuple<'py>(py: Python<'py>, items: &[&str]) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(py, items.iter().map(|s| PyString::new(py, s)))
}
