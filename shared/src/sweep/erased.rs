//! The runtime's view of a kind: [`SweepKind`], object-safe, with shards as
//! JSON text and results as an opaque [`Output`]. Every typed [`Kind`]
//! implements it; nothing outside `shared` ever sees a kind's own types.

use super::merge::MergeError;
use super::{
    parse_typed, resolve, Kind, Merge, ParamDef, Params, Presentation, ShardCtx, ShardSpec,
    SweepError, TruthCheck, ValidateError,
};
use serde::Serialize;
use std::any::Any;
use std::fmt::Debug;

/// A kind as the runtime (coordinator, workers, `gamesweep run`) sees it.
pub trait SweepKind: Sync {
    /// The kind's name on the command line, e.g. `uvg`.
    fn name(&self) -> &'static str;
    /// One line describing the sweep.
    fn about(&self) -> &'static str;
    /// The parameters the kind takes.
    fn params(&self) -> &'static [ParamDef];
    /// The file implementing the kind ([`Kind::source_file`]).
    fn source_file(&self) -> &'static str;
    /// The kind's solver version, `{CRATE_VERSION}+{id}`: results computed
    /// under one version may be merged with each other and with no other.
    /// It changes with every change that can alter the kind's results (its
    /// code, the code it uses, the locked versions of the crates that code
    /// uses) and with nothing else: not with tests, comments, the CLI or
    /// other kinds. See [`crate::version::kind_version`].
    fn version(&self) -> String;
    /// Does a run return a position digest when asked
    /// ([`Kind::position_digest`])?
    fn position_digest(&self) -> bool;
    /// Check `given` against the declared parameters, fill in defaults, and
    /// check that the kind's typed parameters parse.
    fn resolve_params(&self, given: &Params) -> Result<Params, SweepError>;
    /// Split the sweep into shards, numbered `0..`. Deterministic in (params, target).
    fn plan(&self, params: &Params, target_shards: u32) -> Result<Vec<ShardSpec>, SweepError>;
    /// Run one shard.
    fn run_shard(
        &self,
        params: &Params,
        shard: &ShardSpec,
        ctx: &ShardCtx<'_>,
    ) -> Result<Output, SweepError>;
    /// Check a decoded result of `shard` before it is stored and merged
    /// ([`Kind::validate`]): [`SweepError::InvalidResult`] names the shard
    /// and the field that is wrong.
    fn validate(&self, params: &Params, shard: &ShardSpec, out: &Output) -> Result<(), SweepError>;
    /// Recompute the cheap truths of `shard` ([`Kind::recount`]) and
    /// compare `out` with them: `None` if the kind has none; an error is
    /// [`SweepError::InvalidResult`] naming the field.
    fn recount(
        &self,
        params: &Params,
        shard: &ShardSpec,
        out: &Output,
    ) -> Option<Result<(), SweepError>>;
    /// The rows of the tables a result of `shard` can change
    /// ([`Kind::rows`]); `None`: any row (also for a shard that does not
    /// decode).
    fn rows(&self, params: &Params, shard: &ShardSpec) -> Option<std::ops::RangeInclusive<usize>>;
    /// The empty result (the identity of merge).
    fn empty(&self) -> Output;
    /// A result from its encoding ([`Output::encode`]); a clear error for
    /// bytes that are not this kind's result.
    fn decode(&self, bytes: &[u8]) -> Result<Output, SweepError>;
    /// `results.json` (exact text), `report.md` (rendered from that text) and
    /// the exports, for the merged result of the whole plan.
    fn render(&self, params: &Params, merged: &Output) -> Result<Rendered, SweepError>;
    /// `report.md` and the exports again, from a `results.json` text alone
    /// (its `results_json` is the text as re-written from the typed document).
    fn render_from_json(&self, params: &Params, results_json: &str)
        -> Result<Rendered, SweepError>;
    /// What the kind shows besides its report text ([`Kind::present`]),
    /// from a `results.json` text alone (final or partial), witnesses in
    /// drawing order.
    fn present(&self, results_json: &str) -> Result<Presentation, SweepError>;
    /// The kind's cheap truths ([`Kind::truths`]) about a finished sweep's
    /// `results.json` text.
    fn truths(&self, results_json: &str) -> Result<Vec<TruthCheck>, SweepError>;
    /// The command that reproduces a run with these resolved parameters:
    /// `gamesweep run KIND` and every parameter whose value is not its
    /// default, in declaration order.
    fn command(&self, params: &Params) -> String {
        super::params::command(self.name(), self.params(), params)
    }
}

