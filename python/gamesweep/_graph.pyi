from typing import Any, Iterable, List, Optional, Tuple, Union

GraphLike = Union[str, bytes, Iterable[Tuple[int, int]], Tuple[int, Iterable[Tuple[int, int]]], Any]

def to_graph6(g: GraphLike) -> str:
    """The graph6 text of ``g``."""
def to_sparse6(g: GraphLike) -> str:
    """The sparse6 text of ``g``."""
def to_digraph6(g: GraphLike) -> str:
    """The digraph6 text (``&...``) of ``g``."""
def edges(g: GraphLike) -> Tuple[int, List[Tuple[int, int]]]:
    """``(n, edges)`` of a graph."""
def to_networkx(g: GraphLike) -> Any:
    """A ``networkx.Graph`` on vertices ``0..n-1``."""
def graph_text(g: GraphLike) -> str:
    """The text the solvers read for ``g``."""
def is_networkx(g: Any) -> bool: ...
def node_labels(g: GraphLike) -> Optional[List[Any]]:
    """The node labels of a networkx graph in vertex order, or None."""
def start_index(labels: Optional[List[Any]], start: Any) -> Optional[int]:
    """The vertex number of keyword ``start``."""
