//! Chaos of trust: one sweep under `--replicate all` (uvg n ≤ 8, about 48
//! shards) worked by two honest `gamesweep-worker` processes, a **liar**
//! (one credential, lying on every result it submits and replaying each
//! under several self-chosen worker ids), and a **faulty core** (seeded:
//! about 1 in 20 of its results, and always its 2nd and 5th, goes wrong,
//! either one position's value miscomputed, which passes validation and the
//! recount, or one random bit of a count flipped), then a
//! **re-checksummed tampered export** of the finished sweep imported over
//! gRPC. Every process is real, on 127.0.0.1. The sweep ends with
//! `results.json` byte-identical to `gamesweep run`'s (11,117 connected
//! graphs at n = 8); every accepted lie and fault is named in a mismatch
//! record with its identity, and every fault that broke its result's own
//! consistency or a recounted graph count was refused at submit
//! (`results_invalid`, by identity); the tampered import counts nothing
//! until honest workers re-ran it, and then equals the reference. Last, one
//! store bit flip between two restarts is refused at start, and
//! `--accept-loss` runs the lost shards again to the same numbers.

use gamesweep_proto::pb;
use rand::{Rng, SeedableRng};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::support::harness;
use crate::support::proc;
use harness::{
    honest_run, isolated, lease_req, ok, raw_client, serve, submit_req, try_lie, Client, Worker,
    BIN,
};
use proc::Proc;

const ADMIN: &str = "chaos-trust-admin-secret";

fn admin_args<'a>(u: &'a str, admin: &'a str) -> [&'a str; 4] {
    ["--coordinator", u, "--token-file", admin]
}

