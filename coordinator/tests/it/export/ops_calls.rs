//! The jobs behind `export`, `import`, `key` and `verify`, called directly
//! (`gamesweep_coordinator::ops::*`, as the Python module calls them): each
//! answers what the command prints and writes, on a finished run's store.

use super::*;
use gamesweep_coordinator::ops::export::{export, ExportRequest, Source};
use gamesweep_coordinator::ops::import::{import, ImportRequest, Target};
use gamesweep_coordinator::ops::key::{key, KeyRequest};
use gamesweep_coordinator::ops::verify::{verify, Mismatch, VerifyRequest};
use std::cell::RefCell;
use std::sync::atomic::AtomicBool;

/// `line` with every `in 1.23 s` timing written `in T s`.
fn untimed(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(at) = rest.find("in ") {
        out.push_str(&rest[..at + 3]);
        rest = &rest[at + 3..];
        let n = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        if n > 0 && rest[n..].starts_with(" s") {
            out.push('T');
            rest = &rest[n..];
        }
    }
    out.push_str(rest);
    out
}

/// The keys of the JSON object `v` serializes to, sorted.
fn keys(v: &impl serde::Serialize) -> Vec<String> {
    let j = serde_json::to_value(v).unwrap();
    let mut k: Vec<String> = j.as_object().unwrap().keys().cloned().collect();
    k.sort();
    k
}

#[test]
fn key_export_and_import_as_values_are_what_the_commands_print() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let n = export_file::read(&finished_export(d))
        .unwrap()
        .export
        .shards() as u32;
    let store = d.join("small").join("store");
    // key: the fingerprint and key line `key show` prints, the key file
    // `key export` writes.
    let k = key(&KeyRequest {
        store: store.clone(),
        out: Some(d.join("ops.key")),
    })
    .unwrap();
    assert_eq!(k.text(), ok(&["key", "show", "--store", s(&store)]));
    let cli_err = ok_err(&[
        "key",
        "export",
        "--store",
        s(&store),
        "--out",
        s(&d.join("cli.key")),
    ]);
    assert_eq!(
        std::fs::read(d.join("ops.key")).unwrap(),
        std::fs::read(d.join("cli.key")).unwrap()
    );
    assert_eq!(
        k.written_text().unwrap() + "\n",
        cli_err.replace("cli.key", "ops.key")
    );
    assert_eq!(keys(&k), ["fingerprint", "key", "store"]);
    let nowhere = d.join("nowhere");
    let e = key(&KeyRequest {
        store: nowhere.clone(),
        out: None,
    })
    .unwrap_err();
    assert!(e.to_string().contains("no such store"), "{e}");
    assert!(!nowhere.exists(), "a new store was made");

    // export: the CLI's file, byte for byte, and what it holds.
    let mine = d.join("ops.gsx");
    let from = Source::Store {
        dir: store.clone(),
        since: Vec::new(),
    };
    let x = export(
        &ExportRequest {
            id: "run".into(),
            file: mine.clone(),
            from: from.clone(),
        },
        &|_| {},
    )
    .unwrap();
    let cli_err = ok_err(&["export", "run", s(&d.join("cli.gsx")), "--store", s(&store)]);
    let bytes = std::fs::read(&mine).unwrap();
    assert_eq!(bytes, std::fs::read(d.join("cli.gsx")).unwrap());
    let file = export_file::decode(&bytes).unwrap();
    assert_eq!((x.sweep_id.as_str(), x.kind.as_str()), ("run", "uvg"));
    assert_eq!(x.bytes, bytes.len() as u64);
    assert_eq!((x.shards, x.done), (n.into(), n.into()));
    assert_eq!(file.export.results.len(), n as usize);
    assert_eq!(x.signer, k.fingerprint);
    assert_eq!(
        untimed(&x.text()) + "\n",
        untimed(&cli_err).replace("cli.gsx", "ops.gsx")
    );
    assert_eq!(
        keys(&x),
        ["bytes", "done", "file", "kind", "shards", "signer", "sweep_id"]
    );
    // Since that file: nothing left to export, and the line says why.
    let inc = export(
        &ExportRequest {
            id: "run".into(),
            file: d.join("inc.gsx"),
            from: Source::Store {
                dir: store.clone(),
                since: vec![mine.clone()],
            },
        },
        &|_| {},
    )
    .unwrap();
    assert_eq!((inc.shards, inc.done), (n.into(), 0));
    assert!(inc.text().contains(&format!(
        "run (only the shards the --since files do not hold): 0/{n} shards done"
    )));
    let e = export(
        &ExportRequest {
            id: "nope".into(),
            file: d.join("nope.gsx"),
            from,
        },
        &|_| {},
    )
    .unwrap_err();
    assert!(
        e.to_string()
            .starts_with("no sweep named `nope` in the store")
            && e.to_string().ends_with("(it holds run)"),
        "{e}"
    );

    // import: into a new store, trusted by the key file; the steps told.
    let steps = RefCell::new(Vec::new());
    let request = ImportRequest {
        file: mine.clone(),
        into: Target::Store {
            dir: d.join("s1"),
            trust_key: vec![d.join("ops.key")],
            accept_solver_change: false,
        },
        name: None,
        require_signature: true,
        verify_ppm: Some(0),
    };
    let i = import(&request, &|what| steps.borrow_mut().push(what)).unwrap();
    let im = &i.imported;
    assert_eq!(
        (
            im.sweep_id.as_str(),
            im.shards,
            im.done,
            im.added,
            im.confirmed
        ),
        ("run", n, n, n, 0)
    );
    assert!(im.trusted && !im.merged && im.conflicts == 0);
    assert_eq!(im.signer, k.fingerprint);
    assert_eq!(steps.borrow().len(), 4, "{:?}", steps.borrow());
    assert!(steps.borrow()[0].starts_with("reading "));
    let cli_err = ok_err(&[
        "import",
        s(&mine),
        "--store",
        s(&d.join("s2")),
        "--trust-key",
        s(&d.join("ops.key")),
        "--require-signature",
        "--replicate-fraction",
        "0",
    ]);
    assert_eq!(untimed(&i.text()) + "\n", untimed(&cli_err));
    assert_eq!(
        keys(&i),
        [
            "added",
            "confirmed",
            "conflicts",
            "done",
            "merged",
            "shards",
            "signer",
            "sweep_id",
            "trusted"
        ]
    );
    // Again: merged, every shard confirmed, nothing added.
    let again = import(&request, &|_| {}).unwrap();
    let a = &again.imported;
    assert!(a.merged && a.added == 0 && a.confirmed == n && a.conflicts == 0);
    assert!(again.text().starts_with(&format!(
        "merged {} into the held sweep run: 0 shards added, {n} already held",
        mine.display()
    )));
    // Unsigned by a trusted key, under require_signature: refused, naming the file.
    let e = import(
        &ImportRequest {
            into: Target::Store {
                dir: d.join("s3"),
                trust_key: Vec::new(),
                accept_solver_change: false,
            },
            ..request
        },
        &|_| {},
    )
    .unwrap_err();
    assert!(
        e.to_string().starts_with(&format!("{}: ", mine.display())),
        "{e}"
    );
    assert!(e.to_string().contains("signed"), "{e}");
}

