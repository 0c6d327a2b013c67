//! The `subtraction` sweep: every non-empty S ⊆ {1..M}, its outcome and
//! Grundy sequences' smallest preperiod and period (proved by the window
//! argument, see [`crate::gamegraph::subtraction`]).
//!
//! Sets are numbered by bitmask (bit k−1 ↔ element k), 1..2^M; shards are
//! ranges of masks. Per shard: one record per set (key `sets`), histogram
//! counters (`outcome/period=000003`, ...) and, per histogram entry, a record
//! set of the smallest sets attaining it, so the extremes and their sets come
//! out of the merge without knowing them in advance.

use crate::gamegraph::subtraction::{analyse, SubtractionAnalysis, SubtractionSet};
use crate::sweep::{
    param, ParamDef, Params, Record, LegacyRendered, ShardCtx, ShardSpec, SweepError, UntypedKind,
    SweepResult,
};
use serde_json::{json, Value};
use std::fmt::Write as _;

/// The `subtraction` sweep kind.
pub struct SubtractionSweep;

/// The instance registered in [`crate::sweep::registry`].
pub const SUBTRACTION: SubtractionSweep = SubtractionSweep;

const PARAMS: &[ParamDef] = &[ParamDef {
    name: "max_element",
    help: "sweep every non-empty subtraction set S of {1..M}",
    default: Some(12),
    min: 1,
    max: 20,
}];

/// Per-set records kept in results.json: complete for M ≤ 16.
pub const PER_SET_CAP: u64 = (1 << 16) - 1;

/// Sets kept per histogram entry (the smallest ones), so that the sets
/// attaining each extreme can be listed without knowing the extremes in advance.
pub const EXTREME_CAP: u64 = 10;

/// Shards when the runtime gives no hint.
const DEFAULT_SHARDS: u64 = 64;

/// The histogrammed quantities: (counter/record-set prefix, JSON name, heading).
const QUANTITIES: [(&str, &str, &str); 5] = [
    ("outcome/period", "outcome_period", "outcome period"),
    (
        "outcome/preperiod",
        "outcome_preperiod",
        "outcome preperiod",
    ),
    ("grundy/period", "grundy_period", "Grundy period"),
    ("grundy/preperiod", "grundy_preperiod", "Grundy preperiod"),
    ("grundy/max", "max_grundy", "largest Grundy value"),
];

const CHECK_DIVIDES: &str = "check/outcome_period_not_dividing_grundy_period";
const CHECK_PREPERIOD: &str = "check/outcome_preperiod_above_grundy_preperiod";

fn bad_shard(reason: impl Into<String>) -> SweepError {
    SweepError::BadShard {
        kind: "subtraction".into(),
        reason: reason.into(),
    }
}

fn parse_payload(payload: &str, limit: u64) -> Result<(u64, u64), SweepError> {
    let range = payload
        .strip_prefix("masks ")
        .ok_or_else(|| bad_shard(format!("expected `masks LO..HI`, got `{payload}`")))?;
    let (lo, hi) = range
        .split_once("..")
        .ok_or_else(|| bad_shard(format!("expected `LO..HI`, got `{range}`")))?;
    let num = |s: &str| {
        s.parse::<u64>()
            .map_err(|_| bad_shard(format!("`{s}` is not a number")))
    };
    let (lo, hi) = (num(lo)?, num(hi)?);
    if lo == 0 || lo >= hi || hi > limit {
        return Err(bad_shard(format!(
            "mask range {lo}..{hi} is not inside 1..{limit}"
        )));
    }
    Ok((lo, hi))
}

fn set_record(mask: u64, a: &SubtractionAnalysis) -> Record {
    let e = a.set.elements();
    Record {
        vertices: a.set.max_element() as u32,
        edges: e.len() as u32,
        code: a.set.to_string_braced(),
        index: mask,
        detail: format!(
            "outcome: preperiod {} period {}; Grundy: preperiod {} period {}",
            a.outcome.preperiod, a.outcome.period, a.grundy.preperiod, a.grundy.period
        ),
        // machine-readable for render: the QUANTITIES values in order
        note: quantity_values(a)
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(" "),
    }
}

fn quantity_values(a: &SubtractionAnalysis) -> [u64; 5] {
    [
        a.outcome.period as u64,
        a.outcome.preperiod as u64,
        a.grundy.period as u64,
        a.grundy.preperiod as u64,
        a.max_grundy as u64,
    ]
}

