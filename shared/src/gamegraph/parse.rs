//! Reading game graphs: the text format and JSON (both documented in
//! `docs/gamegraph-format.md`), and writing them back.
//!
//! Text format, one statement per line, `#` starts a comment:
//!
//! ```text
//! game left          # optional block; without blocks the file is one game
//! start v0           # optional start position
//! v0 -> a, b         # moves (commas or spaces); `x ->` declares x
//! a -> c
//! b c = lose         # sink labels: win (default), lose, draw, or an integer payoff
//! end
//! sum left right     # optional: solve the sum of two blocks
//! ```

use super::{GameGraph, GameGraphError, SinkLabel};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// What went wrong in a game file (wrapped with a line number or JSON path
/// in [`GameGraphError`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    /// A line that is none of the statements.
    #[error("unknown statement `{0}` (expected `game NAME`, `end`, `start POS`, `sum GAME GAME`, `POS -> POS ...` or `POS ... = LABEL`)")]
    UnknownStatement(String),
    /// A keyword with the wrong number of arguments.
    #[error("`{keyword}` takes {expected}, got {got} argument(s)")]
    BadArity {
        /// The keyword.
        keyword: &'static str,
        /// What it takes.
        expected: &'static str,
        /// How many it got.
        got: usize,
    },
    /// A position or game name with a forbidden character.
    #[error(
        "bad name `{0}`: names are non-empty and contain no whitespace, `,`, `#`, `=` or `->`"
    )]
    BadName(String),
    /// A position or game name longer than [`MAX_NAME_BYTES`].
    #[error("name `{start}...` is {len} bytes long; names are at most {MAX_NAME_BYTES} bytes")]
    NameTooLong {
        /// Its first characters.
        start: String,
        /// Its length in bytes.
        len: usize,
    },
    /// `-> b` with nothing on the left.
    #[error("a move needs exactly one position before `->`, got `{0}`")]
    BadMoveSource(String),
    /// `= win` with nothing on the left.
    #[error("`=` needs at least one position on its left")]
    MissingLabelTarget,
    /// A label that is none of the known ones.
    #[error("unknown sink label `{0}` (expected win, lose, draw, or an integer payoff)")]
    UnknownLabel(String),
    /// A payoff outside −(2⁶³−1)..=2⁶³−1.
    #[error("payoff `{0}` is out of range (|payoff| < 2^63)")]
    PayoffOutOfRange(String),
    /// The same position labelled twice.
    #[error("position `{position}` is already labelled (line {first_line})")]
    DuplicateLabel {
        /// The position.
        position: String,
        /// Line of the first label (0 in JSON).
        first_line: usize,
    },
    /// A label on a position that has moves.
    #[error("position `{0}` has moves, but only sinks carry labels")]
    LabelOnInnerPosition(String),
    /// `game` inside a block.
    #[error("`game` inside game `{0}` (missing `end`?)")]
    NestedGame(String),
    /// `end` outside a block.
    #[error("`end` without a matching `game`")]
    EndWithoutGame,
    /// A block that never ends.
    #[error("game `{0}` has no `end`")]
    UnterminatedGame(String),
    /// Two games with one name.
    #[error("game `{0}` is defined twice")]
    DuplicateGame(String),
    /// `sum` naming a game that does not exist.
    #[error("no game named `{0}`")]
    UnknownGame(String),
    /// Two `sum` statements.
    #[error("a second `sum` (the first is on line {0})")]
    DuplicateSum(usize),
    /// Two `start` statements in one game.
    #[error("a second `start` in game `{game}` (the first is on line {first_line})")]
    DuplicateStart {
        /// The game.
        game: String,
        /// Line of the first `start`.
        first_line: usize,
    },
    /// `start` naming a position that does not occur.
    #[error("start position `{0}` does not occur in the game")]
    UnknownStart(String),
    /// Positions, moves or labels outside blocks in a file that has blocks.
    #[error("statement outside a `game ... end` block, but the file uses blocks")]
    OutsideGame,
    /// `sum` inside a block.
    #[error("`sum` belongs outside game blocks")]
    SumInsideGame,
    /// `sum` in a file without named games.
    #[error("`sum` needs two named games (`game NAME ... end` blocks)")]
    SumWithoutGames,
    /// A game without positions.
    #[error("game `{0}` has no positions")]
    EmptyGame(String),
    /// A file without any game.
    #[error("the file contains no game")]
    NoGame,
}

/// A parsed game file: one or more games, and optionally a sum of two of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameFile {
    /// The games, in file order.
    pub games: Vec<GameGraph>,
    /// Indices into `games` of the two summands, if the file declares a sum.
    pub sum: Option<(usize, usize)>,
}

