//! `gamesweep solve gamegraph FILE`: everything the module computes, for one
//! game file, as a [`SolveReport`] (readable via `Display`, machine-readable
//! via `Serialize`).
//!
//! Only reading the file can fail; a computation that does not apply (Grundy
//! numbers of a cyclic game, minimax without payoffs, a kernel search over
//! budget) is recorded in the report with the reason.

use super::kernel::{find_kernel, kernel_acyclic, KernelSearch};
use super::label::{good_moves, grundy, outcomes, outcomes_acyclic, reverse_topological_order};
use super::minimax::minimax;
use super::parse::{parse, Format, GameFile};
use super::sum::{pair_index, sum_graph, sum_grundy};
use super::{GameGraph, GameGraphError, Outcome, SinkLabel};
use serde::Serialize;
use std::fmt;

/// Branching budget of the exact kernel search in reports, for a game with
/// `positions` positions: a branch costs up to linear time, so the budget
/// shrinks with the size (1,000,000 for small games, at least 1,000).
pub fn kernel_branch_limit(positions: usize) -> u64 {
    (50_000_000 / (positions as u64 + 1)).clamp(1_000, 1_000_000)
}

/// Widest pair table (columns) that `Display` prints; JSON has all of it.
pub const DISPLAY_MAX_COLUMNS: usize = 40;

/// Everything computed for one game file.
#[derive(Clone, Debug, Serialize)]
pub struct SolveReport {
    /// One report per game, in file order.
    pub games: Vec<GameReport>,
    /// The sum, if the file declares one.
    pub sum: Option<SumReport>,
}

/// One position's row.
#[derive(Clone, Debug, Serialize)]
pub struct PositionRow {
    /// Name.
    pub position: String,
    /// Names of the positions it moves to.
    pub moves: Vec<String>,
    /// Its label, if it is a sink.
    pub sink: Option<SinkLabel>,
    /// I / II / draw.
    pub outcome: Outcome,
    /// Moves that keep the outcome (to a II from an I, to a draw from a draw).
    pub good_moves: Vec<String>,
    /// Grundy number (normal-play acyclic games only).
    pub grundy: Option<u32>,
    /// Member of the reported kernel? (absent if no kernel was found)
    pub in_kernel: Option<bool>,
    /// Negamax label: payoff of the player who moved into this position
    /// (only when the game has payoffs and is acyclic).
    pub minimax: Option<i64>,
}

/// Position counts per outcome class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct OutcomeCounts {
    /// Type I positions.
    pub first: usize,
    /// Type II positions.
    pub second: usize,
    /// Draws.
    pub draw: usize,
}

/// The kernel part of a report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum KernelReport {
    /// Acyclic digraph: its unique kernel (greedy, reverse topological order).
    Unique {
        /// The kernel's positions.
        members: Vec<String>,
    },
    /// Digraph with cycles: a kernel found by exact search (others may exist).
    Found {
        /// The kernel's positions.
        members: Vec<String>,
        /// Branching decisions the search made.
        branches: u64,
    },
    /// Exhaustive search proved there is no kernel.
    None {
        /// Branching decisions the search made (0: propagation alone).
        branches: u64,
    },
    /// The search budget ran out; the question is open.
    GaveUp {
        /// The budget.
        branches: u64,
    },
}

impl KernelReport {
    /// The kernel's members, if one was found.
    pub fn members(&self) -> Option<&[String]> {
        match self {
            KernelReport::Unique { members } | KernelReport::Found { members, .. } => Some(members),
            _ => None,
        }
    }
}

/// The report for one game.
#[derive(Clone, Debug, Serialize)]
pub struct GameReport {
    /// The game's name.
    pub name: String,
    /// Number of positions.
    pub positions: usize,
    /// Number of moves.
    pub moves: usize,
    /// No directed cycle?
    pub acyclic: bool,
    /// One directed cycle, if there is any.
    pub cycle: Option<Vec<String>>,
    /// Every sink a `win` sink?
    pub normal_play: bool,
    /// The declared start position.
    pub start: Option<String>,
    /// Its outcome.
    pub start_outcome: Option<Outcome>,
    /// How many positions of each class.
    pub counts: OutcomeCounts,
    /// Why there are no Grundy numbers (cyclic or not normal play).
    pub grundy_unavailable: Option<String>,
    /// The kernel of the move digraph.
    pub kernel: KernelReport,
    /// Did the game have payoffs, and were minimax labels computed?
    pub minimax_computed: bool,
    /// Why minimax labels are missing although the game has payoffs.
    pub minimax_unavailable: Option<String>,
    /// One row per position, in file order.
    pub table: Vec<PositionRow>,
}

