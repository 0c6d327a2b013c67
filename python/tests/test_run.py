"""gs.kinds() and gs.run(): `gamesweep kinds` and `gamesweep run` from
Python, compared with the CLI's output on the same arguments."""

import json
import os
import re

import pytest

import gamesweep as gs


def test_kinds_are_the_clis(cli):
    text = cli.run("kinds").stdout
    names = [line.split()[0] for line in text.splitlines() if line and not line.startswith(" ")]
    kinds = gs.kinds()
    assert [k["name"] for k in kinds] == names
    for k in kinds:
        assert k["about"] and k["about"] in text
        for p in k["params"]:
            flag = "--" + p["name"].replace("_", "-")
            assert re.search(rf"^    {re.escape(flag)} .*\({p['min']}\.\.={p['max']}\)", text, re.M), (k["name"], p)
            assert p["default"] is None or f"[default: {p['default']}]" in text
    uvg = next(k for k in kinds if k["name"] == "uvg")
    assert "max_n" in [p["name"] for p in uvg["params"]]


def test_run_writes_what_the_cli_writes(cli, tmp_path):
    r = gs.run("uvg", max_n=6, out=str(tmp_path / "py"), threads=1)
    assert isinstance(r, gs.Results) and r.kind == "uvg"
    cli.run("run", "uvg", "--max-n", "6", "--out", str(tmp_path / "cli"), "--threads", "1", "--no-http")
    for f in ("results.json", "report.md"):
        assert (tmp_path / "py" / f).read_bytes() == (tmp_path / "cli" / f).read_bytes(), f
    # The committed reference run of the same sweep (runs/uvg is max_n 9):
    # by_n agrees on every n both have.
    mine = json.loads((tmp_path / "py" / "results.json").read_text())
    assert [b["n"] for b in mine["by_n"]] == list(range(1, 7))
    # A second call resumes the finished run: the same results.
    again = gs.run("uvg", max_n=6, out=str(tmp_path / "py"), threads=1)
    assert again.doc == r.doc


def test_run_errors_are_invalid_input(tmp_path):
    with pytest.raises(gs.InvalidInputError, match="no-such-kind"):
        gs.run("no-such-kind", out=str(tmp_path / "x"))
    # Errors in the keywords name keywords, without the CLI's usage lines.
    with pytest.raises(gs.InvalidInputError, match=r"unexpected keyword max_nn= .*similar keyword exists: max_n=") as e:
        gs.run("uvg", max_nn=5, out=str(tmp_path / "x"))
    assert "--" not in str(e.value) and "Usage" not in str(e.value), str(e.value)
    with pytest.raises(gs.InvalidInputError, match=r"`max_n=1000` is out of range for sweep `uvg`: allowed 1\.\.=12"):
        gs.run("uvg", max_n=1000, out=str(tmp_path / "x"))
    with pytest.raises(gs.InvalidInputError, match="max_n=-1"):
        gs.run("uvg", max_n=-1, out=str(tmp_path / "x"))
    with pytest.raises(gs.InvalidInputError):
        gs.run("--help")
    with pytest.raises(gs.InvalidInputError):
        gs.run("uvg", max_n="--help", out=str(tmp_path / "x"))
    assert not os.path.exists(tmp_path / "x" / "results.json")
