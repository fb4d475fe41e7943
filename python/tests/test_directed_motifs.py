"""Directed motifs (Graph.motifs(size, directed=True)) against networkx's triad
census and igraph's motifs_randesu on random directed graphs with mutual arcs,
a hub and isolated vertices; the class table's ids against igraph's own
isoclass() and its MAN codes against networkx's triad_type(); the refusals."""

from __future__ import annotations

import random

import networkx as nx
import pytest

import warpmatch


def random_digraph(n: int, p: float, seed: int, isolated: int = 3) -> nx.DiGraph:
    """Arcs with probability p, a third of them made mutual; vertex 0 a hub with
    arcs to or from about half of the others; the last `isolated` vertices bare."""
    rng = random.Random(seed)
    G = nx.DiGraph()
    G.add_nodes_from(range(n))
    live = n - isolated
    for u in range(live):
        for v in range(live):
            if u != v and (rng.random() < p or (u == 0 and rng.random() < 0.5)):
                G.add_edge(u, v)
                if rng.random() < 0.33:
                    G.add_edge(v, u)
    return G


GRAPHS = [(40, 0.05, 1), (60, 0.08, 2), (120, 0.02, 3)]


def as_warpmatch(G: nx.DiGraph) -> warpmatch.Graph:
    g = warpmatch.Graph.from_networkx(G)
    assert g.directed and g.vertices == G.number_of_nodes() and g.edges == G.number_of_edges()
    return g


@pytest.mark.parametrize("n,p,seed", GRAPHS)
def test_triad_census_equals_networkx(n: int, p: float, seed: int) -> None:
    G = random_digraph(n, p, seed)
    ours = as_warpmatch(G).motifs(3, directed=True, all_classes=True)
    theirs = nx.triadic_census(G)
    assert ours == theirs
    assert sum(ours.values()) == n * (n - 1) * (n - 2) // 6
    connected = as_warpmatch(G).motifs(3, directed=True)
    assert connected == {k: v for k, v in theirs.items() if k not in ("003", "012", "102")}


def igraph_of(G: nx.DiGraph):  # noqa: ANN201 (igraph is optional)
    ig = pytest.importorskip("igraph")
    return ig.Graph(n=G.number_of_nodes(), edges=list(G.edges()), directed=True)


@pytest.mark.parametrize("size", [3, 4])
@pytest.mark.parametrize("n,p,seed", GRAPHS)
def test_counts_equal_igraph_motifs_randesu(n: int, p: float, seed: int, size: int) -> None:
    """igraph counts the weakly connected classes (NaN for the others), indexed by isoclass id."""
    G = random_digraph(n, p, seed)
    theirs = igraph_of(G).motifs_randesu(size=size)
    table = as_warpmatch(G).directed_motif_table(size)
    assert len(table) == (13 if size == 3 else 199)
    for m in table:
        assert m.connected and m.count == theirs[m.igraph_id], m
    nan_ids = {i for i, c in enumerate(theirs) if c != c}
    assert nan_ids == {m.igraph_id for m in as_warpmatch(G).directed_motif_table(size, all_classes=True)} - {
        m.igraph_id for m in table
    }
    assert sum(m.count for m in table) > 0


@pytest.mark.parametrize("size", [3, 4])
def test_ids_are_igraphs_and_names_networkx(size: int) -> None:
    """Each class's arcs make a graph that igraph numbers with the class's id."""
    ig = pytest.importorskip("igraph")
    g = as_warpmatch(random_digraph(12, 0.2, 7, isolated=0))
    table = g.directed_motif_table(size, all_classes=True)
    assert sorted(m.igraph_id for m in table) == list(range(16 if size == 3 else 218))
    for m in table:
        h = ig.Graph(n=size, edges=list(m.arcs), directed=True)
        assert h.isoclass() == m.igraph_id, m
        assert h.is_connected(mode="weak") == m.connected, m
        if size == 3:
            T = nx.DiGraph()
            T.add_nodes_from(range(3))
            T.add_edges_from(m.arcs)
            assert nx.triad_type(T) == m.name
        else:
            assert m.name == f"d4-{m.igraph_id}"


def test_sums_to_every_vertex_set_by_both_methods() -> None:
    G = random_digraph(50, 0.06, 9)
    g = as_warpmatch(G)
    by_paths = g.motifs(4, directed=True, all_classes=True)
    assert sum(by_paths.values()) == 50 * 49 * 48 * 47 // 24
    assert by_paths == g.motifs(4, directed=True, all_classes=True, method="enumerate")


def test_refusals() -> None:
    und = warpmatch.Graph.from_edges([(0, 1), (1, 2)])
    with pytest.raises(warpmatch.UsageError, match="needs a directed graph"):
        und.motifs(3, directed=True)
    d = warpmatch.Graph.from_edges([(0, 1), (1, 2)], directed=True)
    with pytest.raises(warpmatch.UsageError, match="3 or 4"):
        d.motifs(5, directed=True)
    if not warpmatch.gpu_available():
        with pytest.raises(warpmatch.DeviceError, match="no usable GPU"):
            d.motifs(3, directed=True, device="gpu")
    else:
        assert d.motifs(3, directed=True, device="gpu") == d.motifs(3, directed=True, device="cpu")
    with pytest.raises(warpmatch.UsageError, match="all_classes"):
        und.motifs(3, all_classes=True)
    assert d.motifs(3, directed=True)["021C"] == 1
