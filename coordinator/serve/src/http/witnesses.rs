//! The witnesses and counterexamples a sweep has found so far, as pictures.
//!
//! The dashboard knows no kind: it renders the merge of the results
//! accepted so far into the kind's own `results.json` document (the same
//! rendering a finished sweep gets) and draws the positions the kind
//! presents ([`gamesweep::sweep::Kind::present`]): counterexamples first,
//! then the smallest position of each value, then other collected
//! positions, each with the kind's caption and value ("smallest *5: 10
//! vertices, start 3"). Pictures are drawn by [`gamesweep::draw`] and kept
//! until the sweep's done shards change.
//!
//! Until the sweep is done, a "smallest" position is only the smallest of
//! the shards done so far (the largest shards are leased first, so early on
//! it is far from the true smallest): its caption says "so far" until the
//! sweep is done.

use gamesweep::draw;
use gamesweep::kinds;
use gamesweep::sweep::{Marks, Role, SweepError, SweepKind};
use gamesweep_engine::core::{Core, CoreError};
use serde::Serialize;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Pictures drawn for one sweep at most (counterexamples first).
pub const MAX_PICTURES: usize = 60;

/// A sweep whose done shards changed is drawn again at most this often.
const REDRAW_EVERY: Duration = Duration::from_secs(3);

/// One position the kind presents, drawn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Picture {
    /// What it is, in the kind's words ("smallest *5: 10 vertices, start 3").
    pub caption: String,
    /// Its value in the kind's notation, when it has one.
    pub value: Option<String>,
    /// Why it is shown: the heading of its role ("Counterexamples", ...).
    pub role: &'static str,
    /// The graph (graph6, or digraph6).
    pub graph6: String,
    /// The start vertex marked, if the position has one.
    pub start: Option<u64>,
    /// Its colouring (`L` blue, `R` red, `.` uncoloured), if it has one.
    pub colouring: Option<String>,
    /// A counterexample (the kind's role).
    pub counterexample: bool,
    /// The game of `explore`'s boards that plays it ([`board_of`]): the
    /// `game` of its link.
    pub board: &'static str,
    /// The SVG picture.
    pub svg: String,
}

/// The game of `explore`'s boards that plays a position `kind` presents:
/// the kind's own game when it is a game of the graph-game layer (Node
/// Kayles' witnesses open on Node Kayles' board); otherwise a position on a
/// digraph is Myopic Col's, a colouring Col's and a start UVG's.
pub fn board_of(kind: &str, code: &str, marks: &Marks) -> &'static str {
    if let Ok(game) = kinds::find_game(kind) {
        return game.name();
    }
    match marks {
        _ if code.starts_with('&') => "myopic",
        Marks::Colouring(_) => "col",
        Marks::Start(_) | Marks::None => "uvg",
    }
}

/// What `/api/sweep/{id}/witnesses` returns.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Pictures {
    /// The sweep.
    pub sweep_id: String,
    /// Shards done when drawn.
    pub shards_done: u32,
    /// The pictures, in the kind's drawing order.
    pub pictures: Vec<Picture>,
    /// Positions presented but not drawn (over [`MAX_PICTURES`]).
    pub omitted: usize,
    /// Why nothing could be drawn (the document did not render), if so.
    pub error: Option<String>,
    /// Drawn from the whole sweep (done): the smallest positions are the
    /// sweep's, not only those of the shards done so far.
    pub complete: bool,
}

/// `caption` as shown for a sweep that is not done: a smallest position is
/// only the smallest so far ("smallest 0 so far: 9 vertices, start 3").
pub fn so_far(role: Role, caption: &str) -> String {
    if role != Role::Smallest {
        return caption.to_string();
    }
    match caption.split_once(": ") {
        Some((what, rest)) => format!("{what} so far: {rest}"),
        None => format!("{caption} (so far)"),
    }
}

