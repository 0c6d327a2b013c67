//! Every page as a user sees it, in headless Chromium at a desktop's
//! 1400 × 1000 and a phone's 390 × 844: the dashboard during a real sweep
//! (its worker paused half-way) and after it, and the boards: UVG, Col,
//! Myopic Col, a game graph, a sum and an option tree. On each, at each
//! width: the browser console has no error (chromedriver's `browser` log,
//! level SEVERE: a script error, a failed load, `console.error`); the
//! page's main parts are there, of non-zero size and not empty; parts that
//! sit side by side (form fields, buttons, facts, panels, a board's
//! vertices) do not overlap; and nothing is wider than the window (no
//! sideways scrolling). `#[ignore = "needs chromium"]`, as the other
//! browser tests.
//!
//! The screenshots go to a temporary folder; with
//! `GAMESWEEP_UPDATE_SCREENSHOTS=1` to `docs/screenshots/` (shown in
//! `docs/screenshots.md`).

use crate::dashboard::{serve_http, READ_SWEEP};
use crate::explore::{enc, preset_code};
use crate::support::browser::{self, Browser};
use crate::support::harness::{isolated, ok, Client as Cli, BIN};
use crate::support::proc::Proc;

use fantoccini::Client;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The two windows: a desktop's and a phone's.
const WIDTHS: [(u32, u32); 2] = [(1400, 1000), (390, 844)];

/// How a page looks: each selector of `arguments[0]` matches at least one
/// element, every one of non-zero size with something in it (text, a
/// drawing, a control); the visible elements of each selector of
/// `arguments[1]` overlap nowhere (each line box of each element against
/// every other's, 1 px of slack); the page's width against the window's,
/// and what sticks out.
const LOOK: &str = r#"
const [keys, groups] = arguments;
const blank = [], overlaps = [];
for (const k of keys) {
  const es = Array.from(document.querySelectorAll(k));
  if (!es.length) { blank.push(k + ': not there'); continue; }
  es.forEach((e, i) => {
    const r = e.getBoundingClientRect();
    // Text, a field's value, elements inside, or a colour of its own (a bar).
    const bg = getComputedStyle(e).backgroundColor;
    const inside = e.textContent.trim().length + (e.value || '').length + e.children.length
      + (bg !== 'rgba(0, 0, 0, 0)' && bg !== 'transparent' ? 1 : 0);
    if (!(r.width > 0 && r.height > 0) || !inside)
      blank.push(k + ' #' + i + ': ' + Math.round(r.width) + ' x ' + Math.round(r.height) + ', content ' + inside);
  });
}
const name = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
  + (e.getAttribute('class') ? '.' + e.getAttribute('class').trim().split(/\s+/).join('.') : '')
  + ' "' + e.textContent.trim().slice(0, 30) + '"';
for (const g of groups) {
  const es = Array.from(document.querySelectorAll(g)).filter(e => {
    const s = getComputedStyle(e);
    return s.display !== 'none' && s.visibility !== 'hidden' && e.getClientRects().length;
  });
  for (let i = 0; i < es.length; i++) for (let j = i + 1; j < es.length; j++) {
    if (es[i].contains(es[j]) || es[j].contains(es[i])) continue;
    for (const a of es[i].getClientRects()) for (const b of es[j].getClientRects()) {
      const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (x > 1 && y > 1) overlaps.push(g + ': ' + name(es[i]) + ' and ' + name(es[j])
        + ' overlap by ' + Math.round(x) + ' x ' + Math.round(y) + ' px');
    }
  }
}
const el = document.scrollingElement, win = document.documentElement.clientWidth;
// What sticks out past the window's right edge: the innermost such elements.
const wide = Array.from(document.body.querySelectorAll('*')).filter(e => {
  const r = e.getBoundingClientRect();
  return r.width > 0 && r.right > win + 0.5
    && !Array.from(e.children).some(k => k.getBoundingClientRect().right > win + 0.5);
}).slice(0, 5).map(e => name(e) + ' to ' + Math.round(e.getBoundingClientRect().right) + ' px');
return {blank, overlaps: overlaps.slice(0, 20), page: el.scrollWidth, window: win, wide};"#;

/// One page as shown: its name (the screenshot's file is
/// `NAME-WIDTH.png`), what must be there, what must not overlap.
struct Look {
    name: &'static str,
    keys: &'static [&'static str],
    groups: &'static [&'static str],
}

/// What must not overlap on every board.
const BOARD_GROUPS: &[&str] = &[
    "header > *",
    "form#entry > *",
    ".layout > *",
    "#controls label, #controls > button",
    "#nav > *",
    "#share > *",
    "#panel dl.facts > *",
    "#board g.v circle",
];

