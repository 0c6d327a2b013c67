//! Solver version per kind: the logic behind `$OUT_DIR/kind_versions.rs`.
//!
//! Included by `build.rs` (which writes the table) and by
//! `tests/kind_version.rs` (which tests it on real and synthetic trees), so
//! it uses nothing but `std`.
//!
//! # What a kind's version covers, and why that is enough
//!
//! The crate is cut into *units*: every top-level module (`graph`, `gen`,
//! `uvg`, `cgt`, `col`, `gamegraph`, `bft`, `fxhash`, `sweep`, ...), the
//! crate root (`lib.rs`), and below [`SPLIT`] modules (`kinds`) every child on
//! its own (`kinds/uvg`, `kinds/col`, ...) plus the parent file itself (the
//! registry). A kind's unit is the one holding its `source_file()`.
//!
//! 1. **What is hashed, per file.** Only the code the compiler sees outside
//!    tests: the file is tokenized (string, raw string, byte string and char
//!    literals kept verbatim), comments of every kind are dropped (doc
//!    comments become `#[doc]` attributes, which change no result), runs of
//!    whitespace become one space, and every item, statement, field or arm
//!    under `#[cfg(test)]` is cut (never more than that item: the cut stops at
//!    the item's `;`, its closing `}`, a `,` or a closing bracket, whichever
//!    comes first, so a wrong guess keeps test code in, never drops real
//!    code). Files reached only through `#[cfg(test)] mod x;` are never read.
//!    `include!`-family files are hashed with the file that includes them.
//! 2. **Which files.** A unit depends on another when its code names it:
//!    `crate::`, `super::`, `self::` paths and paths through child modules,
//!    in `use` trees and in code alike. A path to a module itself (`use
//!    crate::kinds;`, globs) depends on every unit below it. Code can also be
//!    changed *from a distance* by an `impl` block elsewhere (inherent methods
//!    or trait impls for a type): an `impl` in unit U for a type defined in
//!    unit V (by name, all candidates; through type aliases) makes V depend
//!    on U; for a type defined nowhere in the crate (`u64`, `Vec<T>`, a type
//!    parameter) the trait's unit depends on U. A `macro_rules!` makes every
//!    unit depend on its unit. The version of unit K hashes every file of
//!    every unit in the transitive closure of K, plus `lib.rs` (crate
//!    attributes), always. Names are matched without real name resolution,
//!    so the closure over-approximates (a name defined in two units counts
//!    for both); it never leaves a unit out whose code the kind can run.
//! 3. **Dependencies.** The external crates named by code in the closure
//!    (`serde_json::`, `rand::`, `use rand_chacha::...`), found in the
//!    `gamesweep` entry of the workspace `Cargo.lock`, and everything they
//!    depend on there (transitively): name, version, source and checksum of
//!    each. Plus `shared/Cargo.toml`'s `[dependencies]` and `[features]`
//!    sections, the workspace's `edition` and its `[workspace.dependencies]`
//!    lines for those crates (features chosen there).
//!
//! # Display-only modules
//!
//! A kind's [`DISPLAY_CHILD`] module (`kinds/KIND/report.rs`, and its
//! children) is a unit of its own that no kind's version hashes, so changing
//! only its report text, figures or captions keeps `kind_version(KIND)`. That
//! is sound because nothing in the version closure can reach it except the
//! bodies of the presentation methods [`DISPLAY_FNS`] (`Kind::report`,
//! `Kind::present`), whose output is report text (`Rendered::report_md`) and
//! figures and captions (`Presentation`) only, which no run, merge, encode,
//! document, validate or recount reads; the build *refuses*
//! (fails with a message naming the file) every other way in:
//!
//! * a path to the display module (`report::…`, `super::report`,
//!   `crate::kinds::KIND::report`, `use report::*`) anywhere in versioned code
//!   outside those method bodies (a bare `report::` path in a kind's files
//!   counts even when no module of that name is visible, since a glob import
//!   can make it nameable; a glob import of the kind module itself does not
//!   reach into `report`);
//! * a call of a presentation method (`.report(` / `::present(` …) in a kind's
//!   versioned code outside those bodies (its text must not feed a result);
//! * an `impl` block in the display module for a type or trait defined
//!   outside it (it could change versioned code from a distance, see 2.),
//!   and a `macro_rules!` in it.
//!
//! Refusing rather than pulling the display module into the version keeps
//! the rule visible: a `report.rs` is display-only or the build says why not,
//! instead of silently becoming part of every version again. The display
//! module itself may import anything of its kind (`use super::*`): that
//! dependency points out of it, so it changes no version.
//!
//! A kind defined outside this crate is not in the table; its version is
//! computed by `gamesweep-build` (`shared/build-helper/`, which includes this file)
//! from its own crate and combined with the whole crate's `BUILD_ID`
//! (`README.md`, "Kinds outside this crate").
//!
//! Not covered: the Rust toolchain, and features switched on for a
//! dependency by *another* package of the same build (Cargo unifies
//! features); the golden tests guard those.

// Each user (build script, test) uses a different part.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Modules whose children are units of their own.
pub const SPLIT: &[&str] = &["kinds", "families"];

/// The [`SPLIT`] module whose children are kinds: each kind's [`DISPLAY_CHILD`]
/// module is a unit of its own, outside the kind's version.
pub const KINDS: &str = "kinds";

/// The child module of a kind (`kinds/uvg/report.rs` and anything below it)
/// that only produces presentation: report text, figures, captions. It is
/// left out of the kind's version (see "Display-only modules" above).
pub const DISPLAY_CHILD: &str = "report";

/// The [`Kind`] methods that only produce presentation, never a result: the
/// only code of a kind's versioned modules allowed to call into its
/// [`DISPLAY_CHILD`]. A method added to this list must be one whose output
/// no run, merge, encode, document, validate or recount code reads.
///
/// [`Kind`]: ../src/sweep/kind.rs
pub const DISPLAY_FNS: &[&str] = &["report", "present"];

