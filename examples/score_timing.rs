//! Times the scoring engine of the regional rulesets on one situation, without Python:
//! `cargo run --release --example score_timing [N]`. A development aid (the
//! benchmarks in `benches/` are the measure).
use _core::score::rule::{Cmp, Quantity, Rule};
use _core::score::scheme::{self, Pattern};
use _core::score::situation::{Key, KeyKind, Reader, Value};
use _core::Forms;
use std::time::Instant;

fn main() {
    let forms = Forms {
        pair_kinds: _core::tiles::KINDS_258,
        seven_pairs: true,
        four_as_two_pairs: true,
        all_pungs_any_pair: true,
        one_suit_any_pair: true,
        all_258: true,
        ..Forms::standard(4)
    };
    let mut s = scheme::empty("test", forms);
    s.flags = vec!["self_drawn".into()];
    s.keys = vec![
        Key { name: "hand".into(), kind: KeyKind::Hand },
        Key { name: "win".into(), kind: KeyKind::Win },
        Key { name: "self_drawn".into(), kind: KeyKind::Flag(Some(0)) },
    ];
    for (i, q) in [Quantity::Chows, Quantity::Triplets, Quantity::Suits, Quantity::Honours].iter().enumerate() {
        s.patterns.push(Pattern {
            id: format!("p{i}"),
            value: 1,
            loser_value: None,
            rule: Rule::Is(*q, Cmp::Eq, 0),
            excludes: 0,
            lazi: false,
            instant: false,
            class: 0,
        });
    }
    let s = s.prepare().unwrap();
    let n: usize = std::env::args().nth(1).map_or(200_000, |a| a.parse().unwrap());
    let t = Instant::now();
    let mut tried = 0;
    for _ in 0..n {
        let mut r = Reader::default();
        r.set(&s, "hand", Value::Str("123m456p789s2255m")).unwrap();
        r.set(&s, "win", Value::Str("5m")).unwrap();
        r.set(&s, "self_drawn", Value::Bool(true)).unwrap();
        let p = r.finish(&s).unwrap();
        tried += _core::score::evaluate(&s, &p).tried;
    }
    println!("{:.3} us a situation ({tried})", t.elapsed().as_secs_f64() / n as f64 * 1e6);
    let t = Instant::now();
    let mut r = Reader::default();
    r.set(&s, "hand", Value::Str("123m456p789s2255m")).unwrap();
    r.set(&s, "win", Value::Str("5m")).unwrap();
    let p = r.finish(&s).unwrap();
    for _ in 0..n {
        tried += _core::score::evaluate(&s, &p).tried;
    }
    println!("{:.3} us evaluate alone ({tried})", t.elapsed().as_secs_f64() / n as f64 * 1e6);
}
