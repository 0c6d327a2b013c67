//! Separate hosts, simulated with Linux network namespaces (needs root).
//!
//! Three namespaces joined by two links: the coordinator's (10.251.1.1
//! towards worker 1, 10.251.2.1 towards worker 2) and one per worker
//! (10.251.1.2, 10.251.2.2); `lo` up in each. Nothing is routed out of them.
//! The links are veth pairs (/24), or, for the bad network, point-to-point
//! TUN links forwarded by the test process itself ([`tun_link`]), which adds
//! the delay and loss in userspace (this VM's kernel, like CI's, has no
//! `sch_netem`; one path everywhere also keeps the seeded loss
//! reproducible). The coordinator (`gamesweep serve` on 0.0.0.0 with a
//! token) and the CLI calls run in the coordinator's namespace, each
//! `gamesweep-worker` in its own.
//!
//! * `a_partitioned_worker_is_replaced_and_its_late_result_ignored`: worker 1
//!   is cut off (both ends of its link down) while it holds a shard, for much
//!   longer than the lease; its shard is re-issued to worker 2; after the
//!   link heals, of the two results for it only one is merged and the other
//!   is counted as a duplicate. The sweep's results.json equals the golden.
//! * `a_slow_lossy_network_gives_the_same_result`: the same sweep on a clean
//!   network and with 300 ms delay and 5 % loss each way on both links (the
//!   same TUN links, first unimpaired); both results equal the golden; wall
//!   times, their ratio and the forwarder's packet counts are printed, and a
//!   TCP connect + echo across an impaired link is checked to take at least
//!   two 600 ms round trips.
//!
//! The tests need root and iproute2 (network namespaces, veth, TUN): they
//! are `#[ignore = "needs network namespaces"]`, and fail when they run
//! (`-- --include-ignored`, as `.ci/run` does) where namespaces, veth or TUN
//! cannot be made. The two tests never run at the same time (a static
//! lock), so the timings are not skewed by each other. Every wait is bounded;
//! processes are killed by PID and namespaces deleted on drop, also on panic.

use crate::support::tun_link;

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tun_link::{Counts, End, TunLink};

const GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../runs/uvg-n10/results.json");
const PORT: u16 = 7461;
const LOCAL_URL: &str = "http://127.0.0.1:7461";

/// Not able to run here: the test fails, saying why.
fn no_namespaces(why: &str) -> ! {
    proc::missing(
        "the netns test",
        "network namespaces (root and iproute2)",
        why,
    )
}

fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Uid:"))
                .and_then(|l| l.split_whitespace().nth(2).map(|e| e == "0"))
        })
        .unwrap_or(false)
}

/// Run a setup command (`ip`, `tc`); its stderr on failure.
fn run(program: &str, args: &[&str]) -> Result<(), String> {
    let o = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("`{program}` cannot run: {e}"))?;
    if o.status.success() {
        Ok(())
    } else {
        Err(format!(
            "`{program} {}` failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&o.stderr).trim()
        ))
    }
}

/// How the namespaces are joined.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Links {
    /// veth pairs, 10.251.W.1/24 ↔ 10.251.W.2/24.
    Veth,
    /// TUN links forwarded by this process, 10.251.W.1 peer 10.251.W.2.
    Tun,
}

/// The three namespaces and their two links; deleted on drop.
struct Net {
    /// Coordinator, worker 1, worker 2.
    ns: Vec<String>,
    /// With [`Links::Tun`]: worker 1's and worker 2's link.
    tuns: Vec<TunLink>,
}

impl Net {
    fn new(tag: &str, links: Links) -> Result<Net, String> {
        let pid = std::process::id();
        let mut net = Net {
            ns: Vec::new(),
            tuns: Vec::new(),
        };
        for role in ["c", "w1", "w2"] {
            let name = format!("gsweep-{tag}-{pid}-{role}");
            run("ip", &["netns", "add", &name])?;
            net.ns.push(name);
        }
        for i in 0..3 {
            run("ip", &["-n", &net.ns[i], "link", "set", "lo", "up"])?;
        }
        for w in 1..=2usize {
            let (c_end, w_end) = Net::ends(w);
            if links == Links::Tun {
                let (c_addr, w_addr) = (format!("10.251.{w}.1"), format!("10.251.{w}.2"));
                let c = End {
                    ns: &net.ns[0],
                    dev: c_end,
                    addr: &c_addr,
                };
                let e = End {
                    ns: &net.ns[w],
                    dev: w_end,
                    addr: &w_addr,
                };
                let link = TunLink::new(c, e, w as u64)?;
                net.tuns.push(link);
                continue;
            }
            run(
                "ip",
                &[
                    "link", "add", c_end, "netns", &net.ns[0], "type", "veth", "peer", "name",
                    w_end, "netns", &net.ns[w],
                ],
            )?;
            let c_addr = format!("10.251.{w}.1/24");
            let w_addr = format!("10.251.{w}.2/24");
            run(
                "ip",
                &["-n", &net.ns[0], "addr", "add", &c_addr, "dev", c_end],
            )?;
            run(
                "ip",
                &["-n", &net.ns[w], "addr", "add", &w_addr, "dev", w_end],
            )?;
        }
        for w in 1..=2 {
            net.set_link(w, true)?;
        }
        Ok(net)
    }