/// The positions `kind` presents for the `results.json` text `doc`, drawn
/// (at most [`MAX_PICTURES`], in drawing order), and how many were left
/// out. A position that does not decode or is too big to draw is left out.
/// `complete`: the document is the whole sweep's (else smallest positions
/// are captioned "so far", [`so_far`]).
pub fn pictures(
    kind: &dyn SweepKind,
    doc: &str,
    complete: bool,
) -> Result<(Vec<Picture>, usize), SweepError> {
    let presented = kind.present(doc)?;
    let mut out = Vec::new();
    let mut omitted = 0;
    for w in presented.witnesses {
        if out.len() >= MAX_PICTURES {
            omitted += 1;
            continue;
        }
        let (start, colouring) = match &w.marks {
            Marks::Start(v) => (v.first().map(|&s| s as u64), None),
            Marks::Colouring(c) => (None, Some(c.clone())),
            Marks::None => (None, None),
        };
        let caption = if complete {
            w.caption
        } else {
            so_far(w.role, &w.caption)
        };
        let opts = draw::Options {
            size: 140,
            title: Some(format!("{caption} — {}", w.code)),
            ..draw::Options::default()
        };
        let svg = match &w.marks {
            Marks::Start(v) => draw::svg_code(&w.code, v, &opts),
            Marks::Colouring(c) => draw::svg_code_coloured(&w.code, c, &opts),
            Marks::None => draw::svg_code(&w.code, &[], &opts),
        };
        if let Ok(svg) = svg {
            let board = board_of(kind.name(), &w.code, &w.marks);
            out.push(Picture {
                caption,
                value: w.value,
                role: w.role.heading(),
                graph6: w.code,
                start,
                colouring,
                counterexample: w.role == Role::Counterexample,
                board,
                svg,
            });
        }
    }
    Ok((out, omitted))
}

/// The kind a `results.json` text names, and its pictures.
pub fn pictures_of_results(doc: &str) -> Result<(Vec<Picture>, usize), SweepError> {
    #[derive(serde::Deserialize)]
    struct KindOnly {
        kind: String,
    }
    let k: KindOnly = serde_json::from_str(doc).map_err(|e| SweepError::BadResult {
        kind: "?".into(),
        reason: format!("results.json names no kind: {e}"),
    })?;
    pictures(kinds::find(&k.kind)?, doc, true)
}

/// What a sweep's pictures were drawn from: (launch seq, shards done,
/// done), when, and the pictures.
type Drawn = ((u64, u32, bool), Instant, Arc<Pictures>);

/// Pictures drawn, by sweep.
#[derive(Default)]
pub struct Cache {
    entries: Mutex<HashMap<String, Drawn>>,
}

/// Sweeps whose pictures are kept at most.
const MAX_CACHED: usize = 64;

impl Cache {
    /// The pictures of sweep `id` (drawn again when its done shards changed,
    /// at most every [`REDRAW_EVERY`]; at once when it becomes done, which
    /// may happen with no shard more: its verifications ended). Runs on a
    /// blocking thread.
    pub fn get(&self, core: &Core, id: &str) -> Result<Arc<Pictures>, CoreError> {
        let (merged, seq, done) = core.partial(id)?;
        let complete = core
            .status(Some(id))?
            .0
            .first()
            .is_some_and(|s| s.state == gamesweep_engine::core::status::ShownState::Done);
        {
            let e = self.entries.lock().unwrap_or_else(|e| e.into_inner());
            if let Some((key, at, p)) = e.get(id) {
                if *key == (seq, done, complete)
                    || at.elapsed() < REDRAW_EVERY && key.0 == seq && key.2 == complete
                {
                    return Ok(p.clone());
                }
            }
        }
        let k = merged.kind;
        let drawn = k
            .render(&merged.params, &merged.output)
            .and_then(|r| pictures(k.0, &r.results_json, complete));
        let mut p = Pictures {
            sweep_id: id.to_string(),
            shards_done: done,
            complete,
            ..Pictures::default()
        };
        match drawn {
            Ok((pics, omitted)) => {
                p.pictures = pics;
                p.omitted = omitted;
            }
            Err(e) => p.error = Some(e.to_string()),
        }
        let p = Arc::new(p);
        let mut e = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if e.len() >= MAX_CACHED && !e.contains_key(id) {
            e.clear();
        }
        e.insert(
            id.to_string(),
            ((seq, done, complete), Instant::now(), p.clone()),
        );
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn committed(run: &str) -> String {
        std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../runs")
                .join(run)
                .join("results.json"),
        )
        .unwrap()
    }

