//! What a kind shows besides its report text, as typed data: charts, the
//! positions worth drawing with their role, value and caption, and the order
//! of its values. A kind produces a [`Presentation`] from its own document
//! ([`super::Kind::present`]); the report's figures and the dashboard draw
//! only this, so no face outside `shared` needs to know what a kind's
//! `results.json` means. Plain data: no plotting, no SVG (that is the
//! report crate's job).

use std::cmp::Ordering;

/// One line of a chart: (x, y) points, x ascending.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Series {
    /// Legend text.
    pub name: String,
    /// The points; a y of 0 is left out on a log scale.
    pub points: Vec<(u64, u64)>,
}

/// The shape of a chart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plot {
    /// Lines over x, log-scale y.
    Lines(Vec<Series>),
    /// Bars at x, log-scale y.
    Bars(Vec<(u64, u64)>),
}

/// A chart to draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chart {
    /// File stem (`figures/STEM.svg`).
    pub stem: String,
    /// Title (drawn in the chart, and the link text).
    pub title: String,
    /// The x axis.
    pub x_label: String,
    /// The y axis.
    pub y_label: String,
    /// The data.
    pub plot: Plot,
}

impl Chart {
    /// A line chart (log-scale y).
    pub fn lines(stem: &str, title: &str, x: &str, y: &str, series: Vec<Series>) -> Chart {
        Chart {
            stem: stem.into(),
            title: title.into(),
            x_label: x.into(),
            y_label: y.into(),
            plot: Plot::Lines(series),
        }
    }
    /// A bar chart (log-scale y).
    pub fn bars(stem: &str, title: &str, x: &str, y: &str, bars: Vec<(u64, u64)>) -> Chart {
        Chart {
            stem: stem.into(),
            title: title.into(),
            x_label: x.into(),
            y_label: y.into(),
            plot: Plot::Bars(bars),
        }
    }
}

/// How a drawn position is marked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Marks {
    /// Start vertices (the token).
    Start(Vec<usize>),
    /// A colouring: `L` blue, `R` red, `.` uncoloured, one per vertex.
    Colouring(String),
    /// Nothing marked.
    None,
}

/// Why a position is shown; also the drawing order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// A counterexample: a claim's exception, a non-cold position, engines
    /// that disagree.
    Counterexample,
    /// The smallest position of a value.
    Smallest,
    /// Another position the kind collects (best found by a search, an
    /// extension's witness).
    Collected,
}

impl Role {
    /// The heading a list of positions of this role goes under.
    pub fn heading(self) -> &'static str {
        match self {
            Role::Counterexample => "Counterexamples",
            Role::Smallest => "Smallest position of each value",
            Role::Collected => "Other witnesses",
        }
    }
}

/// A position a kind shows, with what it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Witness {
    /// Why it is shown.
    pub role: Role,
    /// graph6, or digraph6 (`&…`).
    pub code: String,
    /// Its marks (start, colouring).
    pub marks: Marks,
    /// Its value in the kind's notation (`*5`, `-1/2*`, `P`), when it has one.
    pub value: Option<String>,
    /// What it is, for a person: "smallest *5: 10 vertices, start 3".
    pub caption: String,
    /// Size (vertices, edges) when the kind knows it, else (0, 0).
    pub size: (u32, u32),
}

/// Everything a kind shows besides its report text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Presentation {
    /// Charts, in order.
    pub charts: Vec<Chart>,
    /// Positions, by role (stable: the kind's order within a role).
    pub witnesses: Vec<Witness>,
}

impl Presentation {
    /// Sort the witnesses into drawing order: by role, keeping the kind's
    /// order within a role (counterexamples smallest first, the smallest
    /// positions in value order).
    pub fn sorted(mut self) -> Self {
        self.witnesses.sort_by_key(|w| w.role);
        self
    }
}

