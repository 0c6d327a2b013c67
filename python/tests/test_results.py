"""Results.load on every committed run: the documented schema, checked
against docs/schema/ and against the solvers."""

import json
import os

import pytest

import gamesweep as gs
from gamesweep.results import HISTOGRAM_COLUMNS, WITNESS_COLUMNS


def _runs(repo):
    root = os.path.join(repo, "runs")
    return sorted(
        os.path.join(root, d)
        for d in os.listdir(root)
        if os.path.exists(os.path.join(root, d, "results.json"))
    )


def test_every_committed_run_loads(repo):
    runs = _runs(repo)
    assert len(runs) >= 10
    for path in runs:
        r = gs.Results.load(path)
        with open(os.path.join(path, "results.json"), encoding="utf-8") as f:
            doc = json.load(f)
        assert r.kind == doc["kind"] and r.doc == doc
        assert list(r.witnesses.columns) == WITNESS_COLUMNS
        assert list(r.histograms.columns) == HISTOGRAM_COLUMNS
        assert set(r.witnesses["role"]) <= {"counterexample", "smallest", "collected"}
        assert dict(zip(r.params["param"], r.params["value"])) == doc["params"]
        prov = os.path.join(path, "provenance.json")
        assert (r.provenance is not None) == os.path.exists(prov)
        assert "<table" in r._repr_html_()


def test_uvg_witnesses_have_the_values_the_solver_gives(repo):
    r = gs.Results.load(os.path.join(repo, "runs", "uvg-n10"))
    smallest = r.witnesses[r.witnesses["role"] == "smallest"]
    assert len(smallest) >= 5
    for _, w in smallest.iterrows():
        (start,) = w["start"]
        v = gs.uvg.values(w["graph6"])[start]
        assert w["value"] == {0: "0", 1: "*"}.get(v, f"*{v}"), w["caption"]
        assert w["vertices"] == gs.edges(w["graph6"])[0]
    assert r.picture(0).svg.startswith("<svg")


def test_uvg_n10_histogram_matches_the_pipe(cli, repo):
    # The chart of positions by Grundy value and n, up to 8 vertices,
    # against `graphs N -c | solve uvg - --summary --json` and against
    # graphs() + uvg.values.
    r = gs.Results.load(os.path.join(repo, "runs", "uvg-n10"))
    wide = r.histogram("values-by-n")
    assert list(wide.index) == list(range(1, 11))
    for n in range(1, 9):
        codes = cli.run("graphs", str(n), "-c").stdout
        (row,) = cli.json("solve", "uvg", "-", "--summary", "--json", input=codes)["by_n"]
        chart = {int(v): int(c) for v, c in wide.loc[n].items() if c}
        assert chart == {int(v): c for v, c in row["grundy"].items()}, n
        mine = {}
        for g in gs.graphs(n):
            for v in gs.uvg.values(g):
                mine[v] = mine.get(v, 0) + 1
        assert mine == chart, n
    with pytest.raises(KeyError):
        r.histogram("no-such-chart")


def test_provenance_is_read(repo):
    r = gs.Results.load(os.path.join(repo, "runs", "uvg-n11"))
    assert r.provenance["kind"] == "uvg"


def test_checks_match_the_documented_schema(repo):
    with open(os.path.join(repo, "docs", "schema", "results.schema.json"), encoding="utf-8") as f:
        schema = json.load(f)
    assert schema["required"] == ["kind", "params"]
    assert schema["properties"]["kind"]["pattern"] == "^[a-z0-9][a-z0-9-]*$"
    assert schema["properties"]["params"]["additionalProperties"] == {"type": "integer", "minimum": 0}
    for bad in [
        "[]",
        '{"params": {}}',
        '{"kind": "Uvg", "params": {}}',
        '{"kind": "uvg", "params": {"max_n": -1}}',
        '{"kind": "uvg", "params": {"max_n": 1.5}}',
        '{"kind": "no-such-kind", "params": {}}',
    ]:
        with pytest.raises(gs.GamesweepError):
            gs.Results.from_json(bad)
