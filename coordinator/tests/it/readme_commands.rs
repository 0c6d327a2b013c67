//! The fenced shell blocks of the README and the guides (every `*.md` of
//! the repository outside `runs/`, `target/` and `sweeps/`). Each block is
//! either run here, with the real binaries, in a temporary folder and a
//! temporary `HOME` (so nothing is written into the checkout), its shown
//! output compared (a `console` block's lines after its `$ ` commands) and
//! its effects checked; or marked, on the line before it, `<!-- not run:
//! REASON -->` (it needs several machines, Slurm, a registry, minutes...).
//! A block with neither fails, as does a run block that fails or prints
//! something else. And every `gamesweep` command of every block, run or
//! not, parses with this build's command line: a flag renamed or removed, a
//! kind parameter that no longer exists, or a subcommand that moved fails
//! here, not in a reader's terminal. The README's first block is run as
//! written by `.ci/run` (the main job, then the tests, then `git status`
//! must be clean). Blocks tagged with another language (`python`, `text`, a
//! game file) are not shell; `gamesweep-worker` lines are parsed by the
//! worker's own definition in its crate's tests.

use crate::support::harness::{isolated, BIN};
use gamesweep_coordinator::args::parse_kind_args;
use gamesweep_coordinator::cli::{Cli, Command};
use gamesweep_coordinator::ops;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every Markdown file of the repository (relative paths, sorted), but
/// build output (`target/`), committed records of runs (`runs/`), runs'
/// output (`sweeps/`, git-ignored) and hidden folders.
fn docs() -> Vec<String> {
    fn walk(dir: &Path, rel: &str, out: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().to_string();
            let path = if rel.is_empty() {
                name.clone()
            } else {
                format!("{rel}/{name}")
            };
            let ty = e.file_type().unwrap();
            if ty.is_dir() {
                let skip = name.starts_with('.')
                    || matches!(name.as_str(), "target" | "sweeps" | "node_modules")
                    || (rel.is_empty() && name == "runs");
                if !skip {
                    walk(&e.path(), &path, out);
                }
            } else if name.ends_with(".md") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(&root(), "", &mut out);
    out.sort();
    out
}

/// One command found in a document: where, and its words.
#[derive(Debug)]
struct Found {
    at: String,
    words: Vec<String>,
}

/// Split a shell line into words (quotes and `#` comments as a shell reads
/// them; no expansion). `None` for an unterminated quote.
fn shell_words(line: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c => cur.push(c),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' => cur.push(chars.next()?),
                        c => cur.push(c),
                    }
                }
            }
            '#' if !in_word => break,
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            // Operators end a command: each becomes a word of its own.
            '|' | ';' | '&' | '>' | '<' | '(' | ')' => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
                words.push(c.to_string());
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    Some(words)
}

