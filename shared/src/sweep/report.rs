//! Small helpers shared by the kinds' report renderers.

/// `1234567` → `"1,234,567"`, for reports.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// Nimber notation: `0`, `*`, `*2`, …
pub fn nim(v: u64) -> String {
    match v {
        0 => "0".into(),
        1 => "*".into(),
        k => format!("*{k}"),
    }
}

/// `n` (with thousands separators) and `noun`, in the plural unless `n` is
/// 1: "1 shard", "2 shards", "1 vertex", "3 vertices", "4,096 shards".
pub fn plural(n: u64, noun: &str) -> String {
    if n == 1 {
        return format!("1 {noun}");
    }
    let many = match noun {
        "vertex" => "vertices".to_string(),
        n if n.ends_with('s') || n.ends_with('x') => format!("{n}es"),
        n => format!("{n}s"),
    };
    format!("{} {many}", thousands(n))
}

/// `n` vertices, in words: "1 vertex", "10 vertices".
pub fn vertices(n: impl Into<u64>) -> String {
    plural(n.into(), "vertex")
}

/// A code span of `s` as CommonMark allows any text in one: fenced by at
/// least `min_fence` backticks and by one more than the longest run of
/// backticks in `s`, padded with a space each side when `pad` or when `s`
/// holds a backtick (CommonMark strips one space each side, so the text
/// reads back exactly); in a table `cell`, `|` is escaped as `\|` (GFM
/// reads a bare `|` as a cell border even inside a code span).
fn span(s: &str, min_fence: usize, pad: bool, cell: bool) -> String {
    let longest = s.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(min_fence.max(longest + 1));
    let pad = if pad || longest > 0 { " " } else { "" };
    let body = if cell {
        s.replace('|', "\\|")
    } else {
        s.to_string()
    };
    format!("{fence}{pad}{body}{pad}{fence}")
}

/// A Markdown code span of a board code (graph6 and digraph6 use every
/// character from `?` to `~`, backtick included): `` `Bw` ``, and
/// ``` `` G~o`C? `` ``` when the code holds a backtick.
pub fn md_code(s: &str) -> String {
    span(s, 1, false, false)
}

/// [`md_code`] for a Markdown table cell: `|` escaped too.
pub fn md_code_cell(s: &str) -> String {
    span(s, 1, false, true)
}

/// A code span fenced by two backticks and padded (`` `` Er`? `` ``), as
/// the UVG reports write graph6, for a table cell (`|` escaped); longer
/// fences when the code holds a run of two backticks.
pub fn md_code_wide_cell(s: &str) -> String {
    span(s, 2, true, true)
}

/// [`md_code_wide_cell`] outside a table (`|` left as it is).
pub fn md_code_wide(s: &str) -> String {
    span(s, 2, true, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression: a code with a backtick (`G~o`C?`) broke the Col tables
    /// (single-backtick spans); a `|` would split a table cell.
    #[test]
    fn code_spans_hold_any_board_code() {
        assert_eq!(md_code("Bw"), "`Bw`");
        assert_eq!(md_code("G~o`C?"), "`` G~o`C? ``");
        assert_eq!(md_code("`A``"), "``` `A`` ```");
        assert_eq!(md_code("A|B"), "`A|B`");
        assert_eq!(md_code_cell("A|B"), "`A\\|B`");
        assert_eq!(md_code_wide_cell("Er`?"), "`` Er`? ``");
        assert_eq!(md_code_wide_cell("@"), "`` @ ``");
        assert_eq!(md_code_wide_cell("E``?"), "``` E``? ```");
        assert_eq!(md_code_wide("A|B"), "`` A|B ``");
    }

    #[test]
    fn formats() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(1234567), "1,234,567");
        assert_eq!(thousands(100), "100");
        assert_eq!(nim(0), "0");
        assert_eq!(nim(1), "*");
        assert_eq!(nim(12), "*12");
    }
}