/// What a kind renders from a merged result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rendered {
    /// The exact text of `results.json` (pretty JSON with sorted keys and a
    /// final newline; no timings: byte-identical across reruns).
    pub results_json: String,
    /// The `report.md` text, rendered from `results_json`'s data.
    pub report_md: String,
    /// Extra files (name, contents) written next to `results.json`.
    pub exports: Vec<(String, String)>,
}

/// The exact `results.json` text of a document: keys sorted (through
/// `serde_json::Value`), pretty, newline-terminated.
pub fn json_text<T: Serialize>(doc: &T) -> String {
    let v = serde_json::to_value(doc).expect("documents serialize to JSON");
    let mut s = serde_json::to_string_pretty(&v).expect("JSON values serialize");
    s.push('\n');
    s
}

/// `report` with the line that reproduces it after its title (the first
/// line, `# …`, and its blank line): "Reproduce with `COMMAND`. Rendered
/// from `results.json`; every number below is computed." A report without a
/// title gets the line first.
pub fn with_command(report: &str, command: &str) -> String {
    let line = format!(
        "Reproduce with `{command}`. Rendered from `results.json`; every number below is computed.\n\n"
    );
    match report.split_once("\n\n") {
        Some((title, rest)) if title.starts_with("# ") && !title.contains('\n') => {
            format!("{title}\n\n{line}{rest}")
        }
        _ => format!("{line}{report}"),
    }
}

/// A kind's typed parameters and shard, parsed from the runtime's forms.
fn typed<K: Kind>(
    k: &K,
    params: &Params,
    shard: &ShardSpec,
) -> Result<(K::Params, K::Shard), SweepError> {
    let p: K::Params = parse_typed(Kind::name(k), params)?;
    let s: K::Shard = serde_json::from_str(&shard.payload).map_err(|e| SweepError::BadShard {
        kind: Kind::name(k).into(),
        reason: format!("shard {}: {e}", shard.index),
    })?;
    Ok((p, s))
}