/// The report for a sum of two games.
#[derive(Clone, Debug, Serialize)]
pub struct SumReport {
    /// Left summand.
    pub left: String,
    /// Right summand.
    pub right: String,
    /// Positions of the left summand (the table's rows).
    pub left_positions: Vec<String>,
    /// Positions of the right summand (the table's columns).
    pub right_positions: Vec<String>,
    /// Why (part of) the sum could not be computed.
    pub unavailable: Option<String>,
    /// Positions of the product graph.
    pub positions: usize,
    /// Moves of the product graph.
    pub moves: usize,
    /// Grundy numbers of the left summand.
    pub left_grundy: Option<Vec<u32>>,
    /// Grundy numbers of the right summand.
    pub right_grundy: Option<Vec<u32>>,
    /// `grundy_table[u][v]`: Grundy number of (u, v), computed on the product graph.
    pub grundy_table: Option<Vec<Vec<u32>>>,
    /// Pairs whose Grundy number differs from the XOR of the parts (Sprague–Grundy: none).
    pub xor_mismatches: Option<Vec<[String; 2]>>,
    /// `outcome_table[u][v]`: outcome of (u, v) on the product graph (retrograde analysis).
    pub outcome_table: Vec<Vec<Outcome>>,
    /// The II pairs (second player wins), row-major.
    pub second_player_wins: Vec<[String; 2]>,
    /// The pair of start positions, if both games declare one.
    pub start: Option<[String; 2]>,
    /// Its outcome.
    pub start_outcome: Option<Outcome>,
}

/// What the cells of a [`PairTable`] hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PairCells {
    /// The Grundy number of the pair, with `!` where it differs from the
    /// XOR of the parts' (Sprague–Grundy: never).
    Grundy,
    /// The pair's outcome symbol (`I`, `II`, `*`): the sum has no Grundy
    /// numbers (a cyclic part, or not normal play).
    Outcome,
}

/// A declared sum's pair table, cell for cell as `solve gamegraph` prints
/// it (the boards show the same one).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PairTable {
    /// What the cells hold.
    pub cells_are: PairCells,
    /// The line above the table (rows, columns, how to read a cell).
    pub caption: String,
    /// Column headings: the right summand's positions (`name [g]` with
    /// Grundy numbers), the first [`PairTable::columns`]`.len()` of them.
    pub columns: Vec<String>,
    /// Row headings: the left summand's positions, likewise.
    pub rows: Vec<String>,
    /// `cells[u][v]`: the pair of row `u` and column `v`.
    pub cells: Vec<Vec<String>>,
    /// Rows of the whole table (more than shown when it was cut).
    pub all_rows: usize,
    /// Columns of the whole table.
    pub all_columns: usize,
}

impl SumReport {
    /// The pair table, at most `max_rows` rows and `max_columns` columns
    /// (the first ones); `None` when the sum's outcomes were not computed.
    pub fn pair_table(&self, max_rows: usize, max_columns: usize) -> Option<PairTable> {
        if self.outcome_table.is_empty() {
            return None;
        }
        let rows = self.left_positions.len().min(max_rows);
        let cols = self.right_positions.len().min(max_columns);
        let grundy = match (&self.grundy_table, &self.left_grundy, &self.right_grundy) {
            (Some(t), Some(l), Some(r)) => Some((t, l, r)),
            _ => None,
        };
        let t = match grundy {
            Some((table, lg, rg)) => PairTable {
                cells_are: PairCells::Grundy,
                caption: format!(
                    "Grundy numbers of the pairs (rows: {}, columns: {}; [g] = Grundy number of the part; ! marks g(u,v) != g(u) xor g(v))",
                    self.left, self.right
                ),
                columns: (0..cols)
                    .map(|v| format!("{} [{}]", self.right_positions[v], rg[v]))
                    .collect(),
                rows: (0..rows)
                    .map(|u| format!("{} [{}]", self.left_positions[u], lg[u]))
                    .collect(),
                cells: (0..rows)
                    .map(|u| {
                        (0..cols)
                            .map(|v| {
                                let bad = table[u][v] != lg[u] ^ rg[v];
                                format!("{}{}", table[u][v], if bad { "!" } else { "" })
                            })
                            .collect()
                    })
                    .collect(),
                all_rows: 0,
                all_columns: 0,
            },
            None => PairTable {
                cells_are: PairCells::Outcome,
                caption: format!(
                    "outcomes of the pairs (rows: {}, columns: {})",
                    self.left, self.right
                ),
                columns: self.right_positions[..cols].to_vec(),
                rows: self.left_positions[..rows].to_vec(),
                cells: (0..rows)
                    .map(|u| {
                        (0..cols)
                            .map(|v| self.outcome_table[u][v].symbol().to_string())
                            .collect()
                    })
                    .collect(),
                all_rows: 0,
                all_columns: 0,
            },
        };
        Some(PairTable {
            all_rows: self.left_positions.len(),
            all_columns: self.right_positions.len(),
            ..t
        })
    }
}

