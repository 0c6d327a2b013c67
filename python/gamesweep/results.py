"""A committed run (``runs/NAME``) as pandas DataFrames.

Read through the kind's own presentation (``Kind::present``, the code that
draws the report's figures and positions), never by a kind's field names,
so every kind loads the same way. Schema (checked by the tests):

``Results.witnesses`` — one row per position the report draws:
    ``role`` (``counterexample``, ``smallest``, ``collected``), ``graph6``
    (graph6, or digraph6 ``&...``), ``value`` (the kind's notation, or
    None), ``start`` (list of start vertices, or None), ``colouring``
    (``L``/``R``/``.`` per vertex, or None), ``vertices``, ``edges``,
    ``caption``. ``vertices`` and ``edges`` are counted from the graph6
    (arcs for digraph6), whatever the kind records.
``Results.histograms`` — one row per plotted point of the report's charts:
    ``chart`` (the figure's file stem), ``title``, ``series``, ``x``, ``y``,
    ``x_label``, ``y_label``. ``Results.histogram(stem)`` is one chart
    wide: ``x`` as index, one column per series (series that are all
    nimbers, ``0``, ``*``, ``*2``, ..., as the Grundy values 0, 1, 2, ...
    in order; ``star=True`` labels them ``*k``).
``Results.by_n`` — the run's counts per number of vertices (``by_n``, or
    ``by_nodes``), one row per n: ``n`` as index, a column per whole-number
    field (UVG: ``graphs``, ``positions``, ``first_player_wins``, ...).
``Results.params`` — one row per parameter: ``param``, ``value``.
``Results.provenance`` — the run's ``provenance.json`` as a dict, or None.
``Results.doc`` — ``results.json`` as a dict (the schema in
    ``docs/schema/results.schema.json``: ``kind``, ``params``, the rest the
    kind's own).
"""

from __future__ import annotations

import json
import os
import re
from typing import Any, Dict, List, Optional

from . import _native
from ._display import Picture
from ._errors import InvalidInputError, translated

__all__ = ["HISTOGRAM_COLUMNS", "PARTIAL_RESULTS", "Results", "WITNESS_COLUMNS"]

#: Columns of :attr:`Results.witnesses`, in order.
WITNESS_COLUMNS: List[str] = ["role", "graph6", "value", "start", "colouring", "vertices", "edges", "caption"]
#: The results of a partial report (``report --partial``), never named
#: ``results.json`` (a final result).
PARTIAL_RESULTS: str = "results.partial.json"
#: Columns of :attr:`Results.histograms`, in order.
HISTOGRAM_COLUMNS: List[str] = ["chart", "title", "series", "x", "y", "x_label", "y_label"]


def _pandas() -> Any:
    try:
        import pandas
    except ImportError:
        raise ImportError(
            "gamesweep.Results needs pandas: pip install pandas (or pip install './python[pandas]')"
        ) from None
    return pandas