impl<K: Kind> SweepKind for K {
    fn name(&self) -> &'static str {
        Kind::name(self)
    }
    fn about(&self) -> &'static str {
        Kind::about(self)
    }
    fn params(&self) -> &'static [ParamDef] {
        self.param_defs()
    }
    fn source_file(&self) -> &'static str {
        Kind::source_file(self)
    }
    fn version(&self) -> String {
        match Kind::outside_version(self) {
            Some(id) => crate::version::outside_kind_version(id, Kind::name(self)),
            None => crate::version::kind_version(Kind::source_file(self), Kind::name(self)),
        }
    }
    fn position_digest(&self) -> bool {
        Kind::position_digest(self)
    }
    fn resolve_params(&self, given: &Params) -> Result<Params, SweepError> {
        let p = resolve(Kind::name(self), self.param_defs(), given)?;
        parse_typed::<K::Params>(Kind::name(self), &p)?;
        Ok(p)
    }
    fn plan(&self, params: &Params, target_shards: u32) -> Result<Vec<ShardSpec>, SweepError> {
        let p: K::Params = parse_typed(Kind::name(self), params)?;
        let shards = Kind::plan(self, &p, target_shards)?;
        Ok(shards
            .into_iter()
            .enumerate()
            .map(|(i, (s, estimate))| ShardSpec {
                index: i as u32,
                payload: serde_json::to_string(&s).expect("shards serialize to JSON"),
                estimate,
            })
            .collect())
    }
    fn run_shard(
        &self,
        params: &Params,
        shard: &ShardSpec,
        ctx: &ShardCtx<'_>,
    ) -> Result<Output, SweepError> {
        let (p, s) = typed(self, params, shard)?;
        Ok(Output::new(Kind::name(self), self.run(&p, &s, ctx)?))
    }
    fn validate(&self, params: &Params, shard: &ShardSpec, out: &Output) -> Result<(), SweepError> {
        let (p, s) = typed(self, params, shard)?;
        let o = out.get::<K::Output>(Kind::name(self))?;
        Kind::validate(self, &p, &s, o).map_err(|reason| SweepError::InvalidResult {
            kind: Kind::name(self).into(),
            shard: shard.index,
            reason,
        })
    }
    fn rows(&self, params: &Params, shard: &ShardSpec) -> Option<std::ops::RangeInclusive<usize>> {
        let (p, s) = typed(self, params, shard).ok()?;
        Kind::rows(self, &p, &s)
    }
    fn recount(
        &self,
        params: &Params,
        shard: &ShardSpec,
        out: &Output,
    ) -> Option<Result<(), SweepError>> {
        let typed = typed(self, params, shard)
            .and_then(|(p, s)| Ok((p, s, out.get::<K::Output>(Kind::name(self))?)));
        let (p, s, o) = match typed {
            Ok(t) => t,
            Err(e) => return Some(Err(e)),
        };
        let checked = Kind::recount(self, &p, &s, o)?;
        Some(checked.map_err(|reason| SweepError::InvalidResult {
            kind: Kind::name(self).into(),
            shard: shard.index,
            reason: ValidateError::new("recounted", reason),
        }))
    }
    fn empty(&self) -> Output {
        Output::new(Kind::name(self), K::Output::default())
    }
    fn decode(&self, bytes: &[u8]) -> Result<Output, SweepError> {
        let out: K::Output = serde_json::from_slice(bytes).map_err(|e| SweepError::BadResult {
            kind: Kind::name(self).into(),
            reason: e.to_string(),
        })?;
        Ok(Output::new(Kind::name(self), out))
    }
    fn render(&self, params: &Params, merged: &Output) -> Result<Rendered, SweepError> {
        let p: K::Params = parse_typed(Kind::name(self), params)?;
        let out = merged.get::<K::Output>(Kind::name(self))?;
        let text = json_text(&self.doc(&p, out));
        self.render_from_json(params, &text)
    }
    fn truths(&self, results_json: &str) -> Result<Vec<TruthCheck>, SweepError> {
        let doc: K::Doc =
            serde_json::from_str(results_json).map_err(|e| SweepError::BadResult {
                kind: Kind::name(self).into(),
                reason: format!("results.json: {e}"),
            })?;
        Ok(Kind::truths(self, &doc))
    }
    fn present(&self, results_json: &str) -> Result<Presentation, SweepError> {
        let doc: K::Doc =
            serde_json::from_str(results_json).map_err(|e| SweepError::BadResult {
                kind: Kind::name(self).into(),
                reason: format!("results.json: {e}"),
            })?;
        Ok(Kind::present(self, &doc).sorted())
    }
    fn render_from_json(
        &self,
        params: &Params,
        results_json: &str,
    ) -> Result<Rendered, SweepError> {
        let p: K::Params = parse_typed(Kind::name(self), params)?;
        let doc: K::Doc =
            serde_json::from_str(results_json).map_err(|e| SweepError::BadResult {
                kind: Kind::name(self).into(),
                reason: format!("results.json: {e}"),
            })?;
        // Written back from the typed document, so a caller can check that
        // the text round-trips through the kind's types byte for byte.
        Ok(Rendered {
            results_json: json_text(&doc),
            report_md: with_command(&self.report(&p, &doc), &self.command(params)),
            exports: self.exports(&p, &doc),
        })
    }
}

/// A kind's result with its type erased: what the runtime merges, stores and
/// sends. Made and read only through the kind ([`SweepKind::run_shard`],
/// [`SweepKind::decode`]).
pub struct Output {
    kind: &'static str,
    inner: Box<dyn ErasedOutput>,
}

trait ErasedOutput: Send + Sync + Debug + 'static {
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
    /// `Err(())` when `other` is of another type.
    fn merge_from(&mut self, other: Box<dyn Any>) -> Result<Result<(), MergeError>, ()>;
    fn work(&self) -> u64;
    fn counterexamples(&self) -> Vec<(String, u64)>;
    fn encode(&self) -> Vec<u8>;
    fn clone_box(&self) -> Box<dyn ErasedOutput>;
}

