//! Credentials across nodes: one per node (a revoked node stops alone),
//! and per task by default, surviving a requeue.

use super::*;

/// `launch` of the n ≤ 10 sweep with every shard run by two identities.
const LAUNCH_N10_REPLICATED: [&str; 12] = [
    "launch",
    "uvg",
    "--replicate",
    "all",
    "--max-n",
    "10",
    "--collect-min-value",
    "5",
    "--shards",
    "256",
    "--name",
    "n10",
];

/// Mode bits of a file (`0o600`).
fn mode_of(p: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p)
        .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
        .permissions()
        .mode()
        & 0o777
}

/// The worker script run outside Slurm as if in a job on `node`, with the
/// credentials directory `creds` and a shared token that must not be used:
/// it must refuse with one line naming `why`.
fn workers_script_refuses(creds: &Path, node: &str, shared: &Path, why: &str) {
    let o = Command::new("bash")
        .arg(script("gamesweep-workers.sbatch"))
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("GAMESWEEP_COORDINATOR", "http://127.0.0.1:1")
        .env("GAMESWEEP_TOKEN_FILE", shared)
        .env("GAMESWEEP_WORKER_BIN", WORKER)
        .env("GAMESWEEP_CREDENTIALS", "node")
        .env("GAMESWEEP_CREDENTIALS_DIR", creds)
        .env("GAMESWEEP_CREDENTIALS_WAIT", "1")
        .env("SLURM_JOB_ID", "1")
        .env("SLURMD_NODENAME", node)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{}", text(&o));
    assert!(err.contains(why), "{}", text(&o));
    assert_eq!(
        err.lines().filter(|l| !l.contains("waiting up to")).count(),
        1,
        "{}",
        text(&o)
    );
}