/// Parse `text` (see [`Format`]) and solve every game in it, and the sum if
/// the file declares one. Errors only for unreadable input.
pub fn solve_text(text: &str, format: Format) -> Result<SolveReport, GameGraphError> {
    Ok(solve(&parse(text, format)?))
}

/// [`solve_text`] with the exact kernel search of each cyclic game allowed
/// `kernel_branches` branching decisions (`None`: [`kernel_branch_limit`] of
/// its size); a search that needs more is reported as
/// [`KernelReport::GaveUp`].
pub fn solve_text_with(
    text: &str,
    format: Format,
    kernel_branches: Option<u64>,
) -> Result<SolveReport, GameGraphError> {
    Ok(solve_with(&parse(text, format)?, kernel_branches))
}

/// Solve a parsed game file.
pub fn solve(file: &GameFile) -> SolveReport {
    solve_with(file, None)
}

/// [`solve`] with a kernel search budget (see [`solve_text_with`]).
pub fn solve_with(file: &GameFile, kernel_branches: Option<u64>) -> SolveReport {
    SolveReport {
        games: file
            .games
            .iter()
            .map(|g| solve_game(g, kernel_branches))
            .collect(),
        sum: file
            .sum
            .map(|(a, b)| solve_sum(&file.games[a], &file.games[b])),
    }
}

fn names(g: &GameGraph, vs: impl IntoIterator<Item = usize>) -> Vec<String> {
    vs.into_iter().map(|v| g.name_of(v).to_string()).collect()
}

fn solve_game(g: &GameGraph, kernel_branches: Option<u64>) -> GameReport {
    let cycle = reverse_topological_order(g).err().map(|c| names(g, c));
    let acyclic = cycle.is_none();
    let out = if acyclic {
        outcomes_acyclic(g).expect("acyclic")
    } else {
        outcomes(g)
    };
    let (gr, grundy_unavailable) = match grundy(g) {
        Ok(x) => (Some(x), None),
        Err(e) => (None, Some(e.to_string())),
    };
    let (kernel, in_kernel) = if acyclic {
        let k = kernel_acyclic(g).expect("acyclic");
        let members = names(g, (0..g.len()).filter(|&v| k[v]));
        (KernelReport::Unique { members }, Some(k))
    } else {
        let limit = kernel_branches.unwrap_or_else(|| kernel_branch_limit(g.len()));
        match find_kernel(g, limit) {
            Ok(KernelSearch::Found { kernel, branches }) => {
                let members = names(g, (0..g.len()).filter(|&v| kernel[v]));
                (KernelReport::Found { members, branches }, Some(kernel))
            }
            Ok(KernelSearch::NoKernel { branches }) => (KernelReport::None { branches }, None),
            Err(_) => (KernelReport::GaveUp { branches: limit }, None),
        }
    };
    let (mm, minimax_unavailable) = if g.has_payoffs() {
        match minimax(g) {
            Ok(x) => (Some(x), None),
            Err(e) => (None, Some(e.to_string())),
        }
    } else {
        (None, None)
    };
    let mut counts = OutcomeCounts::default();
    for o in &out {
        match o {
            Outcome::First => counts.first += 1,
            Outcome::Second => counts.second += 1,
            Outcome::Draw => counts.draw += 1,
        }
    }
    let table = (0..g.len())
        .map(|v| PositionRow {
            position: g.name_of(v).to_string(),
            moves: names(g, g.moves(v).iter().copied()),
            sink: g.sink_label(v),
            outcome: out[v],
            good_moves: names(g, good_moves(g, &out, v)),
            grundy: gr.as_ref().map(|x| x[v]),
            in_kernel: in_kernel.as_ref().map(|k| k[v]),
            minimax: mm.as_ref().map(|x| x[v]),
        })
        .collect();
    GameReport {
        name: g.name().to_string(),
        positions: g.len(),
        moves: g.move_count(),
        acyclic,
        cycle,
        normal_play: g.first_non_normal_sink().is_none(),
        start: g.start().map(|s| g.name_of(s).to_string()),
        start_outcome: g.start().map(|s| out[s]),
        counts,
        grundy_unavailable,
        kernel,
        minimax_computed: mm.is_some(),
        minimax_unavailable,
        table,
    }
}