/// Top-level modules that only picture results (`draw`, for the
/// coordinator's dashboard; `board`, for `solve` and `explore`). Their declaration in `lib.rs` is left out of
/// the root's hash for every unit whose closure does not reach them, so
/// adding one changes no kind's version. That is sound: a `mod`
/// declaration by itself changes no other code (an `impl` inside the module
/// for a type defined elsewhere puts the module in that type's closure, see
/// 2. above, and then the declaration is hashed too).
pub const DISPLAY_ONLY: &[&str] = &["draw", "board"];

/// The root's tokens for a unit with `closure`: without the declarations
/// (`mod NAME;`, `pub mod NAME;`) of [`DISPLAY_ONLY`] modules it does not reach.
fn root_toks(toks: &[Tok], closure: &BTreeSet<String>) -> Vec<Tok> {
    let mut out: Vec<Tok> = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        let start = usize::from(toks[i].is("pub"));
        let decl = toks.get(i + start).is_some_and(|t| t.is("mod"))
            && toks.get(i + start + 1).is_some_and(|t| {
                DISPLAY_ONLY.contains(&t.text.as_str()) && !closure.contains(&t.text)
            })
            && toks.get(i + start + 2).is_some_and(|t| t.is(";"));
        if decl {
            i += start + 3;
            continue;
        }
        out.push(toks[i].clone());
        i += 1;
    }
    out
}

/// Format tag: bump to change every version (e.g. if this algorithm changes
/// in a way that could previously have missed something).
const TAG: &str = "gamesweep kind version 1";

// ---------------------------------------------------------------- hashing

/// 128 bits from two FNV-1a streams; stable across Rust versions and
/// platforms (std's `DefaultHasher` is not guaranteed to be).
#[derive(Clone)]
pub struct Fnv128(u64, u64);

impl Default for Fnv128 {
    fn default() -> Self {
        Fnv128(0xcbf2_9ce4_8422_2325, 0x6c62_272e_07bb_0142)
    }
}

