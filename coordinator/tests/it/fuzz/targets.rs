//! The fuzz targets: each parser or decoder under test, and the list of
//! targets with their seeds.

use super::*;

// ---------------------------------------------------------------- targets

pub(super) fn graph6_target(input: &[u8]) {
    if let Ok(s) = std::str::from_utf8(input) {
        if let Ok((n, edges)) = gamesweep::graph::graph6::decode(s) {
            assert!(edges.iter().all(|&(u, v)| u < v && v < n), "{s}");
        }
        let _ = gamesweep::graph::graph6::parse_bitgraph(s);
    }
}

pub(super) fn digraph6_target(input: &[u8]) {
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
pub(super) fn colouring_target(input: &[u8]) {
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

pub(super) fn gamegraph_target(input: &[u8], format: gamesweep::gamegraph::Format) {
    if let Ok(s) = std::str::from_utf8(input) {
        if let Ok(report) = gamesweep::gamegraph::solve_text(s, format) {
            let _ = report.to_string();
            let _ = serde_json::to_string(&report).unwrap();
        }
    }
}

pub(super) fn gamegraph_text_target(input: &[u8]) {
    gamegraph_target(input, gamesweep::gamegraph::Format::Text)
}

pub(super) fn gamegraph_json_target(input: &[u8]) {
    gamegraph_target(input, gamesweep::gamegraph::Format::Json)
}

/// The protobuf messages with a conversion to a domain type, in the order
/// the first input byte picks them.
pub(super) const PROTO_KINDS: u8 = 12;

/// `message byte, encoded message`: decode with prost, then convert.
pub(super) fn proto_target(input: &[u8]) {
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

pub(super) const TREES: [&str; 10] = [
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
pub(super) fn store_target(input: &[u8]) {
    let [t, k, rest @ ..] = input else {
        return;
    };
    let key_len = (*k as usize % 24).min(rest.len());
    let (key, value) = rest.split_at(key_len);
    let _ = decode_any(TREES[*t as usize % TREES.len()], key, value);
}

/// `kind byte, encoded result`: every kind's result decoding (what the
/// coordinator does to a stored or submitted result).
pub(super) fn kind_result_target(input: &[u8]) {
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
pub(super) fn framed(body: &[u8]) -> Vec<u8> {
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
pub(super) fn export_target(input: &[u8]) {
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
pub(super) fn run_strings(keep: &dyn Fn(&str) -> bool) -> Vec<Vec<u8>> {
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

pub(super) fn targets() -> Vec<Target> {
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
