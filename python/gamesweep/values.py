"""Game values as Python objects: a number plus a nimber (``x + *k``), the
values Col positions take (and Grundy values, ``*k``), read from and
printed in CGSuite notation (``"0"``, ``"*"``, ``"*2"``, ``"1/2"``,
``"-3/4*"``, ``"1*2"``). They add (the disjunctive sum), negate, subtract
and compare as games do::

    >>> from gamesweep.values import Value
    >>> Value("1/2") + Value("1/2*") == Value("1*")
    True
    >>> Value("*") + Value("*") == 0
    True
    >>> Value("1/4") > Value("-1*")
    True
    >>> Value("*").outcome, Value("-1/2").outcome
    ('N', 'R')

``*`` is confused with 0: neither ``*  > 0``, ``* < 0`` nor ``* == 0``
(``Value("*").fuzzy(0)`` is True). Games that are not a number plus a
nimber (``{1|0}``, switches of Myopic Col) are refused with
:class:`~gamesweep.InvalidInputError`.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any, Union

from ._errors import InvalidInputError

__all__ = ["Value"]

_TEXT = re.compile(r"\s*(?P<num>[+-]?\d+(?:/\d+)?)?(?P<star>\*(?P<k>\d+)?)?\s*")


class Value:
    """A game value ``x + *k``: ``x`` a number (a dyadic rational, as a
    ``Fraction``), ``k`` a nimber (``*k``, a whole number >= 0). Made from
    CGSuite text (``Value("3/4*")``), a number (``Value(1)``,
    ``Value(Fraction(1, 2))``) or with ``nimber=`` (``Value(0, nimber=2)``
    is ``*2``)."""

    __slots__ = ("number", "nimber")

    number: Fraction
    nimber: int

    def __init__(self, value: Union[str, int, Fraction, "Value"] = 0, nimber: int = 0) -> None:
        if isinstance(value, Value):
            number, k = value.number, value.nimber
        elif isinstance(value, str):
            m = _TEXT.fullmatch(value)
            if not m or (m.group("num") is None and m.group("star") is None):
                raise InvalidInputError(
                    f"value {value!r}: not a number plus a nimber in CGSuite notation "
                    "(such as 0, *, *2, 1/2, -3/4*, 1*2)"
                )
            number = Fraction(m.group("num") or 0)
            k = 0 if m.group("star") is None else int(m.group("k") or 1)
        elif isinstance(value, (int, Fraction)) and not isinstance(value, bool):
            number, k = Fraction(value), 0
        else:
            raise InvalidInputError(f"value {value!r}: give CGSuite text, an int or a Fraction")
        if isinstance(nimber, bool) or not isinstance(nimber, int) or nimber < 0:
            raise InvalidInputError(f"nimber={nimber!r}: expected a whole number >= 0")
        object.__setattr__(self, "number", number)
        object.__setattr__(self, "nimber", k ^ nimber)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Value is immutable")

    def __reduce__(self) -> Any:
        return (Value, (self.number, self.nimber))

    @staticmethod
    def _of(other: Any) -> "Value":
        return other if isinstance(other, Value) else Value(other)

    def __add__(self, other: Union[str, int, Fraction, "Value"]) -> "Value":
        o = self._of(other)
        return Value(self.number + o.number, self.nimber ^ o.nimber)

    __radd__ = __add__

    def __neg__(self) -> "Value":
        return Value(-self.number, self.nimber)

    def __sub__(self, other: Union[str, int, Fraction, "Value"]) -> "Value":
        return self + -self._of(other)

    def __rsub__(self, other: Union[str, int, Fraction, "Value"]) -> "Value":
        return self._of(other) - self

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, (Value, str, int, Fraction)) or isinstance(other, bool):
            return NotImplemented
        o = self._of(other)
        return self.number == o.number and self.nimber == o.nimber

    def __hash__(self) -> int:
        # Equal to a number's hash where it equals that number.
        return hash(self.number) if self.nimber == 0 else hash((self.number, self.nimber))

    def __gt__(self, other: Union[str, int, Fraction, "Value"]) -> bool:
        # G > H: G - H > 0, i.e. its number part is positive (a nimber
        # added to a non-zero number does not change its sign).
        return (self - other).number > 0

    def __lt__(self, other: Union[str, int, Fraction, "Value"]) -> bool:
        return (self - other).number < 0

    def __ge__(self, other: Union[str, int, Fraction, "Value"]) -> bool:
        return self > other or self == other

    def __le__(self, other: Union[str, int, Fraction, "Value"]) -> bool:
        return self < other or self == other

    def fuzzy(self, other: Union[str, int, Fraction, "Value"]) -> bool:
        """``self || other``: confused (neither greater, less nor equal),
        as ``*`` with 0."""
        d = self - other
        return d.number == 0 and d.nimber != 0

    @property
    def outcome(self) -> str:
        """Who wins: ``L`` (Left, whoever starts), ``R`` (Right), ``P``
        (the previous player: the value is 0) or ``N`` (the next player),
        as the CLI's ``outcome``."""
        if self.number > 0:
            return "L"
        if self.number < 0:
            return "R"
        return "P" if self.nimber == 0 else "N"

    def __str__(self) -> str:
        star = "" if self.nimber == 0 else "*" if self.nimber == 1 else f"*{self.nimber}"
        if self.number == 0:
            return star or "0"
        return f"{self.number}{star}"

    def __repr__(self) -> str:
        return f"Value({str(self)!r})"
