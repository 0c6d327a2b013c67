//! Where the local cluster listens (only inside its namespaces), and the
//! README's Slurm steps read from its code blocks and run as written.

use super::*;

/// The TCP listeners of this test's network namespace (`ss -ltnH`): their
/// local addresses (`ADDR:PORT`), and the whole `ss -ltnp` table for a
/// failure message.
fn listeners() -> (std::collections::BTreeSet<String>, String) {
    let o = Command::new("ss").arg("-ltnH").output();
    let o = match o {
        Ok(o) if o.status.success() => o,
        Ok(o) => panic!("ss -ltnH: {}", text(&o)),
        Err(e) => no_cluster(&format!("cannot run ss (iproute2): {e}")),
    };
    let set = String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().nth(3).map(str::to_string))
        .collect();
    let table = Command::new("ss")
        .arg("-ltnp")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).to_string())
        .unwrap_or_default();
    (set, table)
}

/// Is `local` (`ss`'s `ADDR:PORT`, `[V6]:PORT`, `*:PORT`) on a loopback
/// address (127.0.0.0/8, ::1)? A wildcard is not.
fn on_loopback(local: &str) -> bool {
    let Some((host, _port)) = local.rsplit_once(':') else {
        return false;
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    // `127.0.0.53%lo`: an address bound to one interface.
    let host = host.split('%').next().unwrap_or(host);
    match host.parse::<std::net::IpAddr>() {
        Ok(std::net::IpAddr::V4(ip)) => ip.is_loopback(),
        Ok(std::net::IpAddr::V6(ip)) => {
            ip.is_loopback() || ip.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())
        }
        Err(_) => false,
    }
}

#[test]
fn loopback_addresses_are_told_from_the_rest() {
    for local in [
        "127.0.0.1:6817",
        "127.0.0.53%lo:53",
        "[::1]:631",
        "[::ffff:127.0.0.1]:9",
    ] {
        assert!(on_loopback(local), "{local}");
    }
    for local in [
        "0.0.0.0:6817",
        "*:6818",
        "[::]:22",
        "10.253.7.254:1",
        "192.168.1.5:80",
        "garbage",
    ] {
        assert!(!on_loopback(local), "{local}");
    }
}

/// Regression: nothing of the local cluster listens in the namespace
/// that started it. `ss -ltn` before `up` and after `up` and a job: no new
/// listener there except on loopback, for one node and for `--nodes 2`;
/// slurmctld listens in the controller's namespace (seen through
/// `local-cluster.sh login`), and the job ran on a node, in that node's
/// namespace (its own address; slurmd's port listens there). Against the
/// script before per-node namespaces (slurmctld and slurmd on 0.0.0.0
/// here) this fails.
#[test]
#[ignore = "needs slurm"]
fn the_local_cluster_listens_only_inside_its_namespaces() {
    let _serial = crate::serial();
    for nodes in [None, Some(2)] {
        let mode = nodes.map_or("one node".to_string(), |n| format!("--nodes {n}"));
        let (before, _) = listeners();
        let started = Instant::now();
        let (tmp, cluster) = match nodes {
            None => cluster(120).unwrap_or_else(|why| no_cluster(&why)),
            Some(n) => nodes_cluster(120, n, 2),
        };
        let up_took = started.elapsed();
        let dir = tmp.path();
        // A job still runs, on a node, with that node's own address.
        let out = dir.join("job.out");
        let o = cluster
            .cmd("sbatch")
            .args(["--parsable", "--wait"])
            .arg(format!("--output={}", out.display()))
            .args([
                "--wrap",
                "echo \"node=$SLURMD_NODENAME addr=$(ip -4 -o addr show eth0 | awk '{print $4}')\"; ss -ltnH",
            ])
            .output()
            .unwrap();
        assert!(o.status.success(), "{mode}: sbatch --wait: {}", text(&o));
        let (after, table) = listeners();
        let new: Vec<&String> = after
            .difference(&before)
            .filter(|l| !on_loopback(l))
            .collect();
        eprintln!(
            "slurm listeners ({mode}): up took {up_took:.1?}; {} listeners here before, {} after, new off loopback: {new:?}",
            before.len(),
            after.len()
        );
        assert!(
            new.is_empty(),
            "{mode}: the local cluster listens in the caller's network namespace on {new:?}:\n{table}"
        );
        let job = String::from_utf8_lossy(&o.stdout).trim().to_string();
        assert_eq!(
            cluster.job_state(&job),
            Some(("COMPLETED".to_string(), "0:0".to_string())),
            "{mode}: job {job}"
        );
        let job_out = std::fs::read_to_string(&out).unwrap_or_default();
        assert!(
            job_out.starts_with("node=node") && job_out.contains(" addr=10.253."),
            "{mode}: {job_out}"
        );
        // Where the Slurm ports are: the node's slurmd in the job's
        // namespace, slurmctld in the controller's.
        assert!(
            job_out.contains(":6818 "),
            "{mode}: no slurmd in the job's namespace: {job_out}"
        );
        let o = Command::new("bash")
            .arg(script("local-cluster.sh"))
            .arg("login")
            .arg(&cluster.dir)
            .args(["ss", "-ltnH"])
            .output()
            .unwrap();
        assert!(o.status.success(), "{mode}: login ss: {}", text(&o));
        let ctl = String::from_utf8_lossy(&o.stdout).to_string();
        assert!(
            ctl.contains(":6817 "),
            "{mode}: no slurmctld in the controller's namespace: {ctl}"
        );

        let down = Instant::now();
        drop(cluster);
        eprintln!("slurm listeners ({mode}): down took {:.1?}", down.elapsed());
    }
}

