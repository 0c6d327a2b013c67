"""Type stubs of the Rust half (``gamesweep._native``); the public names are
re-exported, documented and typed by the Python modules."""

from typing import Iterator, List, Optional, Tuple, Union

from typing_extensions import final

__all__ = [
    "DEFAULT_COL_BUDGET",
    "DEFAULT_GAME_BUDGET",
    "DEFAULT_UVG_BUDGET",
    "GamesweepError",
    "GraphIter",
    "canonical",
    "canonical_labelling",
    "col_solve",
    "col_svg",
    "coordinator_act",
    "coordinator_audit",
    "coordinator_export",
    "coordinator_import",
    "coordinator_launch",
    "coordinator_project",
    "coordinator_report",
    "coordinator_status",
    "coordinator_token",
    "digraph6_encode",
    "game_board",
    "gamegraph_solve",
    "games",
    "graph6_decode",
    "graph6_encode",
    "graphs",
    "key",
    "kinds",
    "present",
    "run",
    "sparse6_encode",
    "store_check",
    "subtraction",
    "uvg_solve",
    "uvg_svg",
    "uvg_values",
    "verify",
]

class GamesweepError(ValueError):
    """An input gamesweep cannot solve, or a budget run out; the message is the CLI's."""

DEFAULT_UVG_BUDGET: int
DEFAULT_COL_BUDGET: int
DEFAULT_GAME_BUDGET: int

@final
class GraphIter(Iterator[str]):
    def __iter__(self) -> GraphIter: ...
    def __next__(self) -> str: ...

def uvg_values(g6: str, budget: int = ...) -> List[int]: ...
def uvg_solve(
    g6: str, start: Optional[int] = None, budget: int = ...
) -> Tuple[str, Optional[str]]: ...
def uvg_svg(g6: str, start: Optional[int] = None, budget: int = ...) -> str: ...
def col_solve(
    board: str, colouring: Optional[str] = None, myopic: bool = False, budget: int = ...
) -> Tuple[str, Optional[str]]: ...
def col_svg(
    board: str, colouring: Optional[str] = None, myopic: bool = False, budget: int = ...
) -> str: ...
def gamegraph_solve(text: str, format: str = "auto", budget: Optional[int] = None) -> str: ...
def subtraction(set: List[int], upto: int = 40) -> str: ...
def graph6_encode(n: int, edges: List[Tuple[int, int]]) -> str: ...
def digraph6_encode(n: int, arcs: List[Tuple[int, int]]) -> str: ...
def sparse6_encode(n: int, edges: List[Tuple[int, int]]) -> str: ...
def graph6_decode(g6: str) -> Tuple[int, List[Tuple[int, int]]]: ...
def graphs(
    n: int,
    connected: bool = True,
    part: Optional[str] = None,
    min_degree: Optional[int] = None,
    max_degree: Optional[int] = None,
    edges: Union[int, Tuple[int, Optional[int]], str, None] = None,
    sparse6: bool = False,
) -> GraphIter: ...
def present(results_json: str) -> str: ...
def coordinator_status(
    id: Optional[str] = None,
    url: Optional[str] = None,
    token_file: Optional[str] = None,
    tls_ca: Optional[str] = None,
    tls_cert: Optional[str] = None,
    tls_key: Optional[str] = None,
) -> str: ...
def coordinator_launch(
    words: List[str],
    url: Optional[str] = None,
    token_file: Optional[str] = None,
    tls_ca: Optional[str] = None,
    tls_cert: Optional[str] = None,
    tls_key: Optional[str] = None,
) -> str: ...
def coordinator_report(
    id: str,
    out: str,
    partial: bool = False,
    url: Optional[str] = None,
    token_file: Optional[str] = None,
    tls_ca: Optional[str] = None,
    tls_cert: Optional[str] = None,
    tls_key: Optional[str] = None,
) -> None: ...
def coordinator_act(
    action: str,
    id: str,
    url: Optional[str] = None,
    token_file: Optional[str] = None,
    tls_ca: Optional[str] = None,
    tls_cert: Optional[str] = None,
    tls_key: Optional[str] = None,
) -> None: ...
def coordinator_project(
    id: str,
    cores: List[int],
    out: Optional[str] = None,
    url: Optional[str] = None,
    token_file: Optional[str] = None,
    tls_ca: Optional[str] = None,
    tls_cert: Optional[str] = None,
    tls_key: Optional[str] = None,
) -> str: ...
def coordinator_audit(
    last: int,
    url: Optional[str] = None,
    token_file: Optional[str] = None,
    tls_ca: Optional[str] = None,
    tls_cert: Optional[str] = None,
    tls_key: Optional[str] = None,
) -> str: ...
def coordinator_token(
    action: str,
    name: Optional[str] = None,
    role: Optional[str] = None,
    out: Optional[str] = None,
    url: Optional[str] = None,
    token_file: Optional[str] = None,
    tls_ca: Optional[str] = None,
    tls_cert: Optional[str] = None,
    tls_key: Optional[str] = None,
) -> str: ...
def coordinator_export(
    id: str,
    file: str,
    *,
    store: Optional[str] = None,
    since: List[str] = ...,
    url: Optional[str] = None,
    token_file: Optional[str] = None,
    tls_ca: Optional[str] = None,
    tls_cert: Optional[str] = None,
    tls_key: Optional[str] = None,
) -> str: ...
def coordinator_import(
    file: str,
    *,
    store: Optional[str] = None,
    name: Optional[str] = None,
    trust_key: List[str] = ...,
    require_signature: bool = False,
    accept_solver_change: bool = False,
    replicate_fraction: Optional[str] = None,
    url: Optional[str] = None,
    token_file: Optional[str] = None,
    tls_ca: Optional[str] = None,
    tls_cert: Optional[str] = None,
    tls_key: Optional[str] = None,
) -> str: ...
def key(store: str, out: Optional[str] = None) -> str: ...
def kinds() -> str: ...
def games() -> str: ...
def game_board(
    name: str,
    code: str,
    start: Optional[int] = None,
    moves: List[int] = ...,
    first: str = "L",
    budget: int = ...,
) -> str: ...
def verify(
    file: str,
    *,
    sample: str,
    seed: int = 0,
    threads: Optional[int] = None,
    trust_key: List[str] = ...,
    require_signature: bool = False,
    record: Optional[str] = None,
) -> str: ...
def store_check(dir: str) -> str: ...
def run(words: List[str]) -> str: ...
def canonical(g6: str) -> str: ...
def canonical_labelling(g6: str) -> Tuple[str, List[int]]: ...
