//! The files a sweep leaves in its output folder, written in one place:
//! `results.json` (exact text: pretty, sorted keys, newline-terminated, so a
//! report fetched from a coordinator is byte-identical to one written by
//! `gamesweep run`), `report.md`, the kind's exports, and a sample's
//! `projection.json` / `projection.md`.

use crate::error::ReportError;
use crate::figures;
use gamesweep::sweep::{thousands, Rendered};
use gamesweep_api::domain::ProjectionText;
use gamesweep_engine::core::Provenance;
use std::path::Path;

/// `results.json`-style text of a JSON value (pretty, sorted keys, final newline).
pub fn results_json_text(v: &serde_json::Value) -> String {
    let mut json = serde_json::to_string_pretty(v).expect("JSON values serialize");
    json.push('\n');
    json
}

/// The heading of the section on how the shards were confirmed, which the
/// report step appends to the kind's `report.md` (before the figures).
pub const VERIFICATION_HEADING: &str = "\n## Verification\n";

/// How the result in a report was confirmed, for its Verification section.
#[derive(Clone, Debug)]
pub enum Verification {
    /// As the coordinator recorded it (`provenance.json`).
    Recorded(Box<Provenance>),
    /// Nothing recorded (no `provenance.json`).
    Unrecorded,
}

impl Verification {
    /// From the provenance the coordinator sent (`None`: it sent none).
    pub fn of(provenance: Option<&Provenance>) -> Self {
        provenance.map_or(Verification::Unrecorded, |p| {
            Verification::Recorded(Box::new(p.clone()))
        })
    }

    /// From the `provenance.json` in `dir`: none there is nothing recorded;
    /// one that cannot be read or is not a provenance is an error.
    pub fn of_dir(dir: &Path) -> Result<Self, ReportError> {
        let path = dir.join("provenance.json");
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Verification::Unrecorded)
            }
            Err(e) => return Err(ReportError::io("reading", &path, e)),
        };
        Provenance::from_json(&text)
            .map(|p| Verification::Recorded(Box::new(p)))
            .map_err(|source| ReportError::Provenance { path, source })
    }

    /// The Verification section of `report.md`.
    pub fn section_md(&self) -> String {
        let mut md = format!("{VERIFICATION_HEADING}\n");
        let p = match self {
            Verification::Unrecorded => {
                md.push_str("Not recorded: there is no `provenance.json` beside this report, so how its shards were confirmed is unknown.\n");
                return md;
            }
            Verification::Recorded(p) => p,
        };
        let c = &p.confirmation;
        if c.statement.is_empty() {
            md.push_str(&format!(
                "Not independently verified as this build counts it: `provenance.json` was written before identities were bound to credentials, so its {} contributors are worker ids the workers chose themselves, and no shard counts as confirmed by two identities.\n",
                p.contributors.len()
            ));
        } else {
            let mut chars = c.statement.chars();
            let first: String = chars
                .next()
                .into_iter()
                .flat_map(char::to_uppercase)
                .collect();
            md.push_str(&format!(
                "{first}{}.\n",
                chars.as_str().trim_end_matches('.')
            ));
            md.push_str("\n| shards | count |\n|---|---:|\n");
            for (what, n) in [
                ("confirmed by two identities", c.confirmed_by_two_identities),
                (
                    "resting on one issued identity",
                    c.rest_on_one_issued_identity,
                ),
                ("resting on a shared token", c.rest_on_a_shared_token),
                (
                    "the most one identity, faulty or lying, could have changed unnoticed",
                    c.most_one_identity_could_change,
                ),
            ] {
                md.push_str(&format!("| {what} | {} |\n", thousands(n.into())));
            }
            md.push_str(&alone_md(p));
        }
        md.push_str(&format!("\n{}\n", replication_line(p)));
        for (who, r) in &p.rechecked_after_a_lie {
            md.push_str(&format!(
                "\nRe-verified after a caught lie: `{}` gave a wrong result (in this sweep or another), so every result it gave was run again by other identities: {} here, {} confirmed, {} replaced by the others' result, {} unverifiable (no other identity could run {}).\n",
                gamesweep_api::text::escape(who),
                gamesweep::sweep::report::plural(r.shards.into(), "shard"),
                thousands(r.verified.into()),
                thousands(r.replaced.into()),
                thousands(r.unverifiable.into()),
                if r.unverifiable == 1 { "it" } else { "them" }
            ));
        }
        if let Some(line) = solvers_line(p) {
            md.push_str(&format!("\n{line}\n"));
        }
        if p.recounted > 0 {
            md.push_str(&format!(
                "\nThe coordinator recounted {} submitted results (the kind's cheap truths per shard, e.g. a uvg shard's graphs counted again); {} disagreed and were refused.\n",
                thousands(p.recounted),
                thousands(p.recounts_refused)
            ));
        }
        if !p.results_invalid_by.is_empty() {
            let by: Vec<String> = p
                .results_invalid_by
                .iter()
                .map(|(w, n)| format!("`{}` {n}", gamesweep_api::text::escape(w)))
                .collect();
            md.push_str(&format!(
                "\nResults refused as invalid, by identity: {}.\n",
                by.join(", ")
            ));
        }
        if !p.checks.is_empty() {
            md.push_str("\nChecks of the merged result:\n\n");
            for c in &p.checks {
                let verdict = if c.ok { "passed" } else { "**FAILED**" };
                md.push_str(&format!("- {}: {verdict} ({})\n", c.check, c.detail));
            }
        }
        md
    }
}