impl UntypedKind for SubtractionSweep {
    fn name(&self) -> &'static str {
        "subtraction"
    }

    fn about(&self) -> &'static str {
        "subtraction games S ⊆ {1..M}: proven preperiod and period of the outcome and Grundy sequences"
    }

    fn params(&self) -> &'static [ParamDef] {
        PARAMS
    }

    fn plan(&self, params: &Params, target_shards: u32) -> Result<Vec<ShardSpec>, SweepError> {
        let m = param(params, "max_element");
        let sets = (1u64 << m) - 1;
        let k = if target_shards == 0 {
            DEFAULT_SHARDS
        } else {
            target_shards as u64
        }
        .min(sets);
        Ok((0..k)
            .map(|i| {
                let lo = 1 + i * sets / k;
                let hi = 1 + (i + 1) * sets / k;
                ShardSpec {
                    index: i as u32,
                    payload: format!("masks {lo}..{hi}"),
                    estimate: hi - lo,
                }
            })
            .collect())
    }

    fn run_shard(
        &self,
        params: &Params,
        shard: &ShardSpec,
        ctx: &ShardCtx<'_>,
    ) -> Result<SweepResult, SweepError> {
        let m = param(params, "max_element");
        let (lo, hi) = parse_payload(&shard.payload, 1 << m)?;
        let mut r = SweepResult::default();
        for mask in lo..hi {
            if mask % 256 == 0 {
                ctx.check()?;
            }
            let set = SubtractionSet::from_mask(mask).map_err(|e| bad_shard(e.to_string()))?;
            let a = analyse(&set);
            let rec = set_record(mask, &a);
            r.count("sets", 1);
            for ((prefix, _, _), value) in QUANTITIES.iter().zip(quantity_values(&a)) {
                let key = format!("{prefix}={value:06}");
                r.count(key.clone(), 1);
                r.record(key, EXTREME_CAP, rec.clone());
            }
            // `is_multiple_of` would need Rust 1.87; the workspace supports 1.80
            #[allow(clippy::manual_is_multiple_of)]
            if a.grundy.period % a.outcome.period != 0 {
                r.count(CHECK_DIVIDES, 1);
            }
            if a.outcome.preperiod > a.grundy.preperiod {
                r.count(CHECK_PREPERIOD, 1);
            }
            r.record("sets", PER_SET_CAP, rec);
            r.work += 1;
            ctx.add_progress(1);
        }
        Ok(r)
    }

    fn render(&self, params: &Params, merged: &SweepResult) -> LegacyRendered {
        let m = param(params, "max_element");
        let results_json = results_json(m, merged);
        let report_md = report_md(&results_json);
        LegacyRendered {
            results_json,
            report_md,
        }
    }
}

fn elements_of(mask: u64) -> Vec<u64> {
    (0..64)
        .filter(|b| mask >> b & 1 == 1)
        .map(|b| b + 1)
        .collect()
}

/// Histogram of one quantity: `[[value, sets], ...]` ascending.
fn histogram(merged: &SweepResult, prefix: &str) -> Vec<(u64, u64)> {
    let start = format!("{prefix}=");
    merged
        .counters
        .range(start.clone()..)
        .take_while(|(k, _)| k.starts_with(&start))
        .filter_map(|(k, &c)| Some((k[start.len()..].parse().ok()?, c)))
        .collect()
}

/// The QUANTITIES values stored in a per-set record's note.
fn note_values(r: &Record) -> Option<[u64; 5]> {
    let nums: Vec<u64> = r
        .note
        .split(' ')
        .map(|x| x.parse().ok())
        .collect::<Option<_>>()?;
    nums.try_into().ok()
}

/// One set as an object (the extremes).
fn set_entry(r: &Record) -> Value {
    match note_values(r) {
        Some([o_per, o_pre, g_per, g_pre, g_max]) => json!({
            "set": elements_of(r.index),
            "outcome": { "preperiod": o_pre, "period": o_per },
            "grundy": { "preperiod": g_pre, "period": g_per },
            "max_grundy": g_max,
        }),
        None => json!({ "set": elements_of(r.index), "unreadable_note": r.note }),
    }
}

