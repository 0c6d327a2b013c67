"""The package used as Python code is used: in multiprocessing pools,
pickled, with networkx's node labels, pandas' numeric columns (issue 46)."""

import multiprocessing
import os
import pickle
import random

import pytest

import gamesweep as gs
from conftest import random_graph


def _graph6_edges(code):
    """(n, number of edges) of a graph6 text, decoded here without
    gamesweep: N(n) then the upper triangle column by column, 6 bits a
    byte."""
    b = [c - 63 for c in code.encode("ascii")]
    if b[0] < 63:
        n, rest = b[0], b[1:]
    else:
        n, rest = (b[1] << 12) | (b[2] << 6) | b[3], b[4:]
    bits = "".join(format(x, "06b") for x in rest)
    return n, bits[: n * (n - 1) // 2].count("1")


def _digraph6_arcs(code):
    b = [c - 63 for c in code[1:].encode("ascii")]
    n, rest = b[0], b[1:]
    bits = "".join(format(x, "06b") for x in rest)
    return n, bits[: n * n].count("1")


def _runs(repo):
    root = os.path.join(repo, "runs")
    return sorted(
        os.path.join(root, d) for d in os.listdir(root) if os.path.exists(os.path.join(root, d, "results.json"))
    )


# Item 10: witnesses' sizes.


def test_witness_edges_are_the_graph6s_edges(repo):
    r = gs.Results.load(os.path.join(repo, "runs", "uvg-n11"))
    last = r.witnesses.iloc[-1]
    assert last["graph6"] == "K}M`M?C@A?[s"
    assert (last["vertices"], last["edges"]) == (12, 22)
    checked = 0
    for path in _runs(repo):
        for _, w in gs.Results.load(path).witnesses.iterrows():
            code = w["graph6"]
            if code.startswith("&"):
                want = _digraph6_arcs(code)
            elif code.startswith(":"):
                n, es = gs.edges(code)
                want = (n, len(set(es)))
            else:
                want = _graph6_edges(code)
            assert (w["vertices"], w["edges"]) == want, (path, w["role"], code)
            checked += 1
    assert checked > 40
    # The rows that had 0: collected and extension witnesses of the UVG runs.
    for name in ("uvg-n10", "uvg-n11"):
        w = gs.Results.load(os.path.join(repo, "runs", name)).witnesses
        collected = w[w["role"] == "collected"]
        assert len(collected) >= 16 and (collected["edges"] > 0).all(), name


# Item 11: multiprocessing and pickle.


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_a_process_pool_maps_values_and_carries_errors_back(method):
    ctx = multiprocessing.get_context(method)
    with ctx.Pool(2) as pool:
        assert pool.map(gs.uvg.values, ["Dhc", "A_"]) == [[0] * 5, [1, 1]]
        with pytest.raises(gs.InvalidInputError) as e:
            pool.map(gs.uvg.values, ["Dhc", "zz!"])
    assert isinstance(e.value, ValueError) and "zz!" in str(e.value)


def test_solutions_pickle():
    for s in [gs.uvg.solve("Dhc"), gs.uvg.solve("Dhc", start=2), gs.col.solve("Bw", "L.."), gs.myopic.solve(gs.to_digraph6((3, [(0, 1), (1, 2)])))]:
        back = pickle.loads(pickle.dumps(s))
        assert type(back) is type(s) and back == s
        assert back._repr_svg_() == s._repr_svg_() and back._repr_svg_().startswith("<svg")


def test_errors_pickle_as_importable_classes():
    big = gs.to_graph6(random_graph(random.Random(1), 40, 0.2))
    cases = [
        (lambda: gs.uvg.values("zz!"), gs.InvalidInputError),
        (lambda: gs.uvg.solve("Dhc", start=7), gs.InvalidInputError),
        (lambda: gs.col.solve("Bw", "LL."), gs.InvalidInputError),
        (lambda: gs.uvg.solve(big, budget=50), gs.BudgetExceededError),
        (lambda: gs.Coordinator("http://127.0.0.1:9").status(), gs.CoordinatorError),
    ]
    for call, cls in cases:
        with pytest.raises(cls) as e:
            call()
        assert type(e.value).__module__ == "gamesweep._errors"
        assert getattr(gs, type(e.value).__name__) is type(e.value)
        back = pickle.loads(pickle.dumps(e.value))
        assert type(back) is cls and str(back) == str(e.value)
        assert isinstance(back, gs.GamesweepError)
    assert issubclass(gs.InvalidInputError, ValueError)
    assert not issubclass(gs.BudgetExceededError, ValueError)


# Item 12: networkx node labels.


def test_networkx_start_is_a_node_label_and_answers_name_nodes(cli):
    import networkx as nx

    g = nx.Graph([(3, 1), (1, 0), (0, 2)])
    code = nx.to_graph6_bytes(g, header=False).decode().strip()
    order = list(g.nodes)
    grundy = cli.json("solve", "uvg", code, "--json")["starts"]
    by_node = {order[s["start"]]: s["grundy"] for s in grundy}
    assert by_node[0] == 2 and by_node[3] == 1
    assert gs.uvg.values(g) == by_node
    s = gs.uvg.solve(g, start=0)
    want = cli.json("solve", "uvg", code, "--start", str(order.index(0)), "--json")
    (st,) = s["starts"]
    assert st["start"] == 0 and st["grundy"] == want["starts"][0]["grundy"] == 2
    assert sorted(m["vertex"] for m in st["moves"]) == sorted(order[m["vertex"]] for m in want["starts"][0]["moves"])
    assert st["winning_move"] == order[want["starts"][0]["winning_move"]]
    assert sorted(map(sorted, s["edges"])) == sorted(map(sorted, g.edges()))
    assert gs.uvg.draw(g, start=0).svg == cli.run("solve", "uvg", code, "--start", str(order.index(0)), "--svg").stdout
    # Labels of any type; graph6 input keeps vertex numbers.
    h = nx.Graph([("a", "b"), ("b", "c")])
    assert gs.uvg.values(h) == {"a": 0, "b": 1, "c": 0}  # the path a-b-c
    assert gs.uvg.solve(h, start="b")["starts"][0]["start"] == "b"
    with pytest.raises(gs.InvalidInputError, match="start='z' is not a node"):
        gs.uvg.solve(h, start="z")
    with pytest.raises(gs.InvalidInputError, match="start=True"):
        gs.uvg.solve(g, start=True)
    assert gs.uvg.values(code) == [by_node[v] for v in order]
    assert gs.uvg.solve(code, start=order.index(0))["starts"][0]["start"] == order.index(0)


# Item 14: errors written for Python.


def test_errors_name_the_keywords():
    big = gs.to_graph6(random_graph(random.Random(1), 40, 0.2))
    with pytest.raises(gs.BudgetExceededError, match=r"pass budget=500 to allow more, budget=0 for unlimited") as e:
        gs.uvg.solve(big, budget=50)
    assert "--budget" not in str(e.value) and e.value.suggested_budget == 500
    with pytest.raises(gs.BudgetExceededError, match="budget="):
        gs.uvg.values(big, budget=50)
    for call, word in [
        (lambda: gs.uvg.solve("Dhc", start=-1), "start=-1"),
        (lambda: gs.uvg.solve("Dhc", budget=-1), "budget=-1"),
        (lambda: gs.uvg.values("Dhc", budget=-1), "budget=-1"),
        (lambda: gs.uvg.draw("Dhc", start=-1), "start=-1"),
        (lambda: gs.col.solve("Bw", budget=-1), "budget=-1"),
        (lambda: gs.gamegraph.solve("", budget=-1), "budget=-1"),
        (lambda: gs.uvg.solve("Dhc", start=True), "start=True"),
        (lambda: gs.uvg.solve("Dhc", start=1.0), "start=1.0"),
        (lambda: gs.uvg.solve("Dhc", budget=2**64), "budget="),
    ]:
        with pytest.raises(ValueError, match=word) as e:
            call()
        assert isinstance(e.value, gs.InvalidInputError), word
    # Integers of numpy (a DataFrame's cells) are whole numbers; its bools are not.
    import numpy as np  # (pandas brings it)
    assert gs.uvg.solve("Dhc", start=np.int64(2), budget=np.uint64(0))["starts"][0]["start"] == 2
    with pytest.raises(gs.InvalidInputError, match="start=.*bool"):
        gs.uvg.solve("Dhc", start=np.bool_(True))


# Item 13: values as numbers, counts per n.


def test_values_by_n_columns_are_grundy_values_in_order(repo):
    r = gs.Results.load(os.path.join(repo, "runs", "uvg-n10"))
    wide = r.histogram("values-by-n")
    assert list(wide.columns) == list(range(len(wide.columns)))
    assert len(wide.columns) >= 5
    starred = r.histogram("values-by-n", star=True)
    assert list(starred.columns)[:3] == ["0", "*", "*2"]
    assert (starred.to_numpy() == wide.to_numpy()).all()


def test_by_n_counts_graphs_positions_and_first_player_wins(repo):
    r = gs.Results.load(os.path.join(repo, "runs", "uvg-n10"))
    t = r.by_n
    assert t.index.name == "n" and list(t.index) == list(range(1, 11))
    assert list(t.columns)[:3] == ["graphs", "positions", "first_player_wins"]
    for n in range(1, 8):
        vals = [gs.uvg.values(g) for g in gs.graphs(n)]
        assert t.loc[n, "graphs"] == len(vals)
        assert t.loc[n, "positions"] == sum(len(v) for v in vals)
        assert t.loc[n, "first_player_wins"] == sum(1 for v in vals for x in v if x)
    with pytest.raises(KeyError):
        gs.Results.load(os.path.join(repo, "runs", "subtraction")).by_n


# Item 13, second half: values that add and compare.


def test_col_values_add_as_disjoint_boards_do(cli, rng):
    # Col on two boards side by side is the sum of the two games: the CLI's
    # value of the union equals the sum of Values of the parts.
    sums = 0
    for _ in range(40):
        (n1, e1), (n2, e2) = random_graph(rng, rng.randint(1, 5), 0.4), random_graph(rng, rng.randint(1, 5), 0.4)
        c1 = "".join(rng.choice("...LR") for _ in range(n1))
        c2 = "".join(rng.choice("...LR") for _ in range(n2))
        union = gs.to_graph6((n1 + n2, e1 + [(u + n1, v + n1) for u, v in e2]))
        got = cli.json_lines(
            "solve", "col", "-", "--json", check=False,
            input=f"{gs.to_graph6((n1, e1))} {c1}\n{gs.to_graph6((n2, e2))} {c2}\n{union} {c1 + c2}\n",
        )
        if len(got) != 3:
            continue  # an illegal colouring
        a, b, ab = (gs.Value(g["value"]) for g in got)
        assert a + b == ab, (got[0]["value"], got[1]["value"], got[2]["value"])
        assert str(gs.Value(got[2]["value"])) == got[2]["value"]
        for g in got:
            assert gs.Value(g["value"]).outcome == g["outcome"], g
        assert (a > b) == (a - b).outcome.__eq__("L") and (a - b == 0) == (a == b)
        sums += 1
    assert sums >= 10


def test_values_print_compare_and_pickle(repo):
    import json
    import re
    from fractions import Fraction

    texts = set()
    for path in _runs(repo):
        with open(os.path.join(path, "results.json"), encoding="utf-8") as f:
            # Number-plus-nimber values (Col's, the impartial kinds'); a
            # general partizan value ({…|…}, a switch ±x: Snort) is not one.
            texts |= set(re.findall(r'"value":\s*"([^"{|}±]*)"', f.read()))
    assert len(texts) > 100
    for t in texts:
        assert str(gs.Value(t)) == t
    v = gs.Value("-3/4*")
    assert (v.number, v.nimber) == (Fraction(-3, 4), 1)
    assert str(gs.Value(0, nimber=2)) == "*2" and str(gs.Value("1*2") + gs.Value("*3")) == "1*"
    star = gs.Value("*")
    assert not (star > 0 or star < 0 or star == 0) and star.fuzzy(0) and star + star == 0
    assert gs.Value("1/2") > gs.Value("1/4*") > 0 > gs.Value("-1/2*")
    assert -gs.Value("3/8*") == gs.Value("-3/8*") and 1 - gs.Value("1/2") == gs.Value("1/2")
    assert sorted(gs.Value(t) for t in ["1/2", "-1", "3/4", "0"]) == [gs.Value(t) for t in ["-1", "0", "1/2", "3/4"]]
    assert pickle.loads(pickle.dumps(v)) == v and {gs.Value("2"): 1}[2] == 1
    with pytest.raises(gs.InvalidInputError, match="CGSuite"):
        gs.Value("{1|0}")
    assert json.dumps(str(v)) == '"-3/4*"'