/// The `gamesweep` commands of every fenced shell block of `doc`.
fn commands_in(doc: &str, text: &str) -> Vec<Found> {
    let mut out = Vec::new();
    let mut shell = None::<bool>;
    let mut console = false;
    let mut pending = String::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(tag) = line.trim_start().strip_prefix("```") {
            shell = match shell {
                Some(_) => None,
                None => Some(is_shell(tag)),
            };
            console = tag.trim() == "console";
            continue;
        }
        if shell != Some(true) {
            continue;
        }
        // A console block's output lines are not commands.
        if console && pending.is_empty() && !line.trim_start().starts_with("$ ") {
            continue;
        }
        // Continuation lines join the next one.
        if let Some(head) = line.strip_suffix('\\') {
            pending.push_str(head);
            pending.push(' ');
            continue;
        }
        let full = std::mem::take(&mut pending) + line;
        let full = full.trim().trim_start_matches("$ ");
        let words =
            shell_words(full).unwrap_or_else(|| panic!("{doc}:{}: unterminated quote", i + 1));
        // Every command of the line: split at operators.
        for cmd in words.split(|w| matches!(w.as_str(), "|" | ";" | "&" | "(" | ")")) {
            let cmd: Vec<&String> = cmd.iter().collect();
            // Redirections and what they name are not arguments.
            let mut argv = Vec::new();
            let mut skip = false;
            for w in cmd {
                if skip {
                    skip = false;
                } else if matches!(w.as_str(), ">" | "<") {
                    skip = true;
                } else {
                    argv.push(w.clone());
                }
            }
            // Leading NAME=VALUE assignments and `nice -n N`.
            while argv.first().is_some_and(|w| {
                w.contains('=')
                    && !w.starts_with('-')
                    && w.split('=')
                        .next()
                        .unwrap()
                        .chars()
                        .all(|c| c.is_ascii_uppercase() || c == '_')
            }) {
                argv.remove(0);
            }
            let rest: Vec<String> =
                if argv.len() >= 4 && argv[..3] == ["cargo", "run", "--release"] && argv[3] == "--"
                {
                    argv[4..].to_vec()
                } else if argv.first().map(String::as_str) == Some("gamesweep") {
                    argv[1..].to_vec()
                } else {
                    continue;
                };
            out.push(Found {
                at: format!("{doc}:{}", i + 1),
                words: rest,
            });
        }
    }
    out
}

/// Is a fence's tag (what follows the backticks) a shell's?
fn is_shell(tag: &str) -> bool {
    matches!(tag.trim(), "" | "sh" | "bash" | "shell" | "console")
}

/// Parse one command's words as `gamesweep` does, without running it. A
/// `...` stands for options the text gave before: it is left out, and an
/// option then missing is not an error.
fn parses(words: &[String]) -> Result<(), String> {
    let elided = words.iter().any(|w| w == "...");
    let argv = std::iter::once("gamesweep".to_string())
        .chain(words.iter().filter(|w| *w != "...").cloned());
    let cli = match <Cli as clap::Parser>::try_parse_from(argv) {
        Ok(c) => c,
        Err(e) if elided && e.kind() == clap::error::ErrorKind::MissingRequiredArgument => {
            return Ok(())
        }
        Err(e) => return Err(e.to_string()),
    };
    type Options = fn(clap::Command) -> clap::Command;
    let kind_words: Option<(&str, &Vec<String>, Options)> = match &cli.command {
        Command::Run(a) => Some(("run", &a.words, gamesweep_coordinator::args::run::options)),
        Command::Launch(a) => Some(("launch", &a.words, ops::remote::launch::launch_options)),
        _ => None,
    };
    if let Some((verb, words, options)) = kind_words {
        parse_kind_args(verb, words, options).map_err(|e| e.to_string())?;
    }
    Ok(())
}

#[test]
fn every_gamesweep_command_in_the_docs_parses() {
    let root = root();
    let mut all = Vec::new();
    for doc in docs() {
        let text =
            std::fs::read_to_string(root.join(&doc)).unwrap_or_else(|e| panic!("{doc}: {e}"));
        all.extend(commands_in(&doc, &text));
    }
    // The README's set-up block and the guide's examples at least.
    assert!(
        all.len() >= 25,
        "found only {} commands: {all:#?}",
        all.len()
    );
    let bad: Vec<String> = all
        .iter()
        .filter_map(|f| {
            parses(&f.words)
                .err()
                .map(|e| format!("{}: gamesweep {}\n{e}", f.at, f.words.join(" ")))
        })
        .collect();
    assert!(
        bad.is_empty(),
        "{} of {} documented commands do not parse:\n{}",
        bad.len(),
        all.len(),
        bad.join("\n")
    );
}

