"""Games on the graph-game layer: Node Kayles, Arc Kayles, Snort, the
geographies, and any game added there (``gamesweep solve GAME GRAPH6``,
the boards of ``gamesweep explore``).

Each game is defined once, in Rust (``shared/src/kinds/GAME.rs``); this
module lists them and values them, with nothing of its own per game::

    >>> import gamesweep as gs
    >>> "node-kayles" in gs.games()
    True
    >>> gs.game("node-kayles").values("Dhc")        # the 5-cycle
    [0]
    >>> gs.game("snort").values("Ds_")              # the star K1,4
    [('±4', 'N')]
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from . import _native
from ._errors import InvalidInputError, check_count, count, translated
from ._graph import GraphLike, graph_text, to_digraph6

__all__ = ["DEFAULT_BUDGET", "Game", "game", "games"]

#: Default ``budget``: positions valued at most (those reachable from the
#: positions asked), as the boards of ``gamesweep explore``.
DEFAULT_BUDGET: int = _native.DEFAULT_GAME_BUDGET


def _catalogue() -> Dict[str, Dict[str, Any]]:
    return {g["name"]: g for g in json.loads(_native.games())}


def games() -> List[str]:
    """The names of the games on the graph-game layer, in the order of
    ``gamesweep kinds`` (each is also a sweep kind)::

        >>> games()[:3]
        ['node-kayles', 'arc-kayles', 'snort']
    """
    return list(_catalogue())


class Game:
    """A game of the graph-game layer, by name (:func:`game`).

    Attributes: ``name`` (``"node-kayles"``), ``title`` (``"Node Kayles"``),
    ``about`` (the rule, one line), ``impartial`` (Grundy values; else
    partizan: canonical values, Left and Right), ``directed`` (played on
    digraphs, given as digraph6 or arcs), ``max_vertices`` (the largest
    graph it values)."""

    name: str
    title: str
    about: str
    impartial: bool
    directed: bool
    max_vertices: int

    def __init__(self, name: str) -> None:
        known = _catalogue()
        if not isinstance(name, str) or name not in known:
            raise InvalidInputError(
                f"no game {name!r} on the graph-game layer (games: {', '.join(known)})"
            )
        info = known[name]
        self.name = name
        self.title = info["title"]
        self.about = info["about"]
        self.impartial = bool(info["impartial"])
        self.directed = bool(info["directed"])
        self.max_vertices = int(info["max_vertices"])

    def __repr__(self) -> str:
        return f"gamesweep.game({self.name!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)

    def __reduce__(self) -> Tuple[Any, Tuple[str]]:
        return (Game, (self.name,))

    def _code(self, g: GraphLike) -> str:
        return to_digraph6(g) if self.directed else graph_text(g)

    @translated()
    def board(
        self,
        g: GraphLike,
        start: Optional[int] = None,
        moves: Sequence[int] = (),
        *,
        first: str = "L",
        budget: int = DEFAULT_BUDGET,
    ) -> Dict[str, Any]:
        """The position a board of ``gamesweep explore`` shows, as a dict
        (its route ``/explore/api/layered``'s answer without the drawing):
        ``start`` (an index into the game's positions of ``g``; None: the
        only one, or every start valued in ``"starts"``), then ``moves``, each
        an index into the options of the side to move (``first``, ``"L"`` or
        ``"R"``, moves first in a partizan game; the sides alternate).
        ``"position"`` has the value, the outcome, who wins, every option's
        value (``"moves"``, with where it is made: ``{"vertex": v}`` or
        ``{"edge": [u, v]}``) and the solver's move (``"reply"``, an option's
        index). ``budget``: positions valued at most (0: unlimited), else
        :class:`~gamesweep.BudgetExceededError`; a bad graph, start or move
        raises :class:`~gamesweep.InvalidInputError`::

            >>> b = game("node-kayles").board("Bg", moves=[0])   # P3, take an end
            >>> b["position"]["value"], [m["value"] for m in b["position"]["moves"]]
            ('*', ['0'])
        """
        check_count("budget", budget)
        s = count("start", start, optional=True)
        ms = [count("moves[]", m) for m in moves]
        if first not in ("L", "R"):
            raise InvalidInputError(f'first={first!r}: expected "L" (Left, Blue) or "R" (Right, Red)')
        data: Dict[str, Any] = json.loads(
            _native.game_board(self.name, self._code(g), s, [m for m in ms if m is not None], first, budget)
        )
        return data

    def values(
        self, g: GraphLike, *, budget: int = DEFAULT_BUDGET
    ) -> Union[List[int], List[Tuple[str, str]]]:
        """The value of every position of the game on ``g``, in the order of
        the game's positions (``board(g)["starts"]`` describes each: the
        whole board, every start vertex, ...), as ``gamesweep solve GAME
        GRAPH6`` values them: impartial games a Grundy value each (an
        ``int``), partizan games ``(value, outcome)``: the canonical value in
        CGSuite notation and the outcome class (``"L"``, ``"R"``, ``"N"``,
        ``"P"``). ``g``: graph6 (digraph6 for a game on digraphs) or any
        graph the module takes; ``budget`` as :meth:`board`::

            >>> game("geography-edge").values([(0, 1), (1, 2)])   # P3
            [0, 1, 0]
        """
        starts = self.board(g, budget=budget)["starts"]
        if self.impartial:
            return [int(s["grundy"]) for s in starts]
        return [(str(s["value"]), str(s["outcome"])) for s in starts]


def game(name: str) -> Game:
    """The game named ``name`` (one of :func:`games`); an unknown name
    raises :class:`~gamesweep.InvalidInputError` listing the games::

        >>> game("snort").impartial
        False
    """
    return Game(name)
