//! No production function of the workspace is longer than [`MAX_LINES`]
//! lines: a reader who has to hold more than that in mind gets lost, and a
//! function that long is several steps that deserve names.
//!
//! A function's length is counted from the line of its `fn` to the line of
//! its closing brace, matched with comments, strings and character literals
//! left out. Test code is not production code: `tests/` folders, `tests.rs`
//! and `*_test.rs` files, `#[cfg(test)]` items, examples and benchmarks are
//! left out.

use std::path::{Path, PathBuf};

/// The longest a production function may be, in lines.
const MAX_LINES: usize = 150;

/// The source folders of the crates whose code is production code.
const SOURCES: &[&str] = &[
    "shared/src",
    "shared/api/src",
    "proto/src",
    "worker/src",
    "coordinator/src",
    "coordinator/engine/src",
    "coordinator/report/src",
    "coordinator/serve/src",
];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The production `.rs` files under `dir`.
fn production_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if p.is_dir() {
            if !matches!(name.as_str(), "tests" | "examples" | "benches") {
                production_files(&p, out);
            }
        } else if name.ends_with(".rs") && name != "tests.rs" && !name.ends_with("_test.rs") {
            out.push(p);
        }
    }
}

/// `text` with comments removed and the insides of string and character
/// literals blanked (line breaks kept, so line numbers stay), so that every
/// brace left is code.
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    // Newlines of `b[from..to]`, so lines keep their numbers.
    let keep_lines = |out: &mut String, from: usize, to: usize| {
        out.extend(b[from..to].iter().filter(|&&c| c == b'\n').map(|_| '\n'))
    };
    let ident = |i: usize| i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
    while i < b.len() {
        let rest = &b[i..];
        if rest.starts_with(b"//") {
            i += rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len());
        } else if rest.starts_with(b"/*") {
            let (mut depth, start) = (0usize, i);
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            keep_lines(&mut out, start, i);
        } else if let Some(hashes) = raw_string_start(rest).filter(|_| !ident(i)) {
            // r"…", r#"…"#, br"…": no escapes, ends at `"` and the same hashes.
            let open = rest.iter().position(|&c| c == b'"').unwrap() + 1;
            let close = format!("\"{}", "#".repeat(hashes)).into_bytes();
            let end = b[i + open..]
                .windows(close.len())
                .position(|w| w == close.as_slice())
                .map_or(b.len(), |p| i + open + p + close.len());
            out.push_str("\"\"");
            keep_lines(&mut out, i, end);
            i = end;
        } else if b[i] == b'"' {
            let start = i;
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
            keep_lines(&mut out, start, i.min(b.len()));
        } else if b[i] == b'\'' && rest.get(1) == Some(&b'\\') {
            // '\n', '\'', '\u{7b}'
            let end = rest[3..]
                .iter()
                .position(|&c| c == b'\'')
                .map_or(b.len(), |p| i + 3 + p + 1);
            out.push_str("' '");
            i = end;
        } else if let Some(len) = (b[i] == b'\'')
            .then(|| char_literal_len(&rest[1..]))
            .flatten()
        {
            out.push_str("' '");
            i += 1 + len;
        } else {
            // A lifetime's `'` or any other character.
            let len = text[i..].chars().next().map_or(1, char::len_utf8);
            out.push_str(&text[i..i + len]);
            i += len;
        }
    }
    out
}

/// The number of hashes of a raw string starting `s` (`r"`, `r#"`, `br"`).
fn raw_string_start(s: &[u8]) -> Option<usize> {
    let s = s.strip_prefix(b"b").unwrap_or(s);
    let s = s.strip_prefix(b"r")?;
    let hashes = s.iter().take_while(|&&c| c == b'#').count();
    (s.get(hashes) == Some(&b'"')).then_some(hashes)
}

/// After an opening `'`: the length of one character and its closing `'`
/// (`a'`, `{'`, `é'`), or `None` for a lifetime.
fn char_literal_len(s: &[u8]) -> Option<usize> {
    let len = match *s.first()? {
        c if c < 0x80 => 1,
        c if c >= 0xF0 => 4,
        c if c >= 0xE0 => 3,
        _ => 2,
    };
    (s.get(len) == Some(&b'\'')).then_some(len + 1)
}

/// The name of the function a line declares (`fn`, `pub fn`,
/// `pub(crate) const fn`, …), if it does.
fn declared_fn(line: &str) -> Option<&str> {
    let mut words = line.split_whitespace().peekable();
    while let Some(w) = words.next() {
        if w == "fn" {
            let name = words.next()?;
            let end = name
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(name.len());
            return Some(&name[..end]).filter(|n| !n.is_empty());
        }
        let qualifier = w.starts_with("pub")
            || matches!(w, "const" | "async" | "unsafe" | "extern" | "default")
            || w.starts_with('"');
        if !qualifier {
            return None;
        }
    }
    None
}

/// Every production function of `code` (from [`code_only`]) with its
/// length in lines and the line it starts on; `#[cfg(test)]` items skipped.
fn functions(code: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = code.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim_start().starts_with("#[cfg(test)]") {
            i = item_end(&lines, i + 1) + 1;
            continue;
        }
        if let Some(name) = declared_fn(lines[i]) {
            let end = item_end(&lines, i);
            if lines[i..=end].iter().any(|l| l.contains('{')) {
                out.push((name.to_string(), end - i + 1, i + 1));
            }
        }
        i += 1;
    }
    out
}

/// The last line of the item starting on line `from`: where its first brace
/// closes, or its `;` when it ends before any brace opens.
fn item_end(lines: &[&str], from: usize) -> usize {
    let mut depth = 0i64;
    let mut opened = false;
    for (k, l) in lines.iter().enumerate().skip(from) {
        for c in l.chars() {
            match c {
                '{' => {
                    depth += 1;
                    opened = true;
                }
                '}' => depth -= 1,
                ';' if !opened && depth == 0 => return k,
                _ => {}
            }
            if opened && depth == 0 {
                return k;
            }
        }
    }
    lines.len() - 1
}

#[test]
fn no_production_function_is_longer_than_the_limit() {
    let root = workspace();
    let mut files = Vec::new();
    for dir in SOURCES {
        production_files(&root.join(dir), &mut files);
    }
    files.sort();
    assert!(files.len() > 100, "found only {} source files", files.len());
    let mut long = Vec::new();
    for f in &files {
        let rel = f
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let code = code_only(&std::fs::read_to_string(f).unwrap());
        for (name, len, line) in functions(&code) {
            if len <= MAX_LINES {
                continue;
            }
            long.push(format!("{rel}:{line}: fn {name} is {len} lines"));
        }
    }
    assert!(
        long.is_empty(),
        "production functions longer than {MAX_LINES} lines (split them where a reader gets lost):\n{}",
        long.join("\n")
    );
}

/// The counter itself, on code whose braces hide in strings, characters and
/// comments, with a test module to skip.
#[test]
fn lengths_are_counted_by_matching_braces_in_code_only() {
    let src = r####"
pub(crate) fn a() -> &'static str {
    let s = "}}}"; // }
    let r = r#"{"#;
    let c = '}';
    /* { */
    s
}

fn b<'x>(x: &'x str) -> char { '{' }

#[cfg(test)]
mod tests {
    fn c() {
    }
}

fn d();
"####;
    let found = functions(&code_only(src));
    assert_eq!(
        found,
        [("a".to_string(), 7, 2), ("b".to_string(), 1, 10)],
        "{}",
        code_only(src)
    );
}
