"""BFS levels, parents and reachability against networkx."""

from __future__ import annotations

import networkx as nx
import numpy as np

import warpmatch


def _levels(G: nx.Graph, source: int) -> np.ndarray:
    want = np.full(G.number_of_nodes(), -1, dtype=np.int32)
    for v, d in nx.single_source_shortest_path_length(G, source).items():
        want[v] = d
    return want


def test_levels(medium: tuple[nx.Graph, warpmatch.Graph]) -> None:
    G, g = medium
    for source in (0, 7, G.number_of_nodes() - 1):
        levels = g.bfs(source)
        assert levels.dtype == np.int32
        np.testing.assert_array_equal(levels, _levels(G, source))


def test_levels_with_unreached() -> None:
    """Two components and isolated vertices: the other component stays at -1."""
    G = nx.disjoint_union(nx.gnp_random_graph(50, 0.1, seed=7), nx.path_graph(10))
    G.add_nodes_from(range(60, 65))
    g = warpmatch.Graph.from_networkx(G)
    assert g.vertices == 65
    for source in (0, 55, 62):
        np.testing.assert_array_equal(g.bfs(source), _levels(G, source))


def test_directed_levels() -> None:
    G = nx.gnp_random_graph(120, 0.03, seed=8, directed=True)
    g = warpmatch.Graph.from_networkx(G)
    assert g.directed
    for source in (0, 5):
        np.testing.assert_array_equal(g.bfs(source), _levels(G, source))


def test_parents(medium: tuple[nx.Graph, warpmatch.Graph]) -> None:
    G, g = medium
    levels = g.bfs(3)
    parents = g.bfs_parents(3)
    assert parents[3] == 3
    for v in range(g.vertices):
        if levels[v] < 0:
            assert parents[v] == -1
        elif v != 3:
            assert G.has_edge(int(parents[v]), v)
            assert levels[parents[v]] == levels[v] - 1


def test_reach() -> None:
    G = nx.disjoint_union(nx.path_graph(6), nx.cycle_graph(5))
    g = warpmatch.Graph.from_networkx(G)
    assert g.reach(0, 5) == 5
    assert g.reach(2, 2) == 0
    assert g.reach(6, 8) == 2
    assert g.reach(0, 7) is None


def test_cpu_device(medium: tuple[nx.Graph, warpmatch.Graph]) -> None:
    G, g = medium
    np.testing.assert_array_equal(g.bfs(1, device="cpu"), _levels(G, 1))
