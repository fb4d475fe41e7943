"""What a notebook user expects of Python: the usual constructors and back to networkx,
nodes that index like any numpy array, exceptions that are Python's own, per-vertex
counts, multi-source BFS and distance matrices; networkx and igraph as the oracles."""

from __future__ import annotations

import gzip
import itertools
import tracemalloc

import networkx as nx
import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

import warpmatch

try:
    import igraph as ig
except ImportError:  # the cases that need it skip; the rest still run
    ig = None

needs_igraph = pytest.mark.skipif(ig is None, reason="igraph is not installed")

# ---- constructors ----------------------------------------------------------------


def _named(G: nx.Graph) -> set[frozenset]:
    return {frozenset(e) for e in G.edges()}


@needs_igraph
def test_from_igraph_undirected_named_and_isolated() -> None:
    H = ig.Graph.Famous("Zachary")
    H.add_vertices(2)  # isolated ones are kept
    H.vs["name"] = [f"v{i}" for i in range(H.vcount())]
    g = warpmatch.Graph.from_igraph(H)
    assert (g.vertices, g.edges, g.directed) == (H.vcount(), H.ecount(), False)
    assert g.nodes.tolist() == H.vs["name"]
    G = H.to_networkx()
    assert g.count("triangle") == sum(nx.triangles(G).values()) // 3
    # Its triangles, named, are igraph's.
    want = {frozenset(H.vs[list(c)]["name"]) for c in H.cliques(3, 3)}
    assert {frozenset(r) for r in g.nodes[g.list("triangle")].tolist()} == want


@needs_igraph
def test_from_igraph_directed_multi_and_loops() -> None:
    H = ig.Graph(n=5, edges=[(0, 1), (1, 2), (2, 0), (0, 1), (3, 3), (2, 1)], directed=True)
    g = warpmatch.Graph.from_igraph(H)
    assert g.directed and g.vertices == 5
    assert g.edges == 4  # the duplicate arc and the loop dropped; 2->1 and 1->2 both kept
    np.testing.assert_array_equal(g.nodes, np.arange(5))
    levels = g.bfs(0, device="cpu")
    want = H.distances(source=0, mode="out")[0]
    np.testing.assert_array_equal(levels, [d if d != float("inf") else -1 for d in want])


def test_from_pandas_names_columns_and_direction() -> None:
    df = pd.DataFrame({"source": ["b", "a", "c", "c", "a"], "target": ["c", "b", "a", "d", "b"], "w": [1.0] * 5})
    g = warpmatch.Graph.from_pandas(df)
    assert g.nodes.tolist() == ["a", "b", "c", "d"]  # sorted names become the indices
    assert g.edges == 4 and not g.directed
    assert _named(g.to_networkx()) == _named(nx.from_pandas_edgelist(df))
    d = warpmatch.Graph.from_pandas(df.rename(columns={"source": "u", "target": "v"}), "u", "v", directed=True)
    assert d.directed and d.edges == 4
    want = nx.from_pandas_edgelist(df, create_using=nx.DiGraph)
    assert set(d.to_networkx().edges()) == set(want.edges())
    # Integer names are names too: numbered in sorted order, as load() numbers a file's ids.
    ints = pd.DataFrame({"source": [100, 7, 100], "target": [7, 5000, 5000]})
    h = warpmatch.Graph.from_pandas(ints)
    assert h.nodes.dtype.kind == "i" and h.nodes.tolist() == [7, 100, 5000]
    assert h.count("triangle") == 1


def test_from_pandas_errors() -> None:
    df = pd.DataFrame({"from": [0, 1], "to": [1, None]})
    with pytest.raises(warpmatch.UsageError, match="no column 'source'"):
        warpmatch.Graph.from_pandas(df)
    with pytest.raises(warpmatch.InputError, match="row 1 has no to"):
        warpmatch.Graph.from_pandas(df, "from", "to")


def test_to_networkx_round_trips() -> None:
    G = nx.relabel_nodes(nx.les_miserables_graph(), lambda v: v.upper())
    G.add_node("LONELY")
    H = warpmatch.Graph.from_networkx(G).to_networkx()
    assert set(H.nodes) == set(G.nodes) and _named(H) == _named(G)
    D = nx.gnp_random_graph(40, 0.1, seed=3, directed=True)
    E = warpmatch.Graph.from_networkx(D).to_networkx()
    assert isinstance(E, nx.DiGraph) and set(E.edges()) == set(D.edges()) and set(E.nodes) == set(D.nodes)
    # A loaded graph: its nodes are the file's ids.
    g = warpmatch.Graph.from_edges([(5, 9), (9, 12)])
    assert sorted(g.to_networkx().edges()) == [(5, 9), (9, 12)]


