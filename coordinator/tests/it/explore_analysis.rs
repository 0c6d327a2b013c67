//! The boards' analysis panel in headless Chromium: a Col game tree opened three levels deep by the page's buttons, every
//! value, outcome and mark read from the DOM against `gamesweep solve tree
//! --depth 3 --json` and `solve sum --json` run as processes; a sum of a Col,
//! a UVG and a Myopic Col position added from the board, against `solve sum
//! --json` (and the UVG position's tree, impartial); the route's refusal
//! shown; a Nim position added from the game-graph panel with a UVG one,
//! against `solve sum --json` on the same file, and a loopy one refused.
//! `#[ignore = "needs chromium"]`, as the other browser tests
//! (`explore/`).
//!
//! `GAMESWEEP_EXPLORE_SCREENSHOT=1` also writes `docs/explore-analysis.png`.

use crate::explore::explore;
use crate::support::browser;
use crate::support::harness::ok;

use fantoccini::{Client, Locator};
use gamesweep::graph::graph6;
use serde_json::Value;
use std::path::Path;
use std::time::{Duration, Instant};

/// Percent-encode a board code for a link.
fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

fn solve(args: &[&str]) -> Value {
    serde_json::from_str(&ok(args)).unwrap()
}

/// The page's counters: board loads, tree requests in flight and
/// answered, sums answered.
const STATE: &str = r#"
const b = document.body.dataset;
return {seq: Number(b.seq || 0), state: b.state || "", pending: Number(b.treePending || 0),
        tree: Number(b.treeAnswered || 0), sum: Number(b.sumAnswered || 0), sum_busy: b.sumBusy === "1"};"#;

/// Run `js`, then wait (bounded) until `done(state)` holds and no board
/// load, tree or sum request is in flight.
async fn act(c: &Client, js: &str, args: Vec<Value>, done: impl Fn(&Value, &Value) -> bool) {
    let before = c.execute(STATE, vec![]).await.unwrap();
    c.execute(js, args).await.unwrap();
    settle(c, &before, done).await;
}

