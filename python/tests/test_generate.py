"""warpmatch.generate: each kind's graph, deterministic by seed, its shape, and its refusals."""

from __future__ import annotations

import numpy as np
import pytest

import warpmatch

# A small instance of each kind, every random choice in play (grid with shortcuts).
KINDS = {
    "kron": {"scale": 10},
    "rmat": {"scale": 10, "a": 0.5, "b": 0.2, "c": 0.2},
    "chung-lu": {"vertices": 3000, "mean_degree": 6, "exponent": 2.2},
    "ba": {"vertices": 3000, "attach": 3},
    "hub": {"vertices": 3000, "hub_fraction": 0.2, "mean_degree": 3},
    "sbm": {"vertices": 3000, "communities": 6, "degree_in": 8, "degree_out": 2},
    "regular": {"vertices": 3000, "degree": 4},
    "grid": {"width": 60, "height": 50, "shortcuts": 0.02},
}


def fingerprint(g: warpmatch.Graph) -> tuple[int, int, int, bytes]:
    """Vertices, edges, triangles and the BFS levels from vertex 0."""
    return g.vertices, g.edges, g.count("triangle", device="cpu"), g.bfs(0, device="cpu").tobytes()


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_same_seed_same_graph_other_seed_other_graph(kind: str) -> None:
    a = warpmatch.generate(kind, seed=5, **KINDS[kind])
    b = warpmatch.generate(kind, seed=5, **KINDS[kind])
    c = warpmatch.generate(kind, seed=6, **KINDS[kind])
    assert fingerprint(a) == fingerprint(b)
    assert fingerprint(a) != fingerprint(c)
    assert not a.directed and a.edges > 0


def test_grid_is_the_lattice() -> None:
    g = warpmatch.generate("grid", width=30, height=20)
    assert (g.vertices, g.edges) == (600, 2 * 30 * 20 - 30 - 20)
    assert g.count("triangle", device="cpu") == 0
    assert g.bfs(0, device="cpu").max() == 30 + 20 - 2  # the far corner
    square = warpmatch.generate("grid", width=9)
    assert square.vertices == 81, "the height defaults to the width"


def test_ba_hub_sbm_regular_shapes() -> None:
    ba = warpmatch.generate("ba", vertices=2000, attach=3)
    assert ba.edges == 3 * 4 // 2 + (2000 - 4) * 3, "k distinct targets each, nothing dropped"
    hub = warpmatch.generate("hub", vertices=2001, hub_fraction=0.25, mean_degree=2)
    assert int(np.count_nonzero(hub.bfs(0, device="cpu") == 1)) == 500, "the hub's degree is round(h (n - 1))"
    sbm = warpmatch.generate("sbm", vertices=2000, communities=4, degree_in=10, degree_out=0)
    reached = np.flatnonzero(sbm.bfs(0, device="cpu") >= 0)
    assert reached.max() < 500, "no edge leaves the first community"
    regular = warpmatch.generate("regular", vertices=2000, degree=6)
    assert 6000 - 40 < regular.edges <= 6000, "only the configuration model's few collisions are dropped"


def test_refusals_name_the_range() -> None:
    with pytest.raises(warpmatch.UsageError, match=r"exponent must be in \[2.1, 3.5\]"):
        warpmatch.generate("chung-lu", vertices=1000, exponent=4)
    with pytest.raises(warpmatch.UsageError, match="vertices must be 2..4294967295"):
        warpmatch.generate("ba", attach=2)
    with pytest.raises(warpmatch.UsageError, match="must be even"):
        warpmatch.generate("regular", vertices=999, degree=3)
    with pytest.raises(warpmatch.UsageError, match="scale must be 1..31"):
        warpmatch.generate("kron", scale=32)
    with pytest.raises(warpmatch.UsageError, match="unknown kind 'erdos'"):
        warpmatch.generate("erdos", vertices=10)
    with pytest.raises(TypeError, match="'exponent' is not one of its parameters"):
        warpmatch.generate("ba", vertices=100, exponent=2.5)
    with pytest.raises(warpmatch.UsageError, match="vertices must be from 0 to"):
        warpmatch.generate("ba", vertices=2**64)
    with pytest.raises(TypeError):
        warpmatch.generate("chung-lu", vertices=100, mean_degree="8")
