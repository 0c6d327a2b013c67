//! TLS between the coordinator and its clients, with certificates made at
//! test time (rcgen) for `localhost` and 127.0.0.1: a whole sweep over
//! https (serve, launch, worker, report), and the refusals: https to a
//! plain server (no fallback to plain text), plain http to a TLS server, a
//! certificate from another CA, and a missing client certificate when the
//! coordinator asks for one.

use rcgen::{BasicConstraints, CertificateParams, IsCa, Issuer, KeyPair};
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::support::harness::{Coordinator, Gs, Serve};
use crate::support::proc::free_port;

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

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

const NAMES: &[&str] = &["localhost", "127.0.0.1"];

/// A coordinator on a free port of 127.0.0.1 with `args` (its TLS files),
/// its store and log in `d`; and the port.
fn tls_coordinator(d: &Path, args: &[&str]) -> (Coordinator, u16) {
    let port = free_port();
    let c = Serve::new(&d.join(format!("store-{port}")))
        .port(port)
        .args(args)
        .home(d)
        .log(&d.join(format!("serve-{port}.log")))
        .start();
    (c, port)
}

/// `gamesweep ARGS` in `d`, which must fail within 30 s: what it said.
fn refused(d: &Path, args: &[&str]) -> String {
    Gs::new(args).home(d).limit(Duration::from_secs(30)).fails()
}

#[test]
fn a_sweep_runs_over_tls_end_to_end() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let ca = Ca::new(d, "ca");
    let (cert, key) = ca.issue(d, "server", NAMES);
    let token = d.join("token");
    std::fs::write(&token, "tls-token\n").unwrap();
    let (_c, port) = tls_coordinator(
        d,
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
            Gs::new(&a).home(d).ok()
        };
        status(&[]);
        if url.contains("127.0.0.1") {
            continue;
        }
        let mut launch = vec![
            "launch",
            "uvg",
            "--replicate-fraction",
            "0",
            "--max-n",
            "6",
            "--shards",
            "4",
            "--name",
            "t",
        ];
        launch.extend(conn);
        Gs::new(&launch).home(d).ok();
        // The worker takes its TLS files from the environment.
        let o = Gs::new(&[
            "worker",
            "--coordinator",
            &url,
            "--threads",
            "1",
            "--exit-when-idle",
        ])
        .home(d)
        .env("GAMESWEEP_TOKEN_FILE", &token)
        .env("GAMESWEEP_TLS_CA", &ca.pem)
        .output();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let out = d.join("report");
        let mut report = vec!["report", "t", "--out", p(&out)];
        report.extend(conn);
        Gs::new(&report).home(d).ok();
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
    let (_c, port) = tls_coordinator(d, &[]);
    let url = format!("https://127.0.0.1:{port}");
    let err = refused(
        d,
        &["status", "--coordinator", &url, "--tls-ca", p(&ca.pem)],
    );
    assert!(
        err.contains("TLS handshake failed: is the coordinator serving TLS"),
        "{err}"
    );
    // TLS files with a plain URL are refused rather than ignored.
    let plain = format!("http://127.0.0.1:{port}");
    let err = refused(
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
    let (_c, port) = tls_coordinator(d, &["--tls-cert", p(&cert), "--tls-key", p(&key)]);
    let url = format!("http://127.0.0.1:{port}");
    let err = refused(d, &["status", "--coordinator", &url]);
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
    let (_c, port) = tls_coordinator(d, &["--tls-cert", p(&cert), "--tls-key", p(&key)]);
    let url = format!("http://127.0.0.1:{port}");
    let err = refused(d, &["worker", "--coordinator", &url, "--threads", "1"]);
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
    let (_c, port) = tls_coordinator(d, &["--tls-cert", p(&cert), "--tls-key", p(&key)]);
    let url = format!("https://localhost:{port}");
    let err = refused(
        d,
        &["status", "--coordinator", &url, "--tls-ca", p(&other.pem)],
    );
    assert!(err.contains("certificate is not trusted"), "{err}");
    // Without --tls-ca the webpki roots do not know the test CA either.
    let err = refused(d, &["status", "--coordinator", &url]);
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
    let (_c, port) = tls_coordinator(
        d,
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
    let err = refused(d, &base);
    assert!(err.contains("cannot reach the coordinator"), "{err}");
    let mut with_cert = base.to_vec();
    with_cert.extend(["--tls-cert", p(&ccert), "--tls-key", p(&ckey)]);
    Gs::new(&with_cert).home(d).ok();
    // A certificate from a CA the coordinator does not trust is refused.
    let (bad_cert, bad_key) = ca.issue(d, "stranger", &["stranger"]);
    let mut stranger = base.to_vec();
    stranger.extend(["--tls-cert", p(&bad_cert), "--tls-key", p(&bad_key)]);
    refused(d, &stranger);
}
