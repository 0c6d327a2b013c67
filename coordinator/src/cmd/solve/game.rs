//! `solve GAME GRAPH6`: a game on the graph-game layer, one graph or (with
//! `-`) every graph read from standard input.

use crate::error::UsageError;
use crate::ops::solve::pipeline::{finish, stdout_writer, stream};
use crate::output;
use anyhow::Context as _;
use gamesweep::families::graph_game::{GameKind, Solved};
use gamesweep::graph::graph6;

/// `solve GAME`'s command line, read by hand: clap hands the words of an
/// external subcommand over as they are.
struct GameArgs<'a> {
    game: &'static dyn GameKind,
    code: &'a str,
    json: bool,
    threads: Option<usize>,
}

/// The usage line of `solve NAME`.
fn usage(name: &str, game: &dyn GameKind) -> String {
    let format = if game.directed() {
        "DIGRAPH6"
    } else {
        "GRAPH6"
    };
    format!("usage: gamesweep solve {name} {format}|- [--json] [--threads N]")
}

fn parse(args: &[String]) -> Result<GameArgs<'_>, UsageError> {
    let (name, rest) = args
        .split_first()
        .expect("clap gives the subcommand's name");
    let game = gamesweep::kinds::find_game(name).map_err(|e| {
        UsageError(format!(
            "`solve {name}`: {e}; `gamesweep solve --help` lists the other solvers"
        ))
    })?;
    let (mut json, mut threads, mut codes) = (false, None, Vec::new());
    let mut words = rest.iter();
    while let Some(w) = words.next() {
        match w.as_str() {
            "--json" => json = true,
            "--threads" => {
                let t = words.next().ok_or_else(|| {
                    UsageError(format!("`solve {name}`: --threads needs a number"))
                })?;
                threads = Some(
                    t.parse()
                        .ok()
                        .filter(|&t| (1..=1024).contains(&t))
                        .ok_or_else(|| {
                            UsageError(format!(
                                "`solve {name}`: --threads {t}: not a number in 1..=1024"
                            ))
                        })?,
                );
            }
            "-" => codes.push(w.as_str()),
            f if f.starts_with('-') => {
                return Err(UsageError(format!(
                    "`solve {name}` has no option `{f}`; {}",
                    usage(name, game)
                )))
            }
            code => codes.push(code),
        }
    }
    let [code] = codes[..] else {
        return Err(UsageError(format!(
            "{} (one graph, or `-` for one per line; got {} arguments)",
            usage(name, game),
            codes.len()
        )));
    };
    if threads.is_some() && code != "-" {
        return Err(UsageError(format!(
            "`solve {name}`: --threads goes with `-` (graphs from standard input)"
        )));
    }
    Ok(GameArgs {
        game,
        code,
        json,
        threads,
    })
}

/// `solve GAME CODE [--json]`, or `solve GAME - [--json] [--threads N]`.
pub(super) fn solve_game(args: &[String]) -> anyhow::Result<()> {
    let a = parse(args)?;
    if a.code == "-" {
        return stream_game(&a);
    }
    let code = a.code;
    let solved = a
        .game
        .solve(code)
        .map_err(|e| UsageError(format!("`{code}`: {e}")))?;
    if a.json {
        output::print(format_args!(
            "{}\n",
            serde_json::to_string(&solved).context("json")?
        ))?;
        return Ok(());
    }
    let mut text = format!("{} on {code}: {}\n", a.game.name(), a.game.about());
    for s in &solved {
        text.push_str(&format!(
            "position {} ({}): {}, outcome {}{}\n",
            s.position,
            s.describe,
            s.value,
            s.outcome,
            if s.property {
                ""
            } else {
                " (fails the game's property)"
            }
        ));
    }
    output::print(text)?;
    Ok(())
}

/// `solve GAME -`: one output line per graph read, `CODE VALUE ...` (the
/// value of each position, in the game's order) or, with `--json`,
/// `{"code": .., "positions": [..]}`, in input order.
fn stream_game(a: &GameArgs) -> anyhow::Result<()> {
    use std::io::Write as _;
    let threads = a.threads.unwrap_or_else(crate::args::default_threads);
    let mut out = stdout_writer();
    let run = stream(
        threads,
        |t| a.game.solve(graph6::strip_header(t)),
        |text, solved: Vec<Solved>| {
            let code = graph6::strip_header(text);
            if a.json {
                let j = serde_json::json!({ "code": code, "positions": solved });
                writeln!(out, "{j}")
            } else {
                let values: Vec<&str> = solved.iter().map(|s| s.value.as_str()).collect();
                writeln!(out, "{code} {}", values.join(" "))
            }
        },
    );
    finish(&mut out)?;
    run
}
