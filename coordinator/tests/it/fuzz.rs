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

// ---------------------------------------------------------------- targets

fn graph6_target(input: &[u8]) {
    if let Ok(s) = std::str::from_utf8(input) {
        if let Ok((n, edges)) = gamesweep::graph::graph6::decode(s) {
            assert!(edges.iter().all(|&(u, v)| u < v && v < n), "{s}");
        }
        let _ = gamesweep::graph::graph6::parse_bitgraph(s);
    }
}

fn digraph6_target(input: &[u8]) {
    if let Ok(s) = std::str::from_utf8(input) {
        if let Ok((n, arcs)) = gamesweep::graph::graph6::decode_digraph(s) {
            assert!(arcs.iter().all(|&(u, v)| u < n && v < n), "{s}");
        }
    }
}

/// `rules byte, board, '\n', colouring`: the colouring parsed alone (for
/// every board size up to 40) and the whole position solved with a small
/// budget (100 work units, well under a millisecond), as `solve col` /
/// `solve myopic` do.
fn colouring_target(input: &[u8]) {
    let Some((&first, rest)) = input.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let (board, colouring) = text.split_once('\n').unwrap_or((&text, ""));
    let n = first as usize % 41;
    if let Ok(cols) = gamesweep::col::parse_colouring(colouring, n) {
        assert_eq!(cols.len(), n);
    }
    let rules = if first & 0x80 == 0 {
        gamesweep::col::Rules::Col
    } else {
        gamesweep::col::Rules::Myopic
    };
    let _ = gamesweep::col::solve_position_within(rules, board, colouring, Some(100))
        .map(|r| r.to_string());
}

fn gamegraph_target(input: &[u8], format: gamesweep::gamegraph::Format) {
    if let Ok(s) = std::str::from_utf8(input) {
        if let Ok(report) = gamesweep::gamegraph::solve_text(s, format) {
            let _ = report.to_string();
            let _ = serde_json::to_string(&report).unwrap();
        }
    }
}

fn gamegraph_text_target(input: &[u8]) {
    gamegraph_target(input, gamesweep::gamegraph::Format::Text)
}

fn gamegraph_json_target(input: &[u8]) {
    gamegraph_target(input, gamesweep::gamegraph::Format::Json)
}

/// The protobuf messages with a conversion to a domain type, in the order
/// the first input byte picks them.
const PROTO_KINDS: u8 = 12;

/// `message byte, encoded message`: decode with prost, then convert.
fn proto_target(input: &[u8]) {
    let Some((&which, bytes)) = input.split_first() else {
        return;
    };
    match which % PROTO_KINDS {
        0 => {
            if let Ok(m) = pb::LaunchRequest::decode(bytes) {
                let _ = d::LaunchSpec::try_from(m);
            }
        }
        1 => {
            if let Ok(m) = pb::LaunchReply::decode(bytes) {
                let _ = d::Launched::from(m);
            }
        }
        2 => {
            if let Ok(m) = pb::StatusReply::decode(bytes) {
                let _ = d::Overview::try_from(m);
            }
        }
        3 => {
            if let Ok(m) = pb::SweepStatus::decode(bytes) {
                let _ = d::SweepStatus::try_from(m);
            }
        }
        4 => {
            if let Ok(m) = pb::WorkerInfo::decode(bytes) {
                let _ = d::WorkerStatus::from(m);
            }
        }
        5 => {
            if let Ok(m) = pb::GetResultReply::decode(bytes) {
                let _ = d::RenderedSweep::try_from(m);
            }
        }
        6 => {
            if let Ok(m) = pb::GetProjectionReply::decode(bytes) {
                let _ = d::ProjectionText::from(m);
            }
        }
        7 => {
            if let Ok(m) = pb::SampleSpec::decode(bytes) {
                let _ = d::SampleRequest::from(m);
            }
        }
        8 => {
            if let Ok(m) = pb::LeaseReply::decode(bytes) {
                for l in m.leases {
                    let _ = params_from_proto(&l.params);
                    let _ = opt_shard_from_proto(l.shard);
                }
            }
        }
        9 => {
            if let Ok(m) = pb::ImportReply::decode(bytes) {
                let _ = d::Imported::from(m);
            }
        }
        10 => {
            if let Ok(m) = pb::SweepStatus::decode(bytes) {
                let _ = gamesweep_proto::convert::state_from_proto(m.state);
            }
        }
        _ => {
            // A worker's solver versions: a bad entry is an error naming it.
            if let Ok(m) = pb::LeaseRequest::decode(bytes) {
                if let Err(e) = solver_versions_from_proto(&m.solver_versions) {
                    assert!(e.to_string().contains("solver_versions["), "{e}");
                }
            }
        }
    }
}