    #[test]
    fn the_kind_says_what_each_picture_is() {
        let (p, omitted) = pictures_of_results(&committed("uvg")).unwrap();
        assert_eq!(omitted, 0);
        // uvg n <= 9: no exception; the smallest position of values 0..=4,
        // then the extension step's 9 built positions.
        let caps: Vec<(&str, Option<&str>, Option<u64>)> = p
            .iter()
            .map(|x| (x.caption.as_str(), x.value.as_deref(), x.start))
            .collect();
        assert_eq!(caps.len(), 14, "{caps:?}");
        assert!(
            caps[..5].iter().all(|c| c.0.starts_with("smallest ")),
            "{caps:?}"
        );
        assert!(
            caps[5..]
                .iter()
                .all(|c| c.0.starts_with("extension step from n = ")),
            "{caps:?}"
        );
        assert_eq!(caps[4].0, "smallest *4: 8 vertices, start 1");
        assert_eq!(caps[0].1, Some("0"));
        assert_eq!(caps[4].1, Some("*4"));
        assert!(p
            .iter()
            .all(|x| x.svg.starts_with("<svg ") && !x.counterexample));
        assert!(pictures_of_results("{").is_err());
        assert!(pictures_of_results("{\"kind\": \"nope\"}").is_err());
    }

    /// Regression: a witness's board was guessed from its code (digraph6:
    /// Myopic Col, else UVG), so Node Kayles', Snort's and the other
    /// layered games' witnesses opened on UVG's board, directed
    /// geography's on Myopic Col's, and Col's lost their colouring.
    #[test]
    fn each_witness_opens_on_its_kinds_board() {
        for (run, board) in [
            ("uvg", "uvg"),
            ("node-kayles", "node-kayles"),
            ("snort", "snort"),
            ("geography-vertex", "geography-vertex"),
            ("col", "col"),
            ("myopic-digraph", "myopic"),
        ] {
            let (p, _) = pictures_of_results(&committed(run)).unwrap();
            assert!(!p.is_empty(), "{run}: no pictures");
            for x in &p {
                assert_eq!(x.board, board, "{run}: {}", x.caption);
            }
            if board == "col" {
                assert!(p.iter().all(|x| x.colouring.is_some()), "{run}");
            }
        }
        // The game comes from the kind, not the code: the same digraph6 is
        // geography's on a geography sweep and Myopic Col's otherwise.
        let marks = Marks::Start(vec![0]);
        assert_eq!(
            board_of("geography-vertex", "&Bo", &marks),
            "geography-vertex"
        );
        assert_eq!(board_of("myopic-digraph", "&Bo", &marks), "myopic");
        assert_eq!(board_of("uvg-degree3", "Bw", &marks), "uvg");
        assert_eq!(
            board_of("col", "Bw", &Marks::Colouring("L.R".into())),
            "col"
        );
    }

    /// While a sweep runs, its "smallest" positions are only the
    /// smallest of the shards done so far; the captions say so.
    #[test]
    fn a_sweep_not_done_shows_its_smallest_so_far() {
        let doc = committed("uvg");
        let kind = kinds::find("uvg").unwrap();
        let (running, _) = pictures(kind, &doc, false).unwrap();
        let (done, _) = pictures(kind, &doc, true).unwrap();
        assert_eq!(
            running[4].caption,
            "smallest *4 so far: 8 vertices, start 1"
        );
        assert!(running[4].svg.contains("smallest *4 so far: 8 vertices"));
        assert_eq!(done[4].caption, "smallest *4: 8 vertices, start 1");
        // Other witnesses (the extension's) are what they are.
        assert_eq!(running[5].caption, done[5].caption);
        assert_eq!(so_far(Role::Smallest, "smallest 0"), "smallest 0 (so far)");
    }

    #[test]
    fn at_most_max_pictures_are_drawn() {
        // myopic-tree n <= 14 has more smallest positions than are drawn.
        let (p, omitted) = pictures_of_results(&committed("myopic-tree-14")).unwrap();
        assert_eq!(p.len(), MAX_PICTURES);
        assert!(omitted > 0);
        assert!(p.iter().all(|x| x.colouring.is_some() && x.value.is_some()));
    }
}
