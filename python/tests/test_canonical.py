"""gs.canonical and gs.isomorphic (the generator's own canonical labelling)
against networkx's is_isomorphic, and the canonical form against
`gamesweep graphs`, which lists each class once by the same labelling."""

import random

import pytest

import gamesweep as gs
from conftest import random_graph


def _relabelled(rng, n, edges):
    perm = list(range(n))
    rng.shuffle(perm)
    return n, [(perm[u], perm[v]) for u, v in edges]


def test_isomorphic_agrees_with_networkx_on_seeded_random_graphs(rng):
    nx = pytest.importorskip("networkx")
    same = different = 0
    for _ in range(400):
        n = rng.randint(1, 12)
        p = rng.choice([0.2, 0.4, 0.6])
        g = random_graph(rng, n, p)
        # Half the time a relabelling of g (isomorphic), else another
        # random graph with as many vertices and edges (mostly not).
        if rng.random() < 0.5:
            h = _relabelled(rng, *g)
        else:
            pairs = [(u, v) for u in range(n) for v in range(u + 1, n)]
            h = (n, rng.sample(pairs, len(g[1])))
        G, H = nx.Graph(), nx.Graph()
        G.add_nodes_from(range(n)), H.add_nodes_from(range(n))
        G.add_edges_from(g[1]), H.add_edges_from(h[1])
        want = nx.is_isomorphic(G, H)
        assert gs.isomorphic(g, h) == want, (g, h)
        assert (gs.canonical(G) == gs.canonical(H)) == want
        same += want
        different += not want
    # Both answers were tried often.
    assert same > 150 and different > 50, (same, different)


def test_canonical_forms_are_the_classes_of_graphs(cli):
    """Every graph on 6 vertices (all 2^15 labelled ones) has the canonical
    form of exactly one of the 156 classes `gamesweep graphs 6` lists."""
    classes = cli.run("graphs", "6", "-q").stdout.split()
    assert len(classes) == 156
    canon = {gs.canonical(c) for c in classes}
    assert len(canon) == 156
    pairs = [(u, v) for u in range(6) for v in range(u + 1, 6)]
    rng = random.Random(5)
    seen = set()
    for mask in rng.sample(range(1 << 15), 3000):
        seen.add(gs.canonical((6, [e for i, e in enumerate(pairs) if mask >> i & 1])))
    assert seen <= canon and len(seen) > 100


def test_canonical_inputs_and_errors():
    nx = pytest.importorskip("networkx")
    # NetworkX node labels do not matter; graph6, sparse6, edge lists alike.
    G = nx.relabel_nodes(nx.petersen_graph(), {i: "abcdefghij"[i] for i in range(10)})
    c = gs.canonical(nx.petersen_graph())
    assert gs.canonical(G) == c == gs.canonical(gs.to_sparse6(nx.petersen_graph()))
    assert gs.canonical(">>graph6<<IheA@GUAo") == c
    assert gs.isomorphic("Dhc", [(0, 2), (2, 4), (4, 1), (1, 3), (3, 0)])
    assert not gs.isomorphic("Dhc", "D~{")
    assert gs.edges(c)[0] == 10 and len(gs.edges(c)[1]) == 15
    with pytest.raises(gs.InvalidInputError, match="at most 32"):
        gs.canonical((33, [(0, 1)]))
    with pytest.raises(gs.InvalidInputError, match="bad graph"):
        gs.canonical("not graph6 ~~")


def _check_labelling(n, edges):
    """`canonical(g, labelling=True)` on (n, edges): the graph6 is the
    canonical form, the map a bijection onto 0..n-1, and relabelling the
    graph by it gives that graph6."""
    text, lab = gs.canonical((n, edges), labelling=True)
    assert text == gs.canonical((n, edges))
    assert sorted(lab) == list(range(n)) and sorted(lab.values()) == list(range(n))
    assert gs.to_graph6((n, [(lab[u], lab[v]) for u, v in edges])) == text
    return lab


def test_canonical_labelling_on_seeded_random_graphs(rng):
    for _ in range(300):
        n = rng.randint(1, 20)
        _check_labelling(*random_graph(rng, n, rng.choice([0.1, 0.3, 0.5, 0.8])))
    # Large and symmetric ones, where many labellings give the form (and
    # colour refinement alone tells no vertex apart): empty, complete,
    # cycles, the 5-cube (32 vertices), the Paley graph on 29 vertices
    # (strongly regular), random 3-regular graphs.
    every = [(u, v) for u in range(32) for v in range(u + 1, 32)]
    _check_labelling(32, [])
    _check_labelling(32, every)
    _check_labelling(31, [(i, (i + 1) % 31) for i in range(31)])
    _check_labelling(32, [(u, v) for u, v in every if bin(u ^ v).count("1") == 1])
    squares = {i * i % 29 for i in range(1, 29)}
    _check_labelling(29, [(u, v) for u in range(29) for v in range(u + 1, 29) if (v - u) % 29 in squares])
    for _ in range(20):
        n = rng.choice([10, 16, 24, 30])
        # A 3-regular multigraph's simple part (a pairing of 3n half-edges).
        half = [v for v in range(n) for _ in range(3)]
        rng.shuffle(half)
        pairs = {tuple(sorted(p)) for p in zip(half[::2], half[1::2]) if p[0] != p[1]}
        _check_labelling(n, sorted(pairs))


def test_canonical_labelling_keys_are_networkx_node_labels(rng):
    nx = pytest.importorskip("networkx")
    for _ in range(50):
        n, es = random_graph(rng, rng.randint(2, 14), 0.4)
        names = [f"v{i}" for i in rng.sample(range(100), n)]
        G = nx.Graph()
        G.add_nodes_from(names)
        G.add_edges_from((names[u], names[v]) for u, v in es)
        text, lab = gs.canonical(G, labelling=True)
        assert set(lab) == set(names) and text == gs.canonical((n, es))
        H = nx.relabel_nodes(G, lab)
        C = nx.Graph()
        C.add_nodes_from(range(n))
        C.add_edges_from(H.edges)
        assert gs.to_graph6(C) == text
    # The docstring's example: the path's middle vertex, 0, is the one of
    # degree 2 in the canonical form.
    text, lab = gs.canonical([(1, 0), (0, 2)], labelling=True)
    assert text == "BW" and gs.edges(text)[1] == [(0, 2), (1, 2)] and lab[0] == 2
    with pytest.raises(gs.InvalidInputError, match="labelling='yes'"):
        gs.canonical("Bg", labelling="yes")