class Results:
    """A finished run's ``results.json`` (and ``provenance.json`` where the
    run has one) as DataFrames; see the module's docstring for the schema.
    In Jupyter it shows as an HTML summary with its witnesses table."""

    def __init__(
        self,
        doc: Dict[str, Any],
        presentation: Dict[str, Any],
        provenance: Optional[Dict[str, Any]],
        path: Optional[str],
        partial: bool = False,
    ) -> None:
        pd = _pandas()
        #: ``results.json`` as a dict.
        self.doc: Dict[str, Any] = doc
        #: The kind's name.
        self.kind: str = doc["kind"]
        #: ``provenance.json`` as a dict, or None.
        self.provenance: Optional[Dict[str, Any]] = provenance
        #: The folder read, if any.
        self.path: Optional[str] = path
        #: A partial report's results (``results.partial.json``, written by
        #: ``Coordinator.report(id, partial=True)``): the shards done so far
        #: of a sweep not finished, not its result.
        self.partial: bool = partial
        self.params = pd.DataFrame(
            sorted(doc["params"].items()), columns=["param", "value"]
        )
        rows = [
            {
                "role": w["role"],
                "graph6": w["code"],
                "value": w["value"],
                "start": w["start"],
                "colouring": w["colouring"],
                "vertices": _size(w["code"], w["vertices"], w["edges"])[0],
                "edges": _size(w["code"], w["vertices"], w["edges"])[1],
                "caption": w["caption"],
            }
            for w in presentation["witnesses"]
        ]
        self.witnesses = pd.DataFrame(rows, columns=WITNESS_COLUMNS)
        points = [
            {
                "chart": c["stem"],
                "title": c["title"],
                "series": s["name"],
                "x": x,
                "y": y,
                "x_label": c["x_label"],
                "y_label": c["y_label"],
            }
            for c in presentation["charts"]
            for s in c["series"]
            for x, y in s["points"]
        ]
        self.histograms = pd.DataFrame(points, columns=HISTOGRAM_COLUMNS)

    @classmethod
    def load(cls, path: str) -> "Results":
        """Read ``path/results.json`` (and ``path/provenance.json`` if
        present); raises :class:`GamesweepError` if the document does not
        meet ``docs/schema/results.schema.json`` or is not of a known kind.
        A partial report's folder (``results.partial.json``, no
        ``results.json``) loads with :attr:`partial` True."""
        name = "results.json"
        partial = not os.path.exists(os.path.join(path, name)) and os.path.exists(
            os.path.join(path, PARTIAL_RESULTS)
        )
        if partial:
            name = PARTIAL_RESULTS
        with open(os.path.join(path, name), encoding="utf-8") as f:
            text = f.read()
        prov = None
        p = os.path.join(path, "provenance.json")
        if os.path.exists(p):
            with open(p, encoding="utf-8") as f:
                prov = json.load(f)
        return cls.from_json(text, provenance=prov, path=path, partial=partial)

    @classmethod
    @translated()
    def from_json(
        cls,
        text: str,
        provenance: Optional[Dict[str, Any]] = None,
        path: Optional[str] = None,
        partial: bool = False,
    ) -> "Results":
        """A :class:`Results` from the text of a ``results.json`` (or, with
        ``partial``, of a partial report's ``results.partial.json``)."""
        doc = json.loads(text)
        _check_doc(doc)
        pres = json.loads(_native.present(text))
        return cls(doc, pres, provenance, path, partial)

    def histogram(self, chart: str, *, star: bool = False) -> Any:
        """One chart of :attr:`histograms`, wide: ``x`` as index, a column
        per series (``y``). Where every series is a nimber (``0``, ``*``,
        ``*2``, ...: the Grundy values of ``values-by-n``), the columns are
        the Grundy values as numbers 0, 1, 2, ... in order, or with
        ``star=True`` the same order labelled ``0``, ``*``, ``*2``, ...;
        other series keep their names (sorted)."""
        h = self.histograms[self.histograms["chart"] == chart]
        if h.empty:
            known = ", ".join(sorted(set(self.histograms["chart"]))) or "none"
            raise KeyError(f"no chart `{chart}` (charts: {known})")
        wide = h.pivot_table(index="x", columns="series", values="y", aggfunc="sum")
        nimbers = {name: _nimber(str(name)) for name in wide.columns}
        grundy = {name: g for name, g in nimbers.items() if g is not None}
        if len(grundy) == len(nimbers):
            order = sorted(wide.columns, key=lambda c: grundy[c])
            wide = wide[order]
            if not star:
                wide.columns = [grundy[c] for c in order]
            wide.columns.name = "grundy"
        return wide

    @property
    def by_n(self) -> Any:
        """The run's counts per number of vertices, one row per n (index
        ``n``): every whole-number field of the kind's ``by_n`` (or
        ``by_nodes``) rows, e.g. UVG's ``graphs``, ``positions`` and
        ``first_player_wins``. ``KeyError`` for a kind without one."""
        pd = _pandas()
        for field, key in (("by_n", "n"), ("by_nodes", "nodes")):
            rows = self.doc.get(field)
            if isinstance(rows, list) and rows and all(isinstance(r, dict) and key in r for r in rows):
                cols: List[str] = []
                for r in rows:
                    for k, v in r.items():
                        if isinstance(v, int) and not isinstance(v, bool) and k not in cols:
                            cols.append(k)
                # The totals first, then the rest as the document has them.
                first = [k for k in (key, "graphs", "positions", "first_player_wins") if k in cols]
                cols = first + [k for k in cols if k not in first]
                df = pd.DataFrame([{k: r.get(k) for k in cols} for r in rows], columns=cols)
                return df.set_index(key)
        raise KeyError(f"the {self.kind} run has no counts per n (no `by_n` or `by_nodes`)")

    @translated()
    def picture(self, i: int) -> Picture:
        """The picture of witness ``i`` (a row of :attr:`witnesses`), as the
        report draws it (UVG positions with their start and matching, Col
        boards with their colouring); None where the position is not a
        graph of a game drawn here."""
        w = self.witnesses.iloc[i]
        code = w["graph6"]
        if w["colouring"] is not None:
            return Picture(_native.col_svg(code, w["colouring"], code.startswith("&"), 0))
        start = w["start"][0] if w["start"] else None
        return Picture(_native.uvg_svg(code, start, 0))

    def _repr_html_(self) -> str:
        head = f"<p><b>{self.kind}</b> " + ", ".join(
            f"{k} {v}" for k, v in sorted(self.doc["params"].items())
        )
        head += f"; {len(self.witnesses)} witnesses, {self.histograms['chart'].nunique()} charts</p>"
        if self.partial:
            head = "<p><b>Partial, not final</b>: the shards done so far of a sweep not finished.</p>" + head
        return head + str(self.witnesses.drop(columns=["caption"]).to_html())

    def __repr__(self) -> str:
        return f"<gamesweep.Results {self.kind} {self.doc['params']}: {len(self.witnesses)} witnesses>"