def _constructors(tmp_path) -> dict[str, tuple[warpmatch.Graph, nx.Graph]]:
    """The same small graph (a 5-cycle with chords, under names) from every constructor,
    with the networkx graph of its names."""
    base = nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 0), (1, 3)])
    ids = {v: 10 * v + 3 for v in base}  # sparse ids where the input has ids
    named = nx.relabel_nodes(base, {v: f"n{v}" for v in base})
    by_id = nx.relabel_nodes(base, ids)
    path = tmp_path / "g.txt.gz"
    with gzip.open(path, "wt") as f:
        f.write("".join(f"{ids[u]} {ids[v]}\n" for u, v in base.edges()))
    rows = np.array(base.edges())
    df = pd.DataFrame({"source": [f"n{u}" for u, _ in base.edges()], "target": [f"n{v}" for _, v in base.edges()]})
    adj = sp.coo_matrix((np.ones(len(rows)), (rows[:, 0], rows[:, 1])), shape=(5, 5))
    g_nx = warpmatch.Graph.from_networkx(named)
    made = {
        "load": (warpmatch.load(path, cache=False), by_id),
        "from_edges": (warpmatch.Graph.from_edges(rows), base),
        "from_networkx": (g_nx, named),
        "from_networkx_ints": (warpmatch.Graph.from_networkx(by_id), by_id),
        "from_pandas": (warpmatch.Graph.from_pandas(df), named),
        "from_scipy": (warpmatch.Graph.from_scipy(adj), base),
        "randomize": (g_nx.randomize(seed=1, swaps_per_edge=1), None),
        "generate": (warpmatch.generate("regular", vertices=30, degree=4, seed=2), None),
    }
    if ig is not None:
        H = ig.Graph(n=5, edges=list(base.edges()))
        H.vs["name"] = [f"n{v}" for v in range(5)]
        made["from_igraph"] = (warpmatch.Graph.from_igraph(H), named)
    return made


def test_nodes_index_like_numpy_for_every_constructor(tmp_path) -> None:
    """README's idiom: g.nodes[rows] names a whole array of indices, whatever built g."""
    for name, (g, G) in _constructors(tmp_path).items():
        nodes = g.nodes
        assert isinstance(nodes, np.ndarray) and nodes.ndim == 1 and len(nodes) == g.vertices, name
        assert not nodes.flags.writeable, name
        rows = g.list("triangle")
        named = nodes[rows]
        assert named.shape == rows.shape, name
        for r, n in zip(rows.tolist(), named.tolist()):
            assert n == [nodes[i] for i in r], name
            assert [g.index_of(x) for x in n] == r, name
        if G is not None:
            want = {frozenset(c) for c in nx.enumerate_all_cliques(G) if len(c) == 3}
            assert {frozenset(r) for r in named.tolist()} == want, name
        levels = g.bfs(0, device="cpu")
        assert nodes[levels >= 0].shape == (int((levels >= 0).sum()),), name


def test_networkx_node_types() -> None:
    """Integer names give an integer array; others (strings, tuples) objects, a tuple one entry."""
    grid = nx.grid_2d_graph(3, 3)
    g = warpmatch.Graph.from_networkx(grid)
    assert g.nodes.dtype == object and g.nodes.shape == (9,)
    assert g.nodes[4] == list(grid.nodes)[4]
    assert warpmatch.Graph.from_networkx(nx.path_graph(4)).nodes.dtype.kind == "i"
    mixed = nx.Graph([(1, "a"), ("a", 2.5)])
    assert warpmatch.Graph.from_networkx(mixed).nodes.dtype == object


# ---- from_edges without copies ------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.uint32, np.int32, np.int64, np.uint16])
@pytest.mark.parametrize("order", ["C", "F"])
def test_from_edges_every_layout_same_graph(dtype, order) -> None:
    G = nx.gnm_random_graph(300, 1500, seed=4)
    want = warpmatch.Graph.from_networkx(G)
    arr = np.asarray(np.array(G.edges()), dtype=dtype, order=order)
    g = warpmatch.Graph.from_edges(arr, n=300)
    assert g.edges == want.edges and g.count("triangle") == want.count("triangle")
    np.testing.assert_array_equal(g.edge_list(), want.edge_list())
    # A strided view (every other row) is read right too.
    h = warpmatch.Graph.from_edges(arr[::2], n=300)
    assert h.edges == warpmatch.Graph.from_edges(np.array(G.edges())[::2], n=300).edges


