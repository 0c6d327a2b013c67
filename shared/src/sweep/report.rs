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

/// `n` vertices, in words: "1 vertex", "10 vertices".
pub fn vertices(n: impl Into<u64>) -> String {
    match n.into() {
        1 => "1 vertex".into(),
        n => format!("{n} vertices"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