/// The checker itself: a flag that does not exist, a parameter a kind does
/// not have, and an unknown subcommand are each caught; quoting, comments,
/// pipes, redirections and `cargo run --release --` are read as a shell would.
#[test]
fn the_checker_catches_a_changed_flag() {
    let text = "```sh\n\
        cargo run --release -- run uvg --max-n 9   # a comment --bogus\n\
        gamesweep graphs 9 -c 3/8 | gamesweep solve uvg - > 'out file.txt'\n\
        gamesweep run uvg --max-vertices 9\n\
        gamesweep status --bogus\n\
        gamesweep frobnicate\n\
        gamesweep serve ... --token-file t\n\
        gamesweep serve ... --bogus\n\
        ```\n\
        ```console\n\
        $ gamesweep status --json\n\
        gamesweep frobnicate is output here\n\
        ```\n\
        ```python\n\
        gamesweep run uvg --nothing-here\n\
        ```\n";
    let found = commands_in("t.md", text);
    let words: Vec<String> = found.iter().map(|f| f.words.join(" ")).collect();
    assert_eq!(
        words,
        [
            "run uvg --max-n 9",
            "graphs 9 -c 3/8",
            "solve uvg -",
            "run uvg --max-vertices 9",
            "status --bogus",
            "frobnicate",
            "serve ... --token-file t",
            "serve ... --bogus",
            "status --json",
        ]
    );
    let ok: Vec<bool> = found.iter().map(|f| parses(&f.words).is_ok()).collect();
    assert_eq!(
        ok,
        [true, true, true, false, false, false, true, false, true],
        "{found:#?}"
    );
}

// ---- every shell block: run here, or marked with why not ----

/// A fenced shell block of a document.
#[derive(Debug)]
struct Block {
    /// `doc:LINE` of its opening fence.
    at: String,
    doc: String,
    tag: String,
    /// Its lines, the fence's indentation taken off.
    lines: Vec<String>,
    /// The reason of a `<!-- not run: REASON -->` on the line before it
    /// (blank lines between allowed).
    not_run: Option<String>,
}

/// The fenced shell blocks of `text`; a `not run` marker without a reason
/// is an error.
fn blocks_in(doc: &str, text: &str) -> Result<Vec<Block>, String> {
    let mut out = Vec::new();
    // The block being read, and its fence's indentation.
    let mut open: Option<(Block, usize)> = None;
    let mut before: Option<&str> = None; // the last non-blank line outside blocks
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if let Some(tag) = t.strip_prefix("```") {
            match open.take() {
                Some((block, _)) => {
                    if is_shell(&block.tag) {
                        out.push(block);
                    }
                    before = None;
                }
                None => {
                    let not_run = match before.map(str::trim) {
                        Some(b) if b.starts_with("<!--") && b.contains("not run") => {
                            let reason = b
                                .strip_prefix("<!--")
                                .and_then(|b| b.strip_suffix("-->"))
                                .and_then(|b| b.trim().strip_prefix("not run:"))
                                .map(str::trim)
                                .filter(|r| !r.is_empty())
                                .ok_or_else(|| {
                                    format!("{doc}:{}: write the marker before this block as `<!-- not run: REASON -->`, with a reason: {b}", i + 1)
                                })?;
                            Some(reason.to_string())
                        }
                        _ => None,
                    };
                    let block = Block {
                        at: format!("{doc}:{}", i + 1),
                        doc: doc.to_string(),
                        tag: tag.trim().to_string(),
                        lines: Vec::new(),
                        not_run,
                    };
                    open = Some((block, line.len() - t.len()));
                }
            }
            continue;
        }
        match &mut open {
            Some((block, indent)) => {
                let cut = line.len() - line.trim_start().len();
                block.lines.push(line[cut.min(*indent)..].to_string());
            }
            None if !t.is_empty() => before = Some(line),
            None => {}
        }
    }
    if let Some((block, _)) = open {
        return Err(format!("{}: a block that never closes", block.at));
    }
    Ok(out)
}

