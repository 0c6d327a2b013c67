//! `ops::serve` called directly: a typed request checked, a coordinator
//! started on a free port, a sweep launched, worked and reported through
//! it, the address file published and removed, and a bad request refused
//! before anything is bound or written.

use crate::support::harness::{secs, Client, Worker};
use gamesweep_coordinator::ops::serve::{start, ServeRequest};
use std::path::{Path, PathBuf};
use std::time::Duration;

fn request(store: PathBuf, token_file: &Path) -> ServeRequest {
    ServeRequest {
        listen: "127.0.0.1:0".parse().unwrap(),
        store,
        token_file: Some(token_file.to_path_buf()),
        worker_token_file: None,
        read_token_file: None,
        tls_cert: None,
        tls_key: None,
        tls_client_ca: None,
        max_connections: gamesweep_serve::server::DEFAULT_MAX_CONNECTIONS,
        insecure: false,
        lease_secs: 30.0,
        max_shards_per_worker: gamesweep_engine::core::Limits::default().max_shards_per_worker,
        max_lease_total: Duration::from_secs(7_200),
        reclaim_stalled_after: Duration::from_secs(600),
        address_file: None,
        advertise_host: None,
        quarantine_on_mismatch: false,
        recount_ppm: 50_000,
        export_every: None,
        export_dir: None,
        http: None,
        search_memory_mib: 64,
        http_address_file: None,
        http_login: false,
        accept_loss: false,
        trust_keys: Vec::new(),
    }
}

#[test]
fn a_typed_coordinator_serves_a_sweep_to_the_end_and_unpublishes_itself() {
    let dir = tempfile::tempdir().unwrap();
    let token = dir.path().join("token");
    std::fs::write(&token, "ops-serve-test-token\n").unwrap();
    let address = dir.path().join("coordinator.url");
    let dashboard = dir.path().join("dashboard.url");
    let mut r = request(dir.path().join("store"), &token);
    r.address_file = Some(address.clone());
    r.http = Some("127.0.0.1:0".parse().unwrap());
    r.http_address_file = Some(dashboard.clone());
    let c = start(r).unwrap();
    let addr = c.addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let (said_tx, said) = std::sync::mpsc::channel::<String>();
    let serving = std::thread::spawn(move || {
        let said_tx = std::sync::Mutex::new(said_tx);
        c.serve(
            async {
                let _ = stopped.await;
            },
            &|line| said_tx.lock().unwrap().send(line.to_string()).unwrap(),
        )
    });
    let line = said.recv_timeout(secs(60)).unwrap();
    let dash_url = line
        .strip_prefix("gamesweep: dashboard: ")
        .unwrap_or_else(|| panic!("{line}"))
        .to_string();
    let url = format!("http://{addr}");
    // Published once listening (the dashboard's file right after its URL
    // is said: read below, once the sweep is done).
    assert_eq!(
        std::fs::read_to_string(&address).unwrap(),
        format!("{url}\n")
    );
    let client = Client::new(&url).token(&token);
    let id = client.ok(&[
        "launch",
        "subtraction",
        "--replicate-fraction",
        "0",
        "--name",
        "s1",
    ]);
    assert_eq!(id.trim(), "s1");
    let _w = Worker::new(&url).token(&token).threads(1).spawn();
    let s = client.wait_done("s1", secs(120));
    assert_eq!(s["results_stored"], 64);
    let out = dir.path().join("out");
    client.ok(&["report", "s1", "--out", out.to_str().unwrap()]);
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("../runs/subtraction/results.json");
    assert_eq!(
        std::fs::read_to_string(out.join("results.json")).unwrap(),
        std::fs::read_to_string(golden).unwrap()
    );
    assert_eq!(
        std::fs::read_to_string(&dashboard).unwrap(),
        format!("{dash_url}\n")
    );
    stop.send(()).unwrap();
    let served = serving.join().unwrap().unwrap();
    assert_eq!(served.addr, addr);
    assert_eq!(served.dashboard.as_deref(), Some(dash_url.as_str()));
    assert!(!address.exists() && !dashboard.exists(), "both unpublished");
}

#[test]
fn a_bad_request_is_refused_before_anything_is_bound_or_written() {
    let dir = tempfile::tempdir().unwrap();
    let token = dir.path().join("token");
    std::fs::write(&token, "ops-serve-test-token\n").unwrap();
    let store = dir.path().join("store");
    let mut r = request(store.clone(), &token);
    r.lease_secs = 0.1;
    let e = start(r.clone()).err().unwrap();
    assert_eq!(
        e.to_string(),
        "--lease-secs must be between 0.2 and 86400 (got 0.1)"
    );
    r.lease_secs = 30.0;
    r.reclaim_stalled_after = Duration::from_secs(59);
    let e = start(r.clone()).err().unwrap();
    assert!(
        e.to_string().starts_with(
            "--reclaim-stalled-after (59 s) must be at least twice --lease-secs (30 s)"
        ),
        "{e}"
    );
    r.reclaim_stalled_after = Duration::from_secs(600);
    let nowhere = dir.path().join("no-such-token");
    r.worker_token_file = Some(nowhere.clone());
    let e = start(r).err().unwrap();
    assert!(
        e.to_string()
            .starts_with(&format!("cannot read token file {}: ", nowhere.display())),
        "{e}"
    );
    assert!(!store.exists(), "no store was created");
}
