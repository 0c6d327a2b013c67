//! The one harness for tests that drive the real binaries (every module of
//! `tests/it` and `tests/slow` uses it; `it::one_harness` fails if a test
//! module defines its own `serve`, `ok`, `gs` or `status` again).
//!
//! One-shot commands, cut off from the user's settings ([`isolated`]),
//! their output drained while they run, killed after a time limit:
//!
//! ```ignore
//! let out = ok(&["run", "uvg", "--max-n", "5", "--out", d]); // must succeed: stdout
//! let o = gs(&["status"]);                                   // any outcome: Output
//! let err = fails(&["solve", "nope"]);                       // must fail: stderr
//! refused(&["solve", "nope"], "no game `nope`");             // fails with one line
//! Gs::new(&["solve", "gamegraph", "-"]).input(b"a -> b").limit(secs(30)).ok();
//! ```
//!
//! A running coordinator (`gamesweep serve` on 127.0.0.1, port 0 unless
//! given, its URL read from its `--address-file`), a sweep, workers and
//! status in a few calls; every wait is bounded:
//!
//! ```ignore
//! let c = Serve::new(&dir.join("store")).arg("--lease-secs").arg("2").start();
//! let id = c.ok(&["launch", "uvg", "--max-n", "6"]);      // `--coordinator URL` added
//! let _w = c.worker().id("w1").threads(1).spawn();          // killed on drop
//! let s = c.wait_done(id.trim(), secs(60));                // the sweep's status JSON
//! Worker::new(&c.url).until_idle();                        // runs to the end
//! ```
//!
//! Variants are builder options, not copies: [`Serve`] takes a fixed port,
//! any extra `serve` options (tokens, TLS, the HTTP face), the log and
//! address files, HOME, another build of the binary, a shell prefix, a
//! TERM-on-drop; [`Client`] carries a token file for client commands;
//! [`Worker`] is `gamesweep worker` or the `gamesweep-worker` binary.
#![allow(dead_code)] // each test file uses what it needs

use super::proc::Proc;
use std::ffi::{OsStr, OsString};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

mod client;
mod coordinator;
mod identities;
mod worker;

pub use client::Client;
#[allow(unused_imports)] // `tests/it` only
pub use coordinator::{port_of, Coordinator, Serve};
#[allow(unused_imports)] // the trust tests of `tests/it` use all of it
pub use identities::{
    honest_run, lease_req, raw_client, runtime, submit_req, try_lie, Trusted, ADMIN_SECRET,
};
pub use worker::{work_until_idle, Worker};

pub const BIN: &str = env!("CARGO_BIN_EXE_gamesweep");

/// The separate worker binary, built by the same package.
pub const WORKER_BIN: &str = env!("CARGO_BIN_EXE_gamesweep-worker");

/// `n` seconds.
pub fn secs(n: u64) -> Duration {
    Duration::from_secs(n)
}

/// `cmd` cut off from the user's coordinator settings: none of the
/// `GAMESWEEP_*` coordinator, token, TLS and memory variables, and a home
/// without a default token file.
pub fn isolated(mut cmd: Command) -> Command {
    for v in [
        "GAMESWEEP_COORDINATOR",
        "GAMESWEEP_TOKEN_FILE",
        "GAMESWEEP_WORKER_TOKEN_FILE",
        "GAMESWEEP_READ_TOKEN_FILE",
        "GAMESWEEP_COORDINATOR_FILE",
        "GAMESWEEP_TLS_CA",
        "GAMESWEEP_TLS_CERT",
        "GAMESWEEP_TLS_KEY",
        "GAMESWEEP_TLS_CLIENT_CA",
        "GAMESWEEP_MAX_MEMORY",
    ] {
        cmd.env_remove(v);
    }
    cmd.env("HOME", "/nonexistent/gamesweep-test-home");
    cmd
}

// One-shot commands

/// A one-shot `gamesweep` command: [`isolated`], killed after 120 s unless
/// [`Gs::limit`] says otherwise, stdout and stderr read while it runs (a
/// child writing more than a pipe holds would otherwise wait forever).
pub struct Gs {
    bin: OsString,
    args: Vec<OsString>,
    wrap: Vec<OsString>,
    home: Option<PathBuf>,
    env: Vec<(OsString, OsString)>,
    env_remove: Vec<OsString>,
    input: Option<Vec<u8>>,
    limit: Duration,
}

impl Gs {
    pub fn new<S: AsRef<OsStr>>(args: &[S]) -> Gs {
        Gs {
            bin: BIN.into(),
            args: args.iter().map(|a| a.as_ref().to_owned()).collect(),
            wrap: Vec::new(),
            home: None,
            env: Vec::new(),
            env_remove: Vec::new(),
            input: None,
            limit: secs(120),
        }
    }

    /// Run another build of `gamesweep`.
    pub fn bin(mut self, bin: impl AsRef<OsStr>) -> Gs {
        self.bin = bin.as_ref().to_owned();
        self
    }

