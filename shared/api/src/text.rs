//! Text that came from the network, made safe to show: [`quote_prefix`]
//! (a short, escaped prefix for error messages, so an error never echoes a
//! megabyte back or carries a terminal escape sequence) and [`escape`]
//! (every control character of a whole string escaped, for tables and
//! logs). Both binaries and the coordinator's errors use these.

use std::fmt::Write;

/// Characters of a client's text an error message quotes at most.
pub const QUOTE_MAX: usize = 64;

/// `s` with every control character (C0, DEL, C1, and the bidirectional
/// overrides that reorder a terminal line) written as `\n`, `\t`, `\e` or
/// `\u{..}`, and backslashes doubled, so that what a peer sent can be
/// printed without moving the cursor, changing colours or hiding text.
pub fn escape(s: &str) -> String {
    if !s.chars().any(needs_escape) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        push_escaped(&mut out, c);
    }
    out
}

/// `s` with its control characters escaped as [`escape`] does, but its
/// backslashes left as they are: the net under text whose fields were
/// escaped already (it does not escape their escapes again).
pub fn escape_controls(s: &str) -> String {
    if !s.chars().any(|c| c != '\\' && needs_escape(c)) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\\' => out.push(c),
            c => push_escaped(&mut out, c),
        }
    }
    out
}

/// At most [`QUOTE_MAX`] characters of `s`, [`escape`]d, with `…(N bytes)`
/// appended when `s` was longer: what an error message quotes of a name,
/// parameter or text a client sent.
pub fn quote_prefix(s: &str) -> String {
    let mut out = String::new();
    for (taken, c) in s.chars().enumerate() {
        if taken == QUOTE_MAX {
            let _ = write!(out, "…({} bytes)", s.len());
            return out;
        }
        push_escaped(&mut out, c);
    }
    out
}

/// The longest error message a coordinator sends: far below the 8 KiB of
/// headers a gRPC client accepts (a longer one arrived as "Stream removed").
pub const MESSAGE_MAX: usize = 2048;

/// `msg` cut to at most [`MESSAGE_MAX`] bytes (on a character boundary,
/// `…` marking the cut): the last guard on what an error carries back.
pub fn clip(msg: String) -> String {
    if msg.len() <= MESSAGE_MAX {
        return msg;
    }
    let mut end = MESSAGE_MAX - 3;
    while !msg.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &msg[..end])
}

fn needs_escape(c: char) -> bool {
    c.is_control() || c == '\\' || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

fn push_escaped(out: &mut String, c: char) {
    match c {
        '\\' => out.push_str("\\\\"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\u{1b}' => out.push_str("\\e"),
        c if needs_escape(c) => {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
        c => out.push(c),
    }
}

/// A sweep parameter's name as its command-line flag spells it (`max_n` →
/// `max-n`): the one spelling, defined next to the parameters.
pub use gamesweep::sweep::params::flag_name;

/// Parameters as they are typed, in the map's order: `--max-n 10
/// --extension-value 7`.
pub fn flags(params: &gamesweep::sweep::Params) -> String {
    let typed: Vec<String> = params
        .iter()
        .map(|(k, v)| format!("--{} {v}", flag_name(k)))
        .collect();
    typed.join(" ")
}

/// A kind and its parameters as they are typed: `uvg --max-n 10`.
pub fn with_flags(kind: &str, params: &gamesweep::sweep::Params) -> String {
    if params.is_empty() {
        kind.to_string()
    } else {
        format!("{kind} {}", flags(params))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(escape("w-1"), "w-1");
        assert_eq!(escape("a\x1b[31mred\x07"), "a\\e[31mred\\u{7}");
        assert_eq!(escape("x\ny\\"), "x\\ny\\\\");
        assert_eq!(escape("\u{9b}2J\u{202e}"), "\\u{9b}2J\\u{202e}");
        assert!(!escape("\x1b]0;title\x07").chars().any(|c| c.is_control()));
        assert_eq!(escape_controls("a\\e\x1b"), "a\\e\\e");
    }

    #[test]
    fn a_quote_is_short_and_escaped() {
        assert_eq!(quote_prefix("golden"), "golden");
        let long = "é".repeat(500_000);
        let q = quote_prefix(&long);
        assert!(q.len() < 200, "{}", q.len());
        assert!(q.ends_with("…(1000000 bytes)"), "{q}");
        assert_eq!(quote_prefix("a\x1bb"), "a\\eb");
        let clipped = clip("ü".repeat(5000));
        assert!(clipped.len() <= MESSAGE_MAX && clipped.ends_with('…'));
        assert_eq!(clip("short".into()), "short");
    }
}
