//! TLS between the coordinator and its clients, with certificates made at
//! test time (rcgen) for `localhost` and 127.0.0.1: a whole sweep over
//! https (serve, launch, worker, report), and the refusals: https to a
//! plain server (no fallback to plain text), plain http to a TLS server, a
//! certificate from another CA, and a missing client certificate when the
//! coordinator asks for one.

use rcgen::{BasicConstraints, CertificateParams, IsCa, Issuer, KeyPair};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_gamesweep");

use crate::support::proc;
use proc::{free_port, Proc};

/// A CA: its certificate (PEM file) and what signs with it.
struct Ca {
    pem: PathBuf,
    issuer: Issuer<'static, KeyPair>,
}

impl Ca {
    fn new(dir: &Path, name: &str) -> Ca {
        let key = KeyPair::generate().unwrap();
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        let cert = params.self_signed(&key).unwrap();
        let pem = dir.join(format!("{name}.pem"));
        std::fs::write(&pem, cert.pem()).unwrap();
        Ca {
            pem,
            issuer: Issuer::new(params, key),
        }
    }

    /// A certificate for `names` signed by this CA: (cert, key) PEM files.
    fn issue(&self, dir: &Path, name: &str, names: &[&str]) -> (PathBuf, PathBuf) {
        let key = KeyPair::generate().unwrap();
        let params =
            CertificateParams::new(names.iter().map(|s| s.to_string()).collect::<Vec<_>>())
                .unwrap();
        let cert = params.signed_by(&key, &self.issuer).unwrap();
        let (c, k) = (
            dir.join(format!("{name}.crt")),
            dir.join(format!("{name}.key")),
        );
        std::fs::write(&c, cert.pem()).unwrap();
        std::fs::write(&k, key.serialize_pem()).unwrap();
        (c, k)
    }
}

fn isolated(mut cmd: Command, home: &Path) -> Command {
    cmd.env("HOME", home);
    for v in [
        "GAMESWEEP_COORDINATOR",
        "GAMESWEEP_TOKEN_FILE",
        "GAMESWEEP_TLS_CA",
        "GAMESWEEP_TLS_CERT",
        "GAMESWEEP_TLS_KEY",
        "GAMESWEEP_TLS_CLIENT_CA",
    ] {
        cmd.env_remove(v);
    }
    cmd
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// `gamesweep serve` on 127.0.0.1:`port` with `extra` options.
fn serve(dir: &Path, port: u16, extra: &[&str]) -> Proc {
    let log = dir.join(format!("serve-{port}.log"));
    let mut child = isolated(Command::new(BIN), dir)
        .args(["serve", "--listen", &format!("127.0.0.1:{port}"), "--store"])
        .arg(dir.join(format!("store-{port}")))
        .args(extra)
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Some(st) = child.try_wait().unwrap() {
            panic!(
                "coordinator exited with {st}: {}",
                std::fs::read_to_string(&log).unwrap()
            );
        }
        assert!(Instant::now() < deadline, "coordinator did not come up");
        std::thread::sleep(Duration::from_millis(50));
    }
    Proc(child)
}

