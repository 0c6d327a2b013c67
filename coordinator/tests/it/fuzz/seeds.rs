//! Each target's seeds: real inputs (the committed runs, example files,
//! protocol messages, store entries, exports) to mutate.

use super::*;

pub(super) fn graph6_seeds() -> Vec<Vec<u8>> {
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

pub(super) fn digraph6_seeds() -> Vec<Vec<u8>> {
    use gamesweep::graph::graph6;
    let mut seeds = run_strings(&|s| s.starts_with('&') && graph6::decode_digraph(s).is_ok());
    for n in [0, 1, 2, 5, 12, 30, 62, 63, 100] {
        seeds.push(graph6::encode_digraph_with(n, |i, j| (i * 5 + j) % 3 == 1).into_bytes());
    }
    seeds
}

pub(super) fn colouring_seeds() -> Vec<Vec<u8>> {
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

pub(super) fn game_files(ext: &str) -> Vec<Vec<u8>> {
    let mut files: Vec<_> = std::fs::read_dir(root().join("docs/examples"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    files.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

pub(super) fn gamegraph_text_seeds() -> Vec<Vec<u8>> {
    let seeds = game_files("game");
    assert!(seeds.len() >= 4, "{} .game files", seeds.len());
    seeds
}

pub(super) fn gamegraph_json_seeds() -> Vec<Vec<u8>> {
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

pub(super) fn params() -> Params {
    [("max_n".to_string(), 7u64), ("prefix".to_string(), 2)]
        .into_iter()
        .collect()
}

pub(super) fn sweep_status(state: d::SweepState) -> d::SweepStatus {
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

pub(super) fn tagged(tag: u8, bytes: Vec<u8>) -> Vec<u8> {
    let mut v = vec![tag];
    v.extend(bytes);
    v
}

pub(super) fn proto_seeds() -> Vec<Vec<u8>> {
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

pub(super) fn store_entry(tree: &str, key: &[u8], value: Vec<u8>) -> Vec<u8> {
    let t = TREES.iter().position(|&x| x == tree).unwrap() as u8;
    let mut v = vec![t, key.len() as u8];
    v.extend_from_slice(key);
    v.extend(value);
    v
}

pub(super) fn store_seeds() -> Vec<Vec<u8>> {
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
pub(super) fn j<T: serde::Serialize>(v: &T) -> Vec<u8> {
    serde_json::to_vec(v).unwrap()
}

pub(super) fn kind_result_seeds() -> Vec<Vec<u8>> {
    gamesweep::kinds::registry()
        .iter()
        .enumerate()
        .map(|(i, k)| tagged(i as u8, k.empty().encode()))
        .collect()
}

pub(super) fn export_seeds() -> Vec<Vec<u8>> {
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
