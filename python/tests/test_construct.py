"""Every way of making a graph gives the same graph."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from _oracle import triangles

import warpmatch


@pytest.fixture
def G() -> nx.Graph:
    G = nx.gnp_random_graph(150, 0.06, seed=21)
    G.add_node(150)  # an isolated vertex at the end
    return G


def _same(a: warpmatch.Graph, b: warpmatch.Graph) -> None:
    assert (a.vertices, a.edges, a.directed) == (b.vertices, b.edges, b.directed)
    assert a.count("triangle") == b.count("triangle")
    assert a.motifs(4) == b.motifs(4)
    np.testing.assert_array_equal(a.bfs(0), b.bfs(0))


def test_from_edges_array_and_pairs(G: nx.Graph) -> None:
    arr = np.array(G.edges(), dtype=np.int64)
    a = warpmatch.Graph.from_edges(arr, n=G.number_of_nodes())
    b = warpmatch.Graph.from_edges(list(G.edges()), n=G.number_of_nodes())
    c = warpmatch.Graph.from_edges(iter(G.edges()), n=G.number_of_nodes())
    assert a.vertices == G.number_of_nodes() and a.edges == G.number_of_edges()
    assert not a.directed
    assert a.count("triangle") == triangles(G)
    _same(a, b)
    _same(a, c)


def test_from_edges_without_n(G: nx.Graph) -> None:
    g = warpmatch.Graph.from_edges(np.array(G.edges(), dtype=np.uint32))
    assert g.vertices == 1 + max(max(e) for e in G.edges())


def test_from_edges_drops_loops_and_duplicates() -> None:
    g = warpmatch.Graph.from_edges([(0, 1), (1, 0), (1, 1), (1, 2), (0, 1)])
    assert (g.vertices, g.edges) == (3, 2)
    d = warpmatch.Graph.from_edges([(0, 1), (1, 0), (1, 2)], directed=True)
    assert d.directed and d.edges == 3


def test_from_networkx(G: nx.Graph) -> None:
    _same(warpmatch.Graph.from_networkx(G), warpmatch.Graph.from_edges(list(G.edges()), n=G.number_of_nodes()))


def test_from_networkx_node_names() -> None:
    G = nx.relabel_nodes(nx.cycle_graph(5), {i: f"v{i}" for i in range(5)})
    G.add_node(("isolated", 1))
    g = warpmatch.Graph.from_networkx(G)
    assert list(g.nodes) == list(G.nodes)
    assert g.index_of("v3") == list(G.nodes).index("v3")
    assert g.vertices == 6 and g.edges == 5
    levels = g.bfs(g.index_of("v0"))
    assert {g.nodes[i]: int(d) for i, d in enumerate(levels)} == {
        "v0": 0, "v1": 1, "v4": 1, "v2": 2, "v3": 2, ("isolated", 1): -1
    }


def test_from_scipy(G: nx.Graph) -> None:
    scipy_sparse = pytest.importorskip("scipy.sparse")
    csr = nx.to_scipy_sparse_array(G, format="csr")
    a = warpmatch.Graph.from_scipy(csr)
    assert not a.directed
    _same(a, warpmatch.Graph.from_networkx(G))
    # The matrix class as well as the array class.
    _same(warpmatch.Graph.from_scipy(scipy_sparse.csr_matrix(csr)), a)


def test_from_scipy_nonsymmetric() -> None:
    scipy_sparse = pytest.importorskip("scipy.sparse")
    m = scipy_sparse.csr_array(([1, 1, 1], ([0, 1, 2], [1, 2, 0])), shape=(4, 4))
    und = warpmatch.Graph.from_scipy(m)
    assert (und.vertices, und.edges, und.directed) == (4, 3, False)
    assert und.count("triangle") == 1
    arcs = warpmatch.Graph.from_scipy(m, directed=True)
    assert (arcs.vertices, arcs.edges, arcs.directed) == (4, 3, True)
    np.testing.assert_array_equal(arcs.bfs(1), [2, 0, 1, -1])


def test_load_edge_list(tmp_path, G: nx.Graph) -> None:
    """Sparse ids in a file: indices in increasing id order, g.nodes gives the ids back."""
    path = tmp_path / "g.txt"
    lines = ["# comment", "% another"] + [f"{10 * u + 5}\t{10 * v + 5}" for u, v in G.edges()]
    path.write_text("\n".join(lines) + "\n")
    g = warpmatch.load(path, cache=False)
    with_edges = sorted({x for e in G.edges() for x in e})
    assert g.vertices == len(with_edges)
    np.testing.assert_array_equal(g.nodes, [10 * v + 5 for v in with_edges])
    assert g.index_of(10 * with_edges[3] + 5) == 3
    assert g.count("triangle") == triangles(G)
    assert g.motifs(4) == warpmatch.Graph.from_networkx(G.subgraph(with_edges)).motifs(4)
    assert not list(tmp_path.glob("*.wmg"))


def test_load_cache(tmp_path, G: nx.Graph) -> None:
    path = tmp_path / "g.txt"
    path.write_text("".join(f"{u} {v}\n" for u, v in G.edges()))
    first = warpmatch.load(str(path))
    assert (tmp_path / "g.txt.wmg").exists()
    second = warpmatch.load(path)
    _same(first, second)


def test_load_directed(tmp_path) -> None:
    path = tmp_path / "arcs.txt"
    path.write_text("0 1\n1 2\n2 0\n2 3\n")
    d = warpmatch.load(path, directed=True, cache=False)
    assert d.directed and d.edges == 4
    np.testing.assert_array_equal(d.bfs(3), [-1, -1, -1, 0])
    u = warpmatch.load(path, cache=False)
    assert not u.directed and u.edges == 4
    np.testing.assert_array_equal(u.bfs(3), [2, 2, 1, 0])


def test_load_matrix_market(tmp_path, G: nx.Graph) -> None:
    scipy_io = pytest.importorskip("scipy.io")

    path = tmp_path / "g.mtx"
    scipy_io.mmwrite(str(path), nx.to_scipy_sparse_array(G, format="coo"))
    g = warpmatch.load(path, cache=False)
    assert g.vertices == G.number_of_nodes()
    assert g.count("triangle") == triangles(G)
    assert g.edges == G.number_of_edges()


def test_context_manager_and_close() -> None:
    with warpmatch.Graph.from_edges([(0, 1), (1, 2), (2, 0)]) as g:
        assert g.count("triangle") == 1
    assert g.closed
    with pytest.raises(warpmatch.UsageError):
        g.count("triangle")
    g.close()  # a second close does nothing
