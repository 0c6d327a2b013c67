//! Seeded random-input fuzzing of every parser and decoder that reads
//! untrusted bytes: graph6 and digraph6, colouring strings (and the Col /
//! Myopic position they make, under a small budget), game-graph files (text
//! and JSON), every protobuf → domain conversion of `gamesweep-proto`, every
//! stored record of the coordinator's store, and every kind's result
//! decoding, and the export file (`gamesweep import`; also structure-aware,
//! below: [`structured_export_mutations_never_panic_nor_count_untrusted`]). Inputs are pure random bytes or mutations (bit flips,
//! truncations, splices, insertions, interesting values) of valid seeds:
//! real graph6 from `runs/`, the game files of `docs/examples/`, encoded
//! messages and records. The property: no panic, every input finishes
//! within [`SLOW`]; errors are errors.
//!
//! The normal test run does a few thousand inputs per target (seeded, the
//! same every run). `GAMESWEEP_FUZZ_ITERS=N` runs `N` per target and
//! `GAMESWEEP_FUZZ_SEED=S` changes the seed (`bench/fuzz.sh` does both and
//! prints the per-target lines). Inputs that once crashed live in
//! `tests/fuzz_corpus/<target>/` and run in `corpus_inputs_are_errors`.

use gamesweep::sweep::{Params, ShardSpec};
use gamesweep_api::domain as d;
use gamesweep_engine::export_file;
use gamesweep_engine::store::{
    decode_any, FailureRecord, LeaseRecord, QuarantineRecord, SampleRecord, ShardTiming,
    SweepRecord, SweepState, SweepStats,
};
use gamesweep_proto::convert::{
    opt_shard_from_proto, params_from_proto, solver_versions_from_proto, solver_versions_to_proto,
};
use gamesweep_proto::pb;
use prost::Message as _;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

mod exports;
mod seeds;
mod targets;

use seeds::*;
use targets::*;

/// Inputs per target in the normal test run.
const QUICK_ITERS: u64 = 10_000;
/// An input taking longer than this counts as a hang.
const SLOW: Duration = Duration::from_secs(2);

/// One fuzz target: its seeds and the function under test.
struct Target {
    name: &'static str,
    seeds: Vec<Vec<u8>>,
    run: fn(&[u8]),
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

// ---------------------------------------------------------------- inputs

const INTERESTING: &[&[u8]] = &[
    b"\0",
    b"\x01",
    b"\x7f",
    b"\x80",
    b"\xff",
    b"?",
    b"~",
    b"~~",
    b"&",
    b"\n",
    b" ",
    b"->",
    b"{",
    b"}",
    b"[",
    b"]",
    b"\"",
    b":",
    b",",
    b"0",
    b"-1",
    b"1e999",
    b"4294967296",
    b"18446744073709551616",
    b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01",
    b"\xff\xff\xff\xff\x0f",
    b"L",
    b"R",
    b".",
    b"game",
    b"end",
    b"sum",
    b"start",
    b"\xc3\xa9",
];

fn pick<'a>(rng: &mut ChaCha8Rng, seeds: &'a [Vec<u8>]) -> &'a [u8] {
    &seeds[rng.random_range(0..seeds.len())]
}

/// One input: random bytes (a fifth of the time) or a mutated seed.
fn input(rng: &mut ChaCha8Rng, seeds: &[Vec<u8>]) -> Vec<u8> {
    if rng.random_range(0..5) == 0 {
        let len = if rng.random_bool(0.8) {
            rng.random_range(0..64)
        } else {
            rng.random_range(0..2048)
        };
        // Mostly bytes of the seeds' alphabet, some anything.
        let donor = pick(rng, seeds);
        return (0..len)
            .map(|_| {
                if !donor.is_empty() && rng.random_bool(0.7) {
                    donor[rng.random_range(0..donor.len())]
                } else {
                    rng.random()
                }
            })
            .collect();
    }
    let mut v = pick(rng, seeds).to_vec();
    for _ in 0..rng.random_range(1..=4) {
        mutate(rng, &mut v, seeds);
    }
    v
}