/// Per issued identity, the shards and the rows of the tables resting on
/// it alone, and what the spot checks after probation bound (nothing for a
/// run whose shards rest on no issued identity, e.g. a local `run`).
fn alone_md(p: &Provenance) -> String {
    use gamesweep_engine::core::replication::{unnoticed, SPOT_LIES, SPOT_PPM, TRUST_AFTER};
    let c = &p.confirmation;
    if !c.resting_alone.keys().any(|w| w.starts_with('@')) {
        return String::new();
    }
    let mut md = String::from(
        "\n| identity | shards resting on it alone | rows it alone could have changed |\n|---|---:|---|\n",
    );
    let mut each: Vec<(&String, &u32)> = c.resting_alone.iter().collect();
    each.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    for (who, n) in each {
        let rows = match c.rows_alone.get(who) {
            Some(Some([lo, hi])) if lo == hi => format!("n = {lo}, every column"),
            Some(Some([lo, hi])) => format!("n = {lo} to {hi}, every column"),
            _ => "any".to_string(),
        };
        md.push_str(&format!(
            "| `{}` | {} | {rows} |\n",
            gamesweep_api::text::escape(who),
            thousands((*n).into())
        ));
    }
    if p.verify_ppm > 0 {
        md.push_str(&format!(
            "\nEach identity's results were all run again by another until it had agreed {TRUST_AFTER} times; after that, {:.1} % of them, drawn by a key no worker knows: an identity that lied in {SPOT_LIES} shards went unnoticed with probability {:.2} % at most, and one lie caught had every result of that identity run again.\n",
            f64::from(SPOT_PPM) / 1e4,
            100.0 * unnoticed(SPOT_PPM, SPOT_LIES)
        ));
    }
    md
}

/// One line on the solver builds that computed the shards, when more than
/// one did (the sweep's solver changed while it ran).
pub fn solvers_line(p: &Provenance) -> Option<String> {
    if p.solvers.len() < 2 {
        return None;
    }
    let each: Vec<String> = p
        .solvers
        .iter()
        .map(|s| {
            format!(
                "`{}` computed {} ({})",
                gamesweep_api::text::escape(&s.version),
                if s.shards == 1 {
                    "1 shard".to_string()
                } else {
                    format!("{} shards", thousands(s.shards))
                },
                s.ranges
            )
        })
        .collect();
    Some(format!(
        "Solver builds: the sweep's solver changed while it ran (`run --accept-solver-change`); {}. Every result was validated by the build that accepted it; `provenance.json` (`solvers`) lists the shards of each build.",
        each.join("; ")
    ))
}

