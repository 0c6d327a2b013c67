"""graphs() against `gamesweep graphs`, and the graph conversions."""

import itertools

import pytest

import gamesweep as gs


@pytest.mark.parametrize("n", range(1, 9))
def test_graphs_match_the_cli(cli, n):
    assert list(gs.graphs(n)) == cli.run("graphs", str(n), "-c").stdout.split()
    assert list(gs.graphs(n, connected=False)) == cli.run("graphs", str(n)).stdout.split()


def test_graphs_options_match_the_cli(cli):
    for kw, args in [
        (dict(min_degree=2), ["-c", "-d", "2"]),
        (dict(max_degree=3, connected=False), ["-D", "3"]),
        (dict(part="3/7"), ["-c", "3/7"]),
        (dict(part="0/2", min_degree=1, max_degree=4), ["-c", "0/2", "-d", "1", "-D", "4"]),
    ]:
        assert list(gs.graphs(8, **kw)) == cli.run("graphs", "8", *args).stdout.split(), kw


def test_graphs_parts_partition_and_iteration_stops_early():
    whole = list(gs.graphs(8))
    parts = [g for r in range(5) for g in gs.graphs(8, part=f"{r}/5")]
    assert sorted(parts) == sorted(whole)
    # Taking a few of a large listing returns at once and drops the rest.
    assert len(list(itertools.islice(gs.graphs(12), 10))) == 10


def test_graphs_bad_arguments_are_errors():
    for kw in [dict(n=0), dict(n=17), dict(n=5, part="5/5"), dict(n=5, part="x")]:
        with pytest.raises(gs.GamesweepError):
            gs.graphs(**kw)


def test_conversions_give_the_same_graph6():
    g6 = "Dhc"  # the 5-cycle
    n, es = gs.edges(g6)
    assert n == 5 and len(es) == 5
    assert gs.to_graph6(es) == g6
    assert gs.to_graph6((n, es)) == g6
    assert gs.to_graph6(b">>graph6<<Dhc\n") == g6
    # Isolated vertices need (n, edges).
    assert gs.edges(gs.to_graph6((7, es)))[0] == 7

    class SageLike:
        def graph6_string(self):
            return g6

    assert gs.to_graph6(SageLike()) == g6
    assert gs.uvg.values(SageLike()) == gs.uvg.values(es) == gs.uvg.values(g6)
    for bad in [object(), [(0, "x")], [(0, -1)], [(1, 1)]]:
        with pytest.raises(gs.GamesweepError):
            gs.to_graph6(bad)


def test_networkx_graphs():
    import networkx as nx
    c5 = nx.cycle_graph(5)
    assert gs.uvg.values(c5) == gs.uvg.values("Dhc")
    # Node labels of any kind, numbered in G.nodes order (as networkx's graph6).
    h = nx.relabel_nodes(nx.petersen_graph(), {i: f"v{i}" for i in range(10)})
    assert gs.to_graph6(h) == nx.to_graph6_bytes(h, header=False).decode().strip()
    assert nx.is_isomorphic(gs.to_networkx(gs.to_graph6(h)), h)
    d = nx.DiGraph([(0, 1), (1, 2)])
    assert gs.to_digraph6(d).startswith("&")
    with pytest.raises(gs.GamesweepError, match="directed"):
        gs.uvg.values(d)
