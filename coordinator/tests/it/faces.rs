//! Regression: what a newcomer read that was wrong or puzzling. The
//! dashboard's witness cards named the smallest positions of the shards
//! done so far as the sweep's, its estimate was the plan's beside a share
//! done of the projection, and it offered "Log out" where nothing logged in
//! and no icon; `report` on a cancelled or paused sweep said to watch it;
//! the docs and help said what the tool does not do. Each test here failed
//! before its fix.

use crate::dashboard::{request, serve_http, write_token, READ_SWEEP};
use crate::support::browser;
use crate::support::harness::{gs, ok, work_until_idle, Client};

use std::path::Path;
use std::time::{Duration, Instant};

/// `n` with thousands separators, as the page and `status` print it.
fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// On loopback no login is asked, so there is no "Log out" (it used to be
/// offered on every page); behind a login there is. Every page links an
/// icon, and `/favicon.ico` (asked for by browsers unprompted) answers
/// with one, without a login, instead of a 404.
#[test]
fn log_out_only_behind_a_login_and_every_page_has_an_icon() {
    let dir = tempfile::tempdir().unwrap();
    let (_c, _url, base) = serve_http(dir.path(), &[]);
    let page = request(&base, "GET", "/", &[], "");
    assert_eq!(page.status, 200);
    assert!(!page.body.contains("Log out"), "{}", page.body);
    assert!(!page.body.contains("/logout"), "{}", page.body);
    for path in ["/", "/explore"] {
        let p = request(&base, "GET", path, &[], "");
        assert!(
            p.body.contains("<link rel=\"icon\" href=\"/favicon.svg\""),
            "{path}: {}",
            p.body
        );
    }
    for path in ["/favicon.ico", "/favicon.svg"] {
        let icon = request(&base, "GET", path, &[], "");
        assert_eq!(icon.status, 200, "{path}");
        assert_eq!(icon.header("content-type"), Some("image/svg+xml"), "{path}");
        assert!(icon.body.starts_with("<svg "), "{path}: {}", icon.body);
    }

    // Behind a login: the form has the icon, and a session's page a "Log out".
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let admin = write_token(d, "admin", "admin-secret-1");
    let read = write_token(d, "read", "read-secret-3");
    let (_c, _url, base) = serve_http(
        d,
        &[
            "--token-file",
            admin.to_str().unwrap(),
            "--read-token-file",
            read.to_str().unwrap(),
            "--http-login",
        ],
    );
    let form = request(&base, "GET", "/login", &[], "");
    assert!(form.body.contains("rel=\"icon\""), "{}", form.body);
    assert_eq!(request(&base, "GET", "/favicon.ico", &[], "").status, 200);
    let r = request(
        &base,
        "POST",
        "/login",
        &[("Content-Type", "application/x-www-form-urlencoded")],
        "token=read-secret-3",
    );
    let cookie = r.header("set-cookie").unwrap().to_string();
    let session = cookie.split(';').next().unwrap();
    let page = request(&base, "GET", "/", &[("Cookie", session)], "");
    assert_eq!(page.status, 200);
    assert!(page.body.contains(">Log out</button>"), "{}", page.body);
}

/// The page's reading of sweep `id`: [`READ_SWEEP`] and the texts shown.
const READ_TEXTS: &str = r#"
const s = document.querySelector('section.sweep[data-sweep="' + arguments[0] + '"]');
if (!s) return null;
const t = c => { const e = s.querySelector(c); return e ? e.textContent : null; };
return {
  state: s.dataset.state,
  captions: Array.from(s.querySelectorAll('figure.witness figcaption')).map(f => f.textContent),
  estimate: t('dd.positions-target'),
  done: t('dd.fraction-done'),
  positions: t('dd.positions-done'),
  summary: t('details.witnesses > summary'),
};"#;