const TREES: [&str; 10] = [
    "sweeps",
    "plans",
    "results",
    "leases",
    "timings",
    "failures",
    "stats",
    "verify",
    "origins",
    "quarantine",
];

/// `tree byte, key length byte, key, value`.
fn store_target(input: &[u8]) {
    let [t, k, rest @ ..] = input else {
        return;
    };
    let key_len = (*k as usize % 24).min(rest.len());
    let (key, value) = rest.split_at(key_len);
    let _ = decode_any(TREES[*t as usize % TREES.len()], key, value);
}

/// `kind byte, encoded result`: every kind's result decoding (what the
/// coordinator does to a stored or submitted result).
fn kind_result_target(input: &[u8]) {
    let Some((&which, bytes)) = input.split_first() else {
        return;
    };
    let kinds = gamesweep::kinds::registry();
    let kind = kinds[which as usize % kinds.len()];
    if let Ok(out) = kind.decode(bytes) {
        // What decodes re-encodes and decodes to the same encoding.
        let again = out.encode();
        assert_eq!(kind.decode(&again).unwrap().encode(), again);
    }
}

/// An export file body framed as an (unsigned, format 1) file: header with
/// its length, and a valid checksum (so mutations reach the decompressor
/// and the parser).
fn framed(body: &[u8]) -> Vec<u8> {
    use sha2::Digest as _;
    let mut out = export_file::MAGIC.to_vec();
    out.extend_from_slice(&export_file::UNSIGNED_VERSION.to_le_bytes());
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(body);
    let sum = sha2::Sha256::digest(&out);
    out.extend_from_slice(&sum);
    out
}

/// `mode byte, bytes`: the export file parser (`gamesweep import`,
/// `verify`, the Import RPC) on the bytes as a file (mode 0), as the JSON
/// content of a well-framed file (1), or as its compressed body (2).
fn export_target(input: &[u8]) {
    let Some((&mode, rest)) = input.split_first() else {
        return;
    };
    let file = match mode % 3 {
        0 => rest.to_vec(),
        1 => framed(&zstd::bulk::compress(rest, 1).unwrap()),
        _ => framed(rest),
    };
    if let Ok(d) = export_file::decode(&file) {
        // What decodes re-encodes and decodes to the same export.
        let signer = export_file::Signer::from_seed(&[1; 32]);
        let again = export_file::decode(&export_file::encode(&d.export, &signer)).unwrap();
        assert_eq!(again.export, d.export);
        assert_eq!(
            again.signature,
            export_file::Signature::Signed(signer.public())
        );
    }
}

// ---------------------------------------------------------------- seeds