/// A block run here: which (its document and first line, as written),
/// what it needs besides `gamesweep`, coreutils, bash, openssl and man,
/// the folder and HOME made ready before (`setup(work, home)`), words
/// replaced in it (a placeholder such as `DIR` for a path made by
/// `setup`), and what must hold after.
struct Run {
    doc: &'static str,
    first: &'static str,
    needs: Option<&'static str>,
    setup: fn(&Path, &Path),
    replace: &'static [(&'static str, &'static str)],
    check: fn(&Ran),
}

/// What a run block left: its folder, `HOME` and standard output.
struct Ran {
    work: PathBuf,
    home: PathBuf,
    stdout: String,
}

fn nothing(_: &Path, _: &Path) {}

/// The blocks run here. Every other shell block is marked `not run`.
static RUNS: &[Run] = &[
    // Pipelines: geng's part 0/1000 of the connected 11-vertex graphs
    // solved and summarized; part 3/8 of ours at n = 9 into a file.
    Run {
        doc: "docs/commands.md",
        first: "nauty-geng -c 11 0/1000 | gamesweep solve uvg - --summary",
        needs: Some("nauty"),
        setup: nothing,
        replace: &[],
        check: |r| {
            // The summary counts the graphs geng made (counted by geng
            // itself), 11 starts each.
            let geng = std::process::Command::new("nauty-geng")
                .args(["-c", "-u", "11", "0/1000"])
                .output()
                .unwrap();
            let z = String::from_utf8_lossy(&geng.stderr);
            let graphs: u64 = z
                .lines()
                .find_map(|l| l.strip_prefix(">Z "))
                .and_then(|l| l.split_whitespace().next())
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("geng said: {z}"));
            let want = format!("n 11: {graphs} graphs, {} positions,", 11 * graphs);
            assert!(r.stdout.starts_with(&want), "{want} / {}", r.stdout);
            assert!(r.stdout.contains(&format!("total: {graphs} graphs,")), "{}", r.stdout);
            // One line per graph of part 3/8, each its code and 9 values.
            let part = std::process::Command::new(BIN)
                .args(["graphs", "9", "-c", "3/8"])
                .output()
                .unwrap();
            let codes: Vec<String> = String::from_utf8(part.stdout)
                .unwrap()
                .lines()
                .map(String::from)
                .collect();
            let lines = std::fs::read_to_string(r.work.join("part3.txt")).unwrap();
            let lines: Vec<&str> = lines.lines().collect();
            assert_eq!(lines.len(), codes.len(), "part3.txt");
            assert!(codes.len() > 1000, "{} graphs in part 3/8", codes.len());
            for (l, c) in lines.iter().zip(&codes) {
                let w: Vec<&str> = l.split_whitespace().collect();
                assert_eq!((w.len(), w[0]), (10, c.as_str()), "{l}");
                assert!(w[1..].iter().all(|v| v.parse::<u32>().is_ok()), "{l}");
            }
        },
    },
    // geng's count of the triangle-free connected 9-vertex graphs: a
    // console block, its output compared.
    Run {
        doc: "docs/commands.md",
        first: "$ gamesweep graphs 9 -ctf -u 2>&1 | sed -n 's/^>Z \\([0-9]*\\).*/\\1/p'",
        needs: None,
        setup: nothing,
        replace: &[],
        check: |_| {},
    },
    // A game of the graph-game layer valued over a graph6 stream: a
    // console block, its output compared.
    Run {
        doc: "docs/commands.md",
        first: "$ gamesweep graphs 4 -c -q | gamesweep solve node-kayles -",
        needs: None,
        setup: nothing,
        replace: &[],
        check: |_| {},
    },
    // Completions and man pages, into a temporary HOME whose folders the
    // shells read completions from exist.
    Run {
        doc: "docs/commands.md",
        first: "gamesweep completions bash > ~/.local/share/bash-completion/completions/gamesweep",
        needs: None,
        setup: |_, home| {
            for d in [".local/share/bash-completion/completions", ".zfunc", ".config/fish/completions"] {
                std::fs::create_dir_all(home.join(d)).unwrap();
            }
        },
        replace: &[],
        check: |r| {
            let read = |p: &str| std::fs::read_to_string(r.home.join(p)).unwrap();
            assert!(read(".local/share/bash-completion/completions/gamesweep").contains("complete -F _gamesweep"));
            assert!(read(".zfunc/_gamesweep").starts_with("#compdef gamesweep"));
            assert!(read(".config/fish/completions/gamesweep.fish").contains("complete -c gamesweep"));
            assert!(r.stdout.contains("NAME") && r.stdout.contains("gamesweep - "), "{}", r.stdout);
            // One page per command: the main page and a page per subcommand.
            let pages: Vec<String> = std::fs::read_dir(r.home.join(".local/share/man/man1"))
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
                .collect();
            for p in ["gamesweep.1", "gamesweep-run.1", "gamesweep-serve.1", "gamesweep-key-export.1"] {
                assert!(pages.iter().any(|x| x == p), "{p} not in {pages:?}");
            }
        },
    },
    // The store's key: shown and exported. DIR is a store made by a small
    // run first.
    Run {
        doc: "docs/trust.md",
        first: "gamesweep key show --store DIR                 # fingerprint and key line",
        needs: None,
        setup: |work, _| {
            let o = isolated(std::process::Command::new(BIN))
                .args(["run", "uvg", "--max-n", "5", "--out", "o"])
                .current_dir(work)
                .output()
                .unwrap();
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        },
        replace: &[("DIR", "o/store")],
        check: |r| {
            // `sha256:` and 16 bytes of hex: the first half of the SHA-256
            // of the public key the key line and the file give.
            use sha2::Digest;
            let key_line = |t: &str| {
                t.lines()
                    .find_map(|l| l.strip_prefix("gamesweep-ed25519 "))
                    .map(str::to_string)
                    .unwrap_or_else(|| panic!("no key line: {t}"))
            };
            let file = std::fs::read_to_string(r.work.join("a.key")).unwrap();
            let hex = key_line(&file);
            assert_eq!(key_line(&r.stdout), hex, "{}", r.stdout);
            let bytes: Vec<u8> = (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                .collect();
            assert_eq!(bytes.len(), 32, "{hex}");
            let fp: String = sha2::Sha256::digest(&bytes)[..16]
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            assert!(r.stdout.contains(&format!("sha256:{fp}")), "{fp}: {}", r.stdout);
            assert!(file.contains(&format!("sha256:{fp}")), "{fp}: {file}");
        },
    },
    // The token: 32 random bytes in hex, readable by its owner only.
    Run {
        doc: "deploy/README.md",
        first: "mkdir -p ~/.gamesweep && openssl rand -hex 32 > ~/.gamesweep/token && chmod 600 ~/.gamesweep/token",
        needs: None,
        setup: nothing,
        replace: &[],
        check: |r| {
            use std::os::unix::fs::PermissionsExt;
            let p = r.home.join(".gamesweep/token");
            let t = std::fs::read_to_string(&p).unwrap();
            let hex = t.strip_suffix('\n').unwrap_or_else(|| panic!("{t:?}"));
            assert!(hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit()), "{t:?}");
            let mode = std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600);
        },
    },
    // A private CA and a certificate for `coord` signed by it.
    Run {
        doc: "deploy/README.md",
        first: "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 365 \\",
        needs: None,
        setup: nothing,
        replace: &[],
        check: |r| {
            let openssl = |args: &[&str]| {
                let o = std::process::Command::new("openssl")
                    .args(args)
                    .current_dir(&r.work)
                    .output()
                    .unwrap();
                assert!(o.status.success(), "openssl {args:?}: {}", String::from_utf8_lossy(&o.stderr));
                String::from_utf8(o.stdout).unwrap()
            };
            assert_eq!(openssl(&["verify", "-CAfile", "ca.pem", "coord.crt"]).trim(), "coord.crt: OK");
            let san = openssl(&["x509", "-in", "coord.crt", "-noout", "-ext", "subjectAltName"]);
            assert!(san.contains("DNS:coord"), "{san}");
        },
    },
];