/// In headless Chromium: a sweep stopped part way
/// (a sample of it run) shows its smallest positions as the smallest "so
/// far" (the largest shards run first, so they were far from the true
/// smallest), its estimate as `status` has it (the projection, not the
/// plan's), and not "100 %"; once done, the smallest positions are the
/// sweep's, and the count is shown without an estimate beside it.
#[test]
#[ignore = "needs chromium"]
fn witness_cards_say_so_far_and_one_estimate_shows_until_the_sweep_is_done() {
    let (chromium, driver) = browser::browser_or_fail("the witness cards' browser test");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (_c, url, base) = serve_http(d, &[]);
    let launch = |extra: &[&str]| {
        let mut args = vec![
            "launch",
            "uvg",
            "--max-n",
            "8",
            "--shards",
            "24",
            "--name",
            "part",
            "--replicate-fraction",
            "0",
            "--coordinator",
            &url,
        ];
        args.extend_from_slice(extra);
        ok(&args);
    };
    // Only a sample of the shards runs: the sweep stops part way.
    launch(&["--sample", "20%", "--sample-seed", "7"]);
    work_until_idle(&url, None, &d.join("worker1.log"));
    let st = Client::new(&url).status("part");
    assert_eq!(st["state"], "sampled", "{st}");
    assert!(
        st["shards_done"].as_u64() < st["shards_total"].as_u64(),
        "{st}"
    );

    let b = browser::Browser::start(&chromium, &driver, d);
    b.rt.block_on(async {
        let client = b.client(d, 1200, 1000).await;
        client.goto(&base).await.unwrap();
        // Waits until the page shows sweep `part` in `state` with pictures.
        async fn shown(
            client: &fantoccini::Client,
            state: &str,
        ) -> (serde_json::Value, serde_json::Value) {
            let deadline = Instant::now() + Duration::from_secs(60);
            loop {
                let v = client
                    .execute(READ_SWEEP, vec![serde_json::json!("part")])
                    .await
                    .unwrap();
                if v["state"] == state && v["pictures"].as_u64() > Some(0) {
                    let t = client
                        .execute(READ_TEXTS, vec![serde_json::json!("part")])
                        .await
                        .unwrap();
                    return (v, t);
                }
                assert!(
                    Instant::now() < deadline,
                    "never {state} with pictures: {v}"
                );
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
        let (v, t) = shown(&client, "sampled").await;
        let captions: Vec<&str> = t["captions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        let smallest: Vec<&&str> = captions
            .iter()
            .filter(|c| c.starts_with("smallest "))
            .collect();
        assert!(!smallest.is_empty(), "{t}");
        assert!(
            smallest.iter().all(|c| c.contains(" so far: ")),
            "a smallest position of a sweep not done, not said to be so far: {t}"
        );
        assert!(t["summary"].as_str().unwrap().contains("so far"), "{t}");
        // One estimate: the target `status` measures progress against
        // (here the sample's), not the plan's estimate.
        assert_eq!(v["positions_target"], st["positions_target"], "{v} {st}");
        let target = st["positions_target"].as_u64().unwrap();
        assert_eq!(
            t["estimate"].as_str().unwrap(),
            format!("~{} in the sample", thousands(target)),
            "{t}"
        );
        assert_eq!(t["done"], "100 % of the sample", "{t}");

        // Widened to the whole plan and run to its end.
        launch(&["--resume"]);
        work_until_idle(&url, None, &d.join("worker2.log"));
        let st = Client::new(&url).status("part");
        assert_eq!(st["state"], "done", "{st}");
        let (v, t) = shown(&client, "done").await;
        let captions: Vec<&str> = t["captions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        assert!(captions.iter().any(|c| c.starts_with("smallest ")), "{t}");
        assert!(captions.iter().all(|c| !c.contains("so far")), "{t}");
        assert!(!t["summary"].as_str().unwrap().contains("so far"), "{t}");
        // Done: the count, no estimate beside it, and 100 %.
        assert!(t["estimate"].is_null(), "{t}");
        assert!(v["positions_target"].is_null(), "{v}");
        assert_eq!(v["positions_done"], st["positions_done"], "{v} {st}");
        assert_eq!(
            t["positions"].as_str().unwrap(),
            thousands(st["positions_done"].as_u64().unwrap())
        );
        assert_eq!(t["done"], "100 %", "{t}");
        client.close().await.unwrap();
    });
}

/// `gamesweep man --out DIR` into `dir`: the pages' text by file name.
fn man_pages(dir: &Path) -> Vec<(String, String)> {
    ok(&["man", "--out", dir.to_str().unwrap()]);
    let mut pages: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read_to_string(e.path()).unwrap(),
            )
        })
        .collect();
    pages.sort();
    pages
}

/// Regression: `man gamesweep-run-uvg` listed `-V, --version`, which
/// `run uvg` refuses. Now every page lists `--version` exactly when the
/// command accepts it.
#[test]
fn man_pages_list_version_only_where_the_command_takes_it() {
    let dir = tempfile::tempdir().unwrap();
    let pages = man_pages(dir.path());
    assert!(pages.iter().any(|(n, _)| n == "gamesweep-run-uvg.1"));
    let mut checked = 0;
    for (name, text) in &pages {
        // The command, from the synopsis's first bold text ("gamesweep run
        // uvg\-local\-search": kind names have dashes, page names too).
        let synopsis = text.split(".SH SYNOPSIS\n").nth(1).unwrap_or_default();
        let bold = synopsis
            .split("\\fB")
            .nth(1)
            .and_then(|b| b.split("\\fR").next())
            .unwrap_or_else(|| panic!("{name}: no synopsis"))
            .replace("\\-", "-");
        let words: Vec<&str> = bold.split_whitespace().skip(1).collect();
        let mut args: Vec<&str> = words.clone();
        args.push("--version");
        let o = gs(&args);
        let listed = text.contains("\\-\\-version");
        assert_eq!(
            listed,
            o.status.success(),
            "{name}: lists --version: {listed}, `gamesweep {}` accepts it: {} ({})",
            args.join(" "),
            o.status.success(),
            String::from_utf8_lossy(&o.stderr).trim()
        );
        checked += 1;
    }
    assert!(checked > 20, "{checked} pages");
}

/// Regression: `report` on a cancelled or paused sweep said "not
/// finished … (watch it with `gamesweep status ID --watch`)", though it
/// will never move, and offered nothing. It now says what state it is in
/// and what to do, and `report --partial` writes a report of the done
/// shards, marked partial and not final, never as `results.json`.
#[test]
fn report_on_a_stopped_sweep_says_so_and_partial_writes_a_marked_report() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (_c, url, _base) = serve_http(d, &[]);
    let launch = |name: &str, extra: &[&str]| {
        let mut args = vec![
            "launch",
            "uvg",
            "--max-n",
            "8",
            "--shards",
            "24",
            "--name",
            name,
            "--replicate-fraction",
            "0",
            "--coordinator",
            &url,
        ];
        args.extend_from_slice(extra);
        ok(&args);
    };
    // Some shards done (a sample), then cancelled; another paused at once.
    launch("stopped", &["--sample", "20%", "--sample-seed", "7"]);
    work_until_idle(&url, None, &d.join("worker.log"));
    ok(&["cancel", "stopped", "--coordinator", &url]);
    launch("held", &[]);
    ok(&["pause", "held", "--coordinator", &url]);
    let st = Client::new(&url).status("stopped");
    assert_eq!(st["state"], "cancelled", "{st}");
    let done = st["shards_done"].as_u64().unwrap();
    let total = st["shards_total"].as_u64().unwrap();
    assert!(done > 0 && done < total, "{st}");

    let out = d.join("final");
    let err = gs(&[
        "report",
        "stopped",
        "--out",
        out.to_str().unwrap(),
        "--coordinator",
        &url,
    ]);
    let text = String::from_utf8_lossy(&err.stderr);
    assert!(!err.status.success(), "{text}");
    assert!(!text.contains("--watch"), "{text}");
    assert!(
        text.contains(&format!(
            "sweep `stopped` was cancelled with {done}/{total} shards done, so it will never finish"
        )),
        "{text}"
    );
    assert!(
        text.contains("`gamesweep report stopped --partial`"),
        "{text}"
    );
    assert!(!out.exists());
    let err = gs(&["report", "held", "--coordinator", &url]);
    let text = String::from_utf8_lossy(&err.stderr);
    assert!(!err.status.success(), "{text}");
    assert!(
        text.contains(&format!(
            "sweep `held` is paused with 0/{total} shards done"
        )),
        "{text}"
    );
    assert!(text.contains("`gamesweep resume held`"), "{text}");
    assert!(!text.contains("--watch"), "{text}");

    // The partial report: marked at the top, its results not results.json.
    let part = d.join("part");
    let o = gs(&[
        "report",
        "stopped",
        "--partial",
        "--out",
        part.to_str().unwrap(),
        "--coordinator",
        &url,
    ]);
    let said = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{said}");
    assert!(said.contains("partial report (not final"), "{said}");
    assert!(!part.join("results.json").exists());
    let results: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(part.join("results.partial.json")).unwrap())
            .unwrap();
    assert_eq!(results["kind"], "uvg");
    let md = std::fs::read_to_string(part.join("report.md")).unwrap();
    let banner = format!(
        "> **Partial report, not final.** Sweep `stopped` is cancelled: {done}/{total} shards done."
    );
    let head: String = md.lines().take(3).collect::<Vec<_>>().join("\n");
    assert!(head.contains(&banner), "{head}");
    let html = std::fs::read_to_string(part.join("report.html")).unwrap();
    assert!(html.contains("Partial report, not final."), "{html}");
    // Over the done shards only: fewer positions than the whole sweep.
    let pairs = |v: &serde_json::Value| -> u64 {
        v["by_n"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["positions"].as_u64().unwrap_or(0))
            .sum()
    };
    let whole: serde_json::Value = {
        let dir2 = d.join("whole");
        ok(&[
            "run",
            "uvg",
            "--max-n",
            "8",
            "--out",
            dir2.to_str().unwrap(),
            "--no-http",
            "-q",
        ]);
        serde_json::from_str(&std::fs::read_to_string(dir2.join("results.json")).unwrap()).unwrap()
    };
    assert!(
        pairs(&results) > 0 && pairs(&results) < pairs(&whole),
        "{} vs {}",
        pairs(&results),
        pairs(&whole)
    );
    // Not over a final report.
    let o = gs(&[
        "report",
        "stopped",
        "--partial",
        "--out",
        d.join("whole").to_str().unwrap(),
        "--coordinator",
        &url,
    ]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("holds a results.json"));
}

