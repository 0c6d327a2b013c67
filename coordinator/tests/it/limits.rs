//! Bounds a coordinator keeps against misbehaving or hostile peers, and the
//! roles of its tokens, checked against real `gamesweep serve` processes on
//! 127.0.0.1: idle TCP connections cannot use up its file descriptors, a
//! stopped coordinator makes client calls fail by a deadline instead of
//! hanging them, an oversized request is refused without being held in
//! memory, and each token does only its role's calls.

use gamesweep_proto::pb;
use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

use crate::support::harness::{Gs, Serve};
use crate::support::proc::free_port;

/// Run `gamesweep args` (HOME: `dir`), killing it if it takes longer than
/// `limit`; returns the output and how long it took.
fn gs_within(dir: &Path, args: &[&str], limit: Duration) -> (Output, Duration) {
    let t0 = Instant::now();
    let o = Gs::new(args).home(dir).limit(limit).output();
    (o, t0.elapsed())
}

fn token(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, format!("{text}\n")).unwrap();
    p.to_str().unwrap().to_string()
}

use crate::support::harness::peak_rss_kib;

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

#[test]
fn idle_connections_do_not_lock_out_clients() {
    let dir = tempfile::tempdir().unwrap();
    let tf = token(dir.path(), "token", "s3cret");
    let port = free_port();
    let _c = Serve::new(&dir.path().join("store"))
        .port(port)
        .sh_prefix("ulimit -n 256")
        .args(&["--token-file", &tf])
        .home(dir.path())
        .log(&dir.path().join("serve.log"))
        .start();
    // 400 connections that never send a byte: more than the coordinator's
    // 256 file descriptors.
    let mut idle = Vec::new();
    for _ in 0..400 {
        match std::net::TcpStream::connect(("127.0.0.1", port)) {
            Ok(s) => idle.push(s),
            Err(e) => panic!("connect {}: {e}", idle.len()),
        }
    }
    std::thread::sleep(Duration::from_millis(500));
    let url = format!("http://127.0.0.1:{port}");
    let (out, took) = gs_within(
        dir.path(),
        &["status", "--coordinator", &url, "--token-file", &tf],
        Duration::from_secs(30),
    );
    assert!(
        out.status.success(),
        "status failed after {took:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(took < Duration::from_secs(10), "status took {took:?}");
    drop(idle);
}

#[test]
fn a_stopped_coordinator_fails_calls_by_a_deadline() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let c = Serve::new(&dir.path().join("store"))
        .port(port)
        .home(dir.path())
        .log(&dir.path().join("serve.log"))
        .start();
    let pid = c.pid() as i32;
    // SAFETY: signalling our own child by its PID.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGSTOP) }, 0);
    let url = format!("http://127.0.0.1:{port}");
    let (out, took) = gs_within(
        dir.path(),
        &["status", "--coordinator", &url],
        Duration::from_secs(60),
    );
    // SAFETY: as above.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGCONT) }, 0);
    drop(c);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains(&format!(
            "the coordinator at {url} did not answer within 20 s"
        )),
        "{err}"
    );
    assert!(
        took >= Duration::from_secs(19) && took < Duration::from_secs(30),
        "{took:?}"
    );
}

#[test]
fn an_oversized_request_is_refused_without_being_held() {
    let dir = tempfile::tempdir().unwrap();
    let tf = token(dir.path(), "token", "s3cret");
    let port = free_port();
    let c = Serve::new(&dir.path().join("store"))
        .port(port)
        .args(&["--token-file", &tf])
        .home(dir.path())
        .log(&dir.path().join("serve.log"))
        .start();
    let pid = c.pid();
    let url = format!("http://127.0.0.1:{port}");
    let rt = rt();
    let mut client = {
        let _g = rt.enter();
        gamesweep_proto::connect_lazy(&url, &gamesweep_proto::ClientOptions::token(Some("s3cret")))
            .unwrap()
    };
    // Warm up (the first call allocates the runtime's buffers).
    rt.block_on(client.status(pb::StatusRequest::default()))
        .unwrap();
    let before = peak_rss_kib(pid);
    let t0 = Instant::now();
    let err = rt
        .block_on(client.submit(pb::SubmitRequest {
            worker_id: "w".into(),
            sweep_id: "nope".into(),
            result: vec![7u8; 100 << 20],
            ..Default::default()
        }))
        .unwrap_err();
    let took = t0.elapsed();
    assert_eq!(err.code(), tonic::Code::OutOfRange, "{err:?}");
    assert!(
        err.message().contains("message length too large"),
        "{}",
        err.message()
    );
    assert!(took < Duration::from_secs(10), "{took:?}");
    let grown = peak_rss_kib(pid).saturating_sub(before);
    assert!(grown < 32 << 10, "coordinator peak RSS grew by {grown} KiB");

    // Other calls have a small limit: a 2 MB launch is refused as well.
    let err = rt
        .block_on(client.launch(pb::LaunchRequest {
            kind: "uvg".into(),
            name: "x".repeat(2 << 20),
            ..Default::default()
        }))
        .unwrap_err();
    assert_eq!(err.code(), tonic::Code::ResourceExhausted, "{err:?}");
    assert_eq!(
        err.message(),
        "Launch request larger than the coordinator's limit of 1048576 bytes for it: refused"
    );
    // The coordinator still serves.
    rt.block_on(client.status(pb::StatusRequest::default()))
        .unwrap();
}

