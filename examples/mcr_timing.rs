//! Rough timing of the MCR scorer's core (no Python): `cargo run --release --example mcr_timing`.
use _core::mcr::batch::{evaluate_text, TextSituation};
use _core::mcr::{Options, Situation};
use _core::notation::Format;
use std::time::Instant;

fn main() {
    let hands = [
        ("[123m][345m]678p56s11z", "7s"),
        ("123m456p789s1122z", "1z"),
        ("[111z][2222z]55p33344z", "4z"),
        ("1112345678999m", "5m"),
        ("1122334455667p", "7p"),
    ];
    for (h, w) in hands {
        let t = TextSituation {
            hand: h,
            win: Some(w),
            format: Format::Compact,
            situation: Situation::default(),
            options: None,
            explain: false,
            given: 0,
        };
        let n = 20000;
        let start = Instant::now();
        for _ in 0..n {
            std::hint::black_box(evaluate_text(&t, &Options::default()).ok());
        }
        println!("{h} + {w}: {:.2} us", start.elapsed().as_secs_f64() * 1e6 / n as f64);
    }
}
