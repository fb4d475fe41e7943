"""Graph.orbits: the graphlet orbit counts of every vertex against an
independent brute force written here (every connected vertex subset of a
small graph matched by permutation onto the graphlet drawings of ORCA's
numbering), the two methods against each other, orbit 0 against the degrees,
the DataFrame form (and its ImportError without pandas), and the refusals."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

import warpmatch

# Przulj's / ORCA's graphlets G0..G8 (up to 4 vertices): edges, and each drawn vertex's orbit.
DRAWINGS = [
    ([(0, 1)], [0, 0]),
    ([(0, 1), (0, 2)], [2, 1, 1]),
    ([(0, 1), (0, 2), (1, 2)], [3, 3, 3]),
    ([(0, 1), (0, 2), (1, 3)], [5, 5, 4, 4]),
    ([(0, 1), (0, 2), (0, 3)], [7, 6, 6, 6]),
    ([(0, 1), (0, 2), (1, 3), (2, 3)], [8, 8, 8, 8]),
    ([(0, 1), (0, 2), (0, 3), (1, 2)], [11, 10, 10, 9]),
    ([(0, 1), (0, 2), (0, 3), (1, 2), (1, 3)], [13, 13, 12, 12]),
    ([(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)], [14, 14, 14, 14]),
]


def brute_force(G: nx.Graph) -> np.ndarray:
    nodes = list(G.nodes)
    index = {v: i for i, v in enumerate(nodes)}
    out = np.zeros((len(nodes), 15), dtype=np.uint64)
    for k in (2, 3, 4):
        for sub in itertools.combinations(nodes, k):
            H = G.subgraph(sub)
            if not nx.is_connected(H):
                continue
            for edges, orbit in DRAWINGS:
                if len(orbit) != k or len(edges) != H.number_of_edges():
                    continue
                for perm in itertools.permutations(sub):  # drawn vertex i is perm[i]
                    if all(H.has_edge(perm[a], perm[b]) for a, b in edges):
                        for i, v in enumerate(perm):
                            out[index[v], orbit[i]] += 1
                        break
                else:
                    continue
                break
    return out


GRAPHS = {
    "gnp-14": lambda: nx.gnp_random_graph(14, 0.3, seed=1),
    "gnp-16-dense": lambda: nx.gnp_random_graph(16, 0.6, seed=2),
    "star-and-isolated": lambda: nx.union(nx.star_graph(7), nx.empty_graph(range(20, 23))),
}


@pytest.fixture(params=sorted(GRAPHS))
def graph(request: pytest.FixtureRequest) -> tuple[nx.Graph, warpmatch.Graph]:
    G = GRAPHS[request.param]()
    return G, warpmatch.Graph.from_networkx(G)


def test_orbits_match_the_brute_force(graph: tuple[nx.Graph, warpmatch.Graph]) -> None:
    G, g = graph
    want = brute_force(G)
    for method in ("formula", "enumerate"):
        got = g.orbits(4, method=method)
        assert got.dtype == np.uint64 and got.shape == (G.number_of_nodes(), 15)
        order = [g.index_of(v) for v in G.nodes]  # rows are the graph's indices
        np.testing.assert_array_equal(got[order], want)


def test_size_5_formula_equals_the_enumerator(graph: tuple[nx.Graph, warpmatch.Graph]) -> None:
    _, g = graph
    np.testing.assert_array_equal(g.orbits(5, method="formula"), g.orbits(5, method="enumerate"))


def test_size_5_keeps_the_smaller_orbits_and_orbit_0_is_the_degree() -> None:
    G = nx.gnp_random_graph(40, 0.2, seed=5)
    g = warpmatch.Graph.from_networkx(G)
    five = g.orbits()
    assert five.shape == (40, 73)
    np.testing.assert_array_equal(five[:, :15], g.orbits(4))
    degrees = np.array([G.degree(v) for v in g.nodes], dtype=np.uint64)
    np.testing.assert_array_equal(five[:, 0], degrees)
    assert g.orbits(2).shape == (40, 1) and g.orbits(3).shape == (40, 4)


def test_a_count_past_2_to_the_64_comes_back_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under the test hook WM_TEST_COUNT_START every count starts near 2^64:
    where one passes 2^64 - 1 the rows come back as Python ints, exact (a
    star's centre: C(10, 4) 4-stars); where none does, uint64 as always."""
    g = warpmatch.Graph.from_networkx(nx.star_graph(10))
    plain = g.orbits(5, device="cpu")
    start = 2**64 - 100
    monkeypatch.setenv("WM_TEST_COUNT_START", str(start))
    for method in ("formula", "enumerate"):
        wide = g.orbits(5, device="cpu", method=method)
        assert wide.dtype == object
        assert wide[0, 23] == start + 210 and wide[0, 23] >= 2**64
        assert [int(x) for x in wide.ravel()] == [start + int(x) for x in plain.ravel()]
    monkeypatch.setenv("WM_TEST_COUNT_START", str(2**64 - 300))
    fits = g.orbits(5, device="cpu")
    assert fits.dtype == np.uint64 and int(fits[0, 23]) == 2**64 - 90