#[test]
fn verify_as_a_value_is_what_the_command_prints_and_finds_a_forged_result() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let file = finished_export(d);
    let n = export_file::read(&file).unwrap().export.shards() as u32;
    let store = d.join("small").join("store");
    let k = key_file(&store, &d.join("run.key"));
    let told = RefCell::new(String::new());
    let v = verify(
        &VerifyRequest {
            file: file.clone(),
            sample_ppm: 1_000_000,
            seed: 0,
            threads: Some(1),
            trust_key: vec![k.clone()],
            require_signature: true,
            record: None,
        },
        &AtomicBool::new(false),
        |sig| *told.borrow_mut() = sig.to_string(),
    )
    .unwrap();
    assert!(v.ok() && v.trusted);
    assert_eq!(v.rerun, (0..n).collect::<Vec<u32>>());
    assert_eq!((v.finished, v.threads), (n.into(), 1));
    assert!(told.borrow().starts_with("signed by trusted key sha256:"));
    assert_eq!(*told.borrow(), v.signature);
    let out = ok(&[
        "verify",
        s(&file),
        "--sample",
        "1",
        "--threads",
        "1",
        "--trust-key",
        s(&k),
    ]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        format!("verify {}: {}", file.display(), v.signature)
    );
    assert_eq!(untimed(&v.summary()), untimed(lines[lines.len() - 1]));
    let j = serde_json::to_value(&v).unwrap();
    assert_eq!(j["sample"], 1.0);
    assert_eq!(j["mismatches"], serde_json::json!([]));
    assert!(j.get("sample_ppm").is_none());
    // A seeded quarter: the CLI's choice.
    let quarter = VerifyRequest {
        file: file.clone(),
        sample_ppm: 250_000,
        seed: 5,
        threads: None,
        trust_key: Vec::new(),
        require_signature: false,
        record: None,
    };
    let q = verify(&quarter, &AtomicBool::new(false), |_| {}).unwrap();
    let out = ok(&["verify", s(&file), "--sample", "25%", "--seed", "5"]);
    assert_eq!(
        untimed(&q.summary()).split(" on ").next(),
        untimed(out.lines().last().unwrap()).split(" on ").next()
    );
    assert!(
        !q.trusted && !q.rerun.is_empty() && q.rerun.len() < n as usize,
        "{:?}",
        q.rerun
    );
    // A forged result: found, and named.
    let mut e = export_file::read(&file).unwrap().export;
    let shard = forge(&mut e);
    let bad = d.join("forged.gsx");
    std::fs::write(&bad, export_file::encode_unsigned(&e)).unwrap();
    let all = VerifyRequest {
        file: bad.clone(),
        sample_ppm: 1_000_000,
        ..quarter
    };
    let f = verify(&all, &AtomicBool::new(false), |_| {}).unwrap();
    assert!(!f.ok());
    assert_eq!(f.rerun.len(), n as usize);
    assert_eq!(f.mismatches.len(), 1, "{:?}", f.mismatches);
    let Mismatch { shard: found, why } = &f.mismatches[0];
    assert_eq!(*found, shard);
    assert!(why.contains("differs from the recomputed one"), "{why}");
    assert!(f.signature.starts_with("not signed"));
    let e = verify(
        &VerifyRequest {
            require_signature: true,
            ..all
        },
        &AtomicBool::new(false),
        |_| {},
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{}: not signed by a trusted key (--require-signature)",
            bad.display()
        )
    );
}