/// The commands of the Slurm recipe in deploy/README.md ("Slurm: from
/// nothing to a finished sweep"), in order: the code lines (fenced blocks)
/// of each numbered step, and the inline commands of steps 2 and 6.
fn readme_slurm_steps(readme: &str) -> Vec<(u32, String)> {
    let start = readme
        .find("## Slurm: from nothing to a finished sweep")
        .expect("deploy/README.md has no section \"Slurm: from nothing to a finished sweep\"");
    let section = &readme[start..];
    let end = section
        .find("**Adding workers:**")
        .expect("the Slurm section ends at \"**Adding workers:**\"");
    let section = &section[..end];
    let mut steps = Vec::new();
    let mut step = 0;
    let mut prose = String::new();
    let mut fenced = false;
    let inline = |step: u32, prose: &str, steps: &mut Vec<(u32, String)>| {
        // Steps 2 and 6 give their commands inline, in backticks.
        let prose = prose.split_whitespace().collect::<Vec<_>>().join(" ");
        let spans: Vec<&str> = prose.split('`').skip(1).step_by(2).collect();
        match step {
            2 => steps.push((2, spans.first().expect("step 2 has a command").to_string())),
            6 => {
                for s in spans.iter().filter(|s| s.starts_with("gamesweep ")) {
                    steps.push((6, s.to_string()));
                }
            }
            _ => {}
        }
    };
    for line in section.lines() {
        if let Some((n, _)) = line
            .split_once(". **")
            .filter(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        {
            inline(step, &prose, &mut steps);
            prose.clear();
            step = n.parse().unwrap();
        }
        if step == 0 {
            continue;
        }
        let t = line.trim();
        if t.starts_with("```") {
            fenced = !fenced;
        } else if fenced {
            steps.push((step, t.to_string()));
        } else if !t.starts_with("<!--") {
            prose.push_str(line);
            prose.push('\n');
        }
    }
    inline(step, &prose, &mut steps);
    steps
}

/// The recipe's commands are found: each step's code blocks (the fenced
/// lines, not the fences or the comments before them) and steps 2's and
/// 6's inline commands.
#[test]
fn the_readme_slurm_steps_are_read_from_its_code_blocks() {
    let readme = std::fs::read_to_string(repo().join("deploy/README.md")).unwrap();
    let steps = readme_slurm_steps(&readme);
    let of = |n: u32| -> Vec<&str> {
        steps
            .iter()
            .filter(|(s, _)| *s == n)
            .map(|(_, c)| c.as_str())
            .collect()
    };
    assert_eq!(of(1)[1], "cargo build --release", "{steps:#?}");
    assert_eq!(of(1).len(), 4, "{steps:#?}");
    assert!(of(2)[0].starts_with("mkdir -p ~/.gamesweep"), "{steps:#?}");
    assert_eq!(
        of(3).last(),
        Some(&"sbatch deploy/slurm/gamesweep-coordinator.sbatch"),
        "{steps:#?}"
    );
    assert_eq!(of(4).len(), 2, "{steps:#?}");
    assert_eq!(of(5).len(), 3, "{steps:#?}");
    assert!(
        steps
            .iter()
            .all(|(_, c)| !c.starts_with("```") && !c.starts_with("<!--")),
        "{steps:#?}"
    );
}

/// The README's Slurm recipe runs as written on the local
/// cluster, from its "login node" (`local-cluster.sh login DIR`, which the
/// README's "Trying it on one machine" says to use): the commands are taken
/// from deploy/README.md's text, so a changed command there changes what
/// runs here. Not run: `git clone` and `cargo build` (this test runs the
/// binaries cargo built). Changed, each where the README says so for the
/// local cluster: the service node's name, the store's local disk, the
/// sweep's size (`--max-n 11` takes about 12 min on two cores) and the
/// array's. The coordinator's address file names its node (`http://node1:7461`):
/// step 4's `cat` of it must work there. The sweep must finish, and the
/// report's results.json must equal a `gamesweep run` of the same sweep in
/// one process.
#[test]
#[ignore = "needs slurm"]
fn the_readme_slurm_steps_run_as_written_on_the_local_cluster() {
    let _serial = crate::serial();
    let started = Instant::now();
    let readme = std::fs::read_to_string(repo().join("deploy/README.md")).unwrap();
    let steps = readme_slurm_steps(&readme);
    let numbers: std::collections::BTreeSet<u32> = steps.iter().map(|(n, _)| *n).collect();
    assert_eq!(
        numbers,
        (1..=6).collect(),
        "commands found per step: {steps:#?}"
    );
    // The README tells how to run these steps on the local cluster.
    let trying = readme
        .find("**Trying it on one machine:**")
        .map(|i| &readme[i..])
        .expect("deploy/README.md has no \"Trying it on one machine\"");
    let trying = &trying[..trying.find("**What is tested:**").unwrap_or(trying.len())];
    let trying_flat = trying.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        trying_flat.contains("local-cluster.sh login"),
        "\"Trying it on one machine\" does not say to use `local-cluster.sh login`:\n{trying}"
    );
    // (README text, what runs here): each must occur once, and the README's
    // "Trying it on one machine" must name the replacement.
    let local = [
        ("--max-n 11 --shards 4000", "--max-n 10 --shards 256"),
        (
            "--array=0-15 --cpus-per-task=8",
            "--array=0-1 --cpus-per-task=1",
        ),
    ];
    let skipped = ["git clone ", "cargo build --release"];
    let mut steps_sh = String::from("set -euo pipefail\n");
    let mut used = vec![0; local.len()];
    for (step, cmd) in &steps {
        if skipped.iter().any(|s| cmd.starts_with(s)) {
            steps_sh.push_str(&format!("# step {step}, not run here: {cmd}\n"));
            continue;
        }
        let mut cmd = cmd.clone();
        for (i, (from, to)) in local.iter().enumerate() {
            if cmd.contains(from) {
                used[i] += cmd.matches(from).count();
                cmd = cmd.replace(from, to);
            }
        }
        if *step == 4 && cmd.contains("GAMESWEEP_COORDINATOR=$(cat") {
            // Step 3 submitted the coordinator job: the operator waits for
            // its address file ("once it listens") before step 4.
            steps_sh.push_str(
                "for _ in $(seq 240); do [ -s \"$GAMESWEEP_COORDINATOR_FILE\" ] && break; sleep 0.5; done\n",
            );
        }
        steps_sh.push_str(&format!("# step {step}\n{cmd}\n"));
    }
    for ((from, to), n) in local.iter().zip(&used) {
        assert_eq!(
            *n, 1,
            "the README's Slurm steps should contain `{from}` once (replaced by `{to}` on the local cluster):\n{steps_sh}"
        );
        assert!(
            trying_flat.contains(&format!("`{to}`")),
            "\"Trying it on one machine\" should say to use `{to}` (for `{from}`):\n{trying}"
        );
    }
    for s in skipped {
        assert!(
            steps_sh.contains(&format!("not run here: {s}")),
            "{steps_sh}"
        );
    }
    eprintln!("slurm readme: running\n{steps_sh}");

    // Four CPUs: the coordinator job's two and the two one-CPU workers.
    let (tmp, cluster) = cluster(120).unwrap_or_else(|why| no_cluster(&why));
    let dir = tmp.path();
    // The operator's checkout (`deploy/`, and `target/release` with the
    // binaries cargo built) and home directory.
    let checkout = dir.join("gamesweep");
    std::fs::create_dir_all(checkout.join("target")).unwrap();
    std::os::unix::fs::symlink(repo().join("deploy"), checkout.join("deploy")).unwrap();
    std::os::unix::fs::symlink(
        Path::new(GS).parent().unwrap(),
        checkout.join("target/release"),
    )
    .unwrap();
    let home = dir.join("home");
    std::fs::create_dir(&home).unwrap();
    let mut child = Command::new("bash")
        .arg(script("local-cluster.sh"))
        .arg("login")
        .arg(&cluster.dir)
        .args(["bash", "-c", &steps_sh])
        .current_dir(&checkout)
        .env("HOME", &home)
        .env_remove("SLURM_CONF")
        .env_remove("GAMESWEEP_COORDINATOR")
        .env_remove("GAMESWEEP_COORDINATOR_FILE")
        .env_remove("GAMESWEEP_TOKEN_FILE")
        .env_remove("GAMESWEEP_CREDENTIALS_DIR")
        .env_remove("GAMESWEEP_CREDENTIALS")
        .env_remove("GAMESWEEP_STORE")
        .env_remove("GAMESWEEP_BIN")
        .env_remove("GAMESWEEP_WORKER_BIN")
        .stdout(std::fs::File::create(dir.join("steps.out")).unwrap())
        .stderr(std::fs::File::create(dir.join("steps.err")).unwrap())
        .spawn()
        .unwrap();
    let logs = || {
        let mut s = String::new();
        for f in ["steps.out", "steps.err"] {
            s.push_str(&format!(
                "--- {f}:\n{}\n",
                std::fs::read_to_string(dir.join(f)).unwrap_or_default()
            ));
        }
        if let Ok(rd) = std::fs::read_dir(&checkout) {
            for e in rd.flatten() {
                let name = e.file_name().to_string_lossy().to_string();
                if name.ends_with(".log") || name.ends_with(".out") {
                    s.push_str(&format!(
                        "--- {name}:\n{}\n",
                        std::fs::read_to_string(e.path()).unwrap_or_default()
                    ));
                }
            }
        }
        if let Ok(o) = cluster.cmd("squeue").output() {
            s.push_str(&String::from_utf8_lossy(&o.stdout));
        }
        s
    };
    let mut status = None;
    wait_or(
        "the README's steps to finish",
        Duration::from_secs(400),
        || {
            status = child.try_wait().unwrap();
            status.is_some()
        },
        // On a timeout `down` kills the steps' processes (they run in the
        // controller's namespace).
        logs,
    );
    let status = status.unwrap();
    assert!(
        status.success(),
        "the README's steps failed ({status}):\n{}",
        logs()
    );
    let steps_took = started.elapsed();

    // The address file names the coordinator's node, as on a cluster.
    let addr_file = home.join("gamesweep/coordinator.url");
    let (node, url) = coordinator_at(&cluster.dir, &addr_file).unwrap_or_else(|| {
        panic!(
            "no coordinator address in {}:\n{}",
            addr_file.display(),
            logs()
        )
    });
    assert_eq!(node, "node1", "{url}");
    let token = home.join(".gamesweep/token");
    let st = status_at(&cluster.dir, &addr_file, &token).expect("the coordinator answers");
    assert_eq!(st["sweeps"][0]["sweep_id"], "uvg11", "{st}");
    assert_eq!(st["sweeps"][0]["state"], "done", "{st}");
    // Per-task credentials, the recipe's default: the two array tasks are
    // two identities, so `launch`'s sampled verification confirms shards
    // (each new identity's results are checked by the other) and nothing
    // waits for a second identity that never comes.
    let v = &st["sweeps"][0]["verification"];
    assert_eq!(v["unverifiable"], 0, "{v}");
    assert_eq!(v["mismatched"], 0, "{v}");
    assert!(v["verified"].as_u64() >= Some(1), "{v}");
    let watched = std::fs::read_to_string(dir.join("steps.out")).unwrap();
    // `status --watch` returned once the sweep was settled: done.
    let last = watched.lines().rfind(|l| l.contains(" uvg11 "));
    assert!(
        last.is_some_and(|l| l.trim_end().ends_with("[done]")),
        "status --watch did not end with the sweep done: {last:?}\n{watched}"
    );

    // The report (step 6, into the checkout's runs/uvg11) against the same
    // sweep run in one process.
    let got = std::fs::read(checkout.join("runs/uvg11/results.json")).unwrap();
    let reference = dir.join("reference");
    let o = Command::new(GS)
        .args(["run", "uvg", "--max-n", "10", "--in-process", "--out"])
        .arg(&reference)
        .output()
        .unwrap();
    assert!(o.status.success(), "gamesweep run: {}", text(&o));
    let want = std::fs::read(reference.join("results.json")).unwrap();
    assert!(
        got == want,
        "the README's sweep gave another results.json than `gamesweep run uvg --max-n 10`"
    );
    let prov: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(checkout.join("runs/uvg11/provenance.json")).unwrap(),
    )
    .unwrap();
    let ids: Vec<&String> = prov["contributors"]
        .as_object()
        .map(|c| c.keys().collect())
        .unwrap_or_default();
    assert!(
        ids.len() == 2 && ids.iter().all(|w| w.starts_with("@task-")),
        "the array's two tasks should be two issued identities: {ids:?}"
    );
    let confirmed = prov["confirmation"]["confirmed_by_two_identities"]
        .as_u64()
        .unwrap_or(0);
    assert!(
        confirmed >= v["verified"].as_u64().unwrap_or(0) && confirmed >= 1,
        "provenance.json: {}",
        prov["confirmation"]
    );
    // Workers leave by themselves once idle; the coordinator job runs on.
    wait_or(
        "the workers to exit",
        Duration::from_secs(120),
        || cluster.queued().len() == 1,
        logs,
    );
    eprintln!(
        "slurm readme: the README's steps ran to a finished sweep in {steps_took:.1?} (cluster up included); verification {v}; {confirmed} shards confirmed by {ids:?}; passed in {:.1?}",
        started.elapsed()
    );
}
