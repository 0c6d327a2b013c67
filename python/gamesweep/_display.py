"""Rich display in Jupyter: pictures as SVG, solutions as dicts that draw."""

from __future__ import annotations

from typing import Any, Dict, Optional


class Picture:
    """An SVG picture (the reports' drawing of a position). Jupyter shows it;
    ``str(p)`` / ``p.svg`` is the SVG text."""

    def __init__(self, svg: str) -> None:
        self.svg = svg

    def _repr_svg_(self) -> str:
        return self.svg

    def __str__(self) -> str:
        return self.svg

    def __repr__(self) -> str:
        return f"<gamesweep.Picture, {len(self.svg)} bytes of SVG>"

    def save(self, path: str) -> None:
        """Write the SVG to ``path``."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.svg)


class Solution(Dict[str, Any]):
    """A solve's answer: the dict the CLI prints with ``--json`` (compare it,
    index it, ``json.dumps`` it, pickle it), drawn in Jupyter as the
    reports draw the position. The picture was drawn by the same solve
    (showing the answer does not solve the position again); ``None`` for a
    graph too big to draw."""

    def __init__(self, data: Dict[str, Any], svg: Optional[str]) -> None:
        super().__init__(data)
        self._svg = svg

    def picture(self) -> Picture:
        """The position's picture (SVG); :class:`~gamesweep.InvalidInputError`
        for a graph too big to draw."""
        if self._svg is None:
            from ._errors import InvalidInputError

            raise InvalidInputError(f"a graph on {self.get('n', '?')} vertices is too big to draw")
        return Picture(self._svg)

    def _repr_svg_(self) -> Optional[str]:
        return self._svg


def frame_html(df: Any) -> str:
    """HTML of a pandas DataFrame (as Jupyter shows it)."""
    return str(df.to_html())