/// One line on the replicated validation a provenance records: the seeded
/// sample, then the outcomes of every shard run again by a second identity
/// (more than the sample: new identities' results, unsigned imports and
/// rechecks are run again too). A share of 0 is said to be `run`'s
/// default (a local `run` is given no `--replicate-fraction`), and what was
/// run again besides the sample is listed, so that "45 selected, 0
/// rechecked: 41 verified" does not read as verified without a recheck.
pub fn replication_line(p: &Provenance) -> String {
    if p.verify_ppm == 0 && p.shards_rechecked == 0 && p.shards_selected == 0 {
        return "Replicated validation: none (a replication share of 0, `gamesweep run`'s default or `launch --replicate-fraction 0`: no shard was run again by a second identity).".into();
    }
    format!(
        "Replicated validation: {} of {} shards in the seeded sample ({} %); shards run again by a second identity (the sample's, results of identities not yet trusted, unsigned imports{}): {} verified, {} mismatched ({} replaced by the majority), {} unverifiable (no other identity).",
        thousands(p.shards_selected.into()),
        thousands(p.shards_total.into()),
        p.verify_fraction * 100.0,
        if p.shards_rechecked > 0 {
            format!(
                ", {} rechecks of out-voted identities",
                thousands(p.shards_rechecked.into())
            )
        } else {
            String::new()
        },
        thousands(p.shards_verified.into()),
        thousands(p.shards_mismatched.into()),
        thousands(p.shards_replaced.into()),
        thousands(p.shards_unverifiable.into()),
    )
}

/// The whole Verification section of the report written into `dir`: what
/// `verification` says, then the re-runs recorded in `dir`'s
/// `verified.json` ([`reruns`](crate::reruns)), each checked to be of the
/// sweep in `results_json`.
pub fn verification_md(
    dir: &Path,
    results_json: &str,
    verification: &Verification,
) -> Result<String, ReportError> {
    let records = crate::reruns::read(dir)?;
    crate::reruns::check(dir, &records, results_json)?;
    Ok(format!(
        "{}{}",
        verification.section_md(),
        crate::reruns::section_md(&records)
    ))
}

/// Write `results.json`, `report.md` (the kind's text, the Verification
/// section from `verification` and `dir`'s re-run records
/// ([`verification_md`]), then the figures section), `report.html`,
/// the SVG figures (in `figures/`; stale `.svg` files there are removed)
/// and the exports of `rendered` into `dir` (created if missing); the
/// [`Written`] list names them all, for the caller's one line. The figures are rendered here from
/// `results.json` ([`figures::render`]).
pub fn write_results(
    dir: &Path,
    rendered: &Rendered,
    verification: &Verification,
) -> Result<Written, ReportError> {
    let md = format!(
        "{}{}",
        rendered.report_md,
        verification_md(dir, &rendered.results_json, verification)?
    );
    let figs = figures::render(&rendered.results_json, &md)
        .map_err(|e| ReportError::Figures(Box::new(e)))?;
    let report_md = format!("{md}{}", figs.section_md);
    write_files(
        dir,
        &[
            ("results.json", &rendered.results_json),
            ("report.md", &report_md),
            ("report.html", &figs.html),
        ],
    )?;
    write_figures(&dir.join(figures::DIR), &figs.files)?;
    for (name, contents) in &rendered.exports {
        write_files(dir, &[(name, contents)])?;
    }
    let mut files: Vec<String> = vec![
        "results.json".into(),
        "report.md".into(),
        "report.html".into(),
    ];
    if !figs.files.is_empty() {
        files.push(format!(
            "{}/ ({} SVG file{})",
            figures::DIR,
            figs.files.len(),
            if figs.files.len() == 1 { "" } else { "s" }
        ));
    }
    files.extend(rendered.exports.iter().map(|(n, _)| n.clone()));
    Ok(Written { files })
}

/// The files a command wrote into its output folder, for the one line it
/// prints: every file, so a person knows what to open (`report` and `run`
/// once named two of five).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// Names inside the folder, in the order written (`figures/ (N SVG files)`).
    pub files: Vec<String>,
}

impl Written {
    /// Add `name` (written by the caller) to the list.
    pub fn and(mut self, name: &str) -> Self {
        self.files.push(name.into());
        self
    }
}

impl std::fmt::Display for Written {
    /// `results.json, report.md, report.html and figures/ (3 SVG files)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, name) in self.files.iter().enumerate() {
            let sep = match i {
                0 => "",
                i if i + 1 == self.files.len() => " and ",
                _ => ", ",
            };
            write!(f, "{sep}{name}")?;
        }
        Ok(())
    }
}