/// Layout of the compact per-set rows (one line each in results.json).
const PER_SET_FORMAT: &str =
    "{S}: outcome PREPERIOD+PERIOD, grundy PREPERIOD+PERIOD, max LARGEST_GRUNDY_VALUE";

/// One set as a compact row, see [`PER_SET_FORMAT`].
fn set_row(r: &Record) -> String {
    match note_values(r) {
        Some([o_per, o_pre, g_per, g_pre, g_max]) => format!(
            "{}: outcome {o_pre}+{o_per}, grundy {g_pre}+{g_per}, max {g_max}",
            r.code
        ),
        None => format!("{}: unreadable record `{}`", r.code, r.note),
    }
}

fn results_json(m: u64, merged: &SweepResult) -> Value {
    let sets = merged.counter("sets");
    let mut hist = serde_json::Map::new();
    let mut extremes = serde_json::Map::new();
    let per_set_records = merged.records.get("sets");
    let complete = per_set_records.is_some_and(|s| s.total == s.kept.len() as u64);
    for (prefix, name, _) in QUANTITIES {
        let h = histogram(merged, prefix);
        hist.insert(
            name.into(),
            json!(h.iter().map(|&(v, c)| [v, c]).collect::<Vec<_>>()),
        );
        if let Some(&(value, count)) = h.last() {
            let key = format!("{prefix}={value:06}");
            let kept: Vec<&Record> = merged
                .records
                .get(&key)
                .map(|s| s.kept.iter().collect())
                .unwrap_or_default();
            let e = json!({
                "value": value,
                "sets": count,
                "smallest_set": kept.first().map(|r| set_entry(r)),
                // the smallest ones by (max element, size, elements)
                "listed_sets": kept.iter().map(|r| elements_of(r.index)).collect::<Vec<_>>(),
            });
            extremes.insert(format!("largest_{name}"), e);
        }
    }
    let mut per_set: Vec<&Record> = per_set_records
        .map(|s| s.kept.iter().collect())
        .unwrap_or_default();
    per_set.sort_by_key(|r| r.index);
    json!({
        "kind": "subtraction",
        "params": { "max_element": m },
        "sets": sets,
        "expected_sets": (1u64 << m) - 1,
        "checks": {
            "outcome_period_not_dividing_grundy_period": merged.counter(CHECK_DIVIDES),
            "outcome_preperiod_above_grundy_preperiod": merged.counter(CHECK_PREPERIOD),
        },
        "histograms": hist,
        "extremes": extremes,
        "per_set_complete": complete,
        "per_set_format": PER_SET_FORMAT,
        "per_set": per_set.into_iter().map(set_row).collect::<Vec<_>>(),
    })
}

fn fmt_set(v: &Value) -> String {
    let e: Vec<String> = v
        .as_array()
        .map(|a| a.iter().map(|x| x.to_string()).collect())
        .unwrap_or_default();
    format!("{{{}}}", e.join(","))
}

