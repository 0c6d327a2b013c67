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
    assert len(code.strip().splitlines()) == 5
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    values, nu, count, col = out.getvalue().splitlines()
    assert values == str(cli.json_lines("solve", "uvg", "-", "--json", input="Dhc")[0]["grundy"])
    assert nu == str(cli.json("solve", "uvg", "Dhc", "--start", "0", "--json")["nu"])
    # As geng's -u: the count only in the ">Z N graphs generated" line.
    z = cli.run("graphs", "8", "-c", "-u").stderr
    assert count == re.search(r"^>Z (\d+) graphs generated", z, re.M).group(1)
    assert col == cli.json("solve", "col", "Bw", "--colouring", "L..", "--json")["value"]