/// One worker credential per node, and item 4's
/// partitions and nodes of different sizes.
///
/// Five nodes: node1 (2 CPUs) alone in partition `service`, node2 and node3
/// (2 CPUs) and node4 (3 CPUs) in `compute`, node5 (1 CPU) in no partition
/// until it joins `compute` mid-test. The coordinator job goes to
/// `-p service` with `GAMESWEEP_CREDENTIALS_DIR` and
/// `GAMESWEEP_CREDENTIALS_PARTITION=compute`: once it listens it issues
/// node2..node4 one credential each (files 0600 in a 0700 directory, none
/// for node1). The sweep (uvg n ≤ 10 in 257 shards) is launched with
/// `--replicate all`, and seven one-CPU worker tasks go to `-p compute`:
/// Slurm fills the nodes by their CPUs (2, 2, 3 tasks), and the coordinator
/// sees exactly three identities, `@node2`, `@node3`, `@node4`, however many
/// tasks run on each. node5 joins the partition: the job's next rescan
/// (every 2 s here) issues its credential, and a task there is `@node5`.
/// Mid-sweep node4's credential is revoked: its three tasks exit non-zero
/// (FAILED), the others go on, and node4's leases run out and go to the
/// other nodes. The result equals `runs/uvg-n10`, every shard was confirmed
/// by two identities (`provenance.json`). The coordinator job, signalled
/// and requeued, comes back on the same store and issues nothing again.
/// The store's verification records (read once the coordinator job has
/// stopped) show each shard's runs on two different nodes, never two runs
/// of one node. Besides: the worker script refuses (one line, non-zero) when
/// its node has no credential file, or when the directory is readable by
/// others, and never falls back to the shared token.
#[test]
#[ignore = "needs slurm"]
fn one_credential_per_node_confirms_each_shard_on_two_nodes_and_a_revoked_node_stops_alone() {
    let _serial = crate::serial();
    let started = Instant::now();
    // node5 is in no partition yet: it joins `compute` mid-test.
    let (tmp, cluster) = nodes_cluster_with(
        10,
        5,
        2,
        &[
            ("LOCAL_SLURM_NODE_CPUS", "2,2,2,3,1"),
            ("LOCAL_SLURM_PARTITIONS", "service=node1 compute=node[2-4]"),
        ],
    );
    let dir = tmp.path();
    let sdir = dir.join("slurm");
    // Partitions and CPUs as configured.
    let nodes = cluster.run("sinfo", &["-h", "-N", "-o", "%N %P %c"]);
    let mut nodes: Vec<&str> = nodes.lines().map(str::trim).collect();
    nodes.sort();
    assert_eq!(
        nodes,
        [
            "node1 service* 2",
            "node2 compute 2",
            "node3 compute 2",
            "node4 compute 3"
        ]
    );
    eprintln!(
        "slurm credentials: 5 nodes up after {:.1?}",
        started.elapsed()
    );

    // The admin token: also the shared token the workers must not use.
    let token = dir.join("token");
    std::fs::write(&token, "slurm-test-admin-token\n").unwrap();
    let creds = dir.join("credentials");
    let addr_file = dir.join("coordinator.url");
    let log_file = dir.join("coordinator.log");
    let o = cluster
        .cmd("sbatch")
        .args([
            "--parsable",
            "-p",
            "service",
            "--cpus-per-task=2",
            "--time=10",
        ])
        .arg(format!("--output={}", log_file.display()))
        .arg(script("gamesweep-coordinator.sbatch"))
        .args(["--lease-secs", "10"])
        .env("GAMESWEEP_STORE", dir.join("store"))
        .env("GAMESWEEP_COORDINATOR_FILE", &addr_file)
        .env("GAMESWEEP_TOKEN_FILE", &token)
        .env("GAMESWEEP_BIN", GS)
        .env("GAMESWEEP_CREDENTIALS", "node")
        .env("GAMESWEEP_CREDENTIALS_DIR", &creds)
        .env("GAMESWEEP_CREDENTIALS_PARTITION", "compute")
        .env("GAMESWEEP_CREDENTIALS_RESCAN", "2")
        .output()
        .unwrap();
    assert!(o.status.success(), "sbatch coordinator: {}", text(&o));
    let coordinator = String::from_utf8(o.stdout).unwrap().trim().to_string();
    let diag = || {
        let mut s = std::fs::read_to_string(&log_file).unwrap_or_default();
        for args in [vec!["squeue", "-o", "%i %P %N %T"], vec!["sinfo", "-N"]] {
            if let Ok(o) = cluster.cmd(args[0]).args(&args[1..]).output() {
                s.push_str(&String::from_utf8_lossy(&o.stdout));
            }
        }
        s
    };
    let st = || status_at(&sdir, &addr_file, &token);
    wait_or(
        "the coordinator job's address",
        Duration::from_secs(60),
        || st().is_some(),
        diag,
    );
    let (coord_node, url) = coordinator_at(&sdir, &addr_file).unwrap();
    assert_eq!(coord_node, "node1", "-p service: {}", diag());

    // One credential per compute node, written by the coordinator job.
    let compute = ["node2", "node3", "node4"];
    let cred_file = |n: &str| creds.join(format!("node-{n}.token"));
    wait_or(
        "the credential files",
        Duration::from_secs(30),
        || compute.iter().all(|n| cred_file(n).exists()),
        diag,
    );
    assert_eq!(mode_of(&creds), 0o700);
    let mut files: Vec<String> = std::fs::read_dir(&creds)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(
        files,
        ["node-node2.token", "node-node3.token", "node-node4.token"],
        "one per compute node, none for the service node, nothing half-written"
    );
    for n in compute {
        assert_eq!(mode_of(&cred_file(n)), 0o600, "{n}");
    }
    let list: serde_json::Value = serde_json::from_str(
        &Client::new(&url)
            .token(&token)
            .ok(&["token", "list", "--json"]),
    )
    .unwrap();
    let mut issued: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    issued.sort();
    assert_eq!(issued, compute, "{list}");

    // No credential for this node, or a directory others may read: the
    // worker script refuses, never using the shared token instead.
    workers_script_refuses(&creds, "node1", &token, "no credential for node node1");
    let open_dir = dir.join("open-credentials");
    std::fs::create_dir(&open_dir).unwrap();
    std::fs::copy(cred_file("node2"), open_dir.join("node-node2.token")).unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&open_dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    workers_script_refuses(&open_dir, "node2", &token, "has mode 755");

    Client::new(&url).token(&token).ok(&LAUNCH_N10_REPLICATED);
    Client::new(&url).token(&token).ok(&["pause", "n10"]);

    // Seven one-CPU tasks in `compute`: two on each 2-CPU node, three on node4.
    let creds_env = [
        ("GAMESWEEP_CREDENTIALS", Path::new("node")),
        ("GAMESWEEP_CREDENTIALS_DIR", creds.as_path()),
    ];
    let array = submit_workers_env(
        &cluster,
        &["-p", "compute", "--array=0-6", "--requeue"],
        &dir.join("w-%A_%a.log"),
        &addr_file,
        &token,
        &creds_env,
    );
    let tasks: Vec<String> = (0..7).map(|i| format!("{array}_{i}")).collect();
    let placed = || -> std::collections::BTreeMap<String, String> {
        cluster
            .run("squeue", &["-h", "-t", "R", "-o", "%i %N"])
            .lines()
            .filter_map(|l| {
                let (id, node) = l.split_once(' ')?;
                Some((id.to_string(), node.trim().to_string()))
            })
            .collect()
    };
    let mut running = Default::default();
    wait_or(
        "all seven worker tasks running",
        Duration::from_secs(60),
        || {
            running = placed();
            tasks.iter().all(|t| running.contains_key(t))
        },
        diag,
    );
    let on = |node: &str| -> Vec<String> {
        tasks
            .iter()
            .filter(|t| running[t.as_str()] == node)
            .cloned()
            .collect()
    };
    let per_node: Vec<usize> = ["node1", "node2", "node3", "node4"]
        .iter()
        .map(|n| on(n).len())
        .collect();
    assert_eq!(per_node, [0, 2, 2, 3], "{running:?}");
    let identities = |s: &serde_json::Value| {
        let mut w = workers(s);
        w.sort();
        w
    };
    wait_or(
        "the workers to reach the coordinator as their nodes",
        Duration::from_secs(30),
        || st().is_some_and(|s| identities(&s) == ["@node2", "@node3", "@node4"]),
        || format!("{:?}\n{}", st().map(|s| identities(&s)), diag()),
    );
    eprintln!(
        "slurm credentials: coordinator on {coord_node}, 7 tasks placed {running:?}, identities @node2 @node3 @node4 after {:.1?}",
        started.elapsed()
    );

    // node5 joins the partition: the coordinator job's next look issues it
    // a credential, and a task there is @node5.
    cluster.run(
        "scontrol",
        &["update", "partitionname=compute", "nodes=node[2-5]"],
    );
    let joined = Instant::now();
    wait_or(
        "node5's credential",
        Duration::from_secs(30),
        || cred_file("node5").exists(),
        diag,
    );
    let issued_after = joined.elapsed();
    assert_eq!(mode_of(&cred_file("node5")), 0o600);
    let t5 = submit_workers_env(
        &cluster,
        &["-p", "compute", "--array=7", "--requeue"],
        &dir.join("w-%A_%a.log"),
        &addr_file,
        &token,
        &creds_env,
    );
    let t5 = format!("{t5}_7");
    wait_or(
        "node5's worker to reach the coordinator",
        Duration::from_secs(60),
        || st().is_some_and(|s| identities(&s) == ["@node2", "@node3", "@node4", "@node5"]),
        || format!("{:?}\n{}", st().map(|s| identities(&s)), diag()),
    );
    assert_eq!(placed().get(&t5).map(String::as_str), Some("node5"));
    eprintln!("slurm credentials: node5 joined compute, its credential issued {issued_after:.1?} later, {t5} working there as @node5");
    let names = ["@node2", "@node3", "@node4", "@node5"];

    // Mid-sweep, while node4 holds leases, its credential is revoked.
    let sweep_start = Instant::now();
    Client::new(&url).token(&token).ok(&["resume", "n10"]);
    wait_or(
        "node4 to hold a lease after some results",
        Duration::from_secs(120),
        || {
            st().is_some_and(|s| {
                held_by(&s, "@node4") >= 1 && s["sweeps"][0]["results_stored"].as_u64() >= Some(20)
            })
        },
        diag,
    );
    Client::new(&url)
        .token(&token)
        .ok(&["token", "revoke", "node4"]);
    let revoked = Instant::now();
    let at_revoke = st().unwrap();
    let s = &at_revoke["sweeps"][0];
    assert_ne!(s["state"], "done", "revoked after the sweep: {s}");
    eprintln!(
        "slurm credentials: @node4 revoked holding {} lease(s), {} of {} results stored",
        held_by(&at_revoke, "@node4"),
        s["results_stored"],
        s["shards_total"]
    );
    let node4 = on("node4");
    let node4_gone = || {
        let q = cluster.queued();
        node4.iter().all(|t| !q.contains(t))
    };
    wait_or(
        "node4's tasks to end",
        Duration::from_secs(60),
        node4_gone,
        diag,
    );
    let stopped_after = revoked.elapsed();
    let others: Vec<String> = tasks
        .iter()
        .filter(|t| !node4.contains(t))
        .cloned()
        .chain([t5.clone()])
        .collect();
    let mut last = serde_json::Value::Null;
    wait_or(
        "the sweep to finish",
        Duration::from_secs(240),
        || {
            last = st().unwrap_or(serde_json::Value::Null);
            last["sweeps"][0]["state"] == "done"
        },
        diag,
    );
    let sweep_wall = sweep_start.elapsed();
    wait_or(
        "the other workers to exit",
        Duration::from_secs(60),
        || {
            let q = cluster.queued();
            !q.iter().any(|j| j.starts_with(&array)) && !q.contains(&t5)
        },
        diag,
    );
    for t in &node4 {
        let (state, code) = cluster.job_state(t).unwrap();
        assert_eq!(state, "FAILED", "{t}: {}", diag());
        assert_ne!(code, "0:0", "{t}");
        let log = std::fs::read_to_string(dir.join(format!("w-{}.log", t))).unwrap_or_default();
        assert!(
            log.contains("coordinator refused this worker"),
            "{t}: {log}"
        );
    }
    for t in &others {
        assert_eq!(
            cluster.job_state(t),
            Some(("COMPLETED".to_string(), "0:0".to_string())),
            "{t}"
        );
    }

    // The result, and how it was confirmed.
    assert_committed_result(&url, &token, dir);
    let s = &last["sweeps"][0];
    let total = s["shards_total"].as_u64().unwrap();
    assert_eq!(s["shards_done"], total, "{s}");
    let prov: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report/provenance.json")).unwrap())
            .unwrap();
    assert_eq!(
        prov["confirmation"]["confirmed_by_two_identities"], total,
        "{prov}"
    );
    let contributors: Vec<&String> = prov["contributors"].as_object().unwrap().keys().collect();
    assert!(
        contributors.iter().all(|c| names.contains(&c.as_str())),
        "{contributors:?}"
    );
    let audit: serde_json::Value =
        serde_json::from_str(&Client::new(&url).token(&token).ok(&["audit", "--json"])).unwrap();
    let mut actions: Vec<String> = audit
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["action"].as_str().unwrap_or("").ends_with("-credential"))
        .map(|e| {
            let name = e["detail"]
                .as_str()
                .unwrap_or("")
                .split_whitespace()
                .find_map(|w| w.strip_prefix("name="))
                .unwrap_or("?")
                .to_string();
            format!("{} {name}", e["action"].as_str().unwrap())
        })
        .collect();
    actions.sort();
    assert_eq!(
        actions,
        [
            "issue-credential node2",
            "issue-credential node3",
            "issue-credential node4",
            "issue-credential node5",
            "revoke-credential node4"
        ],
        "{audit}"
    );

    // A requeued coordinator job (same store) issues nothing again: the
    // files, the list of credentials and the audit log stay as they were.
    let secrets = || -> Vec<Vec<u8>> {
        ["node2", "node3", "node4", "node5"]
            .iter()
            .map(|n| std::fs::read(cred_file(n)).unwrap())
            .collect()
    };
    let (before, list_before) = (
        secrets(),
        Client::new(&url)
            .token(&token)
            .ok(&["token", "list", "--json"]),
    );
    let requeued = Instant::now();
    cluster.run("scancel", &["--signal=TERM", &coordinator]);
    wait_or(
        "the coordinator job to come back after its requeue",
        Duration::from_secs(120),
        || {
            std::fs::read_to_string(&log_file)
                .unwrap_or_default()
                .contains("(restart 1) on ")
                && st().is_some()
        },
        diag,
    );
    let back_after = requeued.elapsed();
    let (_, url) = coordinator_at(&sdir, &addr_file).unwrap();
    // Past two rescans of the new job.
    std::thread::sleep(Duration::from_secs(5));
    assert_eq!(secrets(), before, "a credential file changed on requeue");
    assert_eq!(
        Client::new(&url)
            .token(&token)
            .ok(&["token", "list", "--json"]),
        list_before
    );
    let audit_again = Client::new(&url).token(&token).ok(&["audit", "--json"]);
    assert_eq!(
        audit_again.matches("\"issue-credential\"").count(),
        4,
        "{audit_again}"
    );
    assert_eq!(
        std::fs::read_dir(&creds).unwrap().count(),
        4,
        "nothing half-written left"
    );
    eprintln!("slurm credentials: coordinator requeued and serving again after {back_after:.1?}; nothing issued again");

    // Stop the coordinator for good (`scancel` without a signal: the batch
    // script is killed too and does not requeue) and read its
    // verification records: every shard ran on two different nodes.
    cluster.run("scancel", &[&coordinator]);
    wait_or(
        "the coordinator job to end",
        Duration::from_secs(60),
        || !cluster.queued().contains(&coordinator),
        diag,
    );
    use gamesweep_engine::store::{SledStore, Store as _, Verdict};
    let store = SledStore::open(&dir.join("store")).unwrap();
    let sweeps = store.load_all().unwrap();
    let sweep = sweeps.iter().find(|s| s.record.id == "n10").unwrap();
    assert_eq!(sweep.replication.len() as u64, total, "a record per shard");
    let mut by_node4 = 0;
    for (shard, v) in &sweep.replication {
        let mut who: Vec<&str> = v.runs.iter().map(|r| r.worker.as_str()).collect();
        assert_eq!(v.verdict, Verdict::Verified, "shard {shard}: {v:?}");
        assert!(
            who.iter().all(|w| names.contains(w)),
            "shard {shard}: {who:?}"
        );
        let runs = who.len();
        who.sort();
        who.dedup();
        assert!(
            who.len() >= 2 && who.len() == runs,
            "shard {shard}: runs {:?} are not on two different nodes",
            v.runs
        );
        by_node4 += usize::from(who.contains(&"@node4"));
    }
    assert!(
        by_node4 >= 1,
        "node4 confirmed nothing before its revocation"
    );
    eprintln!(
        "slurm credentials: node4's tasks ended {stopped_after:.1?} after the revocation; sweep done {sweep_wall:.1?} after it started; {total} shards each confirmed on two nodes ({by_node4} with node4); leases_expired {}; passed in {:.1?}",
        s["leases_expired"],
        started.elapsed()
    );
}

