"""graphs() against `gamesweep graphs`, and the graph conversions."""

import itertools
import re

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
    # A networkx graph's values are by node: {node: value}.
    assert gs.uvg.values(c5) == dict(enumerate(gs.uvg.values("Dhc")))
    # Node labels of any kind, numbered in G.nodes order (as networkx's graph6).
    h = nx.relabel_nodes(nx.petersen_graph(), {i: f"v{i}" for i in range(10)})
    assert gs.to_graph6(h) == nx.to_graph6_bytes(h, header=False).decode().strip()
    assert nx.is_isomorphic(gs.to_networkx(gs.to_graph6(h)), h)
    d = nx.DiGraph([(0, 1), (1, 2)])
    assert gs.to_digraph6(d).startswith("&")
    with pytest.raises(gs.GamesweepError, match="directed"):
        gs.uvg.values(d)


GENG_CASES = [
    # (keywords, the CLI's arguments after N)
    (dict(edges=5), ["-c", "5"]),
    (dict(edges=(6, 8), connected=False), ["6:8"]),
    (dict(edges="7:0"), ["-c", "7:0"]),
    (dict(edges=(7, None)), ["-c", "7:0"]),
    (dict(edges=":6", connected=False), [":6"]),
    (dict(edges=(5, 9), part="1/3"), ["-c", "5:9", "1/3"]),
    (dict(edges=(5, 9), part="2/3", max_degree=4, min_degree=2), ["-c", "5:9", "2/3", "-D", "4", "-d", "2"]),
    (dict(sparse6=True), ["-c", "-s"]),
    (dict(sparse6=True, connected=False, edges=(3, 6)), ["-s", "3:6"]),
]


@pytest.mark.parametrize("kw,args", GENG_CASES)
def test_graphs_edges_and_sparse6_match_the_cli(cli, kw, args):
    for n in (5, 7):
        want = cli.run("graphs", str(n), *args, "-q").stdout.split()
        got = list(gs.graphs(n, **kw))
        assert got == want, (n, kw)
        # As geng's -u: the count only in the ">Z N graphs generated" line.
        z = cli.run("graphs", str(n), *args, "-u").stderr
        count = re.search(r"^>Z (\d+) graphs generated", z, re.M).group(1)
        assert str(len(got)) == count, (n, kw)


def test_graphs_small_cases_exactly():
    # The two trees on 4 vertices (the star and the path), and the four
    # graphs on 3 vertices read back from sparse6: one of each isomorphism
    # class, as nauty's geng lists them (`geng -c 4 3:3`, `geng -s 3`).
    def degrees(code):
        n, es = gs.edges(code)
        return sorted(sum(v in e for e in es) for v in range(n))

    assert sorted(map(degrees, gs.graphs(4, edges=3))) == [[1, 1, 1, 3], [1, 1, 2, 2]]
    three = list(gs.graphs(3, connected=False, sparse6=True))
    assert all(s.startswith(":") for s in three)
    assert sorted(map(degrees, three)) == [[0, 0, 0], [0, 1, 1], [1, 1, 2], [2, 2, 2]]
    assert [degrees(s) for s in gs.graphs(3, sparse6=True, edges=3)] == [[2, 2, 2]]
    assert list(gs.graphs(5, edges=(11, None))) == []


def test_graphs_bad_edge_ranges_carry_the_clis_message(cli):
    for text in ["5:4", "x", ":"]:
        r = cli.run("graphs", "5", text, check=False)
        assert r.returncode == 2
        with pytest.raises(gs.GamesweepError) as e:
            gs.graphs(5, edges=text)
        assert str(e.value) in r.stderr, (text, str(e.value), r.stderr)
    with pytest.raises(gs.GamesweepError, match="less than"):
        gs.graphs(5, edges=(4, 3))


def test_sparse6_is_accepted_wherever_graph6_is(cli):
    # Every connected graph on 6 vertices, as sparse6: the same answers as
    # its graph6, from every function that takes a graph.
    s6 = list(gs.graphs(6, sparse6=True))
    g6 = list(gs.graphs(6))
    assert len(s6) == len(g6) == 112
    for s, g in zip(s6, g6):
        assert s.startswith(":")
        assert gs.to_graph6(s) == g
        assert gs.to_sparse6(g) == s
        assert gs.edges(s) == gs.edges(g)
        assert gs.uvg.values(s) == gs.uvg.values(g)
    s, g = s6[40], g6[40]
    assert gs.uvg.solve(s, start=1)["starts"] == gs.uvg.solve(g, start=1)["starts"]
    assert gs.col.value(s) == gs.col.value(g)
    assert gs.uvg.draw(s).svg.startswith("<svg")
    assert gs.to_graph6(">>sparse6<<" + s + "\n") == g
    # The CLI's pipe over sparse6 lines gives the same values.
    lines = cli.json_lines("solve", "uvg", "-", "--json", input="\n".join(s6[:20]) + "\n")
    assert [x["grundy"] for x in lines] == [gs.uvg.values(s) for s in s6[:20]]
    # ... and the same answer as the CLI on the sparse6 text itself.
    assert gs.uvg.solve(s, start=0) == cli.json("solve", "uvg", s, "--start", "0", "--json")
    assert gs.col.solve(s) == cli.json("solve", "col", s, "--json")
    # A bad sparse6 text: the CLI's message.
    for bad in [":B!", ":A~~~~", ":~"]:
        r = cli.run("solve", "uvg", bad, "--json", check=False)
        assert r.returncode != 0
        with pytest.raises(gs.GamesweepError, match="sparse6") as e:
            gs.uvg.solve(bad)
        assert str(e.value) in r.stderr, (bad, str(e.value), r.stderr)
        with pytest.raises(gs.GamesweepError, match="sparse6"):
            gs.uvg.values(bad)
        with pytest.raises(gs.GamesweepError, match="sparse6"):
            gs.edges(bad)


def test_graphs_edges_of_a_wrong_form_are_errors():
    for bad in [-1, (1, 2, 3), (-1, 4), (2, -1), 2.5, True, [1, 2]]:
        with pytest.raises(gs.GamesweepError, match="edges"):
            gs.graphs(5, edges=bad)
