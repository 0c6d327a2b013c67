//! Conversions between protobuf messages and the core's domain types, in one
//! place. Decoding a message from the wire is fallible ([`ConvertError`]):
//! a malformed message (missing field, duplicate parameter, record set larger
//! than its cap) is rejected rather than guessed at.

use crate::pb;
use gamesweep::sweep::{Params, Record, RecordSet, ShardSpec, SweepResult};

/// A protobuf message that does not describe a valid domain value.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ConvertError {
    /// A required sub-message was absent.
    #[error("malformed message: missing field `{0}`")]
    Missing(&'static str),
    /// A parameter name given twice.
    #[error("malformed message: parameter `{0}` given twice")]
    DuplicateParam(String),
    /// A record set holding more records than its cap, or fewer than it counts.
    #[error("malformed message: record set `{key}` keeps {kept} records with cap {cap} and total {total}")]
    BadRecordSet {
        /// The set's key.
        key: String,
        /// Records sent.
        kept: usize,
        /// The cap sent.
        cap: u64,
        /// The total sent.
        total: u64,
    },
}

/// Domain params → wire params (sorted by name, as `Params` is).
pub fn params_to_proto(params: &Params) -> Vec<pb::Param> {
    params
        .iter()
        .map(|(name, &value)| pb::Param {
            name: name.clone(),
            value,
        })
        .collect()
}

/// Wire params → domain params; a name given twice is an error.
pub fn params_from_proto(params: &[pb::Param]) -> Result<Params, ConvertError> {
    let mut out = Params::new();
    for p in params {
        if out.insert(p.name.clone(), p.value).is_some() {
            return Err(ConvertError::DuplicateParam(p.name.clone()));
        }
    }
    Ok(out)
}

/// Domain shard → wire shard.
pub fn shard_to_proto(s: &ShardSpec) -> pb::ShardSpec {
    pb::ShardSpec {
        index: s.index,
        payload: s.payload.clone(),
        estimate: s.estimate,
    }
}

/// Wire shard → domain shard.
pub fn shard_from_proto(s: pb::ShardSpec) -> ShardSpec {
    ShardSpec {
        index: s.index,
        payload: s.payload,
        estimate: s.estimate,
    }
}

/// Wire shard (optional sub-message) → domain shard.
pub fn opt_shard_from_proto(s: Option<pb::ShardSpec>) -> Result<ShardSpec, ConvertError> {
    s.map(shard_from_proto)
        .ok_or(ConvertError::Missing("shard"))
}

/// Domain record → wire record.
pub fn record_to_proto(r: &Record) -> pb::Record {
    pb::Record {
        vertices: r.vertices,
        edges: r.edges,
        code: r.code.clone(),
        index: r.index,
        detail: r.detail.clone(),
        note: r.note.clone(),
    }
}

/// Wire record → domain record.
pub fn record_from_proto(r: pb::Record) -> Record {
    Record {
        vertices: r.vertices,
        edges: r.edges,
        code: r.code,
        index: r.index,
        detail: r.detail,
        note: r.note,
    }
}

/// Domain record set → wire record set (kept records smallest first).
pub fn record_set_to_proto(s: &RecordSet) -> pb::RecordSet {
    pb::RecordSet {
        total: s.total,
        cap: s.cap,
        kept: s.kept.iter().map(record_to_proto).collect(),
    }
}

/// Wire record set → domain record set, checking `kept ≤ cap` and `kept ≤ total`
/// (duplicates collapse, as in the domain type).
pub fn record_set_from_proto(key: &str, s: pb::RecordSet) -> Result<RecordSet, ConvertError> {
    let kept_len = s.kept.len();
    if kept_len as u64 > s.cap || kept_len as u64 > s.total {
        return Err(ConvertError::BadRecordSet {
            key: key.to_string(),
            kept: kept_len,
            cap: s.cap,
            total: s.total,
        });
    }
    Ok(RecordSet {
        total: s.total,
        cap: s.cap,
        kept: s.kept.into_iter().map(record_from_proto).collect(),
    })
}

/// Domain result → wire result.
pub fn result_to_proto(r: &SweepResult) -> pb::SweepResult {
    pb::SweepResult {
        work: r.work,
        counters: r.counters.iter().map(|(k, v)| (k.clone(), *v)).collect(),
        witnesses: r
            .witnesses
            .iter()
            .map(|(k, v)| (k.clone(), record_to_proto(v)))
            .collect(),
        records: r
            .records
            .iter()
            .map(|(k, v)| (k.clone(), record_set_to_proto(v)))
            .collect(),
        maxima: r.maxima.iter().map(|(k, v)| (k.clone(), *v)).collect(),
    }
}

/// Wire result → domain result.
pub fn result_from_proto(r: pb::SweepResult) -> Result<SweepResult, ConvertError> {
    let mut records = std::collections::BTreeMap::new();
    for (k, v) in r.records {
        let set = record_set_from_proto(&k, v)?;
        records.insert(k, set);
    }
    Ok(SweepResult {
        work: r.work,
        counters: r.counters.into_iter().collect(),
        witnesses: r
            .witnesses
            .into_iter()
            .map(|(k, v)| (k, record_from_proto(v)))
            .collect(),
        records,
        maxima: r.maxima.into_iter().collect(),
    })
}

/// Wire result (optional sub-message) → domain result.
pub fn opt_result_from_proto(r: Option<pb::SweepResult>) -> Result<SweepResult, ConvertError> {
    result_from_proto(r.ok_or(ConvertError::Missing("result"))?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(v: u32, code: &str) -> Record {
        Record {
            vertices: v,
            edges: v + 1,
            code: code.into(),
            index: 7,
            detail: "d".into(),
            note: "n".into(),
        }
    }

    #[test]
    fn result_round_trips() {
        let mut r = SweepResult {
            work: 42,
            ..Default::default()
        };
        r.count("n=3/x", 5);
        r.maximum("m", 9);
        r.witness("w", rec(3, "Bw"));
        r.record("ex", 2, rec(4, "C~"));
        r.record("ex", 2, rec(2, "A_"));
        r.record("ex", 2, rec(5, "D??"));
        let back = result_from_proto(result_to_proto(&r)).unwrap();
        assert_eq!(back, r);
        let mut p = Params::new();
        p.insert("max_n".into(), 8);
        assert_eq!(params_from_proto(&params_to_proto(&p)).unwrap(), p);
    }

    #[test]
    fn malformed_messages_are_typed_errors() {
        let dup = vec![
            pb::Param {
                name: "a".into(),
                value: 1,
            },
            pb::Param {
                name: "a".into(),
                value: 2,
            },
        ];
        assert_eq!(
            params_from_proto(&dup),
            Err(ConvertError::DuplicateParam("a".into()))
        );
        assert_eq!(
            opt_result_from_proto(None),
            Err(ConvertError::Missing("result"))
        );
        let mut bad = result_to_proto(&SweepResult::default());
        bad.records.insert(
            "k".into(),
            pb::RecordSet {
                total: 5,
                cap: 0,
                kept: vec![record_to_proto(&rec(1, "@"))],
            },
        );
        assert!(matches!(
            result_from_proto(bad),
            Err(ConvertError::BadRecordSet { .. })
        ));
    }
}
