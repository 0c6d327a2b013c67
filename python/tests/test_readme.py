"""The Python examples of README.md and python/README.md (every ```python
block) run as written, each as a user would paste it into a fresh `python`:
its own process, started in the repository's root (where the README has
the user after `git clone` and `pip install ./python`; a block that reads
`runs/...` needs no more), with nothing else set up. What each prints is
then compared with what the CLI says, or with the committed run it reads.
"""

import ast
import json
import os
import re
import subprocess
import sys

import pytest

FILES = ("README.md", os.path.join("python", "README.md"))


def blocks(repo, name):
    with open(os.path.join(repo, name), encoding="utf-8") as f:
        return re.findall(r"^```python\n(.*?)^```$", f.read(), re.S | re.M)


def run_block(repo, code):
    """The block run by this interpreter (the one the package is installed
    in) in the repository's root, as `python -` reads a pasted script; its
    printed lines."""
    r = subprocess.run(
        [sys.executable, "-"], input=code, cwd=repo, capture_output=True, text=True, timeout=300
    )
    assert r.returncode == 0, f"the block failed ({r.returncode}):\n{code}\n{r.stderr}"
    return r.stdout.splitlines()


def test_every_python_block_is_checked(repo):
    """Each README's blocks are the ones the tests below know: a new block
    fails here until a test checks what it prints."""
    assert [len(blocks(repo, f)) for f in FILES] == [1, 1]


def test_readme_example_runs_as_written(cli, repo):
    (code,) = blocks(repo, "README.md")
    assert len(code.strip().splitlines()) == 6
    values, nu, count, col, iso = run_block(repo, code)
    assert values == str(cli.json_lines("solve", "uvg", "-", "--json", input="Dhc")[0]["grundy"])
    assert nu == str(cli.json("solve", "uvg", "Dhc", "--start", "0", "--json")["nu"])
    # As geng's -u: the count only in the ">Z N graphs generated" line.
    z = cli.run("graphs", "8", "-c", "-u").stderr
    assert count == re.search(r"^>Z (\d+) graphs generated", z, re.M).group(1)
    # The README says a path (Bg; Bw is the triangle K3, value -1).
    assert col == cli.json("solve", "col", "Bg", "--colouring", "L..", "--json")["value"] == "-1/2"
    # Bg is the path 0-1-2; [(0, 2), (2, 1)] the path 0-2-1.
    assert iso == "True"


def test_python_readme_example_runs_as_written(cli, repo):
    pytest.importorskip("networkx")
    pytest.importorskip("pandas")
    (code,) = blocks(repo, os.path.join("python", "README.md"))
    lines = run_block(repo, code)
    values, canon, table = lines[0], lines[1], lines[2:]
    # The path a-b-c-d (vertices 0-1-2-3 in graph6, `Ch`): the CLI's Grundy
    # values, keyed by node.
    grundy = cli.json_lines("solve", "uvg", "-", "--json", input="Ch")[0]["grundy"]
    assert values == str(dict(zip("abcd", grundy)))
    # Its canonical form is a path on 4 vertices (3 edges, no vertex of
    # degree 3), and the map relabels a-b-c-d onto it.
    text, lab = ast.literal_eval(canon)
    assert len(g6_edges(text)) == 3 and max(degrees(g6_edges(text))) == 2
    assert sorted(lab) == list("abcd") and sorted(lab.values()) == [0, 1, 2, 3]
    moved = {tuple(sorted((lab[u], lab[v]))) for u, v in ("ab", "bc", "cd")}
    assert moved == set(g6_edges(text))
    # The per-n counts of the committed run it reads, as results.json has them.
    with open(os.path.join(repo, "runs", "uvg-n10", "results.json"), encoding="utf-8") as f:
        by_n = {b["n"]: b for b in json.load(f)["by_n"]}
    assert table[0].split() == ["graphs", "positions", "first_player_wins"]
    assert [[int(w) for w in line.split()] for line in table[2:]] == [
        [n, by_n[n]["graphs"], by_n[n]["positions"], by_n[n]["first_player_wins"]] for n in (9, 10)
    ]


def g6_edges(g6):
    """The edges of graph6 text of fewer than 63 vertices (the format's
    definition: the upper triangle column by column, 6 bits a byte)."""
    n = ord(g6[0]) - 63
    bits = [(ord(c) - 63) >> (5 - i) & 1 for c in g6[1:] for i in range(6)]
    pairs = [(u, v) for v in range(n) for u in range(v)]
    return [p for p, b in zip(pairs, bits) if b]


def degrees(edges):
    d = {}
    for u, v in edges:
        d[u], d[v] = d.get(u, 0) + 1, d.get(v, 0) + 1
    return d.values()