/// Run `block` as `run` says, in a fresh folder and HOME: bash with `-e`
/// and `pipefail`, `gamesweep` and `gamesweep-worker` on the PATH as this
/// build's binaries, `cargo run --release --` as `gamesweep`. At most 120 s.
fn run_block(block: &Block, run: &Run) -> Result<(), String> {
    let tmp = tempfile::tempdir().unwrap();
    let (work, home, bin) = (
        tmp.path().join("work"),
        tmp.path().join("home"),
        tmp.path().join("bin"),
    );
    for d in [&work, &home, &bin] {
        std::fs::create_dir_all(d).unwrap();
    }
    std::os::unix::fs::symlink(BIN, bin.join("gamesweep")).unwrap();
    std::os::unix::fs::symlink(
        env!("CARGO_BIN_EXE_gamesweep-worker"),
        bin.join("gamesweep-worker"),
    )
    .unwrap();
    (run.setup)(&work, &home);
    // A console block: its `$ ` lines are the commands, the rest what
    // they print.
    let console = block.tag == "console";
    let mut script = String::from(
        "cargo() { if [ \"$1 $2 $3\" = 'run --release --' ]; then shift 3; gamesweep \"$@\"; \
         else echo \"cargo $* is not run here\" >&2; return 1; fi; }\n",
    );
    let mut shown = String::new();
    for l in &block.lines {
        match l.strip_prefix("$ ") {
            Some(cmd) if console => script.push_str(cmd),
            None if console => {
                shown.push_str(l);
                shown.push('\n');
                continue;
            }
            _ => script.push_str(l),
        }
        script.push('\n');
    }
    for (from, to) in run.replace {
        script = script.replace(from, to);
    }
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = std::fs::File::create(tmp.path().join("stdout")).unwrap();
    let err = std::fs::File::create(tmp.path().join("stderr")).unwrap();
    let mut child = isolated(std::process::Command::new("bash"))
        .args(["-e", "-o", "pipefail", "-c", &script])
        .current_dir(&work)
        .env("HOME", &home)
        .env("PATH", path)
        .env("MANPAGER", "cat")
        .env("PAGER", "cat")
        .env("MANWIDTH", "80")
        .stdin(std::process::Stdio::null())
        .stdout(out)
        .stderr(err)
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!(
                "{}: still running after 120 s:\n{script}",
                block.at
            ));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stdout = std::fs::read_to_string(tmp.path().join("stdout")).unwrap();
    let stderr = std::fs::read_to_string(tmp.path().join("stderr")).unwrap();
    if !status.success() {
        return Err(format!("{}: {status}:\n{script}\n{stderr}", block.at));
    }
    if console && stdout != shown {
        return Err(format!(
            "{}: prints\n{stdout}\nwhere the document shows\n{shown}",
            block.at
        ));
    }
    let ran = Ran { work, home, stdout };
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (run.check)(&ran))).map_err(|e| {
        let why = e
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        format!("{}: ran, but {why}", block.at)
    })
}

