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