def test_a_frame_past_2_to_the_64_holds_the_whole_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pandas")
    g = warpmatch.Graph.from_networkx(nx.star_graph(10))
    start = 2**64 - 100
    monkeypatch.setenv("WM_TEST_COUNT_START", str(start))
    frame = g.orbits(5, device="cpu", as_frame=True)
    assert frame.to_numpy().dtype == object
    assert frame.loc[0, "o23"] == start + 210


def test_as_frame_indexes_rows_by_node() -> None:
    pd = pytest.importorskip("pandas")
    G = nx.path_graph(["a", "b", "c", "d"])
    g = warpmatch.Graph.from_networkx(G)
    df = g.orbits(4, as_frame=True)
    assert isinstance(df, pd.DataFrame)
    assert list(df.columns) == [f"o{i}" for i in range(15)]
    assert df.loc["b", "o0"] == 2 and df.loc["b", "o5"] == 1 and df.loc["a", "o4"] == 1
    assert (df.dtypes == np.uint64).all()


def test_as_frame_without_pandas_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas now raises ImportError
    g = warpmatch.Graph.from_networkx(nx.path_graph(3))
    with pytest.raises(ImportError, match="needs pandas"):
        g.orbits(4, as_frame=True)


def _cli() -> Path:
    """The warpmatch program: $WARPMATCH_CLI, or the one beside $WARPMATCH_LIBRARY's build."""
    if os.environ.get("WARPMATCH_CLI"):
        return Path(os.environ["WARPMATCH_CLI"])
    lib = Path(os.environ.get("WARPMATCH_LIBRARY", ""))
    return (lib if lib.is_dir() else lib.parent) / "warpmatch"


def test_cli_npy_loads_equal_to_the_orca_output_and_to_orbits(tmp_path: Path) -> None:
    cli = _cli()
    if not cli.is_file():
        pytest.skip(f"no warpmatch program at {cli} (set WARPMATCH_CLI or WARPMATCH_LIBRARY to a build)")
    G = nx.gnp_random_graph(30, 0.2, seed=8)
    G.remove_nodes_from([4, 17])  # ids the file lacks: rows of zeros
    edges = tmp_path / "g.txt"
    edges.write_text("".join(f"{u} {v}\n" for u, v in G.edges))
    for size in (4, 5):
        npy = tmp_path / f"o{size}.npy"
        run = [str(cli), "orbits", str(edges), "--size", str(size), "--no-cache"]
        subprocess.run([*run, "--format", "npy", "--output", str(npy)], check=True, capture_output=True)
        orca = subprocess.run(run, check=True, capture_output=True, text=True).stdout
        got = np.load(npy)
        g = warpmatch.load(edges, cache=False)
        ids = g.ids.astype(np.int64)
        assert got.dtype == np.dtype("<u8") and got.shape == (ids.max() + 1, {4: 15, 5: 73}[size])
        np.testing.assert_array_equal(got, np.loadtxt(orca.splitlines(), dtype=np.uint64, ndmin=2))
        np.testing.assert_array_equal(got[ids], g.orbits(size))  # row i is vertex id i
        assert not np.delete(got, ids, axis=0).any() and not got[[4, 17]].any()


