//! The command line as a new user meets it: counts that read as English,
//! a shard count that says why it differs from the one asked for,
//! `status --watch` without terminal codes in a pipe, `cancel` of a finished
//! sweep refused in one line, `pause` / `resume` / `--priority` shown by
//! `status`, shell completions and man pages from the clap definitions, and
//! the documented JSON (results.json, `status --json`, the export file's
//! body) valid against the JSON Schemas in `docs/schema/`. Real processes on
//! 127.0.0.1 (port 0), each bounded in time.

use std::path::Path;

use crate::support::cli;
use cli::{gs, ok, refused, serve, work_until_idle};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A schema from `docs/schema/`, compiled.
fn schema(name: &str) -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../docs/schema")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    jsonschema::validator_for(&value).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// `doc` is valid under `v`, and each of `required` removed (a path of
/// object keys) makes it invalid.
fn valid_and_strict(v: &jsonschema::Validator, doc: &serde_json::Value, required: &[&[&str]]) {
    let errors: Vec<String> = v.iter_errors(doc).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}\n{doc}");
    for path in required {
        let mut broken = doc.clone();
        let mut at = &mut broken;
        for key in &path[..path.len() - 1] {
            at = match at {
                serde_json::Value::Array(a) => &mut a[0][*key],
                o => &mut o[*key],
            };
        }
        let last = path[path.len() - 1];
        let removed = match at {
            serde_json::Value::Array(a) => a[0].as_object_mut().unwrap().remove(last),
            o => o.as_object_mut().unwrap().remove(last),
        };
        assert!(removed.is_some(), "{path:?} not in {doc}");
        assert!(!v.is_valid(&broken), "valid without {path:?}");
    }
}

/// `run` says "1 thread", and why 64 shards asked for became 65; its
/// results.json is valid under the results schema.
#[test]
fn run_counts_read_right_and_results_json_has_a_schema() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    let o = gs(&[
        "run",
        "uvg",
        "--max-n",
        "8",
        "--shards",
        "64",
        "--threads",
        "1",
        "-q",
        "--out",
        s(&out),
    ]);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("65 shards planned (asked for 64: one more shard holds the graphs smaller than the prefixes the others start from)"),
        "{err}"
    );
    assert!(err.contains(" on 1 thread;"), "{err}");
    assert!(!err.contains("1 threads"), "{err}");
    let results: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("results.json")).unwrap()).unwrap();
    valid_and_strict(
        &schema("results.schema.json"),
        &results,
        &[&["kind"], &["params"]],
    );
    // Every committed reference run's results.json too.
    let runs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../runs");
    let v = schema("results.schema.json");
    let mut seen = 0;
    for e in std::fs::read_dir(runs).unwrap() {
        let f = e.unwrap().path().join("results.json");
        if let Ok(bytes) = std::fs::read(&f) {
            let doc: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
            let errors: Vec<String> = v.iter_errors(&doc).map(|e| e.to_string()).collect();
            assert!(errors.is_empty(), "{f:?}: {errors:?}");
            seen += 1;
        }
    }
    assert!(seen >= 10, "only {seen} committed runs");
}

