from typing import Any, Callable, Optional, Type, TypeVar

__all__ = [
    "BudgetExceededError",
    "CoordinatorError",
    "GamesweepError",
    "InvalidInputError",
]

class GamesweepError(Exception):
    """An error of gamesweep; the message is the CLI's."""

class InvalidInputError(GamesweepError, ValueError):
    """An input gamesweep cannot use (also a ``ValueError``)."""

class BudgetExceededError(GamesweepError):
    """A solve ran out of its ``budget``."""

    @property
    def suggested_budget(self) -> Optional[int]:
        """The larger budget the message suggests, or None."""

class CoordinatorError(GamesweepError):
    """A call to a coordinator failed."""

F = TypeVar("F", bound=Callable[..., Any])

def keyword_error(message: str) -> Optional[str]: ...
def convert(e: BaseException, default: Type[GamesweepError] = ...) -> GamesweepError: ...
def translated(default: Type[GamesweepError] = ...) -> Callable[[F], F]: ...
def check_count(name: str, value: object, *, optional: bool = False) -> None: ...
def count(name: str, value: object, *, optional: bool = False) -> Optional[int]: ...