/// Write the SVG `files` into `fig_dir` and remove any other `.svg` file
/// there (left by an earlier render); no files: the folder is removed when
/// nothing else is in it.
fn write_figures(fig_dir: &Path, files: &[(String, String)]) -> Result<(), ReportError> {
    if let Ok(rd) = std::fs::read_dir(fig_dir) {
        for e in rd.flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            if name.ends_with(".svg") && !files.iter().any(|(n, _)| *n == name) {
                std::fs::remove_file(e.path())
                    .map_err(|source| ReportError::io("removing", &e.path(), source))?;
            }
        }
    }
    if files.is_empty() {
        // Fails harmlessly when the folder is missing or holds other files.
        let _ = std::fs::remove_dir(fig_dir);
        return Ok(());
    }
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    write_files(fig_dir, &refs)
}

/// Write `provenance.json` into `dir` (nothing for `None`: a coordinator
/// that sends none). Says whether it wrote the file.
pub fn write_provenance(dir: &Path, provenance: Option<&Provenance>) -> Result<bool, ReportError> {
    let Some(p) = provenance else {
        return Ok(false);
    };
    write_files(dir, &[("provenance.json", &p.to_json())])?;
    Ok(true)
}

/// Write `projection.json` and `projection.md` into `dir`.
pub fn write_projection(dir: &Path, p: &ProjectionText) -> Result<(), ReportError> {
    write_files(
        dir,
        &[("projection.json", &p.json), ("projection.md", &p.md)],
    )
}

