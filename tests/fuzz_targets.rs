//! The fuzz targets' bodies (fuzz/src/lib.rs) on stable: every committed seed and
//! regression, mutations of them, and pseudo-random bytes, each call under a time bound.
//! cargo-fuzz runs the same bodies coverage-guided (docs/fuzzing.md).

use std::path::Path;
use std::time::{Duration, Instant};

#[path = "../fuzz/src/lib.rs"]
mod bodies;

/// Generous for one call of a debug build; a release call takes about a millisecond.
const BOUND: Duration = Duration::from_secs(2);
/// Pseudo-random inputs per target, and mutations per seed.
const RANDOM: usize = 3_000;
const MUTATIONS: usize = 20;

/// xorshift64*: the same bytes on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn bytes(&mut self, max: usize) -> Vec<u8> {
        let n = (self.next() % max as u64) as usize;
        (0..n).map(|_| self.next() as u8).collect()
    }

    /// A seed with a few bytes changed, inserted or cut.
    fn mutate(&mut self, seed: &[u8]) -> Vec<u8> {
        let mut v = seed.to_vec();
        for _ in 0..1 + self.next() % 4 {
            let at = if v.is_empty() { 0 } else { (self.next() % v.len() as u64) as usize };
            match self.next() % 3 {
                0 if !v.is_empty() => v[at] = self.next() as u8,
                1 => v.insert(at, self.next() as u8),
                _ if !v.is_empty() => drop(v.remove(at)),
                _ => {}
            }
        }
        v
    }
}

/// The files of fuzz/seeds/<target> and fuzz/regressions/<target>.
fn committed(target: &str) -> Vec<(String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut out = vec![];
    for dir in ["seeds", "regressions"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir).join(target)) else { continue };
        for e in entries.flatten() {
            let path = e.path();
            out.push((path.display().to_string(), std::fs::read(&path).unwrap()));
        }
    }
    out.sort();
    out
}

fn run(name: &str, body: fn(&[u8])) {
    bodies::warm_up();
    let timed = |what: &str, input: &[u8]| {
        let start = Instant::now();
        body(input);
        let took = start.elapsed();
        assert!(took < BOUND, "{name}: {what} took {took:?} (input {input:?})");
    };
    let seeds = committed(name);
    assert!(!seeds.is_empty(), "no seeds for {name}");
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ name.len() as u64);
    for (path, input) in &seeds {
        timed(path, input);
        for _ in 0..MUTATIONS {
            timed(&format!("a mutation of {path}"), &rng.mutate(input));
        }
    }
    for _ in 0..RANDOM {
        timed("random bytes", &rng.bytes(96));
    }
}

#[test]
fn notation() {
    run("notation", bodies::notation);
}

#[test]
fn engine() {
    run("engine", bodies::engine);
}

#[test]
fn mcr() {
    run("mcr", bodies::mcr);
}

#[test]
fn regional() {
    run("regional", bodies::regional);
}

#[test]
fn scheme() {
    run("scheme", bodies::scheme);
}

/// Inputs of bugs found and not fixed yet (fuzz/known/<target>), run with `--ignored`.
#[test]
#[ignore = "inputs of open bugs (fuzz/known/engine), none at present"]
fn known_open() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/known/engine");
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        bodies::engine(&std::fs::read(e.path()).unwrap());
    }
}