impl Fnv128 {
    /// Feed `bytes`, length-prefixed (so concatenations cannot collide).
    pub fn put(&mut self, bytes: &[u8]) {
        self.raw(&(bytes.len() as u64).to_le_bytes());
        self.raw(bytes);
    }
    fn raw(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
            self.1 = (self.1 ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    /// 32 hex digits.
    pub fn hex(&self) -> String {
        format!("{:016x}{:016x}", self.0, self.1)
    }
}

// ---------------------------------------------------------------- lexing

/// One token of Rust source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tok {
    /// Its text, verbatim (literals included).
    pub text: String,
    /// Was it preceded by whitespace or a comment?
    pub space: bool,
}

impl Tok {
    fn is(&self, s: &str) -> bool {
        self.text == s
    }
    fn is_ident(&self) -> bool {
        let mut c = self.text.chars();
        match c.next() {
            Some(f) => {
                (f == '_' || f.is_alphabetic()) && c.all(|c| c == '_' || c.is_alphanumeric())
            }
            None => false,
        }
    }
}

fn is_word(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

/// Tokenize Rust source, dropping comments and whitespace. Lenient: invalid
/// input still gives tokens (an unterminated literal runs to the end).
pub fn tokenize(src: &str) -> Vec<Tok> {
    let c: Vec<char> = src.chars().collect();
    let n = c.len();
    let mut out = Vec::new();
    let mut i = 0;
    let mut space = false;
    let push = |out: &mut Vec<Tok>, s: &[char], space: &mut bool| {
        out.push(Tok {
            text: s.iter().collect(),
            space: *space,
        });
        *space = false;
    };
    while i < n {
        let ch = c[i];
        if ch.is_whitespace() {
            space = true;
            i += 1;
        } else if ch == '/' && c.get(i + 1) == Some(&'/') {
            while i < n && c[i] != '\n' {
                i += 1;
            }
            space = true;
        } else if ch == '/' && c.get(i + 1) == Some(&'*') {
            // block comments nest in Rust
            let mut depth = 0;
            while i < n {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            space = true;
        } else if ch == '"' {
            let j = quoted(&c, i, '"');
            push(&mut out, &c[i..j], &mut space);
            i = j;
        } else if ch == '\'' {
            // char literal or lifetime / label
            let j = if c.get(i + 1) == Some(&'\\') {
                quoted(&c, i, '\'')
            } else if c.get(i + 2) == Some(&'\'') {
                i + 3
            } else {
                let mut j = i + 1;
                while j < n && is_word(c[j]) {
                    j += 1;
                }
                j
            };
            push(&mut out, &c[i..j.min(n)], &mut space);
            i = j.min(n);
        } else if is_word(ch) {
            let mut j = i;
            while j < n && is_word(c[j]) {
                j += 1;
            }
            let word: String = c[i..j].iter().collect();
            let raw_prefix = matches!(word.as_str(), "r" | "br" | "cr");
            let str_prefix = matches!(word.as_str(), "b" | "c");
            if raw_prefix && j < n && (c[j] == '"' || c[j] == '#') {
                // raw string r#"..."#, or raw identifier r#name
                let mut k = j;
                while k < n && c[k] == '#' {
                    k += 1;
                }
                if k < n && c[k] == '"' {
                    let hashes = k - j;
                    let mut e = k + 1;
                    loop {
                        if e >= n {
                            break;
                        }
                        if c[e] == '"'
                            && c[e + 1..]
                                .iter()
                                .take(hashes)
                                .filter(|&&h| h == '#')
                                .count()
                                == hashes
                        {
                            e += 1 + hashes;
                            break;
                        }
                        e += 1;
                    }
                    let e = e.min(n);
                    push(&mut out, &c[i..e], &mut space);
                    i = e;
                    continue;
                }
                if word == "r" && k == j + 1 && k < n && is_word(c[k]) {
                    let mut e = k;
                    while e < n && is_word(c[e]) {
                        e += 1;
                    }
                    push(&mut out, &c[i..e], &mut space);
                    i = e;
                    continue;
                }
            }
            if str_prefix && j < n && (c[j] == '"' || (word == "b" && c[j] == '\'')) {
                let e = quoted(&c, j, c[j]);
                push(&mut out, &c[i..e], &mut space);
                i = e;
                continue;
            }
            push(&mut out, &c[i..j], &mut space);
            i = j;
        } else {
            let two: String = c[i..(i + 2).min(n)].iter().collect();
            let len = if matches!(two.as_str(), "::" | "->" | "=>") {
                2
            } else {
                1
            };
            push(&mut out, &c[i..i + len], &mut space);
            i += len;
        }
    }
    out
}

/// End (exclusive) of the literal opened by `q` at `i`, honouring `\` escapes.
fn quoted(c: &[char], i: usize, q: char) -> usize {
    let mut j = i + 1;
    while j < c.len() {
        if c[j] == '\\' {
            j += 2;
        } else if c[j] == q {
            return j + 1;
        } else {
            j += 1;
        }
    }
    c.len()
}

/// The tokens as text: one space wherever the source had whitespace or a comment.
pub fn normalized(toks: &[Tok]) -> String {
    let mut s = String::new();
    for (i, t) in toks.iter().enumerate() {
        if t.space && i > 0 {
            s.push(' ');
        }
        s.push_str(&t.text);
    }
    s
}

// ------------------------------------------------------- cfg(test) items

fn opens(t: &Tok) -> bool {
    matches!(t.text.as_str(), "(" | "[" | "{")
}
fn closes(t: &Tok) -> bool {
    matches!(t.text.as_str(), ")" | "]" | "}")
}

/// Is there an attribute `#[...]` / `#![...]` at `i`? Its end (exclusive)
/// and whether it is exactly `cfg(test)`.
fn attribute(toks: &[Tok], i: usize) -> Option<(usize, bool, bool)> {
    if !toks.get(i)?.is("#") {
        return None;
    }
    let inner = toks.get(i + 1)?.is("!");
    let open = i + 1 + inner as usize;
    if !toks.get(open)?.is("[") {
        return None;
    }
    let mut depth = 0i32;
    let mut j = open;
    while j < toks.len() {
        if opens(&toks[j]) {
            depth += 1;
        } else if closes(&toks[j]) {
            depth -= 1;
            if depth == 0 {
                let body: Vec<&str> = toks[open + 1..j].iter().map(|t| t.text.as_str()).collect();
                return Some((j + 1, inner, body == ["cfg", "(", "test", ")"]));
            }
        }
        j += 1;
    }
    Some((toks.len(), inner, false))
}

/// Remove every item (statement, field, arm) marked `#[cfg(test)]`; `None`
/// if the whole file is `#![cfg(test)]`.
pub fn strip_cfg_test(toks: Vec<Tok>) -> Option<Vec<Tok>> {
    let mut out: Vec<Tok> = Vec::with_capacity(toks.len());
    let mut i = 0;
    let mut depth = 0i32;
    while i < toks.len() {
        if let Some((end, inner, test)) = attribute(&toks, i) {
            if test && inner && depth == 0 {
                return None;
            }
            if test && !inner {
                i = skip_item(&toks, end);
                continue;
            }
            out.extend_from_slice(&toks[i..end]);
            i = end;
            continue;
        }
        if opens(&toks[i]) {
            depth += 1;
        } else if closes(&toks[i]) {
            depth -= 1;
        }
        out.push(toks[i].clone());
        i += 1;
    }
    Some(out)
}

/// The end of the item starting at `i` (after its attributes): never past it.
fn skip_item(toks: &[Tok], mut i: usize) -> usize {
    while let Some((end, _, _)) = attribute(toks, i) {
        i = end;
    }
    let mut depth = 0i32;
    while i < toks.len() {
        let t = &toks[i];
        if opens(t) {
            depth += 1;
        } else if closes(t) {
            depth -= 1;
            if depth < 0 {
                return i; // the enclosing block ends: keep its bracket
            }
            if depth == 0 && t.is("}") {
                return i + 1;
            }
        } else if depth == 0 && (t.is(";") || t.is(",")) {
            return i + 1;
        }
        i += 1;
    }
    i
}

// -------------------------------------------------------- the module tree

/// One source file of the crate as compiled outside tests.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// Path relative to the source root, `/`-separated (`kinds/myopic_tree/validate.rs`).
    pub path: String,
    /// Its module path (`["kinds", "col", "tree"]`; `[]` for the root).
    pub module: Vec<String>,
    /// Tokens, without comments and `#[cfg(test)]` items.
    pub toks: Vec<Tok>,
    /// Contents of files it `include!`s (path, text), hashed with it.
    pub included: Vec<(String, String)>,
}

/// Errors reading the tree (a missing module file).
pub type Error = String;

/// Read the crate whose root is `src/lib.rs` under `root`, following every
/// `mod` declaration outside `#[cfg(test)]`.
pub fn read_tree(root: &Path) -> Result<Vec<SourceFile>, Error> {
    let mut files = Vec::new();
    read_module(root, &root.join("lib.rs"), Vec::new(), true, &mut files)?;
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(files)
}

fn rel(root: &Path, p: &Path) -> String {
    p.strip_prefix(root)
        .unwrap_or(p)
        .to_string_lossy()
        .replace('\\', "/")
}

fn read_module(
    root: &Path,
    file: &Path,
    module: Vec<String>,
    mod_rs: bool,
    files: &mut Vec<SourceFile>,
) -> Result<(), Error> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let Some(toks) = strip_cfg_test(tokenize(&text)) else {
        return Ok(());
    };
    let dir = file.parent().unwrap_or(root).to_path_buf();
    // Directory of child modules of this file.
    let child_dir = if mod_rs {
        dir.clone()
    } else {
        dir.join(file.file_stem().unwrap_or_default())
    };
    let mut included = Vec::new();
    let mut children = Vec::new();
    // inline modules: (name, brace depth inside)
    let mut inline: Vec<(String, i32)> = Vec::new();
    let mut depth = 0i32;
    let mut path_attr: Option<String> = None;
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        if let Some((end, false, _)) = attribute(&toks, i) {
            // `#[path = "x.rs"]`
            if end - i == 6 && toks[i + 2].is("path") && toks[i + 3].is("=") {
                path_attr = Some(unquote(&toks[i + 4].text));
            }
            i = end;
            continue;
        }
        if t.is("{") {
            depth += 1;
        } else if t.is("}") {
            depth -= 1;
            if inline.last().is_some_and(|(_, d)| *d > depth) {
                inline.pop();
            }
        }
        if t.is("mod") && toks.get(i + 1).is_some_and(Tok::is_ident) {
            let name = toks[i + 1].text.trim_start_matches("r#").to_string();
            let inl: Vec<&str> = inline.iter().map(|(n, _)| n.as_str()).collect();
            match toks.get(i + 2).map(|t| t.text.as_str()) {
                Some(";") => {
                    let p = match path_attr.take() {
                        Some(p) => {
                            let base = if inl.is_empty() {
                                dir.clone()
                            } else {
                                inl.iter().fold(child_dir.clone(), |d, s| d.join(s))
                            };
                            (base.join(p), false)
                        }
                        None => {
                            let base = inl.iter().fold(child_dir.clone(), |d, s| d.join(s));
                            let flat = base.join(format!("{name}.rs"));
                            if flat.is_file() {
                                (flat, false)
                            } else {
                                (base.join(&name).join("mod.rs"), true)
                            }
                        }
                    };
                    let mut m = module.clone();
                    m.extend(inl.iter().map(|s| s.to_string()));
                    m.push(name);
                    children.push((p.0, m, p.1));
                }
                Some("{") => {
                    inline.push((name, depth + 1));
                }
                _ => {}
            }
        }
        if matches!(t.text.as_str(), "include" | "include_str" | "include_bytes")
            && toks.get(i + 1).is_some_and(|t| t.is("!"))
            && toks.get(i + 2).is_some_and(|t| t.is("("))
        {
            if let Some(lit) = toks.get(i + 3).filter(|t| t.text.starts_with('"')) {
                let p = dir.join(unquote(&lit.text));
                let data = std::fs::read(&p).map_err(|e| format!("{}: {e}", p.display()))?;
                included.push((rel(root, &p), String::from_utf8_lossy(&data).into_owned()));
            }
        }
        if t.is(";") || t.is("{") || t.is("}") {
            path_attr = None;
        }
        i += 1;
    }
    files.push(SourceFile {
        path: rel(root, file),
        module,
        toks,
        included,
    });
    for (p, m, mod_rs) in children {
        read_module(root, &p, m, mod_rs, files)?;
    }
    Ok(())
}