def _nimber(name: str) -> Optional[int]:
    """The Grundy value of a nimber's name (``0``, ``*``, ``*2``, ...), or
    None for any other text."""
    if name == "0":
        return 0
    if name == "*":
        return 1
    m = re.fullmatch(r"\*([1-9][0-9]*)", name)
    return int(m.group(1)) if m else None


def _size(code: str, vertices: int, edges: int) -> "tuple[int, int]":
    """``(vertices, edges)`` of a witness, counted from its code: graph6 or
    sparse6 (edges), digraph6 ``&...`` (arcs); the kind's own figures where
    the code is neither."""
    try:
        if code.startswith("&"):
            n, arcs = _digraph6(code)
            return n, arcs
        n, es = _native.graph6_decode(code)
        return n, len(es)
    except (ValueError, IndexError):
        return vertices, edges


def _digraph6(code: str) -> "tuple[int, int]":
    """``(n, number of arcs)`` of a digraph6 text (``&`` N(n) then the
    adjacency matrix row by row, 6 bits a byte)."""
    b = [c - 63 for c in code[1:].encode("ascii")]
    if b[0] < 63:
        n, rest = b[0], b[1:]
    elif b[1] < 63:
        n, rest = (b[1] << 12) | (b[2] << 6) | b[3], b[4:]
    else:
        n = 0
        for x in b[2:8]:
            n = (n << 6) | x
        rest = b[8:]
    bits = "".join(format(x, "06b") for x in rest)
    if len(bits) < n * n or any(not 0 <= x < 64 for x in rest):
        raise ValueError(f"bad digraph6 `{code:.40}`")
    return n, bits[: n * n].count("1")


def _check_doc(doc: Any) -> None:
    """The checks of ``docs/schema/results.schema.json`` (kept in step by
    the tests)."""
    import re

    err = InvalidInputError
    if not isinstance(doc, dict):
        raise err("results.json: not a JSON object")
    for k in ("kind", "params"):
        if k not in doc:
            raise err(f"results.json: no `{k}` field")
    if not isinstance(doc["kind"], str) or not re.fullmatch(r"[a-z0-9][a-z0-9-]*", doc["kind"]):
        raise err(f"results.json: `kind` {doc['kind']!r} is not a kind's name")
    if not isinstance(doc["params"], dict):
        raise err("results.json: `params` is not an object")
    for k, v in doc["params"].items():
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise err(f"results.json: parameter `{k}` is {v!r}, not a whole number >= 0")