/// Completions and man pages come from the clap definitions.
#[test]
fn completions_and_man_pages() {
    let bash = ok(&["completions", "bash"]);
    for cmd in [
        "run",
        "launch",
        "status",
        "cancel",
        "pause",
        "resume",
        "man",
        "completions",
    ] {
        assert!(bash.contains(cmd), "bash completion lacks {cmd}");
    }
    assert!(ok(&["completions", "zsh"]).contains("#compdef gamesweep"));
    let o = gs(&["completions", "tcsh"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let man = ok(&["man"]);
    assert!(
        man.lines()
            .take(5)
            .any(|l| l.starts_with(".TH gamesweep 1")),
        "{man}"
    );
    assert!(
        man.contains("pause") && man.contains("completions"),
        "{man}"
    );
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("man");
    ok(&["man", "--out", s(&pages)]);
    for page in [
        "gamesweep.1",
        "gamesweep-run.1",
        "gamesweep-pause.1",
        "gamesweep-status.1",
    ] {
        let text =
            std::fs::read_to_string(pages.join(page)).unwrap_or_else(|e| panic!("{page}: {e}"));
        assert!(text.contains(".TH"), "{page}");
    }
}

/// A coordinator session: cancel of a finished sweep is refused in one
/// line; --priority, pause and resume show in status; --watch into a pipe
/// writes no terminal codes; status --json and the export body match
/// their schemas.
#[test]
fn cancel_pause_resume_priority_watch_and_schemas() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (_coord, url) = serve(&d.join("store"), &[], &d.join("coord.log"));
    let c = ["--coordinator", url.as_str()];
    let with = |args: &[&str]| -> Vec<String> {
        args.iter().chain(c.iter()).map(|a| a.to_string()).collect()
    };
    let run = |args: &[&str]| {
        let a = with(args);
        gs(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let o = run(&["launch", "uvg", "--max-n", "6", "--name", "small"]);
    assert!(o.status.success(), "{}", stderr(&o));
    work_until_idle(&url, None, &d.join("worker.log"));
    // Cancelling a finished sweep: one line, exit 2, nothing cancelled.
    let a = with(&["cancel", "small"]);
    let err = refused(
        &a.iter().map(String::as_str).collect::<Vec<_>>(),
        "sweep `small` is already done; nothing to cancel",
    );
    assert!(!err.contains("cancelled small"), "{err}");
    assert_eq!(run(&["cancel", "small"]).status.code(), Some(2));
    let json: serde_json::Value =
        serde_json::from_slice(&run(&["status", "small", "--json"]).stdout).unwrap();
    assert_eq!(json["sweeps"][0]["state"], "done");
    assert_eq!(json["sweeps"][0]["eta_seconds"], serde_json::Value::Null);

    // A big sweep with priority 3, paused: status says so; --watch into a
    // pipe (settled: paused) prints once, without terminal codes.
    let o = run(&[
        "launch",
        "uvg",
        "--max-n",
        "9",
        "--shards",
        "64",
        "--name",
        "big",
        "--priority",
        "3",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("launched big with 65 shards (asked for 64: one more shard"),
        "{}",
        stderr(&o)
    );
    let o = run(&["pause", "big"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8(run(&["status", "big", "--watch"]).stdout).unwrap();
    assert!(!text.contains('\x1b'), "terminal codes in a pipe: {text:?}");
    // Into a pipe each line carries the UTC time it was read (issue 26).
    let stamp = text.split(' ').next().unwrap_or_default();
    assert!(
        stamp.len() == 20 && stamp.starts_with("20") && stamp.ends_with('Z'),
        "{text}"
    );
    assert!(
        text.lines().all(|l| l.starts_with(stamp)),
        "every line stamped: {text}"
    );
    assert!(text.starts_with(&format!("{stamp} big  uvg ")), "{text}");
    assert!(text.contains("[paused] priority 3\n"), "{text}");
    let o = run(&["pause", "big"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("already paused"), "{}", stderr(&o));
    let o = run(&["resume", "big"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = ok(&with(&["status", "big"])
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>());
    assert!(text.contains("[running] priority 3\n"), "{text}");

    // status --json under its schema (a done sweep and a running one).
    let status: serde_json::Value =
        serde_json::from_slice(&run(&["status", "--json"]).stdout).unwrap();
    assert_eq!(status["sweeps"].as_array().unwrap().len(), 2);
    valid_and_strict(
        &schema("status.schema.json"),
        &status,
        &[
            &["sweeps"],
            &["workers"],
            &["sweeps", "state"],
            &["sweeps", "rate"],
            &["sweeps", "eta_seconds"],
            &["sweeps", "positions_done"],
        ],
    );
    let mut bad = status.clone();
    bad["sweeps"][0]["state"] = "resting".into();
    assert!(!schema("status.schema.json").is_valid(&bad));

    // The export file's body (its manifest) under its schema.
    let file = d.join("small.gsx");
    let o = run(&["export", "small", s(&file)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let export = gamesweep_engine::export_file::decode(&std::fs::read(&file).unwrap())
        .unwrap()
        .export;
    let body = serde_json::to_value(&export).unwrap();
    valid_and_strict(
        &schema("export-manifest.schema.json"),
        &body,
        &[
            &["sweep_id"],
            &["solver_version"],
            &["plan"],
            &["results", "index"],
            &["results", "result"],
        ],
    );
    let o = run(&["cancel", "big"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let json: serde_json::Value =
        serde_json::from_slice(&run(&["status", "big", "--json"]).stdout).unwrap();
    assert_eq!(json["sweeps"][0]["state"], "cancelled");
    assert_eq!(json["sweeps"][0]["eta_seconds"], serde_json::Value::Null);
}