fn unquote(lit: &str) -> String {
    lit.trim_matches('"').replace("\\\\", "\\")
}

// ------------------------------------------------------------------ units

/// The unit of a module path: `""` for the root, the first segment, for
/// children of a [`SPLIT`] module the first two (`kinds/uvg`), and for a
/// kind's display module the first three (`kinds/uvg/report`).
pub fn unit_of(module: &[String]) -> String {
    match module {
        [] => String::new(),
        [a, b, c, ..] if a == KINDS && c == DISPLAY_CHILD => format!("{a}/{b}/{c}"),
        [a, b, ..] if SPLIT.contains(&a.as_str()) => format!("{a}/{b}"),
        [a, ..] => a.clone(),
    }
}

/// Is `unit` a kind's display module (`kinds/uvg/report`)?
pub fn is_display_unit(unit: &str) -> bool {
    let mut parts = unit.split('/');
    parts.next() == Some(KINDS)
        && parts.next().is_some()
        && parts.next() == Some(DISPLAY_CHILD)
        && parts.next().is_none()
}

/// The display unit of the kind whose versioned module `module` is in
/// (`kinds/uvg/validate` → `kinds/uvg/report`); `None` outside kinds and
/// inside display modules.
fn kind_display_unit(module: &[String]) -> Option<String> {
    match module {
        [a, b, rest @ ..] if a == KINDS && rest.first().is_none_or(|c| c != DISPLAY_CHILD) => {
            Some(format!("{a}/{b}/{DISPLAY_CHILD}"))
        }
        _ => None,
    }
}