    /// The device names of worker `w`'s link (veth or TUN): (coordinator's
    /// end, worker's end).
    fn ends(w: usize) -> (&'static str, &'static str) {
        match w {
            1 => ("vc1", "vw1"),
            2 => ("vc2", "vw2"),
            _ => unreachable!(),
        }
    }

    /// Bring both ends of worker `w`'s link up or down.
    fn set_link(&self, w: usize, up: bool) -> Result<(), String> {
        let (c, e) = Net::ends(w);
        let state = if up { "up" } else { "down" };
        run("ip", &["-n", &self.ns[0], "link", "set", c, state])?;
        run("ip", &["-n", &self.ns[w], "link", "set", e, state])
    }

    /// Whether this kernel has netem (tried on one end, then removed).
    fn netem_works(&self) -> Result<(), String> {
        let (c, _) = Net::ends(1);
        run(
            "tc",
            &[
                "-n",
                &self.ns[0],
                "qdisc",
                "add",
                "dev",
                c,
                "root",
                "netem",
                "delay",
                "1ms",
            ],
        )?;
        run("tc", &["-n", &self.ns[0], "qdisc", "del", "dev", c, "root"])
    }

    /// Delay and loss on every TUN link, each way, from now on.
    fn impair(&self, delay: Duration, loss_percent: f64) {
        for t in &self.tuns {
            t.impair(delay, loss_percent);
        }
    }

    /// The TUN links' packet counts so far, summed.
    fn counts(&self) -> Counts {
        self.tuns
            .iter()
            .fold(Counts::default(), |sum, t| sum + t.counts())
    }

    /// `ip netns exec NS` for namespace `i` (0: coordinator, 1, 2:
    /// workers): what runs a program inside it.
    fn inside(&self, i: usize) -> [String; 4] {
        [
            "ip".into(),
            "netns".into(),
            "exec".into(),
            self.ns[i].clone(),
        ]
    }
}

impl Drop for Net {
    fn drop(&mut self) {
        // Stop the forwarders and close their devices first.
        self.tuns.clear();
        for ns in &self.ns {
            if let Err(e) = run("ip", &["netns", "del", ns]) {
                eprintln!("cleanup: {e}");
            }
        }
    }
}

use crate::support::harness::{Client, Coordinator, Serve, Worker, WORKER_BIN};
use crate::support::proc;
use proc::Proc;

/// A coordinator in its namespace, the workers started so far, and their
/// directory. Fields drop in order: processes first, then the namespaces,
/// then the directory.
struct Cluster {
    workers: Vec<Proc>,
    coordinator: Option<Coordinator>,
    net: Net,
    dir: tempfile::TempDir,
    token: PathBuf,
}

