"""The exceptions gamesweep raises, and the checks of the keywords every
function shares (``start``, ``budget``).

Every class here is importable from :mod:`gamesweep` and pickles (so an
error raised in a ``multiprocessing`` worker reaches the parent as itself):

- :class:`GamesweepError`: the base of all of them.
- :class:`InvalidInputError` (also a ``ValueError``): a graph, start,
  colouring, game file or argument gamesweep cannot use.
- :class:`BudgetExceededError`: a solve ran out of its ``budget``.
- :class:`CoordinatorError`: a call to a coordinator failed (no answer, a
  refused request, ...).

The Rust half raises one private class; :func:`translated` turns it into
these, with messages that name the Python keywords (``budget=``) where the
CLI's name its options (``--budget``).
"""

from __future__ import annotations

import functools
import operator
import re
from typing import Any, Callable, Optional, Type, TypeVar, cast

from . import _native

__all__ = [
    "BudgetExceededError",
    "CoordinatorError",
    "GamesweepError",
    "InvalidInputError",
]


class GamesweepError(Exception):
    """An error of gamesweep; the message is the CLI's (with Python's
    keywords for the CLI's options). Subclasses: :class:`InvalidInputError`,
    :class:`BudgetExceededError`, :class:`CoordinatorError`."""


class InvalidInputError(GamesweepError, ValueError):
    """An input gamesweep cannot use: a bad graph6, a start that is not a
    vertex, an illegal colouring, a bad argument. Also a ``ValueError``."""


class BudgetExceededError(GamesweepError):
    """A solve ran out of its ``budget`` (pass a larger ``budget=``, or
    ``budget=0`` for no limit); :attr:`suggested_budget` is the budget the
    message suggests."""

    @property
    def suggested_budget(self) -> Optional[int]:
        """The larger budget the message suggests (ten times the one run
        out), or None."""
        m = re.search(r"budget=(\d+) to allow more", str(self))
        return int(m.group(1)) if m else None


class CoordinatorError(GamesweepError):
    """A call to a coordinator failed (it did not answer, refused the
    request, or has no such sweep)."""


_BUDGET = re.compile(r"pass --budget (\d+) to allow more, --budget 0 for unlimited")


def _pythonic(message: str) -> str:
    """The CLI's message with the Python keywords for its options."""
    return _BUDGET.sub(r"pass budget=\1 to allow more, budget=0 for unlimited", message)


_CLAP_OPTION = re.compile(r"'--([a-z0-9-]+)(?: <[A-Z_]+>)?'")
_GIVEN_OPTION = re.compile(r"`--([a-z0-9-]+) ([^`]*)`")
_ARGUMENT_ERROR = (
    "unexpected argument",
    "invalid value",
    "is out of range for sweep",
    "a value is required",
    "cannot be used with",
    "unknown sweep kind",
    "no sweep kind",
)


def keyword_error(message: str) -> Optional[str]:
    """For an error in the options built from a function's keywords (``run``,
    ``Coordinator.launch``): the message with the keywords for the CLI's
    options (``max_n=`` for ``--max-n``) and without clap's usage lines;
    None for any other error."""
    if not any(w in message for w in _ARGUMENT_ERROR):
        return None
    text = message.split("\n\nUsage:")[0].split("\n\nFor more information")[0]

    def kw(m: "re.Match[str]") -> str:
        return m.group(1).replace("-", "_") + "="

    text = _CLAP_OPTION.sub(kw, text)
    text = _GIVEN_OPTION.sub(lambda m: "`" + m.group(1).replace("-", "_") + "=" + m.group(2) + "`", text)
    text = text.replace("unexpected argument", "unexpected keyword")
    text = text.replace("a similar argument exists", "a similar keyword exists")
    return " ".join(line.strip() for line in text.splitlines() if line.strip())


def convert(e: BaseException, default: Type[GamesweepError] = InvalidInputError) -> GamesweepError:
    """The public exception for an error of the Rust half."""
    msg = str(e)
    cls: Type[GamesweepError]
    if keyword_error(msg) is not None:
        return InvalidInputError(_pythonic(keyword_error(msg) or msg))
    if _BUDGET.search(msg):
        cls = BudgetExceededError
    elif msg.startswith("cannot start"):
        cls = GamesweepError
    else:
        cls = default
    return cls(_pythonic(msg))


F = TypeVar("F", bound=Callable[..., Any])


def translated(default: Type[GamesweepError] = InvalidInputError) -> Callable[[F], F]:
    """A decorator: errors of the Rust half raised in the function leave it
    as :class:`GamesweepError` subclasses (``default`` unless the message
    says which)."""

    def wrap(f: F) -> F:
        @functools.wraps(f)
        def inner(*args: Any, **kwargs: Any) -> Any:
            try:
                return f(*args, **kwargs)
            except _native.GamesweepError as e:
                raise convert(e, default) from None

        return cast(F, inner)

    return wrap


def check_count(name: str, value: object, *, optional: bool = False) -> None:
    """``value`` of keyword ``name`` is a whole number >= 0 (an ``int`` or
    anything with ``__index__``, such as numpy's integers), or None where
    ``optional``; bools are refused (``True`` is not vertex 1)."""
    count(name, value, optional=optional)


def count(name: str, value: object, *, optional: bool = False) -> Optional[int]:
    """:func:`check_count`, answering ``value`` as an ``int`` (None stays
    None)."""
    if optional and value is None:
        return None
    what = "a whole number >= 0" + (" or None" if optional else "")
    if isinstance(value, bool) or type(value).__name__ in ("bool_", "bool"):
        raise InvalidInputError(f"{name}={value!r}: expected {what}, not a bool")
    try:
        n = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise InvalidInputError(f"{name}={value!r}: expected {what}, not {type(value).__name__}") from None
    if n < 0:
        raise InvalidInputError(f"{name}={n}: expected {what}")
    if n >= 2**64:
        raise InvalidInputError(f"{name}={n}: too large (at most 2**64 - 1)")
    return n
