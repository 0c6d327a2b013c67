//! A damaged store never loses acknowledged work silently. A finished `gamesweep run uvg --max-n 8 --shards 17` store, then a
//! seeded set of single-bit flips, truncations and zeroed 4 KB blocks of
//! sled's `db` file, each on a fresh copy, then `run` again on the copy
//! (which resumes): each case must be either recovered exactly
//! (`results.json` byte-identical to the undamaged run's, no shard run
//! again) or refused with a message — and a refused case restarted with
//! `--accept-loss` must then give the identical `results.json`. Whether a
//! case lost acknowledged work is decided independently of gamesweep, by
//! opening a second copy with sled itself: 0 silent losses, 0 wrong numbers.
//! Also: the recovery path from an `--export-every` checkpoint
//! (deploy/README.md, "Recovering a damaged store"), and `store check`.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::support::harness::{Gs, BIN};

/// The build under test: this one, or `GAMESWEEP_DAMAGE_BIN` (to show that
/// an older build loses work silently: the tests then fail).
fn bin() -> String {
    std::env::var("GAMESWEEP_DAMAGE_BIN").unwrap_or_else(|_| BIN.to_string())
}
/// Shards asked for (uvg n ≤ 8 plans one more: 18).
const SHARDS: &str = "17";

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `run uvg --max-n 8 --shards 17` into `out` with `extra` options.
fn run(out: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "run",
        "uvg",
        "--max-n",
        "8",
        "--shards",
        SHARDS,
        "--no-http",
        "--out",
        s(out),
    ];
    args.extend_from_slice(extra);
    Gs::new(&args).bin(bin()).output()
}

/// The finished reference run (made once per test binary): its folder and
/// its `results.json`.
fn reference() -> &'static (PathBuf, Vec<u8>) {
    static REF: OnceLock<(PathBuf, Vec<u8>)> = OnceLock::new();
    REF.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap().keep();
        let out = dir.join("ref");
        let o = run(&out, &["--export-every", "1h"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let results = std::fs::read(out.join("results.json")).unwrap();
        let text = String::from_utf8_lossy(&results);
        assert!(
            text.contains("11117"),
            "uvg n = 8 has 11,117 connected graphs"
        );
        // sled itself sees all 18 results (on a copy: its recovery writes).
        let copy = dir.join("ref-probe");
        copy_dir(&out.join("store"), &copy);
        assert_eq!(probe(&copy), Some(18));
        (out, results)
    })
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

/// One damage to sled's `db` file.
#[derive(Clone, Copy, Debug)]
enum Damage {
    /// Flip bit `bit` of byte `at`.
    Flip { at: u64, bit: u8 },
    /// Cut the file to `len` bytes.
    Truncate { len: u64 },
    /// Zero the 4 KB block at `at` (a multiple of 4096).
    Zero { at: u64 },
}

fn apply(db: &Path, d: Damage) {
    let mut bytes = std::fs::read(db).unwrap();
    match d {
        Damage::Flip { at, bit } => bytes[at as usize] ^= 1 << bit,
        Damage::Truncate { len } => bytes.truncate(len as usize),
        Damage::Zero { at } => {
            let end = (at as usize + 4096).min(bytes.len());
            bytes[at as usize..end].fill(0);
        }
    }
    std::fs::write(db, bytes).unwrap();
}

/// What sled itself finds in a damaged store: the acknowledged shard
/// results of sweep `run` it still holds (`None`: it cannot open it, or the
/// sweep record is gone). Opened on its own copy: sled's recovery writes.
fn probe(store: &Path) -> Option<usize> {
    let db = std::panic::catch_unwind(|| sled::open(store)).ok()?.ok()?;
    let sweeps = db.open_tree("sweeps").ok()?;
    sweeps.get("run").ok()??;
    let results = db.open_tree("results").ok()?;
    let mut prefix = b"run".to_vec();
    prefix.push(0);
    Some(results.scan_prefix(prefix).filter(|kv| kv.is_ok()).count())
}

/// How one damaged copy came out.
#[derive(Debug, Default)]
struct Tally {
    /// Started and gave the reference results, nothing run again.
    recovered: usize,
    /// Refused with a message (then recovered exactly with --accept-loss).
    refused: usize,
    /// Refusals naming a lost sweep record.
    sweep_lost: usize,
    /// Cases where sled itself lost acknowledged work.
    lossy: usize,
    /// Refused cases sled cannot open at all (only a checkpoint helps).
    unopenable: usize,
}