fn solve_sum(left: &GameGraph, right: &GameGraph) -> SumReport {
    let mut r = SumReport {
        left: left.name().to_string(),
        right: right.name().to_string(),
        left_positions: left.names().to_vec(),
        right_positions: right.names().to_vec(),
        unavailable: None,
        positions: 0,
        moves: 0,
        left_grundy: None,
        right_grundy: None,
        grundy_table: None,
        xor_mismatches: None,
        outcome_table: Vec::new(),
        second_player_wins: Vec::new(),
        start: None,
        start_outcome: None,
    };
    let s = match sum_graph(left, right) {
        Ok(s) => s,
        Err(e) => {
            r.unavailable = Some(e.to_string());
            return r;
        }
    };
    let n2 = right.len();
    r.positions = s.len();
    r.moves = s.move_count();
    let out = outcomes(&s);
    r.outcome_table = (0..left.len())
        .map(|u| (0..n2).map(|v| out[pair_index(n2, u, v)]).collect())
        .collect();
    let pair = |u: usize, v: usize| [left.name_of(u).to_string(), right.name_of(v).to_string()];
    r.second_player_wins = (0..left.len())
        .flat_map(|u| (0..n2).map(move |v| (u, v)))
        .filter(|&(u, v)| r.outcome_table[u][v] == Outcome::Second)
        .map(|(u, v)| pair(u, v))
        .collect();
    if let (Some(a), Some(b)) = (left.start(), right.start()) {
        r.start = Some(pair(a, b));
        r.start_outcome = Some(r.outcome_table[a][b]);
    }
    match sum_grundy(left, right) {
        Ok(sg) => {
            r.xor_mismatches = Some(sg.mismatches.iter().map(|&(u, v)| pair(u, v)).collect());
            r.grundy_table = Some(sg.table);
            r.left_grundy = Some(sg.left);
            r.right_grundy = Some(sg.right);
        }
        Err(e) => r.unavailable = Some(e.to_string()),
    }
    r
}

/// Render rows as left-aligned columns separated by two spaces.
fn write_table(f: &mut fmt::Formatter<'_>, rows: &[Vec<String>]) -> fmt::Result {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let width: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for row in rows {
        let mut line = String::new();
        for (c, cell) in row.iter().enumerate() {
            if c + 1 < row.len() {
                // Padded by hand: a `{:<w$}` width over u16::MAX panics.
                line += cell;
                line.extend(std::iter::repeat_n(
                    ' ',
                    width[c] - cell.chars().count() + 2,
                ));
            } else {
                line += cell;
            }
        }
        writeln!(f, "  {}", line.trim_end())?;
    }
    Ok(())
}

fn list(names: &[String], max: usize) -> String {
    if names.is_empty() {
        return "-".into();
    }
    let shown = names
        .iter()
        .take(max)
        .cloned()
        .collect::<Vec<_>>()
        .join(" ");
    if names.len() > max {
        format!("{shown} … (+{})", names.len() - max)
    } else {
        shown
    }
}

