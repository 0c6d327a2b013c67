//! Structure-aware mutations of a real export: never a panic, and never an
//! untrusted file counted.

use super::*;

// ------------------------------------------------- structure-aware exports

/// Structured mutations per run of the export test (`GAMESWEEP_FUZZ_ITERS`
/// scales it: a tenth of that).
const STRUCT_ITERS: u64 = 300;

/// A real, finished export of uvg n ≤ 6 (every shard run here).
fn real_export() -> export_file::Export {
    let kind = gamesweep::kinds::find("uvg").unwrap();
    let params = kind
        .resolve_params(&[("max_n".to_string(), 6)].into())
        .unwrap();
    let plan = kind.plan(&params, 8).unwrap();
    let results = plan
        .iter()
        .map(|sh| export_file::ExportResult {
            index: sh.index,
            result: String::from_utf8(
                kind.run_shard(&params, sh, &gamesweep::sweep::ShardCtx::detached())
                    .unwrap()
                    .encode(),
            )
            .unwrap(),
            wall_us: 1,
            cpu_us: 1,
            worker: "w".into(),
        })
        .collect();
    export_file::Export {
        sweep_id: "s".into(),
        kind: "uvg".into(),
        params,
        solver_version: kind.version(),
        target_shards: 8,
        sample: None,
        verify_ppm: 10_000,
        verify_seed: 3,
        plan,
        results,
        earlier_solvers: Vec::new(),
        plan_of: None,
    }
}

/// A number a mutation writes: small, edge, or random.
fn number(rng: &mut ChaCha8Rng) -> u64 {
    match rng.random_range(0..6) {
        0 => 0,
        1 => 1,
        2 => u64::MAX,
        3 => u32::MAX as u64,
        4 => rng.random_range(0..20),
        _ => rng.random(),
    }
}

/// Change one number somewhere in the JSON `v` (each numeric leaf equally
/// likely to be visited first).
fn bump_json(rng: &mut ChaCha8Rng, v: &mut serde_json::Value) -> bool {
    match v {
        serde_json::Value::Number(_) => {
            let old = v.as_u64().unwrap_or(0);
            *v = match rng.random_range(0..3) {
                0 => old.saturating_sub(1).into(),
                1 => old.saturating_add(1).into(),
                _ => number(rng).into(),
            };
            true
        }
        serde_json::Value::Array(a) if !a.is_empty() => {
            let i = rng.random_range(0..a.len());
            bump_json(rng, &mut a[i])
        }
        serde_json::Value::Object(o) if !o.is_empty() => {
            let i = rng.random_range(0..o.len());
            let k = o.keys().nth(i).unwrap().clone();
            bump_json(rng, o.get_mut(&k).unwrap())
        }
        _ => false,
    }
}

/// One structured change of `e`: counts, indices, plan entries, params,
/// sample, verify settings, kind and version fields.
fn mutate_export(rng: &mut ChaCha8Rng, e: &mut export_file::Export) {
    let n = e.plan.len();
    match rng.random_range(0..10) {
        0 | 1 if !e.results.is_empty() => {
            // A count (or any number) in one result.
            let i = rng.random_range(0..e.results.len());
            let mut v: serde_json::Value = serde_json::from_str(&e.results[i].result).unwrap();
            if bump_json(rng, &mut v) {
                e.results[i].result = v.to_string();
            }
        }
        2 if !e.results.is_empty() => {
            // A result's index; or a result moved to another shard.
            let i = rng.random_range(0..e.results.len());
            if rng.random_bool(0.5) {
                e.results[i].index = number(rng) as u32;
            } else {
                let j = rng.random_range(0..e.results.len());
                let r = e.results[j].result.clone();
                e.results[i].result = r;
            }
        }
        3 if !e.results.is_empty() => {
            // Results dropped or duplicated.
            let i = rng.random_range(0..e.results.len());
            if rng.random_bool(0.5) {
                e.results.remove(i);
            } else {
                let r = e.results[i].clone();
                e.results.insert(i, r);
            }
        }
        4 if n > 0 => {
            // A plan entry: swapped with another (index kept), its
            // estimate, its payload, or the plan cut.
            let i = rng.random_range(0..n);
            match rng.random_range(0..4) {
                0 => {
                    let j = rng.random_range(0..n);
                    let p = e.plan[j].payload.clone();
                    e.plan[i].payload = p;
                }
                1 => e.plan[i].estimate = number(rng),
                2 => e.plan[i].payload.insert(0, ' '),
                _ => e.plan.truncate(i),
            }
        }
        5 => {
            // Parameters.
            let k =
                ["max_n", "collect_min_value", "extension_value", "bogus"][rng.random_range(0..4)];
            let v = match rng.random_range(0..3) {
                0 => rng.random_range(0..10),
                1 => number(rng),
                _ => 7,
            };
            e.params.insert(k.to_string(), v);
        }
        6 => {
            e.sample = Some(export_file::ExportSample {
                ppm: number(rng) as u32,
                seed: number(rng),
                shards: (0..rng.random_range(0..4))
                    .map(|_| rng.random_range(0..n as u32 + 2))
                    .collect(),
                limited: rng.random(),
            });
        }
        7 => {
            e.verify_ppm = number(rng) as u32;
            e.verify_seed = number(rng);
        }
        8 => e.target_shards = rng.random_range(0..64),
        _ => match rng.random_range(0..3) {
            0 => e.kind = "col".into(),
            1 => e.solver_version.push('x'),
            _ => e.sweep_id = "../x".into(),
        },
    }
}

