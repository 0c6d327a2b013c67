"""The README's "From Python" example runs and says what the CLI says."""

import contextlib
import io
import os
import re


def test_readme_example_runs(cli, repo):
    with open(os.path.join(repo, "README.md"), encoding="utf-8") as f:
        text = f.read()
    section = text[text.index("## From Python"):]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert len(code.strip().splitlines()) == 6
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    values, nu, count, col, iso = out.getvalue().splitlines()
    assert values == str(cli.json_lines("solve", "uvg", "-", "--json", input="Dhc")[0]["grundy"])
    assert nu == str(cli.json("solve", "uvg", "Dhc", "--start", "0", "--json")["nu"])
    # As geng's -u: the count only in the ">Z N graphs generated" line.
    z = cli.run("graphs", "8", "-c", "-u").stderr
    assert count == re.search(r"^>Z (\d+) graphs generated", z, re.M).group(1)
    # The README says a path (Bg; Bw is the triangle K3, value -1).
    assert col == cli.json("solve", "col", "Bg", "--colouring", "L..", "--json")["value"] == "-1/2"
    # Bg is the path 0-1-2; [(0, 2), (2, 1)] the path 0-2-1.
    assert iso == "True"
