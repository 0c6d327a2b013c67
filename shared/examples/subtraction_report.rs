//! Run the `subtraction` sweep in this process and write its report:
//!
//! ```text
//! cargo run --release -p gamesweep --example subtraction_report -- 12 runs/subtraction
//! ```
//!
//! Writes `results.json` and `report.md` into the output directory, rendered
//! by the sweep kind exactly as `gamesweep run subtraction` renders them.

use gamesweep::sweep::{self, Params};
use std::error::Error;
use std::path::PathBuf;

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let m: u64 = args.next().unwrap_or_else(|| "12".into()).parse()?;
    let out = PathBuf::from(args.next().unwrap_or_else(|| "runs/subtraction".into()));
    let kind = sweep::find("subtraction")?;
    let given: Params = [("max_element".to_string(), m)].into();
    let params = sweep::resolve_params(kind, &given)?;
    let plan = kind.plan(&params, 0)?;
    let merged = sweep::run_all_sequential(kind, &params, &plan)?;
    let rendered = kind.render(&params, &merged);
    std::fs::create_dir_all(&out)?;
    let json = serde_json::to_string_pretty(&rendered.results_json)? + "\n";
    std::fs::write(out.join("results.json"), json)?;
    std::fs::write(out.join("report.md"), rendered.report_md)?;
    eprintln!(
        "subtraction --max-element {m}: {} sets in {} shards -> {}",
        merged.counter("sets"),
        plan.len(),
        out.display()
    );
    Ok(())
}