/// Run every damage on a fresh copy of the reference store and check the
/// outcome (see the module docs).
fn check_all(name: &str, damages: &[Damage]) -> Tally {
    let (ref_out, ref_results) = reference();
    let work = tempfile::tempdir().unwrap();
    let shards = 18;
    let mut tally = Tally::default();
    for (i, &d) in damages.iter().enumerate() {
        let case = work.path().join(format!("{name}{i}"));
        let probe_copy = work.path().join(format!("{name}{i}-probe"));
        copy_dir(&ref_out.join("store"), &case.join("store"));
        apply(&case.join("store").join("db"), d);
        copy_dir(&case.join("store"), &probe_copy);
        let held = probe(&probe_copy);
        let lossy = held != Some(shards);
        tally.lossy += lossy as usize;
        let o = run(&case, &[]);
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(!err.contains("panicked"), "{d:?}: {err}");
        if o.status.success() {
            // Started: acknowledged work must all be there (nothing run
            // again) and the numbers must be the reference's.
            assert!(
                !lossy,
                "SILENT LOSS: {d:?}: sled holds {held:?} of {shards} results, yet the run started: {err}"
            );
            assert!(
                err.contains(&format!("({shards} resumed)")),
                "{d:?}: shards ran again: {err}"
            );
            assert_eq!(
                &std::fs::read(case.join("results.json")).unwrap(),
                ref_results,
                "WRONG NUMBERS after {d:?}"
            );
            tally.recovered += 1;
            continue;
        }
        // Refused: one message naming the damage and the ways out.
        assert!(
            err.contains("store damaged") || err.contains("cannot open store"),
            "{d:?}: refused without naming the damage: {err}"
        );
        assert!(err.trim_end().lines().count() <= 3, "{d:?}: {err}");
        tally.refused += 1;
        tally.sweep_lost += err.contains("(its record is gone)") as usize;
        // --accept-loss runs exactly the lost shards again: same numbers.
        let o = run(&case, &["--accept-loss"]);
        let err2 = String::from_utf8_lossy(&o.stderr);
        if o.status.success() {
            assert_eq!(
                &std::fs::read(case.join("results.json")).unwrap(),
                ref_results,
                "WRONG NUMBERS after {d:?} and --accept-loss"
            );
        } else {
            // sled cannot open the file at all: only a checkpoint helps,
            // and the message says so.
            tally.unopenable += 1;
            assert!(
                err2.contains("cannot open") && err2.contains("checkpoint"),
                "{d:?}: --accept-loss failed: {err2}"
            );
        }
    }
    eprintln!("{name}: {} cases: {tally:?}", damages.len());
    assert_eq!(tally.recovered + tally.refused, damages.len());
    tally
}

fn db_len() -> u64 {
    std::fs::metadata(reference().0.join("store").join("db"))
        .unwrap()
        .len()
}

#[test]
fn forty_seeded_bit_flips_are_recovered_exactly_or_refused() {
    let len = db_len();
    let mut rng = ChaCha8Rng::seed_from_u64(24_05);
    let flips: Vec<Damage> = (0..40)
        .map(|_| Damage::Flip {
            at: rng.random_range(0..len),
            bit: rng.random_range(0..8),
        })
        .collect();
    check_all("flip", &flips);
}

#[test]
fn fifteen_truncations_and_twelve_zeroed_blocks_are_recovered_exactly_or_refused() {
    let len = db_len();
    let mut rng = ChaCha8Rng::seed_from_u64(24_15);
    let mut damages: Vec<Damage> = (0..15)
        .map(|_| Damage::Truncate {
            len: rng.random_range(0..len),
        })
        .collect();
    damages.extend((0..12).map(|_| Damage::Zero {
        at: rng.random_range(0..len.div_ceil(4096)) * 4096,
    }));
    let t = check_all("cut", &damages);
    assert!(t.lossy > 0, "some truncation loses work: {t:?}");
}

