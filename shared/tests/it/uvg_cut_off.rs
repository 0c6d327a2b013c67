//! The cut-off between UVG's subset DP and its budgeted search is decided
//! in one place, `gamesweep::uvg::position::method`: no other source file
//! names the limit or keeps a copy of it, and none compares a vertex count
//! with `Method::DP_MAX_N` (which exists for text that names the cut-off).

use std::path::{Path, PathBuf};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        let name = e.file_name();
        if p.is_dir() {
            if !matches!(
                name.to_str(),
                Some("target" | ".git" | "node_modules" | "runs" | "sweeps")
            ) {
                rust_files(&p, out);
            }
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Where a line of `text` decides on the cut-off by itself, if it does.
fn own_decision(rel: &str, text: &str) -> Option<String> {
    // The uvg module states the limit (`mod.rs`, its own solver) and
    // `position.rs` decides with it.
    let owner = matches!(rel, "shared/src/uvg/mod.rs" | "shared/src/uvg/position.rs");
    for (i, line) in text.lines().enumerate() {
        let named = ["SUBSET_DP_MAX_N", "DENSE_LIMIT", "UVG_DP_LIMIT"]
            .iter()
            .any(|w| line.contains(w));
        let compared = line.contains("DP_MAX_N")
            && [" <= ", " < ", " > ", " >= ", ".contains("]
                .iter()
                .any(|op| line.contains(op));
        if (named || compared) && !owner {
            return Some(format!("{rel}:{}: {}", i + 1, line.trim()));
        }
    }
    None
}

#[test]
fn the_dp_cut_off_is_decided_in_one_place() {
    let root = workspace();
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    assert!(files.len() > 100, "{} files", files.len());
    let this = Path::new(file!()).file_name().unwrap();
    let found: Vec<String> = files
        .iter()
        .filter(|p| p.file_name() != Some(this))
        .filter_map(|p| {
            let rel = p
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            own_decision(&rel, &std::fs::read_to_string(p).unwrap())
        })
        .collect();
    assert!(
        found.is_empty(),
        "these decide the subset DP / search cut-off themselves; ask \
         gamesweep::uvg::position::method instead:\n{}",
        found.join("\n")
    );
}

#[test]
fn a_site_deciding_by_itself_is_caught() {
    let site = "    if n <= gamesweep::uvg::SUBSET_DP_MAX_N {";
    assert!(own_decision("python/src/lib.rs", site).is_some());
    let copy = "const LIMIT: usize = Method::DP_MAX_N;\nif n > Method::DP_MAX_N {";
    assert!(own_decision("coordinator/serve/src/x.rs", copy).is_some());
    assert_eq!(own_decision("shared/src/uvg/position.rs", site), None);
    let text = r#"format!("exact: subset DP (n ≤ {})", Method::DP_MAX_N)"#;
    assert_eq!(own_decision("coordinator/serve/src/x.rs", text), None);
}
