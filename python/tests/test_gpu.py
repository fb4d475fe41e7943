"""The GPU against the CPU through the package, where a GPU is usable (else skipped, by name)."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from conftest import with_hub

import warpmatch

pytestmark = pytest.mark.skipif(not warpmatch.gpu_available(), reason="no usable GPU (or a build without CUDA)")

PATTERNS = ["triangle", "4-clique", "5-clique", "4-cycle", "diamond", "tailed-triangle", "house", "5-path"]


@pytest.fixture(scope="module")
def hub() -> warpmatch.Graph:
    return warpmatch.Graph.from_networkx(with_hub(600, 0.02, 21))


@pytest.mark.parametrize("name", PATTERNS)
@pytest.mark.parametrize("induced", [False, True])
def test_counts_agree(hub: warpmatch.Graph, name: str, induced: bool) -> None:
    gpu = hub.count_info(name, induced=induced, device="gpu")
    cpu = hub.count(name, induced=induced, device="cpu", method="enumerate")
    assert gpu.count == cpu
    assert gpu.device == "gpu"


@pytest.mark.parametrize("size", [4, 5])
def test_motifs_agree(hub: warpmatch.Graph, size: int) -> None:
    assert hub.motifs(size, device="gpu") == hub.motifs(size, device="cpu")


def test_listing_agrees(hub: warpmatch.Graph) -> None:
    # One vertex set can hold several 4-cycles (a 4-clique holds three):
    # a match is told apart by the edges it maps the pattern's onto.
    cycle = [(0, 1), (1, 2), (2, 3), (3, 0)]
    gpu = hub.list(cycle, device="gpu")
    cpu = hub.list(cycle, device="cpu")
    canon = lambda rows: {frozenset(frozenset((r[a], r[b])) for a, b in cycle) for r in rows.tolist()}  # noqa: E731
    assert len(gpu) == len(cpu) == len(canon(gpu))
    assert canon(gpu) == canon(cpu)


def test_bfs_agrees(hub: warpmatch.Graph) -> None:
    for source in (0, 1, 599):
        assert np.array_equal(hub.bfs(source, device="gpu"), hub.bfs(source, device="cpu"))


def test_directed_bfs_agrees() -> None:
    G = nx.gnp_random_graph(500, 0.01, seed=5, directed=True)
    g = warpmatch.Graph.from_networkx(G)
    assert np.array_equal(g.bfs(0, device="gpu"), g.bfs(0, device="cpu"))


@pytest.mark.parametrize("size", [3, 4, 5])
def test_orbits_agree(hub: warpmatch.Graph, size: int) -> None:
    gpu = hub.orbits(size, device="gpu")
    cpu = hub.orbits(size, device="cpu")
    assert gpu.dtype == np.uint64
    assert np.array_equal(gpu, cpu)


def _edge_set(g: warpmatch.Graph) -> set[tuple[int, int]]:
    return {(int(u), int(v)) for u, v in g.edge_list()}


def _degrees(g: warpmatch.Graph) -> dict[int, int]:
    deg: dict[int, int] = {}
    for u, v in _edge_set(g):
        deg[u] = deg.get(u, 0) + 1
        deg[v] = deg.get(v, 0) + 1
    return deg


def test_significance_graphs_made_on_the_gpu(hub: warpmatch.Graph) -> None:
    """Switch graphs made on the GPU keep every degree, make no loop, repeat
    by seed, and the table's random mean is theirs counted on the CPU."""
    r = hub.randomize(seed=5, index=1, device="gpu")
    assert r.edges == hub.edges
    assert all(u != v for u, v in _edge_set(r))
    assert _degrees(r) == _degrees(hub)
    assert _edge_set(hub.randomize(seed=5, index=1, device="gpu")) == _edge_set(r)
    assert _edge_set(hub.randomize(seed=6, index=1, device="gpu")) != _edge_set(r)
    n = 3
    table = hub.motifs(3, random=n, seed=5, device="gpu")
    info = table.attrs if hasattr(table, "attrs") else table.info
    assert info["randomize_device"] == "gpu" and info["randomize_gpus"] == 1
    rows = table.to_dict("records") if hasattr(table, "to_dict") else [x.__dict__ for x in table]
    for row in rows:
        xs = [hub.randomize(seed=5, index=i, device="gpu").motifs(3, device="cpu")[row["name"]] for i in range(n)]
        assert row["random_mean"] == pytest.approx(sum(xs) / n)