/// A value of a short partizan game as the kinds print it, read for
/// ordering: a number `x`, `x*` (= x + *), `*` (= 0 + *), or anything else.
#[derive(Clone, Debug, PartialEq, Eq)]
enum ValueKey<'a> {
    /// `num / den` (den > 0, a power of two for dyadic rationals), and
    /// whether `*` is added.
    Number { num: i128, den: i128, star: bool },
    /// Not a number or number plus star: after every number, by text.
    Other(&'a str),
}

fn value_key(s: &str) -> ValueKey<'_> {
    let (body, star) = match s.strip_suffix('*') {
        Some(b) => (b, true),
        None => (s, false),
    };
    if body.is_empty() {
        return if star {
            ValueKey::Number {
                num: 0,
                den: 1,
                star: true,
            }
        } else {
            ValueKey::Other(s)
        };
    }
    let (n, d) = match body.split_once('/') {
        Some((n, d)) => (n, d),
        None => (body, "1"),
    };
    match (n.parse::<i128>(), d.parse::<i128>()) {
        (Ok(num), Ok(den)) if den > 0 && num.unsigned_abs() < 1 << 60 && den < 1 << 60 => {
            ValueKey::Number { num, den, star }
        }
        _ => ValueKey::Other(s),
    }
}

/// The order of game values in tables: numbers by size, `x` before `x*`;
/// then everything else by text. `*` is `0*`, so it follows `0`. A total
/// order, consistent with equality of the texts.
pub fn cmp_game_values(a: &str, b: &str) -> Ordering {
    match (value_key(a), value_key(b)) {
        (
            ValueKey::Number {
                num: an,
                den: ad,
                star: astar,
            },
            ValueKey::Number {
                num: bn,
                den: bd,
                star: bstar,
            },
        ) => (an * bd)
            .cmp(&(bn * ad))
            .then(astar.cmp(&bstar))
            .then_with(|| a.cmp(b)),
        (ValueKey::Number { .. }, ValueKey::Other(_)) => Ordering::Less,
        (ValueKey::Other(_), ValueKey::Number { .. }) => Ordering::Greater,
        (ValueKey::Other(x), ValueKey::Other(y)) => x.cmp(y),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_values_sort_by_size_then_star() {
        let mut v = vec![
            "*", "-1", "-1*", "-1/16", "-11/2", "0", "1/2", "1/2*", "-3/2", "2", "{1|0}", "10",
        ];
        v.sort_by(|a, b| cmp_game_values(a, b));
        assert_eq!(
            v,
            vec![
                "-11/2", "-3/2", "-1", "-1*", "-1/16", "0", "*", "1/2", "1/2*", "2", "10", "{1|0}"
            ]
        );
    }

    #[test]
    fn the_order_is_total_on_odd_texts() {
        // Equal numbers spelled differently stay distinct and ordered by text.
        assert_eq!(cmp_game_values("1/2", "2/4"), Ordering::Less);
        assert_eq!(cmp_game_values("", "*"), Ordering::Greater);
        assert_eq!(cmp_game_values("1/0", "1"), Ordering::Greater);
        assert_eq!(cmp_game_values("x", "x"), Ordering::Equal);
    }

    #[test]
    fn witnesses_sort_by_role_keeping_the_kinds_order() {
        let w = |role, size| Witness {
            role,
            code: String::new(),
            marks: Marks::None,
            value: None,
            caption: String::new(),
            size,
        };
        let p = Presentation {
            charts: Vec::new(),
            witnesses: vec![
                w(Role::Collected, (1, 0)),
                w(Role::Smallest, (5, 4)),
                w(Role::Counterexample, (7, 6)),
                w(Role::Smallest, (3, 2)),
            ],
        }
        .sorted();
        let got: Vec<_> = p.witnesses.iter().map(|w| (w.role, w.size)).collect();
        assert_eq!(
            got,
            vec![
                (Role::Counterexample, (7, 6)),
                (Role::Smallest, (5, 4)),
                (Role::Smallest, (3, 2)),
                (Role::Collected, (1, 0)),
            ]
        );
    }
}