async fn settle(c: &Client, before: &Value, done: impl Fn(&Value, &Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let s = c.execute(STATE, vec![]).await.unwrap();
        if s["state"] != "busy" && s["pending"] == 0 && s["sum_busy"] == false && done(before, &s) {
            return s;
        }
        assert!(Instant::now() < deadline, "the page did not answer: {s}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn more(k: &'static str) -> impl Fn(&Value, &Value) -> bool {
    move |a, b| b[k].as_u64() > a[k].as_u64()
}

/// Open `url` and wait for its first board.
async fn open(c: &Client, url: &str) {
    c.goto(url).await.unwrap();
    settle(c, &Value::Null, |_, s| s["seq"].as_u64() >= Some(1)).await;
}

/// The tree as the page shows it: each node's move, the value and outcome
/// it displays, its marks, whether it is open, and its options.
const TREE: &str = r#"
const read = li => {
  const b = li.querySelector(':scope > button.t-head');
  const kids = li.querySelector(':scope > .t-kids');
  const list = side => {
    const ul = kids && kids.querySelector(':scope > ul[data-side="' + side + '"]');
    return ul ? Array.from(ul.querySelectorAll(':scope > li.node')).map(read) : null;
  };
  const mark = b.querySelector('.t-mark');
  return {
    term: li.dataset.term, move: li.dataset.move, mv: b.querySelector('.t-mv').textContent,
    value: b.querySelector('.t-val').textContent, outcome: b.querySelector('.t-oc').textContent,
    win: li.classList.contains('win'), simplest: li.classList.contains('simplest'),
    mark: mark ? mark.textContent : null, expanded: b.getAttribute('aria-expanded') === 'true',
    shown: !!kids && !kids.hidden && kids.offsetParent !== null,
    error: kids && kids.querySelector(':scope > .t-error') ? kids.textContent : null,
    left: list('L'), right: list('R'), moves: list(''),
  };
};
const root = document.querySelector('#tree li.node');
return root ? read(root) : null;"#;

/// Does a move to a position of `outcome` win for `side` (`L`, `R`, or
/// `""` in an impartial game)? Left needs a position Right loses moving
/// first (L or P), Right one Left loses (R or P), an impartial mover P.
fn wins(side: &str, outcome: &str) -> bool {
    match side {
        "L" => matches!(outcome, "L" | "P"),
        "R" => matches!(outcome, "R" | "P"),
        _ => outcome == "P",
    }
}

/// Compare the page's node `dom` with `solve tree`'s `want` (reached by
/// `side`), recursively; every open node's simplest winning moves with
/// `solve sum TERM --json`. Returns the nodes compared.
fn compare(dom: &Value, want: &Value, side: Option<&str>) -> usize {
    let at = want["term"].as_str().unwrap();
    assert_eq!(dom["term"], want["term"], "{at}");
    assert_eq!(dom["value"], want["value"], "{at}: value shown");
    assert_eq!(dom["outcome"], want["outcome"], "{at}: outcome shown");
    if let Some(side) = side {
        assert_eq!(dom["move"], want["move"], "{at}");
        let label = want["move"].as_str().unwrap();
        assert!(dom["mv"].as_str().unwrap().ends_with(label), "{at}: {dom}");
        let w = wins(side, want["outcome"].as_str().unwrap());
        assert_eq!(dom["win"], w, "{at}: win mark");
    }
    assert_eq!(dom["expanded"], want["expanded"], "{at}: opened");
    assert!(dom["error"].is_null(), "{at}: {dom}");
    if want["expanded"] != true {
        return 1;
    }
    assert_eq!(dom["shown"], true, "{at}: options hidden");
    let sum = solve(&["solve", "sum", at, "--json"]);
    let mut n = 1;
    for (key, side, best) in [
        ("left", "L", &sum["left_wins_by"]),
        ("right", "R", &sum["right_wins_by"]),
        ("moves", "", &sum["left_wins_by"]),
    ] {
        let Some(list) = want[key].as_array() else {
            assert!(dom[key].is_null(), "{at}: {key} shown");
            continue;
        };
        let shown = dom[key]
            .as_array()
            .unwrap_or_else(|| panic!("{at}: no {key}"));
        assert_eq!(shown.len(), list.len(), "{at}: {key}");
        for (d, w) in shown.iter().zip(list) {
            n += compare(d, w, Some(side));
        }
        let simplest: Vec<&Value> = shown.iter().filter(|d| d["simplest"] == true).collect();
        match best["move"].as_str() {
            None => assert!(simplest.is_empty(), "{at}: {key}: {simplest:?}"),
            Some(m) => {
                assert_eq!(simplest.len(), 1, "{at}: {key}: {simplest:?}");
                assert_eq!(simplest[0]["move"], m, "{at}: {key}: simplest");
                assert_eq!(simplest[0]["mark"], "simplest win", "{at}");
            }
        }
    }
    n
}

/// Click every closed button of level `level` that has options.
const OPEN_LEVEL: &str = r#"
const bs = Array.from(document.querySelectorAll('#tree li.node[data-level="' + arguments[0] + '"] > button.t-head'))
  .filter(b => !b.disabled && b.getAttribute('aria-expanded') !== 'true');
bs.forEach(b => b.click());
return bs.length;"#;

/// Nothing of the page is wider than its window.
const FITS: &str = r#"
const el = document.scrollingElement;
return [el.scrollWidth, document.documentElement.clientWidth];"#;

/// The page had no game tree. A Col position's tree
/// opened three levels by the page's buttons at 420 px (one by the
/// keyboard): every value, outcome and mark shown is `solve tree --depth 3
/// --json`'s and `solve sum --json`'s; closing and reopening asks nothing
/// again; a new position shows its own tree.
#[test]
#[ignore = "needs chromium"]
fn a_col_tree_opened_three_levels_in_a_browser_is_solve_tree() {
    let started = Instant::now();
    let (chromium, driver) = browser::browser_or_fail("the analysis tree's browser test");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (_p, url) = explore(d, &[]);
    let b = browser::Browser::start(&chromium, &driver, d);
    // Col on the path 0 - 1 - 2 - 3 - 4, vertex 0 blue.
    let p5 = graph6::encode_with(5, |i, j| j == i + 1);
    let term = format!("col:{p5}:L....");
    let want = solve(&["solve", "tree", &term, "--depth", "3", "--json"]);
    b.rt.block_on(async {
        let c = b.client(d, 420, 900).await;
        open(&c, &format!("{url}?game=col&g={}&c=L....", enc(&p5))).await;
        // The panel opens with the position and its options.
        let before = c.execute(STATE, vec![]).await.unwrap();
        c.find(Locator::Css("#tree-box summary")).await.unwrap().click().await.unwrap();
        settle(&c, &before, more("tree")).await;
        // Level 1: the first option by the keyboard, the rest by clicks.
        let first = c
            .find(Locator::Css("#tree li.node[data-level=\"1\"] > button.t-head:not(:disabled)"))
            .await
            .unwrap();
        let before = c.execute(STATE, vec![]).await.unwrap();
        first.send_keys("\u{e007}").await.unwrap();
        settle(&c, &before, more("tree")).await;
        for level in [1, 2] {
            act(&c, OPEN_LEVEL, vec![Value::from(level)], |_, _| true).await;
        }
        let dom = c.execute(TREE, vec![]).await.unwrap();
        let n = compare(&dom, &want["root"], None);
        assert_eq!(n as u64, want["positions"].as_u64().unwrap(), "nodes shown");
        let (w, win) = {
            let f = c.execute(FITS, vec![]).await.unwrap();
            (f[0].as_u64().unwrap(), f[1].as_u64().unwrap())
        };
        assert!(w <= win, "the page is {w} px wide in a {win} px window");
        // Closing an option hides its options; reopening asks nothing again.
        let toggle = "document.querySelector('#tree li.node[data-level=\"1\"][data-count]:not([data-count=\"0\"]) > button').click();";
        let s0 = c.execute(STATE, vec![]).await.unwrap();
        c.execute(toggle, vec![]).await.unwrap();
        let closed = c.execute(TREE, vec![]).await.unwrap();
        // The first option with options of its own (the one clicked).
        let kid = |t: &Value| {
            let mut l = t["left"].as_array().unwrap().iter().chain(t["right"].as_array().unwrap());
            l.find(|k| k["left"].is_array()).cloned().unwrap()
        };
        let k = kid(&closed);
        assert_eq!((&k["expanded"], &k["shown"]), (&Value::from(false), &Value::from(false)), "{k}");
        c.execute(toggle, vec![]).await.unwrap();
        let k = kid(&c.execute(TREE, vec![]).await.unwrap());
        assert_eq!((&k["expanded"], &k["shown"]), (&Value::from(true), &Value::from(true)), "{k}");
        assert_eq!(c.execute(STATE, vec![]).await.unwrap()["tree"], s0["tree"], "reopening asked again");
        // A new position (vertex 4 painted red): its own tree.
        let before = c.execute(STATE, vec![]).await.unwrap();
        c.execute(
            "document.getElementById('paint-R').checked = true;
             document.querySelector('#board g.v[data-v=\"4\"]').dispatchEvent(new MouseEvent('click', {bubbles: true}));",
            vec![],
        )
        .await
        .unwrap();
        settle(&c, &before, |a, b| b["seq"].as_u64() > a["seq"].as_u64() && b["tree"].as_u64() > a["tree"].as_u64()).await;
        let t2 = format!("col:{p5}:L...R");
        let want2 = solve(&["solve", "tree", &t2, "--depth", "1", "--json"]);
        let dom = c.execute(TREE, vec![]).await.unwrap();
        let n2 = compare(&dom, &want2["root"], None);
        eprintln!(
            "explore analysis tree: {} nodes read from the DOM equal solve tree --json, in {:.1} s",
            n + n2,
            started.elapsed().as_secs_f64()
        );
        c.close().await.unwrap();
    });
}

/// What the sum panel shows.
const SUM: &str = r#"
const t = id => document.getElementById(id).textContent;
const e = document.getElementById('sum-error');
return {
  summands: Array.from(document.querySelectorAll('#sum-list li[data-term]')).map(li =>
    [li.dataset.term, li.querySelector('.s-val').textContent, (li.querySelector('.s-oc') || {}).textContent || null,
     (li.querySelector('.t-comp') || {}).textContent || null]),
  value: t('sum-value'), outcome: t('sum-outcome'), left: t('sum-left'), right: t('sum-right'),
  error: e.hidden ? null : e.textContent,
  add: !document.getElementById('sum-add').disabled,
};"#;

/// The sum panel `s` shows `solve sum TERMS --json`.
fn same_sum(s: &Value, terms: &[&str]) {
    let mut args = vec!["solve", "sum"];
    args.extend(terms);
    args.push("--json");
    same_sum_as(s, terms, &solve(&args));
}

/// The sum panel `s` shows `want`, `solve sum TERMS --json`'s answer.
fn same_sum_as(s: &Value, terms: &[&str], want: &Value) {
    assert!(s["error"].is_null(), "{s}");
    assert_eq!(s["value"], want["value"], "{terms:?}: {s}");
    let outcome = want["outcome"].as_str().unwrap();
    assert!(
        s["outcome"]
            .as_str()
            .unwrap()
            .starts_with(&format!("{outcome}:")),
        "{terms:?}: {s}"
    );
    let shown = s["summands"].as_array().unwrap();
    assert_eq!(shown.len(), terms.len(), "{s}");
    for (d, w) in shown.iter().zip(want["summands"].as_array().unwrap()) {
        assert_eq!(d[0], w["term"], "{s}");
        assert_eq!(d[1], w["value"], "{s}");
        assert_eq!(d[2], w["outcome"], "{s}");
        // A Col position of several components shows each one's value.
        if let Some(cs) = w["components"].as_array().filter(|c| c.len() > 1) {
            let text = d[3]
                .as_str()
                .unwrap_or_else(|| panic!("no components shown: {s}"));
            for c in cs {
                let vs: Vec<String> = c["vertices"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.to_string())
                    .collect();
                let part = format!("{{{}}}: {}", vs.join(","), c["value"].as_str().unwrap());
                assert!(text.contains(&part), "{part} not in {text}");
            }
        }
    }
    for (key, side) in [("left_wins_by", "left"), ("right_wins_by", "right")] {
        let m = &want[key];
        let text = s[side].as_str().unwrap();
        if m.is_null() {
            assert_eq!(text, "no winning move", "{s}");
            continue;
        }
        let k = m["summand"].as_u64().unwrap() as usize;
        let what = match want["summands"][k]["game"].as_str().unwrap() {
            "uvg" => "moving the token to",
            "gamegraph" => "moving to",
            _ => "colouring",
        };
        let says = format!(
            "{what} {} in summand {}, leaving {}",
            m["move"].as_str().unwrap(),
            k + 1,
            m["value"].as_str().unwrap()
        );
        assert!(text.contains(&says), "{says} not in {text}");
    }
}

/// The page could not add positions. A Col board
/// with a blue vertex, a UVG position and the Myopic 1/4 tree added from the
/// board: the summands, the sum's value, outcome and simplest winning moves
/// shown are `solve sum --json`'s, after each addition and a removal; 17
/// summands are refused with the route's message.
#[test]
#[ignore = "needs chromium"]
fn a_sum_of_boards_added_in_a_browser_is_solve_sum() {
    let started = Instant::now();
    let (chromium, driver) = browser::browser_or_fail("the analysis sum's browser test");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (_p, url) = explore(d, &[]);
    let b = browser::Browser::start(&chromium, &driver, d);
    // Col on the path P5 with its middle vertex blue (two components);
    // UVG on the 6-cycle with a chord, the token moved 0 → 1; the 1/4 tree.
    let p5 = graph6::encode_with(5, |i, j| j == i + 1);
    let col = format!("col:{p5}:..L..");
    let g = graph6::encode_with(6, |i, j| j == i + 1 || (i, j) == (0, 5) || (i, j) == (0, 3));
    let uvg = format!("uvg:{g}@0,1");
    let quarter = "myopic:&FOC@GW????:.R....L";
    let png = b.rt.block_on(async {
        let c = b.client(d, 1000, 1400).await;
        open(&c, &format!("{url}?game=col&g={}&c=..L..", enc(&p5))).await;
        let add = || async {
            let before = c.execute(STATE, vec![]).await.unwrap();
            c.find(Locator::Id("sum-add")).await.unwrap().click().await.unwrap();
            settle(&c, &before, more("sum")).await;
            c.execute(SUM, vec![]).await.unwrap()
        };
        let s = add().await;
        same_sum(&s, &[&col]);
        // UVG without a token cannot be added; with one it can.
        act(
            &c,
            "document.getElementById('play').checked = false;
             document.getElementById('game').value = 'uvg';
             document.getElementById('code').value = arguments[0];
             document.getElementById('load').click();",
            vec![Value::from(g.as_str())],
            more("seq"),
        )
        .await;
        assert_eq!(c.execute(SUM, vec![]).await.unwrap()["add"], false);
        for v in [0, 1] {
            act(
                &c,
                "document.querySelector('#board g.v[data-v=\"' + arguments[0] + '\"]').dispatchEvent(new MouseEvent('click', {bubbles: true}));",
                vec![Value::from(v)],
                more("seq"),
            )
            .await;
        }
        let s = add().await;
        same_sum(&s, &[&col, &uvg]);
        // UVG's tree: the moves once (impartial), as `solve tree` lists them.
        act(&c, "document.querySelector('#tree-box summary').click();", vec![], more("tree")).await;
        let tree = c.execute(TREE, vec![]).await.unwrap();
        let want = solve(&["solve", "tree", &uvg, "--depth", "1", "--json"]);
        assert!(tree["moves"].is_array() && tree["left"].is_null(), "{tree}");
        compare(&tree, &want["root"], None);
        // The Myopic preset: its tree (shown at once, the panel being
        // open) one level further, for the picture.
        act(
            &c,
            "const s = document.getElementById('preset');
             s.value = Array.from(s.options).find(o => o.dataset.id === 'quarter').value;
             s.dispatchEvent(new Event('change'));",
            vec![],
            |a, b| more("seq")(a, b) && more("tree")(a, b),
        )
        .await;
        let s = add().await;
        same_sum(&s, &[&col, &uvg, quarter]);
        act(&c, OPEN_LEVEL, vec![Value::from(1)], |_, _| true).await;
        let tree = c.execute(TREE, vec![]).await.unwrap();
        let want = solve(&["solve", "tree", quarter, "--depth", "2", "--json"]);
        compare(&tree, &want["root"], None);
        let png = c.screenshot().await.unwrap();
        // Removing the first summand.
        let before = c.execute(STATE, vec![]).await.unwrap();
        c.find(Locator::Css("#sum-list button.s-remove")).await.unwrap().click().await.unwrap();
        let s = {
            settle(&c, &before, more("sum")).await;
            c.execute(SUM, vec![]).await.unwrap()
        };
        same_sum(&s, &[&uvg, quarter]);
        // 17 summands: the route's refusal, and no value.
        let s = {
            act(
                &c,
                "for (let i = 0; i < 15; i++) document.getElementById('sum-add').click();",
                vec![],
                more("sum"),
            )
            .await;
            c.execute(SUM, vec![]).await.unwrap()
        };
        assert_eq!(s["summands"].as_array().unwrap().len(), 17, "{s}");
        let e = s["error"].as_str().unwrap_or_else(|| panic!("no error shown: {s}"));
        assert!(e.contains("17 terms") && e.contains("at most 16"), "{e}");
        assert_eq!(s["value"], "—", "{s}");
        eprintln!(
            "explore analysis sum: 4 sums equal solve sum --json, in {:.1} s",
            started.elapsed().as_secs_f64()
        );
        c.close().await.unwrap();
        png
    });
    assert!(png.starts_with(b"\x89PNG"), "not a PNG");
    std::fs::write(d.join("explore-analysis.png"), &png).unwrap();
    if std::env::var("GAMESWEEP_EXPLORE_SCREENSHOT").as_deref() == Ok("1") {
        let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/explore-analysis.png");
        std::fs::write(&docs, &png).unwrap();
        eprintln!("wrote {} ({} bytes)", docs.display(), png.len());
    }
}

/// `gamesweep args` run in `dir` (so that a `gamegraph:` term names a file
/// there as the page names it): its output.
fn gs_in(dir: &Path, args: &[&str]) -> std::process::Output {
    use crate::support::harness::{isolated, BIN};
    isolated(std::process::Command::new(BIN))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

/// Only board positions could be added to the sum. A
/// Nim position (Grundy 1) added from the game-graph panel's table and a
/// UVG position from the board: the summands, the sum's value, outcome and
/// winning moves shown are `solve sum gamegraph:nim.game#nim#1.2.2
/// uvg:G6@0 --json`'s (run on the same file); a position of a directed
/// 5-cycle, which the sum refuses, is offered no "add".
#[test]
#[ignore = "needs chromium"]
fn a_game_graph_position_added_to_the_sum_in_a_browser_is_solve_sum() {
    let started = Instant::now();
    let (chromium, driver) = browser::browser_or_fail("the game-graph sum's browser test");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (_p, url) = explore(d, &[]);
    let b = browser::Browser::start(&chromium, &driver, d);
    let examples = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/examples"));
    let g = graph6::encode_with(6, |i, j| j == i + 1 || (i, j) == (0, 5) || (i, j) == (0, 3));
    let uvg = format!("uvg:{g}@0");
    let nim = "gamegraph:nim.game#nim#1.2.2";
    let loopy = "gamegraph:odd-cycle.game#C5#p0";
    b.rt.block_on(async {
        let c = b.client(d, 1000, 1400).await;
        open(&c, &format!("{url}?g={}&path=0&play=0", enc(&g))).await;
        // Solve an example in the game-graph panel and wait for its tables.
        let example = |name: &'static str| {
            let c = c.clone();
            async move {
                let seq = |c: Client| async move {
                    c.execute("return Number(document.body.dataset.ggSeq || 0);", vec![])
                        .await
                        .unwrap()
                        .as_u64()
                        .unwrap()
                };
                let before = seq(c.clone()).await;
                c.execute(
                    "const s = document.getElementById('gg-example');
                     s.value = Array.from(s.options).find(o => o.textContent === arguments[0]).value;
                     s.dispatchEvent(new Event('change'));",
                    vec![Value::from(name)],
                )
                .await
                .unwrap();
                let deadline = Instant::now() + Duration::from_secs(30);
                while seq(c.clone()).await <= before {
                    assert!(Instant::now() < deadline, "{name} did not show");
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            }
        };
        // Click the add button of `pos` in game `game`'s table.
        let add = |game: &'static str, pos: &'static str| {
            let c = c.clone();
            async move {
                act(
                    &c,
                    "document.querySelector('#gg-out .gg-game[data-game=\"' + arguments[0] +
                       '\"] button.gg-add[data-position=\"' + arguments[1] + '\"]').click();",
                    vec![Value::from(game), Value::from(pos)],
                    more("sum"),
                )
                .await;
                c.execute(SUM, vec![]).await.unwrap()
            }
        };
        let before = c.execute(STATE, vec![]).await.unwrap();
        c.find(Locator::Id("sum-add")).await.unwrap().click().await.unwrap();
        settle(&c, &before, more("sum")).await;
        example("nim.game").await;
        let s = add("nim", "1.2.2").await;
        let out = gs_in(examples, &["solve", "sum", &uvg, nim, "--json"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let want: Value = serde_json::from_slice(&out.stdout).unwrap();
        // Grundy 1 (Bouton: 1 xor 2 xor 2), independently of the sum.
        assert_eq!(want["summands"][1]["value"], "*", "{want}");
        same_sum_as(&s, &[&uvg, nim], &want);
        let names = c
            .execute(
                "return Array.from(document.querySelectorAll('#sum-list .s-name')).map(e => e.textContent);",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(names[1], "nim.game, game nim, position 1.2.2", "{names}");
        let note = |c: Client| async move {
            c.find(Locator::Id("gg-sum-note")).await.unwrap().text().await.unwrap()
        };
        let n = note(c.clone()).await;
        assert!(n.starts_with("Added 1.2.2 (game nim)"), "{n}");
        // A loopy position: the sum refuses it, so its row offers no "add"
        // (it was offered, then refused), and says why.
        example("odd-cycle.game").await;
        let out = gs_in(examples, &["solve", "sum", &uvg, nim, loopy, "--json"]);
        assert!(!out.status.success(), "{loopy} was summed");
        let row = c
            .execute(
                "const r = document.querySelector('#gg-out .gg-game[data-game=\"C5\"] tr[data-position=\"p0\"]');
                 return [!!r.querySelector('button.gg-add'), r.lastElementChild.title];",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(row[0], false, "{row}");
        assert!(row[1].as_str().unwrap().contains("cycle"), "{row}");
        // The sum is still the two.
        same_sum_as(&c.execute(SUM, vec![]).await.unwrap(), &[&uvg, nim], &want);
        eprintln!(
            "explore analysis game-graph sum: 2 sums equal solve sum --json, a loop not offered, in {:.1} s",
            started.elapsed().as_secs_f64()
        );
        c.close().await.unwrap();
    });
}