impl Cluster {
    /// The namespaces (the test fails, saying why, if they cannot be made).
    fn net(tag: &str, links: Links) -> Cluster {
        if !is_root() {
            no_namespaces("not root (network namespaces need CAP_SYS_ADMIN)");
        }
        let net = match Net::new(tag, links) {
            Ok(n) => n,
            Err(e) => {
                let kind = match links {
                    Links::Veth => "veth pairs",
                    Links::Tun => "TUN links",
                };
                no_namespaces(&format!("cannot make namespaces and {kind}: {e}"));
            }
        };
        let dir = tempfile::tempdir().unwrap();
        let token = dir.path().join("token");
        std::fs::write(&token, "netns-test-token\n").unwrap();
        Cluster {
            workers: Vec::new(),
            coordinator: None,
            net,
            dir,
            token,
        }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn log(&self, name: &str) -> String {
        std::fs::read_to_string(self.path(name)).unwrap_or_default()
    }

    /// Start `gamesweep serve` on 0.0.0.0 in the coordinator's namespace and
    /// wait until it answers there.
    fn start_coordinator(&mut self, lease_secs: u32) {
        let c = Serve::new(&self.path("store"))
            .wrap(&self.net.inside(0))
            .listen_on("0.0.0.0")
            .port(PORT)
            .token_file(&self.token)
            .args(&["--lease-secs", &lease_secs.to_string()])
            .env("GAMESWEEP_TOKEN_FILE", &self.token)
            .env_remove("GAMESWEEP_GIVE_UP_AFTER")
            .log(&self.path("serve.log"))
            .limit(Duration::from_secs(30))
            .start();
        let deadline = Instant::now() + Duration::from_secs(30);
        while !self.client().gs(&["status", "--json"]).status.success() {
            assert!(
                Instant::now() < deadline,
                "coordinator does not answer: {}",
                self.log("serve.log")
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        self.coordinator = Some(c);
    }

    /// `gamesweep` commands in the coordinator's namespace, against it.
    fn client(&self) -> Client {
        Client::new(LOCAL_URL)
            .wrap(&self.net.inside(0))
            .env("GAMESWEEP_TOKEN_FILE", &self.token)
            .env_remove("GAMESWEEP_GIVE_UP_AFTER")
    }

    /// uvg n ≤ 10, collecting the *5 positions, in about `shards` shards.
    fn launch(&self, name: &str, shards: u32) {
        let id = self.client().ok(&[
            "launch",
            "uvg",
            "--replicate-fraction",
            "0",
            "--max-n",
            "10",
            "--collect-min-value",
            "5",
            "--shards",
            &shards.to_string(),
            "--name",
            name,
        ]);
        assert_eq!(id.trim(), name);
    }

    /// `status ID --json`: (the sweep, the workers).
    fn sweep_and_workers(&self, id: &str) -> (serde_json::Value, Vec<serde_json::Value>) {
        let v = self.client().status_whole(id);
        let sweeps = v["sweeps"].as_array().unwrap();
        assert_eq!(sweeps.len(), 1, "{v}");
        let workers = v["workers"].as_array().cloned().unwrap_or_default();
        (sweeps[0].clone(), workers)
    }

    /// Shards the coordinator sees worker `id` hold under an unexpired lease.
    fn held_by(&self, sweep: &str, id: &str) -> u64 {
        let (_, workers) = self.sweep_and_workers(sweep);
        workers
            .iter()
            .find(|w| w["worker_id"] == id)
            .map(|w| w["shards_held"].as_u64().unwrap())
            .unwrap_or(0)
    }

    /// Start worker `w` (1 or 2), one thread, id `w1`/`w2`, in its namespace,
    /// talking to the coordinator's address on its link.
    fn worker(&mut self, w: usize, log: &str) {
        let url = format!("http://10.251.{w}.1:{PORT}");
        let mut worker = Worker::new(&url)
            .wrap(&self.net.inside(w))
            .separate_binary()
            .token(&self.token)
            .threads(1)
            .id(&format!("w{w}"))
            .arg("--exit-when-idle")
            .env("GAMESWEEP_TOKEN_FILE", &self.token)
            .env_remove("GAMESWEEP_GIVE_UP_AFTER")
            .log(&self.path(log));
        if worker_has_option("--idle-grace") {
            worker = worker.args(&["--idle-grace", "2"]);
        }
        self.workers.push(worker.spawn());
    }

    /// Poll until the sweep is done; its status.
    fn wait_done(&self, id: &str, limit: Duration) -> serde_json::Value {
        let deadline = Instant::now() + limit;
        loop {
            let (s, _) = self.sweep_and_workers(id);
            if s["state"] == "done" {
                return s;
            }
            assert!(
                Instant::now() < deadline,
                "sweep {id} did not finish in {limit:?}: {s}\nserve.log:\n{}",
                tail(&self.log("serve.log"))
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// `report ID --out DIR`'s results.json.
    fn results(&self, id: &str) -> String {
        let out = self.path(&format!("report-{id}"));
        self.client()
            .ok(&["report", id, "--out", out.to_str().unwrap()]);
        std::fs::read_to_string(out.join("results.json")).unwrap()
    }

    /// Wait (bounded) for every worker started so far to exit.
    fn wait_workers_exit(&mut self, limit: Duration) -> Vec<std::process::ExitStatus> {
        let deadline = Instant::now() + limit;
        let mut out = Vec::new();
        for (i, w) in self.workers.iter_mut().enumerate() {
            loop {
                if let Some(st) = w.0.try_wait().unwrap() {
                    out.push(st);
                    break;
                }
                assert!(
                    Instant::now() < deadline,
                    "worker {} did not exit once the coordinator was idle",
                    i + 1
                );
                std::thread::sleep(Duration::from_millis(100));
            }
        }
        out
    }
}

impl Drop for Cluster {
    /// On failure, keep the logs (the directory itself goes with the guard).
    fn drop(&mut self) {
        if !std::thread::panicking() {
            return;
        }
        let keep = std::env::temp_dir().join(format!(
            "gamesweep-netns-{}-{}",
            self.net.ns[0].trim_end_matches("-c"),
            std::process::id()
        ));
        let _ = std::fs::create_dir_all(&keep);
        if let Ok(entries) = std::fs::read_dir(self.dir.path()) {
            for e in entries.flatten() {
                if e.path().extension().is_some_and(|x| x == "log") {
                    let _ = std::fs::copy(e.path(), keep.join(e.file_name()));
                }
            }
        }
        eprintln!("netns test failed; logs kept in {}", keep.display());
    }
}

fn worker_has_option(opt: &str) -> bool {
    let o = Command::new(WORKER_BIN).arg("--help").output().unwrap();
    String::from_utf8_lossy(&o.stdout).contains(opt)
}

/// `text` without terminal colour sequences (ESC [ … m).
fn strip_ansi(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn tail(log: &str) -> String {
    let lines: Vec<&str> = log.lines().collect();
    lines[lines.len().saturating_sub(30)..].join("\n")
}

fn golden() -> String {
    std::fs::read_to_string(GOLDEN).unwrap()
}

fn counter(s: &serde_json::Value, name: &str) -> u64 {
    s[name]
        .as_u64()
        .unwrap_or_else(|| panic!("status --json has no counter `{name}`: {s}"))
}

/// Lease length in the partition run, and how long worker 1 is cut off.
const PARTITION_LEASE_SECS: u32 = 2;
const CUT: Duration = Duration::from_secs(10);

#[test]
#[ignore = "needs network namespaces"]
fn a_partitioned_worker_is_replaced_and_its_late_result_ignored() {
    let _serial = crate::serial();
    let mut cl = Cluster::net("p", Links::Veth);
    let started = Instant::now();
    cl.start_coordinator(PARTITION_LEASE_SECS);
    cl.launch("part", 256);
    cl.worker(1, "w1.log");
    cl.worker(2, "w2.log");

    // Every shard of this sweep takes under a second, far less than the
    // cut: the cut worker finishes its shard during the cut, and worker 2
    // re-runs it after the lease expires and submits first. Cut as soon as
    // both workers are under way (a few shards done): the whole sweep
    // takes seconds, and waiting for half of it (as this test once did)
    // left a loaded machine too little time to catch w1 holding a shard
    // before the sweep was over.
    let deadline = Instant::now() + Duration::from_secs(240);
    loop {
        let (s, _) = cl.sweep_and_workers("part");
        if counter(&s, "shards_done") >= 4 {
            break;
        }
        assert!(Instant::now() < deadline, "no progress: {s}");
        std::thread::sleep(Duration::from_millis(100));
    }

    // Cut worker 1 off while the coordinator sees it hold a shard. Between
    // our look and the cut it may have submitted that shard and not yet
    // leased the next one: then heal and try again.
    let mut cut_at = None;
    for _ in 0..10 {
        let deadline = Instant::now() + Duration::from_secs(60);
        while cl.held_by("part", "w1") == 0 {
            assert!(
                Instant::now() < deadline,
                "w1 never held a shard: {}",
                tail(&cl.log("w1.log"))
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        cl.net.set_link(1, false).unwrap();
        let t = Instant::now();
        std::thread::sleep(Duration::from_millis(100));
        let held = cl.held_by("part", "w1");
        if held > 0 {
            cut_at = Some((t, held));
            break;
        }
        cl.net.set_link(1, true).unwrap();
        std::thread::sleep(Duration::from_millis(300));
    }
    let (cut_at, held_at_cut) = cut_at.expect("could not cut w1 off while it held a shard");
    let (at_cut, _) = cl.sweep_and_workers("part");
    eprintln!(
        "partition: w1 cut off at {:.1} s holding {held_at_cut} shard(s); sweep then: {} of {} shards done",
        started.elapsed().as_secs_f64(),
        at_cut["shards_done"],
        at_cut["shards_total"]
    );

    // During the cut: w1's lease runs out (it cannot renew) and w2 takes over.
    let mut expired_seen_after = None;
    while cut_at.elapsed() < CUT {
        if expired_seen_after.is_none() && cl.held_by("part", "w1") == 0 {
            expired_seen_after = Some(cut_at.elapsed());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let (during, _) = cl.sweep_and_workers("part");
    cl.net.set_link(1, true).unwrap();
    let expired_after = expired_seen_after.unwrap_or_else(|| {
        panic!("w1 still held its lease after a {CUT:?} cut with a {PARTITION_LEASE_SECS} s lease")
    });
    eprintln!(
        "partition: w1's lease gone after {:.1} s; at the heal ({:.1} s): shards_done {}, leases_expired {}, duplicates_ignored {}",
        expired_after.as_secs_f64(),
        cut_at.elapsed().as_secs_f64(),
        during["shards_done"],
        during["leases_expired"],
        during["duplicates_ignored"],
    );

    // The healed worker's result for the re-issued shard arrives as a
    // duplicate (its submit retries with backoff): wait for the sweep to be
    // done and the duplicate counted.
    let healed_at = Instant::now();
    let deadline = healed_at + Duration::from_secs(300);
    let (mut done_after, mut duplicate_after) = (None, None);
    let s = loop {
        let (s, _) = cl.sweep_and_workers("part");
        if done_after.is_none() && s["state"] == "done" {
            done_after = Some(healed_at.elapsed());
        }
        if duplicate_after.is_none() && counter(&s, "duplicates_ignored") > 0 {
            duplicate_after = Some(healed_at.elapsed());
        }
        if done_after.is_some() && duplicate_after.is_some() {
            break s;
        }
        assert!(
            Instant::now() < deadline,
            "not done with a duplicate counted 300 s after the heal: {s}\nw1.log:\n{}\nserve.log:\n{}",
            tail(&cl.log("w1.log")),
            tail(&cl.log("serve.log"))
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    let secs = |d: Option<Duration>| d.unwrap().as_secs_f64();
    eprintln!(
        "partition: after the heal, duplicate counted at +{:.1} s, sweep done at +{:.1} s; counters: {}",
        secs(duplicate_after),
        secs(done_after),
        serde_json::json!({
            "shards_total": s["shards_total"],
            "shards_done": s["shards_done"],
            "results_stored": s["results_stored"],
            "duplicates_ignored": s["duplicates_ignored"],
            "leases_expired": s["leases_expired"],
            "leases_released": s["leases_released"],
        })
    );
    assert!(counter(&s, "duplicates_ignored") >= 1, "{s}");
    assert_eq!(s["shards_done"], s["shards_total"], "{s}");
    assert_eq!(s["results_stored"], s["shards_total"], "merged once: {s}");
    assert!(
        cl.results("part") == golden(),
        "results.json differs from {GOLDEN}"
    );

    // Both workers leave once the coordinator is idle; their summaries say
    // who had a result ignored.
    let statuses = cl.wait_workers_exit(Duration::from_secs(120));
    let mut summaries = Vec::new();
    for (i, st) in statuses.iter().enumerate() {
        let log = strip_ansi(&cl.log(&format!("w{}.log", i + 1)));
        let summary = log
            .lines()
            .rev()
            .find(|l| l.contains("worker stopped"))
            .unwrap_or("(no summary line)")
            .to_string();
        eprintln!("partition: w{} exited ({st}): {summary}", i + 1);
        summaries.push(summary);
    }
    assert!(
        summaries[0].contains("duplicates=1") && summaries[1].contains("duplicates=0"),
        "the cut worker's result, arriving after the heal, is the one ignored: {summaries:?}"
    );
    eprintln!(
        "partition: test took {:.1} s",
        started.elapsed().as_secs_f64()
    );
    assert!(counter(&s, "leases_expired") >= 1, "{s}");
}

/// Shards of the bad-network sweep: each shard costs a lease and a submit
/// round trip (600 ms with 300 ms each way), so the full 256-shard plan would
/// take minutes longer; the result does not depend on the plan.
const BAD_NET_SHARDS: u32 = 32;

/// The bad network: added to each packet, each way, on both links.
const DELAY: Duration = Duration::from_millis(300);
const LOSS_PERCENT: f64 = 5.0;
/// Where the TCP echo check listens (coordinator's end of worker 1's link).
const ECHO_ADDR: &str = "10.251.1.1:7462";

#[test]
#[ignore = "needs network namespaces"]
fn a_slow_lossy_network_gives_the_same_result() {
    let _serial = crate::serial();
    let mut cl = Cluster::net("n", Links::Tun);
    let started = Instant::now();
    let why = match cl.net.netem_works() {
        Ok(()) => "sch_netem is available here too, but the forwarder is the one path everywhere",
        Err(_) => "this kernel has no sch_netem",
    };
    eprintln!("bad network: delay and loss by the test's own TUN forwarder: {why}");
    let (ns_c, ns_w1) = (cl.net.ns[0].clone(), cl.net.ns[1].clone());
    let echo = || tun_link::tcp_echo_time(&ns_c, &ns_w1, ECHO_ADDR).unwrap();
    eprintln!(
        "bad network: TCP connect + 1-byte echo over the clean TUN link: {:.1} ms",
        echo().as_secs_f64() * 1e3
    );
    cl.start_coordinator(10);
    let expected = golden();

    // Clean network: the same TUN links, no delay, no loss.
    let before = cl.net.counts();
    cl.launch("clean", BAD_NET_SHARDS);
    let t = Instant::now();
    cl.worker(1, "clean-w1.log");
    cl.worker(2, "clean-w2.log");
    let s = cl.wait_done("clean", Duration::from_secs(300));
    let clean = t.elapsed();
    assert_eq!(s["results_stored"], s["shards_total"], "{s}");
    assert!(
        cl.results("clean") == expected,
        "clean network: results.json differs from {GOLDEN}"
    );
    cl.wait_workers_exit(Duration::from_secs(120));
    cl.workers.clear();
    let clean_counts = cl.net.counts() - before;

    // 300 ms more each way and 5 % loss, on both links. A TCP connect and
    // echo is two round trips: at least 4 × 300 ms.
    cl.net.impair(DELAY, LOSS_PERCENT);
    let took = echo();
    eprintln!(
        "bad network: TCP connect + 1-byte echo over an impaired link: {:.1} ms",
        took.as_secs_f64() * 1e3
    );
    assert!(took >= DELAY * 4, "the forwarder does not delay: {took:?}");
    let before = cl.net.counts();
    cl.launch("lossy", BAD_NET_SHARDS);
    let t = Instant::now();
    cl.worker(1, "lossy-w1.log");
    cl.worker(2, "lossy-w2.log");
    let s = cl.wait_done("lossy", Duration::from_secs(420));
    let lossy = t.elapsed();
    let lossy_counts = cl.net.counts() - before;
    assert_eq!(s["results_stored"], s["shards_total"], "{s}");
    assert!(
        cl.results("lossy") == expected,
        "300 ms / 5 % loss: results.json differs from {GOLDEN}"
    );
    let seen = lossy_counts.forwarded + lossy_counts.dropped;
    eprintln!(
        "bad network: uvg n<=10, {} shards, 2 workers x 1 thread: clean {:.1} s, delay {} ms loss {LOSS_PERCENT}% each way {:.1} s, ratio {:.2} (duplicates_ignored {}, leases_expired {})",
        s["shards_total"],
        clean.as_secs_f64(),
        DELAY.as_millis(),
        lossy.as_secs_f64(),
        lossy.as_secs_f64() / clean.as_secs_f64(),
        s["duplicates_ignored"],
        s["leases_expired"],
    );
    eprintln!(
        "bad network: forwarder packets, clean sweep: {} forwarded, {} dropped, {} write errors; impaired sweep: {} forwarded, {} dropped ({:.1} %), {} write errors",
        clean_counts.forwarded,
        clean_counts.dropped,
        clean_counts.write_errors,
        lossy_counts.forwarded,
        lossy_counts.dropped,
        100.0 * lossy_counts.dropped as f64 / seen.max(1) as f64,
        lossy_counts.write_errors,
    );
    assert_eq!(clean_counts.dropped, 0, "{clean_counts:?}");
    assert!(lossy_counts.dropped > 0, "{lossy_counts:?}");
    eprintln!(
        "bad network: test took {:.1} s",
        started.elapsed().as_secs_f64()
    );
}
