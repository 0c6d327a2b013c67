//! `gamesweep completions SHELL` and `gamesweep man`: shell completions and
//! man pages generated from the clap definition of the command line.
//!
//! Both take the *documented* command tree (`cli::documented_command`):
//! the parsed one, with `run` and `launch` given one subcommand per kind of
//! the registry (the kind's parameters and the command's options), so that
//! `gamesweep run <TAB>` offers the kinds, `gamesweep run uvg --<TAB>` its
//! parameters, and `man gamesweep-run-uvg` lists them. Every page has the
//! sections clap_mangen writes (NAME, SYNOPSIS, DESCRIPTION, OPTIONS,
//! SUBCOMMANDS, VERSION) and EXAMPLES, ENVIRONMENT (the variables its
//! options read, from their `env`) and EXIT STATUS.

use crate::error::UsageError;
use anyhow::Context as _;
use std::fmt::Write as _;
use std::path::PathBuf;

/// `completions` options.
#[derive(clap::Args, Debug)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, elvish or powershell.
    pub shell: clap_complete::Shell,
}

/// `man` options.
#[derive(clap::Args, Debug)]
pub struct ManArgs {
    /// Write one page per command (gamesweep.1, gamesweep-run.1,
    /// gamesweep-run-uvg.1, ...) into DIR instead of printing the main page.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// Print the completion script for `a.shell` of `cmd` to stdout.
pub fn completions(a: CompletionsArgs, mut cmd: clap::Command) -> anyhow::Result<()> {
    let mut buf = Vec::new();
    clap_complete::generate(a.shell, &mut cmd, "gamesweep", &mut buf);
    crate::output::print(String::from_utf8_lossy(&buf))?;
    Ok(())
}

/// Print the man page of `cmd` (roff) to stdout, or write one page per
/// command into `a.out`.
pub fn man(a: ManArgs, cmd: clap::Command) -> anyhow::Result<()> {
    let mut cmd = cmd.disable_help_subcommand(true);
    // Fills in every subcommand's binary and display names ("gamesweep run
    // uvg", "gamesweep-run-uvg"), which the pages are named and cross-linked by.
    cmd.build();
    let Some(dir) = a.out else {
        crate::output::print(page(&cmd)?)?;
        return Ok(());
    };
    if dir.exists() && !dir.is_dir() {
        return Err(UsageError(format!("--out {}: not a directory", dir.display())).into());
    }
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut pages = 0;
    let mut todo = vec![cmd];
    while let Some(c) = todo.pop() {
        todo.extend(c.get_subcommands().filter(|s| !s.is_hide_set()).cloned());
        let name = format!("{}.1", display_name(&c));
        let path = dir.join(&name);
        std::fs::write(&path, page(&c)?).with_context(|| format!("writing {}", path.display()))?;
        pages += 1;
    }
    eprintln!("wrote {pages} man pages into {}", dir.display());
    Ok(())
}

/// `gamesweep-run-uvg` for `gamesweep run uvg` (after `build`).
fn display_name(c: &clap::Command) -> String {
    c.get_display_name().unwrap_or(c.get_name()).to_string()
}

/// `gamesweep run uvg` for `gamesweep run uvg` (after `build`).
fn bin_name(c: &clap::Command) -> String {
    c.get_bin_name().unwrap_or(c.get_name()).to_string()
}

/// One man page: clap_mangen's sections, then EXAMPLES, ENVIRONMENT,
/// EXIT STATUS and SEE ALSO.
fn page(c: &clap::Command) -> anyhow::Result<String> {
    let man = clap_mangen::Man::new(c.clone());
    let mut out = Vec::new();
    man.render_title(&mut out)?;
    man.render_name_section(&mut out)?;
    match kinds_synopsis(c) {
        Some(text) => out.extend_from_slice(format!(".SH SYNOPSIS\n{text}\n").as_bytes()),
        None => man.render_synopsis_section(&mut out)?,
    }
    man.render_description_section(&mut out)?;
    if c.get_arguments().any(|a| !a.is_hide_set()) {
        man.render_options_section(&mut out)?;
    }
    if c.get_subcommands().any(|s| !s.is_hide_set()) {
        man.render_subcommands_section(&mut out)?;
    }
    // Each section clap_mangen renders repeats its two-line preamble
    // (defining the `Aq` string); once, at the top, is enough.
    let mut text = String::new();
    let mut preamble_seen = 0;
    for line in String::from_utf8(out)?.lines() {
        let preamble = line.starts_with(".ie \\n(.g .ds Aq") || line.starts_with(".el .ds Aq");
        if preamble {
            preamble_seen += 1;
            if preamble_seen > 2 {
                continue;
            }
        }
        text.push_str(line);
        text.push('\n');
    }
    text.push_str(&examples(c));
    text.push_str(&environment(c));
    text.push_str(EXIT_STATUS);
    if c.get_version().is_some() {
        let _ = writeln!(
            text,
            ".SH VERSION\nv{}",
            c.get_version().unwrap_or_default()
        );
    }
    if display_name(c) != "gamesweep" {
        text.push_str(".SH \"SEE ALSO\"\n\\fBgamesweep\\fR(1)\n");
    }
    Ok(text)
}

/// The synopsis of `run` and `launch`, whose options follow the kind.
fn kinds_synopsis(c: &clap::Command) -> Option<String> {
    let verb = match display_name(c).as_str() {
        "gamesweep-run" => "run",
        "gamesweep-launch" => "launch",
        _ => return None,
    };
    Some(format!(
        "\\fBgamesweep {verb}\\fR \\fIKIND\\fR [\\fB\\-\\-PARAMETER\\fR \\fIN\\fR]... [\\fIOPTIONS\\fR]\n.br\n{}",
        roff(&format!("The options below follow KIND; each kind's page (gamesweep-{verb}-KIND) lists its parameters."))
    ))
}

/// Plain text as roff: backslashes and hyphens escaped, and a line that
/// starts with `.` or `'` (a request) protected.
fn roff(text: &str) -> String {
    text.lines()
        .map(|l| {
            let l = l.replace('\\', "\\e").replace('-', "\\-");
            if l.starts_with('.') || l.starts_with('\'') {
                format!("\\&{l}")
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The EXAMPLES section: the hand-written examples of this page, or for a
/// kind's page (`gamesweep run KIND`, `gamesweep launch KIND`) one built
/// from its parameters, or the plainest call.
fn examples(c: &clap::Command) -> String {
    let bin = bin_name(c);
    let mut list: Vec<(String, String)> = EXAMPLES
        .iter()
        .filter(|(page, _, _)| *page == bin)
        .map(|(_, cmd, what)| (cmd.to_string(), what.to_string()))
        .collect();
    if list.is_empty() {
        let words: Vec<&str> = bin.split(' ').collect();
        if let ["gamesweep", verb @ ("run" | "launch"), kind] = words[..] {
            if let Ok(k) = gamesweep::kinds::find(kind) {
                let mut call = format!("gamesweep {verb} {kind}");
                for p in k.params() {
                    if p.default.is_none() {
                        let _ = write!(
                            call,
                            " --{} {}",
                            gamesweep_api::text::flag_name(p.name),
                            p.min
                        );
                    }
                }
                let what = if verb == "run" {
                    "Run the sweep on this machine with the default parameters, writing sweeps/KIND/results.json, report.md, report.html and figures/"
                } else {
                    "Plan the sweep on the coordinator of $GAMESWEEP_COORDINATOR and print its id; workers then lease its shards"
                };
                list.push((call.clone(), what.replace("KIND", kind)));
                if verb == "run" {
                    list.push((
                        format!("{call} --sample 1%"),
                        "Run a seeded sample of about 1 % of the positions first and project the whole sweep's cost from it".into(),
                    ));
                }
            }
        }
    }
    if list.is_empty() {
        let mut call = bin.clone();
        for a in c.get_positionals().filter(|a| a.is_required_set()) {
            let name = a
                .get_value_names()
                .and_then(|v| v.first())
                .map_or_else(|| a.get_id().to_string().to_uppercase(), |v| v.to_string());
            let _ = write!(call, " {name}");
        }
        list.push((call, "The plainest call; --help lists every option.".into()));
    }
    let mut s = String::from(".SH EXAMPLES\n");
    for (cmd, what) in list {
        let _ = writeln!(s, ".TP\n\\fB{}\\fR\n{}", roff(&cmd), roff(&what));
    }
    s
}

/// Hand-written examples: (page's command, call, what it does). Every
/// `gamesweep` call in them parses (a test in `cli` checks).
pub const EXAMPLES: &[(&str, &str, &str)] = &[
    ("gamesweep", "gamesweep run uvg --max-n 9", "Run a whole sweep on this machine: every connected graph up to 9 vertices, every start; results in sweeps/uvg/."),
    ("gamesweep", "gamesweep graphs 8 -c | gamesweep solve uvg - --summary", "Solve every connected graph on 8 vertices, as a pipeline of graph6 lines."),
    ("gamesweep", "gamesweep serve --store /var/lib/gamesweep & gamesweep worker --coordinator http://coord:7461", "A coordinator and a worker on several machines (see deploy/README.md)."),
    ("gamesweep run", "gamesweep run uvg --max-n 9", "Run the sweep on all cores; interrupt it (Ctrl-C) and rerun the same command to resume."),
    ("gamesweep run", "gamesweep run uvg --max-n 11 --sample 1%", "Run a 1 % sample first; projection.md says what the whole sweep would cost."),
    ("gamesweep run", "gamesweep run col --max-n 6 --threads 2 --out /tmp/col6 -q", "Two threads, no progress bar, results in /tmp/col6."),
    ("gamesweep launch", "gamesweep launch uvg --max-n 11 --name uvg-11 --priority 2", "Plan a sweep on the coordinator; workers lease its shards."),
    ("gamesweep launch", "gamesweep launch uvg --max-n 11 --name uvg-11 --resume", "Continue the sweep of that name if it exists with the same parameters (widening a sample to the whole plan)."),
    ("gamesweep graphs", "gamesweep graphs 7 -c", "Every connected graph on 7 vertices, one graph6 line each, like geng -c 7."),
    ("gamesweep graphs", "gamesweep graphs 10 -c 3/8", "Part 3 of 8 of the connected graphs on 10 vertices (parts partition the output, like geng's res/mod)."),
    ("gamesweep graphs", "gamesweep graphs 9 -ctf -u", "Count the connected triangle- and 4-cycle-free graphs on 9 vertices: geng's >Z line on standard error, as geng -ctfu 9."),
    ("gamesweep extend", "gamesweep extend --value 6 --vertices 12 --cover 1-6 runs/uvg-n11/extension-7-graphs.txt --out L12.txt.zst", "Every connected 12-vertex graph with starts of every value 1..6, lifted from the n = 11 sweep's lists (step 3 of runs/uvg-n12/star8/NOTES.md)."),
    ("gamesweep extend", "gamesweep extend --value 7 --vertices 14 --cover 0-7 L12.txt.zst", "The next step: a start of value *8 on 15 vertices joined to one of those graphs plus two vertices, or none."),
    ("gamesweep solve", "gamesweep solve uvg 'Dhc'", "Grundy value, winner and winning move of every start of one graph."),
    ("gamesweep solve uvg", "gamesweep solve uvg 'Dhc'", "Grundy value, winner and winning move of every start of the 5-cycle."),
    ("gamesweep solve uvg", "nauty-geng -c 8 | gamesweep solve uvg - --summary", "Solve a stream of graph6 lines and print a summary of the values."),
    ("gamesweep solve col", "gamesweep solve col 'Dhc' --colouring 'L....'", "The canonical value and outcome class of a Col position on the 5-cycle."),
    ("gamesweep solve myopic", "gamesweep solve myopic '&AO'", "The canonical value of Myopic Col on one arc."),
    ("gamesweep solve subtraction", "gamesweep solve subtraction --set 2,4,7 --upto 50", "The losing heaps and the Grundy sequence, with its period."),
    ("gamesweep solve sum", "gamesweep solve sum col:A_:R. col:A_:L. uvg:Ch@1", "The canonical value and outcome of 1 + (-1) + *2 (two Col boards and a UVG position), and each player's simplest winning move."),
    ("gamesweep solve sum", "gamesweep solve sum 'gamegraph:docs/examples/sum.game#left#v0' col:@ --json", "A game file's position plus a lone Col vertex, as JSON."),
    ("gamesweep solve tree", "gamesweep solve tree col:Bg --depth 2", "Left's and Right's options of Col on a 3-vertex path, two levels deep, each with its value."),
    ("gamesweep solve gamegraph", "gamesweep solve gamegraph docs/examples/draws.game", "Outcomes, Grundy numbers and kernel of a game given as a graph."),
    ("gamesweep explore", "gamesweep explore", "Serve the boards on a loopback port and print the URL to open."),
    ("gamesweep kinds", "gamesweep kinds", "The sweep kinds and their parameters."),
    ("gamesweep serve", "gamesweep serve --store /var/lib/gamesweep --token-file /etc/gamesweep/admin", "A coordinator on the default port 7461, its state in a sled store."),
    ("gamesweep serve", "gamesweep serve --store st --http 127.0.0.1:8080", "With the dashboard on port 8080."),
    ("gamesweep status", "gamesweep status", "Where every sweep stands: shards, positions, rate, ETA."),
    ("gamesweep status", "gamesweep status uvg-11 --watch", "Refresh every 2 seconds until the sweep is settled."),
    ("gamesweep status", "gamesweep status --json | jq '.sweeps[].state'", "The documented JSON (docs/schema/status.schema.json)."),
    ("gamesweep report", "gamesweep report uvg-11 --out sweeps/uvg-11", "Fetch a finished sweep's results.json, report.md, report.html and figures."),
    ("gamesweep cancel", "gamesweep cancel uvg-11", "Stop handing out the sweep's shards."),
    ("gamesweep project", "gamesweep project uvg-11 --cores 2,64", "The projected wall time of the whole sweep on 2 and on 64 cores."),
    ("gamesweep token", "gamesweep token issue --name lab-7 --out lab-7.token", "A worker credential for one machine."),
    ("gamesweep token issue", "gamesweep token issue --name lab-7 --out lab-7.token", "A worker credential for one machine, written with mode 0600."),
    ("gamesweep token list", "gamesweep token list", "The issued credentials."),
    ("gamesweep token revoke", "gamesweep token revoke lab-7", "Refuse the credential from its next request on."),
    ("gamesweep audit", "gamesweep audit", "Who launched, cancelled, paused what, and when (UTC)."),
    ("gamesweep export", "gamesweep export uvg-11 uvg-11.gsx", "One signed, checksummed file with the sweep and its finished results."),
    ("gamesweep export", "gamesweep export uvg-11 uvg-11.gsx --store /var/lib/gamesweep", "The same from a stopped coordinator's store."),
    ("gamesweep import", "gamesweep import uvg-11.gsx", "Load an export into the coordinator; its unfinished shards run there."),
    ("gamesweep verify", "gamesweep verify uvg-11.gsx --sample 1%", "Re-run 1 % of the exported results here and compare."),
    ("gamesweep key", "gamesweep key show --store /var/lib/gamesweep", "The fingerprint of the key export files are signed with."),
    ("gamesweep key show", "gamesweep key show --store /var/lib/gamesweep", "The fingerprint and key line of the store's signing key."),
    ("gamesweep key export", "gamesweep key export --store /var/lib/gamesweep --out coord.key", "A key file for `--trust-key coord.key` elsewhere."),
    ("gamesweep store", "gamesweep store check /var/lib/gamesweep", "Check a stopped coordinator's store."),
    ("gamesweep store check", "gamesweep store check sweeps/uvg", "Check a run folder's store: checksums and the journal of acknowledged work."),
    ("gamesweep store compact", "gamesweep store compact /var/lib/gamesweep", "Copy a stopped store into a new database: what it holds, none of sled's dead space."),
    ("gamesweep worker", "gamesweep worker --coordinator http://coord:7461 --threads 16", "Lease and run shards until stopped (SIGTERM drains)."),
    ("gamesweep pause", "gamesweep pause uvg-11", "Hand out none of its shards until `gamesweep resume uvg-11`."),
    ("gamesweep resume", "gamesweep resume uvg-11", "Hand out a paused sweep's shards again."),
    ("gamesweep completions", "gamesweep completions bash > /etc/bash_completion.d/gamesweep", "Completion of commands, kinds and their parameters in bash."),
    ("gamesweep man", "gamesweep man --out /usr/local/share/man/man1", "Install every page; then `man gamesweep-run-uvg`."),
];

/// The ENVIRONMENT section: every variable the page's options (for the
/// main page: every command's) read, from their clap `env`, and the ones
/// every command reads.
fn environment(c: &clap::Command) -> String {
    let mut vars = std::collections::BTreeMap::new();
    let mut todo = vec![c];
    while let Some(c) = todo.pop() {
        for a in c.get_arguments().filter(|a| !a.is_hide_set()) {
            if let Some(env) = a.get_env() {
                let flag = a.get_long().map_or_else(String::new, |l| format!("--{l}"));
                let help = a.get_help().map(|h| h.to_string()).unwrap_or_default();
                vars.entry(env.to_string_lossy().into_owned())
                    .or_insert(format!("Default of {flag}: {help}"));
            }
        }
        // The main page lists every variable of every command.
        if display_name(c) == "gamesweep" || c.get_bin_name() == Some("gamesweep") {
            todo.extend(c.get_subcommands());
        }
    }
    let mut s = String::from(".SH ENVIRONMENT\n");
    for (var, what) in vars {
        let _ = writeln!(s, ".TP\n\\fB{var}\\fR\n{}", roff(&what));
    }
    let _ = writeln!(
        s,
        ".TP\n\\fBHOME\\fR\nThe default token file is $HOME/.gamesweep/token, if it exists.\n.TP\n\\fBRUST_LOG\\fR\nThe log level of serve, worker and run's workers (default: info)."
    );
    s
}

/// The EXIT STATUS section, the same for every command (crate::error).
const EXIT_STATUS: &str = ".SH \"EXIT STATUS\"
.TP
\\fB0\\fR
Success.
.TP
\\fB1\\fR
A failure while running: a coordinator that cannot be reached, a damaged store, a failed check.
.TP
\\fB2\\fR
Bad input: a wrong option or argument, an unknown kind or sweep, parameters out of range, or a request the coordinator refused.
.TP
\\fB130\\fR
Interrupted by SIGINT (Ctrl\\-C); \\fBrun\\fR keeps its finished shards: rerun the same command to resume.
.TP
\\fB143\\fR
Stopped by SIGTERM (as Slurm and systemd stop a job); \\fBrun\\fR keeps its finished shards as above.
";
