"""Counts and motifs against networkx on random graphs."""

from __future__ import annotations

import networkx as nx
import pytest
from _oracle import SHAPES, cliques, embeddings, motifs, subgraphs, triangles

import warpmatch

FOUR_AND_FIVE = ["4-path", "4-star", "4-cycle", "tailed-triangle", "diamond", "5-path", "5-cycle", "house"]


def test_triangles_and_4_cliques(medium: tuple[nx.Graph, warpmatch.Graph]) -> None:
    G, g = medium
    assert g.count("triangle") == triangles(G)
    assert g.count("4-clique") == cliques(G, 4)
    assert g.count("5-clique") == cliques(G, 5)


def test_count_returns_int(medium: tuple[nx.Graph, warpmatch.Graph]) -> None:
    _, g = medium
    assert type(g.count("triangle")) is int


@pytest.mark.parametrize("name", FOUR_AND_FIVE)
def test_edge_induced(small: tuple[nx.Graph, warpmatch.Graph], name: str) -> None:
    G, g = small
    assert g.count(name) == subgraphs(G, SHAPES[name])


@pytest.mark.parametrize("name", ["4-path", "4-cycle", "tailed-triangle", "diamond", "5-cycle"])
def test_vertex_induced(small: tuple[nx.Graph, warpmatch.Graph], name: str) -> None:
    G, g = small
    assert g.count(name, induced=True) == subgraphs(G, SHAPES[name], induced=True)


@pytest.mark.parametrize("name", ["triangle", "4-star", "4-cycle"])
def test_embeddings(small: tuple[nx.Graph, warpmatch.Graph], name: str) -> None:
    G, g = small
    assert g.count(name, embeddings=True) == embeddings(G, SHAPES[name])


def test_methods_agree(small: tuple[nx.Graph, warpmatch.Graph]) -> None:
    _, g = small
    for name in ["4-cycle", "diamond", "4-star"]:
        assert g.count(name, method="formula", induced=True) == g.count(name, method="enumerate", induced=True)


def test_pattern_spellings_agree(small: tuple[nx.Graph, warpmatch.Graph]) -> None:
    """A catalogue name, a Pattern, an edge list and a pattern file give the same count."""
    _, g = small
    edges = SHAPES["house"]
    expected = g.count("house")
    assert g.count(warpmatch.Pattern("house")) == expected
    assert g.count(warpmatch.Pattern.from_edges(5, edges)) == expected
    assert g.count([(a, b) for a, b in edges]) == expected


def test_pattern_file(tmp_path, small: tuple[nx.Graph, warpmatch.Graph]) -> None:
    G, g = small
    path = tmp_path / "tailed.pat"
    path.write_text("# tailed triangle\n0 1\n0 2\n1 2\n2 3\n")
    assert g.count(path) == subgraphs(G, SHAPES["tailed-triangle"])
    assert g.count(str(path)) == g.count("tailed-triangle")


def test_labels(small: tuple[nx.Graph, warpmatch.Graph]) -> None:
    """A triangle with one vertex labeled 1 and two labeled 0, on data labeled by parity."""
    G, g = small
    labels = [v % 2 for v in range(g.vertices)]
    p = warpmatch.Pattern.from_edges(3, SHAPES["triangle"], labels=[1, 0, 0])
    tris = [c for c in nx.enumerate_all_cliques(G) if len(c) == 3]
    assert g.count(p, labels=labels) == sum(1 for t in tris if sum(v % 2 for v in t) == 1)
    assert g.count(p, labels=labels, ignore_labels=True) == len(tris)


def test_count_info(small: tuple[nx.Graph, warpmatch.Graph]) -> None:
    G, g = small
    info = g.count_info("triangle", device="cpu")
    assert info.count == triangles(G)
    assert info.device == "cpu"
    assert info.method in ("formula", "enumerate")
    assert info.seconds >= 0 and info.kernel_ms == 0


@pytest.mark.parametrize("name", ["house", "5-cycle", "tailed-triangle"])
def test_planners_and_orders_agree(small: tuple[nx.Graph, warpmatch.Graph], name: str) -> None:
    G, g = small
    want = subgraphs(G, SHAPES[name])
    for planner in ("auto", "model", "sampled", "probes"):
        assert g.count(name, method="enumerate", device="cpu", planner=planner) == want, planner
    # orders other than the planner's, each vertex after a neighbour
    order = {"house": [4, 0, 1, 3, 2], "5-cycle": [4, 3, 2, 1, 0], "tailed-triangle": [3, 2, 1, 0]}[name]
    assert g.count(name, method="enumerate", device="cpu", order=order) == want


@pytest.mark.parametrize("size", [3, 4])
def test_motifs(small: tuple[nx.Graph, warpmatch.Graph], size: int) -> None:
    G, g = small
    table = g.motif_table(size)
    assert len(table) == {3: 2, 4: 6}[size]
    expected = motifs(G, size, [(m.name, m.edges) for m in table])
    assert {m.name: m.count for m in table} == {m.name: expected[m.name] for m in table}
    assert g.motifs(size) == {m.name: m.count for m in table}


def test_motifs_5() -> None:
    G = nx.gnp_random_graph(16, 0.3, seed=5)
    g = warpmatch.Graph.from_networkx(G)
    table = g.motif_table(5)
    assert len(table) == 21
    expected = motifs(G, 5, [(m.name, m.edges) for m in table])
    assert {m.name: m.count for m in table} == {m.name: expected[m.name] for m in table}


def test_motifs_match_induced_counts(small: tuple[nx.Graph, warpmatch.Graph]) -> None:
    """Each motif count is the class's vertex-induced count."""
    _, g = small
    for name, count in g.motifs(4).items():
        assert count == g.count(name, induced=True)
