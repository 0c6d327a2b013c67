//! Re-runs of a sweep's shards elsewhere: `gamesweep verify FILE --sample F
//! --record DIR` re-runs a seeded sample of an export file's finished
//! shards on the machine it runs on and, with `--record`, adds what it
//! found to `DIR/verified.json`. The report written into `DIR` states every
//! record in its Verification section: when, on what machine, by which
//! solver build, how many shards, how many matched. A record of another
//! sweep (another kind or other parameters than `DIR/results.json`'s) is
//! refused, not stated.

use crate::error::ReportError;
use gamesweep::sweep::thousands;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The records' file in a report's folder.
pub const FILE: &str = "verified.json";

/// What one `verify --record` found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rerun {
    /// When it finished (UTC, `2026-12-06T03:40:00Z`).
    pub date: String,
    /// The machine that re-ran the shards, as it reads itself (CPU model
    /// and logical cores).
    pub machine: String,
    /// The gamesweep build that re-ran them.
    pub build: String,
    /// The kind's solver version that re-ran them.
    pub solver: String,
    /// The export file's name (its folder is not recorded).
    pub file: String,
    /// The export file's SHA-256 (hex).
    pub file_sha256: String,
    /// The key that signed it (`""`: unsigned).
    pub signer: String,
    /// A key named by `--trust-key` signed it.
    pub trusted: bool,
    /// The sweep's id in the file.
    pub sweep_id: String,
    /// The sweep's kind.
    pub kind: String,
    /// The sweep's parameters, resolved.
    pub params: gamesweep::sweep::Params,
    /// Finished shards in the file.
    pub finished: u64,
    /// The share asked for, in millionths of the finished shards.
    pub sample_ppm: u32,
    /// The seed of the choice of shards (`verify --seed`): the same file,
    /// share and seed choose the same shards.
    pub seed: u64,
    /// Shards re-run.
    pub rerun: u64,
    /// The re-run shards whose recomputed result differs from the file's.
    pub mismatched: Vec<u32>,
    /// Threads the re-runs used.
    pub threads: u64,
    /// Wall time, in seconds.
    pub seconds: f64,
}

impl Rerun {
    /// One item of the Verification section.
    pub fn line_md(&self) -> String {
        let matched = self.rerun - self.mismatched.len() as u64;
        let verdict = if self.mismatched.is_empty() {
            format!("**{} matched**, none differed", thousands(matched))
        } else {
            let shards: Vec<String> = self.mismatched.iter().map(u32::to_string).collect();
            format!(
                "{} matched, **{} differed** (shards {})",
                thousands(matched),
                thousands(self.mismatched.len() as u64),
                shards.join(", ")
            )
        };
        let signed = match (self.signer.as_str(), self.trusted) {
            ("", _) => "unsigned".to_string(),
            (k, true) => format!("signed by trusted key `{k}`"),
            (k, false) => format!("signed by key `{k}`, not named trusted"),
        };
        format!(
            "- {}, on {}: `gamesweep verify` (build {}, solver `{}`) re-ran {} of the {} finished shards of an export of this sweep (`{}`, SHA-256 `{}`, {signed}; a seeded sample of {} %, seed {}) in {:.0} s on {}: {verdict}.\n",
            self.date,
            gamesweep_api::text::escape(&self.machine),
            gamesweep_api::text::escape(&self.build),
            gamesweep_api::text::escape(&self.solver),
            thousands(self.rerun),
            thousands(self.finished),
            gamesweep_api::text::escape(&self.file),
            gamesweep_api::text::escape(&self.file_sha256),
            f64::from(self.sample_ppm) / 1e4,
            self.seed,
            self.seconds,
            if self.threads == 1 {
                "1 thread".to_string()
            } else {
                format!("{} threads", self.threads)
            },
        )
    }
}

/// The records in `dir` (none: no file).
pub fn read(dir: &Path) -> Result<Vec<Rerun>, ReportError> {
    let path = dir.join(FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(ReportError::io("reading", &path, e)),
    };
    serde_json::from_str(&text).map_err(|e| ReportError::Reruns {
        path,
        why: e.to_string(),
    })
}

/// Adds `r` to the records in `dir` (created if missing).
pub fn append(dir: &Path, r: Rerun) -> Result<(), ReportError> {
    let mut all = read(dir)?;
    all.push(r);
    write_all(dir, &all)
}

/// Makes `all` the records in `dir` (created if missing); the file is
/// replaced whole (written beside it, then renamed over it).
pub fn write_all(dir: &Path, all: &[Rerun]) -> Result<(), ReportError> {
    std::fs::create_dir_all(dir).map_err(|e| ReportError::io("creating", dir, e))?;
    let path = dir.join(FILE);
    let tmp = dir.join(format!(".{FILE}.tmp"));
    let mut text = serde_json::to_string_pretty(all).expect("records serialize");
    text.push('\n');
    std::fs::write(&tmp, text).map_err(|e| ReportError::io("writing", &tmp, e))?;
    std::fs::rename(&tmp, &path).map_err(|e| ReportError::io("writing", &path, e))
}

