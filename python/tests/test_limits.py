"""Integers past a C parameter's width and strings holding NUL bytes are refused
before the call: ctypes would cut them silently (a limit of 2**64 + 1 listed one
row, a pattern of 2**32 + 3 vertices had 3, a path ended at its NUL)."""

from __future__ import annotations

import pathlib

import networkx as nx
import numpy as np
import pytest

import warpmatch


@pytest.fixture
def g() -> warpmatch.Graph:
    return warpmatch.Graph.from_networkx(nx.gnp_random_graph(40, 0.2, seed=5))


def test_list_limit(g: warpmatch.Graph) -> None:
    every = g.list("triangle", device="cpu")
    assert len(every) > 1
    rows = g.list("triangle", limit=2**64 - 1, device="cpu")  # "at most 2**64 - 1": all of them
    assert sorted(map(tuple, rows)) == sorted(map(tuple, every))
    assert len(g.list("triangle", limit=1, device="cpu")) == 1
    for bad in (2**64, 2**64 + 1, -1):
        with pytest.raises(warpmatch.UsageError, match=rf"limit must be from 0 to 2\*\*64 - 1.*not {bad}"):
            g.list("triangle", limit=bad)
    with pytest.raises(TypeError, match="limit must be an integer"):
        g.list("triangle", limit=1.5)  # type: ignore[arg-type]


def test_pattern_vertex_count() -> None:
    path8 = [(i, i + 1) for i in range(7)]
    assert warpmatch.Pattern.from_edges(8, path8).vertices == 8
    for bad in (2**32 + 3, 2**32 + 8, 9, 1, -1):
        with pytest.raises(warpmatch.InputError, match=f"vertex count k must be from 2 to 8, not {bad}"):
            warpmatch.Pattern.from_edges(bad, [(0, 1), (1, 2)])
    with pytest.raises(warpmatch.InputError, match="labels"):
        warpmatch.Pattern.from_edges(3, [(0, 1), (1, 2)], labels=[0, 2**31, 0])


def test_threads(g: warpmatch.Graph) -> None:
    want = g.count("4-cycle", device="cpu")
    g.set_threads(warpmatch._lib.MAX_THREADS)  # the limit runs
    assert g.count("4-cycle", device="cpu") == want
    # past the C int: refused here, naming the library's range
    for bad in (2**31, 2**40, 2**64 + 2, -(2**31) - 1):
        with pytest.raises(warpmatch.UsageError, match=rf"threads must be 0 \(all cores\) or 1 to 4096, not {bad}"):
            g.set_threads(bad)
    # within it: the library's own words
    for bad in (4097, 100000, 2**31 - 1, -1):
        with pytest.raises(warpmatch.UsageError, match=f"{bad} threads; give 1 to 4096, or 0"):
            g.set_threads(bad)
    g.set_threads(0)
    assert g.count("4-cycle", device="cpu") == want


def test_gpus(g: warpmatch.Graph) -> None:
    g.set_gpus(warpmatch._lib.MAX_GPUS)
    with pytest.raises(warpmatch.UsageError, match="17 GPUs; give 1 to 16"):
        g.set_gpus(17)
    for bad in (2**32 + 1, 2**33, -(2**31) - 1):  # 2**32 + 1 was 1 GPU to ctypes
        with pytest.raises(warpmatch.UsageError, match=f"gpus must be 1 to 16, not {bad}"):
            g.set_gpus(bad)


def test_motif_size(g: warpmatch.Graph) -> None:
    assert len(g.motifs(3, device="cpu")) == 2
    for bad in (2**32 + 4, 2, 6, -1):  # 2**32 + 4 counted size 4
        with pytest.raises(warpmatch.UsageError, match=f"motif size must be 3, 4 or 5, not {bad}"):
            g.motifs(bad)


def test_vertex_ids_and_counts(g: warpmatch.Graph) -> None:
    for bad in (2**32, 2**32 - 1, 2**64 + 1, -1):
        with pytest.raises(warpmatch.UsageError, match=f"{bad} is not a vertex index"):
            g.bfs(bad)
        with pytest.raises(warpmatch.UsageError, match="is not a vertex index"):
            g.reach(0, bad)
    with pytest.raises(warpmatch.UsageError, match="order"):
        g.count("triangle", order=[0, 1, 2**32 + 2])
    with pytest.raises(warpmatch.InputError, match="n must be between 0 and 2"):
        warpmatch.Graph.from_edges([(0, 1)], n=2**32)
    with pytest.raises(warpmatch.InputError, match="edge ids go up to 2"):
        warpmatch.Graph.from_edges([(0, 2**32 + 1)])
    with pytest.raises(warpmatch.InputError, match="labels are integers 0 .. 2"):
        g.count("triangle", labels=np.full(g.vertices, 2**31, dtype=np.int64))


def test_nul_bytes(g: warpmatch.Graph, tmp_path: pathlib.Path) -> None:
    graph = tmp_path / "g.txt"
    graph.write_text("0 1\n1 2\n2 0\n")
    assert warpmatch.load(graph, cache=False).edges == 3
    for path in (f"{graph}\0.junk", pathlib.Path(f"{graph}\0")):  # C would read g.txt
        with pytest.raises(warpmatch.UsageError, match="graph path .* contains a NUL byte"):
            warpmatch.load(path)
    for name in ("triangle\0", "triangle\0house"):  # C would take the triangle
        with pytest.raises(warpmatch.UsageError, match="pattern name or path .* contains a NUL byte"):
            warpmatch.Pattern(name)
        with pytest.raises(warpmatch.UsageError, match="NUL byte"):
            g.count(name)
