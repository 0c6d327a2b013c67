"""Every public name is documented and typed: a docstring for each name in
the ``__all__`` of each public module (and for each public method of its
classes), a ``#:`` comment for each constant, and a ``.pyi`` stub beside
every module of the installed package (`.ci/run` checks the stubs against
the runtime with mypy's stubtest)."""

import importlib
import inspect
import os
import re

import pytest

import gamesweep

MODULES = [
    "gamesweep",
    "gamesweep.uvg",
    "gamesweep.col",
    "gamesweep.myopic",
    "gamesweep.gamegraph",
    "gamesweep.graph_games",
    "gamesweep.results",
    "gamesweep.coordinator",
    "gamesweep.values",
]


def _public(module):
    m = importlib.import_module(module)
    assert hasattr(m, "__all__"), f"{module} has no __all__"
    return m, list(m.__all__)


@pytest.mark.parametrize("module", MODULES)
def test_every_public_name_has_a_docstring(module):
    m, names = _public(module)
    assert inspect.getdoc(m), f"{module} has no docstring"
    # Constants are documented by a `#:` comment above them (Sphinx's
    # form), in the module that defines them.
    folder = os.path.dirname(gamesweep.__file__)
    source = "".join(
        open(os.path.join(folder, f), encoding="utf-8").read()
        for f in sorted(os.listdir(folder))
        if f.endswith(".py")
    )
    missing = []
    for name in names:
        obj = getattr(m, name)
        if inspect.ismodule(obj) or inspect.isclass(obj) or inspect.isroutine(obj):
            if not (obj.__doc__ or "").strip():
                missing.append(name)
            if inspect.isclass(obj):
                for attr, member in vars(obj).items():
                    if attr.startswith("_") or not callable(getattr(obj, attr)):
                        continue
                    if not (getattr(obj, attr).__doc__ or "").strip():
                        missing.append(f"{name}.{attr}")
        elif not re.search(rf"^#:.*\n(?:#:.*\n)*{re.escape(name)}\b", source, re.M):
            # A constant: documented by a `#:` comment above it (Sphinx's form).
            missing.append(name)
    assert not missing, f"{module}: no docstring for {missing}"


def test_all_names_exist_and_the_package_exports_its_modules():
    for module in MODULES:
        m, names = _public(module)
        for name in names:
            assert hasattr(m, name), f"{module}.__all__ names {name}, which it lacks"
    for sub in ["uvg", "col", "myopic", "gamegraph", "graph_games"]:
        assert sub in gamesweep.__all__


def test_every_module_of_the_installed_package_has_a_stub():
    folder = os.path.dirname(gamesweep.__file__)
    files = os.listdir(folder)
    assert "py.typed" in files
    modules = [f[: -len(".py")] for f in files if f.endswith(".py")]
    assert "uvg" in modules and "__init__" in modules, files
    for m in modules:
        assert f"{m}.pyi" in files, f"gamesweep/{m}.py has no stub"
    assert "_native.pyi" in files, "the native module has no stub"


def test_help_reads_well():
    # help() on the solve functions shows the CLI command they answer for,
    # their keywords and the error they raise.
    doc = inspect.getdoc(gamesweep.uvg.solve)
    assert "gamesweep solve uvg" in doc and "budget" in doc and "GamesweepError" in doc
    sig = str(inspect.signature(gamesweep.graphs))
    for kw in ["connected", "part", "min_degree", "max_degree", "edges", "sparse6"]:
        assert kw in sig, sig
    # The native functions carry their signatures too (stubtest reads them).
    assert str(inspect.signature(gamesweep._native.uvg_values)).startswith("(g6, budget=")


@pytest.mark.parametrize("module", MODULES)
def test_docstring_examples_hold(module):
    import doctest

    m = importlib.import_module(module)
    r = doctest.testmod(m, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert r.failed == 0, f"{module}: {r.failed} of {r.attempted} examples failed"
