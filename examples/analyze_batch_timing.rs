//! Rough timing of the analysis batch (no Python), for instruction counts under
//! callgrind: `cargo run --release --example analyze_batch_timing [ROWS]`.
use _core::batch::Rows;
use _core::{Engine, Forms};

fn main() {
    let forms = Forms::mcr();
    let e = Engine::new("mcr", forms, _core::tiles::ALL_KINDS);
    let n: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(20000);
    // 14 tiles dealt from a shuffled wall per row, by a fixed xorshift.
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut rows = vec![0u8; n * 34];
    for r in 0..n {
        let mut wall: Vec<usize> = (0..136).map(|i| i / 4).collect();
        for k in 0..14 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let i = k + (x % (136 - k) as u64) as usize;
            wall.swap(k, i);
            rows[r * 34 + wall[k]] += 1;
        }
    }
    let rows = Rows::new(&rows, None);
    let _ = _core::analyze::batch(&e, &Rows::new(&rows.counts[..34], None), 0, None);
    let t = std::time::Instant::now();
    let (s, _) = _core::analyze::batch(&e, &rows, 0, None).unwrap();
    let dt = t.elapsed().as_secs_f64();
    println!(
        "{n} rows: {:.2} us a row, {:.0} rows/s (shanten sum {})",
        dt / n as f64 * 1e6,
        n as f64 / dt,
        s.iter().map(|&v| v as i64).sum::<i64>()
    );
}
