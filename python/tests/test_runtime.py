"""The package itself: version, library, plans, threads and the GIL."""

from __future__ import annotations

import ctypes
import importlib.metadata
import json
import re
import threading
import time

import networkx as nx
import pytest

import warpmatch
from warpmatch import _lib


def test_version() -> None:
    assert re.fullmatch(r"\d+\.\d+\.\d+", warpmatch.__version__)
    try:
        installed = importlib.metadata.version("warpmatch")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("not installed (running against WARPMATCH_LIBRARY)")
    assert installed == warpmatch.__version__


def test_packaged_library() -> None:
    """Installed, the binding loads the library inside the package."""
    path = _lib.library_path()
    assert path.exists()
    if "WARPMATCH_LIBRARY" not in __import__("os").environ:
        assert path.parent.name == "warpmatch" and path.name == "libwarpmatch.so"


def test_match_options_mirror_the_header() -> None:
    # the library's _init writes its sizeof: the ctypes mirror must be the
    # same struct, not a prefix or a longer one, for this library
    room = ctypes.create_string_buffer(ctypes.sizeof(_lib.MatchOptions) + 4096)
    _lib.lib.warpmatch_match_options_init(room)
    assert ctypes.c_size_t.from_buffer(room).value == ctypes.sizeof(_lib.MatchOptions)
    o = _lib.match_options()
    assert (o.planner, o.trials, o.gpu_steal, o.gpu_dedicated) == (_lib.PLANNER_AUTO, 1, -1, 1)


def test_gpu_available_is_bool() -> None:
    assert isinstance(warpmatch.gpu_available(), bool)


def test_plan() -> None:
    g = warpmatch.Graph.from_networkx(nx.gnp_random_graph(100, 0.1, seed=4))
    text = g.plan("house")
    assert "house" in text and "for v0" in text
    parsed = json.loads(g.plan("house", json=True))
    assert isinstance(parsed, dict)
    assert "house" in warpmatch.Pattern("house").plan()


def test_pattern_properties() -> None:
    p = warpmatch.Pattern("K4")
    assert (p.name, p.vertices) == ("4-clique", 4)
    assert warpmatch.Pattern.from_edges(3, [(0, 1), (1, 2)]).name == "3-path"


def test_wide_counts() -> None:
    """Counts past 2^64 come back whole (count_high * 2^64 + count)."""
    from warpmatch._api import _wide

    assert _wide(5, 0) == 5
    assert _wide(0, 1) == 2**64
    assert _wide(2**64 - 1, 3) == 4 * 2**64 - 1


def test_enumerated_count_past_2_64() -> None:
    """An enumerated count past 2^64 comes back exact: a 4-star on a star of
    5,000,000 leaves, C(n, 3), by the plan and by the formula."""
    import math

    import numpy as np

    n = 5_000_000
    edges = np.zeros((n, 2), dtype=np.int64)
    edges[:, 1] = np.arange(1, n + 1)
    g = warpmatch.Graph.from_edges(edges)
    want = math.comb(n, 3)
    assert want > 2**64
    assert g.count("4-star", device="cpu", method="enumerate") == want
    assert g.count("4-star", device="cpu", method="formula") == want
    assert g.count("4-star", device="cpu", embeddings=True) == 6 * want


def test_hook_count_start_carries(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under the library's test hook WM_TEST_COUNT_START (exact_count.h) an
    enumerated count starts near 2^64 and comes back whole, vertex-induced
    too."""
    G = nx.star_graph(40)
    g = warpmatch.Graph.from_networkx(G)
    start = 2**64 - 7
    monkeypatch.setenv("WM_TEST_COUNT_START", str(start))
    assert g.count("4-star", device="cpu", method="enumerate") == start + 9880  # C(40, 3)
    assert g.count("4-star", device="cpu", method="enumerate", induced=True) == start + 9880


def test_graphs_in_threads() -> None:
    """Separate graphs in separate threads count correctly at the same time."""
    graphs = [nx.gnp_random_graph(300, 0.05, seed=s) for s in range(4)]
    expected = [sum(nx.triangles(G).values()) // 3 for G in graphs]
    results: dict[int, int] = {}

    def work(i: int) -> None:
        g = warpmatch.Graph.from_networkx(graphs[i])
        results[i] = g.count("triangle")

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(graphs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [results[i] for i in range(len(graphs))] == expected


def test_one_graph_many_threads() -> None:
    """Calls on one graph from several threads are serialised, not mixed up."""
    G = nx.gnp_random_graph(300, 0.05, seed=9)
    g = warpmatch.Graph.from_networkx(G)
    want = g.count("4-cycle")
    out: list[int] = []
    threads = [threading.Thread(target=lambda: out.append(g.count("4-cycle"))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out == [want] * 4


def test_set_gpus() -> None:
    """1 to 16 GPUs; other numbers raise with the C message; CPU calls ignore it."""
    G = nx.gnp_random_graph(60, 0.2, seed=4)
    g = warpmatch.Graph.from_networkx(G)
    want = g.count("triangle", device="cpu")
    with pytest.raises(warpmatch.UsageError, match="0 GPUs"):
        g.set_gpus(0)
    g.set_gpus(2)
    assert g.count("triangle", device="cpu") == want


def test_gil_released() -> None:
    """While a long count runs in C, Python code keeps running in another thread.

    With the GIL held for the call, the main thread would stall for the whole
    count; released, it keeps ticking.  The count runs on one CPU thread so a
    core stays free for the main thread.
    """
    G = nx.gnp_random_graph(3000, 0.02, seed=10)
    g = warpmatch.Graph.from_networkx(G)
    g.set_threads(1)
    start = time.perf_counter()
    g.count("4-cycle", method="enumerate", device="cpu")
    alone = time.perf_counter() - start
    if alone < 0.2:
        pytest.skip(f"the count takes {alone:.3f} s here, too short to tell")

    worker = threading.Thread(target=g.count, args=("4-cycle",), kwargs={"method": "enumerate", "device": "cpu"})
    last = time.perf_counter()
    longest = 0.0
    worker.start()  # a stall can begin inside start()
    while worker.is_alive():
        now = time.perf_counter()
        longest = max(longest, now - last)
        last = now
    longest = max(longest, time.perf_counter() - last)  # a stall can end with the worker
    worker.join()
    assert longest < alone / 2, f"the main thread stalled {longest:.3f} s of a {alone:.3f} s count"
