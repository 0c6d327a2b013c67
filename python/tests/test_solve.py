"""Every solver against the CLI's --json output on the same inputs."""

import os
import random

import pytest

import gamesweep as gs
from conftest import random_graph


def _random_graph6s(rng, count, max_n):
    out = []
    for _ in range(count):
        n = rng.randint(1, max_n)
        out.append(gs.to_graph6(random_graph(rng, n, rng.choice([0.15, 0.3, 0.5, 0.8]))))
    return out


def test_uvg_values_match_the_pipe_on_all_graphs_up_to_7(cli):
    codes = [g for n in range(1, 8) for g in gs.graphs(n, connected=False)]
    want = cli.json_lines("solve", "uvg", "-", "--json", "--threads", "1", input="\n".join(codes))
    assert [w["graph6"] for w in want] == codes
    assert [gs.uvg.values(g) for g in codes] == [w["grundy"] for w in want]


def test_uvg_values_match_the_pipe_on_seeded_random_graphs_up_to_16(cli, rng):
    codes = _random_graph6s(rng, 300, 16)
    want = cli.json_lines("solve", "uvg", "-", "--json", input="\n".join(codes))
    assert [w["graph6"] for w in want] == codes
    got = [gs.uvg.values(g) for g in codes]
    assert got == [w["grundy"] for w in want]
    # Shuffled: the incremental table is exact in any order.
    order = list(range(len(codes)))
    rng.shuffle(order)
    assert [gs.uvg.values(codes[i]) for i in order] == [got[i] for i in order]


def test_uvg_values_above_the_table_match_the_pipe(cli, rng):
    codes = [gs.to_graph6(random_graph(rng, n, 0.2)) for n in (17, 18, 20)]
    want = cli.json_lines("solve", "uvg", "-", "--json", input="\n".join(codes))
    assert [gs.uvg.values(g) for g in codes] == [w["grundy"] for w in want]


def test_uvg_solve_matches_solve_uvg_json(cli, rng):
    for g in _random_graph6s(rng, 25, 12) + ["Dhc", "@", "A_"]:
        assert gs.uvg.solve(g) == cli.json("solve", "uvg", g, "--json"), g
    for g in _random_graph6s(rng, 10, 10):
        n = gs.edges(g)[0]
        s = rng.randrange(n)
        assert gs.uvg.solve(g, start=s) == cli.json("solve", "uvg", g, "--start", str(s), "--json")


def test_uvg_draw_is_solve_uvg_svg(cli):
    assert gs.uvg.draw("Dhc", start=1).svg == cli.run("solve", "uvg", "Dhc", "--start", "1", "--svg").stdout
    assert gs.uvg.solve("Dhc")._repr_svg_() == cli.run("solve", "uvg", "Dhc", "--svg").stdout


def test_showing_a_solution_does_not_solve_it_again(cli, monkeypatch):
    """Jupyter shows a solution by its _repr_svg_; that drew the position
    by solving it a second time (a 26-vertex graph: 1.7 s, then 1.7 s
    again). Now the picture comes with the solve: no call into the Rust
    half at all while it is shown, and it is the CLI's --svg."""
    from gamesweep import _native

    rng = random.Random(26)
    g = gs.to_graph6(random_graph(rng, 26, 0.15))
    calls = []
    for name in dir(_native):
        f = getattr(_native, name)
        if callable(f) and not isinstance(f, type):
            monkeypatch.setattr(_native, name, lambda *a, _f=f, _n=name, **k: (calls.append(_n), _f(*a, **k))[1])
    s = gs.uvg.solve(g, start=0, budget=0)
    assert calls == ["uvg_solve"], calls
    del calls[:]
    svg = s._repr_svg_()
    assert s.picture().svg == svg
    assert calls == [], calls
    assert svg == cli.run("solve", "uvg", g, "--start", "0", "--budget", "0", "--svg").stdout
    for solve, args in [(gs.col.solve, ("Bg", "L..")), (gs.myopic.solve, ((3, [(0, 1), (0, 2)]), ".L."))]:
        s = solve(*args)
        del calls[:]
        assert s._repr_svg_().startswith("<svg") and calls == []
    # Pickled, the picture goes along.
    import pickle

    assert pickle.loads(pickle.dumps(s))._repr_svg_() == s._repr_svg_()


