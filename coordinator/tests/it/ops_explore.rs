//! `ops::explore` called directly: a results file's witnesses listed as
//! the CLI prints them, the page served on a free port until told to
//! stop, and a bad game file refused with its name.

use crate::support::grafana::get;
use gamesweep_coordinator::ops::explore::{open, ExploreRequest};
use std::path::{Path, PathBuf};

fn request(results: Option<PathBuf>) -> ExploreRequest {
    ExploreRequest {
        listen: "127.0.0.1:0".parse().unwrap(),
        address_file: None,
        results,
        file: None,
        open: false,
        search_memory_mib: 64,
    }
}

#[test]
fn explore_lists_a_results_files_witnesses_and_serves_them_until_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let results = Path::new(env!("CARGO_MANIFEST_DIR")).join("../runs/uvg-n10/results.json");
    let address = dir.path().join("explore.url");
    let mut r = request(Some(results));
    r.address_file = Some(address.clone());
    let ex = open(r).unwrap();
    let listing = ex.listing();
    assert_eq!(listing.lines().count(), ex.listed().len());
    assert!(
        listing
            .lines()
            .any(|l| l == "I}Kg[_GC? 4 smallest *5: 10 vertices, start 4"),
        "{listing}"
    );
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let (said_tx, said) = std::sync::mpsc::channel::<String>();
    let serving = std::thread::spawn(move || {
        let said_tx = std::sync::Mutex::new(said_tx);
        ex.serve(
            async {
                let _ = stopped.await;
            },
            &|line| said_tx.lock().unwrap().send(line.to_string()).unwrap(),
        )
    });
    let line = said
        .recv_timeout(std::time::Duration::from_secs(60))
        .unwrap();
    let url = line
        .strip_prefix("gamesweep: explore: ")
        .unwrap_or_else(|| panic!("{line}"))
        .to_string();
    assert_eq!(
        std::fs::read_to_string(&address).unwrap(),
        format!("{url}\n")
    );
    let host = url
        .strip_prefix("http://")
        .and_then(|u| u.strip_suffix("/explore"))
        .unwrap();
    let (status, body) = get(host, "/explore/api/presets").unwrap();
    assert_eq!(status, 200, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert!(
        v["results"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["code"] == "I}Kg[_GC?" && r["start"] == 4),
        "{v}"
    );
    stop.send(()).unwrap();
    let explored = serving.join().unwrap().unwrap();
    assert_eq!(explored.url, url);
    assert!(!address.exists(), "the address file is removed at the end");
}

#[test]
fn a_missing_game_file_is_refused_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such.game");
    let mut r = request(None);
    r.file = Some(missing.clone());
    let ex = open(r).unwrap();
    assert_eq!(ex.listing(), "");
    let e = ex.serve(std::future::pending(), &|_| {}).err().unwrap();
    assert!(
        e.to_string()
            .starts_with(&format!("cannot read {}: ", missing.display())),
        "{e}"
    );
    let e = open(request(Some(missing.clone()))).err().unwrap();
    assert!(
        e.to_string()
            .starts_with(&format!("cannot read --results {}: ", missing.display())),
        "{e}"
    );
}