/// Is `results_json` (a `results.json` text) of a `kind` sweep with
/// `params`? Both sides' parameters are resolved by the kind (defaults
/// filled in), as `results.json` leaves some out.
pub fn of_sweep(results_json: &str, kind: &str, params: &gamesweep::sweep::Params) -> bool {
    #[derive(Deserialize)]
    struct Named {
        kind: String,
        params: gamesweep::sweep::Params,
    }
    let Ok(doc) = serde_json::from_str::<Named>(results_json) else {
        return false;
    };
    let Ok(k) = gamesweep::kinds::find(kind) else {
        return false;
    };
    doc.kind == kind
        && matches!(
            (k.resolve_params(&doc.params), k.resolve_params(params)),
            (Ok(a), Ok(b)) if a == b
        )
}

/// The records in `dir` are of the sweep `results_json` describes: the
/// same kind and parameters. An error names the first that is not.
pub fn check(dir: &Path, records: &[Rerun], results_json: &str) -> Result<(), ReportError> {
    for (i, r) in records.iter().enumerate() {
        if !of_sweep(results_json, &r.kind, &r.params) {
            return Err(ReportError::Reruns {
                path: dir.join(FILE),
                why: format!(
                    "record {} is of a `{}` sweep with parameters {}, not of the sweep in results.json",
                    i + 1,
                    r.kind,
                    serde_json::to_string(&r.params).expect("parameters serialize")
                ),
            });
        }
    }
    Ok(())
}

/// The Verification section's paragraph on the records (empty: none).
pub fn section_md(records: &[Rerun]) -> String {
    if records.is_empty() {
        return String::new();
    }
    let mut md = format!(
        "\nRe-run elsewhere (`{FILE}`: each a seeded sample of an export of this sweep's results, run again from its definition by `gamesweep verify --record`, every recomputed shard result compared byte for byte with the exported one):\n\n"
    );
    for r in records {
        md.push_str(&r.line_md());
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record() -> Rerun {
        Rerun {
            date: "2026-12-06T03:40:00Z".into(),
            machine: "Intel(R) Xeon(R) Processor, 2 logical cores".into(),
            build: "0.1.0".into(),
            solver: "0.1.0+abc".into(),
            file: "uvg.gsx".into(),
            file_sha256: "00ff".into(),
            signer: "sha256:91d6".into(),
            trusted: false,
            sweep_id: "run".into(),
            kind: "uvg".into(),
            params: [("max_n".to_string(), 5)].into(),
            finished: 65_536,
            sample_ppm: 10_000,
            seed: 7,
            rerun: 656,
            mismatched: vec![],
            threads: 2,
            seconds: 351.0,
        }
    }

    #[test]
    fn a_record_is_stated_with_its_figures() {
        let md = section_md(&[record()]);
        assert!(
            md.contains("re-ran 656 of the 65,536 finished shards"),
            "{md}"
        );
        assert!(md.contains("a seeded sample of 1 %, seed 7"), "{md}");
        assert!(md.contains("**656 matched**, none differed"), "{md}");
        assert!(
            md.contains("signed by key `sha256:91d6`, not named trusted"),
            "{md}"
        );
        let mut bad = record();
        bad.mismatched = vec![12, 40];
        let md = section_md(&[bad]);
        assert!(
            md.contains("654 matched, **2 differed** (shards 12, 40)"),
            "{md}"
        );
        assert_eq!(section_md(&[]), "");
    }

    #[test]
    fn records_are_appended_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(read(dir.path()).unwrap(), vec![]);
        append(dir.path(), record()).unwrap();
        let mut second = record();
        second.seed = 8;
        append(dir.path(), second.clone()).unwrap();
        assert_eq!(read(dir.path()).unwrap(), vec![record(), second]);
    }

    #[test]
    fn a_record_of_another_sweep_or_a_damaged_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        // results.json leaves out parameters at their defaults.
        let results = r#"{"kind": "uvg", "params": {"collect_min_value": 0, "max_n": 5}}"#;
        check(dir.path(), &[record()], results).unwrap();
        assert!(!of_sweep(results, "col", &record().params));
        let mut other = record();
        other.params = [("max_n".to_string(), 6)].into();
        let e = check(dir.path(), &[record(), other], results)
            .unwrap_err()
            .to_string();
        assert!(e.contains("verified.json") && e.contains("record 2"), "{e}");
        std::fs::write(dir.path().join(FILE), "[{\"date\": 1}]").unwrap();
        let e = read(dir.path()).unwrap_err().to_string();
        assert!(e.contains("verified.json"), "{e}");
    }
}
