//! The coordinator's standard gRPC health service (`grpc.health.v1.Health`),
//! checked against a real `gamesweep serve` on 127.0.0.1 started with a
//! token: the health service answers without the token (Kubernetes' gRPC
//! probes cannot send one), the gamesweep service still refuses a client
//! without it, and on SIGTERM the health status turns NOT_SERVING and an
//! open Watch stream does not keep the coordinator from stopping.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;
use tonic_health::pb::HealthCheckRequest;

const SERVICE: &str = "gamesweep.v1.Coordinator";

use crate::support::harness::{Coordinator, Gs, Serve};
use crate::support::proc::free_port;

/// `gamesweep serve` on 127.0.0.1:`port` with a token file in `dir`, which
/// is also its HOME.
fn with_token(dir: &Path, port: u16) -> Coordinator {
    let token_file = dir.join("token");
    std::fs::write(&token_file, "s3cret-token\n").unwrap();
    Serve::new(&dir.join("store"))
        .port(port)
        .token_file(&token_file)
        .home(dir)
        .log(&dir.join("serve.log"))
        .start()
}

/// A `gamesweep` client command with no token from the environment or from
/// `~/.gamesweep/token` (HOME is the test's directory).
fn client(dir: &Path, args: &[&str]) -> std::process::Output {
    Gs::new(args).home(dir).output()
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// A health client without any token.
async fn health_client(url: &str) -> HealthClient<tonic::transport::Channel> {
    let channel = tonic::transport::Endpoint::from_shared(url.to_string())
        .unwrap()
        .connect_timeout(Duration::from_secs(5))
        .timeout(Duration::from_secs(10))
        .connect()
        .await
        .unwrap();
    HealthClient::new(channel)
}

async fn check(
    client: &mut HealthClient<tonic::transport::Channel>,
    service: &str,
) -> Result<ServingStatus, tonic::Status> {
    let r = client
        .check(HealthCheckRequest {
            service: service.into(),
        })
        .await?;
    Ok(r.into_inner().status())
}

#[test]
fn health_answers_without_the_token_and_the_service_still_needs_it() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let _c = with_token(dir.path(), port);
    let url = format!("http://127.0.0.1:{port}");

    rt().block_on(async {
        let mut h = health_client(&url).await;
        assert_eq!(check(&mut h, "").await.unwrap(), ServingStatus::Serving);
        assert_eq!(
            check(&mut h, SERVICE).await.unwrap(),
            ServingStatus::Serving
        );
        let e = check(&mut h, "no.such.Service").await.unwrap_err();
        assert_eq!(e.code(), tonic::Code::NotFound, "{e:?}");
    });

    // The gamesweep service itself still refuses a client without the token.
    let o = client(dir.path(), &["status", "--coordinator", &url]);
    assert!(!o.status.success(), "status without the token was accepted");
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("token"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // ... and accepts one with it.
    let tf = dir.path().join("token");
    let o = client(
        dir.path(),
        &[
            "status",
            "--coordinator",
            &url,
            "--token-file",
            tf.to_str().unwrap(),
        ],
    );
    assert!(
        o.status.success(),
        "status with the token failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[cfg(unix)]
#[test]
fn sigterm_turns_health_not_serving_and_an_open_watch_does_not_block_shutdown() {
    use tokio_stream::StreamExt as _;

    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let mut c = with_token(dir.path(), port);
    let url = format!("http://127.0.0.1:{port}");

    let rt = rt();
    let mut h = rt.block_on(health_client(&url));
    let mut watch = rt
        .block_on(h.watch(HealthCheckRequest {
            service: String::new(),
        }))
        .unwrap()
        .into_inner();
    let first = rt.block_on(watch.next()).unwrap().unwrap();
    assert_eq!(first.status(), ServingStatus::Serving);

    let killed = Command::new("kill")
        .args(["-TERM", &c.pid().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());

    // The open Watch stream reports NOT_SERVING, then ends.
    let next = rt
        .block_on(async { tokio::time::timeout(Duration::from_secs(10), watch.next()).await })
        .expect("no health update after SIGTERM");
    let next = next.expect("Watch ended without NOT_SERVING").unwrap();
    assert_eq!(next.status(), ServingStatus::NotServing);
    let end = rt
        .block_on(async { tokio::time::timeout(Duration::from_secs(10), watch.next()).await })
        .expect("Watch stream still open after shutdown");
    assert!(!matches!(end, Some(Ok(_))), "{end:?}");

    // The coordinator stops (and flushes) despite the client still being
    // connected.
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(s) = c.proc_mut().0.try_wait().unwrap() {
            break s;
        }
        assert!(
            Instant::now() < deadline,
            "coordinator did not stop after SIGTERM with a Watch open"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "serve exited with {status}");
    drop(h);
}
