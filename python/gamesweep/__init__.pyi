from typing import Any, Dict, Iterator, List, Literal, Optional, Tuple, Union, overload

from . import col as col
from . import gamegraph as gamegraph
from . import graph_games as graph_games
from . import myopic as myopic
from . import uvg as uvg
from . import values as values
from ._display import Picture as Picture
from ._display import Solution as Solution
from ._graph import GraphLike as GraphLike
from ._graph import edges as edges
from ._graph import to_digraph6 as to_digraph6
from ._graph import to_graph6 as to_graph6
from ._graph import to_networkx as to_networkx
from ._graph import to_sparse6 as to_sparse6
from ._errors import BudgetExceededError as BudgetExceededError
from ._errors import CoordinatorError as CoordinatorError
from ._errors import GamesweepError as GamesweepError
from ._errors import InvalidInputError as InvalidInputError
from ._checks import store_check as store_check
from ._checks import verify as verify
from .coordinator import Coordinator as Coordinator
from .graph_games import Game as Game
from .graph_games import game as game
from .graph_games import games as games
from .results import Results as Results
from .values import Value as Value

__all__ = [
    "BudgetExceededError",
    "Coordinator",
    "CoordinatorError",
    "Game",
    "GamesweepError",
    "InvalidInputError",
    "GraphLike",
    "Picture",
    "Results",
    "Solution",
    "Value",
    "canonical",
    "col",
    "edges",
    "game",
    "gamegraph",
    "games",
    "graph_games",
    "graphs",
    "isomorphic",
    "kinds",
    "myopic",
    "run",
    "store_check",
    "subtraction",
    "to_digraph6",
    "to_graph6",
    "to_networkx",
    "to_sparse6",
    "uvg",
    "values",
    "verify",
]

__version__: str

def graphs(
    n: int,
    connected: bool = True,
    part: Optional[str] = None,
    min_degree: Optional[int] = None,
    max_degree: Optional[int] = None,
    edges: Union[int, Tuple[int, Optional[int]], str, None] = None,
    sparse6: bool = False,
) -> Iterator[str]:
    """The graphs on ``n`` vertices up to isomorphism (``gamesweep graphs``)."""
def subtraction(set: List[int], upto: int = 40) -> Dict[str, Any]:
    """``gamesweep solve subtraction --set S --upto N --json``."""

@overload
def canonical(g: GraphLike, *, labelling: Literal[False] = False) -> str:
    """The canonical form of ``g`` as graph6 text (isomorphic graphs, and only they, agree)."""
@overload
def canonical(g: GraphLike, *, labelling: Literal[True]) -> Tuple[str, Dict[Any, int]]:
    """The canonical form and a labelling giving it: ``(graph6, {node: index})``."""

def isomorphic(g: GraphLike, h: GraphLike) -> bool:
    """Whether ``g`` and ``h`` are isomorphic (their canonical forms agree)."""

def kinds() -> List[Dict[str, Any]]:
    """The sweep kinds and their parameters (``gamesweep kinds``)."""

def run(
    kind: str,
    *,
    out: Optional[str] = None,
    threads: Optional[int] = None,
    shards: Optional[int] = None,
    http: bool = False,
    **options: Union[int, str, bool],
) -> Union[Results, str]:
    """``gamesweep run KIND ...`` on this machine; its :class:`Results` (or the folder of a sample or part)."""
