//! `gamesweep run`: resumed after kill -9, refusing to mix solver builds,
//! the in-process run equal to the embedded one, and a shard that cannot
//! run.

use super::*;

pub(super) fn run_out(out: &Path, extra: &[&str]) -> Output {
    Command::new(BIN)
        .args([
            "run",
            "uvg",
            "--max-n",
            "8",
            "-q",
            "--threads",
            "1",
            "--out",
        ])
        .arg(out)
        .args(extra)
        .output()
        .unwrap()
}

/// Write the store of a `run uvg --max-n 8 --out OUT` planned by solver
/// `version` with `shards` target shards, its plan edited by `edit`.
fn store_uvg8_run(
    out: &Path,
    version: &str,
    shards: u32,
    edit: impl FnOnce(&mut Vec<sweep::ShardSpec>),
) {
    use gamesweep_engine::store::{SledStore, Store, SweepRecord, SweepState};
    let store = SledStore::open(&out.join("store")).unwrap();
    let kind = gamesweep::kinds::find("uvg").unwrap();
    let params = kind
        .resolve_params(&[("max_n".to_string(), 8)].into())
        .unwrap();
    let mut plan = kind.plan(&params, shards).unwrap();
    edit(&mut plan);
    let rec = SweepRecord {
        replicate_all: false,
        id: "run".into(),
        kind: "uvg".into(),
        params,
        solver_version: version.into(),
        target_shards: shards,
        seq: 1,
        state: SweepState::Running,
        sample: None,
        verify_ppm: 0,
        verify_seed: 0,
        paused: false,
        priority: 1,
        part: None,
        earlier_solvers: Vec::new(),
    };
    store.create_sweep(&rec, &plan).unwrap();
}

#[test]
fn run_resumes_after_kill9_with_identical_results() {
    resumes_after_kill9(&[]);
}

/// `run --in-process` is the same run without gRPC: it resumes too.
#[test]
fn an_in_process_run_resumes_after_kill9_with_identical_results() {
    resumes_after_kill9(&["--in-process"]);
}