/// The defect as seen: a flip after which sled no longer holds the sweep
/// record, and today's build started on an empty store ("no sweep named").
/// Found by scanning seeded flips with sled itself; gamesweep must refuse it
/// naming the lost sweep, and `--accept-loss` must re-create it from the
/// journal and give the reference numbers.
#[test]
fn a_flip_that_drops_the_sweep_is_refused_and_accept_loss_recreates_it() {
    let (ref_out, ref_results) = reference();
    let len = db_len();
    let work = tempfile::tempdir().unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(24_24);
    let t0 = Instant::now();
    let mut found = None;
    for i in 0..400 {
        if t0.elapsed() > Duration::from_secs(60) {
            break;
        }
        let d = Damage::Flip {
            at: rng.random_range(0..len),
            bit: rng.random_range(0..8),
        };
        let probe_copy = work.path().join(format!("p{i}"));
        copy_dir(&ref_out.join("store"), &probe_copy);
        apply(&probe_copy.join("db"), d);
        // sled opens it but the sweep record is gone.
        let opens = std::panic::catch_unwind(|| sled::open(&probe_copy))
            .ok()
            .and_then(Result::ok)
            .map(|db| {
                db.open_tree("sweeps")
                    .unwrap()
                    .get("run")
                    .unwrap()
                    .is_some()
            });
        let _ = std::fs::remove_dir_all(&probe_copy);
        if opens == Some(false) {
            found = Some(d);
            break;
        }
    }
    let d = found.expect("a seeded flip that drops the sweep record");
    let case = work.path().join("case");
    copy_dir(&ref_out.join("store"), &case.join("store"));
    apply(&case.join("store").join("db"), d);
    let o = run(&case, &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success(),
        "{d:?}: started on a store that lost its sweep: {err}"
    );
    assert!(
        err.contains("store damaged")
            && err.contains("sweep `run` lost")
            && err.contains("--accept-loss"),
        "{d:?}: {err}"
    );
    let check = Gs::new(&["store", "check", s(&case)]).bin(bin()).output();
    assert!(!check.status.success(), "store check must fail on damage");
    let text = String::from_utf8_lossy(&check.stdout);
    assert!(
        text.contains("DAMAGED") && text.contains("`run` lost"),
        "{text}"
    );
    let o = run(&case, &["--accept-loss"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{d:?}: {err}");
    assert!(
        err.contains("re-created") || err.contains("re-queued"),
        "{err}"
    );
    assert_eq!(
        &std::fs::read(case.join("results.json")).unwrap(),
        ref_results
    );
    // The next start is clean: the journal now says what the store holds.
    let o = run(&case, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let check = Gs::new(&["store", "check", s(&case)]).bin(bin()).output();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
}

/// deploy/README.md, "Recovering a damaged store": a store beyond repair
/// (its `db` zeroed) is refused; moved aside, the run restarts from its
/// `--export-every` checkpoint (`run --import OUT/run.gsx`) and gives the
/// reference numbers; a coordinator's store is rebuilt the same way with
/// `gamesweep import FILE --store NEW`.
#[test]
fn a_store_beyond_repair_restarts_from_its_export_every_checkpoint() {
    let (ref_out, ref_results) = reference();
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("run");
    copy_dir(ref_out, &out);
    std::fs::remove_file(out.join("results.json")).unwrap();
    let db = out.join("store").join("db");
    let len = std::fs::metadata(&db).unwrap().len();
    std::fs::write(&db, vec![0u8; len as usize]).unwrap();
    let o = run(&out, &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success() && err.contains("store damaged"),
        "{err}"
    );
    // The documented steps.
    std::fs::rename(out.join("store"), work.path().join("store.damaged")).unwrap();
    let checkpoint = out.join("run.gsx");
    let o = run(&out, &["--import", s(&checkpoint)]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("imported"), "{err}");
    assert_eq!(
        &std::fs::read(out.join("results.json")).unwrap(),
        ref_results
    );
    // A coordinator's store: import the checkpoint into a new one, check it.
    let store = work.path().join("new-store");
    let o = Gs::new(&["import", s(&checkpoint), "--store", s(&store)])
        .bin(bin())
        .output();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let check = Gs::new(&["store", "check", s(&store)]).bin(bin()).output();
    let text = String::from_utf8_lossy(&check.stdout);
    assert!(check.status.success(), "{text}");
    assert!(
        text.contains("18 acknowledged: 0 missing, 0 differ"),
        "{text}"
    );
}

/// deploy/README.md, "The store's size on disk": `store compact` copies a
/// run folder's store into a new database; it checks whole, and the rerun
/// finds every shard done and writes the same numbers. A damaged store is
/// refused and left as it was.
#[test]
fn a_compacted_store_holds_the_same_sweep_and_a_damaged_one_is_refused() {
    let (ref_out, ref_results) = reference();
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("run");
    copy_dir(ref_out, &out);
    let o = Gs::new(&["store", "compact", s(&out)]).bin(bin()).output();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        text.contains(&format!("store {} compacted: ", s(&out.join("store"))))
            && text.contains("values copied; the store as it was is removed"),
        "{text}"
    );
    let check = Gs::new(&["store", "check", s(&out)]).bin(bin()).output();
    let text = String::from_utf8_lossy(&check.stdout);
    assert!(check.status.success(), "{text}");
    assert!(
        text.contains("18 acknowledged: 0 missing, 0 differ"),
        "{text}"
    );
    std::fs::remove_file(out.join("results.json")).unwrap();
    let o = run(&out, &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("18/18 shards already done"), "{err}");
    assert_eq!(
        &std::fs::read(out.join("results.json")).unwrap(),
        ref_results
    );
    // A result's bytes changed under its checksum: refused, naming it;
    // nothing written beside the store, which `store check` still finds so.
    {
        let db = sled::open(out.join("store")).unwrap();
        let results = db.open_tree("results").unwrap();
        let key = b"run\0\0\0\0\x05".to_vec();
        let mut v = results.get(&key).unwrap().unwrap().to_vec();
        *v.last_mut().unwrap() ^= 1;
        results.insert(&key, v).unwrap();
        db.flush().unwrap();
    }
    let o = Gs::new(&["store", "compact", s(&out)]).bin(bin()).output();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "compacted a damaged store");
    assert!(
        err.contains("store damaged: tree `results`, sweep `run`, shard 5: checksum mismatch"),
        "{err}"
    );
    let beside: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("store."))
        .collect();
    assert!(beside.is_empty(), "{beside:?}");
    let check = Gs::new(&["store", "check", s(&out)]).bin(bin()).output();
    assert!(!check.status.success());
}

/// Three sweeps in one coordinator store.
#[path = "store_damage_multi.rs"]
mod multi;
