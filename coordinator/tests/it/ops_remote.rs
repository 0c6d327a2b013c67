//! The jobs of `ops::remote` (the admin calls on a running coordinator)
//! and `ops::report`, called directly as Python calls them, against a real
//! coordinator on 127.0.0.1: their typed outcomes, the lines the CLI
//! prints of them, and the files they write.

use crate::support::harness::{ok, secs, Serve, Worker};
use gamesweep_api::domain::SweepState;
use gamesweep_coordinator::connect::Conn;
use gamesweep_coordinator::ops::remote::act::{act, ActRequest, Action};
use gamesweep_coordinator::ops::remote::audit::{audit, table, AuditRequest};
use gamesweep_coordinator::ops::remote::project::{project, ProjectRequest};
use gamesweep_coordinator::ops::remote::status::{self, StatusRequest};
use gamesweep_coordinator::ops::remote::token::{self, IssueRequest, Role};
use gamesweep_coordinator::ops::remote::{launch, Session};
use gamesweep_coordinator::ops::report::{self, ReportRequest, RerenderRequest};
use std::path::Path;

/// The words of `launch` for the coordinator at `url`.
fn words(url: &str, w: &[&str]) -> Vec<String> {
    w.iter()
        .copied()
        .chain(["--coordinator", url])
        .map(str::to_string)
        .collect()
}

/// Sweep `id`'s state, read through `ops::remote::status`.
fn state_of(s: &mut Session, id: &str) -> SweepState {
    let o = status::status(
        s,
        &StatusRequest {
            id: Some(id.into()),
        },
    )
    .unwrap();
    assert_eq!(o.sweeps.len(), 1, "{o:?}");
    o.sweeps[0].state
}

