//! Conversions between protobuf messages and the core's domain types, in one
//! place. Decoding a message from the wire is fallible ([`ConvertError`]):
//! a malformed message (missing field, duplicate parameter) is rejected
//! rather than guessed at. Shard results travel as the kind's typed result
//! encoded as JSON bytes; only the kind can decode them (`SweepKind::decode`).

use crate::pb;
use gamesweep::sweep::{Params, ShardSpec};

/// A protobuf message that does not describe a valid domain value.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ConvertError {
    /// A required sub-message was absent.
    #[error("malformed message: missing field `{0}`")]
    Missing(&'static str),
    /// A parameter name given twice.
    #[error("malformed message: parameter `{0}` given twice")]
    DuplicateParam(String),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_round_trip() {
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
            opt_shard_from_proto(None),
            Err(ConvertError::Missing("shard"))
        );
    }
}
