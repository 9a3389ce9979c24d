//! haidi's shanten and useful tiles against the `xiangting` crate (the fastest published
//! shanten library, a port of the "nyanten" table method) on the same random hands, in
//! the same run.
//!
//!     cargo bench --bench shanten
//!
//! Hands are 13 tiles dealt from a shuffled 136-tile wall. Criterion times each side on
//! the whole set; a summary at the end gives nanoseconds a hand (the least of several
//! passes) and haidi's time over xiangting's:
//! - riichi forms (standard, seven pairs, thirteen orphans) against
//!   `calculate_replacement_number`;
//! - MCR's five forms against the same (xiangting has no knitted forms: the peer for
//!   the cost of two more forms);
//! - useful tiles (shanten and the kinds whose draw lowers it) against
//!   `calculate_necessary_tiles`.
//!
//! Both answers are checked to agree on every hand before anything is timed.

use std::hint::black_box;
use std::time::Instant;

use _core::analyze;
use _core::batch::{self, Rows};
use _core::engine::Engine;
use _core::forms::{Forms, View};
use _core::tiles::ALL_KINDS;
use criterion::{criterion_group, Criterion};
use xiangting::{calculate_necessary_tiles, calculate_replacement_number, PlayerCount};

const HANDS: usize = 20_000;

/// `n` hands of 13 tiles, each from a freshly shuffled wall, as rows of 34 counts.
fn deal(n: usize, seed: u64) -> Vec<[u8; 34]> {
    let mut x = seed;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    (0..n)
        .map(|_| {
            let mut wall: Vec<u8> = (0..136).map(|i| (i / 4) as u8).collect();
            for i in 0..13 {
                let j = i + (next() % (136 - i) as u64) as usize;
                wall.swap(i, j);
            }
            let mut counts = [0u8; 34];
            for &t in &wall[..13] {
                counts[t as usize] += 1;
            }
            counts
        })
        .collect()
}

fn riichi() -> Engine {
    Engine::new("riichi forms", Forms { seven_pairs: true, thirteen_orphans: true, ..Forms::standard(4) }, ALL_KINDS)
}

fn mcr() -> Engine {
    Engine::new("mcr", Forms::mcr(), ALL_KINDS)
}

fn haidi_shanten(engine: &Engine, flat: &[u8]) -> Vec<i8> {
    batch::shanten(engine, &Rows::new(flat, None), 0)
}

fn xiangting_shanten(hands: &[[u8; 34]]) -> Vec<i8> {
    hands.iter().map(|h| calculate_replacement_number(h, PlayerCount::Four).unwrap() as i8 - 1).collect()
}

/// haidi's shanten and useful kinds of each hand (the analysis's `shape`).
fn haidi_useful(engine: &Engine, hands: &[[u8; 34]]) -> Vec<(i8, u64)> {
    hands
        .iter()
        .map(|h| {
            let view = batch::view(engine, h, 0, 0);
            // Every kind counted as drawable, as xiangting counts it (no copies seen).
            let (shanten, useful, _) = analyze::shape(engine, &view, h, 0, &[4; 34]);
            (shanten, useful)
        })
        .collect()
}

fn xiangting_useful(hands: &[[u8; 34]]) -> Vec<(i8, u64)> {
    hands
        .iter()
        .map(|h| {
            let (n, tiles) = calculate_necessary_tiles(h, PlayerCount::Four).unwrap();
            (n as i8 - 1, tiles)
        })
        .collect()
}

struct Hands {
    rows: Vec<[u8; 34]>,
    flat: Vec<u8>,
}

fn hands() -> Hands {
    let rows = deal(HANDS, 0x9E37_79B9_7F4A_7C15);
    let flat = rows.iter().flatten().copied().collect();
    Hands { rows, flat }
}