/// Every shell block of every document with the run here (`None`: marked
/// not run), or what is wrong: a block with neither a run nor a marker,
/// with both, or a run whose block is gone.
fn classify() -> (Vec<(Block, Option<&'static Run>)>, Vec<String>) {
    let mut wrong = Vec::new();
    let mut all = Vec::new();
    let mut used = vec![false; RUNS.len()];
    for doc in docs() {
        let text = std::fs::read_to_string(root().join(&doc)).unwrap();
        match blocks_in(&doc, &text) {
            Ok(bs) => {
                for b in bs {
                    let first = b.lines.first().map(String::as_str).unwrap_or("");
                    let run = RUNS.iter().position(|r| r.doc == b.doc && r.first == first);
                    match (&b.not_run, run) {
                        (None, None) => wrong.push(format!(
                            "{}: a shell block neither run by this test (readme_commands.rs, RUNS) nor \
                             marked `<!-- not run: REASON -->` on the line before it:\n{}",
                            b.at,
                            b.lines.join("\n")
                        )),
                        (Some(why), Some(_)) => wrong.push(format!(
                            "{}: run here, yet marked not run ({why})",
                            b.at
                        )),
                        _ => {}
                    }
                    if let Some(i) = run {
                        used[i] = true;
                    }
                    all.push((b, run.map(|i| &RUNS[i])));
                }
            }
            Err(e) => wrong.push(e),
        }
    }
    for (r, u) in RUNS.iter().zip(used) {
        if !u {
            wrong.push(format!(
                "{}: no shell block begins `{}` any more",
                r.doc, r.first
            ));
        }
    }
    (all, wrong)
}

/// Every shell block of the README and the guides (`docs/`, `deploy/`, the
/// crates' READMEs) is run here or says why not; those that need nothing but
/// this build, bash, openssl and man run (the one that needs nauty: below).
#[test]
fn every_shell_block_in_the_docs_is_run_or_says_why_not() {
    let (all, mut wrong) = classify();
    let mut ran = 0;
    for (b, run) in &all {
        if let Some(r) = run.filter(|r| r.needs.is_none()) {
            match run_block(b, r) {
                Ok(()) => ran += 1,
                Err(e) => wrong.push(e),
            }
        }
    }
    let marked = all.iter().filter(|(b, _)| b.not_run.is_some()).count();
    let docs: std::collections::BTreeSet<&str> = all.iter().map(|(b, _)| b.doc.as_str()).collect();
    eprintln!(
        "doc blocks: {} shell blocks in {} documents: {ran} run here, {} need another component, {marked} marked not run",
        all.len(),
        docs.len(),
        all.iter().filter(|(_, r)| r.is_some_and(|r| r.needs.is_some())).count(),
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
    // The README's, deploy/README.md's and the guide's blocks are among
    // them: the guide's pages under docs/ (commands, checkpoints, several
    // machines, trust, ...) hold most of them.
    assert!(
        docs.contains("README.md") && docs.contains("deploy/README.md"),
        "{docs:?}"
    );
    let guide = docs.iter().filter(|d| d.starts_with("docs/")).count();
    assert!(
        guide >= 5,
        "shell blocks in only {guide} pages of docs/: {docs:?}"
    );
    assert!(ran >= 5, "{ran} blocks run");
}

/// The blocks that need nauty (`nauty-geng`), run.
#[test]
#[ignore = "needs nauty"]
fn the_shell_blocks_that_need_nauty_run() {
    let (all, _) = classify();
    let mut n = 0;
    for (b, run) in &all {
        if let Some(r) = run.filter(|r| r.needs == Some("nauty")) {
            if std::process::Command::new("nauty-geng")
                .arg("-help")
                .output()
                .is_err()
            {
                crate::support::proc::missing(
                    "the README's geng pipeline",
                    "nauty (nauty-geng)",
                    "not on the PATH",
                );
            }
            run_block(b, r).unwrap_or_else(|e| panic!("{e}"));
            n += 1;
        }
    }
    assert!(n >= 1, "no block needs nauty");
}

/// The block checker: an unmarked block, a marker without a reason, a
/// console block printing something else, a failing command; a marked one
/// passes, a non-shell one is not a block.
#[test]
fn the_block_checker_finds_unmarked_blocks_and_wrong_output() {
    let text = "intro\n\n\
        <!-- not run: needs several machines -->\n\n\
        ```sh\ngamesweep serve --listen 0.0.0.0:7461\n```\n\
        text\n\
        ```bash\necho unmarked\n```\n\
        ```python\nprint(1)\n```\n\
        - a list item:\n\n\
        \x20   <!-- not run: the same -->\n\
        \x20   ```sh\n\
        \x20   gamesweep status\n\
        \x20   ```\n";
    let bs = blocks_in("t.md", text).unwrap();
    let got: Vec<(&str, Option<&str>, Vec<&str>)> = bs
        .iter()
        .map(|b| {
            (
                b.at.as_str(),
                b.not_run.as_deref(),
                b.lines.iter().map(String::as_str).collect(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (
                "t.md:5",
                Some("needs several machines"),
                vec!["gamesweep serve --listen 0.0.0.0:7461"]
            ),
            ("t.md:9", None, vec!["echo unmarked"]),
            ("t.md:18", Some("the same"), vec!["gamesweep status"]),
        ]
    );
    let e = blocks_in("t.md", "<!-- not run: -->\n```sh\nls\n```\n").unwrap_err();
    assert!(e.contains("with a reason"), "{e}");
    // A console block's output compared; a failing command fails.
    let run = Run {
        doc: "t.md",
        first: "",
        needs: None,
        setup: nothing,
        replace: &[],
        check: |_| {},
    };
    let block = |tag: &str, lines: &[&str]| Block {
        at: "t.md:1".into(),
        doc: "t.md".into(),
        tag: tag.into(),
        lines: lines.iter().map(|l| l.to_string()).collect(),
        not_run: None,
    };
    run_block(&block("console", &["$ echo 137", "137"]), &run).unwrap();
    let e = run_block(&block("console", &["$ echo 138", "137"]), &run).unwrap_err();
    assert!(e.contains("where the document shows"), "{e}");
    let e = run_block(&block("sh", &["gamesweep run uvg --no-such-flag"]), &run).unwrap_err();
    assert!(e.contains("exit status"), "{e}");
    run_block(
        &block(
            "sh",
            &[
                "cargo run --release -- graphs 4 -c > g.txt",
                "test -s g.txt",
            ],
        ),
        &run,
    )
    .unwrap();
}

// ---- the guide's table of contents ----

/// What is wrong with `docs/SUMMARY.md` (the mdBook table of contents)
/// given the guide's pages `pages` (file names under `docs/`): a page it
/// does not list, or a link to a page that does not exist.
fn summary_gaps(summary: &str, pages: &[String]) -> Vec<String> {
    let linked: Vec<&str> = summary
        .split("](")
        .skip(1)
        .filter_map(|s| s.split(')').next())
        .collect();
    let mut gaps = Vec::new();
    for p in pages.iter().filter(|p| *p != "SUMMARY.md") {
        if !linked.contains(&p.as_str()) {
            gaps.push(format!("docs/{p} is not in docs/SUMMARY.md"));
        }
    }
    for l in linked {
        if !pages.iter().any(|p| p == l) {
            gaps.push(format!(
                "docs/SUMMARY.md links {l}, which is not a page of docs/"
            ));
        }
    }
    gaps
}

/// Every page of the guide (`docs/*.md`) is in its table of contents, and
/// every entry there is a page: a page added without an entry would be
/// left out of the book, and an entry whose page moved would break it.
#[test]
fn every_guide_page_is_in_the_summary() {
    let docs = root().join("docs");
    let mut pages: Vec<String> = std::fs::read_dir(&docs)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".md"))
        .collect();
    pages.sort();
    let summary = std::fs::read_to_string(docs.join("SUMMARY.md")).unwrap();
    assert!(pages.len() >= 10, "{pages:?}");
    let gaps = summary_gaps(&summary, &pages);
    assert!(gaps.is_empty(), "{}", gaps.join("\n"));
    // The checker itself: a page left out and an entry without a page.
    let pages = ["SUMMARY.md".to_string(), "a.md".into(), "b.md".into()];
    assert_eq!(
        summary_gaps("# Summary\n\n- [A](a.md)\n- [C](c.md)\n", &pages),
        [
            "docs/b.md is not in docs/SUMMARY.md",
            "docs/SUMMARY.md links c.md, which is not a page of docs/"
        ]
    );
}