#[test]
fn the_largest_real_shard_result_fits_a_submit() {
    // A whole uvg n <= 9 sweep as one shard: every record in one result.
    let kind = gamesweep::kinds::find("uvg").unwrap();
    let mut given = gamesweep::sweep::Params::new();
    given.insert("max_n".into(), 9);
    let params = kind.resolve_params(&given).unwrap();
    let plan = kind.plan(&params, 1).unwrap();
    let cancel = std::sync::atomic::AtomicBool::new(false);
    let progress = std::sync::atomic::AtomicU64::new(0);
    let ctx = gamesweep::sweep::ShardCtx::new(&cancel, &progress);
    let largest = plan
        .iter()
        .map(|s| kind.run_shard(&params, s, &ctx).unwrap().encode().len())
        .max()
        .unwrap();
    eprintln!("largest uvg n<=9 shard result: {largest} bytes");
    let limit = gamesweep_serve::access::SUBMIT_LIMIT;
    assert!(largest > 0);
    assert!(
        largest * 64 < limit,
        "{largest} bytes is too close to the submit limit {limit}"
    );
}

#[test]
fn each_token_does_only_its_roles_calls() {
    let dir = tempfile::tempdir().unwrap();
    let admin = token(dir.path(), "admin", "admin-token");
    let worker = token(dir.path(), "worker", "worker-token");
    let read = token(dir.path(), "read", "read-token");
    let port = free_port();
    let _c = Serve::new(&dir.path().join("store"))
        .port(port)
        .args(&[
            "--token-file",
            &admin,
            "--worker-token-file",
            &worker,
            "--read-token-file",
            &read,
        ])
        .home(dir.path())
        .log(&dir.path().join("serve.log"))
        .start();
    let url = format!("http://127.0.0.1:{port}");
    let bound = Duration::from_secs(30);
    let run = |args: &[&str], tf: &str| {
        let mut a: Vec<&str> = args.to_vec();
        a.extend(["--coordinator", &url, "--token-file", tf]);
        gs_within(dir.path(), &a, bound).0
    };
    let launch = [
        "launch",
        "uvg",
        "--replicate-fraction",
        "0",
        "--max-n",
        "6",
        "--shards",
        "4",
        "--name",
        "s",
    ];
    for tf in [&worker, &read] {
        let o = run(&launch, tf);
        assert!(!o.status.success());
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("this token may not launch sweeps: use the admin token"),
            "{err}"
        );
    }
    let o = run(&["status"], &worker);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("this token may not read sweep status: use the read or admin token"),
        "{err}"
    );
    let o = run(&launch, &admin);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = run(&["cancel", "s"], &worker);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("this token may not cancel sweeps: use the admin token"),
        "{err}"
    );
    // Pause and resume: admin only, and audited.
    for (verb, does) in [("pause", "pause sweeps"), ("resume", "resume sweeps")] {
        let o = run(&[verb, "s"], &read);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains(&format!("this token may not {does}: use the admin token")),
            "{err}"
        );
        let o = run(&[verb, "s"], &admin);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }

    // Admin actions are in the audit log, readable with the read token
    // (not the worker's).
    let o = run(
        &[
            "launch",
            "uvg",
            "--replicate-fraction",
            "0",
            "--max-n",
            "5",
            "--name",
            "gone",
        ],
        &admin,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = run(&["cancel", "gone"], &admin);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = run(&["audit", "--json"], &read);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let log: Vec<serde_json::Value> = serde_json::from_slice(&o.stdout).unwrap();
    let what: Vec<(&str, &str, &str)> = log
        .iter()
        .map(|e| {
            (
                e["action"].as_str().unwrap(),
                e["sweep_id"].as_str().unwrap(),
                e["detail"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        what,
        [
            (
                "launch",
                "s",
                "uvg collect_min_value=0 extension_value=0 max_n=6 shards=4"
            ),
            ("pause", "s", ""),
            ("resume", "s", ""),
            (
                "launch",
                "gone",
                "uvg collect_min_value=0 extension_value=0 max_n=5"
            ),
            ("cancel", "gone", "")
        ]
    );
    for e in &log {
        assert_eq!(e["role"], "admin");
        let fp = e["token_fingerprint"].as_str().unwrap();
        assert!(
            fp.starts_with("sha256:") && !fp.contains("admin-token"),
            "{fp}"
        );
        assert!(e["peer"].as_str().unwrap().starts_with("127.0.0.1:"), "{e}");
        assert!(e["unix_ms"].as_u64().unwrap() > 1_700_000_000_000, "{e}");
    }
    let o = run(&["audit"], &worker);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("this token may not read the audit log"),
        "{err}"
    );

    // The read token cannot submit; the admin token cannot lease.
    let rt = rt();
    for (t, call) in [("read-token", "submit"), ("admin-token", "lease")] {
        let mut c = {
            let _g = rt.enter();
            gamesweep_proto::connect_lazy(&url, &gamesweep_proto::ClientOptions::token(Some(t)))
                .unwrap()
        };
        let err = if call == "submit" {
            rt.block_on(c.submit(pb::SubmitRequest::default()))
                .unwrap_err()
        } else {
            rt.block_on(c.lease(pb::LeaseRequest::default()))
                .unwrap_err()
        };
        assert_eq!(err.code(), tonic::Code::PermissionDenied, "{t} {call}");
    }

    // A worker with the worker token runs the sweep; the read token reads it.
    let o = gs_within(
        dir.path(),
        &[
            "worker",
            "--coordinator",
            &url,
            "--token-file",
            &worker,
            "--threads",
            "1",
            "--exit-when-idle",
        ],
        Duration::from_secs(120),
    )
    .0;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = run(&["status", "s", "--json"], &read);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["sweeps"][0]["state"], "done", "{v}");
    // A worker with the read token is refused and says so.
    let o = gs_within(
        dir.path(),
        &[
            "worker",
            "--coordinator",
            &url,
            "--token-file",
            &read,
            "--exit-when-idle",
        ],
        bound,
    )
    .0;
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("this token may not lease shards: use the worker token"),
        "{err}"
    );
}