#[test]
fn a_sweep_is_launched_paused_resumed_cancelled_and_reported_through_ops() {
    let dir = tempfile::tempdir().unwrap();
    let c = Serve::new(&dir.path().join("store")).start();
    let (spec, conn) = launch::spec_from_words(&words(
        &c.url,
        &["uvg", "--max-n", "6", "--name", "ops-a", "--shards", "4"],
    ))
    .unwrap();
    assert_eq!(conn.coordinator.as_deref(), Some(c.url.as_str()));
    assert_eq!((spec.kind.as_str(), spec.target_shards), ("uvg", 4));
    let mut s = Session::connect(&conn).unwrap();
    let l = launch::launch(&mut s, spec).unwrap();
    assert_eq!(l.sweep_id, "ops-a");
    assert!(!l.existing);
    assert!(
        l.message
            .starts_with(&format!("launched ops-a with {} shard", l.shards)),
        "{}",
        l.message
    );

    // Status: the typed overview and its JSON, which parses back.
    let o = status::status(&mut s, &StatusRequest::default()).unwrap();
    let sweep = &o.sweeps[0];
    assert_eq!(
        (sweep.sweep_id.as_str(), sweep.state, sweep.shards_total),
        ("ops-a", SweepState::Running, l.shards)
    );
    let json: serde_json::Value = serde_json::from_str(&status::json(&o).unwrap()).unwrap();
    assert_eq!(json["sweeps"][0]["state"], "running");

    // --resume with other parameters: refused, naming both.
    let (other, _) = launch::spec_from_words(&words(
        &c.url,
        &["uvg", "--max-n", "5", "--name", "ops-a", "--resume"],
    ))
    .unwrap();
    let e = launch::launch(&mut s, other).unwrap_err().to_string();
    let (p6, p5) = (
        "--extension-value 0 --max-n 6",
        "--extension-value 0 --max-n 5",
    );
    assert!(
        e.starts_with("sweep `ops-a` was launched as `uvg ")
            && e.contains(&format!("{p6}`, not `uvg "))
            && e.contains(&format!("{p5}`: --resume continues a sweep only")),
        "{e}"
    );

    // Pause and resume: the state follows, the lines are the CLI's.
    let req = |action| ActRequest {
        action,
        id: "ops-a".into(),
    };
    let said = act(&mut s, &req(Action::Pause)).unwrap();
    assert_eq!(
        said,
        "paused ops-a (leases held may finish; `gamesweep resume ops-a` hands its shards out again)"
    );
    assert_eq!(state_of(&mut s, "ops-a"), SweepState::Paused);
    // --resume of a paused sweep says so.
    let (same, _) = launch::spec_from_words(&words(
        &c.url,
        &["uvg", "--max-n", "6", "--name", "ops-a", "--resume"],
    ))
    .unwrap();
    let again = launch::launch(&mut s, same).unwrap();
    assert!(again.existing);
    assert!(
        again.message.starts_with("ops-a is paused (0/"),
        "{}",
        again.message
    );
    assert_eq!(act(&mut s, &req(Action::Resume)).unwrap(), "resumed ops-a");
    assert_eq!(state_of(&mut s, "ops-a"), SweepState::Running);
    assert_eq!(
        act(&mut s, &req(Action::Cancel)).unwrap(),
        "cancelled ops-a"
    );
    assert_eq!(state_of(&mut s, "ops-a"), SweepState::Cancelled);
    let e = act(
        &mut s,
        &ActRequest {
            action: Action::Pause,
            id: "nope".into(),
        },
    )
    .unwrap_err();
    assert!(format!("{e:#}").starts_with("pausing nope: "), "{e:#}");
    assert_eq!(
        "stop".parse::<Action>().unwrap_err().to_string(),
        "no coordinator action `stop`"
    );

    // The audit log names the launch and the cancel, oldest first.
    let entries = audit(&mut s, AuditRequest { last: 50 }).unwrap();
    let actions: Vec<(&str, &str)> = entries
        .iter()
        .map(|e| (e.action.as_str(), e.sweep_id.as_str()))
        .collect();
    let launched = actions.iter().position(|a| *a == ("launch", "ops-a"));
    let cancelled = actions.iter().position(|a| *a == ("cancel", "ops-a"));
    assert!(launched < cancelled && launched.is_some(), "{actions:?}");
    let t = table(&entries);
    assert!(t.starts_with("time (UTC)            action  sweep"), "{t}");
    assert_eq!(t.lines().count(), entries.len() + 1, "{t}");
    assert_eq!(audit(&mut s, AuditRequest { last: 1 }).unwrap().len(), 1);

    // A projection: core counts out of range are refused before asking.
    let e = project(
        &mut s,
        &ProjectRequest {
            id: "ops-a".into(),
            cores: vec![8, 0],
            out: None,
        },
    )
    .unwrap_err();
    assert_eq!(e.to_string(), "cores: 0 is not in 1..=1000000");

    // No final report of a cancelled sweep; a partial one, marked.
    let out = dir.path().join("partial");
    let e = report::fetch(
        &conn,
        &ReportRequest {
            id: "ops-a".into(),
            out: dir.path().join("final"),
        },
    )
    .unwrap_err()
    .to_string();
    assert!(e.starts_with("sweep `ops-a` was cancelled with 0/"), "{e}");
    assert!(!dir.path().join("final").exists());
    let p = report::partial(
        &conn,
        &ReportRequest {
            id: "ops-a".into(),
            out: out.clone(),
        },
    )
    .unwrap();
    assert_eq!(p.lines.len(), 1, "{:?}", p.lines);
    assert!(
        p.lines[0].starts_with(&format!(
            "wrote a partial report (not final: 0/{} shards) into {}/: ",
            l.shards,
            out.display()
        )),
        "{:?}",
        p.lines
    );
    assert!(out.join(report::PARTIAL_RESULTS).is_file());
    assert!(!out.join("results.json").exists());
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        md.contains("> **Partial report, not final.** Sweep `ops-a` is cancelled: 0/"),
        "{md}"
    );
}

