//! Rough timing of hand analysis (no Python): `cargo run --release --example analyze_timing`.
use _core::notation::{parse, Format};
use _core::{Engine, Forms, Wilds};
fn main() {
    let forms = Forms::mcr();
    let e = Engine::new("mcr", forms, _core::tiles::ALL_KINDS);
    let args: Vec<String> = std::env::args().skip(1).collect();
    let default = ["123m456p789s1234z5z", "1122m3456p789s125z", "19m19p19s1234567z5m", "147m258p369s1234z5z"];
    let hands: Vec<&str> = if args.is_empty() { default.to_vec() } else { args.iter().map(|s| s.as_str()).collect() };
    for s in hands {
        let h = parse(s, Format::Compact).unwrap().hand;
        let _ = _core::analyze::analyze(&e, &h, Wilds::default(), &[0; 34]);
        let n = 20000;
        let t = std::time::Instant::now();
        for _ in 0..n {
            std::hint::black_box(_core::analyze::analyze(&e, &h, Wilds::default(), &[0; 34]).unwrap());
        }
        println!("{s}: {:.2} us", t.elapsed().as_secs_f64() / n as f64 * 1e6);
    }
}
