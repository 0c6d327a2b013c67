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

const GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../runs/uvg/results.json");

use crate::support::harness::{ok, Serve, BIN};
use crate::support::proc::Proc;

fn sweeps(url: &str) -> Vec<serde_json::Value> {
    let v: serde_json::Value =
        serde_json::from_str(&ok(&["status", "--json", "--coordinator", url])).unwrap();
    v["sweeps"].as_array().unwrap().clone()
}

#[test]
fn a_coordinator_killed_during_an_import_leaves_no_half_imported_sweep() {
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| -> PathBuf { dir.path().join(name) };
    let s = |p: &Path| p.to_str().unwrap().to_string();
    ok(&[
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
    ok(&["export", "run", &s(&file), "--store", &s(&d("run/store"))]);
    // The importing coordinators trust the run's signing key (else the
    // import would wait for workers to re-run every shard).
    let key = d("run.key");
    ok(&[
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
        let (mut coordinator, url) = Serve::new(&store)
            .log(&d(&format!("serve{i}a.log")))
            .address_file(&store.with_extension("address"))
            .arg("--trust-key")
            .arg(&key)
            .env_remove("RUST_LOG")
            .limit(Duration::from_secs(30))
            .start()
            .into_parts();
        let mut import = Proc(
            Command::new(BIN)
                .args([
                    "import",
                    &s(&file),
                    "--replicate-fraction",
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
        let (_coordinator, url) = Serve::new(&store)
            .log(&log)
            .address_file(&store.with_extension("address"))
            .arg("--trust-key")
            .arg(&key)
            .env_remove("RUST_LOG")
            .limit(Duration::from_secs(30))
            .start()
            .into_parts();
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
            ok(&[
                "import",
                &s(&file),
                "--replicate-fraction",
                "0",
                "--coordinator",
                &url,
            ]);
        }
        let out = d(&format!("report{i}"));
        ok(&["report", "run", "--out", &s(&out), "--coordinator", &url]);
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
