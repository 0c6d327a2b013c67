//! Every `gamesweep` command in the fenced shell blocks of the README and
//! the guides parses with this build's command line: a flag renamed or
//! removed, a kind parameter that no longer exists, or a subcommand that
//! moved fails here, not in a reader's terminal. The README's first two
//! commands are also executed, in order, by `.ci/run` (the main job, then
//! the tests, then `git status` must be clean); this test checks the flags
//! of all the others. Blocks tagged with another language (`python`,
//! `text`, a game file) are not shell; `gamesweep-worker` lines are parsed
//! by the worker's own definition in its crate's tests.

use gamesweep_coordinator::args::parse_kind_args;
use gamesweep_coordinator::cli::{Cli, Command};
use gamesweep_coordinator::cmd;
use std::path::Path;

/// The documents whose fenced shell blocks are checked.
const DOCS: &[&str] = &[
    "README.md",
    "docs/trust.md",
    "docs/gamegraph-format.md",
    "docs/scaling.md",
    "docs/module-notes.md",
    "python/README.md",
];

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
    let mut pending = String::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(tag) = line.trim_start().strip_prefix("```") {
            shell = match shell {
                Some(_) => None,
                None => Some(matches!(
                    tag.trim(),
                    "" | "sh" | "bash" | "shell" | "console"
                )),
            };
            continue;
        }
        if shell != Some(true) {
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

/// Parse one command's words as `gamesweep` does, without running it.
fn parses(words: &[String]) -> Result<(), String> {
    let argv = std::iter::once("gamesweep".to_string()).chain(words.iter().cloned());
    let cli = <Cli as clap::Parser>::try_parse_from(argv).map_err(|e| e.to_string())?;
    type Options = fn(clap::Command) -> clap::Command;
    let kind_words: Option<(&str, &Vec<String>, Options)> = match &cli.command {
        Command::Run(a) => Some(("run", &a.words, cmd::run::common_run_options)),
        Command::Launch(a) => Some(("launch", &a.words, cmd::launch::launch_options)),
        _ => None,
    };
    if let Some((verb, words, options)) = kind_words {
        parse_kind_args(verb, words, options).map_err(|e| e.to_string())?;
    }
    Ok(())
}

#[test]
fn every_gamesweep_command_in_the_docs_parses() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut all = Vec::new();
    for doc in DOCS {
        let text = std::fs::read_to_string(root.join(doc)).unwrap_or_else(|e| panic!("{doc}: {e}"));
        all.extend(commands_in(doc, &text));
    }
    // The README's set-up block and its export/import examples at least.
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
            "frobnicate"
        ]
    );
    let ok: Vec<bool> = found.iter().map(|f| parses(&f.words).is_ok()).collect();
    assert_eq!(ok, [true, true, true, false, false, false], "{found:#?}");
}
