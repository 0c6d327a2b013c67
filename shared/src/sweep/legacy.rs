//! TRANSITIONAL: kinds not yet moved to typed results implement
//! [`UntypedKind`] (the old stringly-typed interface) and become a [`Kind`]
//! through the blanket impl here. Delete this file when no kind uses it.

use super::{Kind, Merge, ParamDef, Params, ShardCtx, ShardSpec, SweepError, SweepResult};
use std::cell::RefCell;

/// The old interface: string payloads, [`SweepResult`] maps, JSON values.
pub trait UntypedKind: Sync + Send + 'static {
    /// Name.
    fn name(&self) -> &'static str;
    /// About.
    fn about(&self) -> &'static str;
    /// Parameters.
    fn params(&self) -> &'static [ParamDef];
    /// Plan.
    fn plan(&self, params: &Params, target_shards: u32) -> Result<Vec<ShardSpec>, SweepError>;
    /// Run.
    fn run_shard(
        &self,
        params: &Params,
        shard: &ShardSpec,
        ctx: &ShardCtx<'_>,
    ) -> Result<SweepResult, SweepError>;
    /// Render.
    fn render(&self, params: &Params, merged: &SweepResult) -> LegacyRendered;
    /// Exports.
    fn exports(&self, _params: &Params, _rendered: &LegacyRendered) -> Vec<(String, String)> {
        Vec::new()
    }
}

/// The old rendered pair.
#[derive(Clone, Debug)]
pub struct LegacyRendered {
    /// JSON.
    pub results_json: serde_json::Value,
    /// Markdown.
    pub report_md: String,
}

impl Merge for SweepResult {
    fn merge(&mut self, other: Self) {
        SweepResult::merge(self, other)
    }
    fn work(&self) -> u64 {
        self.work
    }
    fn counterexamples(&self) -> Vec<(String, u64)> {
        self.records.iter().map(|(k, v)| (k.clone(), v.total)).collect()
    }
}

thread_local! {
    static LAST_MD: RefCell<String> = const { RefCell::new(String::new()) };
}

/// The old document: the JSON value, plus the Markdown rendered with it.
pub struct LegacyDoc {
    json: serde_json::Value,
    md: String,
}

impl serde::Serialize for LegacyDoc {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        LAST_MD.with(|m| *m.borrow_mut() = self.md.clone());
        self.json.serialize(s)
    }
}

impl<'de> serde::Deserialize<'de> for LegacyDoc {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let json = serde_json::Value::deserialize(d)?;
        let md = LAST_MD.with(|m| std::mem::take(&mut *m.borrow_mut()));
        Ok(LegacyDoc { json, md })
    }
}

/// The `source_file` of every untyped kind: in no version table, so they
/// all fall back to the whole-crate version.
pub const LEGACY_SOURCE: &str = "<untyped kind>";

impl<T: UntypedKind> Kind for T {
    type Params = Params;
    type Shard = String;
    type Output = SweepResult;
    type Doc = LegacyDoc;
    fn name(&self) -> &'static str {
        UntypedKind::name(self)
    }
    fn about(&self) -> &'static str {
        UntypedKind::about(self)
    }
    fn param_defs(&self) -> &'static [ParamDef] {
        UntypedKind::params(self)
    }
    /// Not a source file: untyped kinds get the whole-crate version
    /// (`{CRATE_VERSION}+{BUILD_ID}`, see [`crate::kind_version`]).
    fn source_file(&self) -> &'static str {
        LEGACY_SOURCE
    }
    fn plan(&self, params: &Params, target: u32) -> Result<Vec<(String, u64)>, SweepError> {
        Ok(UntypedKind::plan(self, params, target)?
            .into_iter()
            .map(|s| (s.payload, s.estimate))
            .collect())
    }
    fn run(&self, params: &Params, shard: &String, ctx: &ShardCtx<'_>) -> Result<SweepResult, SweepError> {
        let spec = ShardSpec {
            index: 0,
            payload: shard.clone(),
            estimate: 0,
        };
        self.run_shard(params, &spec, ctx)
    }
    fn doc(&self, params: &Params, merged: &SweepResult) -> LegacyDoc {
        let r = UntypedKind::render(self, params, merged);
        LegacyDoc {
            json: r.results_json,
            md: r.report_md,
        }
    }
    fn report(&self, _params: &Params, doc: &LegacyDoc) -> String {
        doc.md.clone()
    }
    fn exports(&self, params: &Params, doc: &LegacyDoc) -> Vec<(String, String)> {
        let r = LegacyRendered {
            results_json: doc.json.clone(),
            report_md: doc.md.clone(),
        };
        UntypedKind::exports(self, params, &r)
    }
}

/// Old-style resolve (tests of untyped kinds).
pub fn resolve_params<T: UntypedKind + ?Sized>(kind: &T, given: &Params) -> Result<Params, SweepError> {
    super::resolve(UntypedKind::name(kind), UntypedKind::params(kind), given)
}

/// Old-style sequential run (tests of untyped kinds).
pub fn run_all_sequential<T: UntypedKind + ?Sized>(
    kind: &T,
    params: &Params,
    plan: &[ShardSpec],
) -> Result<SweepResult, SweepError> {
    let mut merged = SweepResult::default();
    for shard in plan {
        merged.merge(kind.run_shard(params, shard, &ShardCtx::detached())?);
    }
    Ok(merged)
}

/// A plan from `(payload, estimate)` pairs, numbered `0..` in order.
pub fn numbered(shards: impl IntoIterator<Item = (String, u64)>) -> Vec<ShardSpec> {
    shards
        .into_iter()
        .enumerate()
        .map(|(i, (payload, estimate))| ShardSpec {
            index: i as u32,
            payload,
            estimate,
        })
        .collect()
}
