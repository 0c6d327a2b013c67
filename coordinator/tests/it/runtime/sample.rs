//! Sampled sweeps: a projection from the sample, then widened to the exact
//! result.

use super::cli::one_line_error;
use super::run::run_out;
use super::*;

/// `launch --sample`: a worker runs only the sample and then finds nothing
/// to do; `project` prices the sweep from the sampled shards' timings;
/// `launch --resume` without a sample widens it, and the finished sweep
/// equals the in-process result (the sampled results are kept, not redone).
#[test]
fn a_sampled_sweep_projects_then_widens_to_the_exact_result() {
    let dir = tempfile::tempdir().unwrap();
    let (_c, u) = Serve::new(&dir.path().join("store"))
        .port(0)
        .log(&dir.path().join("serve.log"))
        .start()
        .into_parts();
    let launch = |extra: &[&str]| {
        let mut a = vec![
            "launch",
            "uvg",
            "--replicate-fraction",
            "0",
            "--max-n",
            "8",
            "--shards",
            "24",
            "--name",
            "smp",
        ];
        a.extend_from_slice(extra);
        a.extend_from_slice(&["--coordinator", &u]);
        ok(&a)
    };
    launch(&["--sample", "20%", "--sample-seed", "5"]);
    one_line_error(&["project", "smp", "--coordinator", &u], "none of the");
    let mut w = Worker::new(&u)
        .id("ws")
        .threads(2)
        .args(&["--exit-when-idle"])
        .log(&dir.path().join("w.log"))
        .spawn();
    let deadline = Instant::now() + Duration::from_secs(120);
    while w.0.try_wait().unwrap().is_none() {
        assert!(
            Instant::now() < deadline,
            "worker did not go idle after the sample"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let text = ok(&["status", "--json", "--coordinator", &u]);
    let typed: Overview = serde_json::from_str(&text).unwrap();
    assert_eq!(typed.sweeps[0].state, SweepState::Sampled, "{text}");
    let full: serde_json::Value = serde_json::from_str(&text).unwrap();
    let s = &full["sweeps"][0];
    assert_eq!(s["state"], "sampled", "{s}");
    let shards = s["sample"]["shards"].as_u64().unwrap();
    assert_eq!(s["sample"]["done"].as_u64().unwrap(), shards);
    assert_eq!(
        s["shards_done"].as_u64().unwrap(),
        shards,
        "only the sample ran"
    );
    assert!(shards < 24);
    assert!(full["store_bytes"].as_u64().unwrap() > 0, "{full}");
    if cfg!(target_os = "linux") {
        assert!(
            full["coordinator_rss_bytes"].as_u64().unwrap() > 0,
            "{full}"
        );
    }
    let out = dir.path().join("proj");
    let p: serde_json::Value = serde_json::from_str(&ok(&[
        "project",
        "smp",
        "--cores",
        "1,64",
        "--json",
        "--out",
        out.to_str().unwrap(),
        "--coordinator",
        &u,
    ]))
    .unwrap();
    assert_eq!(p["sample"]["seed"], 5);
    assert_eq!(p["measured"]["shards"].as_u64().unwrap(), shards);
    assert_eq!(p["measured"]["positions"], s["positions_done"]);
    assert!(p["measured"]["positions_per_core_second"].as_f64().unwrap() > 0.0);
    assert_eq!(p["projected"]["wall"][1]["cores"], 64);
    assert!(std::fs::read_to_string(out.join("projection.md"))
        .unwrap()
        .contains("positions / s / core"));
    // Widen: the rest of the plan runs; the result is the exact one.
    launch(&["--resume"]);
    let _w2 = Worker::new(&u)
        .id("ws2")
        .threads(2)
        .log(&dir.path().join("w2.log"))
        .spawn();
    let s = Client::new(&u).wait_done("smp", Duration::from_secs(180));
    assert_eq!(s["duplicates_ignored"], 0, "sampled shards are not rerun");
    assert_eq!(report(&u, "smp", &dir.path().join("out")), reference(8));
    // A different sample of the same sweep, and bad sizes, are refused.
    one_line_error(
        &[
            "launch",
            "uvg",
            "--replicate-fraction",
            "0",
            "--max-n",
            "8",
            "--name",
            "smp",
            "--resume",
            "--sample",
            "1%",
            "--coordinator",
            &u,
        ],
        "another sample",
    );
    one_line_error(
        &["launch", "uvg", "--sample", "0%", "--coordinator", &u],
        "out of range",
    );
    one_line_error(
        &["run", "uvg", "--replicate-fraction", "0.1", "--in-process"],
        "--replicate-fraction needs a second worker identity",
    );
}

/// `run --sample` writes a projection and no results; the same command
/// without `--sample` finishes the sweep with the exact result (the sample
/// run in-process, the rest over gRPC: one store, one core).
#[test]
fn run_with_a_sample_projects_then_finishes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    let o = run_out(
        &out,
        &[
            "--sample",
            "10%",
            "--sample-seed",
            "2",
            "--project-cores",
            "2,64",
            // The same core either way: sampled in-process, finished over gRPC.
            "--in-process",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let p: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("projection.json")).unwrap())
            .unwrap();
    assert_eq!(p["sample"]["seed"], 2);
    assert!(p["sample"]["estimate_share"].as_f64().unwrap() >= 0.1);
    assert!(!out.join("results.json").exists());
    let o = run_out(&out, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        std::fs::read_to_string(out.join("results.json")).unwrap(),
        reference(8)
    );
}