/// Regression: `report --help` said it fetches results.json and
/// report.md; it writes report.html, the figures and provenance.json too,
/// and (now) a partial report.
#[test]
fn report_help_names_what_it_writes() {
    let help = ok(&["report", "--help"]);
    for want in [
        "results.json",
        "report.md",
        "report.html",
        "figures",
        "provenance.json",
        "--partial",
    ] {
        assert!(help.contains(want), "{want} not in: {help}");
    }
    // The command list's entry (wrapped over lines).
    let top = ok(&["--help"]);
    let entry = top.split("\n  report ").nth(1).unwrap();
    let entry = entry.split("\n  cancel ").next().unwrap();
    assert!(entry.contains("report.html"), "{entry}");
}

/// The vertices and edges of a graph6 text of at most 62 vertices.
fn graph6(code: &str) -> (usize, Vec<(usize, usize)>) {
    let b = code.as_bytes();
    let n = (b[0] - 63) as usize;
    let bits: Vec<bool> = b[1..]
        .iter()
        .flat_map(|&c| (0..6).rev().map(move |i| ((c - 63) >> i) & 1 == 1))
        .collect();
    let mut edges = Vec::new();
    let mut k = 0;
    for j in 1..n {
        for i in 0..j {
            if bits[k] {
                edges.push((i, j));
            }
            k += 1;
        }
    }
    (n, edges)
}