/// What must not overlap on the dashboard.
const DASHBOARD_GROUPS: &[&str] = &[
    "header > *",
    "main > *",
    "section.sweep > *",
    "section.sweep .legend > span",
    "section.sweep dl.facts > *",
    ".gallery > figure",
];

/// The page's counters: board loads, tree and sum requests, game-graph
/// answers.
const STATE: &str = r#"
const b = document.body.dataset;
return {seq: Number(b.seq || 0), state: b.state || "", pending: Number(b.treePending || 0),
        tree: Number(b.treeAnswered || 0), sum: Number(b.sumAnswered || 0),
        sum_busy: b.sumBusy === "1", gg: Number(b.ggSeq || 0)};"#;

/// Run `js` on the board, then wait (bounded) until `done(before, now)`
/// holds and nothing is loading.
async fn act(c: &Client, js: &str, args: Vec<Value>, done: impl Fn(&Value, &Value) -> bool) {
    let before = c.execute(STATE, vec![]).await.unwrap();
    c.execute(js, args).await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let s = c.execute(STATE, vec![]).await.unwrap();
        if s["state"] != "busy" && s["pending"] == 0 && s["sum_busy"] == false && done(&before, &s)
        {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "the page did not answer {js}: {s}"
        );
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
}

fn more(k: &'static str) -> impl Fn(&Value, &Value) -> bool {
    move |a, b| b[k].as_u64() > a[k].as_u64()
}

/// Open a board's link and wait for its first position.
async fn open(c: &Client, url: &str) {
    c.goto(url).await.unwrap();
    act(c, "", vec![], |_, s| {
        s["seq"].as_u64() >= Some(1) && s["state"] != ""
    })
    .await;
}

/// Where the screenshots go.
fn shots_dir(tmp: &Path) -> PathBuf {
    if std::env::var("GAMESWEEP_UPDATE_SCREENSHOTS").as_deref() == Ok("1") {
        let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/screenshots");
        std::fs::create_dir_all(&d).unwrap();
        d
    } else {
        let d = tmp.join("screenshots");
        std::fs::create_dir_all(&d).unwrap();
        d
    }
}

/// Look at the page `c` shows (scrolled to `at`, a selector, if given):
/// the screenshot, written to `out`, and what is wrong with it.
async fn look(
    b: &Browser,
    c: &Client,
    width: u32,
    look: &Look,
    at: Option<&str>,
    out: &Path,
) -> Vec<String> {
    let mut wrong = Vec::new();
    if let Some(sel) = at {
        c.execute(
            "document.querySelector(arguments[0]).scrollIntoView({block: 'start'});",
            vec![Value::from(sel)],
        )
        .await
        .unwrap();
    }
    // Fonts and layout settle before the picture.
    c.execute_async(
        "const done = arguments[arguments.length - 1]; document.fonts.ready.then(() => requestAnimationFrame(() => requestAnimationFrame(() => done(null))));",
        vec![],
    )
    .await
    .unwrap();
    let keys: Vec<Value> = look.keys.iter().map(|&k| Value::from(k)).collect();
    let groups: Vec<Value> = look.groups.iter().map(|&g| Value::from(g)).collect();
    let v = c
        .execute(LOOK, vec![Value::from(keys), Value::from(groups)])
        .await
        .unwrap();
    let at = format!("{} at {width} px", look.name);
    for s in v["blank"].as_array().unwrap() {
        wrong.push(format!("{at}: blank or missing: {}", s.as_str().unwrap()));
    }
    for s in v["overlaps"].as_array().unwrap() {
        wrong.push(format!("{at}: {}", s.as_str().unwrap()));
    }
    let (page, window) = (v["page"].as_u64().unwrap(), v["window"].as_u64().unwrap());
    if page > window {
        wrong.push(format!(
            "{at}: the page is {page} px wide in a {window} px window: {}",
            v["wide"]
        ));
    }
    for e in b.console(c).await {
        if e["level"] == "SEVERE" {
            wrong.push(format!("{at}: console error: {}", e["message"]));
        }
    }
    let png = c.screenshot().await.unwrap();
    assert!(png.starts_with(b"\x89PNG"), "{at}: not a PNG");
    let file = out.join(format!("{}-{width}.png", look.name));
    std::fs::write(&file, &png).unwrap();
    eprintln!("{at}: {} ({} bytes)", file.display(), png.len());
    wrong
}