/// Input format for [`parse`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The line-based text format.
    Text,
    /// The JSON format.
    Json,
    /// JSON if the first non-blank character is `{`, else text.
    Auto,
}

/// The default name of the single game of a file without blocks.
pub const DEFAULT_GAME_NAME: &str = "G";

/// The longest position or game name accepted, in bytes.
pub const MAX_NAME_BYTES: usize = 4096;

fn check_name(name: &str) -> Result<(), ParseErrorKind> {
    if name.len() > MAX_NAME_BYTES {
        return Err(ParseErrorKind::NameTooLong {
            start: name.chars().take(20).collect(),
            len: name.len(),
        });
    }
    let bad = name.is_empty()
        || name.contains("->")
        || name
            .chars()
            .any(|c| c.is_whitespace() || matches!(c, ',' | '#' | '='));
    if bad {
        Err(ParseErrorKind::BadName(name.to_string()))
    } else {
        Ok(())
    }
}

fn parse_label(word: &str) -> Result<SinkLabel, ParseErrorKind> {
    match word {
        "win" | "W" => Ok(SinkLabel::Win),
        "lose" | "L" => Ok(SinkLabel::Lose),
        "draw" | "T" => Ok(SinkLabel::Draw),
        _ => {
            let digits = word.strip_prefix(['-', '+']).unwrap_or(word);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(ParseErrorKind::UnknownLabel(word.to_string()));
            }
            match word.parse::<i64>() {
                Ok(p) if p != i64::MIN => Ok(SinkLabel::Payoff(p)),
                _ => Err(ParseErrorKind::PayoffOutOfRange(word.to_string())),
            }
        }
    }
}

/// One game under construction, with the line numbers needed for errors
/// that can only be detected at its end.
struct Builder {
    graph: GameGraph,
    line: usize,
    label_lines: HashMap<usize, usize>,
    start: Option<(String, usize)>,
}

impl Builder {
    fn new(name: &str, line: usize) -> Self {
        Builder {
            graph: GameGraph::new(name),
            line,
            label_lines: HashMap::new(),
            start: None,
        }
    }

    fn add_moves(&mut self, from: &str, to: &[&str]) -> Result<(), ParseErrorKind> {
        check_name(from)?;
        for t in to {
            check_name(t)?;
        }
        let u = self.graph.add_position(from);
        for t in to {
            let v = self.graph.add_position(t);
            self.graph.add_move(u, v);
        }
        Ok(())
    }

    fn add_label(
        &mut self,
        pos: &str,
        label: SinkLabel,
        line: usize,
    ) -> Result<(), ParseErrorKind> {
        check_name(pos)?;
        let v = self.graph.add_position(pos);
        if let Some(&first_line) = self.label_lines.get(&v) {
            return Err(ParseErrorKind::DuplicateLabel {
                position: pos.to_string(),
                first_line,
            });
        }
        self.label_lines.insert(v, line);
        self.graph.set_label(v, label);
        Ok(())
    }

    /// Checks that need the whole game; errors carry the offending line.
    fn finish(mut self) -> Result<GameGraph, (usize, ParseErrorKind)> {
        if self.graph.is_empty() {
            return Err((
                self.line,
                ParseErrorKind::EmptyGame(self.graph.name().to_string()),
            ));
        }
        let inner_label = self
            .label_lines
            .iter()
            .filter(|(&v, _)| !self.graph.is_sink(v))
            .min_by_key(|(_, &line)| line);
        if let Some((&v, &line)) = inner_label {
            let name = self.graph.name_of(v).to_string();
            return Err((line, ParseErrorKind::LabelOnInnerPosition(name)));
        }
        if let Some((name, line)) = &self.start {
            match self.graph.position(name) {
                Some(v) => self.graph.set_start(Some(v)),
                None => return Err((*line, ParseErrorKind::UnknownStart(name.clone()))),
            }
        }
        Ok(self.graph)
    }
}

/// Parse the text format.
pub fn parse_text(text: &str) -> Result<GameFile, GameGraphError> {
    let mut p = TextParser::default();
    for (i, raw) in text.lines().enumerate() {
        let stmt = raw.split('#').next().unwrap_or("").trim();
        if !stmt.is_empty() {
            p.statement(i + 1, stmt)?;
        }
    }
    p.finish()
}

/// A parse error on `line` (1-based; 0 for the file as a whole).
fn err(line: usize, kind: ParseErrorKind) -> GameGraphError {
    GameGraphError::Parse { line, kind }
}