/// Token ranges (opening to closing brace) of the bodies of the
/// presentation methods [`DISPLAY_FNS`] (taking `&self`) in `toks`.
fn display_bodies(toks: &[Tok]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i + 1 < toks.len() {
        // a method (`fn report(&self, …`): a free function of that name is
        // ordinary versioned code
        let method = toks.get(i + 2).is_some_and(|t| t.is("("))
            && toks.get(i + 3).is_some_and(|t| t.is("&"))
            && toks.get(i + 4).is_some_and(|t| t.is("self"));
        if !(toks[i].is("fn") && DISPLAY_FNS.contains(&toks[i + 1].text.as_str()) && method) {
            i += 1;
            continue;
        }
        // the body: the first `{` outside brackets after the name
        let mut j = i + 2;
        let mut nest = 0i32;
        while j < toks.len() {
            let t = &toks[j];
            if t.is("(") || t.is("[") {
                nest += 1;
            } else if t.is(")") || t.is("]") {
                nest -= 1;
            } else if nest == 0 && (t.is("{") || t.is(";")) {
                break;
            }
            j += 1;
        }
        if j >= toks.len() || !toks[j].is("{") {
            i = j;
            continue;
        }
        let mut depth = 0i32;
        let mut k = j;
        while k < toks.len() {
            if toks[k].is("{") {
                depth += 1;
            } else if toks[k].is("}") {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            k += 1;
        }
        out.push((j, k));
        i = k;
    }
    out
}

/// Module tree facts: every module path, its unit.
struct Modules {
    /// module path → unit
    unit: BTreeMap<Vec<String>, String>,
}

impl Modules {
    fn is_module(&self, m: &[String]) -> bool {
        self.unit.contains_key(m)
    }
    /// Every unit of the modules at or below `m`.
    /// Display units below `m` are left out unless `m` is inside one: naming
    /// a kind's module whole (`use super::*`) does not reach its display
    /// module (a `report::` path through such a glob is caught by
    /// [`refs_of`] instead).
    fn subtree(&self, m: &[String]) -> BTreeSet<String> {
        let own = unit_of(m);
        self.unit
            .iter()
            .filter(|(p, u)| p.starts_with(m) && (!is_display_unit(u) || **u == own))
            .map(|(_, u)| u.clone())
            .collect()
    }
    /// Units an absolute path (segments after `crate::`) depends on. `glob`:
    /// the path ends in `::*`.
    fn resolve(&self, segs: &[String], glob: bool) -> BTreeSet<String> {
        let mut d = 0;
        while d < segs.len() && self.is_module(&segs[..d + 1]) {
            d += 1;
        }
        if d == segs.len() || glob {
            // the module itself (and everything below it) is named
            self.subtree(&segs[..d])
        } else {
            BTreeSet::from([self.unit[&segs[..d]].clone()])
        }
    }
}

/// What one file's code refers to.
#[derive(Debug, Default)]
struct Refs {
    units: BTreeSet<String>,
    crates: BTreeSet<String>,
    /// Ways into a display module from versioned code (refused).
    refused: Vec<String>,
}

/// Paths of a `use` tree or code path starting at `i` (a path segment):
/// (segments, glob) each; stops at anything that is not `seg ::`.
fn paths_at(toks: &[Tok], mut i: usize) -> Vec<(Vec<String>, bool)> {
    let mut prefix = Vec::new();
    while let Some(t) = toks.get(i) {
        if t.is("{") {
            let mut out = Vec::new();
            let mut j = i + 1;
            let mut level = 0i32;
            let mut item_start = j;
            // split the group at top-level commas and recurse into each item
            while j < toks.len() {
                let u = &toks[j];
                if u.is("{") {
                    level += 1;
                } else if u.is("}") {
                    if level == 0 {
                        break;
                    }
                    level -= 1;
                } else if u.is(",") && level == 0 {
                    for (p, g) in paths_at(toks, item_start) {
                        out.push((prefix.iter().cloned().chain(p).collect(), g));
                    }
                    item_start = j + 1;
                }
                j += 1;
            }
            if item_start < j {
                for (p, g) in paths_at(toks, item_start) {
                    out.push((prefix.iter().cloned().chain(p).collect(), g));
                }
            }
            if out.is_empty() {
                out.push((prefix, false));
            }
            return out;
        }
        if t.is("*") {
            return vec![(prefix, true)];
        }
        if !t.is_ident() {
            break;
        }
        if !t.is("self") || prefix.is_empty() {
            prefix.push(t.text.clone());
        }
        if toks.get(i + 1).is_some_and(|t| t.is("::")) {
            i += 2;
        } else {
            break;
        }
    }
    vec![(prefix, false)]
}

fn refs_of(file: &SourceFile, mods: &Modules, crates: &BTreeSet<String>) -> Refs {
    let toks = &file.toks;
    let mut r = Refs::default();
    let own = unit_of(&file.module);
    let kind_display = kind_display_unit(&file.module);
    let bodies = if kind_display.is_some() {
        display_bodies(toks)
    } else {
        Vec::new()
    };
    let exempt = |i: usize| bodies.iter().any(|&(a, b)| a <= i && i <= b);
    // Every reference found at token `i` goes through here: display units
    // are dropped inside presentation method bodies and refused elsewhere.
    let keep = |sub: Refs, i: usize, r: &mut Refs| {
        r.crates.extend(sub.crates);
        for u in sub.units {
            if is_display_unit(&u) && u != own {
                if !(exempt(i) && kind_display.as_ref() == Some(&u)) {
                    r.refused.push(format!(
                        "{}: versioned code names the display-only module `{u}` outside {}",
                        file.path,
                        display_fns_text()
                    ));
                }
            } else {
                r.units.insert(u);
            }
        }
    };
    let mut inline: Vec<(String, i32)> = Vec::new();
    let mut depth = 0i32;
    for i in 0..toks.len() {
        let t = &toks[i];
        if t.is("{") {
            depth += 1;
        } else if t.is("}") {
            depth -= 1;
            if inline.last().is_some_and(|(_, d)| *d > depth) {
                inline.pop();
            }
        }
        if t.is("mod") && toks.get(i + 2).is_some_and(|u| u.is("{")) {
            inline.push((toks[i + 1].text.clone(), depth + 1));
        }
        let here: Vec<String> = file
            .module
            .iter()
            .cloned()
            .chain(inline.iter().map(|(n, _)| n.clone()))
            .collect();
        let mut sub = Refs::default();
        // paths in strings, as in `#[serde(deserialize_with = "crate::x::f")]`
        if let Some(body) = t.text.strip_prefix('"').and_then(|b| b.strip_suffix('"')) {
            if body.contains("::") && body.chars().all(|c| is_word(c) || c == ':') {
                let inner = tokenize(body);
                refs_at(&inner, 0, &here, mods, crates, &mut sub);
            }
            keep(sub, i, &mut r);
            continue;
        }
        refs_at(toks, i, &here, mods, crates, &mut sub);
        if let Some(du) = &kind_display {
            let prev = if i > 0 { Some(&toks[i - 1]) } else { None };
            let starts_path = !prev.is_some_and(|p| p.is("::") || p.is("."));
            let next = toks.get(i + 1);
            // `report::x` at the start of a path, resolvable or not (a glob
            // import of the kind module can make `report` nameable).
            if t.is(DISPLAY_CHILD) && starts_path && next.is_some_and(|n| n.is("::")) {
                sub.units.insert(du.clone());
            }
            // a call of a presentation method, `x.report(` or `K::report(`
            let called = prev.is_some_and(|p| p.is(".") || p.is("::"));
            if DISPLAY_FNS.contains(&t.text.as_str())
                && called
                && next.is_some_and(|n| n.is("("))
                && !exempt(i)
            {
                r.refused.push(format!(
                    "{}: versioned code calls the presentation method `{}` outside {}",
                    file.path,
                    t.text,
                    display_fns_text()
                ));
            }
        }
        keep(sub, i, &mut r);
    }
    r
}

/// `the bodies of the presentation methods (report)`, for messages.
fn display_fns_text() -> String {
    format!(
        "the bodies of the presentation methods ({}); move that code out of the display module, or into one of those methods",
        DISPLAY_FNS.join(", ")
    )
}

/// The references of a path starting at token `i`, if one does, from module `here`.
fn refs_at(
    toks: &[Tok],
    i: usize,
    here: &[String],
    mods: &Modules,
    crates: &BTreeSet<String>,
    r: &mut Refs,
) {
    let t = &toks[i];
    let prev = if i > 0 { Some(&toks[i - 1]) } else { None };
    // `::name` at the start of a path: an extern crate
    if t.is("::") && !prev.is_some_and(|p| p.is_ident() || p.is(">") || p.is(")") || p.is("]")) {
        if let Some(n) = toks.get(i + 1).filter(|n| n.is_ident()) {
            r.crates.insert(n.text.clone());
        }
        return;
    }
    if !t.is_ident() || prev.is_some_and(|p| p.is("::")) {
        return;
    }
    let after_use = prev.is_some_and(|p| p.is("use"));
    let followed = toks.get(i + 1).is_some_and(|n| n.is("::"));
    if !followed && !after_use {
        return;
    }
    for (segs, glob) in paths_at(toks, i) {
        let Some(first) = segs.first() else { continue };
        let abs: Option<Vec<String>> = match first.as_str() {
            "crate" => Some(segs[1..].to_vec()),
            "self" => Some(
                here.iter()
                    .cloned()
                    .chain(segs[1..].iter().cloned())
                    .collect(),
            ),
            "super" => {
                let ups = segs.iter().take_while(|s| *s == "super").count();
                let base = &here[..here.len().saturating_sub(ups)];
                Some(
                    base.iter()
                        .cloned()
                        .chain(segs[ups..].iter().cloned())
                        .collect(),
                )
            }
            name => {
                if crates.contains(name) {
                    r.crates.insert(name.to_string());
                }
                let mut child = here.to_vec();
                child.push(name.to_string());
                mods.is_module(&child)
                    .then(|| here.iter().cloned().chain(segs.iter().cloned()).collect())
            }
        };
        if let Some(mut abs) = abs {
            // `use x::{self}` names the module x itself
            if abs.last().is_some_and(|s| s == "self") {
                abs.pop();
            }
            r.units.extend(mods.resolve(&abs, glob));
        }
    }
}

/// Type and trait names a file defines (struct, enum, union, trait, type),
/// with the names an alias stands for.
fn definitions(file: &SourceFile) -> Vec<(String, Vec<String>)> {
    let toks = &file.toks;
    let mut out = Vec::new();
    for i in 0..toks.len() {
        if matches!(
            toks[i].text.as_str(),
            "struct" | "enum" | "union" | "trait" | "type"
        ) && !(i > 0 && toks[i - 1].is("::"))
        {
            if let Some(n) = toks.get(i + 1).filter(|n| n.is_ident()) {
                let mut alias = Vec::new();
                if toks[i].is("type") {
                    let mut j = i + 2;
                    while j < toks.len() && !toks[j].is(";") {
                        if toks[j].is_ident() {
                            alias.push(toks[j].text.clone());
                        }
                        j += 1;
                    }
                }
                out.push((n.text.clone(), alias));
            }
        }
    }
    out
}

/// `impl` blocks (items only, not `impl Trait` types): (trait idents, self-type idents).
fn impls(file: &SourceFile) -> Vec<(Vec<String>, Vec<String>)> {
    let toks = &file.toks;
    let mut out = Vec::new();
    for i in 0..toks.len() {
        if !toks[i].is("impl") {
            continue;
        }
        let item = i == 0
            || matches!(
                toks[i - 1].text.as_str(),
                "}" | ";" | "]" | "{" | "unsafe" | "default"
            );
        if !item {
            continue;
        }
        let mut j = i + 1;
        // generic parameters
        if toks.get(j).is_some_and(|t| t.is("<")) {
            let mut d = 0;
            while j < toks.len() {
                if toks[j].is("<") {
                    d += 1;
                } else if toks[j].is(">") {
                    d -= 1;
                    if d == 0 {
                        j += 1;
                        break;
                    }
                }
                j += 1;
            }
        }
        let mut head = Vec::new();
        let mut tail = Vec::new();
        let mut seen_for = false;
        let mut paren = 0i32;
        while j < toks.len() {
            let t = &toks[j];
            if paren == 0 && (t.is("{") || t.is("where") || t.is(";")) {
                break;
            }
            if t.is("(") || t.is("[") {
                paren += 1;
            } else if t.is(")") || t.is("]") {
                paren -= 1;
            }
            if t.is("for") && !seen_for && !toks.get(j + 1).is_some_and(|n| n.is("<")) {
                seen_for = true;
            } else if t.is_ident() {
                if seen_for { &mut tail } else { &mut head }.push(t.text.clone());
            }
            j += 1;
        }
        if seen_for {
            out.push((head, tail));
        } else {
            out.push((Vec::new(), head));
        }
    }
    out
}

fn has_macro_rules(file: &SourceFile) -> bool {
    file.toks
        .windows(2)
        .any(|w| w[0].is("macro_rules") && w[1].is("!"))
}

/// The dependency analysis of a crate.
#[derive(Debug)]
pub struct Analysis {
    /// The files, by path.
    pub files: Vec<SourceFile>,
    /// unit → the units it depends on directly.
    pub deps: BTreeMap<String, BTreeSet<String>>,
    /// unit → external crates its code names.
    pub crates: BTreeMap<String, BTreeSet<String>>,
    /// Ways into a display-only module from versioned code, one message
    /// each: the build refuses the tree when there is any.
    pub refused: Vec<String>,
}

/// Analyse the tree read by [`read_tree`]; `crates`: the names (with `_`) of
/// the crate's external dependencies.
pub fn analyse(files: Vec<SourceFile>, crates: &BTreeSet<String>) -> Analysis {
    let mods = Modules {
        unit: files
            .iter()
            .flat_map(|f| {
                // inline modules are modules too
                let mut ms = vec![f.module.clone()];
                for w in f.toks.windows(3) {
                    if w[0].is("mod") && w[2].is("{") {
                        let mut m = f.module.clone();
                        m.push(w[1].text.clone());
                        ms.push(m);
                    }
                }
                ms
            })
            .map(|m| {
                let u = unit_of(&m);
                (m, u)
            })
            .collect(),
    };
    let mut deps: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut ext: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut defs: BTreeMap<String, BTreeSet<(String, String)>> = BTreeMap::new(); // name → (unit, file)
    let mut aliases: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut macro_units = BTreeSet::new();
    let mut refused = Vec::new();
    for f in &files {
        let u = unit_of(&f.module);
        let r = refs_of(f, &mods, crates);
        refused.extend(r.refused);
        deps.entry(u.clone()).or_default().extend(r.units);
        ext.entry(u.clone()).or_default().extend(r.crates);
        for (name, alias) in definitions(f) {
            defs.entry(name.clone())
                .or_default()
                .insert((u.clone(), f.path.clone()));
            aliases.entry(name).or_default().extend(alias);
        }
        if has_macro_rules(f) {
            macro_units.insert(u);
        }
    }
    // the units that may define `name` as seen from `file`
    let units_defining = |name: &str, file: &str| -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        let mut todo = vec![name.to_string()];
        let mut seen = BTreeSet::new();
        while let Some(n) = todo.pop() {
            if !seen.insert(n.clone()) {
                continue;
            }
            let Some(ds) = defs.get(&n) else { continue };
            // a name defined in this very file cannot also be imported here
            let local: Vec<&(String, String)> = ds.iter().filter(|(_, f)| f == file).collect();
            let chosen: Vec<&(String, String)> = if local.is_empty() {
                ds.iter().collect()
            } else {
                local
            };
            for (u, _) in chosen {
                out.insert(u.clone());
            }
            if let Some(a) = aliases.get(&n) {
                todo.extend(a.iter().cloned());
            }
        }
        out
    };
    for f in &files {
        let u = unit_of(&f.module);
        for (tr, ty) in impls(f) {
            let mut owners: BTreeSet<String> =
                ty.iter().flat_map(|n| units_defining(n, &f.path)).collect();
            if owners.is_empty() {
                owners = tr.iter().flat_map(|n| units_defining(n, &f.path)).collect();
            }
            for o in owners {
                if o != u {
                    if is_display_unit(&u) {
                        refused.push(format!(
                            "{}: an `impl` in the display-only module `{u}` for `{}` (defined in `{o}`) could change versioned code; move it out of the display module",
                            f.path,
                            ty.join(" ")
                        ));
                    }
                    deps.entry(o).or_default().insert(u.clone());
                }
            }
        }
    }
    for m in macro_units.iter().filter(|m| is_display_unit(m)) {
        refused.push(format!(
            "`{m}`: a `macro_rules!` in a display-only module is visible to versioned code; move it out of the display module"
        ));
    }
    for m in &macro_units {
        for (u, d) in deps.iter_mut() {
            if u != m {
                d.insert(m.clone());
            }
        }
    }
    refused.sort();
    refused.dedup();
    Analysis {
        files,
        deps,
        crates: ext,
        refused,
    }
}

