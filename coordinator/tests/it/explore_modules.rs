//! The boards' scripts are ES modules served as they are written: the page
//! loads one `<script type="module">` and the data the server gives it as
//! JSON (never written into a script); every module is served byte for
//! byte from its file with a JavaScript type; the modules import what they
//! use, share no global, build HTML only through the one `html` tag of
//! `html.js`, and no module but `games.js` names a game (one object per
//! game there). Then in headless Chromium (`#[ignore = "needs chromium"]`):
//! the page loads every module, the console has no error, and none of the
//! old globals exists.

use crate::explore::{enc, explore};
use crate::support::browser;

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The folder of the boards' modules (`coordinator/serve/src/explore`).
fn modules_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("serve/src/explore")
}

/// Every `.js` file of the boards: name → text.
fn module_files() -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for e in std::fs::read_dir(modules_dir()).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "js") {
            let name = p.file_name().unwrap().to_str().unwrap().to_string();
            out.insert(name, std::fs::read_to_string(&p).unwrap());
        }
    }
    assert!(out.len() >= 2, "no modules in {}", modules_dir().display());
    out
}

/// The dashboard's script (`coordinator/serve/src/http/app.js`).
fn dashboard_script() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("serve/src/http/app.js"))
        .unwrap()
}

/// `GET path`: status, the `content-type` header, body.
fn get_typed(url: &str, path: &str) -> (u16, String, String) {
    let host = url
        .strip_prefix("http://")
        .unwrap()
        .split('/')
        .next()
        .unwrap();
    let mut s = TcpStream::connect(host).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let text = String::from_utf8(raw).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    let kind = head
        .lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case("content-type")
                .then(|| v.trim().to_string())
        })
        .unwrap_or_default();
    (status, kind, body.to_string())
}

/// The specifiers of a module's static imports (`import ... from "X"`).
fn imports(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for stmt in text.split("import ").skip(1) {
        let Some(from) = stmt.find(" from \"") else {
            continue;
        };
        // The statement's own `from`, not one of a later line.
        if stmt[..from].contains(';') {
            continue;
        }
        let rest = &stmt[from + 7..];
        out.push(rest[..rest.find('"').unwrap()].to_string());
    }
    out
}

/// Each `<script ...>` tag of an HTML page: (its attributes, its content).
fn scripts(page: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = page;
    while let Some(i) = rest.find("<script") {
        let tag_end = i + rest[i..].find('>').unwrap();
        let close = tag_end + rest[tag_end..].find("</script>").unwrap();
        out.push((
            rest[i + 7..tag_end].trim().to_string(),
            rest[tag_end + 1..close].to_string(),
        ));
        rest = &rest[close + 9..];
    }
    out
}

#[test]
fn the_page_loads_one_module_and_gets_its_data_as_json() {
    let dir = tempfile::tempdir().unwrap();
    let (_p, url) = explore(dir.path(), &[]);
    let (st, kind, page) = get_typed(&url, "/explore");
    assert_eq!(st, 200);
    assert!(kind.starts_with("text/html"), "{kind}");
    let tags = scripts(&page);
    let modules: Vec<_> = tags
        .iter()
        .filter(|(a, _)| a.contains("type=\"module\""))
        .collect();
    assert_eq!(modules.len(), 1, "one module loads the rest: {tags:?}");
    assert_eq!(modules[0].0, "type=\"module\" src=\"/explore/explore.js\"");
    assert!(modules[0].1.is_empty(), "{:?}", modules[0]);
    let data: Vec<_> = tags
        .iter()
        .filter(|(a, _)| a.contains("type=\"application/json\""))
        .collect();
    assert_eq!(data.len(), 1, "{tags:?}");
    assert_eq!(data[0].0, "type=\"application/json\" id=\"explore-data\"");
    assert_eq!(
        tags.len(),
        2,
        "no classic script, nothing run in the page's text: {tags:?}"
    );
    // The data: the search's budgets, as the search route keeps them.
    let v: Value = serde_json::from_str(&data[0].1).unwrap();
    let (initial, max) = (
        v["search_budget"]["initial"].as_u64().unwrap(),
        v["search_budget"]["max"].as_u64().unwrap(),
    );
    assert!(0 < initial && initial <= max, "{v}");
    let g30 = "]?????A?A?A?@_@_?_?_?_?O?O?O?G?G?G?C?C?C?A?A?A?@_@_";
    let refused = |b: u64| {
        crate::explore::get(
            &url,
            &format!("/explore/api/uvg/search?g={}&line=0&budget={b}", enc(g30)),
        )
    };
    let (st, e) = refused(max + 1);
    assert_eq!(st, 400, "{e}");
    assert!(
        e.contains(&max.to_string()),
        "the route's limit is not the page's {max}: {e}"
    );
}

#[test]
fn every_module_is_served_as_written_with_a_javascript_type() {
    let dir = tempfile::tempdir().unwrap();
    let (_p, url) = explore(dir.path(), &[]);
    for (name, text) in module_files() {
        let (st, kind, body) = get_typed(&url, &format!("/explore/{name}"));
        assert_eq!(st, 200, "{name}");
        assert_eq!(kind, "text/javascript; charset=utf-8", "{name}");
        assert!(
            body == text,
            "{name}: the server changed it ({} bytes served, {} in the file)",
            body.len(),
            text.len()
        );
    }
}