@pytest.mark.parametrize("dtype", [np.uint32, np.int32])
@pytest.mark.parametrize("order", ["C", "F"])
def test_from_edges_does_not_copy_32_bit_arrays(dtype, order) -> None:
    """numpy reports its allocations to tracemalloc: a copy of either column would show as
    m x 4 bytes (the library's own copy is C memory, which it does not trace)."""
    m = 1_000_000
    arr = np.asarray(np.random.default_rng(5).integers(0, 50_000, size=(m, 2)), dtype=dtype, order=order)
    tracemalloc.start()
    try:
        warpmatch.Graph.from_edges(arr, n=50_000).close()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < m, f"from_edges allocated {peak} bytes in Python for a {arr.nbytes}-byte array"
    # The check can fail: a 64-bit array is converted once.
    tracemalloc.start()
    try:
        warpmatch.Graph.from_edges(arr.astype(np.int64), n=50_000).close()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak >= m * 8


# ---- errors that are Python's own ----------------------------------------------------


def test_exceptions_are_builtin_classes(tmp_path) -> None:
    assert issubclass(warpmatch.InputError, ValueError) and issubclass(warpmatch.UsageError, ValueError)
    assert issubclass(warpmatch.DeviceError, RuntimeError)
    assert issubclass(warpmatch.MissingFileError, FileNotFoundError)
    assert issubclass(warpmatch.MissingFileError, warpmatch.InputError)
    for cls in (warpmatch.InputError, warpmatch.UsageError, warpmatch.DeviceError, warpmatch.MissingFileError):
        assert issubclass(cls, warpmatch.Error)
    path = tmp_path / "absent.txt"
    with pytest.raises(FileNotFoundError) as e:
        warpmatch.load(path)
    assert e.value.filename == str(path) and e.value.errno == 2
    assert str(e.value) == f"{path}: cannot open: No such file or directory"
    with pytest.raises(FileNotFoundError) as e:
        warpmatch.Pattern(str(tmp_path / "absent.g"))
    assert e.value.filename == str(tmp_path / "absent.g")
    # A file that is there but bad is no FileNotFoundError.
    bad = tmp_path / "bad.txt"
    bad.write_text("0 x\n")
    with pytest.raises(ValueError) as e2:
        warpmatch.load(bad, cache=False)
    assert not isinstance(e2.value, FileNotFoundError)


def test_messages_in_pythons_words() -> None:
    g = warpmatch.Graph.from_edges([(0, 1), (1, 2), (2, 0), (2, 3), (3, 4)])
    with pytest.raises(ValueError) as e:
        g.bfs(5)
    assert str(e.value) == "source 5 is outside the graph's 5 vertices (0..4)"
    with pytest.raises(warpmatch.UsageError) as e:
        g.reach(0, 9)
    assert not str(e.value).startswith("warpmatch_")
    with pytest.raises(TypeError):
        g.bfs("0")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        g.count("triangle", per_vertex=True, order="x")  # type: ignore[arg-type]
    if not warpmatch.gpu_available():
        for call in (lambda: g.count("triangle", device="gpu"), lambda: g.bfs(0, device="gpu"),
                     lambda: g.motifs(3, device="gpu"), lambda: g.distances([0], device="gpu")):
            with pytest.raises(RuntimeError) as e3:
                call()
            assert str(e3.value) == "no usable GPU on this machine; use device='cpu' or 'auto'"


def test_directed_graph_same_class_in_count_motifs_orbits_list() -> None:
    d = warpmatch.Graph.from_edges([(0, 1), (1, 2), (2, 0)], directed=True)
    for call in (lambda: d.count("triangle"), lambda: d.orbits(3), lambda: d.list("triangle")):
        with pytest.raises(warpmatch.UsageError) as e:
            call()
        assert "undirected" in str(e.value)
    # motifs on a directed graph: the same class where the library refuses it.
    try:
        d.motifs(4)
    except warpmatch.Error as e:
        assert type(e) is warpmatch.UsageError


# ---- per-vertex counts, multi-source BFS, distances --------------------------------


def _cliques_at(G: nx.Graph, k: int) -> np.ndarray:
    at = dict.fromkeys(G, 0)
    for c in nx.enumerate_all_cliques(G):
        if len(c) == k:
            for v in c:
                at[v] += 1
    return np.array([at[v] for v in G], dtype=np.uint64)


