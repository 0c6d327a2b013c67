//! The commands' one-line errors, `--help` without a kind, the documented
//! build, and the token and coordinator from the environment.

use super::*;

/// Exit non-zero with a single line on stderr that contains `hint`.
pub(super) fn one_line_error(args: &[&str], hint: &str) {
    let o = gs(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{args:?} succeeded");
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "{args:?}: not one line: {err}"
    );
    assert!(err.contains(hint), "{args:?}: `{hint}` not in: {err}");
}

#[test]
fn bad_inputs_give_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    let d = |p: &str| dir.path().join(p).to_str().unwrap().to_string();
    let dead = url(free_port());
    one_line_error(
        &["launch", "nosuchkind", "--coordinator", &dead],
        "unknown sweep kind",
    );
    one_line_error(
        &["launch", "uvg", "--max-n", "99", "--coordinator", &dead],
        "out of range",
    );
    one_line_error(&["run", "uvg", "--max-n", "99"], "out of range");
    one_line_error(
        &["status", "--coordinator", &dead],
        "cannot reach the coordinator",
    );
    one_line_error(
        &["report", "x", "--coordinator", "not a url"],
        "bad coordinator URL",
    );
    // A foreign directory and a corrupt store.
    std::fs::create_dir_all(d("foreign")).unwrap();
    std::fs::write(dir.path().join("foreign/notes.txt"), "mine").unwrap();
    one_line_error(
        &["serve", "--listen", "127.0.0.1:0", "--store", &d("foreign")],
        "not a gamesweep store",
    );
    std::fs::create_dir_all(d("corrupt")).unwrap();
    std::fs::write(dir.path().join("corrupt/conf"), "garbage\x00\x01").unwrap();
    std::fs::write(dir.path().join("corrupt/db"), vec![0xAB; 4096]).unwrap();
    one_line_error(
        &["serve", "--listen", "127.0.0.1:0", "--store", &d("corrupt")],
        "store",
    );
    // Non-loopback without a token.
    one_line_error(
        &["serve", "--listen", "0.0.0.0:0", "--store", &d("s")],
        "--token-file",
    );
    // A "coordinator" that accepts and drops every connection: the error
    // says what happened to it, not just "transport error".
    let dropper = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let dropping = url(dropper.local_addr().unwrap().port());
    std::thread::spawn(move || {
        for c in dropper.incoming() {
            drop(c);
        }
    });
    let o = gs(&["status", "--coordinator", &dropping]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    // Was the bare "gamesweep: transport error".
    assert!(
        err.contains("transport error: connection"),
        "no cause in: {err}"
    );
    // A lease too long for a Duration (panicked), too short, or not a number.
    for lease in ["1e30", "86401", "0.1", "NaN", "inf"] {
        one_line_error(
            &[
                "serve",
                "--listen",
                "127.0.0.1:0",
                "--store",
                &d("s"),
                "--lease-secs",
                lease,
            ],
            "--lease-secs must be between 0.2 and 86400",
        );
    }
}

/// `run --help` / `launch --help` without a kind print the shared options and
/// every kind (they used to fail with "unknown sweep kind `--help`").
#[test]
fn help_without_a_kind_lists_the_options_and_kinds() {
    for (verb, flag) in [
        ("run", "--help"),
        ("run", "-h"),
        ("launch", "--help"),
        ("launch", "-h"),
    ] {
        let out = ok(&[verb, flag]);
        assert!(out.contains("--shards"), "{verb}: {out}");
        for k in gamesweep::kinds::registry() {
            assert!(out.contains(k.name()), "{verb}: {} missing", k.name());
        }
    }
    let o = gs(&["run", "nope"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown sweep kind `nope`"));
}

#[test]
fn the_documented_build_makes_both_binaries() {
    // `cargo build --release` builds the default members; the package that
    // holds both binaries must be one of them.
    let manifest =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../Cargo.toml")).unwrap();
    let line = manifest
        .lines()
        .find(|l| l.starts_with("default-members"))
        .expect("default-members in the workspace manifest");
    assert!(line.contains("\"coordinator\""), "{line}");
    for (bin, name) in [(BIN, "gamesweep"), (WORKER_BIN, "gamesweep-worker")] {
        let o = isolated(Command::new(bin))
            .arg("--version")
            .output()
            .unwrap();
        assert!(o.status.success());
        let version = String::from_utf8(o.stdout).unwrap();
        assert!(version.starts_with(&format!("{name} ")), "{version}");
    }
}

#[test]
fn the_token_and_coordinator_come_from_the_environment_for_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let token = dir.path().join("token");
    std::fs::write(&token, "env-token\n").unwrap();
    let (_c, u) = Serve::new(&dir.path().join("store"))
        .port(0)
        .args(&["--token-file", token.to_str().unwrap()])
        .log(&dir.path().join("serve.log"))
        .start()
        .into_parts();
    // Only environment variables: launch, a worker (the worker binary), status, report.
    let with_env = |bin: &str| {
        let mut c = isolated(Command::new(bin));
        c.env("GAMESWEEP_COORDINATOR", &u)
            .env("GAMESWEEP_TOKEN_FILE", &token);
        c
    };
    let o = with_env(BIN)
        .args([
            "launch",
            "uvg",
            "--replicate-fraction",
            "0",
            "--max-n",
            "6",
            "--name",
            "e",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let w = with_env(WORKER_BIN)
        .args(["--threads", "1", "--exit-when-idle", "--id", "env-worker"])
        .stderr(std::fs::File::create(dir.path().join("w.log")).unwrap())
        .status()
        .unwrap();
    assert!(w.success(), "the worker failed: see w.log");
    let o = with_env(BIN)
        .args(["status", "e", "--json"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let st: Overview = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(st.sweeps[0].state, SweepState::Done);
    let out = dir.path().join("out");
    let o = with_env(BIN)
        .args(["report", "e", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        std::fs::read_to_string(out.join("results.json")).unwrap(),
        reference(6)
    );
    // Without the token the same command is refused...
    let o = isolated(Command::new(BIN))
        .args(["status", "e", "--coordinator", &u])
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("token"));
    // ...and with the token at the one default path, ~/.gamesweep/token, it is not.
    let home = dir.path().join("home");
    std::fs::create_dir_all(home.join(".gamesweep")).unwrap();
    std::fs::copy(&token, home.join(".gamesweep/token")).unwrap();
    let o = isolated(Command::new(BIN))
        .env("HOME", &home)
        .args(["status", "e", "--coordinator", &u])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}
