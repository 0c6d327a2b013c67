//! Identities on a real coordinator, for the trust tests: a coordinator
//! with an admin token and issued worker credentials ([`Trusted`]), honest
//! `gamesweep-worker` processes presenting them, and a raw gRPC client that
//! acts as one identity and submits what the test chooses (an honest
//! result, a lie, a replay).
//!
//! ```ignore
//! let t = Trusted::start(d, &["liar", "honest-1", "honest-2"], &[]);
//! t.admin().ok(&["launch", "uvg", "--max-n", "9", "--name", "s"]);
//! let rt = runtime();
//! let mut liar = t.raw(&rt, "liar");
//! let leases = rt.block_on(liar.lease(lease_req("liar", 1))).unwrap().into_inner().leases;
//! let _honest = t.honest_workers(&["honest-1", "honest-2"]);
//! ```

use super::*;
use gamesweep::sweep::{self, Params};
use gamesweep_proto::{convert, pb};

/// The admin token of a [`Trusted`] coordinator.
pub const ADMIN_SECRET: &str = "admin-secret-for-tests";

/// A coordinator (`gamesweep serve`) with an admin token in `DIR/admin`
/// and a worker credential issued for each name (its secret in
/// `DIR/NAME`); its log in `DIR/serve.log`, its store in `DIR/store`.
pub struct Trusted {
    pub coordinator: Proc,
    pub url: String,
    pub dir: PathBuf,
}

impl Trusted {
    /// Start it with `extra` `serve` options, and issue `names`.
    pub fn start(dir: &Path, names: &[&str], extra: &[&str]) -> Trusted {
        let admin = dir.join("admin");
        std::fs::write(&admin, format!("{ADMIN_SECRET}\n")).unwrap();
        let mut args = vec!["--token-file", admin.to_str().unwrap()];
        args.extend_from_slice(extra);
        let (coordinator, url) = Serve::new(&dir.join("store"))
            .args(&args)
            .log(&dir.join("serve.log"))
            .address_file(&dir.join("url"))
            .start()
            .into_parts();
        let t = Trusted {
            coordinator,
            url,
            dir: dir.to_owned(),
        };
        for name in names {
            t.issue(name);
        }
        t
    }

    /// The admin token's file.
    pub fn admin_file(&self) -> PathBuf {
        self.dir.join("admin")
    }

    /// Client commands with the admin token.
    pub fn admin(&self) -> Client {
        Client::new(&self.url).token(&self.admin_file())
    }

    /// Issue the worker credential `name` (its secret written to
    /// `DIR/NAME`); the secret.
    pub fn issue(&self, name: &str) -> String {
        let out = self.dir.join(name);
        let (_, said) = self
            .admin()
            .cmd(&[
                "token",
                "issue",
                "--name",
                name,
                "--role",
                "worker",
                "--out",
                out.to_str().unwrap(),
            ])
            .ok_both();
        assert!(said.contains(&format!("@{name}")), "{said}");
        self.secret(name)
    }

    /// The secret of the credential `name`.
    pub fn secret(&self, name: &str) -> String {
        std::fs::read_to_string(self.dir.join(name))
            .unwrap()
            .trim()
            .to_string()
    }

    /// `gamesweep-worker` processes, one thread each, presenting the
    /// credentials `names` as worker ids `h1`, `h2`, ... (logs `DIR/w1.log`,
    /// ...); each killed on drop.
    pub fn honest_workers(&self, names: &[&str]) -> Vec<Proc> {
        names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                Worker::new(&self.url)
                    .separate_binary()
                    .id(&format!("h{}", i + 1))
                    .threads(1)
                    .token(&self.dir.join(name))
                    .log(&self.dir.join(format!("w{}.log", i + 1)))
                    .spawn()
            })
            .collect()
    }

    /// A raw gRPC client presenting the credential `name`.
    pub fn raw(&self, rt: &tokio::runtime::Runtime, name: &str) -> gamesweep_proto::Client {
        raw_client(rt, &self.url, &self.secret(name))
    }

    /// The status of sweep `id` once it is done (fails after `limit`).
    pub fn wait_done(&self, id: &str, limit: Duration) -> serde_json::Value {
        self.admin().wait_done(id, limit)
    }

    /// `gamesweep report ID --out OUT` with the admin token.
    pub fn report(&self, id: &str, out: &Path) {
        self.admin()
            .cmd(&["report", id, "--out", out.to_str().unwrap()])
            .ok_both();
    }
}