/// The text format read so far, statement by statement.
#[derive(Default)]
struct TextParser {
    /// The games whose blocks have ended.
    games: Vec<GameGraph>,
    /// The open `game NAME` block.
    block: Option<Builder>,
    /// The implicit game of statements outside blocks (a file without blocks).
    top: Option<Builder>,
    /// `sum A B` and its line.
    sum: Option<(String, String, usize)>,
}

impl TextParser {
    /// One non-empty statement on `line`.
    fn statement(&mut self, line: usize, stmt: &str) -> Result<(), GameGraphError> {
        if let Some((left, right)) = stmt.split_once("->") {
            self.moves(line, left, right)
        } else if let Some((left, right)) = stmt.split_once('=') {
            self.labels(line, left, right)
        } else {
            self.keyword(line, stmt)
        }
    }

    /// The game positions, moves, labels and `start` go to: the open block,
    /// or the implicit top-level game when the file has no blocks.
    fn target(&mut self, line: usize) -> Result<&mut Builder, GameGraphError> {
        if self.block.is_none() {
            if !self.games.is_empty() {
                return Err(err(line, ParseErrorKind::OutsideGame));
            }
            self.top
                .get_or_insert_with(|| Builder::new(DEFAULT_GAME_NAME, line));
        }
        Ok(self
            .block
            .as_mut()
            .or(self.top.as_mut())
            .expect("a target game"))
    }

    /// `FROM -> TO, TO, …`
    fn moves(&mut self, line: usize, left: &str, right: &str) -> Result<(), GameGraphError> {
        let b = self.target(line)?;
        let from = left.trim();
        if from.is_empty() || from.contains(|c: char| c.is_whitespace() || c == ',') {
            return Err(err(line, ParseErrorKind::BadMoveSource(from.to_string())));
        }
        let to: Vec<&str> = right
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .collect();
        b.add_moves(from, &to).map_err(|k| err(line, k))
    }

    /// `POS, POS, … = LABEL`
    fn labels(&mut self, line: usize, left: &str, right: &str) -> Result<(), GameGraphError> {
        let b = self.target(line)?;
        let label = parse_label(right.trim()).map_err(|k| err(line, k))?;
        let targets: Vec<&str> = left
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .collect();
        if targets.is_empty() {
            return Err(err(line, ParseErrorKind::MissingLabelTarget));
        }
        for t in targets {
            b.add_label(t, label, line).map_err(|k| err(line, k))?;
        }
        Ok(())
    }

    /// `game NAME`, `end`, `start POS`, `sum A B`.
    fn keyword(&mut self, line: usize, stmt: &str) -> Result<(), GameGraphError> {
        let words: Vec<&str> = stmt.split_whitespace().collect();
        let args = &words[1..];
        let arity = |keyword: &'static str, expected: &'static str, want: usize| {
            if args.len() == want {
                Ok(())
            } else {
                Err(err(
                    line,
                    ParseErrorKind::BadArity {
                        keyword,
                        expected,
                        got: args.len(),
                    },
                ))
            }
        };
        match words[0] {
            "game" => {
                arity("game", "one name", 1)?;
                self.open_game(line, args[0])
            }
            "end" => {
                arity("end", "no arguments", 0)?;
                let b = self
                    .block
                    .take()
                    .ok_or_else(|| err(line, ParseErrorKind::EndWithoutGame))?;
                self.games.push(b.finish().map_err(|(l, k)| err(l, k))?);
                Ok(())
            }
            "start" => {
                arity("start", "one position", 1)?;
                let b = self.target(line)?;
                check_name(args[0]).map_err(|k| err(line, k))?;
                if let Some((_, first_line)) = &b.start {
                    let game = b.graph.name().to_string();
                    let first_line = *first_line;
                    return Err(err(
                        line,
                        ParseErrorKind::DuplicateStart { game, first_line },
                    ));
                }
                b.start = Some((args[0].to_string(), line));
                Ok(())
            }
            "sum" => {
                arity("sum", "two game names", 2)?;
                if self.block.is_some() {
                    return Err(err(line, ParseErrorKind::SumInsideGame));
                }
                if let Some((_, _, first)) = &self.sum {
                    return Err(err(line, ParseErrorKind::DuplicateSum(*first)));
                }
                self.sum = Some((args[0].to_string(), args[1].to_string(), line));
                Ok(())
            }
            _ => Err(err(
                line,
                ParseErrorKind::UnknownStatement(stmt.to_string()),
            )),
        }
    }

