"""Shared fixtures: small random graphs as networkx graphs and warpmatch graphs."""

from __future__ import annotations

import networkx as nx
import pytest

import warpmatch


def gnp(n: int, p: float, seed: int) -> nx.Graph:
    return nx.gnp_random_graph(n, p, seed=seed)


def with_hub(n: int, p: float, seed: int) -> nx.Graph:
    """A sparse random graph plus vertex 0 joined to every other vertex (skewed degrees)."""
    G = nx.gnp_random_graph(n, p, seed=seed)
    G.add_edges_from((0, v) for v in range(1, n))
    return G


# Graphs small enough for networkx's brute force over 5-vertex patterns.
SMALL = {
    "gnp-30-a": lambda: gnp(30, 0.15, 1),
    "gnp-30-b": lambda: gnp(30, 0.2, 2),
    "hub-25": lambda: with_hub(25, 0.12, 3),
}


@pytest.fixture(params=sorted(SMALL))
def small(request: pytest.FixtureRequest) -> tuple[nx.Graph, warpmatch.Graph]:
    """(networkx graph, the same graph in warpmatch), on the CPU."""
    G = SMALL[request.param]()
    return G, warpmatch.Graph.from_networkx(G)


@pytest.fixture(params=[(200, 0.08, 11), (400, 0.03, 12)], ids=["gnp-200", "gnp-400"])
def medium(request: pytest.FixtureRequest) -> tuple[nx.Graph, warpmatch.Graph]:
    G = gnp(*request.param)
    return G, warpmatch.Graph.from_networkx(G)
