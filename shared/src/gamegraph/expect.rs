//! A game file's `# expect` comment lines, checked against what
//! [`super::solve_text_with`] computes (`gamesweep solve gamegraph FILE
//! --check`):
//!
//! ```text
//! # expect GAME POSITION grundy N
//! # expect GAME POSITION outcome I|II|draw
//! ```
//!
//! `GAME` is a game's name in the file, `POSITION` one of its positions;
//! `I` is a first-player win, `II` a second-player win (`*` may stand for
//! `draw`).

use super::solve::SolveReport;
use super::Outcome;
use serde::Serialize;
use std::fmt;

/// What one `# expect` line says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Expected {
    /// The position's Grundy value.
    Grundy(u32),
    /// The position's outcome class.
    Outcome(Outcome),
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expected::Grundy(g) => write!(f, "grundy {g}"),
            Expected::Outcome(o) => write!(f, "outcome {}", outcome_word(*o)),
        }
    }
}

fn outcome_word(o: Outcome) -> &'static str {
    match o {
        Outcome::First => "I",
        Outcome::Second => "II",
        Outcome::Draw => "draw",
    }
}

/// One `# expect` line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Expectation {
    /// 1-based line number in the file.
    pub line: usize,
    /// The game's name.
    pub game: String,
    /// The position's name.
    pub position: String,
    /// What the line expects.
    pub expected: Expected,
}

/// A malformed `# expect` line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {why} (the form is `# expect GAME POSITION grundy N` or `# expect GAME POSITION outcome I|II|draw`)")]
pub struct ExpectSyntaxError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub why: String,
}

/// The `# expect` lines of a game file, in order.
pub fn expectations(text: &str) -> Result<Vec<Expectation>, ExpectSyntaxError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let Some(rest) = raw.trim_start().strip_prefix("# expect") else {
            continue;
        };
        if !rest.is_empty() && !rest.starts_with(char::is_whitespace) {
            continue; // `# expected …`: an ordinary comment
        }
        let line = i + 1;
        let bad = |why: String| ExpectSyntaxError { line, why };
        let w: Vec<&str> = rest.split_whitespace().collect();
        let [game, position, what, value] = w[..] else {
            return Err(bad(format!("{} words after `# expect`, not 4", w.len())));
        };
        let expected = match what {
            "grundy" => Expected::Grundy(
                value
                    .parse()
                    .map_err(|_| bad(format!("`{value}` is not a Grundy value")))?,
            ),
            "outcome" => Expected::Outcome(match value {
                "I" => Outcome::First,
                "II" => Outcome::Second,
                "draw" | "*" => Outcome::Draw,
                v => return Err(bad(format!("`{v}` is not an outcome (I, II or draw)"))),
            }),
            w => return Err(bad(format!("`{w}`: expected `grundy` or `outcome`"))),
        };
        out.push(Expectation {
            line,
            game: game.into(),
            position: position.into(),
            expected,
        });
    }
    Ok(out)
}

/// One expectation and what the solver computed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Checked {
    /// The expectation.
    #[serde(flatten)]
    pub expectation: Expectation,
    /// What was computed, in the expectation's terms (`grundy 2`, `outcome
    /// II`), or why nothing could be (no such game or position, no Grundy
    /// value for a cyclic game).
    pub got: String,
    /// Whether it holds.
    pub holds: bool,
}

/// Check every expectation against `report`.
pub fn check(report: &SolveReport, exp: &[Expectation]) -> Vec<Checked> {
    exp.iter()
        .map(|e| {
            let got = match report.games.iter().find(|g| g.name == e.game) {
                None => Err(format!("no game `{}` in the file", e.game)),
                Some(g) => match g.table.iter().find(|r| r.position == e.position) {
                    None => Err(format!(
                        "game `{}` has no position `{}`",
                        e.game, e.position
                    )),
                    Some(row) => match &e.expected {
                        Expected::Grundy(_) => row.grundy.map(Expected::Grundy).ok_or_else(|| {
                            g.grundy_unavailable
                                .clone()
                                .unwrap_or_else(|| "no Grundy value".into())
                        }),
                        Expected::Outcome(_) => Ok(Expected::Outcome(row.outcome)),
                    },
                },
            };
            Checked {
                holds: got.as_ref() == Ok(&e.expected),
                got: got.map_or_else(|why| why, |v| v.to_string()),
                expectation: e.clone(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gamegraph::{solve_text_with, Format};

    const NIM3: &str = "\
game nim-heap
0 ->
1 -> 0
2 -> 0 1
3 -> 0 1 2
end
# expect nim-heap 3 grundy 3
# expect nim-heap 0 outcome II
# expected: an ordinary comment
  # expect nim-heap 2 outcome I
";

    fn report(text: &str) -> SolveReport {
        solve_text_with(text, Format::Auto, None).unwrap()
    }

    #[test]
    fn true_expectations_hold_and_false_ones_say_what_was_computed() {
        let exp = expectations(NIM3).unwrap();
        assert_eq!(exp.len(), 3);
        assert_eq!(exp[2].line, 10);
        assert!(check(&report(NIM3), &exp).iter().all(|c| c.holds));
        let wrong = format!(
            "{NIM3}# expect nim-heap 3 grundy 2\n# expect nim-heap 3 outcome II\n\
             # expect nim-heap 7 outcome I\n# expect nim 0 outcome II\n"
        );
        let got = check(&report(&wrong), &expectations(&wrong).unwrap());
        let failed: Vec<(&str, bool)> = got.iter().map(|c| (c.got.as_str(), c.holds)).collect();
        assert_eq!(
            failed[3..],
            [
                ("grundy 3", false),
                ("outcome I", false),
                ("game `nim-heap` has no position `7`", false),
                ("no game `nim` in the file", false),
            ]
        );
    }

    #[test]
    fn malformed_lines_are_named() {
        for (text, why) in [
            ("# expect g 0 grundy", "3 words"),
            ("# expect g 0 grundy x", "`x` is not a Grundy value"),
            ("# expect g 0 outcome III", "`III` is not an outcome"),
            ("\n# expect g 0 value 1", "line 2: `value`"),
        ] {
            let e = expectations(text).unwrap_err().to_string();
            assert!(e.contains(why), "{text}: {e}");
        }
    }
}
