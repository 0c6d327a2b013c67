from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from ._graph import GraphLike

__all__ = ["DEFAULT_BUDGET", "Game", "game", "games"]

DEFAULT_BUDGET: int

def games() -> List[str]:
    """The names of the games on the graph-game layer."""

class Game:
    """A game of the graph-game layer, by name."""

    name: str
    title: str
    about: str
    impartial: bool
    directed: bool
    max_vertices: int
    def __init__(self, name: str) -> None: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> Tuple[Any, Tuple[str]]: ...
    def board(
        self,
        g: GraphLike,
        start: Optional[int] = None,
        moves: Sequence[int] = (),
        *,
        first: str = "L",
        budget: int = ...,
    ) -> Dict[str, Any]:
        """The position a board of ``gamesweep explore`` shows, as a dict."""
    def values(
        self, g: GraphLike, *, budget: int = ...
    ) -> Union[List[int], List[Tuple[str, str]]]:
        """The value of every position of the game on ``g``."""

def game(name: str) -> Game:
    """The game named ``name``."""