/// The Col examples of the README's Python block and of the Python
/// package's docstring: each one a comment calls a path is a path (one was
/// once the triangle), and its value the one `solve col` gives.
#[test]
fn the_col_examples_are_the_paths_and_values_they_say() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut seen = 0;
    for file in ["README.md", "python/gamesweep/__init__.py"] {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        for line in text.lines().filter(|l| l.contains("gs.col.value(\"")) {
            let args = line.split("gs.col.value(\"").nth(1).unwrap();
            let board = args.split('"').next().unwrap();
            let colouring = args.split('"').nth(2).unwrap();
            let comment = line
                .split('#')
                .nth(1)
                .unwrap_or_else(|| panic!("{file}: {line}"));
            let (n, edges) = graph6(board);
            if comment.contains("path") {
                let mut deg = vec![0; n];
                for &(a, b) in &edges {
                    deg[a] += 1;
                    deg[b] += 1;
                }
                // Connected (the README's boards are) with n - 1 edges and
                // no vertex of degree 3 or more: a path.
                assert!(
                    edges.len() + 1 == n && deg.iter().all(|&d| (1..=2).contains(&d)),
                    "{file}: {board} is not a path: {line}"
                );
            }
            let v: serde_json::Value = serde_json::from_str(&ok(&[
                "solve",
                "col",
                board,
                "--colouring",
                colouring,
                "--json",
            ]))
            .unwrap();
            let value = v["value"].as_str().unwrap();
            let said = comment.rsplit(": ").next().unwrap().trim();
            assert_eq!(said, value, "{file}: {line}");
            seen += 1;
        }
    }
    assert_eq!(seen, 2);
}