impl<T> ErasedOutput for T
where
    T: Merge + Serialize + Debug + Clone + PartialEq + Send + Sync + 'static,
{
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
    fn merge_from(&mut self, other: Box<dyn Any>) -> Result<Result<(), MergeError>, ()> {
        let other = other.downcast::<T>().map_err(|_| ())?;
        Ok(Merge::merge(self, *other))
    }
    fn work(&self) -> u64 {
        Merge::work(self)
    }
    fn counterexamples(&self) -> Vec<(String, u64)> {
        Merge::counterexamples(self)
    }
    fn encode(&self) -> Vec<u8> {
        serde_json::to_vec(self).expect("results serialize to JSON")
    }
    fn clone_box(&self) -> Box<dyn ErasedOutput> {
        Box::new(self.clone())
    }
}

impl Output {
    fn new<T>(kind: &'static str, value: T) -> Self
    where
        T: Merge + Serialize + Debug + Clone + PartialEq + Send + Sync + 'static,
    {
        Output {
            kind,
            inner: Box::new(value),
        }
    }

    /// The kind this result belongs to.
    pub fn kind(&self) -> &'static str {
        self.kind
    }

    /// Positions processed.
    pub fn work(&self) -> u64 {
        self.inner.work()
    }

    /// Counterexamples found, by name (see [`Merge::counterexamples`]).
    pub fn counterexamples(&self) -> Vec<(String, u64)> {
        self.inner.counterexamples()
    }

    /// Fold `other` (a result of the same kind) into `self`. A counter that
    /// would overflow is [`SweepError::Overflow`]; `self` may then be partly
    /// merged (merge into a clone to keep the state).
    pub fn merge(&mut self, other: Output) -> Result<(), SweepError> {
        let mismatch = SweepError::KindMismatch {
            want: self.kind.into(),
            got: other.kind.into(),
        };
        if other.kind != self.kind {
            return Err(mismatch);
        }
        // By value: the other result is moved in, never cloned.
        self.inner
            .merge_from(other.inner.into_any())
            .map_err(|_| mismatch)?
            .map_err(|error| SweepError::Overflow {
                kind: self.kind.into(),
                shard: None,
                error,
            })
    }

    /// The stable encoding (JSON of the kind's typed result), for the store
    /// and the wire; read back with [`SweepKind::decode`].
    pub fn encode(&self) -> Vec<u8> {
        self.inner.encode()
    }

    /// The typed result, for code that knows the kind (tests, renderers).
    pub fn get<T: 'static>(&self, kind: &str) -> Result<&T, SweepError> {
        self.inner
            .as_any()
            .downcast_ref::<T>()
            .ok_or_else(|| SweepError::KindMismatch {
                want: kind.into(),
                got: self.kind.into(),
            })
    }

    /// The typed result, mutably.
    pub fn get_mut<T: 'static>(&mut self) -> Option<&mut T> {
        self.inner.as_any_mut().downcast_mut::<T>()
    }
}

impl Clone for Output {
    fn clone(&self) -> Self {
        Output {
            kind: self.kind,
            inner: self.inner.clone_box(),
        }
    }
}

impl Debug for Output {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Output[{}]({:?})", self.kind, self.inner)
    }
}

impl PartialEq for Output {
    /// Equal when of the same kind with the same encoding.
    fn eq(&self, other: &Self) -> bool {
        self.kind == other.kind && self.encode() == other.encode()
    }
}
impl Eq for Output {}

#[cfg(test)]
mod tests {
    use super::with_command;

    #[test]
    fn the_command_follows_the_title() {
        assert_eq!(
            with_command("# T\n\nBody.\n", "gamesweep run k --n 3"),
            "# T\n\nReproduce with `gamesweep run k --n 3`. Rendered from `results.json`; every number below is computed.\n\nBody.\n"
        );
        assert!(with_command("No title.\n", "c").starts_with("Reproduce with `c`."));
    }
}