/// `n` and `noun`, with an `s` unless `n` is 1: "1 draw", "2 draws".
fn count(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

impl fmt::Display for GameReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "game {}: {}, {}, {}, {}",
            self.name,
            count(self.positions, "position"),
            count(self.moves, "move"),
            if self.acyclic { "acyclic" } else { "cyclic" },
            if self.normal_play {
                "normal play"
            } else {
                "not normal play"
            }
        )?;
        if let Some(c) = &self.cycle {
            writeln!(f, "  a cycle: {} -> {}", c.join(" -> "), c[0])?;
        }
        if let (Some(s), Some(o)) = (&self.start, self.start_outcome) {
            writeln!(f, "  start {s}: {o}")?;
        }
        writeln!(
            f,
            "  outcomes: {} of type I, {} of type II, {}",
            self.counts.first,
            self.counts.second,
            count(self.counts.draw, "draw")
        )?;
        let mut header = vec!["position", "moves", "sink", "outcome", "good moves"];
        let has_grundy = self.grundy_unavailable.is_none();
        let has_kernel = self.kernel.members().is_some();
        if has_grundy {
            header.push("grundy");
        }
        if has_kernel {
            header.push("kernel");
        }
        if self.minimax_computed {
            header.push("minimax");
        }
        let mut rows = vec![header.iter().map(|s| s.to_string()).collect::<Vec<_>>()];
        for r in &self.table {
            let mut row = vec![
                r.position.clone(),
                list(&r.moves, 6),
                r.sink.map_or("-".into(), |l| l.to_string()),
                r.outcome.symbol().to_string(),
                list(&r.good_moves, 4),
            ];
            if let Some(g) = r.grundy {
                row.push(g.to_string());
            }
            if let Some(k) = r.in_kernel {
                row.push(if k { "K" } else { "." }.to_string());
            }
            if let Some(m) = r.minimax {
                row.push(m.to_string());
            }
            rows.push(row);
        }
        write_table(f, &rows)?;
        if let Some(why) = &self.grundy_unavailable {
            writeln!(f, "  Grundy numbers: not defined: {why}")?;
        }
        match &self.kernel {
            KernelReport::Unique { members } => writeln!(
                f,
                "  kernel (unique; greedy in reverse topological order): {{{}}}",
                members.join(", ")
            )?,
            KernelReport::Found { members, branches } => writeln!(
                f,
                "  a kernel (exact search, {branches} branching decisions): {{{}}}",
                members.join(", ")
            )?,
            KernelReport::None { branches } => writeln!(
                f,
                "  no kernel: exhaustive search refuted every candidate ({branches} branching decisions)"
            )?,
            KernelReport::GaveUp { branches } => writeln!(
                f,
                "  kernel: unknown (search gave up after {branches} branching decisions)"
            )?,
        }
        if self.minimax_computed {
            writeln!(
                f,
                "  minimax: label = payoff of the player who moved into the position (sinks: given payoff; inner: -max over moves)"
            )?;
        }
        if let Some(why) = &self.minimax_unavailable {
            writeln!(f, "  minimax: not defined: {why}")?;
        }
        Ok(())
    }
}

impl fmt::Display for SumReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "sum {} + {}: {}, {}",
            self.left,
            self.right,
            count(self.positions, "position"),
            count(self.moves, "move")
        )?;
        if let Some(why) = &self.unavailable {
            writeln!(f, "  not fully computed: {why}")?;
        }
        if self.outcome_table.is_empty() {
            return Ok(());
        }
        if let (Some(s), Some(o)) = (&self.start, self.start_outcome) {
            writeln!(f, "  start ({},{}): {o}", s[0], s[1])?;
        }
        let Some(t) = self.pair_table(usize::MAX, DISPLAY_MAX_COLUMNS) else {
            return Ok(());
        };
        writeln!(f, "  {}:", t.caption)?;
        let mut rows = vec![std::iter::once(String::new())
            .chain(t.columns.iter().cloned())
            .collect::<Vec<_>>()];
        rows.extend(t.rows.iter().zip(&t.cells).map(|(name, cells)| {
            std::iter::once(name.clone())
                .chain(cells.iter().cloned())
                .collect()
        }));
        write_table(f, &rows)?;
        if t.columns.len() < t.all_columns {
            writeln!(
                f,
                "  (first {} of {} columns shown; --json has the whole table)",
                t.columns.len(),
                t.all_columns
            )?;
        }
        if let Some(m) = &self.xor_mismatches {
            let pairs = self.left_positions.len() * self.right_positions.len();
            if m.is_empty() {
                writeln!(
                    f,
                    "  Sprague-Grundy check: all {pairs} pairs have g(u,v) = g(u) xor g(v)"
                )?;
            } else {
                writeln!(
                    f,
                    "  Sprague-Grundy check FAILED at {} of {pairs} pairs",
                    m.len()
                )?;
            }
        }
        let p: Vec<String> = self
            .second_player_wins
            .iter()
            .map(|[a, b]| format!("({a},{b})"))
            .collect();
        writeln!(f, "  type II pairs (second player wins): {}", list(&p, 60))
    }
}

impl fmt::Display for SolveReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, g) in self.games.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{g}")?;
        }
        if let Some(s) = &self.sum {
            writeln!(f)?;
            write!(f, "{s}")?;
        }
        Ok(())
    }
}
