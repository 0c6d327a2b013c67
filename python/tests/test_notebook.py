"""docs/notebooks/tour.ipynb runs end to end (nbclient, a real kernel)."""

import os


def test_tour_notebook_runs(cli, repo):
    import nbformat
    from nbclient import NotebookClient

    folder = os.path.join(repo, "docs", "notebooks")
    nb = nbformat.read(os.path.join(folder, "tour.ipynb"), as_version=4)
    os.environ.setdefault("GAMESWEEP_REPO", repo)
    NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": folder}}
    ).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    svgs = [o for o in outputs if "image/svg+xml" in o.get("data", {})]
    assert len(svgs) >= 2, "the position and the witness are drawn"
    assert any("image/png" in o.get("data", {}) for o in outputs), "the value distribution is plotted"
    assert any("text/html" in o.get("data", {}) for o in outputs), "DataFrames show as HTML"


def test_the_tour_names_what_it_imports(repo):
    """The tour's first cell (its prerequisites) names every package its
    code imports beyond the standard library and gamesweep (it named
    pandas and matplotlib, not networkx)."""
    import ast
    import sys

    import nbformat

    nb = nbformat.read(os.path.join(repo, "docs", "notebooks", "tour.ipynb"), as_version=4)
    intro = nb.cells[0].source
    imported = set()
    for c in nb.cells:
        if c.cell_type != "code":
            continue
        for node in ast.walk(ast.parse(c.source)):
            if isinstance(node, ast.Import):
                imported |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                imported.add(node.module.split(".")[0])
    third_party = {m for m in imported if m not in sys.stdlib_module_names and m != "gamesweep"}
    assert {"networkx", "matplotlib"} <= third_party, third_party
    missing = sorted(m for m in third_party if m not in intro)
    assert not missing, f"the tour imports {missing} but its prerequisites do not name them: {intro!r}"