impl Analysis {
    /// Every unit.
    pub fn units(&self) -> BTreeSet<String> {
        self.files.iter().map(|f| unit_of(&f.module)).collect()
    }
    /// The units `unit` depends on, itself included (transitively).
    pub fn closure(&self, unit: &str) -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![unit.to_string()];
        while let Some(u) = todo.pop() {
            if seen.insert(u.clone()) {
                if let Some(d) = self.deps.get(&u) {
                    todo.extend(d.iter().cloned());
                }
            }
        }
        seen
    }
    /// External crates named in the closure of `unit`.
    pub fn crates_of(&self, unit: &str) -> BTreeSet<String> {
        self.closure(unit)
            .iter()
            .flat_map(|u| self.crates.get(u).cloned().unwrap_or_default())
            .collect()
    }
}

// ----------------------------------------------------- manifests and lock

/// One `[[package]]` of a `Cargo.lock`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LockPackage {
    /// name
    pub name: String,
    /// version
    pub version: String,
    /// source + checksum lines (empty for path packages)
    pub origin: String,
    /// `dependencies` entries (`name` or `name version`, possibly with source)
    pub deps: Vec<String>,
}

/// Parse the `[[package]]` entries of a `Cargo.lock` (its simple TOML subset).
pub fn parse_lock(text: &str) -> Vec<LockPackage> {
    let mut out: Vec<LockPackage> = Vec::new();
    let mut in_deps = false;
    for line in text.lines() {
        let l = line.trim();
        if l == "[[package]]" {
            out.push(LockPackage::default());
            in_deps = false;
            continue;
        }
        if l.starts_with('[') {
            in_deps = false;
        }
        let Some(p) = out.last_mut() else { continue };
        if in_deps {
            if l == "]" {
                in_deps = false;
            } else {
                p.deps
                    .push(l.trim_end_matches(',').trim_matches('"').to_string());
            }
            continue;
        }
        if let Some((k, v)) = l.split_once(" = ") {
            let v = v.trim_matches('"').to_string();
            match k {
                "name" => p.name = v,
                "version" => p.version = v,
                "source" | "checksum" => {
                    p.origin.push_str(&v);
                    p.origin.push('\n');
                }
                "dependencies" => in_deps = v != "[]",
                _ => {}
            }
        }
    }
    out
}