/// Wait until the dashboard shows sweep `id` as `status --json` has it
/// (`want` picks the moment: the state and the shards done); at most 5
/// minutes (the sweep's 25 s of work on a loaded machine).
async fn dashboard_shows(c: &Client, url: &str, id: &str, want: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        let v = c.execute(READ_SWEEP, vec![json!(id)]).await.unwrap();
        if !v.is_null() && want(&v) {
            let st = Cli::new(url).status(id);
            if v["state"] == st["state"] && v["shards_done"] == st["shards_done"] {
                return v;
            }
        }
        assert!(
            Instant::now() < deadline,
            "the dashboard never showed it: {v}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Send `signal` (`STOP`, `CONT`) to our own worker.
fn signal(p: &Proc, signal: &str) {
    let st = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(p.0.id().to_string())
        .status()
        .unwrap();
    assert!(st.success(), "kill -{signal}");
}

/// Every page at a desktop's and a phone's width, looked
/// at as above; the screenshots written.
#[test]
#[ignore = "needs chromium"]
fn every_page_at_a_desktop_and_a_phone_width() {
    let (chromium, driver) = browser::browser_or_fail("the screenshots' browser test");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = shots_dir(d);
    let (_c, url, base) = serve_http(d, &[]);
    let base = base.trim_end_matches('/').to_string();
    // A sweep long enough to catch half-way: n ≤ 10 on one thread (about
    // 25 s), launched before its worker starts.
    ok(&[
        "launch",
        "uvg",
        "--max-n",
        "10",
        "--collect-min-value",
        "5",
        "--shards",
        "64",
        "--name",
        "n10",
        "--replicate-fraction",
        "0",
        "--coordinator",
        &url,
    ]);
    let b = Browser::start(&chromium, &driver, d);
    let wrong = b.rt.block_on(async {
        let mut clients = Vec::new();
        for (i, (w, h)) in WIDTHS.iter().enumerate() {
            let p = d.join(format!("browser-{i}"));
            std::fs::create_dir_all(&p).unwrap();
            clients.push((*w, b.client(&p, *w, *h).await));
        }
        let mut wrong = Vec::new();

        // The dashboard during the sweep: its worker paused once a few
        // shards are done.
        let worker = Proc(
            isolated(Command::new(BIN))
                .args(["worker", "--coordinator", &url, "--threads", "1", "--id", "w1"])
                .args(["--exit-when-idle", "--idle-grace", "5"])
                .stdout(Stdio::null())
                .stderr(std::fs::File::create(d.join("worker.log")).unwrap())
                .spawn()
                .unwrap(),
        );
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            let st = Cli::new(&url).status("n10");
            let n = st["shards_done"].as_u64().unwrap();
            if n >= 4 {
                signal(&worker, "STOP");
                break;
            }
            assert!(Instant::now() < deadline, "no shard done: {st}");
            std::thread::sleep(Duration::from_millis(100));
        }
        let st = Cli::new(&url).status("n10");
        assert_eq!(st["state"], "running", "finished before the pause: {st}");
        let during = Look {
            name: "dashboard-running",
            keys: &[
                "section.sweep",
                "section.sweep .bar span.done",
                "section.sweep dl.facts",
                "#workers tbody tr.worker",
            ],
            groups: DASHBOARD_GROUPS,
        };
        for (w, c) in &clients {
            c.goto(&base).await.unwrap();
            let v = dashboard_shows(c, &url, "n10", |v| v["state"] == "running" && v["shards_done"].as_u64() >= Some(4)).await;
            assert!(v["shards_done"].as_u64() < v["shards_total"].as_u64(), "{v}");
            wrong.extend(look(&b, c, *w, &during, None, &out).await);
        }
        signal(&worker, "CONT");

        // After it: done, its witnesses opened.
        let after = Look {
            name: "dashboard-done",
            keys: &[
                "section.sweep",
                "section.sweep .bar span.done",
                "section.sweep dl.facts",
                "section.sweep svg.chart",
                ".gallery figure.witness svg.graph",
                "#workers tbody tr",
            ],
            groups: DASHBOARD_GROUPS,
        };
        for (w, c) in &clients {
            c.goto(&base).await.unwrap();
            let v = dashboard_shows(c, &url, "n10", |v| v["state"] == "done" && v["pictures"].as_u64() > Some(0)).await;
            assert_eq!(v["shards_done"], v["shards_total"], "{v}");
            c.execute(
                "const g = document.querySelector('section.sweep[data-sweep=\"n10\"] details.witnesses'); if (!g.open) g.querySelector('summary').click();",
                vec![],
            )
            .await
            .unwrap();
            wrong.extend(look(&b, c, *w, &after, None, &out).await);
        }
        drop(worker);

        // The boards, served by the same coordinator.
        let explore = format!("{base}/explore");
        let petersen = preset_code(&explore, "petersen")["code"].as_str().unwrap().to_string();
        let quarter = preset_code(&explore, "quarter")["code"].as_str().unwrap().to_string();
        let uvg = Look {
            name: "board-uvg",
            keys: &["form#entry", "#board", "#panel", "#moves tbody tr", "#value", "#path"],
            groups: BOARD_GROUPS,
        };
        let col = Look {
            name: "board-col",
            keys: &["form#entry", "#board", "#panel", "#col-moves tbody tr", "#col-value"],
            groups: BOARD_GROUPS,
        };
        let myopic = Look {
            name: "board-myopic-col",
            keys: &["form#entry", "#board", "#panel", "#col-moves tbody tr", "#col-value"],
            groups: BOARD_GROUPS,
        };
        let gg = Look {
            name: "board-game-graph",
            keys: &["#gg-controls", "#gg-text", "#gg-out svg", "#gg-out table"],
            groups: &["#gg-controls > *", ".gg-game > *", "#gg-out svg g.v rect", ".gg-legend li"],
        };
        let sum = Look {
            name: "board-sum",
            keys: &["#sum-list li[data-term]", "#sum-value", "#sum-outcome", "#sum-left", "#sum-right"],
            groups: &[".analysis-parts > *", ".s-controls > *", "#sum-box dl.facts > *", "#sum-list li"],
        };
        let tree = Look {
            name: "board-option-tree",
            keys: &["#tree li.node", "#tree button.t-head"],
            groups: &[".analysis-parts > *", "#tree button.t-head"],
        };
        for (w, c) in &clients {
            // UVG on the Petersen graph, the token on 0, the values of
            // every move shown.
            open(c, &format!("{explore}?g={}&path=0&play=0", enc(&petersen))).await;
            wrong.extend(look(&b, c, *w, &uvg, None, &out).await);
            // Col on the Petersen graph, two vertices coloured.
            open(c, &format!("{explore}?game=col&g={}&c=L.R.......", enc(&petersen))).await;
            wrong.extend(look(&b, c, *w, &col, None, &out).await);
            // The sum: this Col position, then a UVG and a Myopic Col one.
            act(c, "document.getElementById('sum-add').click();", vec![], more("sum")).await;
            act(
                c,
                "document.getElementById('play').checked = false;
                 document.getElementById('game').value = 'uvg';
                 document.getElementById('code').value = arguments[0];
                 document.getElementById('load').click();",
                vec![Value::from(petersen.as_str())],
                more("seq"),
            )
            .await;
            act(
                c,
                "document.querySelector('#board g.v[data-v=\"0\"]').dispatchEvent(new MouseEvent('click', {bubbles: true}));",
                vec![],
                more("seq"),
            )
            .await;
            act(c, "document.getElementById('sum-add').click();", vec![], more("sum")).await;
            // Myopic Col: the 1/4 tree of the seed.
            act(
                c,
                "const s = document.getElementById('preset');
                 s.value = Array.from(s.options).find(o => o.dataset.id === 'quarter').value;
                 s.dispatchEvent(new Event('change'));",
                vec![],
                more("seq"),
            )
            .await;
            let shown = c
                .execute("return document.getElementById('code').value;", vec![])
                .await
                .unwrap();
            assert_eq!(shown, Value::from(quarter.as_str()));
            c.execute("window.scrollTo(0, 0);", vec![]).await.unwrap();
            wrong.extend(look(&b, c, *w, &myopic, None, &out).await);
            act(c, "document.getElementById('sum-add').click();", vec![], more("sum")).await;
            wrong.extend(look(&b, c, *w, &sum, Some("#sum-box"), &out).await);
            // Its option tree, opened a level.
            act(c, "document.querySelector('#tree-box summary').click();", vec![], more("tree")).await;
            act(
                c,
                "document.querySelectorAll('#tree li.node[data-level=\"1\"] > button.t-head').forEach(b => { if (!b.disabled) b.click(); });",
                vec![],
                |_, _| true,
            )
            .await;
            wrong.extend(look(&b, c, *w, &tree, Some("#tree-box"), &out).await);
            // A game graph: the Nim example.
            act(
                c,
                "const s = document.getElementById('gg-example');
                 s.value = Array.from(s.options).find(o => o.textContent === 'nim.game').value;
                 s.dispatchEvent(new Event('change'));",
                vec![],
                more("gg"),
            )
            .await;
            wrong.extend(look(&b, c, *w, &gg, Some("#gg-out"), &out).await);
        }
        for (_, c) in clients {
            c.close().await.unwrap();
        }
        wrong
    });
    assert!(
        wrong.is_empty(),
        "{} defects:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    // Every page at both widths.
    let n = std::fs::read_dir(&out)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "png")
        })
        .count();
    assert!(n >= 16, "{n} screenshots");
}
