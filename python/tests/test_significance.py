"""Motif significance from Python: ``Graph.randomize`` keeps every degree and
makes no loop or multi-edge, repeats by seed; ``Graph.motifs(size,
random=N)`` returns the table whose statistics this file recomputes from the
random graphs' own counts; the plot helper draws the profile."""

from __future__ import annotations

import math

import networkx as nx
import pytest

import warpmatch


def _graph(seed: int = 4) -> tuple[nx.Graph, warpmatch.Graph]:
    G = nx.gnp_random_graph(80, 0.08, seed=seed)
    G.add_edges_from((u, v) for u in range(9) for v in range(u + 1, 9))  # a planted 9-clique
    return G, warpmatch.Graph.from_networkx(G)


def _edges(g: warpmatch.Graph) -> set[tuple[int, int]]:
    return {(int(u), int(v)) for u, v in g.edge_list()}


@pytest.mark.parametrize("method", ["switch", "curveball"])
def test_randomize_keeps_degrees_and_is_simple(method: str) -> None:
    G, g = _graph()
    r = g.randomize(seed=3, method=method)
    assert r.vertices == g.vertices and r.edges == g.edges
    R = nx.Graph(list(_edges(r)))
    assert nx.number_of_selfloops(R) == 0
    for v in G.nodes:
        assert (R.degree(v) if v in R else 0) == G.degree(v)
    assert _edges(r) != _edges(g)
    assert _edges(g.randomize(seed=3, method=method)) == _edges(r)
    assert _edges(g.randomize(seed=4, method=method)) != _edges(r)


def test_randomize_directed_keeps_in_and_out_degrees() -> None:
    D = nx.gnp_random_graph(60, 0.1, seed=2, directed=True)
    g = warpmatch.Graph.from_networkx(D)
    for method in ("switch", "curveball"):
        r = g.randomize(seed=5, method=method)
        assert r.directed
        R = nx.DiGraph()
        R.add_nodes_from(range(60))
        R.add_edges_from((int(u), int(v)) for u, v in r.edge_list())
        assert R.number_of_edges() == D.number_of_edges()
        assert all(u != v for u, v in R.edges)
        assert dict(R.out_degree()) == dict(D.out_degree())
        assert dict(R.in_degree()) == dict(D.in_degree())


def test_significance_table_matches_own_statistics() -> None:
    G, g = _graph()
    n = 6
    table = g.motifs(3, random=n, seed=11, device="cpu")
    rows = table.to_dict("records") if hasattr(table, "to_dict") else [r.__dict__ for r in table]
    assert [r["name"] for r in rows] == ["3-path", "triangle"]
    counts = {name: [] for name in ("3-path", "triangle")}
    for i in range(n):
        m = g.randomize(seed=11, index=i).motifs(3, device="cpu")
        for name in counts:
            counts[name].append(m[name])
    zs = []
    for r in rows:
        xs = counts[r["name"]]
        mean = sum(xs) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1))
        assert r["count"] == g.motifs(3)[r["name"]]
        assert r["random_mean"] == pytest.approx(mean)
        assert r["random_sd"] == pytest.approx(sd)
        assert r["p_over"] == pytest.approx(sum(x >= r["count"] for x in xs) / n)
        assert r["p_under"] == pytest.approx(sum(x <= r["count"] for x in xs) / n)
        z = (r["count"] - mean) / sd
        assert r["z"] == pytest.approx(z)
        zs.append(z)
    norm = math.sqrt(sum(z * z for z in zs))
    assert [r["profile"] for r in rows] == pytest.approx([z / norm for z in zs])
    triangle = next(r for r in rows if r["name"] == "triangle")
    assert triangle["z"] > 2 and triangle["p_over"] == 0, "the planted clique's triangles are over-represented"
    info = table.attrs if hasattr(table, "attrs") else table.info
    assert info["random_graphs"] == n and info["method"] == "switch" and info["seed"] == 11
    assert 0 < info["accepted_per_graph"] <= info["attempted_per_graph"] == 10 * g.edges


def test_significance_without_pandas(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where pandas does not import, the table is a list of MotifSignificance."""
    import builtins

    real_import = builtins.__import__

    def no_pandas(name: str, *args: object, **kwargs: object) -> object:
        if name == "pandas" or name.startswith("pandas."):
            raise ImportError("no pandas here")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pandas)
    _, g = _graph()
    table = g.motifs(4, random=3, method="curveball", device="cpu")
    assert isinstance(table, warpmatch.SignificanceTable)
    assert [r.name for r in table] == list(g.motifs(4))
    assert all(isinstance(r, warpmatch.MotifSignificance) for r in table)
    assert table.info["method"] == "curveball"


def test_significance_same_seed_same_table() -> None:
    _, g = _graph()
    a = g.motifs(3, random=4, seed=2, method="curveball")
    b = g.motifs(3, random=4, seed=2, method="curveball")
    c = g.motifs(3, random=4, seed=3, method="curveball")
    key = lambda t: [(r["random_mean"], r["random_sd"]) for r in (t.to_dict("records") if hasattr(t, "to_dict") else [x.__dict__ for x in t])]
    assert key(a) == key(b)
    assert key(a) != key(c)


def test_significance_refusals() -> None:
    _, g = _graph()
    with pytest.raises(warpmatch.UsageError, match="random"):
        g.motifs(3, random=1)
    with pytest.raises(warpmatch.UsageError, match="swaps_per_edge"):
        g.motifs(3, random=3, swaps_per_edge=0)
    with pytest.raises(warpmatch.UsageError, match="method"):
        g.motifs(3, random=3, method="shuffle")
    with pytest.raises(warpmatch.UsageError, match="switch or curveball"):
        g.randomize(method="formula")
    D = warpmatch.Graph.from_edges([(0, 1), (1, 2), (2, 0), (2, 3)], directed=True)
    with pytest.raises(warpmatch.UsageError, match="ask for directed classes"):
        D.motifs(3, random=3)


def test_directed_significance_counts_the_directed_classes() -> None:
    D = warpmatch.Graph.from_networkx(nx.gnp_random_graph(60, 0.08, seed=4, directed=True))
    table = D.motifs(3, random=4, seed=2, directed=True)
    rows = table.to_dict("records") if hasattr(table, "to_dict") else [r.__dict__ for r in table]
    assert len(rows) == 13
    real = D.motifs(3, directed=True)
    assert {r["name"]: r["count"] for r in rows} == real


def test_plot_motif_profile() -> None:
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    from warpmatch.plot import motif_profile

    _, g = _graph()
    table = g.motifs(4, random=3, device="cpu")
    ax = motif_profile(table, label="gnp + clique")
    xs, ys = ax.lines[0].get_data()
    names = table["name"] if hasattr(table, "columns") else [r.name for r in table]
    profile = table["profile"] if hasattr(table, "columns") else [r.profile for r in table]
    assert [t.get_text() for t in ax.get_xticklabels()] == list(names)
    assert list(ys) == pytest.approx(list(profile), nan_ok=True)