/// The lock entries a dependency entry (`name`, `name version`, `name
/// version (source)`) may mean.
fn lock_matches<'a>(lock: &'a [LockPackage], dep: &str) -> Vec<&'a LockPackage> {
    let mut parts = dep.split_whitespace();
    let name = parts.next().unwrap_or("");
    let version = parts.next();
    lock.iter()
        .filter(|p| p.name == name && version.is_none_or(|v| p.version == v))
        .collect()
}

/// The lock entries of the crates `crates` (names with `_`) as depended on
/// by package `root` (`gamesweep`), and of everything they depend on.
pub fn lock_closure<'a>(
    lock: &'a [LockPackage],
    root: &str,
    crates: &BTreeSet<String>,
) -> Vec<&'a LockPackage> {
    let mut todo: Vec<&LockPackage> = Vec::new();
    let roots: Vec<&LockPackage> = lock.iter().filter(|p| p.name == root).collect();
    for r in &roots {
        for d in &r.deps {
            let name = d.split_whitespace().next().unwrap_or("").replace('-', "_");
            if crates.contains(&name) {
                todo.extend(lock_matches(lock, d));
            }
        }
    }
    if roots.is_empty() {
        // no entry for the root: take every package of those names
        todo.extend(
            lock.iter()
                .filter(|p| crates.contains(&p.name.replace('-', "_"))),
        );
    }
    let mut seen: BTreeMap<(String, String), &LockPackage> = BTreeMap::new();
    while let Some(p) = todo.pop() {
        if seen
            .insert((p.name.clone(), p.version.clone()), p)
            .is_none()
        {
            for d in &p.deps {
                todo.extend(lock_matches(lock, d));
            }
        }
    }
    seen.into_values().collect()
}