/// `bytes` with its trailing SHA-256 recomputed.
fn rechecksum(mut b: Vec<u8>) -> Vec<u8> {
    use sha2::Digest as _;
    let n = b.len() - 32;
    let sum = sha2::Sha256::digest(&b[..n]);
    b[n..].copy_from_slice(&sum);
    b
}

/// Seeded structure-aware fuzzing of export files: a real export decoded,
/// its fields mutated (counts, indices, plan entries, params, sample,
/// verify settings), then re-encoded unsigned, re-signed with an
/// attacker's key, or put under the honest signature (or with the
/// signature's or key's bytes changed) and re-checksummed. Decoding and
/// importing (trusting only the honest key) never panic; a file that
/// imports is trusted only if it is the honest file, unchanged; an
/// untrusted import leaves its sweep unfinished (nothing counted) while it
/// has imported results.
#[test]
fn structured_export_mutations_never_panic_nor_count_untrusted() {
    use gamesweep_engine::core::transfer::ImportPolicy;
    use gamesweep_engine::core::Core;
    use gamesweep_engine::store::MemStore;
    let iters = env_u64("GAMESWEEP_FUZZ_ITERS").map_or(STRUCT_ITERS, |n| (n / 10).max(1));
    let seed = env_u64("GAMESWEEP_FUZZ_SEED").unwrap_or(0x5eed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ fxhash("export-structured"));
    let base = real_export();
    let honest = export_file::Signer::from_seed(&[1; 32]);
    let attacker = export_file::Signer::from_seed(&[2; 32]);
    let signed = export_file::encode(&base, &honest);
    let policy = ImportPolicy {
        trusted: vec![honest.public()],
        ..ImportPolicy::default()
    };
    let started = Instant::now();
    let (mut imported, mut refused, mut tampered) = (0, 0, 0);
    for i in 0..iters {
        let mut e = base.clone();
        for _ in 0..rng.random_range(1..=3) {
            mutate_export(&mut rng, &mut e);
        }
        let file = match rng.random_range(0..4) {
            0 => export_file::encode_unsigned(&e),
            1 => export_file::encode(&e, &attacker),
            2 => {
                // The mutated body under the honest key and signature.
                let body = zstd::bulk::compress(&serde_json::to_vec(&e).unwrap(), 1).unwrap();
                let n = signed.len();
                let mut f = signed[..12].to_vec();
                f.extend_from_slice(&(body.len() as u64).to_le_bytes());
                f.extend_from_slice(&body);
                f.extend_from_slice(&signed[n - 128..n - 32]);
                f.extend_from_slice(&[0; 32]);
                rechecksum(f)
            }
            _ => {
                // The honest file with a byte of its key or signature changed.
                let mut f = signed.clone();
                let at = f.len() - 128 + rng.random_range(0..96);
                f[at] ^= 1 << rng.random_range(0..8);
                rechecksum(f)
            }
        };
        let t0 = Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            let Ok(d) = export_file::decode(&file) else {
                return None;
            };
            let core = Core::open(Arc::new(MemStore::new()), Duration::from_secs(10)).unwrap();
            let i = core.import(&d, None, &policy).ok()?;
            if i.trusted {
                assert_eq!(d.export, base, "a changed file imported as trusted");
            } else if i.done > 0 {
                assert!(
                    core.merged(&i.sweep_id).is_err(),
                    "an untrusted import counted before any re-run"
                );
            }
            Some(i.trusted)
        }));
        match outcome {
            Err(p) => panic!(
                "iteration {i}: panic {:?}",
                p.downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            ),
            Ok(Some(_)) => imported += 1,
            Ok(None) if export_file::decode(&file).is_err() => tampered += 1,
            Ok(None) => refused += 1,
        }
        assert!(t0.elapsed() < SLOW * 5, "iteration {i}: {:?}", t0.elapsed());
        assert!(started.elapsed() < Duration::from_secs(120), "too slow");
    }
    eprintln!(
        "fuzz export-structured inputs {iters}  imported {imported}  refused {refused}  undecodable {tampered}  seconds {:.2}",
        started.elapsed().as_secs_f64()
    );
    // Every path was taken.
    assert!(imported > 0 && refused > 0 && tampered > 0);
}