#[test]
fn a_recorded_verify_is_stated_in_the_report_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let file = finished_export(d);
    let run = d.join("small");
    let n = export_file::read(&file).unwrap().export.shards();
    let before = std::fs::read_to_string(run.join("report.md")).unwrap();
    assert!(!before.contains("Re-run elsewhere"));
    // A re-run of every shard, recorded beside the run's report.
    let out = ok(&[
        "verify",
        s(&file),
        "--sample",
        "100%",
        "--seed",
        "3",
        "--threads",
        "1",
        "--record",
        s(&run),
    ]);
    assert!(out.contains("verified.json"), "{out}");
    let records = gamesweep_report::reruns::read(&run).unwrap();
    assert_eq!(records.len(), 1);
    let r = &records[0];
    assert_eq!((r.rerun, r.finished, r.seed), (n as u64, n as u64, 3));
    assert!(r.mismatched.is_empty() && r.kind == "uvg" && r.file == "run.gsx");
    assert_eq!(r.file_sha256.len(), 64);
    assert!(r.machine.contains("logical core"), "{}", r.machine);
    // The report rendered there states it; the rest of it is unchanged.
    ok(&["report", "--from", s(&run)]);
    let after = std::fs::read_to_string(run.join("report.md")).unwrap();
    let line = format!("re-ran {n} of the {n} finished shards of an export of this sweep");
    assert!(after.contains(&line), "{after}");
    assert!(
        after.contains(&format!("**{n} matched**, none differed")),
        "{after}"
    );
    assert_eq!(
        after.replace(&gamesweep_report::reruns::section_md(&records), ""),
        before
    );
    // A forged result: recorded as differing, named in the report.
    let mut e = export_file::read(&file).unwrap().export;
    let shard = forge(&mut e);
    let bad = d.join("forged.gsx");
    std::fs::write(&bad, export_file::encode_unsigned(&e)).unwrap();
    let v = verify(
        &VerifyRequest {
            file: bad.clone(),
            sample_ppm: 1_000_000,
            seed: 0,
            threads: Some(1),
            trust_key: Vec::new(),
            require_signature: false,
            record: Some(run.clone()),
        },
        &AtomicBool::new(false),
        |_| {},
    )
    .unwrap();
    assert!(!v.ok());
    ok(&["report", "--from", s(&run)]);
    let md = std::fs::read_to_string(run.join("report.md")).unwrap();
    assert!(
        md.contains(&format!("**1 differed** (shards {shard})")),
        "{md}"
    );
    assert!(md.contains("unsigned"), "{md}");
    // Beside another sweep's report: refused before any re-run, nothing written.
    let other = d.join("other");
    ok(&["run", "uvg", "--max-n", "5", "-q", "--out", s(&other)]);
    refused(
        &["verify", s(&file), "--sample", "1", "--record", s(&other)],
        "--record",
    );
    assert!(!other.join("verified.json").exists());
    // A record of another sweep put there by hand: the report is refused.
    std::fs::copy(run.join("verified.json"), other.join("verified.json")).unwrap();
    let err = refused(&["report", "--from", s(&other)], "verified.json");
    assert!(err.contains("record 1 is of a `uvg` sweep"), "{err}");
}