/// Every string in the committed runs' `results.json` files that `keep` accepts.
fn run_strings(keep: &dyn Fn(&str) -> bool) -> Vec<Vec<u8>> {
    fn walk(v: &serde_json::Value, keep: &dyn Fn(&str) -> bool, out: &mut Vec<Vec<u8>>) {
        match v {
            serde_json::Value::String(s) if keep(s) => out.push(s.as_bytes().to_vec()),
            serde_json::Value::Array(a) => a.iter().for_each(|x| walk(x, keep, out)),
            serde_json::Value::Object(o) => o.values().for_each(|x| walk(x, keep, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    let mut dirs: Vec<_> = std::fs::read_dir(root().join("runs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    dirs.sort();
    for dir in dirs {
        let Ok(text) = std::fs::read_to_string(dir.join("results.json")) else {
            continue;
        };
        walk(&serde_json::from_str(&text).unwrap(), keep, &mut out);
    }
    out.sort();
    out.dedup();
    out.truncate(500);
    out
}

fn graph6_seeds() -> Vec<Vec<u8>> {
    use gamesweep::graph::graph6;
    let mut seeds = run_strings(&|s| !s.starts_with('&') && graph6::decode(s).is_ok());
    assert!(
        seeds.len() >= 10,
        "graph6 seeds from runs/: {}",
        seeds.len()
    );
    for n in [0, 1, 2, 7, 30, 62, 63, 64, 100, 258] {
        seeds.push(graph6::encode_with(n, |i, j| (i * 7 + j * 3) % 5 == 0).into_bytes());
    }
    seeds
}

fn digraph6_seeds() -> Vec<Vec<u8>> {
    use gamesweep::graph::graph6;
    let mut seeds = run_strings(&|s| s.starts_with('&') && graph6::decode_digraph(s).is_ok());
    for n in [0, 1, 2, 5, 12, 30, 62, 63, 100] {
        seeds.push(graph6::encode_digraph_with(n, |i, j| (i * 5 + j) % 3 == 1).into_bytes());
    }
    seeds
}

fn colouring_seeds() -> Vec<Vec<u8>> {
    use gamesweep::graph::graph6;
    let mut seeds = Vec::new();
    for n in [1usize, 2, 3, 4, 6, 9] {
        let col = graph6::encode_with(n, |i, j| j == i + 1 || (i == 0 && j + 1 == n));
        let myo = graph6::encode_digraph_with(n, |i, j| j == (i + 1) % n && n > 1);
        let colouring: String = (0..n).map(|i| ['.', 'L', '.', 'R', 'B'][i % 5]).collect();
        let plain = ".".repeat(n);
        for c in [&colouring, &plain] {
            let mut s = vec![n as u8];
            s.extend_from_slice(format!("{col}\n{c}").as_bytes());
            seeds.push(s);
            let mut s = vec![0x80 | n as u8];
            s.extend_from_slice(format!("{myo}\n{c}").as_bytes());
            seeds.push(s);
        }
    }
    seeds
}

fn game_files(ext: &str) -> Vec<Vec<u8>> {
    let mut files: Vec<_> = std::fs::read_dir(root().join("docs/examples"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    files.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

fn gamegraph_text_seeds() -> Vec<Vec<u8>> {
    let seeds = game_files("game");
    assert!(seeds.len() >= 4, "{} .game files", seeds.len());
    seeds
}

fn gamegraph_json_seeds() -> Vec<Vec<u8>> {
    let mut seeds = game_files("json");
    for text in game_files("game") {
        let file = gamesweep::gamegraph::parse(
            std::str::from_utf8(&text).unwrap(),
            gamesweep::gamegraph::Format::Text,
        )
        .unwrap();
        seeds.push(serde_json::to_vec(&file.to_json()).unwrap());
    }
    seeds
}

fn params() -> Params {
    [("max_n".to_string(), 7u64), ("prefix".to_string(), 2)]
        .into_iter()
        .collect()
}

fn sweep_status(state: d::SweepState) -> d::SweepStatus {
    d::SweepStatus {
        sweep_id: "uvg-7".into(),
        kind: "uvg".into(),
        params: params(),
        solver_version: "0.1.0+abc".into(),
        state,
        shards_total: 10,
        shards_pending: 3,
        shards_leased: 2,
        shards_done: 5,
        results_stored: 5,
        positions_done: 1234,
        positions_estimate: 5000,
        rate: 12.5,
        eta_seconds: Some(3.5),
        counterexamples: [("bad".to_string(), 2u64)].into_iter().collect(),
        duplicates_ignored: 1,
        leases_expired: 2,
        leases_released: 3,
        sample: Some(d::SampleStatus {
            ppm: 10_000,
            seed: 7,
            shards: 4,
            done: 4,
            limited: true,
            estimate: 300,
        }),
        shards_failed: 1,
        failures: vec![d::ShardFailureStatus {
            index: 3,
            count: 3,
            error: "boom".into(),
            worker_id: "w".into(),
        }],
        refused_submits: 4,
        refused_renewals: 5,
        refused_fails: 6,
        results_invalid: 7,
        recounted: 0,
        recounts_refused: 0,
        verification: Some(d::ReplicationStatus {
            ppm: 10_000,
            seed: 5,
            selected: 3,
            rechecks: 1,
            pending: 1,
            verified: 1,
            mismatched: 1,
            replaced: 1,
            unverifiable: 0,
            disagreeing_workers: vec!["liar".into()],
            waiting: None,
        }),
        priority: 1,
        positions_projected: 4000,
        estimate_spread: Some(0.1),
        positions_target: 1,
        fraction_done: 0.5,
    }
}

fn tagged(tag: u8, bytes: Vec<u8>) -> Vec<u8> {
    let mut v = vec![tag];
    v.extend(bytes);
    v
}

fn proto_seeds() -> Vec<Vec<u8>> {
    let shard = ShardSpec {
        index: 2,
        payload: r#"{"prefix":[1,2]}"#.into(),
        estimate: 99,
    };
    let launch = d::LaunchSpec {
        replicate_all: false,
        part: None,
        kind: "uvg".into(),
        params: params(),
        name: Some("n".into()),
        target_shards: 64,
        resume_existing: true,
        sample: Some(d::SampleRequest { ppm: 5000, seed: 3 }),
        verify_ppm: 10_000,
        verify_seed: Some(8),
        priority: 0,
    };
    let status = d::Overview {
        coordinator_version: "0.1.0+abc".into(),
        sweeps: d::SweepState::ALL
            .iter()
            .map(|&s| sweep_status(s))
            .collect(),
        workers: vec![d::WorkerStatus {
            worker_id: "w".into(),
            last_seen_ms_ago: 12,
            shards_held: 2,
            alive: true,
        }],
        store_bytes: 1,
        coordinator_rss_bytes: 2,
        coordinator_peak_rss_bytes: 3,
        workers_pruned: 4,
        quarantined_workers: vec!["liar".into()],
        store_writes_failing: None,
        identities_limited: vec![],
    };
    let lease = pb::LeaseReply {
        leases: vec![pb::Lease {
            sweep_id: "uvg-7".into(),
            kind: "uvg".into(),
            params: gamesweep_proto::convert::params_to_proto(&params()),
            shard: Some(gamesweep_proto::convert::shard_to_proto(&shard)),
            attempt: 1,
            lease_token: "ab".repeat(32),
            salt: None,
        }],
        lease_ms: 30_000,
        idle: false,
    };
    vec![
        tagged(0, pb::LaunchRequest::from(launch.clone()).encode_to_vec()),
        tagged(
            0,
            pb::LaunchRequest::from(d::LaunchSpec {
                name: None,
                sample: None,
                ..launch
            })
            .encode_to_vec(),
        ),
        tagged(
            1,
            pb::LaunchReply::from(d::Launched {
                sweep_id: "n".into(),
                shards: 3,
                existing: true,
                solver_version: "v".into(),
            })
            .encode_to_vec(),
        ),
        tagged(2, pb::StatusReply::from(status.clone()).encode_to_vec()),
        tagged(
            3,
            pb::SweepStatus::from(status.sweeps[0].clone()).encode_to_vec(),
        ),
        tagged(
            4,
            pb::WorkerInfo::from(status.workers[0].clone()).encode_to_vec(),
        ),
        tagged(
            5,
            pb::GetResultReply::from(d::RenderedSweep {
                kind: "uvg".into(),
                params: params(),
                results_json: "{}\n".into(),
                report_md: "# r\n".into(),
                provenance: None,
            })
            .encode_to_vec(),
        ),
        tagged(
            6,
            pb::GetProjectionReply::from(d::ProjectionText {
                json: "{}".into(),
                md: "p".into(),
            })
            .encode_to_vec(),
        ),
        tagged(
            7,
            pb::SampleSpec::from(d::SampleRequest { ppm: 1, seed: 2 }).encode_to_vec(),
        ),
        tagged(8, lease.encode_to_vec()),
        tagged(
            9,
            pb::ImportReply::from(d::Imported {
                sweep_id: "moved".into(),
                shards: 65,
                done: 13,
                signer: "sha256:00".into(),
                trusted: false,
                merged: true,
                added: 4,
                confirmed: 9,
                conflicts: 0,
            })
            .encode_to_vec(),
        ),
        tagged(
            10,
            pb::SweepStatus::from(status.sweeps[2].clone()).encode_to_vec(),
        ),
        tagged(
            11,
            pb::LeaseRequest {
                worker_id: "w".into(),
                solver_versions: solver_versions_to_proto(&gamesweep_api::solver_version()),
                max_shards: 4,
                protocol: gamesweep_proto::LEASE_PROTOCOL,
            }
            .encode_to_vec(),
        ),
    ]
}

fn store_entry(tree: &str, key: &[u8], value: Vec<u8>) -> Vec<u8> {
    let t = TREES.iter().position(|&x| x == tree).unwrap() as u8;
    let mut v = vec![t, key.len() as u8];
    v.extend_from_slice(key);
    v.extend(value);
    v
}

fn store_seeds() -> Vec<Vec<u8>> {
    let record = SweepRecord {
        replicate_all: false,
        id: "uvg-7".into(),
        kind: "uvg".into(),
        params: params(),
        solver_version: "0.1.0+abc".into(),
        target_shards: 64,
        seq: 3,
        state: SweepState::Running,
        sample: Some(SampleRecord {
            ppm: 100,
            seed: 9,
            shards: vec![0, 5],
            limited: false,
        }),
        verify_ppm: 10_000,
        verify_seed: 77,
        paused: false,
        priority: 1,
        part: None,
        earlier_solvers: Vec::new(),
    };
    let plan: Vec<ShardSpec> = (0..3)
        .map(|index| ShardSpec {
            index,
            payload: format!(r#"{{"prefix":{index}}}"#),
            estimate: 10,
        })
        .collect();
    let key = b"uvg-7\0\0\0\0\x02";
    vec![
        store_entry("sweeps", b"uvg-7", j(&record)),
        store_entry("plans", b"uvg-7", j(&plan)),
        store_entry("results", key, b"{}".to_vec()),
        store_entry(
            "leases",
            key,
            j(&LeaseRecord {
                nonce: Default::default(),
                worker: "w".into(),
                until_ms: 5,
                attempt: 2,
                granted_ms: 3,
            }),
        ),
        store_entry(
            "timings",
            key,
            j(&ShardTiming {
                wall_us: 1,
                cpu_us: 2,
                worker: "w".into(),
            }),
        ),
        store_entry(
            "failures",
            key,
            j(&FailureRecord {
                count: 1,
                error: "boom".into(),
                worker: "w".into(),
                workers: vec!["w".into(), "v".into()],
                set_aside: Some(false),
            }),
        ),
        store_entry(
            "stats",
            b"uvg-7",
            j(&SweepStats {
                duplicates_ignored: 1,
                leases_expired: 2,
                leases_released: 3,
                refused_submits: 4,
                ..Default::default()
            }),
        ),
        store_entry("origins", key, j(&"w")),
        store_entry(
            "quarantine",
            b"w",
            j(&QuarantineRecord {
                worker: "w".into(),
                sweep: "uvg-7".into(),
                shard: 3,
            }),
        ),
    ]
}

/// JSON of a seed record.
fn j<T: serde::Serialize>(v: &T) -> Vec<u8> {
    serde_json::to_vec(v).unwrap()
}

fn kind_result_seeds() -> Vec<Vec<u8>> {
    gamesweep::kinds::registry()
        .iter()
        .enumerate()
        .map(|(i, k)| tagged(i as u8, k.empty().encode()))
        .collect()
}

fn export_seeds() -> Vec<Vec<u8>> {
    let e = export_file::Export {
        sweep_id: "s".into(),
        kind: "uvg".into(),
        params: params(),
        solver_version: "0.1.0+0123".into(),
        target_shards: 4,
        sample: Some(export_file::ExportSample {
            ppm: 5000,
            seed: 1,
            shards: vec![1],
            limited: true,
        }),
        verify_ppm: 10_000,
        verify_seed: 9,
        plan: (0..3)
            .map(|i| ShardSpec {
                index: i,
                payload: format!("{{\"top\":{{\"depth\":{i}}}}}"),
                estimate: 10 + i as u64,
            })
            .collect(),
        results: vec![export_file::ExportResult {
            index: 1,
            result: String::from_utf8(gamesweep::kinds::find("uvg").unwrap().empty().encode())
                .unwrap(),
            wall_us: 5,
            cpu_us: 4,
            worker: "w".into(),
        }],
        earlier_solvers: Vec::new(),
        plan_of: None,
    };
    let json = j(&e);
    vec![
        tagged(
            0,
            export_file::encode(&e, &export_file::Signer::from_seed(&[1; 32])),
        ),
        tagged(0, export_file::encode_unsigned(&e)),
        tagged(1, json.clone()),
        tagged(2, zstd::bulk::compress(&json, 3).unwrap()),
    ]
}

fn targets() -> Vec<Target> {
    vec![
        Target {
            name: "export",
            seeds: export_seeds(),
            run: export_target,
        },
        Target {
            name: "graph6",
            seeds: graph6_seeds(),
            run: graph6_target,
        },
        Target {
            name: "digraph6",
            seeds: digraph6_seeds(),
            run: digraph6_target,
        },
        Target {
            name: "colouring",
            seeds: colouring_seeds(),
            run: colouring_target,
        },
        Target {
            name: "gamegraph-text",
            seeds: gamegraph_text_seeds(),
            run: gamegraph_text_target,
        },
        Target {
            name: "gamegraph-json",
            seeds: gamegraph_json_seeds(),
            run: gamegraph_json_target,
        },
        Target {
            name: "proto",
            seeds: proto_seeds(),
            run: proto_target,
        },
        Target {
            name: "store",
            seeds: store_seeds(),
            run: store_target,
        },
        Target {
            name: "kind-result",
            seeds: kind_result_seeds(),
            run: kind_result_target,
        },
    ]
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