/// The body of TOML table `[name]` (comments and blank lines dropped, lines trimmed).
pub fn toml_section(text: &str, name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        let l = line.split(" #").next().unwrap_or("").trim();
        if l.starts_with('#') || l.is_empty() {
            continue;
        }
        if l.starts_with('[') {
            inside = l == format!("[{name}]") || l.starts_with(&format!("[{name}."));
            if l.starts_with(&format!("[{name}.")) {
                out.push(l.to_string());
            }
            continue;
        }
        if inside {
            out.push(l.to_string());
        }
    }
    out
}

/// The dependency names (with `_`) of a `[dependencies]` section.
pub fn dependency_names(section: &[String]) -> BTreeSet<String> {
    section
        .iter()
        .filter_map(|l| l.split(['=', '.', ' ']).next())
        .filter(|n| !n.is_empty() && !n.starts_with('['))
        .map(|n| n.replace('-', "_"))
        .collect()
}

/// Everything outside `src` that can change a kind's results.
pub struct Inputs {
    /// The package's `Cargo.toml`.
    pub manifest: String,
    /// The workspace `Cargo.toml` (empty if the package is its own workspace).
    pub workspace_manifest: String,
    /// The workspace `Cargo.lock` (empty if none).
    pub lock: String,
    /// The package name in the lock (`gamesweep`).
    pub package: String,
}

/// Per unit: its version id (32 hex digits).
pub fn unit_versions(a: &Analysis, inputs: &Inputs) -> BTreeMap<String, String> {
    let lock = parse_lock(&inputs.lock);
    let deps_section = toml_section(&inputs.manifest, "dependencies");
    let features = toml_section(&inputs.manifest, "features");
    let ws_deps = toml_section(&inputs.workspace_manifest, "workspace.dependencies");
    let editions: Vec<String> = inputs
        .manifest
        .lines()
        .chain(inputs.workspace_manifest.lines())
        .map(str::trim)
        .filter(|l| l.starts_with("edition"))
        .map(str::to_string)
        .collect();
    let root = a.files.iter().find(|f| f.module.is_empty());
    let mut out = BTreeMap::new();
    for unit in a.units() {
        let mut h = Fnv128::default();
        h.put(TAG.as_bytes());
        let closure = a.closure(&unit);
        if let Some(r) = root {
            h.put(b"root");
            h.put(normalized(&root_toks(&r.toks, &closure)).as_bytes());
        }
        for f in a
            .files
            .iter()
            .filter(|f| closure.contains(&unit_of(&f.module)))
        {
            h.put(f.path.as_bytes());
            h.put(normalized(&f.toks).as_bytes());
            for (p, text) in &f.included {
                h.put(p.as_bytes());
                h.put(text.as_bytes());
            }
        }
        let crates = a.crates_of(&unit);
        h.put(b"manifest");
        for l in deps_section.iter().chain(&features).chain(&editions) {
            h.put(l.as_bytes());
        }
        h.put(b"workspace dependencies");
        for l in &ws_deps {
            let name = l
                .split(['=', ' ', '.'])
                .next()
                .unwrap_or("")
                .replace('-', "_");
            if crates.contains(&name) {
                h.put(l.as_bytes());
            }
        }
        h.put(b"lock");
        for p in lock_closure(&lock, &inputs.package, &crates) {
            h.put(p.name.as_bytes());
            h.put(p.version.as_bytes());
            h.put(p.origin.as_bytes());
        }
        out.insert(unit, h.hex());
    }
    out
}

/// The whole computation: source file (relative to `src_root`) → version id
/// of the unit holding it.
pub fn file_versions(src_root: &Path, inputs: &Inputs) -> Result<BTreeMap<String, String>, Error> {
    let files = read_tree(src_root)?;
    let crates = dependency_names(&toml_section(&inputs.manifest, "dependencies"));
    let a = analyse(files, &crates);
    if !a.refused.is_empty() {
        return Err(format!(
            "a kind's display-only `{DISPLAY_CHILD}` module must stay outside its version (see shared/build/versions.rs):\n  {}",
            a.refused.join("\n  ")
        ));
    }
    let units = unit_versions(&a, inputs);
    Ok(a.files
        .iter()
        .map(|f| (f.path.clone(), units[&unit_of(&f.module)].clone()))
        .collect())
}

/// Read the inputs of a package at `manifest_dir` (its `Cargo.toml`, and the
/// workspace's `Cargo.toml` and `Cargo.lock` one level up, if any).
pub fn read_inputs(manifest_dir: &Path, package: &str) -> Inputs {
    let read = |p: PathBuf| std::fs::read_to_string(p).unwrap_or_default();
    let up = manifest_dir
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let own_lock = manifest_dir.join("Cargo.lock");
    Inputs {
        manifest: read(manifest_dir.join("Cargo.toml")),
        workspace_manifest: read(up.join("Cargo.toml")),
        lock: if own_lock.is_file() {
            read(own_lock)
        } else {
            read(up.join("Cargo.lock"))
        },
        package: package.to_string(),
    }
}

/// The generated `kind_versions.rs`.
pub fn render_table(table: &BTreeMap<String, String>) -> String {
    let mut s = String::from(
        "/// Solver version id per source file (relative to `shared/src`): the\n\
         /// hash of the unit holding the file and of everything it depends on\n\
         /// (generated by `build.rs`, see `shared/build/versions.rs`).\n\
         pub const SOURCE_VERSIONS: &[(&str, &str)] = &[\n",
    );
    for (p, v) in table {
        s.push_str(&format!("    ({p:?}, {v:?}),\n"));
    }
    s.push_str("];\n");
    s
}
