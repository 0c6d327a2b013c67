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