#[test]
fn a_finished_sweeps_report_is_fetched_and_rerendered_through_ops() {
    let dir = tempfile::tempdir().unwrap();
    let c = Serve::new(&dir.path().join("store")).start();
    let (spec, conn) =
        launch::spec_from_words(&words(&c.url, &["uvg", "--max-n", "5", "--name", "ops-b"]))
            .unwrap();
    let mut s = Session::connect(&conn).unwrap();
    launch::launch(&mut s, spec).unwrap();
    Worker::new(&c.url).threads(1).until_idle();
    c.wait_done("ops-b", secs(60));

    let out = dir.path().join("fetched");
    let r = report::fetch(
        &conn,
        &ReportRequest {
            id: "ops-b".into(),
            out: out.clone(),
        },
    )
    .unwrap();
    assert!(
        r.lines[0].starts_with(&format!("wrote {}/: ", out.display()))
            && r.lines[0].contains("provenance.json"),
        "{:?}",
        r.lines
    );
    // The same results as the sweep run on this machine.
    let local = dir.path().join("local");
    ok(&[
        "run",
        "uvg",
        "--max-n",
        "5",
        "--out",
        local.to_str().unwrap(),
    ]);
    let read = |d: &Path, f: &str| std::fs::read_to_string(d.join(f)).unwrap();
    assert_eq!(read(&out, "results.json"), read(&local, "results.json"));
    assert!(out.join("provenance.json").is_file() && out.join("report.html").is_file());

    // Re-rendered from results.json alone, into another folder: the same.
    let again = dir.path().join("again");
    let r = report::rerender(&RerenderRequest {
        dir: out.clone(),
        out: Some(again.clone()),
    })
    .unwrap();
    assert_eq!(r.out, again);
    assert!(
        r.lines[0].ends_with(&format!(", from {}/results.json", out.display())),
        "{:?}",
        r.lines
    );
    assert_eq!(read(&again, "results.json"), read(&out, "results.json"));
    assert_eq!(read(&again, "report.md"), read(&out, "report.md"));
}

#[test]
fn credentials_are_issued_listed_and_revoked_through_ops() {
    let dir = tempfile::tempdir().unwrap();
    let admin = dir.path().join("admin");
    std::fs::write(&admin, "admin-secret-for-ops-tests\n").unwrap();
    let c = Serve::new(&dir.path().join("store"))
        .token_file(&admin)
        .start();
    let conn = Conn {
        coordinator: Some(c.url.clone()),
        token_file: Some(admin.clone()),
        ..Conn::default()
    };
    let mut s = Session::connect(&conn).unwrap();

    // Shown once...
    let shown = token::issue(
        &mut s,
        &IssueRequest {
            name: "w1".into(),
            role: Role::Worker,
            out: None,
        },
    )
    .unwrap();
    let secret = shown.secret.clone().unwrap();
    assert!(!secret.is_empty());
    assert!(
        shown.message.starts_with(&format!(
            "issued worker credential @w1 ({}); the secret below is shown once",
            shown.fingerprint
        )),
        "{}",
        shown.message
    );
    let v = serde_json::to_value(&shown).unwrap();
    assert_eq!(v["name"], "w1");
    assert_eq!(v["secret"], secret.as_str());
    // ... or written to a new file, owner only.
    let file = dir.path().join("r1.token");
    let written = token::issue(
        &mut s,
        &IssueRequest {
            name: "r1".into(),
            role: Role::Read,
            out: Some(file.clone()),
        },
    )
    .unwrap();
    assert_eq!(
        (written.role.as_str(), written.secret.as_deref()),
        ("read", None)
    );
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.ends_with('\n') && text.trim().len() > 16, "{text:?}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(&file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    // A file that exists is never overwritten.
    let e = token::issue(
        &mut s,
        &IssueRequest {
            name: "r2".into(),
            role: Role::Read,
            out: Some(file.clone()),
        },
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{} exists: refusing to overwrite a secret file",
            file.display()
        )
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
    assert!("admin".parse::<Role>().is_err());

    // Listed; revoked; listed as revoked.
    assert_eq!(token::revoke(&mut s, "w1").unwrap(), "revoked @w1");
    let list = token::list(&mut s).unwrap();
    let mut names: Vec<(&str, &str, bool)> = list
        .iter()
        .map(|c| {
            (
                c.name.as_str(),
                c.role.as_str(),
                c.revoked_unix_ms.is_some(),
            )
        })
        .collect();
    names.sort();
    assert_eq!(names, [("r1", "read", false), ("w1", "worker", true)]);
    let json = token::list_json(&list, false).unwrap();
    assert!(json.starts_with(r#"[{"fingerprint":"#), "{json}");
    assert!(json.contains(r#""revoked_unix_ms":null"#), "{json}");
    let t = token::list_table(&list);
    assert!(t.contains("@w1") && t.contains("@r1"), "{t}");
}