def test_per_vertex_counts_against_networkx(small) -> None:
    G, g = small
    tri = g.count("triangle", per_vertex=True, device="cpu")
    assert tri.dtype == np.uint64 and tri.shape == (G.number_of_nodes(),)
    np.testing.assert_array_equal(tri, [nx.triangles(G)[v] for v in G])
    for k in (4, 5):
        got = g.count(f"{k}-clique", per_vertex=True, device="cpu")
        np.testing.assert_array_equal(got, _cliques_at(G, k))
    # Any pattern: each occurrence counted at each of its k vertices.
    for name, k in (("4-cycle", 4), ("house", 5)):
        pv = g.count(name, per_vertex=True, device="cpu")
        assert int(pv.sum()) == k * g.count(name, device="cpu")
        rows = g.list(name)
        np.testing.assert_array_equal(pv, np.bincount(rows.ravel(), minlength=g.vertices))


def test_bfs_many_sources_against_networkx(medium) -> None:
    G, g = medium
    G = G.copy()
    G.add_nodes_from(range(len(G), len(G) + 3))  # unreachable vertices
    g = warpmatch.Graph.from_networkx(G)
    for sources in ([0], [0, 17], [5, 5, 99, 150]):
        want = nx.multi_source_dijkstra_path_length(G, set(sources))
        expect = np.array([want.get(v, -1) for v in G], dtype=np.int32)
        np.testing.assert_array_equal(g.bfs(sources=sources, device="cpu"), expect)
        np.testing.assert_array_equal(g.bfs(sources=np.array(sources), device="auto"), expect)
    with pytest.raises(TypeError):
        g.bfs(0, sources=[1])
    with pytest.raises(warpmatch.UsageError):
        g.bfs(sources=[0, g.vertices])


def test_distances_against_networkx() -> None:
    for G in (nx.gnp_random_graph(120, 0.03, seed=8), nx.gnp_random_graph(80, 0.04, seed=9, directed=True)):
        g = warpmatch.Graph.from_networkx(G)
        sources = [0, 3, 3, 79]
        D = g.distances(sources, device="cpu")
        assert D.shape == (len(sources), g.vertices) and D.dtype == np.int32
        for row, s in enumerate(sources):
            want = nx.single_source_shortest_path_length(G, s)
            np.testing.assert_array_equal(D[row], [want.get(v, -1) for v in G])
    g = warpmatch.Graph.from_edges([(0, 1)])
    limit = warpmatch.Graph.MAX_DISTANCE_SOURCES
    assert g.distances([0] * limit).shape == (limit, 2)
    with pytest.raises(warpmatch.UsageError, match=f"at most {limit} sources"):
        g.distances([0] * (limit + 1))
    with pytest.raises(warpmatch.UsageError):
        g.distances([])


# ---- the readers through Python --------------------------------------------------------


def test_load_gzip_csv_tsv(tmp_path) -> None:
    G = nx.gnm_random_graph(50, 150, seed=6)
    edges = list(G.edges())
    want = warpmatch.Graph.from_networkx(G)
    files = {
        "g.txt.gz": lambda p: gzip.open(p, "wt").write("".join(f"{u} {v}\n" for u, v in edges)),
        "g.csv": lambda p: pd.DataFrame(edges, columns=["source", "target"]).to_csv(p, index=False),
        "g.tsv": lambda p: p.write_text("".join(f"{u}\t{v}\t1.0\n" for u, v in edges)),
        "g.csv.gz": lambda p: pd.DataFrame(edges, columns=["a", "b"]).to_csv(p, index=False),
    }
    for name, write in files.items():
        path = tmp_path / name
        write(path)
        g = warpmatch.load(path)
        assert g.edges == want.edges and g.count("triangle") == want.count("triangle"), name
        assert {frozenset(p) for p in g.nodes[g.edge_list()].tolist()} == {frozenset(e) for e in edges if e[0] != e[1]}
        again = warpmatch.load(path)  # from the cache beside it
        assert again.edges == g.edges
        assert (tmp_path / (name + ".wmg")).exists()
    blob = tmp_path / "blob.bin"
    blob.write_bytes(bytes(itertools.islice(itertools.cycle(range(256)), 4096)))
    with pytest.raises(warpmatch.InputError, match="not a graph this program reads"):
        warpmatch.load(blob)
