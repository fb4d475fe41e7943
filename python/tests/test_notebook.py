"""docs/tour.ipynb runs from top to bottom (nbclient, a fresh kernel of this
interpreter): every cell, its asserts included, against this build, so the
worked example cannot rot."""

from __future__ import annotations

import pathlib

import nbformat
from nbclient import NotebookClient

NOTEBOOK = pathlib.Path(__file__).resolve().parents[2] / "docs" / "tour.ipynb"


def test_the_tour_notebook_runs() -> None:
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOK.parent)}})
    client.execute()  # raises CellExecutionError naming the cell that failed
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(images) >= 2, "the BFS histogram and the significance profile are drawn"