/// Kill -9 a `run uvg --max-n 8` with the options `extra` a little after
/// it planned, rerun it with the same options: the stored plan is reused
/// and the result is the sequential executor's.
fn resumes_after_kill9(extra: &[&str]) {
    use std::io::BufRead as _;
    let dir = tempfile::tempdir().unwrap();
    let out: PathBuf = dir.path().join("r");
    let mut child = Proc(
        Command::new(BIN)
            .args([
                "run",
                "uvg",
                "--max-n",
                "8",
                "-q",
                "--threads",
                "1",
                "--shards",
                "64",
                "--out",
            ])
            .arg(&out)
            .args(extra)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    // Wait until the sweep is planned and stored, let it work a little, kill -9.
    let mut lines = std::io::BufReader::new(child.0.stderr.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    assert!(first.contains("shards planned"), "{first}");
    std::thread::sleep(Duration::from_millis(300));
    let finished_early = child.0.try_wait().unwrap().is_some();
    child.kill9();
    // Rerun without --shards: the stored 64-shard plan must be reused.
    let o = run_out(&out, extra);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    let kind = gamesweep::kinds::find("uvg").unwrap();
    let params = kind
        .resolve_params(&[("max_n".to_string(), 8)].into())
        .unwrap();
    let planned = kind.plan(&params, 64).unwrap().len();
    if !finished_early {
        assert!(err.contains("resuming"), "{err}");
        assert!(err.contains(&format!("done: {planned} shards")), "{err}");
    }
    assert_eq!(
        std::fs::read_to_string(out.join("results.json")).unwrap(),
        reference(8)
    );
}

#[test]
fn run_refuses_to_mix_solver_builds_and_fresh_starts_over() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    // A store left by an older build of the solver.
    store_uvg8_run(&out, "0.0.0+0000", 0, |_| {});
    let o = run_out(&out, &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("solver changed") && err.contains("--fresh"),
        "{err}"
    );
    let o = run_out(&out, &["--fresh"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        std::fs::read_to_string(out.join("results.json")).unwrap(),
        reference(8)
    );
}

/// `run --in-process` and the embedded run write the same files byte for
/// byte (results.json, report.md, the figures), equal to the sequential
/// executor's results, for uvg and a kind of another family.
#[test]
fn an_in_process_run_writes_what_the_embedded_run_writes() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &[(&str, u64)]); 2] = [
        ("uvg", &[("max_n", 7)]),
        ("myopic-tree", &[("max_nodes", 9)]),
    ];
    for (kind, params) in cases {
        let mut args: Vec<String> = vec!["run".into(), kind.into(), "-q".into()];
        for (k, v) in params {
            args.push(format!("--{}", gamesweep_api::text::flag_name(k)));
            args.push(v.to_string());
        }
        let run = |name: &str, extra: &[&str]| {
            let out = dir.path().join(format!("{kind}-{name}"));
            let mut a: Vec<&str> = args.iter().map(String::as_str).collect();
            a.extend(["--no-http", "--out", out.to_str().unwrap()]);
            a.extend(extra);
            ok(&a);
            out
        };
        let (embedded, in_process) = (run("embedded", &[]), run("in-process", &["--in-process"]));
        for file in ["results.json", "report.md"] {
            let a = std::fs::read(embedded.join(file)).unwrap();
            let b = std::fs::read(in_process.join(file)).unwrap();
            assert!(a == b, "{kind}: {file} differs between the executors");
        }
        let figures = |d: &Path| -> Vec<(String, Vec<u8>)> {
            let Ok(rd) = std::fs::read_dir(d.join("figures")) else {
                return Vec::new();
            };
            let mut v: Vec<_> = rd
                .map(|e| e.unwrap().path())
                .map(|p| {
                    (
                        p.file_name().unwrap().to_string_lossy().into_owned(),
                        std::fs::read(&p).unwrap(),
                    )
                })
                .collect();
            v.sort();
            v
        };
        assert!(
            figures(&embedded) == figures(&in_process),
            "{kind}: figures differ"
        );
        // The independent oracle: the sequential executor, no core.
        let k = gamesweep::kinds::find(kind).unwrap();
        let given = params.iter().map(|&(k, v)| (k.to_string(), v)).collect();
        let p = k.resolve_params(&given).unwrap();
        let merged = sweep::run_all_sequential(k, &p, &k.plan(&p, 0).unwrap()).unwrap();
        assert_eq!(
            std::fs::read_to_string(in_process.join("results.json")).unwrap(),
            k.render(&p, &merged).unwrap().results_json,
            "{kind}"
        );
    }
}

/// A shard the solver cannot run (here: a corrupted payload in the store)
/// is reported by the worker, retried, then set aside: `run` stops with one
/// line naming the shard and the cause instead of re-leasing it forever,
/// and the other shards' results stay stored.
#[test]
fn a_shard_that_cannot_run_fails_the_run_with_a_clear_error() {
    a_shard_that_cannot_run_fails_the_run(&[]);
}

#[test]
fn a_shard_that_cannot_run_fails_an_in_process_run_with_a_clear_error() {
    a_shard_that_cannot_run_fails_the_run(&["--in-process"]);
}

/// The run with the options `extra` of a store whose shard 2 cannot run.
fn a_shard_that_cannot_run_fails_the_run(extra: &[&str]) {
    use gamesweep_engine::store::{SledStore, Store};
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    store_uvg8_run(
        &out,
        &gamesweep::kinds::find("uvg").unwrap().version(),
        8,
        |plan| {
            plan[2].payload = "prefixes 5 not-graph6!".into();
        },
    );
    let started = Instant::now();
    let o = run_out(&out, extra);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{err}");
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "no endless retries"
    );
    let last = err.trim_end().lines().last().unwrap_or("");
    assert!(
        last.contains("shard 2")
            && last.contains("bad shard payload")
            && last.contains("failed 3 times"),
        "{err}"
    );
    assert!(!out.join("results.json").exists());
    // The good shards are stored: status of the store shows them done.
    let store = SledStore::open(&out.join("store")).unwrap();
    let swept = store.load_all().unwrap();
    assert_eq!(swept[0].results.len(), swept[0].plan.len() - 1);
    assert_eq!(swept[0].failures[&2].count, 3);
}