fn report_md(j: &Value) -> String {
    let mut s = String::new();
    let m = &j["params"]["max_element"];
    let _ = writeln!(s, "# Subtraction games: every non-empty S ⊆ {{1..{m}}}\n");
    let _ = writeln!(
        s,
        "A heap of n counters; a move removes s ∈ S counters (s ≤ n); normal play. For each S the \
         outcome (P/N) and Grundy sequences are computed until a window of max(S) consecutive \
         values repeats; from then on the sequence is periodic (every value is a function of the \
         previous max(S) values), which proves the period. Reported: the smallest preperiod and \
         the smallest period.\n"
    );
    let _ = writeln!(
        s,
        "- sets analysed: {} (expected 2^{m} − 1 = {})",
        j["sets"], j["expected_sets"]
    );
    let _ = writeln!(
        s,
        "- consistency (outcome = [Grundy = 0], so its period divides the Grundy period and its \
         preperiod is not longer): {} sets where the outcome period does not divide the Grundy \
         period, {} where the outcome preperiod is longer",
        j["checks"]["outcome_period_not_dividing_grundy_period"],
        j["checks"]["outcome_preperiod_above_grundy_preperiod"]
    );
    let _ = writeln!(
        s,
        "- per-set table in results.json: {}\n",
        if j["per_set_complete"] == json!(true) {
            "complete"
        } else {
            "partial (the smallest sets by (max, size, elements))"
        }
    );
    if let Some(row) = j["per_set"].as_array().and_then(|a| {
        a.iter()
            .filter_map(Value::as_str)
            .find(|r| r.starts_with("{2,4,7}:"))
    }) {
        let _ = writeln!(s, "Course example: `{row}` (preperiod+period).\n");
    }
    let _ = writeln!(s, "## Extremes\n");
    let _ = writeln!(s, "| quantity | largest value | sets attaining it | smallest such set (outcome pre/per, Grundy pre/per) |");
    let _ = writeln!(s, "|---|---:|---:|---|");
    for (_, name, heading) in QUANTITIES {
        let e = &j["extremes"][format!("largest_{name}")];
        if e.is_null() {
            continue;
        }
        let w = &e["smallest_set"];
        let _ = writeln!(
            s,
            "| {heading} | {} | {} | {} ({}/{}, {}/{}) |",
            e["value"],
            e["sets"],
            fmt_set(&w["set"]),
            w["outcome"]["preperiod"],
            w["outcome"]["period"],
            w["grundy"]["preperiod"],
            w["grundy"]["period"]
        );
    }
    let _ = writeln!(s);
    for (_, name, heading) in QUANTITIES.iter().take(4) {
        let e = &j["extremes"][format!("largest_{name}")];
        if let Some(all) = e["listed_sets"].as_array() {
            let sets: Vec<String> = all.iter().map(fmt_set).collect();
            let more = e["sets"]
                .as_u64()
                .unwrap_or(0)
                .saturating_sub(all.len() as u64);
            let more = if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            };
            let _ = writeln!(
                s,
                "Sets with the largest {heading}: {}{more}",
                sets.join(", ")
            );
        }
    }
    let _ = writeln!(s);
    for (title, a, b) in [
        ("Periods", "outcome_period", "grundy_period"),
        ("Preperiods", "outcome_preperiod", "grundy_preperiod"),
    ] {
        let _ = writeln!(s, "## {title}: number of sets\n");
        let _ = writeln!(s, "| value | outcome sequence | Grundy sequence |");
        let _ = writeln!(s, "|---:|---:|---:|");
        let get = |name: &str| -> Vec<(u64, u64)> {
            j["histograms"][name]
                .as_array()
                .map(|h| {
                    h.iter()
                        .filter_map(|p| Some((p[0].as_u64()?, p[1].as_u64()?)))
                        .collect()
                })
                .unwrap_or_default()
        };
        let (ha, hb) = (get(a), get(b));
        let mut values: Vec<u64> = ha.iter().chain(hb.iter()).map(|p| p.0).collect();
        values.sort_unstable();
        values.dedup();
        for v in values {
            let find = |h: &[(u64, u64)]| h.iter().find(|p| p.0 == v).map_or(0, |p| p.1);
            let _ = writeln!(s, "| {v} | {} | {} |", find(&ha), find(&hb));
        }
        let _ = writeln!(s);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::legacy::{resolve_params, run_all_sequential};

    fn run(m: u64, shards: u32) -> (SweepResult, LegacyRendered) {
        let kind = &SUBTRACTION;
        let params = resolve_params(kind, &[("max_element".to_string(), m)].into()).unwrap();
        let plan = kind.plan(&params, shards).unwrap();
        let merged = run_all_sequential(kind, &params, &plan).unwrap();
        let rendered = kind.render(&params, &merged);
        (merged, rendered)
    }

    /// Parse a compact row back: (elements, [o_pre, o_per, g_pre, g_per, max]).
    fn parse_row(row: &Value) -> (Vec<u32>, Vec<u64>) {
        let row = row.as_str().unwrap();
        let (set, rest) = row.split_once(": ").unwrap();
        let elems = set
            .trim_matches(|c| c == '{' || c == '}')
            .split(',')
            .map(|x| x.parse().unwrap())
            .collect();
        let nums = rest
            .split(|c: char| !c.is_ascii_digit())
            .filter(|x| !x.is_empty())
            .map(|x| x.parse().unwrap())
            .collect();
        (elems, nums)
    }

    /// The headline: M = 12, all 4,095 sets, deterministic across plans.
    #[test]
    fn m12_all_sets_deterministic() {
        let (merged, r) = run(12, 0);
        assert_eq!(merged.counter("sets"), 4095);
        assert_eq!(merged.work, 4095);
        let j = &r.results_json;
        assert_eq!(j["per_set_complete"], json!(true));
        let rows = j["per_set"].as_array().unwrap();
        assert_eq!(rows.len(), 4095);
        assert_eq!(j["checks"]["outcome_period_not_dividing_grundy_period"], 0);
        assert_eq!(j["checks"]["outcome_preperiod_above_grundy_preperiod"], 0);
        let row = rows.iter().find(|r| parse_row(r).0 == [2, 4, 7]).unwrap();
        assert_eq!(parse_row(row).1[..2], [4, 3], "{row}");
        // histograms count every set once
        for (_, name, _) in QUANTITIES {
            let total: u64 = j["histograms"][name]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p[1].as_u64().unwrap())
                .sum();
            assert_eq!(total, 4095, "{name}");
        }
        // rows agree with a direct analysis (independent of records and merge)
        for row in rows.iter().step_by(37) {
            let (e, nums) = parse_row(row);
            let a = analyse(&SubtractionSet::new(&e).unwrap());
            let direct = [
                a.outcome.preperiod as u64,
                a.outcome.period as u64,
                a.grundy.preperiod as u64,
                a.grundy.period as u64,
                a.max_grundy as u64,
            ];
            assert_eq!(nums, direct, "{row}");
        }
        // the extremes agree with the rows
        for (k, (_, name, _)) in QUANTITIES.iter().enumerate() {
            let col = [1, 0, 3, 2, 4][k];
            let max = rows.iter().map(|r| parse_row(r).1[col]).max().unwrap();
            let e = &j["extremes"][format!("largest_{name}")];
            assert_eq!(e["value"], max, "{name}");
            let n = rows.iter().filter(|r| parse_row(r).1[col] == max).count();
            assert_eq!(e["sets"], n as u64, "{name}");
            assert_eq!(
                e["listed_sets"].as_array().unwrap().len(),
                n.min(10),
                "{name}"
            );
        }
        // another shard plan gives byte-identical output
        let (merged7, r7) = run(12, 7);
        assert_eq!(merged7, merged);
        assert_eq!(
            serde_json::to_string(&r7.results_json).unwrap(),
            serde_json::to_string(&r.results_json).unwrap()
        );
        assert_eq!(r7.report_md, r.report_md);
        assert!(r.report_md.contains("{2,4,7}: outcome 4+3"));
    }

    /// M = 3 by hand: the 7 sets and their outcome periods.
    /// {1}: PNPN… period 2; {2}: PPNN period 4; {1,2}: PNN period 3;
    /// {3}: PPPNNN period 6; {1,3}: PN period 2; {2,3}: PPNNN period 5;
    /// {1,2,3}: PNNN period 4.
    #[test]
    fn m3_by_hand() {
        let (_, r) = run(3, 3);
        let periods: Vec<(Vec<u32>, u64)> = r.results_json["per_set"]
            .as_array()
            .unwrap()
            .iter()
            .map(|row| {
                let (e, nums) = parse_row(row);
                (e, nums[1])
            })
            .collect();
        assert_eq!(
            periods,
            vec![
                (vec![1], 2),
                (vec![2], 4),
                (vec![1, 2], 3),
                (vec![3], 6),
                (vec![1, 3], 2),
                (vec![2, 3], 5),
                (vec![1, 2, 3], 4)
            ]
        );
        let e = &r.results_json["extremes"]["largest_outcome_period"];
        assert_eq!(e["value"], 6);
        assert_eq!(e["smallest_set"]["set"], json!([3]));
    }

    #[test]
    fn bad_payloads_are_errors() {
        let params =
            resolve_params(&SUBTRACTION, &[("max_element".to_string(), 4)].into()).unwrap();
        for payload in [
            "",
            "masks 0..3",
            "masks 3..3",
            "masks 1..17",
            "masks a..b",
            "masks 5",
        ] {
            let shard = ShardSpec {
                index: 0,
                payload: payload.into(),
                estimate: 0,
            };
            assert!(matches!(
                SUBTRACTION.run_shard(&params, &shard, &ShardCtx::detached()),
                Err(SweepError::BadShard { .. })
            ));
        }
        assert!(resolve_params(&SUBTRACTION, &[("max_element".to_string(), 21)].into()).is_err());
    }
}
