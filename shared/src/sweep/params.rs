//! Declared parameters of a sweep kind, their resolution (defaults, ranges)
//! and their parsing into the kind's typed parameter struct.
//!
//! On the command line, in the store and on the wire, parameters are a map
//! from name to unsigned integer ([`Params`]); a kind sees them once, parsed
//! into its own `#[derive(Deserialize)]` struct ([`parse_typed`]), so a wrong
//! name is an error at launch and never a panic deep inside a shard.

use super::SweepError;
use std::collections::BTreeMap;

/// Resolved sweep parameters as stored and sent: every parameter the kind
/// declares, by name.
pub type Params = BTreeMap<String, u64>;

/// One declared parameter of a sweep kind (all parameters are unsigned integers;
/// flags are 0/1). The CLI builds `--name-with-dashes` options from these.
#[derive(Clone, Copy, Debug)]
pub struct ParamDef {
    /// Name with underscores, e.g. `max_n` (the CLI spells it `--max-n`).
    pub name: &'static str,
    /// One line of help text.
    pub help: &'static str,
    /// Default value; `None` means the parameter is required.
    pub default: Option<u64>,
    /// Smallest accepted value.
    pub min: u64,
    /// Largest accepted value.
    pub max: u64,
}

/// A parameter's name as its command-line flag spells it: `max_n` →
/// `max-n` (and as errors about it name it).
///
/// ```
/// assert_eq!(gamesweep::sweep::params::flag_name("max_heap"), "max-heap");
/// ```
pub fn flag_name(name: &str) -> String {
    name.replace('_', "-")
}

/// Check `given` against the declared parameters `defs` of kind `kind` and
/// fill in defaults.
pub fn resolve(kind: &str, defs: &[ParamDef], given: &Params) -> Result<Params, SweepError> {
    for name in given.keys() {
        if !defs.iter().any(|d| d.name == name) {
            return Err(SweepError::UnknownParam {
                kind: kind.into(),
                param: flag_name(name),
            });
        }
    }
    let mut out = Params::new();
    for d in defs {
        let value = match (given.get(d.name), d.default) {
            (Some(&v), _) => v,
            (None, Some(v)) => v,
            (None, None) => {
                return Err(SweepError::MissingParam {
                    kind: kind.into(),
                    param: flag_name(d.name),
                })
            }
        };
        if value < d.min || value > d.max {
            return Err(SweepError::OutOfRange {
                kind: kind.into(),
                param: flag_name(d.name),
                value,
                min: d.min,
                max: d.max,
            });
        }
        out.insert(d.name.to_string(), value);
    }
    Ok(out)
}

/// Parse resolved parameters into a kind's typed parameter struct `P`
/// (field names = parameter names; use `#[serde(deny_unknown_fields)]`).
/// A mismatch is a [`SweepError::BadParams`], never a panic.
pub fn parse_typed<P: serde::de::DeserializeOwned>(
    kind: &str,
    params: &Params,
) -> Result<P, SweepError> {
    let map: serde_json::Map<String, serde_json::Value> = params
        .iter()
        .map(|(k, &v)| (k.clone(), serde_json::Value::from(v)))
        .collect();
    serde_json::from_value(serde_json::Value::Object(map)).map_err(|e| SweepError::BadParams {
        kind: kind.into(),
        reason: e.to_string(),
    })
}

/// The command line that runs sweep `kind` with `params`:
/// `gamesweep run KIND`, then `--name value` for every declared parameter
/// that is required or differs from its default, in declaration order (the
/// order `--help` lists them). Parameters not declared are left out.
pub fn command(kind: &str, defs: &[ParamDef], params: &Params) -> String {
    let mut s = format!("gamesweep run {kind}");
    for d in defs {
        if let Some(&v) = params.get(d.name) {
            if d.default != Some(v) {
                s.push_str(&format!(" --{} {v}", flag_name(d.name)));
            }
        }
    }
    s
}

/// The command line that runs `kind` with its typed parameters `params`
/// ([`command`]): flags (`bool` fields) count as 0/1, as on the command line.
pub fn command_of<K: super::Kind>(kind: &K, params: &K::Params) -> String
where
    K::Params: serde::Serialize,
{
    let mut map = Params::new();
    if let Ok(serde_json::Value::Object(fields)) = serde_json::to_value(params) {
        for (name, v) in fields {
            let n = match v {
                serde_json::Value::Bool(b) => Some(u64::from(b)),
                v => v.as_u64(),
            };
            if let Some(n) = n {
                map.insert(name, n);
            }
        }
    }
    command(kind.name(), kind.param_defs(), &map)
}

/// Serde helper for 0/1 flag parameters read as `bool`:
/// `#[serde(deserialize_with = "crate::sweep::params::flag")]`.
pub fn flag<'de, D: serde::Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    match <u64 as serde::Deserialize>::deserialize(d)? {
        0 => Ok(false),
        1 => Ok(true),
        v => Err(serde::de::Error::custom(format!(
            "flag must be 0 or 1, got {v}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEFS: &[ParamDef] = &[
        ParamDef {
            name: "max_n",
            help: "",
            default: None,
            min: 1,
            max: 12,
        },
        ParamDef {
            name: "min_n",
            help: "",
            default: Some(1),
            min: 1,
            max: 12,
        },
        ParamDef {
            name: "seed",
            help: "",
            default: Some(1),
            min: 0,
            max: 9,
        },
    ];

    #[test]
    fn the_command_names_required_and_non_default_parameters() {
        let p = resolve("k", DEFS, &[("max_n".to_string(), 9)].into()).unwrap();
        assert_eq!(command("k", DEFS, &p), "gamesweep run k --max-n 9");
        let p = resolve(
            "k",
            DEFS,
            &[("max_n".to_string(), 9), ("seed".to_string(), 3)].into(),
        )
        .unwrap();
        assert_eq!(command("k", DEFS, &p), "gamesweep run k --max-n 9 --seed 3");
    }
}