def test_refusals() -> None:
    g = warpmatch.Graph.from_networkx(nx.path_graph(3))
    with pytest.raises(warpmatch.UsageError, match="graphlet size"):
        g.orbits(6)
    with pytest.raises(warpmatch.UsageError, match="method"):
        g.orbits(5, method="sum")
    if not warpmatch.gpu_available():  # with one, test_gpu.py holds it to the CPU
        with pytest.raises(warpmatch.DeviceError):
            g.orbits(4, device="gpu")


def test_edge_orbits_rows_follow_the_edge_list_and_size_3_is_paths_and_triangles() -> None:
    """edges=True: one row per edge_list() pair; at size 3, e1 = the edge's triangles (common
    neighbours) and e0 = its induced 3-paths (d_u + d_v - 2 - 2 t), counted here from the graph."""
    G = nx.gnp_random_graph(50, 0.15, seed=11)
    g = warpmatch.Graph.from_networkx(G)
    ends = g.edge_list()
    assert ends.shape == (G.number_of_edges(), 2) and (ends[:, 0] < ends[:, 1]).all()
    assert [tuple(e) for e in ends] == sorted(tuple(e) for e in ends)
    nodes = list(g.nodes)
    assert {frozenset((nodes[u], nodes[v])) for u, v in ends} == {frozenset(e) for e in G.edges}
    three = g.orbits(3, edges=True)
    assert three.shape == (len(ends), 2)
    for row, (u, v) in zip(three, ends):
        a, b = nodes[u], nodes[v]
        t = len(set(G[a]) & set(G[b]))
        assert row[1] == t and row[0] == G.degree(a) + G.degree(b) - 2 - 2 * t


def test_edge_orbits_formula_equals_the_enumerator() -> None:
    for seed, p in ((1, 0.1), (2, 0.3), (3, 0.6)):
        g = warpmatch.Graph.from_networkx(nx.gnp_random_graph(30, p, seed=seed))
        four = g.orbits(4, edges=True, method="formula")
        assert four.shape == (g.edges, 12)
        np.testing.assert_array_equal(four, g.orbits(4, edges=True, method="enumerate"))
        np.testing.assert_array_equal(four[:, :2], g.orbits(3, edges=True))
        five = g.orbits(5, edges=True, method="formula")
        assert five.shape == (g.edges, 68)
        np.testing.assert_array_equal(five, g.orbits(5, edges=True, method="enumerate"))


def test_edge_orbits_of_size_5_keep_the_smaller_ones_and_count_k5() -> None:
    G = nx.complete_graph(6)
    g = warpmatch.Graph.from_networkx(G)
    five = g.orbits(5, edges=True)  # the 5-vertex edge formula
    assert five.shape == (15, 68)
    np.testing.assert_array_equal(five[:, :12], g.orbits(4, edges=True))
    assert (five[:, 67] == 4).all() and not five[:, 12:67].any()  # each edge of K6 in C(4, 3) 5-cliques


def test_edge_orbits_as_frame_and_refusals() -> None:
    pd = pytest.importorskip("pandas")
    g = warpmatch.Graph.from_networkx(nx.Graph([("a", "b"), ("b", "c"), ("a", "c"), ("c", "d")]))
    df = g.orbits(4, edges=True, as_frame=True)
    assert isinstance(df, pd.DataFrame) and list(df.columns) == [f"e{i}" for i in range(12)]
    assert df.index.names == ["u", "v"] and len(df) == 4
    assert df.loc[("c", "d"), "e0"] == 2 and df.loc[("c", "d"), "e1"] == 0  # the pendant edge: two 3-paths
    with pytest.raises(warpmatch.UsageError, match="3, 4 or 5"):
        g.orbits(2, edges=True)