    /// HOME for the command (by default one that does not exist).
    pub fn home(mut self, home: &Path) -> Gs {
        self.home = Some(home.to_owned());
        self
    }

    /// Set an environment variable.
    pub fn env(mut self, k: impl AsRef<OsStr>, v: impl AsRef<OsStr>) -> Gs {
        self.env
            .push((k.as_ref().to_owned(), v.as_ref().to_owned()));
        self
    }

    /// Remove an environment variable.
    pub fn env_remove(mut self, k: impl AsRef<OsStr>) -> Gs {
        self.env_remove.push(k.as_ref().to_owned());
        self
    }

    /// Run it through `program` (e.g. `ip netns exec NS`, which execs
    /// what follows).
    pub fn wrap<S: AsRef<OsStr>>(mut self, program: &[S]) -> Gs {
        self.wrap = program.iter().map(|s| s.as_ref().to_owned()).collect();
        self
    }

    /// Bytes written to its standard input (otherwise it reads nothing).
    pub fn input(mut self, input: &[u8]) -> Gs {
        self.input = Some(input.to_vec());
        self
    }

    /// Kill it (and fail) if it runs longer than `limit`.
    pub fn limit(mut self, limit: Duration) -> Gs {
        self.limit = limit;
        self
    }

    fn describe(&self) -> String {
        format!("gamesweep {:?}", self.args)
    }

    /// Its output, whatever its exit status.
    pub fn output(self) -> Output {
        let mut line = self.wrap.clone();
        line.push(self.bin.clone());
        let mut cmd = isolated(Command::new(&line[0]));
        cmd.args(&line[1..]);
        if let Some(h) = &self.home {
            cmd.env("HOME", h);
        }
        for (k, v) in &self.env {
            cmd.env(k, v);
        }
        for k in &self.env_remove {
            cmd.env_remove(k);
        }
        let mut child = cmd
            .args(&self.args)
            .stdin(if self.input.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("{}: {e}", self.describe()));
        let writer = child.stdin.take().map(|mut stdin| {
            let input = self.input.clone().unwrap_or_default();
            // The child may stop reading early (an error); that is its answer.
            std::thread::spawn(move || {
                let _ = stdin.write_all(&input);
            })
        });
        let drain = |mut r: Box<dyn std::io::Read + Send>| {
            std::thread::spawn(move || {
                let mut v = Vec::new();
                let _ = r.read_to_end(&mut v);
                v
            })
        };
        let out_t = drain(Box::new(child.stdout.take().unwrap()));
        let err_t = drain(Box::new(child.stderr.take().unwrap()));
        let t0 = Instant::now();
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break s;
            }
            if t0.elapsed() > self.limit {
                // Only the child we started.
                let _ = child.kill();
                let _ = child.wait();
                panic!(
                    "{} still running after {:?}: {}",
                    self.describe(),
                    self.limit,
                    String::from_utf8_lossy(&err_t.join().unwrap())
                );
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        if let Some(w) = writer {
            w.join().unwrap();
        }
        Output {
            status,
            stdout: out_t.join().unwrap(),
            stderr: err_t.join().unwrap(),
        }
    }

    /// It must succeed: its stdout.
    pub fn ok(self) -> String {
        self.ok_both().0
    }

    /// It must succeed: its stdout and stderr.
    pub fn ok_both(self) -> (String, String) {
        let what = self.describe();
        let o = self.output();
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(o.status.success(), "{what} failed: {err}");
        (String::from_utf8(o.stdout).unwrap(), err)
    }

    /// It must fail: its stderr.
    pub fn fails(self) -> String {
        let what = self.describe();
        let o = self.output();
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(!o.status.success(), "{what} succeeded: {err}");
        err
    }

    /// It must fail with exactly one line on stderr, containing `want`,
    /// and no panic: that line.
    pub fn refused(self, want: &str) -> String {
        let err = self.fails();
        assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
        assert!(err.contains(want), "{want:?} not in: {err}");
        assert!(!err.contains("panicked"), "{err}");
        err
    }
}

/// Run `gamesweep args` (see [`Gs`]); its output, whatever it is.
pub fn gs(args: &[&str]) -> Output {
    Gs::new(args).output()
}

/// Run `gamesweep args`; its stdout (it must succeed).
pub fn ok(args: &[&str]) -> String {
    Gs::new(args).ok()
}

/// Run `gamesweep args`; its stderr (it must fail).
pub fn fails(args: &[&str]) -> String {
    Gs::new(args).fails()
}

/// `gamesweep args` fails with exactly one line on stderr, containing `want`.
pub fn refused(args: &[&str], want: &str) -> String {
    Gs::new(args).refused(want)
}

/// `gamesweep serve` on 127.0.0.1:0 with `store` and `extra` options,
/// stderr to `log`: its process and URL (the common case of [`Serve`]).
pub fn serve(store: &Path, extra: &[&str], log: &Path) -> (Proc, String) {
    let c = Serve::new(store).args(extra).log(log).start();
    c.into_parts()
}

/// A process's peak resident memory (VmHWM), in KiB.
pub fn peak_rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}
