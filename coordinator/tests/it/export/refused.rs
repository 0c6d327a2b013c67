//! Damaged files and refused imports: one line, nothing written, the core
//! and store untouched; `verify` finds a tampered result.

use super::*;

#[test]
fn damaged_files_are_refused_with_one_line_and_nothing_written() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let good = std::fs::read(finished_export(d)).unwrap();
    let store = d.join("store");
    let try_import = |name: &str, bytes: &[u8], want: &str| {
        let f = d.join(name);
        std::fs::write(&f, bytes).unwrap();
        refused(&["import", s(&f), "--store", s(&store)], want);
        assert!(stored_ids(&store).is_empty(), "{name} wrote to the store");
        refused(&["verify", s(&f), "--sample", "1"], "");
    };
    // A flipped byte: in the magic, the version, the length, the body
    // (start, middle, end), and the checksum.
    let n = good.len();
    for pos in [0, 9, 14, 21, n / 2, n - 40, n - 32, n - 1] {
        let mut b = good.clone();
        b[pos] ^= 0x01;
        let e = export_file::decode(&b).unwrap_err().to_string();
        assert!(!e.is_empty());
        try_import(&format!("flip{pos}.gsx"), &b, "");
    }
    let mut b = good.clone();
    b[n / 2] ^= 0x40;
    try_import("flip-mid.gsx", &b, "checksum does not match");
    for cut in [0, 5, 19, 40, n / 2, n - 1] {
        try_import(&format!("cut{cut}.gsx"), &good[..cut], "truncated");
    }
    // An unknown format version (with a valid checksum).
    let mut b = good.clone();
    b[8..12].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    try_import(
        "v2.gsx",
        &rechecksum(b),
        &format!("format version {} is unknown", FORMAT_VERSION + 1),
    );
    // Another solver version (a well-formed file).
    let mut e = export_file::decode(&good).unwrap().export;
    e.solver_version = "0.0.0+another-build".into();
    try_import(
        "solver.gsx",
        &export_file::encode_unsigned(&e),
        "solver version mismatch",
    );
    // A forged result under a valid checksum: refused by re-validation.
    let mut e = export_file::decode(&good).unwrap().export;
    let shard = forge(&mut e);
    try_import(
        "forged.gsx",
        &export_file::encode_unsigned(&e),
        &format!("shard {shard}"),
    );
    // The intact file imports; a second time it merges, adding nothing.
    let f = d.join("good.gsx");
    std::fs::write(&f, &good).unwrap();
    ok(&["import", s(&f), "--store", s(&store)]);
    let again = ok_err(&["import", s(&f), "--store", s(&store)]);
    assert!(again.contains(" 0 shards added"), "{again}");
    assert_eq!(stored_ids(&store), ["run"]);
}

#[test]
fn a_refused_import_leaves_the_core_and_store_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let good = export_file::read(&finished_export(d)).unwrap();
    let trust = ImportPolicy {
        trusted: vec![signer_of(&good)],
        ..ImportPolicy::default()
    };
    let store: Arc<dyn Store> = Arc::new(SledStore::open(&d.join("store")).unwrap());
    let core = Core::open(store.clone(), Duration::from_secs(10)).unwrap();
    let mut forged = good.clone();
    forge(&mut forged.export);
    let e = core.import(&forged, None, &trust).unwrap_err();
    assert!(matches!(e, CoreError::BadRequest(_)), "{e}");
    assert!(core.sweep_ids().is_empty());
    assert!(store.load_all().unwrap().is_empty());
    assert!(store.results_of("run").unwrap().is_empty());
    // A plan other than the one this build makes is refused too.
    let mut replanned = good.clone();
    replanned.export.plan[0].estimate += 1;
    let e = core
        .import(&replanned, None, &trust)
        .unwrap_err()
        .to_string();
    assert!(e.contains("plan"), "{e}");
    // The intact export imports, and exports back to the same content
    // (but for the verification share: the importer's, 1 % by default).
    let i = core.import(&good, Some("again"), &trust).unwrap();
    assert_eq!(
        (i.done, i.shards, i.trusted),
        (
            good.export.results.len() as u32,
            good.export.plan.len() as u32,
            true
        )
    );
    let mut back = core.export("again").unwrap();
    back.sweep_id = good.export.sweep_id.clone();
    assert_eq!(back.verify_ppm, 10_000);
    back.verify_ppm = good.export.verify_ppm;
    assert_eq!(back, good.export);
    // Again: merged, every shard confirmed, nothing added.
    let i = core.import(&good, Some("again"), &trust).unwrap();
    assert_eq!(
        (i.merged, i.added, i.confirmed),
        (true, 0, good.export.results.len() as u32)
    );
}

#[test]
fn verify_reruns_a_seeded_sample_and_finds_a_tampered_result() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let file = finished_export(d);
    let out = ok(&["verify", s(&file), "--sample", "1", "--threads", "2"]);
    assert!(out.contains(" 0 mismatch"), "{out}");
    let out = ok(&["verify", s(&file), "--sample", "25%", "--seed", "5"]);
    assert!(out.contains(" 0 mismatch"), "{out}");
    let mut e = export_file::read(&file).unwrap().export;
    let shard = forge(&mut e);
    let bad = d.join("tampered.gsx");
    std::fs::write(&bad, export_file::encode_unsigned(&e)).unwrap();
    let o = gs(&["verify", s(&bad), "--sample", "1"]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(!o.status.success(), "{stdout}");
    assert!(
        stdout.contains(&format!("shard {shard}: MISMATCH")),
        "{stdout}"
    );
    assert!(stdout.contains(" 1 mismatch"), "{stdout}");
}