#[test]
fn the_modules_import_what_they_use_and_share_no_global() {
    let files = module_files();
    // Imports resolve to modules of the folder; from the page's one module
    // every module is reached (none is loaded any other way).
    let mut seen = BTreeSet::from(["explore.js".to_string()]);
    let mut todo = vec!["explore.js".to_string()];
    while let Some(m) = todo.pop() {
        let text = files.get(&m).unwrap_or_else(|| panic!("no module {m}"));
        for spec in imports(text) {
            let name = spec
                .strip_prefix("./")
                .unwrap_or_else(|| panic!("{m}: import {spec:?}: a relative path"));
            assert!(
                files.contains_key(name),
                "{m} imports {spec}, which is not a module here"
            );
            if seen.insert(name.to_string()) {
                todo.push(name.to_string());
            }
        }
    }
    let all: BTreeSet<_> = files.keys().cloned().collect();
    assert_eq!(seen, all, "modules the page never loads");
    let dash = dashboard_script();
    assert_eq!(
        imports(&dash),
        ["/explore/html.js", "/explore/games.js"],
        "the dashboard's imports"
    );
    let mut sources: Vec<(String, String)> = files.into_iter().collect();
    sources.push(("http/app.js".into(), dash));
    for (name, text) in &sources {
        for bad in ["window.", "globalThis.", "self."] {
            for (i, _) in text.match_indices(bad) {
                let after = &text[i + bad.len()..];
                let end = after.find([';', '\n', ')']).unwrap_or(after.len());
                assert!(
                    !after[..end].contains(" = "),
                    "{name}: a global set: {bad}{}",
                    &after[..end]
                );
            }
        }
        assert!(!text.contains("\"use strict\""), "{name}: a classic script");
        // No placeholder for the server to fill in.
        let placeholder = text
            .split("__")
            .skip(1)
            .step_by(2)
            .find(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_uppercase() || c == '_'));
        assert_eq!(placeholder, None, "{name}: a placeholder");
        // HTML only through html.js's tag; its escape function is the only one.
        if name != "html.js" {
            assert!(!text.contains(".innerHTML"), "{name}: innerHTML");
            assert!(
                !text.contains("function esc("),
                "{name}: an escape function of its own"
            );
        }
        // One object per game: no module but games.js names a game.
        if name != "games.js" {
            // (A table's column header is no game.)
            let text = text.replace("scope=\"col\"", "");
            for game in ["\"uvg\"", "\"col\"", "\"myopic\"", "\"gamegraph\""] {
                assert!(!text.contains(game), "{name}: a branch on {game}");
            }
        }
    }
}

/// A headless browser on `url`: the page loaded (its first position shown,
/// `data-seq` ≥ 1) within 30 s, or the console's entries.
async fn loaded(b: &browser::Browser, c: &fantoccini::Client, url: &str) {
    c.goto(url).await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let seq = c
            .execute("return Number(document.body.dataset.seq || 0);", vec![])
            .await
            .unwrap();
        if seq.as_u64() >= Some(1) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "the page never showed a position; the console: {:?}",
            b.console(c).await
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The page's globals of the classic scripts it had (the board's state,
/// its helpers, the panels' hooks), the scripts it fetched, its script
/// elements' types and the board shown.
const PAGE_STATE: &str = r##"
const globals = [];
if (typeof st !== "undefined") globals.push("st");
if (typeof esc !== "undefined") globals.push("esc");
if (typeof gsAnalysis !== "undefined") globals.push("gsAnalysis");
if (typeof initGameGraph !== "undefined") globals.push("initGameGraph");
if (typeof SEARCH_BUDGET !== "undefined") globals.push("SEARCH_BUDGET");
if (typeof renderUvg !== "undefined") globals.push("renderUvg");
for (const n of ["gamesweepSum", "searched", "searchPanel", "nim", "api", "clickVertex"]) if (n in window) globals.push("window." + n);
const scripts = performance.getEntriesByType("resource").map(r => new URL(r.name).pathname)
  .filter(p => p.endsWith(".js")).sort();
return {globals, scripts, state: document.body.dataset.state, vertices: document.querySelectorAll("#board g.v").length,
        types: Array.from(document.scripts).map(s => s.type)};"##;

#[test]
#[ignore = "needs chromium"]
fn the_boards_load_as_modules_with_no_globals_in_a_browser() {
    let (chromium, driver) = browser::browser_or_fail("the boards' modules browser test");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (_p, url) = explore(d, &[]);
    let b = browser::Browser::start(&chromium, &driver, d);
    let mut want: Vec<String> = module_files()
        .keys()
        .map(|m| format!("/explore/{m}"))
        .collect();
    want.sort();
    b.rt.block_on(async {
        let c = b.client(d, 1000, 700).await;
        loaded(&b, &c, &url).await;
        let v = c.execute(PAGE_STATE, vec![]).await.unwrap();
        assert_eq!(v["globals"], serde_json::json!([]), "globals: {v}");
        assert_eq!(v["scripts"], serde_json::json!(want), "{v}");
        assert_eq!(
            v["types"],
            serde_json::json!(["application/json", "module"]),
            "{v}"
        );
        assert_eq!(v["state"], "ready", "{v}");
        assert_eq!(v["vertices"], 10, "the Petersen graph: {v}");
        let severe: Vec<_> = b
            .console(&c)
            .await
            .into_iter()
            .filter(|e| e["level"] == "SEVERE")
            .collect();
        assert!(severe.is_empty(), "console errors: {severe:?}");
        c.close().await.unwrap();
    });
}