/// The processes in NODE's namespace whose command line or environment
/// holds `secret` (`/proc/PID/cmdline`, `/proc/PID/environ`).
fn secret_shown_on(slurm_dir: &Path, node: &str, secret: &str) -> Vec<String> {
    let net = std::fs::read_to_string(slurm_dir.join("net")).unwrap_or_default();
    let ns = net
        .lines()
        .filter_map(|l| l.strip_prefix("ns "))
        .find(|ns| ns.ends_with(&format!("-{node}")))
        .unwrap_or_else(|| panic!("no namespace of {node} in {net}"))
        .to_string();
    let o = Command::new("ip")
        .args(["netns", "pids", &ns])
        .output()
        .unwrap();
    let mut shown = Vec::new();
    for pid in String::from_utf8_lossy(&o.stdout).split_whitespace() {
        for what in ["cmdline", "environ"] {
            let bytes = std::fs::read(format!("/proc/{pid}/{what}")).unwrap_or_default();
            if String::from_utf8_lossy(&bytes).contains(secret) {
                shown.push(format!("{pid} {what}"));
            }
        }
    }
    shown
}

/// Per-task credentials, the Slurm recipe's default.
///
/// Three nodes of two CPUs: the coordinator job (no credential settings at
/// all) on one, a two-task worker array of two-CPU tasks on the other two.
/// Neither job is given a shared token (the workers' HOME has none). Each
/// task asks the coordinator job for a credential (`task-ID.request` in the
/// directory beside the address file) and gets its own file, mode 0600 in
/// a 0700 directory; the secrets are in no process's command line or
/// environment on the nodes, nor in `scontrol show job`. The coordinator
/// sees two identities, `@task-A_0` and `@task-A_1`. The sweep is launched
/// with `--replicate all`; mid-sweep task 1 is sent what a time limit sends
/// (`scancel --batch --signal=USR1`): it gives its leases back, requeues
/// itself and comes back with the same credential (same file, no new
/// issue): still two identities. The sweep finishes with every shard
/// confirmed by two identities on two different nodes, `results.json`
/// equals `runs/uvg-n10`'s, and once the tasks end their files are removed
/// and the coordinator job revokes both credentials.
#[test]
#[ignore = "needs slurm"]
fn per_task_credentials_by_default_confirm_every_shard_across_nodes_and_survive_a_requeue() {
    let _serial = crate::serial();
    let started = Instant::now();
    let (tmp, cluster) = nodes_cluster(10, 3, 2);
    let dir = tmp.path();
    let sdir = dir.join("slurm");
    let token = dir.join("token");
    std::fs::write(&token, "slurm-test-admin-token\n").unwrap();
    let addr_file = dir.join("coordinator.url");
    // The default place: beside the address file.
    let creds = dir.join("coordinator.credentials");
    let log_file = dir.join("coordinator.log");
    let o = cluster
        .cmd("sbatch")
        .args(["--parsable", "--cpus-per-task=2", "--time=10"])
        .arg(format!("--output={}", log_file.display()))
        .arg(script("gamesweep-coordinator.sbatch"))
        .args(["--lease-secs", "10"])
        .env("GAMESWEEP_STORE", dir.join("store"))
        .env("GAMESWEEP_COORDINATOR_FILE", &addr_file)
        .env("GAMESWEEP_TOKEN_FILE", &token)
        .env("GAMESWEEP_BIN", GS)
        .env_remove("GAMESWEEP_CREDENTIALS")
        .env_remove("GAMESWEEP_CREDENTIALS_DIR")
        // Revocations are looked for every 2 s here (60 by default).
        .env("GAMESWEEP_CREDENTIALS_RESCAN", "2")
        .output()
        .unwrap();
    assert!(o.status.success(), "sbatch coordinator: {}", text(&o));
    let coordinator = String::from_utf8(o.stdout).unwrap().trim().to_string();
    let diag = || {
        let mut s = std::fs::read_to_string(&log_file).unwrap_or_default();
        if let Ok(rd) = std::fs::read_dir(dir) {
            for e in rd.flatten() {
                let name = e.file_name().to_string_lossy().to_string();
                if name.starts_with("w-") {
                    s.push_str(&format!(
                        "--- {name}:\n{}\n",
                        std::fs::read_to_string(e.path()).unwrap_or_default()
                    ));
                }
            }
        }
        for args in [vec!["squeue", "-o", "%i %N %T"], vec!["sinfo", "-N"]] {
            if let Ok(o) = cluster.cmd(args[0]).args(&args[1..]).output() {
                s.push_str(&String::from_utf8_lossy(&o.stdout));
            }
        }
        s
    };
    let st = || status_at(&sdir, &addr_file, &token);
    wait_or(
        "the coordinator job's address",
        Duration::from_secs(60),
        || st().is_some(),
        diag,
    );
    let (coord_node, url) = coordinator_at(&sdir, &addr_file).unwrap();
    assert_eq!(mode_of(&creds), 0o700);
    Client::new(&url).token(&token).ok(&LAUNCH_N10_REPLICATED);
    Client::new(&url).token(&token).ok(&["pause", "n10"]);

    // Two tasks of two CPUs: one on each of the other nodes. No shared
    // token anywhere in their environment.
    let home = dir.join("home");
    std::fs::create_dir(&home).unwrap();
    let o = cluster
        .cmd("sbatch")
        .args(["--parsable", "--cpus-per-task=2", "--array=0-1"])
        .arg(format!("--output={}", dir.join("w-%A_%a.log").display()))
        .arg(script("gamesweep-workers.sbatch"))
        .args(["--idle-grace", "3"])
        .env("HOME", &home)
        .env_remove("GAMESWEEP_COORDINATOR")
        .env_remove("GAMESWEEP_TOKEN_FILE")
        .env_remove("GAMESWEEP_CREDENTIALS")
        .env_remove("GAMESWEEP_CREDENTIALS_DIR")
        .env("GAMESWEEP_COORDINATOR_FILE", &addr_file)
        .env("GAMESWEEP_WORKER_BIN", WORKER)
        .env("GAMESWEEP_THREADS", "1")
        .output()
        .unwrap();
    assert!(o.status.success(), "sbatch workers: {}", text(&o));
    let array = String::from_utf8(o.stdout).unwrap().trim().to_string();
    let tasks = [format!("{array}_0"), format!("{array}_1")];
    let names: Vec<String> = tasks.iter().map(|t| format!("@task-{t}")).collect();
    let identities = |s: &serde_json::Value| {
        let mut w = workers(s);
        w.sort();
        w
    };
    wait_or(
        "the two tasks to reach the coordinator as themselves",
        Duration::from_secs(60),
        || st().is_some_and(|s| identities(&s) == names),
        || format!("{:?}\n{}", st().map(|s| identities(&s)), diag()),
    );
    let asked_after = started.elapsed();
    let placed: std::collections::BTreeMap<String, String> = cluster
        .run("squeue", &["-h", "-t", "R", "-o", "%i %N"])
        .lines()
        .filter_map(|l| {
            let (id, node) = l.split_once(' ')?;
            Some((id.to_string(), node.trim().to_string()))
        })
        .collect();
    let nodes: std::collections::BTreeSet<&String> =
        tasks.iter().filter_map(|t| placed.get(t)).collect();
    assert!(
        nodes.len() == 2 && !nodes.contains(&coord_node),
        "the tasks should run on the two other nodes: {placed:?}"
    );

    // The files: one per task, 0600, nothing else left (no request, no
    // half-written file); the list of credentials is those two.
    let cred_file = |t: &str| creds.join(format!("task-{t}.token"));
    let mut files: Vec<String> = std::fs::read_dir(&creds)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let want: Vec<String> = tasks.iter().map(|t| format!("task-{t}.token")).collect();
    assert_eq!(files, want);
    for t in &tasks {
        assert_eq!(mode_of(&cred_file(t)), 0o600, "{t}");
    }
    let issued = || -> Vec<(String, bool)> {
        let list: serde_json::Value = serde_json::from_str(
            &Client::new(&url)
                .token(&token)
                .ok(&["token", "list", "--json"]),
        )
        .unwrap();
        let mut v: Vec<(String, bool)> = list
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    format!("@{}", c["name"].as_str().unwrap()),
                    !c["revoked_unix_ms"].is_null(),
                )
            })
            .collect();
        v.sort();
        v
    };
    let live: Vec<(String, bool)> = names.iter().map(|n| (n.clone(), false)).collect();
    assert_eq!(issued(), live);
    // The secrets are handed over in the files only.
    let secrets: Vec<String> = tasks
        .iter()
        .map(|t| {
            std::fs::read_to_string(cred_file(t))
                .unwrap()
                .trim()
                .to_string()
        })
        .collect();
    for secret in &secrets {
        assert!(secret.len() >= 32, "{secret:?}");
        for node in ["node1", "node2", "node3"] {
            let shown = secret_shown_on(&sdir, node, secret);
            assert!(shown.is_empty(), "a secret is shown on {node}: {shown:?}");
        }
        for t in &tasks {
            let job = cluster.run("scontrol", &["show", "job", "-dd", t]);
            assert!(!job.contains(secret.as_str()), "scontrol show job {t}");
        }
    }
    eprintln!(
        "slurm per-task credentials: coordinator on {coord_node}, tasks on {placed:?}, both working as {names:?} {asked_after:.1?} after the start"
    );

    // Mid-sweep, task 1's allocation ends as at its time limit: it gives its
    // leases back, requeues itself, and comes back with the same credential.
    let sweep_start = Instant::now();
    Client::new(&url).token(&token).ok(&["resume", "n10"]);
    wait_or(
        "some results",
        Duration::from_secs(120),
        || st().is_some_and(|s| s["sweeps"][0]["results_stored"].as_u64() >= Some(40)),
        diag,
    );
    let t1_log = dir.join(format!("w-{}.log", tasks[1]));
    let signalled = Instant::now();
    cluster.run("scancel", &["--batch", "--signal=USR1", &tasks[1]]);
    wait_or(
        "task 1 to requeue itself",
        Duration::from_secs(60),
        || {
            std::fs::read_to_string(&t1_log)
                .unwrap_or_default()
                .contains(&format!("requeueing {}", tasks[1]))
        },
        diag,
    );
    let requeued_after = signalled.elapsed();
    let at_requeue = st().unwrap();
    assert_ne!(
        at_requeue["sweeps"][0]["state"], "done",
        "requeued after the sweep: {at_requeue}"
    );
    wait_or(
        "task 1 to run again",
        Duration::from_secs(120),
        || {
            std::fs::read_to_string(&t1_log)
                .unwrap_or_default()
                .contains("(restart 1) on ")
        },
        diag,
    );
    let back_after = signalled.elapsed();
    let mut last = serde_json::Value::Null;
    wait_or(
        "the sweep to finish",
        Duration::from_secs(300),
        || {
            last = st().unwrap_or(serde_json::Value::Null);
            last["sweeps"][0]["state"] == "done"
        },
        diag,
    );
    let sweep_wall = sweep_start.elapsed();
    // Still the same two identities, and nothing issued again.
    let log1 = std::fs::read_to_string(&t1_log).unwrap_or_default();
    // Only its first run waited for a credential.
    assert_eq!(
        log1.matches("waiting up to").count(),
        1,
        "the requeued task waited for a new credential:\n{log1}"
    );
    assert_eq!(identities(&last), names, "{last}");
    let audit = Client::new(&url).token(&token).ok(&["audit", "--json"]);
    assert_eq!(audit.matches("\"issue-credential\"").count(), 2, "{audit}");

    // The result, and how it was confirmed.
    assert_committed_result(&url, &token, dir);
    let s = &last["sweeps"][0];
    let total = s["shards_total"].as_u64().unwrap();
    let prov: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report/provenance.json")).unwrap())
            .unwrap();
    assert_eq!(
        prov["confirmation"]["confirmed_by_two_identities"], total,
        "{prov}"
    );
    let mut contributors: Vec<&String> = prov["contributors"].as_object().unwrap().keys().collect();
    contributors.sort();
    assert_eq!(contributors, names.iter().collect::<Vec<_>>(), "{prov}");

    // The tasks end by themselves (COMPLETED), remove their files, and the
    // coordinator job revokes both credentials.
    wait_or(
        "the workers to exit",
        Duration::from_secs(60),
        || !cluster.queued().iter().any(|j| j.starts_with(&array)),
        diag,
    );
    for t in &tasks {
        assert_eq!(
            cluster.job_state(t),
            Some(("COMPLETED".to_string(), "0:0".to_string())),
            "{t}: {}",
            diag()
        );
        assert!(!cred_file(t).exists(), "{t}'s credential file is left");
    }
    let revoked: Vec<(String, bool)> = names.iter().map(|n| (n.clone(), true)).collect();
    wait_or(
        "the coordinator job to revoke the ended tasks' credentials",
        Duration::from_secs(30),
        || issued() == revoked,
        || format!("{:?}\n{}", issued(), diag()),
    );
    cluster.run("scancel", &[&coordinator]);
    eprintln!(
        "slurm per-task credentials: task 1 requeued {requeued_after:.1?} after its USR1, running again after {back_after:.1?}; sweep ({total} shards, --replicate all) done {sweep_wall:.1?} after it started, every shard confirmed by two identities; leases_expired {}; passed in {:.1?}",
        s["leases_expired"],
        started.elapsed()
    );
}