fn mutate(rng: &mut ChaCha8Rng, v: &mut Vec<u8>, seeds: &[Vec<u8>]) {
    let at = |rng: &mut ChaCha8Rng, v: &Vec<u8>| rng.random_range(0..=v.len());
    match rng.random_range(0..9) {
        0 if !v.is_empty() => {
            let i = rng.random_range(0..v.len());
            v[i] ^= 1 << rng.random_range(0..8);
        }
        1 if !v.is_empty() => {
            let i = rng.random_range(0..v.len());
            v[i] = rng.random();
        }
        2 => {
            let i = at(rng, v);
            let x = INTERESTING[rng.random_range(0..INTERESTING.len())];
            if rng.random_bool(0.5) && i + x.len() <= v.len() {
                v[i..i + x.len()].copy_from_slice(x);
            } else {
                v.splice(i..i, x.iter().copied());
            }
        }
        3 => {
            let n = at(rng, v);
            v.truncate(n);
        }
        4 => {
            let i = at(rng, v);
            let k = rng.random_range(1..=8);
            let bytes: Vec<u8> = (0..k).map(|_| rng.random()).collect();
            v.splice(i..i, bytes);
        }
        5 => {
            let i = at(rng, v);
            let j = rng.random_range(i..=v.len());
            v.drain(i..j);
        }
        6 => {
            let other = pick(rng, seeds);
            let i = at(rng, v);
            let j = rng.random_range(0..=other.len());
            v.truncate(i);
            v.extend_from_slice(&other[j..]);
        }
        7 if v.len() < 1 << 16 => {
            let i = at(rng, v);
            let j = rng.random_range(i..=v.len().min(i + 256));
            let chunk = v[i..j].to_vec();
            let k = at(rng, v);
            for _ in 0..rng.random_range(1..=4) {
                v.splice(k..k, chunk.iter().copied());
            }
        }
        _ if !v.is_empty() => {
            // Small arithmetic on one byte (varints, lengths, digits).
            let i = rng.random_range(0..v.len());
            v[i] = v[i].wrapping_add(rng.random_range(1..=4)).wrapping_sub(2);
        }
        _ => {}
    }
}

// ---------------------------------------------------------------- driver

/// What a run of one target found.
struct Found {
    inputs: u64,
    secs: f64,
    crashes: Vec<(Vec<u8>, String)>,
    slow: Vec<(Vec<u8>, Duration)>,
}

fn run_target(t: &Target, iters: u64, seed: u64) -> Found {
    for s in &t.seeds {
        run_one(t, s).unwrap_or_else(|m| panic!("{}: a seed panics: {m}", t.name));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ fxhash(t.name));
    let start = Instant::now();
    let mut found = Found {
        inputs: 0,
        secs: 0.0,
        crashes: Vec::new(),
        slow: Vec::new(),
    };
    for _ in 0..iters {
        let x = input(&mut rng, &t.seeds);
        let t0 = Instant::now();
        if let Err(m) = run_one(t, &x) {
            found.crashes.push((x.clone(), m));
        }
        let took = t0.elapsed();
        if took > SLOW {
            found.slow.push((x, took));
        }
        found.inputs += 1;
    }
    found.secs = start.elapsed().as_secs_f64();
    found
}

fn run_one(t: &Target, x: &[u8]) -> Result<(), String> {
    catch_unwind(AssertUnwindSafe(|| (t.run)(x))).map_err(|p| {
        p.downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default()
    })
}

/// A stable per-target seed offset.
fn fxhash(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().map(|v| {
        v.parse()
            .unwrap_or_else(|_| panic!("{name}={v}: not a number"))
    })
}

fn escaped(x: &[u8]) -> String {
    x.iter()
        .flat_map(|&b| std::ascii::escape_default(b))
        .map(char::from)
        .collect()
}

#[test]
fn fuzz_every_parser_and_decoder() {
    let iters = env_u64("GAMESWEEP_FUZZ_ITERS").unwrap_or(QUICK_ITERS);
    let seed = env_u64("GAMESWEEP_FUZZ_SEED").unwrap_or(0x5eed);
    let mut bad = Vec::new();
    for t in targets() {
        let f = run_target(&t, iters, seed);
        // The line `bench/fuzz.sh` collects.
        eprintln!(
            "fuzz {:<15} inputs {:>9}  seconds {:>8.2}  inputs/s {:>9.0}  crashes {}  slow {}",
            t.name,
            f.inputs,
            f.secs,
            f.inputs as f64 / f.secs.max(1e-9),
            f.crashes.len(),
            f.slow.len()
        );
        for (x, m) in f.crashes.iter().take(5) {
            bad.push(format!("{}: panic `{m}` on b\"{}\"", t.name, escaped(x)));
        }
        for (x, took) in f.slow.iter().take(5) {
            bad.push(format!("{}: {took:?} on b\"{}\"", t.name, escaped(x)));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn corpus_inputs_are_errors() {
    // Inputs that once crashed a target, one file each under
    // tests/fuzz_corpus/<target>/.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_corpus");
    let mut ran = 0;
    for t in targets() {
        let Ok(entries) = std::fs::read_dir(dir.join(t.name)) else {
            continue;
        };
        for e in entries {
            let p = e.unwrap().path();
            let x = std::fs::read(&p).unwrap();
            let t0 = Instant::now();
            run_one(&t, &x).unwrap_or_else(|m| panic!("{}: {m}", p.display()));
            assert!(t0.elapsed() < SLOW, "{}: {:?}", p.display(), t0.elapsed());
            ran += 1;
        }
    }
    eprintln!("{ran} corpus inputs");
}
