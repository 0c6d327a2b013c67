"""Graphs in, graph6 out: what every gamesweep function accepts as a graph."""

from __future__ import annotations

from typing import Any, Iterable, List, Optional, Tuple, Union

from . import _native
from ._errors import InvalidInputError, count, translated

#: What the functions take as a graph: graph6 or sparse6 text (nauty's
#: formats, as ``gamesweep graphs`` and geng write them), an edge list
#: ``[(u, v), ...]`` (vertices ``0..max``), ``(n, edges)`` (isolated vertices
#: too), a ``networkx.Graph`` (vertices numbered in ``G.nodes`` order, as
#: ``networkx.to_graph6_bytes`` does) or anything with a ``graph6_string()``
#: method (a Sage graph).
GraphLike = Union[str, bytes, Iterable[Tuple[int, int]], Tuple[int, Iterable[Tuple[int, int]]], Any]


def _pairs(edges: Iterable[Any], what: str) -> List[Tuple[int, int]]:
    out = []
    for e in edges:
        try:
            u, v = e[0], e[1]
            out.append((int(u), int(v)))
        except (TypeError, ValueError, IndexError):
            raise InvalidInputError(f"{what} {e!r}: expected a pair of vertex numbers") from None
    return out


def _networkx(g: Any, digraph: bool) -> str:
    index = {v: i for i, v in enumerate(g.nodes)}
    pairs = [(index[u], index[v]) for u, v in g.edges()]
    if g.is_directed():
        if not digraph:
            raise InvalidInputError(
                "a directed networkx graph: this game is played on an undirected graph"
            )
        return _native.digraph6_encode(len(index), pairs)
    if digraph:
        # An undirected graph as a digraph: both arcs of every edge.
        return _native.digraph6_encode(len(index), pairs + [(v, u) for u, v in pairs])
    return _native.graph6_encode(len(index), pairs)


@translated()
def to_graph6(g: GraphLike) -> str:
    """The graph6 text of ``g`` (see :data:`GraphLike`); graph6 text is
    returned as given (without a ``>>graph6<<`` header), for the solver to
    check; sparse6 text (``:...``) is converted."""
    code = _to_code(g, digraph=False)
    if code.startswith((":", ";")):
        n, es = _native.graph6_decode(code)
        return _native.graph6_encode(n, es)
    return code


@translated()
def graph_text(g: GraphLike) -> str:
    """The text the solvers read for ``g``: graph6 or sparse6 text as given
    (the solver checks it and reports errors as the CLI does), else graph6."""
    return _to_code(g, digraph=False)


@translated()
def to_sparse6(g: GraphLike) -> str:
    """The sparse6 text of ``g`` (see :data:`GraphLike`), as nauty's
    ``ntos6`` (and ``gamesweep graphs -s``) writes it."""
    n, es = edges(g)
    return _native.sparse6_encode(n, es)


@translated()
def to_digraph6(g: GraphLike) -> str:
    """The digraph6 text (``&...``) of ``g``: digraph6 text, ``(n, arcs)``,
    a list of arcs, a ``networkx.DiGraph`` (an undirected graph gives both
    arcs of every edge), or an object with ``dig6_string()`` (Sage)."""
    return _to_code(g, digraph=True)


def _to_code(g: GraphLike, digraph: bool) -> str:
    if isinstance(g, bytes):
        g = g.decode("ascii", errors="replace")
    if isinstance(g, str):
        t = g.strip()
        for h in (">>graph6<<", ">>digraph6<<", ">>sparse6<<"):
            if t.startswith(h):
                t = t[len(h):]
        return t
    if is_networkx(g):
        return _networkx(g, digraph)
    method = "dig6_string" if digraph else "graph6_string"
    if callable(getattr(g, method, None)):
        return str(getattr(g, method)())
    if (
        isinstance(g, tuple)
        and len(g) == 2
        and isinstance(g[0], int)
        and not isinstance(g[0], bool)
    ):
        n = int(g[0])
        pairs = _pairs(g[1], "arc" if digraph else "edge")
    else:
        try:
            pairs = _pairs(g, "arc" if digraph else "edge")
        except TypeError:
            raise InvalidInputError(
                f"cannot read a graph from {type(g).__name__}: give graph6 text, an edge list, "
                "(n, edges), a networkx graph or an object with graph6_string()"
            ) from None
        n = 1 + max((max(u, v) for u, v in pairs), default=-1)
    if any(u < 0 or v < 0 for u, v in pairs):
        raise InvalidInputError("a negative vertex number")
    if digraph:
        return _native.digraph6_encode(n, pairs)
    return _native.graph6_encode(n, pairs)


@translated()
def edges(g: GraphLike) -> Tuple[int, List[Tuple[int, int]]]:
    """``(n, edges)`` of a graph (see :data:`GraphLike`), edges as in graph6."""
    return _native.graph6_decode(_to_code(g, digraph=False))


@translated()
def to_networkx(g: GraphLike) -> Any:
    """A ``networkx.Graph`` on vertices ``0..n-1`` (needs networkx)."""
    import networkx as nx

    n, es = edges(g)
    h = nx.Graph()
    h.add_nodes_from(range(n))
    h.add_edges_from(es)
    return h


def is_networkx(g: Any) -> bool:
    """``g`` looks like a networkx graph (nodes, edges, is_directed)."""
    return hasattr(g, "nodes") and hasattr(g, "edges") and hasattr(g, "is_directed")


def node_labels(g: GraphLike) -> Optional[List[Any]]:
    """The node labels of a networkx graph in vertex order (``G.nodes``
    order, as its graph6 numbers them), or None for any other graph (whose
    vertices are the numbers ``0..n-1``)."""
    if not is_networkx(g):
        return None
    nodes: Any = getattr(g, "nodes")
    return list(nodes)


def start_index(labels: Optional[List[Any]], start: Any) -> Optional[int]:
    """The vertex number of keyword ``start``: a node label of a networkx
    graph (``labels``), else a vertex number (a whole number >= 0, not a
    bool); None stays None (every start)."""
    if start is None:
        return None
    if labels is None:
        return count("start", start)
    for i, v in enumerate(labels):
        # `True == 1`: a bool finds only a bool label, a number no bool.
        if isinstance(v, bool) != isinstance(start, bool):
            continue
        try:
            if v == start:
                return i
        except Exception:  # labels of types that refuse to compare
            continue
    shown = ", ".join(repr(v) for v in labels[:10]) + (", ..." if len(labels) > 10 else "")
    raise InvalidInputError(f"start={start!r} is not a node of the graph (nodes: {shown})")
