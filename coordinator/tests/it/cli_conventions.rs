//! The command line as a new user meets it: counts that read as English,
//! a shard count that says why it differs from the one asked for,
//! `status --watch` without terminal codes in a pipe, `cancel` of a finished
//! sweep refused in one line, `pause` / `resume` / `--priority` shown by
//! `status`, shell completions and man pages from the clap definitions, and
//! the documented JSON (results.json, `status --json`, the export file's
//! body) valid against the JSON Schemas in `docs/schema/`. Real processes on
//! 127.0.0.1 (port 0), each bounded in time.

use std::path::Path;

use crate::support::harness;
use harness::{gs, ok, refused, serve, work_until_idle};

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
    // Into a pipe each line carries the UTC time it was read.
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

/// `text` with every `-` as roff writes it (`\-`).
fn roffed(text: &str) -> String {
    text.replace('-', "\\-")
}

/// Every command's man page (the kinds' pages of `run` and `launch`
/// included) lists every option of its command, has EXAMPLES, ENVIRONMENT
/// and EXIT STATUS, and the main page's NAME line is the tool's, not a
/// stale list of commands.
#[test]
fn man_pages_list_every_option_with_examples_environment_and_exit_status() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("man");
    ok(&["man", "--out", s(&pages)]);
    let mut cmd =
        gamesweep_coordinator::cli::documented_command(true).disable_help_subcommand(true);
    cmd.build();
    let mut todo = vec![cmd];
    let mut seen = 0;
    while let Some(c) = todo.pop() {
        todo.extend(c.get_subcommands().filter(|s| !s.is_hide_set()).cloned());
        let name = format!("{}.1", c.get_display_name().unwrap_or(c.get_name()));
        let text =
            std::fs::read_to_string(pages.join(&name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        for section in [
            ".SH NAME",
            ".SH EXAMPLES",
            ".SH ENVIRONMENT",
            ".SH \"EXIT STATUS\"",
        ] {
            assert!(text.contains(section), "{name} lacks {section}");
        }
        assert!(text.contains("\\fB130\\fR"), "{name}: exit status 130");
        for a in c.get_arguments().filter(|a| !a.is_hide_set()) {
            if let Some(long) = a.get_long() {
                let flag = roffed(&format!("--{long}"));
                assert!(text.contains(&flag), "{name} lacks {flag}");
            }
        }
        seen += 1;
    }
    assert!(seen > 40, "only {seen} pages");
    let main = std::fs::read_to_string(pages.join("gamesweep.1")).unwrap();
    let name_line = main
        .lines()
        .skip_while(|l| *l != ".SH NAME")
        .nth(1)
        .unwrap();
    assert!(
        name_line.starts_with("gamesweep \\- ") && !name_line.contains("run, serve"),
        "{name_line}"
    );
    // The main page's ENVIRONMENT names the variables of every command.
    for var in [
        "GAMESWEEP_COORDINATOR",
        "GAMESWEEP_TOKEN_FILE",
        "GAMESWEEP_TLS_CA",
        "GAMESWEEP_THREADS",
    ] {
        assert!(main.contains(var), "gamesweep.1 lacks {var}");
    }
    // `run` and `launch` list their own options; each kind's page its
    // parameters, for every kind of the registry.
    let run = std::fs::read_to_string(pages.join("gamesweep-run.1")).unwrap();
    for flag in [
        "--threads",
        "--out",
        "--sample",
        "--project-cores",
        "--fresh",
    ] {
        assert!(run.contains(&roffed(flag)), "gamesweep-run.1 lacks {flag}");
    }
    let launch = std::fs::read_to_string(pages.join("gamesweep-launch.1")).unwrap();
    for flag in ["--name", "--resume", "--priority", "--coordinator"] {
        assert!(
            launch.contains(&roffed(flag)),
            "gamesweep-launch.1 lacks {flag}"
        );
    }
    assert!(!launch.contains(&roffed("--project-cores")), "{launch}");
    for k in gamesweep::kinds::registry() {
        for verb in ["run", "launch"] {
            let page = format!("gamesweep-{verb}-{}.1", k.name());
            let text = std::fs::read_to_string(pages.join(&page))
                .unwrap_or_else(|e| panic!("{page}: {e}"));
            for p in k.params() {
                let flag = roffed(&format!("--{}", gamesweep_api::text::flag_name(p.name)));
                assert!(text.contains(&flag), "{page} lacks {flag}");
            }
        }
    }
}

/// What bash offers for the words typed so far (the last may be partial),
/// by the completion script `gamesweep completions bash` prints.
fn bash_completes(script: &Path, words: &[&str]) -> Vec<String> {
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let cword = words.len() - 1;
    let prev = if cword > 0 { words[cword - 1] } else { "" };
    let program = format!(
        "source '{}'; COMP_WORDS=({}); COMP_CWORD={cword}; _gamesweep gamesweep '{}' '{prev}'; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        s(script),
        quoted.join(" "),
        words[cword]
    );
    let o = std::process::Command::new("bash")
        .args(["--norc", "--noprofile", "-c", &program])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// `gamesweep run <TAB>` offers the kinds of the registry, `run uvg
/// --<TAB>` the kind's parameters and run's options, `launch uvg --<TAB>`
/// launch's options and not run's.
#[test]
fn bash_completes_kinds_and_their_parameters() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("gamesweep.bash");
    std::fs::write(&script, ok(&["completions", "bash"])).unwrap();
    let kinds = bash_completes(&script, &["gamesweep", "run", ""]);
    for k in gamesweep::kinds::registry() {
        assert!(
            kinds.iter().any(|w| w == k.name()),
            "{} not in {kinds:?}",
            k.name()
        );
    }
    assert!(
        !kinds.iter().any(|w| w == "--threads"),
        "options before the kind: {kinds:?}"
    );
    let uvg = bash_completes(&script, &["gamesweep", "run", "uvg", "--"]);
    for flag in ["--max-n", "--threads", "--out", "--sample", "--help"] {
        assert!(uvg.iter().any(|w| w == flag), "{flag} not in {uvg:?}");
    }
    let launch = bash_completes(&script, &["gamesweep", "launch", "uvg", "--"]);
    for flag in ["--max-n", "--name", "--resume", "--coordinator"] {
        assert!(launch.iter().any(|w| w == flag), "{flag} not in {launch:?}");
    }
    assert!(
        !launch
            .iter()
            .any(|w| w == "--threads" || w == "--project-cores"),
        "{launch:?}"
    );
    let partial = bash_completes(&script, &["gamesweep", "launch", "uv"]);
    assert!(partial.iter().any(|w| w == "uvg"), "{partial:?}");
}

/// Help texts: `status --help` names every state (paused too); `launch
/// KIND --help` has launch's usage line and not run's `--project-cores`;
/// `solve col --help` speaks of graph6 only, `solve myopic --help` of
/// digraph6.
#[test]
fn help_texts_say_what_each_command_takes() {
    let status = ok(&["status", "--help"]);
    for state in gamesweep_api::domain::SweepState::ALL {
        assert!(status.contains(state.as_str()), "{state:?} not in {status}");
    }
    let launch = ok(&["launch", "uvg", "--help"]);
    assert!(launch.contains("gamesweep launch uvg"), "{launch}");
    assert!(!launch.contains("gamesweep run"), "{launch}");
    assert!(!launch.contains("--project-cores"), "{launch}");
    let run = ok(&["run", "uvg", "--help"]);
    assert!(
        run.contains("gamesweep run uvg") && !run.contains("gamesweep launch"),
        "{run}"
    );
    assert!(run.contains("--project-cores"), "{run}");
    let launch = ok(&["launch", "--help"]);
    assert!(
        launch.contains("gamesweep launch KIND") && !launch.contains("gamesweep run"),
        "{launch}"
    );
    let col = ok(&["solve", "col", "--help"]);
    assert!(col.contains("graph6") && !col.contains("digraph6"), "{col}");
    let myopic = ok(&["solve", "myopic", "--help"]);
    assert!(myopic.contains("digraph6"), "{myopic}");
}

/// Counts agree with their nouns ("1 vertex", "1 edge", "1 draw", "1
/// shard", "1 position"); a mistyped kind gets a "did you mean"; every
/// error, clap's own too, starts with "gamesweep: " and no "error:".
#[test]
fn counts_agree_kinds_are_suggested_and_errors_have_one_prefix() {
    let one = ok(&["solve", "uvg", "A_"]);
    assert!(one.starts_with("UVG on 2 vertices, 1 edge,"), "{one}");
    let one = ok(&["solve", "uvg", "@"]);
    assert!(one.starts_with("UVG on 1 vertex, 0 edges,"), "{one}");
    let dir = tempfile::tempdir().unwrap();
    // One position with a move to itself: a draw.
    let game = dir.path().join("loop.game");
    std::fs::write(&game, "a -> a\n").unwrap();
    let o = gs(&["solve", "gamegraph", s(&game)]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains(": 1 position, 1 move,") && text.contains(", 1 draw\n"),
        "{text}{}",
        stderr(&o)
    );

    let err = refused(&["run", "uvgg"], "did you mean `uvg`?");
    assert!(
        err.starts_with("gamesweep: unknown sweep kind `uvgg`"),
        "{err}"
    );
    assert_eq!(gs(&["run", "uvgg"]).status.code(), Some(2));
    refused(&["launch", "coll"], "did you mean `col`?");
    for args in [
        &["run", "uvg", "--max-m", "3"][..],
        &["launch", "uvg", "--max-n", "x"],
        &["statsu"],
        &["status", "--jsno"],
    ] {
        let o = gs(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.starts_with("gamesweep: "), "{args:?}: {err}");
        assert!(!err.contains("error:"), "{args:?}: {err}");
    }
}

/// Start `gamesweep run uvg --max-n 10` (a minute or more on one thread)
/// into `out`, wait until its first line (planned or resuming), let it
/// work a moment, send it `signal` by its PID, and return its exit code and
/// everything it wrote to stderr. Every wait is bounded.
fn run_then_signal(out: &Path, signal: &str) -> (Option<i32>, String) {
    use std::io::BufRead as _;
    let mut child = crate::support::proc::Proc(
        harness::isolated(std::process::Command::new(harness::BIN))
            .args([
                "run",
                "uvg",
                "--max-n",
                "10",
                "--threads",
                "1",
                "-q",
                "--no-http",
                "--out",
            ])
            .arg(out)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let (tx, rx) = std::sync::mpsc::channel();
    let lines = std::io::BufReader::new(child.0.stderr.take().unwrap()).lines();
    std::thread::spawn(move || {
        for l in lines.map_while(Result::ok) {
            if tx.send(l).is_err() {
                return;
            }
        }
    });
    let first = rx
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("no first line from run");
    assert!(
        first.contains("planned") || first.contains("resuming"),
        "{first}"
    );
    std::thread::sleep(std::time::Duration::from_millis(500));
    let st = std::process::Command::new("kill")
        .args([signal, &child.0.id().to_string()])
        .status()
        .unwrap();
    assert!(st.success());
    let mut err = first + "\n";
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        if let Some(code) = child.0.try_wait().unwrap() {
            // The rest of stderr, now that the writer has gone.
            while let Ok(l) = rx.recv_timeout(std::time::Duration::from_secs(5)) {
                err.push_str(&l);
                err.push('\n');
            }
            return (code.code(), err);
        }
        while let Ok(l) = rx.try_recv() {
            err.push_str(&l);
            err.push('\n');
        }
        assert!(
            std::time::Instant::now() < deadline,
            "run still running 60 s after {signal}: {err}"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Ctrl-C (SIGINT) on `run` exits 130 and SIGTERM 143, as a shell reports
/// a process those signals stop, each saying the run is kept and how to
/// resume it; the second run resumed the first's store.
#[test]
fn run_interrupted_exits_130_or_143_and_says_how_to_resume() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    let (code, err) = run_then_signal(&out, "-INT");
    assert_eq!(code, Some(130), "{err}");
    let last = err
        .trim_end()
        .lines()
        .last()
        .unwrap_or_default()
        .to_string();
    assert!(
        last.starts_with("gamesweep: interrupted (SIGINT) after "),
        "{err}"
    );
    assert!(
        last.ends_with("; rerun the same command to resume"),
        "{err}"
    );
    let (code, err) = run_then_signal(&out, "-TERM");
    assert_eq!(code, Some(143), "{err}");
    assert!(err.starts_with("gamesweep: resuming the run in "), "{err}");
    let last = err
        .trim_end()
        .lines()
        .last()
        .unwrap_or_default()
        .to_string();
    assert!(
        last.starts_with("gamesweep: interrupted (SIGTERM) after "),
        "{err}"
    );
    assert!(
        last.ends_with("; rerun the same command to resume"),
        "{err}"
    );
}

/// Errors that misled now say what happened: a store another coordinator
/// holds is "in use" (not "point --store at an empty directory"); a busy
/// port is said once; `launch --resume` with other parameters says so (not
/// "pick another --name"); `--resume` of a finished sweep says it is done
/// (not "continuing"); `export --store` of an unknown id names the store
/// (not "this coordinator"); `status` at the dashboard's port says so (not
/// "use https").
#[test]
fn errors_say_what_happened() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let store = d.join("store");
    let http_file = d.join("http.url");
    let (_coord, url) = serve(
        &store,
        &[
            "--http",
            "127.0.0.1:0",
            "--http-address-file",
            s(&http_file),
        ],
        &d.join("coord.log"),
    );

    // `status` pointed at the dashboard: not "use https", but what it is.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let dashboard = loop {
        match std::fs::read_to_string(&http_file) {
            Ok(u) if u.ends_with('\n') => break u.trim().to_string(),
            _ => assert!(std::time::Instant::now() < deadline, "no dashboard address"),
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let o = gs(&["status", "--coordinator", &dashboard]);
    let err = stderr(&o);
    assert!(!o.status.success(), "{err}");
    assert!(
        err.contains("the dashboard") && err.contains("--listen"),
        "{err}"
    );
    assert!(!err.contains("https"), "{err}");

    let o = gs(&["serve", "--listen", "127.0.0.1:0", "--store", s(&store)]);
    let err = stderr(&o);
    assert!(!o.status.success(), "{err}");
    assert!(err.contains("is in use by another process"), "{err}");
    assert!(
        !err.contains("empty directory") && !err.contains("damaged"),
        "{err}"
    );

    let addr = url.strip_prefix("http://").unwrap();
    let o = gs(&["serve", "--listen", addr, "--store", s(&d.join("other"))]);
    let err = stderr(&o);
    assert!(!o.status.success(), "{err}");
    assert!(err.contains(&format!("cannot listen on {addr}: ")), "{err}");
    assert_eq!(err.matches("in use").count(), 1, "said twice: {err}");

    let c = ["--coordinator", url.as_str()];
    let with = |args: &[&str]| -> Vec<String> {
        args.iter().chain(c.iter()).map(|a| a.to_string()).collect()
    };
    let run = |args: &[&str]| {
        let a = with(args);
        gs(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let o = run(&["launch", "uvg", "--max-n", "5", "--name", "u1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    work_until_idle(&url, None, &d.join("worker.log"));
    let o = run(&["launch", "uvg", "--max-n", "6", "--name", "u1", "--resume"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("gamesweep: sweep `u1` was launched as `uvg "),
        "{err}"
    );
    assert!(
        err.contains("--max-n 5") && err.contains("--max-n 6"),
        "{err}"
    );
    assert!(!err.contains("already exists"), "{err}");
    let o = run(&["launch", "uvg", "--max-n", "5", "--name", "u1", "--resume"]);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(err.starts_with("u1 is already done ("), "{err}");
    assert!(!err.contains("continuing"), "{err}");

    // A stopped store: a run's.
    let out = d.join("r");
    ok(&[
        "run",
        "uvg",
        "--max-n",
        "5",
        "--threads",
        "1",
        "-q",
        "--no-http",
        "--out",
        s(&out),
    ]);
    let err = refused(
        &[
            "export",
            "nope",
            s(&d.join("nope.gsx")),
            "--store",
            s(&out.join("store")),
        ],
        "no sweep named `nope` in the store ",
    );
    assert!(
        err.contains("it holds run") && !err.contains("this coordinator"),
        "{err}"
    );
}

/// `audit` shows when as a date in UTC, not milliseconds since 1970;
/// `--json` keeps the number.
#[test]
fn audit_shows_dates() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (_coord, url) = serve(&d.join("store"), &[], &d.join("coord.log"));
    ok(&[
        "launch",
        "uvg",
        "--max-n",
        "5",
        "--name",
        "a1",
        "--coordinator",
        &url,
    ]);
    let text = ok(&["audit", "--coordinator", &url]);
    let row = text
        .lines()
        .find(|l| l.contains("a1"))
        .unwrap_or_else(|| panic!("{text}"));
    let when = row.split_whitespace().next().unwrap();
    let year: u32 = when[..4].parse().unwrap_or_else(|_| panic!("{row}"));
    assert!(
        year >= 2024 && when.ends_with('Z') && when.as_bytes()[10] == b'T',
        "{row}"
    );
    assert!(text.starts_with("time (UTC)"), "{text}");
    let json: serde_json::Value =
        serde_json::from_str(&ok(&["audit", "--json", "--coordinator", &url])).unwrap();
    assert!(
        json[0]["unix_ms"].as_u64().unwrap() > 1_700_000_000_000,
        "{json}"
    );
}

/// The README's first command, in a checkout: `run` without `--out` writes
/// to `sweeps/<kind>[-<params>]` (git-ignored) and never into `runs/`,
/// where the committed reference runs live; so the README's test command
/// that follows it (which compares against `runs/uvg/report.md`) still
/// passes, and `git status` stays clean. Before, it rewrote `runs/uvg`.
#[test]
fn run_without_out_writes_under_sweeps_and_leaves_runs_alone() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs/uvg-max-n-6");
    std::fs::create_dir_all(&runs).unwrap();
    std::fs::write(runs.join("report.md"), "committed\n").unwrap();
    let o = std::process::Command::new(harness::BIN)
        .current_dir(dir.path())
        .env("HOME", "/nonexistent/gamesweep-test-home")
        .args(["run", "uvg", "--max-n", "6", "--threads", "1", "-q"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let entries: Vec<_> = std::fs::read_dir(&runs)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(entries, ["report.md"], "run wrote into runs/");
    assert_eq!(
        std::fs::read_to_string(runs.join("report.md")).unwrap(),
        "committed\n"
    );
    let out = dir.path().join("sweeps/uvg-max-n-6");
    let results = std::fs::read_to_string(out.join("results.json")).unwrap();
    assert!(results.contains("\"kind\": \"uvg\""), "{results}");
    assert!(out.join("report.md").is_file());
    // And the .gitignore at the repository's root ignores it.
    let ignore =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.gitignore"))
            .unwrap();
    assert!(ignore.lines().any(|l| l == "sweeps/"), "{ignore}");
}

/// The replication share is `--replicate-fraction` (and its key
/// `--replicate-seed`) wherever it is set: `run`, `launch`, `serve`'s
/// imports, `import`. *Verify* is `gamesweep verify` only. The older
/// names are still accepted, and no help text shows them.
#[test]
fn the_replication_share_is_named_for_replication_and_its_old_name_still_works() {
    for words in [
        &["run", "uvg", "--help"][..],
        &["launch", "uvg", "--help"],
        &["import", "--help"],
    ] {
        let help = ok(words);
        assert!(help.contains("--replicate-fraction"), "{words:?}: {help}");
        assert!(!help.contains("--verify-fraction"), "{words:?}: {help}");
        assert!(!help.contains("--verify-seed"), "{words:?}: {help}");
    }
    assert!(ok(&["launch", "uvg", "--help"]).contains("--replicate-seed"));
    refused(
        &["run", "uvg", "--max-n", "3", "--replicate-fraction", "lots"],
        "bad --replicate-fraction `lots`",
    );
    // The old spelling sets the same option (the same refusal names it
    // by its name now).
    refused(
        &["run", "uvg", "--max-n", "3", "--verify-fraction", "lots"],
        "bad --replicate-fraction `lots`",
    );
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("old-name");
    let o = gs(&[
        "run",
        "uvg",
        "--max-n",
        "4",
        "--verify-fraction",
        "0",
        "--verify-seed",
        "7",
        "-q",
        "--no-http",
        "--out",
        s(&out),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.join("results.json").is_file());
}