/// Regression: a local `run` (no --replicate-fraction given; 0 is its
/// default) wrote "launched with `--replicate-fraction 0`" into report.md.
#[test]
fn a_local_runs_report_claims_no_flag_it_was_not_given() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    ok(&[
        "run",
        "uvg",
        "--max-n",
        "5",
        "--out",
        out.to_str().unwrap(),
        "--no-http",
        "-q",
    ]);
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    let line = md
        .lines()
        .find(|l| l.starts_with("Replicated validation"))
        .unwrap();
    assert!(!line.contains("launched with"), "{line}");
    assert!(line.contains("`gamesweep run`'s default"), "{line}");
}

/// Regression: `solve sum` printed a Col board's components as
/// "{1} = -1 + {2} = *", which reads as one equation.
#[test]
fn components_read_as_values_not_one_equation() {
    let out = ok(&["solve", "sum", "col:B_:L.."]);
    let line = out.lines().find(|l| l.contains("components:")).unwrap();
    assert_eq!(
        line, "  components: {1}: -1, {2}: * (the value is their sum)",
        "{out}"
    );
}

/// Regression, in headless Chromium at 390 px: report.html had no
/// viewport (it was laid out 980 px wide and shrunk) and its number
/// columns were left-aligned. A committed report, re-rendered here.
#[test]
#[ignore = "needs chromium"]
fn report_html_fits_a_phone_and_aligns_numbers_right() {
    let (chromium, driver) = browser::browser_or_fail("the report.html browser test");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let run = d.join("uvg-n10");
    std::fs::create_dir(&run).unwrap();
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("../runs/uvg-n10/results.json");
    std::fs::copy(committed, run.join("results.json")).unwrap();
    ok(&["report", "--from", run.to_str().unwrap()]);
    let b = browser::Browser::start(&chromium, &driver, d);
    b.rt.block_on(async {
        let c = b.client(d, 390, 800).await;
        c.goto(&format!("file://{}", run.join("report.html").display()))
            .await
            .unwrap();
        let v = c
            .execute(
                "const cols = [];
                 document.querySelectorAll('table').forEach(t => {
                   const rows = Array.from(t.querySelectorAll('tbody tr'));
                   const n = rows.length ? rows[0].children.length : 0;
                   for (let i = 0; i < n; i++) {
                     const cells = rows.map(r => r.children[i]).filter(c => c);
                     if (cells.length && cells.every(c => /^[0-9][0-9,]*$/.test(c.textContent.trim()))) cols.push(cells);
                   }
                 });
                 return {inner: window.innerWidth, scroll: document.documentElement.scrollWidth,
                   numbers: cols.length,
                   right: cols.filter(cs => cs.every(c => getComputedStyle(c).textAlign === 'right')).length};",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(v["inner"], 390, "laid out wider than the screen: {v}");
        assert!(
            v["scroll"].as_u64() <= Some(390),
            "the page scrolls sideways: {v}"
        );
        // Columns of counts only: every one right-aligned.
        assert!(v["numbers"].as_u64() > Some(5), "{v}");
        assert_eq!(v["numbers"], v["right"], "number columns not right-aligned: {v}");
        c.close().await.unwrap();
    });
}

/// Regression, in headless Chromium: the game-graph table offered
/// "add" (to the sum) on every row, and the sum then refused loopy ones.
/// Now it is offered exactly on the positions `solve sum` takes.
#[test]
#[ignore = "needs chromium"]
fn add_to_the_sum_is_offered_only_where_the_sum_takes_it() {
    let (chromium, driver) = browser::browser_or_fail("the game-graph add browser test");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (_p, url) = crate::explore::explore(d, &[]);
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/examples/draws.game");
    let b = browser::Browser::start(&chromium, &driver, d);
    let rows = b.rt.block_on(async {
        let c = b.client(d, 1000, 800).await;
        c.goto(&url).await.unwrap();
        c.execute(
            "const s = document.getElementById('gg-example');
             const o = Array.from(s.options).find(o => o.textContent === 'draws.game');
             s.value = o.value; s.dispatchEvent(new Event('change'));",
            vec![],
        )
        .await
        .unwrap();
        let deadline = Instant::now() + Duration::from_secs(30);
        let rows = loop {
            let v = c
                .execute(
                    "return Array.from(document.querySelectorAll('#gg-out table.gg-table tr[data-position]')).map(r =>
                       [r.dataset.position, !!r.querySelector('button.gg-add')]);",
                    vec![],
                )
                .await
                .unwrap();
            if v.as_array().is_some_and(|a| !a.is_empty()) {
                break v;
            }
            assert!(Instant::now() < deadline, "the game graph did not show");
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        c.close().await.unwrap();
        rows
    });
    let rows = rows.as_array().unwrap();
    let (mut offered, mut refused) = (0, 0);
    for r in rows {
        let pos = r[0].as_str().unwrap();
        let term = format!("gamegraph:{}#{pos}", file.display());
        let summed = gs(&["solve", "sum", &term]).status.success();
        assert_eq!(
            r[1].as_bool().unwrap(),
            summed,
            "{pos}: add offered vs `solve sum {term}`"
        );
        if summed {
            offered += 1;
        } else {
            refused += 1;
        }
    }
    // The file has both kinds.
    assert!(offered > 0 && refused > 0, "{rows:?}");
}

/// In headless Chromium: playing Col, the solver's reply
/// with one move left read "wins, 1 moves to the end". Col on an edge,
/// you play Blue and have coloured vertex 0: Red colours 1 and wins, one
/// move to the end. The reply is read only once the link is followed whole
/// (the page ready at move 1): the start position's reply, shown while the
/// move loads, is not the one asked about (a first version read it on a
/// slow machine).
#[test]
#[ignore = "needs chromium"]
fn one_move_to_the_end_is_singular() {
    let (chromium, driver) = browser::browser_or_fail("the Col reply browser test");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (_p, url) = crate::explore::explore(d, &[]);
    let b = browser::Browser::start(&chromium, &driver, d);
    let reply = b.rt.block_on(async {
        let c = b.client(d, 1000, 800).await;
        c.goto(&format!("{url}?game=col&g=A_&m=0&play=L"))
            .await
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(30);
        let reply = loop {
            let v = c
                .execute(
                    "const b = document.body.dataset;
                     const p = document.getElementById('col-play');
                     return b.state === 'ready' && b.at === '1' && p.checked
                       ? document.getElementById('col-reply').textContent : null;",
                    vec![],
                )
                .await
                .unwrap();
            if let Some(text) = v.as_str() {
                break text.to_string();
            }
            assert!(
                Instant::now() < deadline,
                "the link was not followed in 30 s"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        c.close().await.unwrap();
        reply
    });
    assert_eq!(reply, "Red (Right) colours 1 (wins, 1 move to the end)");
}

/// The value of attribute `name` in the tag `tag` (`name="..."`).
fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let at = tag.find(&key)? + key.len();
    tag[at..].split('"').next()
}

/// Regression: `solve uvg --svg` drew the Petersen graph by the force
/// layout while the board drew its pentagram-in-a-pentagon embedding. Now
/// both place vertices the same way: the board's coordinates (in its
/// 400-unit box) scaled to the picture, and the same layout named. Col's
/// picture of the same board too; another graph keeps the force layout on
/// both.
#[test]
fn solve_svg_places_the_petersen_graph_as_the_board_does() {
    let dir = tempfile::tempdir().unwrap();
    let (_p, url) = crate::explore::explore(dir.path(), &[]);
    // nauty's and networkx's Petersen graph: the board's preset.
    let petersen = "IheA@GUAo";
    let c5 = "Dhc";
    for (code, board, solve) in [
        (
            petersen,
            format!("/explore/api/uvg?g={petersen}"),
            vec!["solve", "uvg", petersen, "--svg"],
        ),
        (
            petersen,
            format!("/explore/api/col?rules=col&g={petersen}&c=L.R......."),
            vec![
                "solve",
                "col",
                petersen,
                "--colouring",
                "L.R.......",
                "--svg",
            ],
        ),
        (
            c5,
            format!("/explore/api/uvg?g={c5}"),
            vec!["solve", "uvg", c5, "--svg"],
        ),
    ] {
        let (st, body) = crate::explore::get(&url, &board);
        assert_eq!(st, 200, "{body}");
        let v: serde_json::Value = serde_json::from_str(&body).unwrap();
        let layout = v["drawing"]["layout"].as_str().unwrap().to_string();
        let at: Vec<(f64, f64)> = v["drawing"]["coords"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p[0].as_f64().unwrap(), p[1].as_f64().unwrap()))
            .collect();
        let svg = ok(&solve);
        let head = &svg[..svg.find('>').unwrap()];
        assert_eq!(attr(head, "data-layout"), Some(layout.as_str()), "{head}");
        if code == petersen {
            assert_eq!(layout, "Petersen graph embedding");
        } else {
            assert_eq!(layout, "force layout");
            continue;
        }
        let size: f64 = attr(head, "width").unwrap().parse().unwrap();
        let circles: Vec<&str> = svg.split("<circle").skip(1).collect();
        assert_eq!(circles.len(), 10, "{svg}");
        for c in circles {
            let v: usize = attr(c, "data-v").unwrap().parse().unwrap();
            let got: (f64, f64) = (
                attr(c, "cx").unwrap().parse().unwrap(),
                attr(c, "cy").unwrap().parse().unwrap(),
            );
            let want = (
                (at[v].0 * size / 400.0).round(),
                (at[v].1 * size / 400.0).round(),
            );
            assert_eq!(got, want, "vertex {v}: {code}, {}", solve[1]);
        }
    }
}

/// In headless Chromium: in the game-graph panel's
/// pictures, labels ran past the ends of their boxes (a box is sized by
/// the label's character count; wide letters overflowed it). Now every
/// label's box as laid out (`getBBox`) lies inside its shape, in every
/// game of every example of `docs/examples/`.
#[test]
#[ignore = "needs chromium"]
fn game_graph_labels_fit_inside_their_boxes() {
    let (chromium, driver) = browser::browser_or_fail("the game-graph labels browser test");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (_p, url) = crate::explore::explore(d, &[]);
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/examples");
    let mut files: Vec<_> = std::fs::read_dir(&examples)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "game"))
        .collect();
    files.sort();
    assert!(files.len() >= 8, "{files:?}");
    let b = browser::Browser::start(&chromium, &driver, d);
    let (mut labels, mut shrunk) = (0usize, 0usize);
    b.rt.block_on(async {
        let c = b.client(d, 1400, 1000).await;
        c.goto(&url).await.unwrap();
        for file in &files {
            let text = std::fs::read_to_string(file).unwrap();
            let seq = c
                .execute(
                    "const seq = Number(document.body.dataset.ggSeq || 0);
                     document.getElementById('gg-text').value = arguments[0];
                     document.getElementById('gg-solve').click();
                     return seq;",
                    vec![serde_json::json!(text)],
                )
                .await
                .unwrap()
                .as_u64()
                .unwrap();
            let deadline = Instant::now() + Duration::from_secs(30);
            loop {
                let done = c
                    .execute(
                        "return Number(document.body.dataset.ggSeq || 0) > arguments[0];",
                        vec![serde_json::json!(seq)],
                    )
                    .await
                    .unwrap();
                if done.as_bool() == Some(true) {
                    break;
                }
                assert!(Instant::now() < deadline, "{}: not solved", file.display());
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            let v = c
                .execute(
                    "const err = document.getElementById('gg-error');
                     if (!err.hidden) return {error: err.textContent};
                     return {boxes: Array.from(document.querySelectorAll('#gg-out .gg-game svg g.v')).map(g => {
                       const r = g.querySelector('rect'), t = g.querySelector('text.label'), b = t.getBBox();
                       return {position: g.dataset.position, label: t.textContent,
                         font: getComputedStyle(t).fontSize,
                         rect: ['x', 'y', 'width', 'height'].map(a => Number(r.getAttribute(a))),
                         text: [b.x, b.y, b.width, b.height]};
                     })};",
                    vec![],
                )
                .await
                .unwrap();
            assert!(v["error"].is_null(), "{}: {v}", file.display());
            let boxes = v["boxes"].as_array().unwrap();
            assert!(!boxes.is_empty(), "{}: no picture", file.display());
            for bx in boxes {
                let r: Vec<f64> = bx["rect"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_f64().unwrap())
                    .collect();
                let t: Vec<f64> = bx["text"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_f64().unwrap())
                    .collect();
                // Laid out (the panel is shown), and inside the shape.
                assert!(t[2] > 0.0 && t[3] > 0.0, "{}: {bx}", file.display());
                assert!(
                    t[0] >= r[0] && t[0] + t[2] <= r[0] + r[2] && t[1] >= r[1] && t[1] + t[3] <= r[1] + r[3],
                    "{}: label outside its box: {bx}",
                    file.display()
                );
                // A label keeps a readable size.
                assert!(
                    bx["font"].as_str().unwrap().trim_end_matches("px").parse::<f64>().unwrap() >= 7.0,
                    "{bx}"
                );
                labels += 1;
                if bx["font"] != "10px" || bx["label"] != bx["position"] {
                    shrunk += 1;
                }
            }
        }
        c.close().await.unwrap();
    });
    eprintln!(
        "{labels} labels in {} examples, {shrunk} set smaller or cut",
        files.len()
    );
    assert!(labels > 50, "{labels}");
}