/// A current-thread tokio runtime for raw clients.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// A raw gRPC client presenting `token`.
pub fn raw_client(rt: &tokio::runtime::Runtime, url: &str, token: &str) -> gamesweep_proto::Client {
    let _g = rt.enter();
    gamesweep_proto::connect_lazy(url, &gamesweep_proto::ClientOptions::token(Some(token))).unwrap()
}

/// A lease request from worker id `id` for at most `max` shards, with this
/// build's solver versions.
pub fn lease_req(id: &str, max: u32) -> pb::LeaseRequest {
    pb::LeaseRequest {
        protocol: gamesweep_proto::LEASE_PROTOCOL,
        worker_id: id.into(),
        solver_versions: convert::solver_versions_to_proto(&gamesweep_api::solver_version()),
        max_shards: max,
    }
}

/// A submit of `result` for `lease` from worker id `id`, with the position
/// digest an honest run gives.
pub fn submit_req(id: &str, lease: &pb::Lease, result: Vec<u8>) -> pb::SubmitRequest {
    pb::SubmitRequest {
        worker_id: id.into(),
        solver_versions: convert::solver_versions_to_proto(&gamesweep_api::solver_version()),
        sweep_id: lease.sweep_id.clone(),
        index: lease.shard.as_ref().unwrap().index,
        attempt: lease.attempt,
        result,
        lease_token: lease.lease_token.clone(),
        timing: None,
        positions: honest_positions(lease),
    }
}

/// The position digest an honest run of `lease`'s shard gives under its
/// salt (`None`: the lease asks for none).
pub fn honest_positions(lease: &pb::Lease) -> Option<u64> {
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    let salt = lease.salt?;
    let (kind, params, shard) = leased(lease);
    let (cancel, progress, digest) = (AtomicBool::new(false), AtomicU64::new(0), AtomicU64::new(0));
    let ctx = sweep::ShardCtx::new(&cancel, &progress).with_salt(salt, &digest);
    kind.run_shard(&params, &shard, &ctx).unwrap();
    Some(digest.load(Ordering::Relaxed))
}

/// The encoded result an honest run of `lease`'s shard gives.
pub fn honest_run(lease: &pb::Lease) -> Vec<u8> {
    let (kind, params, shard) = leased(lease);
    kind.run_shard(&params, &shard, &sweep::ShardCtx::detached())
        .unwrap()
        .encode()
}

/// The kind, parameters and shard a lease names.
fn leased(lease: &pb::Lease) -> (&'static dyn sweep::SweepKind, Params, sweep::ShardSpec) {
    let kind = gamesweep::kinds::find(&lease.kind).unwrap();
    let params: Params = convert::params_from_proto(&lease.params).unwrap();
    let shard = convert::opt_shard_from_proto(lease.shard.clone()).unwrap();
    (kind, params, shard)
}

/// An internally consistent but wrong `uvg` result: the honest one with one
/// start moved from Grundy value 1 to 2 (both nonzero, so the per-value
/// counts still sum to the positions and the first-player wins are
/// unchanged; validation and the recount pass), on the largest vertex count
/// of 3 or more (where value 2 is possible) that has a start of value 1.
/// None if the result has no such start.
pub fn try_lie(honest: &[u8]) -> Option<Vec<u8>> {
    let mut v: serde_json::Value = serde_json::from_slice(honest).ok()?;
    let by_n = v["by_n"].as_object_mut()?;
    let counts = by_n
        .iter_mut()
        .rev()
        .filter(|(n, _)| n.parse::<u32>().is_ok_and(|n| n >= 3))
        .map(|(_, c)| c)
        .find(|c| c["grundy"]["1"].as_u64().unwrap_or(0) > 0)?;
    let g = counts["grundy"].as_object_mut()?;
    let one = g["1"].as_u64()?;
    let two = g.get("2").and_then(|x| x.as_u64()).unwrap_or(0);
    g.insert("1".into(), (one - 1).into());
    g.insert("2".into(), (two + 1).into());
    serde_json::to_vec(&v).ok()
}