    /// `game NAME` on `line`: a new block, outside any other.
    fn open_game(&mut self, line: usize, name: &str) -> Result<(), GameGraphError> {
        if let Some(b) = &self.block {
            let name = b.graph.name().to_string();
            return Err(err(line, ParseErrorKind::NestedGame(name)));
        }
        if let Some(t) = &self.top {
            return Err(err(t.line, ParseErrorKind::OutsideGame));
        }
        check_name(name).map_err(|k| err(line, k))?;
        if self.games.iter().any(|g| g.name() == name) {
            return Err(err(line, ParseErrorKind::DuplicateGame(name.into())));
        }
        self.block = Some(Builder::new(name, line));
        Ok(())
    }

    /// The file: every block ended, the implicit game finished, the sum's
    /// games found.
    fn finish(self) -> Result<GameFile, GameGraphError> {
        let mut games = self.games;
        if let Some(b) = self.block {
            return Err(err(
                b.line,
                ParseErrorKind::UnterminatedGame(b.graph.name().to_string()),
            ));
        }
        if let Some(t) = self.top {
            games.push(t.finish().map_err(|(l, k)| err(l, k))?);
            if let Some((_, _, line)) = self.sum {
                return Err(err(line, ParseErrorKind::SumWithoutGames));
            }
        }
        if games.is_empty() {
            return Err(err(0, ParseErrorKind::NoGame));
        }
        let sum = match self.sum {
            None => None,
            Some((a, b, line)) => {
                let find = |name: &str| {
                    games
                        .iter()
                        .position(|g| g.name() == name)
                        .ok_or_else(|| err(line, ParseErrorKind::UnknownGame(name.to_string())))
                };
                Some((find(&a)?, find(&b)?))
            }
        };
        Ok(GameFile { games, sum })
    }
}

/// A sink label in JSON: `"win"`, `"lose"`, `"draw"` or an integer payoff.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum LabelJson {
    /// `"win"`, `"lose"` or `"draw"` (also `"W"`, `"L"`, `"T"`).
    Word(String),
    /// A payoff to the player entering the sink.
    Payoff(i64),
}

/// One game in JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameJson {
    /// The game's name (default `G`, or `G2`, `G3`, ... for later games).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Positions in order (optional: positions also appear through moves and sinks).
    #[serde(default)]
    pub positions: Vec<String>,
    /// Moves as `[from, to]` pairs.
    #[serde(default)]
    pub moves: Vec<[String; 2]>,
    /// Sink labels by position; unlabelled sinks are `win`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sinks: BTreeMap<String, LabelJson>,
    /// The start position.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
}

/// A whole game file in JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileJson {
    /// The games.
    pub games: Vec<GameJson>,
    /// Names of two games to add, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sum: Option<[String; 2]>,
}

/// Parse the JSON format.
pub fn parse_json(text: &str) -> Result<GameFile, GameGraphError> {
    let file: FileJson = serde_json::from_str(text).map_err(|e| GameGraphError::Json {
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })?;
    let bad = |path: String, kind: ParseErrorKind| GameGraphError::JsonInvalid { path, kind };
    let mut games: Vec<GameGraph> = Vec::new();
    for (gi, gj) in file.games.iter().enumerate() {
        let at = |what: &str| format!("games[{gi}]{what}");
        let name = match &gj.name {
            Some(n) => n.clone(),
            None if gi == 0 => DEFAULT_GAME_NAME.to_string(),
            None => format!("{DEFAULT_GAME_NAME}{}", gi + 1),
        };
        check_name(&name).map_err(|k| bad(at(".name"), k))?;
        if games.iter().any(|g| g.name() == name) {
            return Err(bad(at(".name"), ParseErrorKind::DuplicateGame(name)));
        }
        let mut b = Builder::new(&name, 0);
        for (i, p) in gj.positions.iter().enumerate() {
            b.add_moves(p, &[])
                .map_err(|k| bad(at(&format!(".positions[{i}]")), k))?;
        }
        for (i, [u, v]) in gj.moves.iter().enumerate() {
            b.add_moves(u, &[v])
                .map_err(|k| bad(at(&format!(".moves[{i}]")), k))?;
        }
        for (p, l) in &gj.sinks {
            let here = || at(&format!(".sinks.{p}"));
            let label = match l {
                LabelJson::Word(w) => parse_label(w).and_then(|l| match l {
                    SinkLabel::Payoff(_) => Err(ParseErrorKind::UnknownLabel(w.clone())),
                    l => Ok(l),
                }),
                LabelJson::Payoff(i64::MIN) => {
                    Err(ParseErrorKind::PayoffOutOfRange(i64::MIN.to_string()))
                }
                LabelJson::Payoff(x) => Ok(SinkLabel::Payoff(*x)),
            }
            .map_err(|k| bad(here(), k))?;
            b.add_label(p, label, 0).map_err(|k| bad(here(), k))?;
        }
        if let Some(s) = &gj.start {
            check_name(s).map_err(|k| bad(at(".start"), k))?;
            b.start = Some((s.clone(), 0));
        }
        let g = b.finish().map_err(|(_, k)| {
            let what = match &k {
                ParseErrorKind::LabelOnInnerPosition(p) => format!(".sinks.{p}"),
                ParseErrorKind::UnknownStart(_) => ".start".to_string(),
                _ => String::new(),
            };
            bad(at(&what), k)
        })?;
        games.push(g);
    }
    if games.is_empty() {
        return Err(bad("games".into(), ParseErrorKind::NoGame));
    }
    let sum = match &file.sum {
        None => None,
        Some([a, b]) => {
            let find = |name: &str, i: usize| {
                games.iter().position(|g| g.name() == name).ok_or_else(|| {
                    bad(
                        format!("sum[{i}]"),
                        ParseErrorKind::UnknownGame(name.into()),
                    )
                })
            };
            Some((find(a, 0)?, find(b, 1)?))
        }
    };
    Ok(GameFile { games, sum })
}

