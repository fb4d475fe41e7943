"""Brute-force reference counts with networkx, for checking warpmatch on small graphs."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence

import networkx as nx
from networkx.algorithms.isomorphism import GraphMatcher

Edges = Sequence[tuple[int, int]]

# Catalogue shapes by name, in the catalogue's own vertex numbering.
SHAPES: dict[str, Edges] = {
    "triangle": [(0, 1), (1, 2), (2, 0)],
    "3-path": [(0, 1), (1, 2)],
    "4-path": [(0, 1), (1, 2), (2, 3)],
    "4-star": [(0, 1), (0, 2), (0, 3)],
    "4-cycle": [(0, 1), (1, 2), (2, 3), (3, 0)],
    "tailed-triangle": [(0, 1), (0, 2), (1, 2), (2, 3)],
    "diamond": [(0, 1), (0, 2), (1, 2), (0, 3), (1, 3)],
    "4-clique": [(a, b) for a, b in itertools.combinations(range(4), 2)],
    "5-path": [(0, 1), (1, 2), (2, 3), (3, 4)],
    "5-star": [(0, 1), (0, 2), (0, 3), (0, 4)],
    "5-cycle": [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)],
    "house": [(0, 1), (1, 2), (2, 3), (3, 0), (0, 4), (1, 4)],
    "bowtie": [(0, 1), (0, 2), (1, 2), (0, 3), (0, 4), (3, 4)],
}


def pattern_graph(edges: Edges) -> nx.Graph:
    P = nx.Graph()
    P.add_edges_from(edges)
    return P


def automorphisms(P: nx.Graph) -> int:
    return sum(1 for _ in GraphMatcher(P, P).isomorphisms_iter())


def embeddings(G: nx.Graph, edges: Edges, induced: bool = False) -> int:
    """Injective maps of the pattern into G that keep its edges (and its non-edges when induced)."""
    P = pattern_graph(edges)
    gm = GraphMatcher(G, P)
    it = gm.subgraph_isomorphisms_iter() if induced else gm.subgraph_monomorphisms_iter()
    return sum(1 for _ in it)


def subgraphs(G: nx.Graph, edges: Edges, induced: bool = False) -> int:
    """Subgraphs of G isomorphic to the pattern, each once (edge- or vertex-induced)."""
    P = pattern_graph(edges)
    total = embeddings(G, edges, induced)
    aut = automorphisms(P)
    assert total % aut == 0
    return total // aut


def triangles(G: nx.Graph) -> int:
    return sum(nx.triangles(G).values()) // 3


def cliques(G: nx.Graph, k: int) -> int:
    return sum(1 for c in nx.enumerate_all_cliques(G) if len(c) == k)


def _key(H: nx.Graph) -> tuple[int, tuple[int, ...]]:
    return H.number_of_edges(), tuple(sorted(d for _, d in H.degree()))


def motifs(G: nx.Graph, size: int, classes: Iterable[tuple[str, Edges]]) -> Counter[str]:
    """Connected induced subgraphs of ``size`` vertices, by class name (classes given by their edges)."""
    buckets: dict[tuple[int, tuple[int, ...]], list[tuple[str, nx.Graph]]] = {}
    for name, edges in classes:
        P = pattern_graph(edges)
        buckets.setdefault(_key(P), []).append((name, P))
    found: Counter[str] = Counter()
    for nodes in itertools.combinations(G.nodes, size):
        H = G.subgraph(nodes)
        if H.number_of_edges() < size - 1 or not nx.is_connected(H):
            continue
        for name, P in buckets[_key(H)]:
            if nx.is_isomorphic(H, P):
                found[name] += 1
                break
        else:
            raise AssertionError(f"no class for {sorted(H.edges)}")
    return found
