//! kill -9 of a real `gamesweep serve` during a gRPC import of a 4,096-shard
//! export (uvg n ≤ 9), at eight moments of its writing: 0 to 64 ms after
//! the store's file first grows (most of the import's second is spent
//! validating, before anything is written). After a restart the sweep is
//! either absent (what the crash left of it was deleted) or complete, never
//! half-imported, and importing the file again works and gives the
//! committed `runs/uvg/results.json` byte for byte.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_gamesweep");
const GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../runs/uvg/results.json");

use crate::support::proc;
use proc::Proc;

fn gs(args: &[&str]) -> String {
    let o = Command::new(BIN)
        .args(args)
        .env_remove("GAMESWEEP_COORDINATOR")
        .env_remove("GAMESWEEP_TOKEN_FILE")
        .env("HOME", "/nonexistent/gamesweep-test-home")
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "gamesweep {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// `gamesweep serve` on `store`, trusting exports signed by the key in
/// `trust`, and its URL.
fn serve(store: &Path, log: &Path, trust: &Path) -> (Proc, String) {
    let address = store.with_extension("address");
    let _ = std::fs::remove_file(&address);
    let mut p = Proc(
        Command::new(BIN)
            .args(["serve", "--listen", "127.0.0.1:0", "--store"])
            .arg(store)
            .arg("--address-file")
            .arg(&address)
            .arg("--trust-key")
            .arg(trust)
            .env("HOME", "/nonexistent/gamesweep-test-home")
            .env_remove("RUST_LOG")
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(log).unwrap())
            .spawn()
            .unwrap(),
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Ok(url) = std::fs::read_to_string(&address) {
            return (p, url.trim().to_string());
        }
        if let Some(st) = p.0.try_wait().unwrap() {
            panic!(
                "coordinator exited with {st}: {}",
                std::fs::read_to_string(log).unwrap_or_default()
            );
        }
        assert!(Instant::now() < deadline, "coordinator did not come up");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn sweeps(url: &str) -> Vec<serde_json::Value> {
    let v: serde_json::Value =
        serde_json::from_str(&gs(&["status", "--json", "--coordinator", url])).unwrap();
    v["sweeps"].as_array().unwrap().clone()
}

#[test]
fn a_coordinator_killed_during_an_import_leaves_no_half_imported_sweep() {
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| -> PathBuf { dir.path().join(name) };
    let s = |p: &Path| p.to_str().unwrap().to_string();
    gs(&[
        "run",
        "uvg",
        "--max-n",
        "9",
        "--shards",
        "4096",
        "--quiet",
        "--out",
        &s(&d("run")),
    ]);
    let file = d("uvg.gsx");
    gs(&["export", "run", &s(&file), "--store", &s(&d("run/store"))]);
    // The importing coordinators trust the run's signing key (else the
    // import would wait for workers to re-run every shard).
    let key = d("run.key");
    gs(&[
        "key",
        "export",
        "--store",
        &s(&d("run/store")),
        "--out",
        &s(&key),
    ]);
    let golden = std::fs::read_to_string(GOLDEN).unwrap();
    let (mut absent, mut whole, mut deleted) = (0, 0, 0);
    for (i, ms) in [0u64, 1, 2, 4, 8, 16, 32, 64].into_iter().enumerate() {
        let store = d(&format!("store{i}"));
        let (mut coordinator, url) = serve(&store, &d(&format!("serve{i}a.log")), &key);
        let mut import = Proc(
            Command::new(BIN)
                .args([
                    "import",
                    &s(&file),
                    "--verify-fraction",
                    "0",
                    "--coordinator",
                    &url,
                ])
                .env("HOME", "/nonexistent/gamesweep-test-home")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap(),
        );
        // The import's first write (the staged sweep, flushed) grows the file.
        let db = store.join("db");
        let size = || std::fs::metadata(&db).map_or(0, |m| m.len());
        let before = size();
        let deadline = Instant::now() + Duration::from_secs(60);
        while size() == before {
            assert!(Instant::now() < deadline, "the import wrote nothing");
            std::thread::sleep(Duration::from_micros(200));
        }
        std::thread::sleep(Duration::from_millis(ms));
        coordinator.kill9();
        import.kill9();
        let log = d(&format!("serve{i}b.log"));
        let (_coordinator, url) = serve(&store, &log, &key);
        let found = sweeps(&url);
        match found.as_slice() {
            [] => absent += 1,
            [sw] => {
                assert_eq!(sw["state"], "done", "killed {ms} ms into its writing: {sw}");
                assert_eq!(
                    sw["shards_done"], 4096,
                    "killed {ms} ms into its writing: {sw}"
                );
                whole += 1;
            }
            more => panic!("killed {ms} ms into its writing: {} sweeps", more.len()),
        }
        if std::fs::read_to_string(&log)
            .unwrap()
            .contains("import did not finish")
        {
            deleted += 1;
        }
        if found.is_empty() {
            gs(&[
                "import",
                &s(&file),
                "--verify-fraction",
                "0",
                "--coordinator",
                &url,
            ]);
        }
        let out = d(&format!("report{i}"));
        gs(&["report", "run", "--out", &s(&out), "--coordinator", &url]);
        assert_eq!(
            std::fs::read_to_string(out.join("results.json")).unwrap(),
            golden,
            "killed {ms} ms into its writing: results.json differs from {GOLDEN}"
        );
    }
    eprintln!(
        "import_crash: of 8 kills, {absent} left no sweep ({deleted} of them a half-imported one, deleted at restart), {whole} a complete one"
    );
}
