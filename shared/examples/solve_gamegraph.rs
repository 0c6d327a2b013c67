//! Solve a game-graph file (text or JSON, auto-detected) and print the
//! report; `--json` prints it as JSON. Until the CLI's
//! `gamesweep solve gamegraph FILE` is wired, this is the way to run it:
//!
//! ```text
//! cargo run --release -p gamesweep --example solve_gamegraph -- docs/examples/sum.game
//! ```

use gamesweep::gamegraph::{solve_text, Format};
use std::error::Error;

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let json = args.iter().any(|a| a == "--json");
    let path = args
        .iter()
        .find(|a| *a != "--json")
        .ok_or("usage: solve_gamegraph FILE [--json]")?;
    let text = std::fs::read_to_string(path)?;
    let report = solve_text(&text, Format::Auto).map_err(|e| format!("{path}: {e}"))?;
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{report}");
    }
    Ok(())
}