/// Run `gamesweep args`; it must end within `limit`.
fn gs(dir: &Path, args: &[&str], limit: Duration) -> Output {
    let t0 = Instant::now();
    let mut child = isolated(Command::new(BIN), dir)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    while child.try_wait().unwrap().is_none() {
        if t0.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "gamesweep {args:?} still running after {limit:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

fn ok(dir: &Path, args: &[&str]) -> String {
    let o = gs(dir, args, Duration::from_secs(120));
    assert!(
        o.status.success(),
        "gamesweep {args:?} failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

fn fails(dir: &Path, args: &[&str]) -> String {
    let o = gs(dir, args, Duration::from_secs(30));
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(!o.status.success(), "gamesweep {args:?} succeeded: {err}");
    err
}

const NAMES: &[&str] = &["localhost", "127.0.0.1"];

#[test]
fn a_sweep_runs_over_tls_end_to_end() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let ca = Ca::new(d, "ca");
    let (cert, key) = ca.issue(d, "server", NAMES);
    let token = d.join("token");
    std::fs::write(&token, "tls-token\n").unwrap();
    let port = free_port();
    let _c = serve(
        d,
        port,
        &[
            "--tls-cert",
            p(&cert),
            "--tls-key",
            p(&key),
            "--token-file",
            p(&token),
        ],
    );
    for url in [
        format!("https://localhost:{port}"),
        format!("https://127.0.0.1:{port}"),
    ] {
        let conn = [
            "--coordinator",
            &url,
            "--token-file",
            p(&token),
            "--tls-ca",
            p(&ca.pem),
        ];
        let status = |extra: &[&str]| {
            let mut a = vec!["status"];
            a.extend(extra);
            a.extend(conn);
            ok(d, &a)
        };
        status(&[]);
        if url.contains("127.0.0.1") {
            continue;
        }
        let mut launch = vec![
            "launch",
            "uvg",
            "--verify-fraction",
            "0",
            "--max-n",
            "6",
            "--shards",
            "4",
            "--name",
            "t",
        ];
        launch.extend(conn);
        ok(d, &launch);
        // The worker takes its TLS files from the environment.
        let o = isolated(Command::new(BIN), d)
            .args([
                "worker",
                "--coordinator",
                &url,
                "--threads",
                "1",
                "--exit-when-idle",
            ])
            .env("GAMESWEEP_TOKEN_FILE", &token)
            .env("GAMESWEEP_TLS_CA", &ca.pem)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let out = d.join("report");
        let mut report = vec!["report", "t", "--out", p(&out)];
        report.extend(conn);
        ok(d, &report);
        let results = std::fs::read_to_string(out.join("results.json")).unwrap();
        assert!(results.contains("\"kind\": \"uvg\""), "{results}");
        let v: serde_json::Value = serde_json::from_str(&status(&["t", "--json"])).unwrap();
        assert_eq!(v["sweeps"][0]["state"], "done");
    }
}

#[test]
fn https_to_a_plain_coordinator_fails_without_fallback() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let ca = Ca::new(d, "ca");
    let port = free_port();
    let _c = serve(d, port, &[]);
    let url = format!("https://127.0.0.1:{port}");
    let err = fails(
        d,
        &["status", "--coordinator", &url, "--tls-ca", p(&ca.pem)],
    );
    assert!(
        err.contains("TLS handshake failed: is the coordinator serving TLS"),
        "{err}"
    );
    // TLS files with a plain URL are refused rather than ignored.
    let plain = format!("http://127.0.0.1:{port}");
    let err = fails(
        d,
        &["status", "--coordinator", &plain, "--tls-ca", p(&ca.pem)],
    );
    assert!(
        err.contains("is plain http: use https://HOST:PORT"),
        "{err}"
    );
}

#[test]
fn plain_http_to_a_tls_coordinator_fails_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let ca = Ca::new(d, "ca");
    let (cert, key) = ca.issue(d, "server", NAMES);
    let port = free_port();
    let _c = serve(d, port, &["--tls-cert", p(&cert), "--tls-key", p(&key)]);
    let url = format!("http://127.0.0.1:{port}");
    let err = fails(d, &["status", "--coordinator", &url]);
    assert!(
        err.contains("if the coordinator serves TLS, use an https:// URL"),
        "{err}"
    );
}

/// A worker given `http://` for a TLS coordinator retried
/// forever without saying "use https://".
#[test]
fn a_worker_given_http_for_a_tls_coordinator_says_use_https_and_stops() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let ca = Ca::new(d, "ca");
    let (cert, key) = ca.issue(d, "server", NAMES);
    let port = free_port();
    let _c = serve(d, port, &["--tls-cert", p(&cert), "--tls-key", p(&key)]);
    let url = format!("http://127.0.0.1:{port}");
    let err = fails(d, &["worker", "--coordinator", &url, "--threads", "1"]);
    assert!(
        err.contains(&format!(
            "the coordinator at {url} speaks TLS: use https://127.0.0.1:{port}"
        )),
        "{err}"
    );
}

#[test]
fn a_certificate_from_another_ca_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let ca = Ca::new(d, "ca");
    let other = Ca::new(d, "other");
    let (cert, key) = ca.issue(d, "server", NAMES);
    let port = free_port();
    let _c = serve(d, port, &["--tls-cert", p(&cert), "--tls-key", p(&key)]);
    let url = format!("https://localhost:{port}");
    let err = fails(
        d,
        &["status", "--coordinator", &url, "--tls-ca", p(&other.pem)],
    );
    assert!(err.contains("certificate is not trusted"), "{err}");
    // Without --tls-ca the webpki roots do not know the test CA either.
    let err = fails(d, &["status", "--coordinator", &url]);
    assert!(
        err.contains("pass the CA that signed it with --tls-ca"),
        "{err}"
    );
}

#[test]
fn mutual_tls_refuses_a_client_without_a_certificate() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let ca = Ca::new(d, "ca");
    let clients = Ca::new(d, "clients");
    let (cert, key) = ca.issue(d, "server", NAMES);
    let (ccert, ckey) = clients.issue(d, "client", &["worker-1"]);
    let port = free_port();
    let _c = serve(
        d,
        port,
        &[
            "--tls-cert",
            p(&cert),
            "--tls-key",
            p(&key),
            "--tls-client-ca",
            p(&clients.pem),
        ],
    );
    let url = format!("https://localhost:{port}");
    let base = ["status", "--coordinator", &url, "--tls-ca", p(&ca.pem)];
    let err = fails(d, &base);
    assert!(err.contains("cannot reach the coordinator"), "{err}");
    let mut with_cert = base.to_vec();
    with_cert.extend(["--tls-cert", p(&ccert), "--tls-key", p(&ckey)]);
    ok(d, &with_cert);
    // A certificate from a CA the coordinator does not trust is refused.
    let (bad_cert, bad_key) = ca.issue(d, "stranger", &["stranger"]);
    let mut stranger = base.to_vec();
    stranger.extend(["--tls-cert", p(&bad_cert), "--tls-key", p(&bad_key)]);
    fails(d, &stranger);
}