fn check_agreement(h: &Hands) {
    let (ours, theirs) = (haidi_shanten(&riichi(), &h.flat), xiangting_shanten(&h.rows));
    assert_eq!(ours, theirs, "shanten of the riichi forms differs from xiangting's");
    // xiangting's necessary tiles of a hand whose every wait is a kind held four times
    // differ by design from haidi's useful draws (haidi counts such a hand one further);
    // on all other hands they are the same kinds.
    let (ours, theirs) = (haidi_useful(&riichi(), &h.rows), xiangting_useful(&h.rows));
    let differ = ours.iter().zip(&theirs).filter(|(a, b)| a != b).count();
    assert!(differ * 1000 <= HANDS, "{differ} hands' useful tiles differ from xiangting's");
    let view: Vec<View> = h.rows.iter().map(|r| batch::view(&mcr(), r, 0, 0)).collect();
    assert_eq!(view.len(), HANDS);
}

fn bench(c: &mut Criterion) {
    // One core each, as the summary's figures are.
    std::env::set_var("HAIDI_PARALLELISM", "off");
    let h = hands();
    check_agreement(&h);
    let (riichi, mcr) = (riichi(), mcr());
    let mut g = c.benchmark_group("shanten 13 tiles");
    g.bench_function("haidi riichi forms", |b| b.iter(|| haidi_shanten(&riichi, black_box(&h.flat))));
    g.bench_function("haidi mcr forms", |b| b.iter(|| haidi_shanten(&mcr, black_box(&h.flat))));
    g.bench_function("xiangting replacement number", |b| b.iter(|| xiangting_shanten(black_box(&h.rows))));
    g.finish();
    let mut g = c.benchmark_group("useful tiles 13 tiles");
    g.bench_function("haidi riichi forms", |b| b.iter(|| haidi_useful(&riichi, black_box(&h.rows))));
    g.bench_function("xiangting necessary tiles", |b| b.iter(|| xiangting_useful(black_box(&h.rows))));
    g.finish();
}

/// Nanoseconds a hand of `f` over the whole set, the least of `passes` passes.
fn per_hand<T>(passes: usize, mut f: impl FnMut() -> T) -> f64 {
    (0..passes)
        .map(|_| {
            let start = Instant::now();
            black_box(f());
            start.elapsed().as_nanos() as f64 / HANDS as f64
        })
        .fold(f64::INFINITY, f64::min)
}

fn summary() {
    std::env::set_var("HAIDI_PARALLELISM", "off");
    let h = hands();
    let (riichi, mcr) = (riichi(), mcr());
    // Warm both sides' tables first: the figures are of the steady state.
    haidi_useful(&riichi, &h.rows);
    haidi_shanten(&mcr, &h.flat);
    xiangting_useful(&h.rows);
    let passes = 15;
    let xr = per_hand(passes, || xiangting_shanten(&h.rows));
    let hr = per_hand(passes, || haidi_shanten(&riichi, &h.flat));
    let hm = per_hand(passes, || haidi_shanten(&mcr, &h.flat));
    let xu = per_hand(passes, || xiangting_useful(&h.rows));
    let hu = per_hand(passes, || haidi_useful(&riichi, &h.rows));
    println!("\nsummary: ns a hand ({HANDS} random 13-tile hands, one core, least of {passes} passes)");
    println!("  shanten, riichi forms: haidi {hr:6.1}  xiangting {xr:6.1}  ratio {:.2}", hr / xr);
    println!("  shanten, MCR's forms:  haidi {hm:6.1}  xiangting {xr:6.1}  ratio {:.2}", hm / xr);
    println!("  useful tiles:          haidi {hu:6.1}  xiangting {xu:6.1}  ratio {:.2}", hu / xu);
}

criterion_group!(benches, bench);

fn main() {
    // A steady loop of one side, for a profiler.
    if let Some(which) = std::env::args().find_map(|a| a.strip_prefix("--loop=").map(str::to_string)) {
        std::env::set_var("HAIDI_PARALLELISM", "off");
        let h = hands();
        let engine = if which == "mcr" { mcr() } else { riichi() };
        for _ in 0..300 {
            if which == "useful" {
                black_box(haidi_useful(&engine, &h.rows));
            } else {
                black_box(haidi_shanten(&engine, &h.flat));
            }
        }
        return;
    }
    if std::env::args().any(|a| a == "--summary") {
        summary();
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
    summary();
}