/// Regression: raw gRPC `Launch uvg max_n=12 target_shards=4294967295` (the
/// CLI caps `--shards`, the server did not) aborted the coordinator on a
/// 45 GB allocation; a 0.9 MiB sweep name came back whole in an error
/// larger than the client's metadata limit ("Stream removed").
#[test]
fn client_chosen_sizes_are_refused_with_short_errors() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let c = Serve::new(&dir.path().join("store"))
        .port(port)
        .home(dir.path())
        .log(&dir.path().join("serve.log"))
        .start();
    let pid = c.pid();
    let url = format!("http://127.0.0.1:{port}");
    let rt = rt();
    let mut client = {
        let _g = rt.enter();
        gamesweep_proto::connect_lazy(&url, &gamesweep_proto::ClientOptions::token(None)).unwrap()
    };
    let launch = |name: &str, target: u32| pb::LaunchRequest {
        kind: "uvg".into(),
        params: vec![pb::Param {
            name: "max_n".into(),
            value: 12,
        }],
        name: name.into(),
        target_shards: target,
        ..Default::default()
    };
    let t0 = Instant::now();
    let err = rt
        .block_on(client.launch(launch("big", u32::MAX)))
        .unwrap_err();
    assert_eq!(err.code(), tonic::Code::InvalidArgument, "{err:?}");
    assert_eq!(
        err.message(),
        "4294967295 target shards is more than this coordinator plans (at most 2097152)"
    );
    assert!(t0.elapsed() < Duration::from_secs(5), "{:?}", t0.elapsed());
    assert!(peak_rss_kib(pid) < 512 << 10, "{} KiB", peak_rss_kib(pid));
    // A 0.9 MiB name: refused with a short quote, not "Stream removed".
    let huge = "n".repeat(900 << 10);
    for req in [
        launch(&huge, 0),
        pb::LaunchRequest {
            kind: huge.clone(),
            ..launch("k", 0)
        },
    ] {
        let err = rt.block_on(client.launch(req)).unwrap_err();
        assert_eq!(err.code(), tonic::Code::InvalidArgument, "{err:?}");
        assert!(err.message().len() < 300, "{}", err.message().len());
        assert!(
            err.message().contains("…(921600 bytes)"),
            "{}",
            err.message()
        );
    }
    let err = rt
        .block_on(client.cancel(pb::CancelRequest {
            sweep_id: huge.clone(),
        }))
        .unwrap_err();
    assert_eq!(err.code(), tonic::Code::NotFound, "{err:?}");
    assert!(err.message().len() < 300, "{}", err.message().len());
    // Still serving.
    rt.block_on(client.status(pb::StatusRequest::default()))
        .unwrap();
}
