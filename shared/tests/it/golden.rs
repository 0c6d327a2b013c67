//! Golden files: every committed `runs/*/results.json` is read back through
//! its kind's typed document and must re-render to the same bytes, and its
//! `report.md` (and exports) must be re-rendered byte for byte from it alone:
//! the kind's text is everything before the "Figures" section that the
//! report step appends (`coordinator/tests/it/figures.rs` re-renders that
//! section, the SVG files and `report.html` byte for byte).
//! Sweeps that recompute quickly are recomputed from scratch and compared
//! byte for byte; the long ones are recomputed by `bench/golden-long.sh`.

use crate::support::{check_exports, goldens, kind_report, recompute, HOURS, LONG};

#[test]
fn reports_rerender_from_results_json() {
    for g in goldens() {
        let r = g
            .kind
            .render_from_json(&g.params, &g.json)
            .unwrap_or_else(|e| panic!("{}: {e}", g.dir.display()));
        assert!(
            r.results_json == g.json,
            "{}: results.json does not round-trip through the typed document",
            g.dir.display()
        );
        assert!(
            r.report_md == kind_report(&g.dir),
            "{}: report.md differs from the one rendered from results.json",
            g.dir.display()
        );
        check_exports(&g, &r.exports);
    }
}

#[test]
fn quick_runs_recompute_byte_identical() {
    for g in goldens() {
        let name = g.dir.file_name().unwrap().to_string_lossy().to_string();
        if LONG.contains(&name.as_str()) || HOURS.contains(&name.as_str()) {
            eprintln!(
                "golden: {name} is recomputed by bench/golden-long.sh or its NOTES.md, not here"
            );
            continue;
        }
        recompute(&g);
    }
}