/// Parse either format; [`Format::Auto`] looks at the first non-blank character.
pub fn parse(text: &str, format: Format) -> Result<GameFile, GameGraphError> {
    let json = match format {
        Format::Text => false,
        Format::Json => true,
        Format::Auto => text.trim_start().starts_with('{'),
    };
    if json {
        parse_json(text)
    } else {
        parse_text(text)
    }
}

impl GameFile {
    /// The file in the text format (parses back to an equal `GameFile`).
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let blocks =
            self.games.len() > 1 || self.sum.is_some() || self.games[0].name() != DEFAULT_GAME_NAME;
        for g in &self.games {
            if blocks {
                out += &format!("game {}\n", g.name());
            }
            if let Some(s) = g.start() {
                out += &format!("start {}\n", g.name_of(s));
            }
            // Positions are numbered by first appearance, so declare (`x ->`)
            // any position a move line would otherwise introduce out of order.
            let mut declared = 0;
            for v in 0..g.len() {
                let last = g.moves(v).iter().copied().chain([v]).max().unwrap_or(v);
                if last > v || declared < v {
                    while declared <= last {
                        out += &format!("{} ->\n", g.name_of(declared));
                        declared += 1;
                    }
                }
                if !g.moves(v).is_empty() || declared <= v {
                    let to: Vec<&str> = g.moves(v).iter().map(|&w| g.name_of(w)).collect();
                    out += &format!("{} -> {}\n", g.name_of(v), to.join(" "));
                    declared = declared.max(v + 1);
                }
            }
            for v in 0..g.len() {
                match g.sink_label(v) {
                    Some(SinkLabel::Win) | None => {}
                    Some(l) => out += &format!("{} = {l}\n", g.name_of(v)),
                }
            }
            if blocks {
                out += "end\n";
            }
        }
        if let Some((a, b)) = self.sum {
            out += &format!("sum {} {}\n", self.games[a].name(), self.games[b].name());
        }
        out
    }

    /// The file in the JSON format (parses back to an equal `GameFile`).
    pub fn to_json(&self) -> FileJson {
        let games = self
            .games
            .iter()
            .map(|g| GameJson {
                name: Some(g.name().to_string()),
                positions: g.names().to_vec(),
                moves: (0..g.len())
                    .flat_map(|v| {
                        g.moves(v)
                            .iter()
                            .map(move |&w| [g.name_of(v).to_string(), g.name_of(w).to_string()])
                    })
                    .collect(),
                sinks: (0..g.len())
                    .filter_map(|v| match g.sink_label(v)? {
                        SinkLabel::Win => None,
                        SinkLabel::Payoff(p) => {
                            Some((g.name_of(v).to_string(), LabelJson::Payoff(p)))
                        }
                        l => Some((g.name_of(v).to_string(), LabelJson::Word(l.to_string()))),
                    })
                    .collect(),
                start: g.start().map(|s| g.name_of(s).to_string()),
            })
            .collect();
        FileJson {
            games,
            sum: self.sum.map(|(a, b)| {
                [
                    self.games[a].name().to_string(),
                    self.games[b].name().to_string(),
                ]
            }),
        }
    }
}