def _colouring(rng, n):
    return "".join(rng.choice("..LR") for _ in range(n))


def test_col_matches_the_pipe(cli, rng):
    lines = []
    for _ in range(120):
        n, es = random_graph(rng, rng.randint(1, 8), 0.4)
        lines.append(f"{gs.to_graph6((n, es))} {_colouring(rng, n)}")
    want = {
        (w["board"], w["colouring"]): w
        for w in cli.json_lines("solve", "col", "-", "--json", input="\n".join(lines), check=False)
    }
    assert len(want) > 40, "most random colourings should be legal"
    for line in lines:
        board, colouring = line.split()
        if (board, colouring) in want:
            w = want[(board, colouring)]
            assert gs.col.value(board, colouring) == w["value"], line
            assert gs.col.solve(board, colouring)["outcome"] == w["outcome"], line
        else:
            with pytest.raises(gs.GamesweepError):
                gs.col.value(board, colouring)


def test_col_solve_matches_solve_col_json(cli, rng):
    for _ in range(10):
        n, es = random_graph(rng, rng.randint(2, 7), 0.3)
        g = gs.to_graph6((n, es))
        assert gs.col.solve(g) == cli.json("solve", "col", g, "--json"), g
    assert gs.col.draw("Bw", "L..").svg == cli.run("solve", "col", "Bw", "--colouring", "L..", "--svg").stdout


def test_myopic_matches_solve_myopic_json(cli, rng):
    lines = []
    for _ in range(40):
        n = rng.randint(1, 6)
        arcs = [(u, v) for u in range(n) for v in range(n) if u != v and rng.random() < 0.3]
        lines.append(f"{gs.to_digraph6((n, arcs))} {_colouring(rng, n)}")
    want = {
        (w["board"], w["colouring"]): w
        for w in cli.json_lines("solve", "myopic", "-", "--json", input="\n".join(lines), check=False)
    }
    assert want
    for line in lines:
        board, colouring = line.split()
        if (board, colouring) in want:
            assert gs.myopic.value(board, colouring) == want[(board, colouring)]["value"], line
    board = lines[0].split()[0]
    assert gs.myopic.solve(board) == cli.json("solve", "myopic", board, "--json")


def test_gamegraph_matches_every_example(cli, repo):
    folder = os.path.join(repo, "docs", "examples")
    files = sorted(f for f in os.listdir(folder) if f.endswith((".game", ".json")))
    assert len(files) >= 5
    for f in files:
        path = os.path.join(folder, f)
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        assert gs.gamegraph.solve(text) == cli.json("solve", "gamegraph", path, "--json"), f


def test_subtraction_matches(cli):
    for s, upto in [([1, 2], 40), ([2, 4, 7], 100), ([3, 5, 64], 300), ([1], 0)]:
        want = cli.json("solve", "subtraction", "--set", ",".join(map(str, s)), "--upto", str(upto), "--json")
        assert gs.subtraction(s, upto) == want


def test_errors_carry_the_cli_message(cli):
    def cli_error(*args):
        r = cli.run(*args, check=False)
        assert r.returncode != 0
        return r.stderr.strip()

    for bad, args in [
        (lambda: gs.uvg.solve("D~"), ["solve", "uvg", "D~", "--json"]),
        (lambda: gs.subtraction([0, 3]), ["solve", "subtraction", "--set", "0,3", "--json"]),
        (lambda: gs.col.solve("Bw", "LL."), ["solve", "col", "Bw", "--colouring", "LL.", "--json"]),
    ]:
        with pytest.raises(gs.GamesweepError) as e:
            bad()
        assert str(e.value) in cli_error(*args)
    with pytest.raises(gs.GamesweepError, match="is not a vertex"):
        gs.uvg.solve("Dhc", start=5)
    with pytest.raises(gs.BudgetExceededError, match="pass budget="):
        gs.uvg.solve(gs.to_graph6(random_graph(random.Random(1), 40, 0.2)), budget=50)
    with pytest.raises(gs.GamesweepError, match="format"):
        gs.gamegraph.solve("", format="yaml")
    with pytest.raises(gs.GamesweepError):
        gs.uvg.values("")
    assert issubclass(gs.InvalidInputError, gs.GamesweepError)
    assert issubclass(gs.InvalidInputError, ValueError)
