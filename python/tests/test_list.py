"""Listing: each row a distinct match whose edges exist, as many rows as the count."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from _oracle import SHAPES

import warpmatch


def _subgraph_key(row: np.ndarray, edges) -> frozenset:
    """The data subgraph a match covers: its set of edges (vertex pairs)."""
    return frozenset(frozenset((int(row[a]), int(row[b]))) for a, b in edges)


@pytest.mark.parametrize("name", ["triangle", "4-cycle", "tailed-triangle", "5-path"])
def test_rows_are_the_matches(small: tuple[nx.Graph, warpmatch.Graph], name: str) -> None:
    G, g = small
    edges = SHAPES[name]
    k = 1 + max(max(e) for e in edges)
    p = warpmatch.Pattern.from_edges(k, edges)
    rows = g.list(p)
    assert rows.dtype == np.uint32
    assert rows.shape == (g.count(p), k)
    for row in rows:
        assert len(set(row.tolist())) == k
        assert all(G.has_edge(int(row[a]), int(row[b])) for a, b in edges)
    assert len({_subgraph_key(r, edges) for r in rows}) == len(rows)


def test_order_and_planner_keep_the_rows(small: tuple[nx.Graph, warpmatch.Graph]) -> None:
    _, g = small
    want = {tuple(r) for r in g.list("house").tolist()}
    assert {tuple(r) for r in g.list("house", planner="model").tolist()} == want
    assert {tuple(r) for r in g.list("house", order=[4, 0, 1, 3, 2]).tolist()} == want


def test_induced_rows(small: tuple[nx.Graph, warpmatch.Graph]) -> None:
    G, g = small
    edges = SHAPES["4-path"]
    p = warpmatch.Pattern.from_edges(4, edges)
    rows = g.list(p, induced=True)
    assert len(rows) == g.count(p, induced=True)
    P = nx.Graph(edges)
    for row in rows:
        assert nx.is_isomorphic(G.subgraph(row.tolist()), P)


def test_embeddings_rows(small: tuple[nx.Graph, warpmatch.Graph]) -> None:
    _, g = small
    rows = g.list("triangle", embeddings=True)
    assert len(rows) == g.count("triangle", embeddings=True) == 6 * g.count("triangle")
    assert len({tuple(r) for r in rows.tolist()}) == len(rows)


def test_limit(small: tuple[nx.Graph, warpmatch.Graph]) -> None:
    _, g = small
    total = g.count("3-path")
    assert total > 10
    assert g.list("3-path", limit=7).shape == (7, 3)
    assert g.list("3-path", limit=0).shape == (0, 3)
    assert g.list("3-path", limit=total + 100).shape == (total, 3)


def test_no_matches() -> None:
    g = warpmatch.Graph.from_edges([(0, 1), (1, 2)])
    rows = g.list("triangle")
    assert rows.shape == (0, 3) and rows.dtype == np.uint32


def test_nodes_map_back() -> None:
    """Rows are indices; g.nodes turns them into networkx node names."""
    G = nx.Graph([("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")])
    g = warpmatch.Graph.from_networkx(G)
    rows = g.list("triangle")
    assert len(rows) == 1
    assert {g.nodes[i] for i in rows[0]} == {"a", "b", "c"}