/// Issue a worker credential `name`; its secret.
fn issue(u: &str, admin: &str, dir: &Path, name: &str) -> String {
    let out = dir.join(name);
    let mut args = vec![
        "token",
        "issue",
        "--name",
        name,
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend(admin_args(u, admin));
    ok(&args);
    std::fs::read_to_string(&out).unwrap().trim().to_string()
}

/// A faulty core: one random bit of one count flipped (the result still
/// decodes; validation may or may not catch it).
fn flip(honest: &[u8], rng: &mut impl Rng) -> Vec<u8> {
    /// Visit the nonzero integers of `v` in order, counting `seen`; the
    /// one numbered `target` gets `bit` flipped.
    fn walk(v: &mut serde_json::Value, seen: &mut usize, target: usize, bit: u32) {
        match v {
            serde_json::Value::Number(n) if n.as_u64().is_some_and(|x| x > 0) => {
                if *seen == target {
                    *v = (n.as_u64().unwrap() ^ (1 << bit)).into();
                }
                *seen += 1;
            }
            serde_json::Value::Object(m) => m.values_mut().for_each(|x| walk(x, seen, target, bit)),
            serde_json::Value::Array(a) => a.iter_mut().for_each(|x| walk(x, seen, target, bit)),
            _ => {}
        }
    }
    let mut v: serde_json::Value = serde_json::from_slice(honest).unwrap();
    let mut count = 0;
    walk(&mut v.clone(), &mut count, usize::MAX, 0);
    let (target, bit) = (rng.random_range(0..count), rng.random_range(0..6));
    walk(&mut v, &mut 0, target, bit);
    serde_json::to_vec(&v).unwrap()
}

/// A faulty core that miscomputes one position's value: one start moved
/// from a nonzero value to another below its graph's size (totals, the
/// first-player wins and the graph counts all kept), which passes
/// validation and the recount; only a second identity's run catches it.
/// None if the result has no such start.
fn misvalue(honest: &[u8], rng: &mut impl Rng) -> Option<Vec<u8>> {
    let mut v: serde_json::Value = serde_json::from_slice(honest).ok()?;
    let mut spots = Vec::new();
    for (n, c) in v["by_n"].as_object()? {
        let size: u64 = n.parse().ok()?;
        for (value, count) in c["grundy"].as_object()? {
            let a: u64 = value.parse().ok()?;
            if size >= 3 && a >= 1 && count.as_u64() > Some(0) {
                spots.push((n.clone(), a));
            }
        }
    }
    if spots.is_empty() {
        return None;
    }
    let (n, a) = spots.swap_remove(rng.random_range(0..spots.len()));
    let b = if a == 1 { 2 } else { a - 1 };
    let g = v["by_n"][&n]["grundy"].as_object_mut()?;
    let from = g[&a.to_string()].as_u64()?;
    let to = g.get(&b.to_string()).and_then(|x| x.as_u64()).unwrap_or(0);
    g.insert(a.to_string(), (from - 1).into());
    g.insert(b.to_string(), (to + 1).into());
    serde_json::to_vec(&v).ok()
}

/// What a dishonest client did: results accepted wrong, replays.
#[derive(Default)]
struct Tally {
    wrong_accepted: AtomicU32,
    /// Wrong results refused by validation (`results_invalid`).
    wrong_invalid: AtomicU32,
    replays_accepted: AtomicU32,
}

/// A raw gRPC worker presenting `secret`, leasing under `ids` in turn,
/// submitting `corrupt(result, k)` (None: the honest result) until `stop`.
fn dishonest(
    url: String,
    secret: String,
    ids: Vec<String>,
    corrupt: impl Fn(&[u8], u32) -> Option<Vec<u8>> + Send + 'static,
    stop: Arc<AtomicBool>,
    tally: Arc<Tally>,
) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let mut c = raw_client(&rt, &url, &secret);
        let mut k = 0u32;
        let deadline = Instant::now() + Duration::from_secs(300);
        while !stop.load(Ordering::Relaxed) && Instant::now() < deadline {
            let id = &ids[k as usize % ids.len()];
            let leases = match rt.block_on(c.lease(lease_req(id, 1))) {
                Ok(r) => r.into_inner().leases,
                Err(_) => Vec::new(),
            };
            if leases.is_empty() {
                std::thread::sleep(Duration::from_millis(50));
                continue;
            }
            for l in leases {
                k += 1;
                let right = honest_run(&l);
                let (bytes, wrong) = match corrupt(&right, k) {
                    Some(b) if b != right => (b, true),
                    _ => (right, false),
                };
                let first = submit_req(id, &l, bytes);
                let req = |who: &str| pb::SubmitRequest {
                    worker_id: who.to_string(),
                    ..first.clone()
                };
                let sent = rt.block_on(c.submit(req(id)));
                if wrong {
                    match &sent {
                        Ok(r) if r.get_ref().accepted => {
                            tally.wrong_accepted.fetch_add(1, Ordering::Relaxed);
                        }
                        Err(e) if e.code() == tonic::Code::InvalidArgument => {
                            tally.wrong_invalid.fetch_add(1, Ordering::Relaxed);
                        }
                        _ => {}
                    }
                }
                // Replays under the other ids: never a second voice.
                for other in ids.iter().filter(|o| *o != id) {
                    if rt
                        .block_on(c.submit(req(other)))
                        .is_ok_and(|r| r.into_inner().accepted)
                    {
                        tally.replays_accepted.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
        }
    })
}

#[test]
fn liars_and_faulty_cores_under_replicate_all_change_nothing() {
    let _serial = crate::serial();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let admin = d.join("admin");
    std::fs::write(&admin, format!("{ADMIN}\n")).unwrap();
    let admin_s = admin.to_str().unwrap();
    let (mut coord, u) = serve(
        &d.join("store"),
        &["--token-file", admin_s, "--lease-secs", "3"],
        &d.join("serve.log"),
    );
    let liar = issue(&u, admin_s, d, "liar");
    let faulty = issue(&u, admin_s, d, "faulty");
    issue(&u, admin_s, d, "honest-1");
    issue(&u, admin_s, d, "honest-2");
    let mut args = vec![
        "launch",
        "uvg",
        "--max-n",
        "8",
        "--shards",
        "48",
        "--replicate",
        "all",
        "--name",
        "golden",
    ];
    args.extend(admin_args(&u, admin_s));
    ok(&args);

    let stop = Arc::new(AtomicBool::new(false));
    let lies = Arc::new(Tally::default());
    let flips = Arc::new(Tally::default());
    let liar_t = dishonest(
        u.clone(),
        liar,
        (0..5).map(|i| format!("liar-{i}")).collect(),
        |r, _| try_lie(r),
        stop.clone(),
        lies.clone(),
    );
    let rng = std::sync::Mutex::new(rand_chacha::ChaCha8Rng::seed_from_u64(2024));
    let faulty_t = dishonest(
        u.clone(),
        faulty,
        vec!["node7".into()],
        move |r, k| {
            // Its 2nd result miscomputes a value, its 5th has a bit flipped
            // in a count; then about 1 in 20 results goes wrong either way.
            let mut rng = rng.lock().unwrap();
            match k {
                2 => misvalue(r, &mut *rng),
                5 => Some(flip(r, &mut *rng)),
                _ if rng.random_bool(0.05) => {
                    if rng.random_bool(0.5) {
                        misvalue(r, &mut *rng)
                    } else {
                        Some(flip(r, &mut *rng))
                    }
                }
                _ => None,
            }
        },
        stop.clone(),
        flips.clone(),
    );
    // The dishonest ones get a head start, so that they hold first runs.
    std::thread::sleep(Duration::from_millis(1500));
    let h1 = Worker::new(&u)
        .threads(1)
        .token(&d.join("honest-1"))
        .log(&d.join("h1.log"))
        .spawn();
    let h2 = Worker::new(&u)
        .threads(1)
        .token(&d.join("honest-2"))
        .log(&d.join("h2.log"))
        .spawn();
    let s = Client::new(&u)
        .token(Path::new(admin_s))
        .wait_done("golden", Duration::from_secs(240));
    stop.store(true, Ordering::Relaxed);
    liar_t.join().unwrap();
    faulty_t.join().unwrap();

    let (n_lies, n_flips, n_caught) = (
        lies.wrong_accepted.load(Ordering::Relaxed),
        flips.wrong_accepted.load(Ordering::Relaxed),
        flips.wrong_invalid.load(Ordering::Relaxed) + lies.wrong_invalid.load(Ordering::Relaxed),
    );
    eprintln!(
        "accepted: {n_lies} lies, {n_flips} flipped results; {n_caught} refused by validation; status: {s}"
    );
    assert!(n_lies >= 1, "the liar got results in");
    assert!(n_flips + n_caught >= 2, "the faulty core flipped results");
    assert!(
        n_flips >= 1,
        "a fault that passes validation and the recount was accepted (and must be caught by replication)"
    );
    // A flip that breaks a result's own consistency, or a graph count the
    // coordinator recounts, is refused at submit.
    assert_eq!(s["results_invalid"], n_caught, "{s}");
    assert_eq!(lies.replays_accepted.load(Ordering::Relaxed), 0);
    assert_eq!(flips.replays_accepted.load(Ordering::Relaxed), 0);
    let v = &s["verification"];
    assert_eq!(v["pending"], 0, "{s}");
    assert_eq!(v["unverifiable"], 0, "replicate all never skips: {s}");
    let total = s["shards_total"].as_u64().unwrap();
    assert_eq!(
        v["verified"].as_u64().unwrap() + v["mismatched"].as_u64().unwrap(),
        total
    );

    let out = d.join("out");
    let mut args = vec!["report", "golden", "--out", out.to_str().unwrap()];
    args.extend(admin_args(&u, admin_s));
    ok(&args);
    let local = d.join("local");
    ok(&[
        "run",
        "uvg",
        "--max-n",
        "8",
        "--quiet",
        "--out",
        local.to_str().unwrap(),
    ]);
    let read = |p: &Path| std::fs::read_to_string(p).unwrap();
    assert_eq!(
        read(&out.join("results.json")),
        read(&local.join("results.json")),
        "byte-identical to the reference"
    );
    let prov: serde_json::Value =
        serde_json::from_str(&read(&out.join("provenance.json"))).unwrap();
    // Every accepted lie and flip is a mismatch naming its identity.
    let named = |who: &str| {
        prov["mismatches"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| {
                m["disagreeing"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|w| w == who)
            })
            .count() as u32
    };
    assert_eq!(named("@liar"), n_lies, "{prov}");
    // A flip can also hit a count no replica disagrees on? No: any changed
    // byte changes the digest, so each accepted flip is a named mismatch.
    assert_eq!(named("@faulty"), n_flips, "{prov}");
    assert!(named("@honest-1") == 0 && named("@honest-2") == 0);
    assert_eq!(
        prov["confirmation"]["confirmed_by_two_identities"], total,
        "{prov}"
    );
    assert!(prov["checks"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["ok"] == true));
    let contributors = prov["contributors"].as_object().unwrap();
    // Flips refused by validation are attributed too.
    let flips_invalid = flips.wrong_invalid.load(Ordering::Relaxed) as u64;
    assert_eq!(
        prov["results_invalid_by"]["@faulty"].as_u64().unwrap_or(0),
        flips_invalid,
        "{prov}"
    );
    // The liar's results were all replaced; the faulty core's unflipped ones
    // are as good as anyone's.
    assert!(!contributors.contains_key("@liar"), "{prov}");

    // A re-checksummed tampered export of the finished sweep: imported over
    // gRPC it counts nothing until workers re-ran it; then it is exact.
    let file = d.join("golden.gsx");
    let mut args = vec!["export", "golden", file.to_str().unwrap()];
    args.extend(admin_args(&u, admin_s));
    ok(&args);
    let bytes = std::fs::read(&file).unwrap();
    let mut ex = gamesweep_engine::export_file::decode(&bytes)
        .unwrap()
        .export;
    for r in &mut ex.results {
        if let Some(l) = try_lie(r.result.as_bytes()) {
            r.result = String::from_utf8(l).unwrap();
        }
    }
    let tampered = d.join("tampered.gsx");
    std::fs::write(
        &tampered,
        gamesweep_engine::export_file::encode_unsigned(&ex),
    )
    .unwrap();
    let mut args = vec!["import", tampered.to_str().unwrap(), "--name", "tampered"];
    args.extend(admin_args(&u, admin_s));
    ok(&args);
    let s = Client::new(&u).token(Path::new(admin_s)).status("tampered");
    assert_ne!(s["state"], "done", "untrusted: nothing counts yet: {s}");
    let s = Client::new(&u)
        .token(Path::new(admin_s))
        .wait_done("tampered", Duration::from_secs(240));
    let out2 = d.join("out2");
    let mut args = vec!["report", "tampered", "--out", out2.to_str().unwrap()];
    args.extend(admin_args(&u, admin_s));
    ok(&args);
    assert_eq!(
        read(&out2.join("results.json")),
        read(&local.join("results.json")),
        "the tampered import ends exact: {s}"
    );

    // One store bit flip between two restarts: the coordinator stops (kill
    // -9: everything acknowledged is durable), a seeded flip in sled's `db`
    // that loses acknowledged work is refused at start with a message, and
    // `--accept-loss` runs exactly the lost shards again: same numbers.
    drop((h1, h2));
    coord.kill9();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut refused = None;
    for attempt in 0..40 {
        let cand = d.join(format!("flip-{attempt}"));
        copy_dir(&d.join("store"), &cand);
        let db = cand.join("db");
        let mut bytes = std::fs::read(&db).unwrap();
        let at = rng.random_range(0..bytes.len());
        bytes[at] ^= 1 << rng.random_range(0..8);
        std::fs::write(&db, bytes).unwrap();
        let o = harness::gs(&["store", "check", cand.to_str().unwrap()]);
        if !o.status.success() {
            refused = Some((cand, at));
            break;
        }
        std::fs::remove_dir_all(&cand).unwrap();
    }
    let (cand, at) = refused.expect("a flip that damages acknowledged work within 40 tries");
    let log = d.join("serve-flipped.log");
    // Bounded: a start that is not refused is killed and fails the test.
    let mut child = Proc(
        isolated(Command::new(BIN))
            .args([
                "serve",
                "--listen",
                "127.0.0.1:0",
                "--token-file",
                admin_s,
                "--store",
            ])
            .arg(&cand)
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap(),
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(st) = child.0.try_wait().unwrap() {
            break Some(st);
        }
        if Instant::now() > deadline {
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    drop(child);
    let err = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        status.is_some_and(|st| !st.success()) && err.contains("--accept-loss"),
        "a flip at byte {at} must refuse the start with a message: {err}"
    );
    eprintln!(
        "store flip at byte {at} refused: {}",
        err.lines().last().unwrap_or("")
    );
    let (_c2, u2) = serve(&cand, &["--token-file", admin_s, "--accept-loss"], &log);
    let _h1 = Worker::new(&u2)
        .threads(1)
        .token(&d.join("honest-1"))
        .log(&d.join("h1b.log"))
        .spawn();
    let _h2 = Worker::new(&u2)
        .threads(1)
        .token(&d.join("honest-2"))
        .log(&d.join("h2b.log"))
        .spawn();
    Client::new(&u2)
        .token(Path::new(admin_s))
        .wait_done("golden", Duration::from_secs(240));
    let out3 = d.join("out3");
    let mut args = vec!["report", "golden", "--out", out3.to_str().unwrap()];
    args.extend(admin_args(&u2, admin_s));
    ok(&args);
    assert_eq!(
        read(&out3.join("results.json")),
        read(&local.join("results.json")),
        "after the flip and --accept-loss (byte {at})"
    );
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
