//! Whole games against the solver in a browser, and game graphs by level
//! with a legend and the pair table.

use super::games::cli_pair_table;
use super::*;

/// What the play controls and the move list show.
const PLAY: &str = r#"
const b = document.body.dataset;
const m = document.getElementById('message');
const n = document.getElementById('notice');
return {
  seq: Number(b.seq || 0), state: b.state || "", turn: b.turn || "", at: Number(b.at || 0), len: Number(b.len || 0),
  line: Array.from(document.querySelectorAll('#movelist li[data-i]')).map(li => [Number(li.dataset.v), li.dataset.side, li.dataset.who]),
  colouring: document.getElementById('col-colouring').textContent,
  path: document.getElementById('path').textContent,
  message: m.hidden ? null : m.textContent, outcome: m.hidden ? null : (m.dataset.outcome || ''),
  notice: n.hidden ? null : n.textContent,
  turn_text: document.getElementById('turn').hidden ? null : document.getElementById('turn').textContent,
  link: document.getElementById('link').value,
  vertices: document.querySelectorAll('#board g.v').length,
};"#;

impl Page {
    async fn play(&self) -> Value {
        self.c.execute(PLAY, vec![]).await.unwrap()
    }
    /// Run `js`, then wait (bounded) until the page has answered and it is
    /// not the solver's move (the person's turn, or the game over).
    async fn settle(&self, js: &str, args: Vec<Value>) -> Value {
        let before = self.play().await["seq"].as_u64().unwrap();
        self.c.execute(js, args).await.unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let v = self.play().await;
            if v["seq"].as_u64().unwrap() > before
                && v["state"] == "ready"
                && (v["turn"] != "solver" || v["message"].is_string())
            {
                return v;
            }
            assert!(Instant::now() < deadline, "the page did not settle: {v}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    /// Run `js` (a step through the line), then wait (bounded) until the
    /// page has shown the position.
    async fn step(&self, js: &str) -> Value {
        let before = self.play().await["seq"].as_u64().unwrap();
        self.c.execute(js, vec![]).await.unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let v = self.play().await;
            if v["seq"].as_u64().unwrap() > before && v["state"] == "ready" {
                return v;
            }
            assert!(Instant::now() < deadline, "the page did not step: {v}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    async fn open(&self, url: &str) -> Value {
        self.c.goto(url).await.unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let v = self.play().await;
            if v["seq"].as_u64().unwrap() >= 1 && v["state"] != "busy" {
                return v;
            }
            assert!(Instant::now() < deadline, "the page did not load: {v}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// The colouring after the first `k` moves of a Col line from `c0`.
fn colour_line(c0: &str, line: &[(usize, String)], k: usize) -> String {
    let mut c: Vec<char> = c0.chars().collect();
    for (v, side) in &line[..k] {
        c[*v] = side.chars().next().unwrap();
    }
    c.into_iter().collect()
}

fn line_of(v: &Value) -> Vec<(usize, String)> {
    v["line"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e[0].as_u64().unwrap() as usize,
                e[1].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Col and Myopic Col could not be played; UVG had no
/// "solver moves first", no hidden values, no move list and no link to a
/// game. Full Col games against the solver as Blue and as Red, moving
/// first and second, every solver move checked against `board::colplay`
/// and its result against `solve col --json`; stepping back, replaying, a
/// shared link restored, bad links explained; UVG with the solver moving
/// first and the values hidden.
#[test]
#[ignore = "needs chromium"]
fn playing_every_board_against_the_solver_in_a_browser() {
    use gamesweep::board::colplay::{reply, Side};
    use gamesweep::col::Rules;
    let started = Instant::now();
    let (chromium, driver) = browser::browser_or_fail("the boards' play test");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (_p, url) = explore(d, &[]);
    let b = browser::Browser::start(&chromium, &driver, d);
    let png = b.rt.block_on(async {
        let c = b.client(d, 1000, 900).await;
        let page = Page { c };
        // Col on a 7-vertex caterpillar, Myopic Col on the binary out-tree.
        let col = graph6::encode_with(7, |i, j| j == i + 1 || (i == 1 && j == 5));
        let tree = graph6::encode_digraph_with(7, |i, j| j == 2 * i + 1 || j == 2 * i + 2);
        let mut games = 0;
        let mut solver_moves = 0;
        let mut shot = None;
        for (rules, name, code) in [(Rules::Col, "col", &col), (Rules::Myopic, "myopic", &tree)] {
            for (you, order) in [("L", "first"), ("L", "second"), ("R", "first"), ("R", "second")] {
                page.open(&format!("{url}?game={name}&g={}", enc(code))).await;
                let mut v = page
                    .settle(
                        "document.getElementById('you').value = arguments[0];
                         document.getElementById('order').value = arguments[1];
                         const p = document.getElementById('col-play');
                         p.checked = true; p.dispatchEvent(new Event('change'));",
                        vec![Value::from(you), Value::from(order)],
                    )
                    .await;
                let me = Side::parse(you).unwrap();
                let first = if order == "first" { me } else { me.other() };
                let start = reply(rules, code, "", first, None).unwrap();
                for round in 0.. {
                    assert!(round < 10, "{name} {you} {order}: the game did not end: {v}");
                    if v["message"].is_string() {
                        break;
                    }
                    assert_eq!(v["turn"], "you", "{v}");
                    // The person plays its lowest legal move.
                    let r = reply(rules, code, v["colouring"].as_str().unwrap(), me, None).unwrap();
                    let w = r.moves[0].vertex;
                    v = page.settle(
                        "document.querySelector('#board g.v[data-v=\"' + arguments[0] + '\"]').dispatchEvent(new MouseEvent('click', {bubbles: true}));",
                        vec![Value::from(w)],
                    )
                    .await;
                }
                games += 1;
                if shot.is_none() {
                    shot = Some(page.c.screenshot().await.unwrap());
                }
                // Every solver move is colplay's, and keeps a won position won
                // by `solve col --json`'s outcome.
                let line = line_of(&v);
                let c0 = ".".repeat(7);
                for (i, (w, side)) in line.iter().enumerate() {
                    let s = Side::parse(side).unwrap();
                    assert_eq!(s, if i % 2 == 0 { first } else { first.other() });
                    let who = v["line"][i][2].as_str().unwrap();
                    assert_eq!(who == "you", s == me, "{v}");
                    if who != "solver" {
                        continue;
                    }
                    let before = colour_line(&c0, &line, i);
                    let want = reply(rules, code, &before, s, None).unwrap();
                    assert_eq!(want.reply, Some(*w), "{name} {before} {side}: {v}");
                    let after = colour_line(&c0, &line, i + 1);
                    let o: Value = serde_json::from_str(
                        ok(&["solve", name, code, "--colouring", &after, "--json"]).trim(),
                    )
                    .unwrap();
                    let keeps = match s {
                        Side::Left => o["outcome"] == "L" || o["outcome"] == "P",
                        Side::Right => o["outcome"] == "R" || o["outcome"] == "P",
                    };
                    assert_eq!(keeps, want.mover_wins, "{name} {after}: {o}");
                    solver_moves += 1;
                }
                // The one who cannot move lost; the solver wins whatever was
                // won for it at the start.
                let last = colour_line(&c0, &line, line.len());
                let to_move = if line.len().is_multiple_of(2) { first } else { first.other() };
                assert!(reply(rules, code, &last, to_move, None).unwrap().reply.is_none());
                let solver_won = to_move == me;
                assert_eq!(v["outcome"], if solver_won { "loss" } else { "win" }, "{v}");
                // Nobody is to move once the game is over.
                assert_eq!(v["turn_text"], "Game over.", "{v}");
                if start.mover_wins != (first == me) {
                    assert!(solver_won, "{name} {you} {order}: the solver lost a won game: {v}");
                }
                // Step back twice, then replay from the start.
                let n = line.len() as u64;
                page.step("document.getElementById('nav-back').click();").await;
                let b = page.step("document.getElementById('nav-back').click();").await;
                assert_eq!((b["at"].as_u64(), b["len"].as_u64()), (Some(n - 2), Some(n)), "{b}");
                assert_eq!(b["colouring"], colour_line(&c0, &line, line.len() - 2), "{b}");
                assert!(b["message"].is_null(), "{b}");
                // The replay (a move every 400 ms) in two of the four games.
                if (you == "L") == (order == "first") {
                    page.c.execute("document.getElementById('replay').click();", vec![]).await.unwrap();
                    let deadline = Instant::now() + Duration::from_secs(30);
                    let mut seen = Vec::new();
                    let r = loop {
                        let r = page.play().await;
                        seen.push(r["at"].as_u64().unwrap());
                        if r["at"].as_u64() == Some(n) && r["state"] == "ready" {
                            break r;
                        }
                        assert!(Instant::now() < deadline, "the replay did not end: {r}");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    };
                    assert!(seen.contains(&0), "the replay did not start from the start: {seen:?}");
                    assert_eq!(r["colouring"], last, "{r}");
                    assert_eq!(r["outcome"], v["outcome"], "{r}");
                } else {
                    let r = page.step("document.getElementById('nav-end').click();").await;
                    assert_eq!(r["colouring"], last, "{r}");
                }
                // A link to the middle of the game restores the board, the
                // line, the position and the play settings.
                let m = page.step("document.querySelector('#movelist li[data-i=\"1\"]').click();").await;
                assert_eq!(m["at"], 2, "{m}");
                let link = m["link"].as_str().unwrap().to_string();
                assert!(link.contains("at=2") && link.contains(&format!("play={you}")), "{link}");
                let o = page.open(&link).await;
                assert_eq!((&o["at"], &o["len"], &o["line"]), (&m["at"], &m["len"], &m["line"]), "{o}");
                assert_eq!(o["colouring"], colour_line(&c0, &line, 2), "{o}");
                assert!(o["notice"].is_null(), "{o}");
                let ctl = page
                    .c
                    .execute("return [document.getElementById('col-play').checked, document.getElementById('you').value];", vec![])
                    .await
                    .unwrap();
                assert_eq!(ctl, serde_json::json!([true, you]));
            }
        }
        // Bad links: said, and the board shown as far as the link is right.
        for (link, says, moves) in [
            (format!("{url}?game=col&g={}&m=0,0", enc(&col)), "move 2 of the link: vertex 0 is already blue", 1),
            (format!("{url}?game=col&g={}&m=0,2,1", enc(&col)), "move 3 of the link: vertex 1 cannot be blue: it is adjacent to blue vertex 0", 2),
            (format!("{url}?game=chess&g={}", enc(&col)), "unknown game", 0),
            (format!("{url}?g={}&path=0,5", enc(&col)), "5 is not a move: it is not adjacent to the token on 0", 1),
            (format!("{url}?game=myopic&g={}&m=x&at=9", enc(&tree)), "are not a list of vertices", 0),
        ] {
            let v = page.open(&link).await;
            let n = v["notice"].as_str().unwrap_or_else(|| panic!("{link}: nothing said: {v}"));
            assert!(n.contains(says), "{link}: {n}");
            assert!(v["vertices"].as_u64().unwrap() > 0, "{link}: no board: {v}");
            assert_eq!(v["len"], moves, "{link}: {v}");
        }
        // A link that names no board: said, and a board shown.
        let v = page.open(&format!("{url}?game=col")).await;
        assert!(v["notice"].as_str().is_some_and(|n| n.contains("names no board")), "{v}");
        assert!(v["vertices"].as_u64().unwrap() > 0, "{v}");

        // UVG, the solver moving first on the Petersen graph: it puts the
        // token on the winning start of least remoteness and moves.
        let pet = preset_code(&url, "petersen")["code"].as_str().unwrap().to_string();
        page.open(&format!("{url}?g={}", enc(&pet))).await;
        let mut v = page
            .settle(
                "const f = document.getElementById('solver-first'); f.checked = true; f.dispatchEvent(new Event('change'));",
                vec![],
            )
            .await;
        let starts: Vec<_> = (0..10)
            .map(|s| gamesweep::board::play::reply(&pet, &[], s, None).unwrap())
            .collect();
        let best = (0..10)
            .filter(|&s| starts[s].mover_wins)
            .min_by_key(|&s| (starts[s].remoteness, s))
            .unwrap();
        let line = line_of(&v);
        assert_eq!(line.len(), 2, "{v}");
        assert_eq!(line[0].0, best, "{v}");
        assert_eq!(Some(line[1].0), starts[best].reply, "{v}");
        assert!(v["line"].as_array().unwrap().iter().all(|e| e[2] == "solver"), "{v}");
        // Values hidden while playing: no value, winner or suggestion shows;
        // shown again when unticked.
        const SHOWN: &str = "return ['value', 'winner', 'reply', 'moves'].map(id => document.getElementById(id).offsetParent !== null)
            .concat([Array.from(document.querySelectorAll('#board text.val')).some(t => getComputedStyle(t).display !== 'none')]);";
        assert_eq!(page.c.execute(SHOWN, vec![]).await.unwrap(), serde_json::json!([true, true, true, true, true]));
        page.c
            .execute("const h = document.getElementById('hide'); h.checked = true; h.dispatchEvent(new Event('change'));", vec![])
            .await
            .unwrap();
        assert_eq!(page.c.execute(SHOWN, vec![]).await.unwrap(), serde_json::json!([false, false, false, false, false]));
        assert!(page.play().await["link"].as_str().unwrap().contains("hide=1"));
        // Play on (values hidden) to the end: the solver wins.
        for round in 0.. {
            assert!(round < 10, "the UVG game did not end: {v}");
            if v["message"].is_string() {
                break;
            }
            let path: Vec<usize> = line_of(&v).iter().map(|x| x.0).collect();
            let r = gamesweep::board::play::reply(&pet, &path[..path.len() - 1], path[path.len() - 1], None).unwrap();
            v = page
                .settle(
                    "document.querySelector('#board g.v[data-v=\"' + arguments[0] + '\"]').dispatchEvent(new MouseEvent('click', {bubbles: true}));",
                    vec![Value::from(r.moves[0].vertex)],
                )
                .await;
        }
        assert_eq!(v["outcome"], "loss", "{v}");
        assert!(v["message"].as_str().unwrap().contains("the solver wins"), "{v}");
        // The hidden values survive a link; unticked, they show again.
        let o = page.open(v["link"].as_str().unwrap()).await;
        assert_eq!(o["line"], v["line"], "{o}");
        assert_eq!(page.c.execute(SHOWN, vec![]).await.unwrap()[3], false);
        page.c
            .execute("const h = document.getElementById('hide'); h.checked = false; h.dispatchEvent(new Event('change'));", vec![])
            .await
            .unwrap();
        assert_eq!(page.c.execute(SHOWN, vec![]).await.unwrap()[3], true);
        // An illegal UVG move is explained, not ignored.
        page.open(&format!("{url}?g={}&path=0", enc(&pet))).await;
        let far = (0..10).find(|&w| w != 0 && !graph6::decode(&pet).unwrap().1.iter().any(|&(a, b)| (a, b) == (0, w) || (a, b) == (w, 0))).unwrap();
        page.c
            .execute(
                "document.querySelector('#board g.v[data-v=\"' + arguments[0] + '\"]').dispatchEvent(new MouseEvent('click', {bubbles: true}));",
                vec![Value::from(far)],
            )
            .await
            .unwrap();
        let n = page.play().await;
        assert!(n["notice"].as_str().is_some_and(|t| t.contains("not adjacent to the token on 0")), "{n}");
        eprintln!(
            "explore play: {games} Col games, {solver_moves} solver moves checked, in {:.1} s",
            started.elapsed().as_secs_f64()
        );
        page.c.close().await.unwrap();
        shot
    });
    let png = png.expect("a screenshot");
    assert!(png.starts_with(b"\x89PNG"), "not a PNG");
    std::fs::write(d.join("explore-play.png"), &png).unwrap();
    if std::env::var("GAMESWEEP_EXPLORE_SCREENSHOT").as_deref() == Ok("1") {
        let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/explore-play.png");
        std::fs::write(&docs, &png).unwrap();
        eprintln!("wrote {} ({} bytes)", docs.display(), png.len());
    }
}

// ---- game graphs: levels, labels, legend, a sum's pair table ----

/// In a browser, an acyclic game is drawn by level (every move
/// goes down, each level the longest line of moves left, recomputed here
/// from `solve gamegraph --json`), a long name is shortened in its box and
/// whole in its `<title>` and the table, the legend's swatches have the
/// positions' colours, and a declared sum's pair table is the CLI's.
#[test]
#[ignore = "needs chromium"]
fn game_graphs_by_level_with_a_legend_and_the_pair_table_in_a_browser() {
    let started = Instant::now();
    let (chromium, driver) = browser::browser_or_fail("the game-graph browser test");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (_p, url) = explore(d, &[]);
    let b = browser::Browser::start(&chromium, &driver, d);
    let examples = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/examples"));
    b.rt.block_on(async {
        let c = b.client(d, 1000, 800).await;
        c.goto(&url).await.unwrap();
        // Solve `text` (an example's name, or a file's text) and wait for it.
        let solve = |example: Option<&'static str>, text: Option<&'static str>| {
            let c = c.clone();
            async move {
                let seq = c
                    .execute("return Number(document.body.dataset.ggSeq || 0);", vec![])
                    .await
                    .unwrap()
                    .as_u64()
                    .unwrap();
                let js = match example {
                    Some(_) => "const s = document.getElementById('gg-example');
                         const o = Array.from(s.options).find(o => o.textContent === arguments[0]);
                         s.value = o.value; s.dispatchEvent(new Event('change'));",
                    None => "document.getElementById('gg-text').value = arguments[0];
                         document.getElementById('gg-solve').click();",
                };
                let arg = example.or(text).unwrap();
                c.execute(js, vec![Value::from(arg)]).await.unwrap();
                let deadline = Instant::now() + Duration::from_secs(30);
                loop {
                    let now = c
                        .execute("return Number(document.body.dataset.ggSeq || 0);", vec![])
                        .await
                        .unwrap();
                    if now.as_u64().unwrap() > seq {
                        break;
                    }
                    assert!(Instant::now() < deadline, "the game graph did not show");
                    tokio::time::sleep(Duration::from_millis(30)).await;
                }
            }
        };
        const PICTURE: &str = r#"
const g = document.querySelector('#gg-out .gg-game');
return {
  boxes: Array.from(g.querySelectorAll('svg g.v')).map(v => ({
    i: Number(v.dataset.i), level: v.dataset.level === undefined ? null : Number(v.dataset.level),
    y: Number(v.dataset.y), title: v.querySelector('title').textContent,
    label: v.querySelector('text.label').textContent, position: v.dataset.position,
    fill: getComputedStyle(v.querySelector('rect')).fill, cls: v.getAttribute('class') })),
  arcs: Array.from(g.querySelectorAll('svg line.edge')).map(l => [Number(l.dataset.from), Number(l.dataset.to)]),
  listed: Array.from(g.querySelectorAll('table.gg-table tr[data-position] td:first-child')).map(t => t.textContent),
  legend: Array.from(document.querySelectorAll('#gg-legend li[data-class]')).map(li =>
    [li.dataset.class, getComputedStyle(li.querySelector('rect')).fill]),
};"#;
        // Grundy's game: acyclic, drawn by level.
        solve(Some("grundys-game.game"), None).await;
        let p = c.execute(PICTURE, vec![]).await.unwrap();
        let f = examples.join("grundys-game.game");
        let want: Value = serde_json::from_str(&ok(&["solve", "gamegraph", f.to_str().unwrap(), "--json"])).unwrap();
        let table = want["games"][0]["table"].as_array().unwrap();
        let at = |s: &str| table.iter().position(|r| r["position"] == s).unwrap();
        // Levels recomputed: positions in reverse file order need not be
        // topological, so relax until nothing changes (at most n rounds).
        let mut level = vec![0u64; table.len()];
        for _ in 0..=table.len() {
            for (v, r) in table.iter().enumerate() {
                let h = r["moves"].as_array().unwrap().iter().map(|m| level[at(m.as_str().unwrap())] + 1).max().unwrap_or(0);
                level[v] = h;
            }
        }
        let boxes = p["boxes"].as_array().unwrap();
        assert_eq!(boxes.len(), table.len());
        for b in boxes {
            let i = b["i"].as_u64().unwrap() as usize;
            assert_eq!(b["position"], table[i]["position"]);
            assert_eq!(b["level"].as_u64(), Some(level[i]), "{b}");
            assert!(b["title"].as_str().unwrap().starts_with(table[i]["position"].as_str().unwrap()));
        }
        let arcs = p["arcs"].as_array().unwrap();
        let moves: usize = table.iter().map(|r| r["moves"].as_array().unwrap().len()).sum();
        assert_eq!(arcs.len(), moves);
        for a in arcs {
            let (u, v) = (a[0].as_u64().unwrap() as usize, a[1].as_u64().unwrap() as usize);
            assert!(level[u] > level[v], "{a}");
            assert!(boxes[u]["y"].as_f64() < boxes[v]["y"].as_f64(), "a move drawn upwards: {a}");
        }
        // Legend: one swatch per outcome class, in the positions' colours.
        let legend: Vec<(String, String)> = p["legend"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| (x[0].as_str().unwrap().to_string(), x[1].as_str().unwrap().to_string()))
            .collect();
        for class in ["first", "second", "draw"] {
            assert!(legend.iter().any(|(c, _)| c == class), "{class} not in the legend: {legend:?}");
        }
        for b in boxes {
            let class = b["cls"].as_str().unwrap().split(' ').nth(1).unwrap();
            let sw = legend.iter().find(|(c, _)| c == class).unwrap();
            assert_eq!(b["fill"].as_str().unwrap(), sw.1, "{b}");
        }
        // A long name: shortened in its box, whole in its title and the table.
        let long = "a-position-with-a-very-long-name";
        solve(None, Some("game long\na-position-with-a-very-long-name -> z\nend\n")).await;
        let p = c.execute(PICTURE, vec![]).await.unwrap();
        let b = p["boxes"].as_array().unwrap().iter().find(|b| b["position"] == long).unwrap().clone();
        let label = b["label"].as_str().unwrap();
        assert!(label.contains('…') && label.chars().count() < long.len(), "{b}");
        assert!(b["title"].as_str().unwrap().starts_with(&format!("{long}:")), "{b}");
        assert!(p["listed"].as_array().unwrap().iter().any(|x| x == long), "{p}");
        // A declared sum: the pair table's cells are the CLI's.
        solve(Some("sum.game"), None).await;
        let t = c
            .execute(
                "const t = document.querySelector('#gg-out table.gg-pairs');
                 return t && { caption: document.getElementById(t.getAttribute('aria-labelledby')).textContent,
                   columns: Array.from(t.querySelectorAll('thead th')).slice(1).map(h => h.textContent),
                   rows: Array.from(t.querySelectorAll('tbody th')).map(h => h.textContent),
                   cells: Array.from(t.querySelectorAll('tbody tr')).map(r => Array.from(r.querySelectorAll('td')).map(d => d.textContent)) };",
                vec![],
            )
            .await
            .unwrap();
        assert!(t.is_object(), "no pair table in the page");
        let (caption, columns, rows, cells, _) = cli_pair_table(&examples.join("sum.game"));
        assert_eq!(t["caption"], caption.as_str());
        assert_eq!(t["columns"], serde_json::json!(columns));
        assert_eq!(t["rows"], serde_json::json!(rows));
        assert_eq!(t["cells"], serde_json::json!(cells));
        c.close().await.unwrap();
    });
    eprintln!(
        "explore game graphs in a browser: {:.1} s",
        started.elapsed().as_secs_f64()
    );
}
