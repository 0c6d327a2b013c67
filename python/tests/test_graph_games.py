"""The games of the graph-game layer (``gs.game(name)``, ``gs.games()``):
values against independent values (Dawson's Kayles for Node Kayles on
paths, ±n for Snort on the star K1,n, a plain recursive solver for edge
geography) and against ``gamesweep solve GAME CODE --json``; the board of
``gamesweep explore``; clear errors."""

import functools
import pickle

import pytest

import gamesweep as gs


def _path(n):
    return gs.to_graph6((n, [(i, i + 1) for i in range(n - 1)]))


def _mex(xs):
    k = 0
    while k in xs:
        k += 1
    return k


@functools.lru_cache(maxsize=None)
def _dawson(n):
    """Node Kayles on the path P_n: taking vertex i leaves paths of i - 1
    and n - i - 2 vertices."""
    if n <= 0:
        return 0
    return _mex({_dawson(max(i - 1, 0)) ^ _dawson(max(n - i - 2, 0)) for i in range(n)})


def test_games_lists_the_layer_and_each_game_knows_itself(cli):
    names = gs.games()
    assert names[:5] == ["node-kayles", "arc-kayles", "snort", "geography-vertex", "geography-edge"]
    kinds = [k["name"] for k in gs.kinds()]
    for name in names:
        g = gs.game(name)
        assert g.name == name and name in kinds
        assert g.title and g.about.startswith(g.title)
        assert isinstance(g.impartial, bool) and isinstance(g.directed, bool)
        assert g == gs.Game(name) and hash(g) == hash(gs.Game(name))
        assert pickle.loads(pickle.dumps(g)) == g
        assert repr(g) == f"gamesweep.game({name!r})"
    assert gs.game("snort").impartial is False
    assert gs.game("node-kayles").impartial is True
    assert gs.game("geography-vertex").directed is True


def test_node_kayles_on_paths_is_dawsons_kayles():
    nk = gs.game("node-kayles")
    for n in range(1, 13):
        assert nk.values(_path(n)) == [_dawson(n)], n
    # Dawson's Kayles 0.137 starts 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3.
    assert [_dawson(n) for n in range(11)] == [0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3]


def test_snort_on_stars_is_plus_or_minus_n():
    for n in range(1, 10):
        star = gs.to_graph6((n + 1, [(0, i) for i in range(1, n + 1)]))
        assert gs.game("snort").values(star) == [(f"±{n}", "N")], n


def _edge_geography(n, edges, at, used=frozenset()):
    opts = set()
    for i, (u, v) in enumerate(edges):
        if i not in used and at in (u, v):
            opts.add(_edge_geography(n, edges, u + v - at, used | {i}))
    return _mex(opts)


def test_edge_geography_against_a_plain_recursion(rng):
    from conftest import random_graph

    eg = gs.game("geography-edge")
    for _ in range(40):
        n, edges = random_graph(rng, rng.randint(1, 7), 0.4)
        edges = sorted(edges)
        want = [_edge_geography(n, tuple(edges), v) for v in range(n)]
        assert eg.values((n, edges)) == want, (n, edges)


def test_every_game_agrees_with_solve_json(cli, rng):
    from conftest import random_graph

    for name in gs.games():
        g = gs.game(name)
        for _ in range(12):
            n = rng.randint(1, 5 if g.directed else 7)
            if g.directed:
                arcs = [(u, v) for u in range(n) for v in range(n) if u != v and rng.random() < 0.4]
                code = gs.to_digraph6((n, arcs))
            else:
                code = gs.to_graph6(random_graph(rng, n, 0.4))
            want = cli.json("solve", name, code, "--json")
            got = g.values(code)
            if g.impartial:
                as_text = ["0" if k == 0 else "*" if k == 1 else f"*{k}" for k in got]
                assert as_text == [w["value"] for w in want], (name, code)
            else:
                assert got == [(w["value"], w["outcome"]) for w in want], (name, code)
            # The board's starts are the same positions, described as solve does.
            starts = g.board(code)["starts"]
            assert [s["describe"] for s in starts] == [w["describe"] for w in want]


def test_the_board_values_every_move_and_names_the_solvers():
    # Node Kayles on P4 (Dawson 0): every move to a nonzero value.
    b = gs.game("node-kayles").board(_path(4))
    p = b["position"]
    assert p["grundy"] == _dawson(4) == 0 and p["mover_wins"] is False
    want = [_dawson(max(v - 1, 0)) ^ _dawson(max(4 - v - 2, 0)) for v in range(4)]
    assert [m["grundy"] for m in p["moves"]] == want == [1, 1, 1, 1]
    assert [m["place"] for m in p["moves"]] == [{"vertex": v} for v in range(4)]
    assert not any(m["wins"] for m in p["moves"])
    # Take the middle of P5 (leaves two single vertices: 1 ^ 1 = 0)...
    after = gs.game("node-kayles").board(_path(5), moves=[2])["position"]
    assert after["value"] == "0"
    # Snort on K1,3, Red first: the solver takes the centre.
    star = gs.to_graph6((4, [(0, 1), (0, 2), (0, 3)]))
    p = gs.game("snort").board(star, first="R")["position"]
    assert p["to_move"] == "R"
    reply = [m for m in p["moves"] if m["side"] == "R" and m["index"] == p["reply"]][0]
    assert reply["place"] == {"vertex": 0} and reply["value"] == "-3"
    assert reply["wins"] is True


def test_networkx_and_edge_lists_are_graphs_too():
    nx = pytest.importorskip("networkx")
    assert gs.game("node-kayles").values(nx.path_graph(7)) == [_dawson(7)]
    assert gs.game("geography-vertex").values(nx.DiGraph([(0, 1), (1, 2)])) == [0, 1, 0]
    assert gs.game("arc-kayles").values([(0, 1), (1, 2), (2, 3)]) == [_mex({0, 1})]


def test_errors_are_clear():
    with pytest.raises(gs.InvalidInputError, match=r"no game 'nim' on the graph-game layer \(games: node-kayles, arc-kayles, snort"):
        gs.game("nim")
    with pytest.raises(ValueError, match="no game"):
        gs.Game("uvg")
    nk = gs.game("node-kayles")
    with pytest.raises(gs.InvalidInputError, match="graph6"):
        nk.values("D!!")
    with pytest.raises(gs.InvalidInputError, match=r"13 vertices: `node-kayles` values graphs of at most 12 vertices"):
        nk.values(_path(13))
    with pytest.raises(gs.InvalidInputError, match=r"move 1: the player to move has 4 options here, not 7 \(0..3\)"):
        nk.board(_path(4), moves=[7])
    with pytest.raises(gs.InvalidInputError, match="start 5: `geography-edge` has 4 start positions"):
        gs.game("geography-edge").board(_path(4), start=5)
    with pytest.raises(gs.InvalidInputError, match="first='B'"):
        gs.game("snort").board(_path(4), first="B")
    with pytest.raises(gs.InvalidInputError, match="budget=-1"):
        nk.values(_path(4), budget=-1)
    # Past the budget: BudgetExceededError, suggesting a larger one.
    k7 = gs.to_graph6((7, [(u, v) for u in range(7) for v in range(u + 1, 7)]))
    with pytest.raises(gs.BudgetExceededError) as e:
        gs.game("geography-edge").values(k7, budget=100)
    assert e.value.suggested_budget == 1000
    assert "budget=1000 to allow more" in str(e.value)