/// Create `dir` and write each `(file name, text)` into it.
fn write_files(dir: &Path, files: &[(&str, &str)]) -> Result<(), ReportError> {
    std::fs::create_dir_all(dir).map_err(|source| ReportError::io("creating", dir, source))?;
    for (name, text) in files {
        std::fs::write(dir.join(name), text)
            .map_err(|source| ReportError::io("writing", &dir.join(name), source))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_results_report_and_exports() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("a/b");
        // A real document (the figures read it), with a report and an export of our own.
        let noop = gamesweep::kinds::find("noop").unwrap();
        let params = noop.resolve_params(&Default::default()).unwrap();
        let plan = noop.plan(&params, 2).unwrap();
        let merged = gamesweep::sweep::run_all_sequential(noop, &params, &plan).unwrap();
        let rendered = Rendered {
            report_md: "# r\n".into(),
            exports: vec![("positions.txt".into(), "x\n".into())],
            ..noop.render(&params, &merged).unwrap()
        };
        let written = write_results(&out, &rendered, &Verification::Unrecorded).unwrap();
        // The line a command prints names every file written.
        assert_eq!(
            written.to_string(),
            "results.json, report.md, report.html and positions.txt",
            "{written:?}"
        );
        let read = |n: &str| std::fs::read_to_string(out.join(n)).unwrap();
        assert_eq!(read("results.json"), rendered.results_json);
        let md = read("report.md");
        assert!(
            md.starts_with("# r\n\n## Verification\n\nNot recorded: there is no `provenance.json`"),
            "{md}"
        );
        assert!(md.contains("\n## Figures\n"), "{md}");
        let html = read("report.html");
        assert!(html.contains("<h1>r</h1>") && html.contains("Not recorded"));
        assert_eq!(read("positions.txt"), "x\n");
    }

    /// Regression: a `--max-n 10` report without the extension search
    /// listed "extension to *5: 11 vertices", read as a search nobody asked
    /// for. A run without the search (uvg up to 6 vertices, no
    /// `--extension-value`), rendered and written here: its report.md and
    /// report.html name the positions past max-n as built by the extension
    /// step from the n-vertex graphs, with their solved values, and say
    /// nothing of an extension search.
    #[test]
    fn positions_past_max_n_without_the_extension_search_say_the_extension_step_built_them() {
        let uvg = gamesweep::kinds::find("uvg").unwrap();
        let params = uvg
            .resolve_params(&[("max_n".to_string(), 6)].into_iter().collect())
            .unwrap();
        assert_eq!(params.get("extension_value").copied().unwrap_or(0), 0);
        let plan = uvg.plan(&params, 4).unwrap();
        let merged = gamesweep::sweep::run_all_sequential(uvg, &params, &plan).unwrap();
        let rendered = uvg.render(&params, &merged).unwrap();
        assert!(!rendered.results_json.contains("extension_search"));
        let dir = tempfile::tempdir().unwrap();
        write_results(dir.path(), &rendered, &Verification::Unrecorded).unwrap();
        let md = std::fs::read_to_string(dir.path().join("report.md")).unwrap();
        let html = std::fs::read_to_string(dir.path().join("report.html")).unwrap();
        // The smallest *3 has 6 vertices, so the step from n = 5 and n = 6
        // builds a *3 one vertex larger, its new vertex (5, 6) the start;
        // no *4 (6 vertices have no starts of every value 0..3).
        let listed: Vec<&str> = md
            .lines()
            .filter(|l| l.starts_with("- [extension"))
            .collect();
        assert_eq!(listed.len(), 2, "{md}");
        assert!(
            listed[0].starts_with(
                r"- [extension step from n = 5: \*3 on 6 vertices, start 5, value \*3 `"
            ),
            "{listed:?}"
        );
        assert!(
            listed[1].starts_with(
                r"- [extension step from n = 6: \*3 on 7 vertices, start 6, value \*3 `"
            ),
            "{listed:?}"
        );
        assert!(html.contains("extension step from n = 6: *3 on 7 vertices, start 6, value *3"));
        for text in [&md, &html] {
            assert!(!text.contains("extension to"), "{text}");
            assert!(!text.contains("extension search"), "{text}");
        }
    }

    /// The Verification section says what the provenance records: the
    /// confirmation figures, the recount, refusals by identity, the checks;
    /// an old provenance (no confirmation) and none at all say so.
    #[test]
    fn the_verification_section_states_what_was_recorded() {
        let mut p: Provenance =
            serde_json::from_str(include_str!("../../../runs/uvg-n11/provenance.json")).unwrap();
        let old = Verification::Recorded(Box::new(p.clone())).section_md();
        assert!(
            old.contains(
                "written before identities were bound to credentials, so its 7 contributors"
            ),
            "{old}"
        );
        assert!(old.contains("Replicated validation: 45 of 4,096 shards in the seeded sample (1 %); shards run again by a second identity (the sample's, results of identities not yet trusted, unsigned imports): 41 verified, 0 mismatched (0 replaced by the majority), 4 unverifiable"), "{old}");
        p.confirmation.statement = "partly verified: 2 shards rest on one identity".into();
        p.confirmation.confirmed_by_two_identities = 4094;
        p.confirmation.rest_on_one_issued_identity = 2;
        p.confirmation.most_one_identity_could_change = 2;
        p.recounted = 4096;
        p.recounts_refused = 1;
        p.results_invalid_by.insert("@faulty\u{1b}[2J".into(), 3);
        p.rechecked_after_a_lie.insert(
            "@liar".into(),
            gamesweep_engine::core::provenance::Rechecked {
                shards: 5,
                verified: 3,
                replaced: 1,
                unverifiable: 1,
            },
        );
        let md = Verification::Recorded(Box::new(p)).section_md();
        for want in [
            "\nRe-verified after a caught lie: `@liar` gave a wrong result (in this sweep or another), so every result it gave was run again by other identities: 5 shards here, 3 confirmed, 1 replaced by the others' result, 1 unverifiable (no other identity could run it).\n",
            "Partly verified: 2 shards rest on one identity.\n",
            "| confirmed by two identities | 4,094 |",
            "| the most one identity, faulty or lying, could have changed unnoticed | 2 |",
            "recounted 4,096 submitted results",
            "1 disagreed and were refused",
            "`@faulty\\e[2J` 3",
        ] {
            assert!(md.contains(want), "{want}: {md}");
        }
        // Regression: a share of 0 (a local `run`'s default) is not said to
        // be a flag the user gave.
        let mut zero: Provenance =
            serde_json::from_str(include_str!("../../../runs/col-10/provenance.json")).unwrap();
        zero.shards_rechecked = 0;
        let line = replication_line(&zero);
        assert!(!line.contains("launched with"), "{line}");
        assert!(line.contains("`gamesweep run`'s default"), "{line}");
        let none = Verification::of_dir(Path::new("/nonexistent"))
            .unwrap()
            .section_md();
        assert!(
            none.contains("Not recorded: there is no `provenance.json`"),
            "{none}"
        );
    }

    #[test]
    fn a_provenance_json_that_is_not_one_is_an_error_not_nothing_recorded() {
        let dir = std::env::temp_dir().join(format!("gs-prov-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("provenance.json"), "{\"shards_total\": 1}\n").unwrap();
        let e = Verification::of_dir(&dir).unwrap_err().to_string();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(
            e.contains("provenance.json") && e.contains("missing field"),
            "{e}"
        );
    }
}
