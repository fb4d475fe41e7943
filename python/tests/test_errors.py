"""Bad input raises warpmatch's exceptions, with the library's message."""

from __future__ import annotations

import numpy as np
import pytest

import warpmatch


@pytest.fixture
def g() -> warpmatch.Graph:
    return warpmatch.Graph.from_edges([(0, 1), (1, 2), (2, 0), (2, 3)])


def test_hierarchy() -> None:
    for cls in (warpmatch.InputError, warpmatch.UsageError, warpmatch.DeviceError):
        assert issubclass(cls, warpmatch.Error)
    assert issubclass(warpmatch.InputError, ValueError)
    assert (warpmatch.InputError.code, warpmatch.UsageError.code, warpmatch.DeviceError.code) == (1, 2, 3)


def test_missing_file(tmp_path) -> None:
    path = tmp_path / "no-such-graph.txt"
    with pytest.raises(warpmatch.InputError) as e:
        warpmatch.load(path)
    assert str(path) in str(e.value)
    assert e.value.message == str(e.value) and e.value.code == 1


def test_malformed_edge_list(tmp_path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("0 1\n1 2\n2 x\n")
    with pytest.raises(warpmatch.InputError) as e:
        warpmatch.load(path, cache=False)
    message = str(e.value)
    assert "bad.txt" in message and "3" in message


def test_unknown_pattern(g: warpmatch.Graph) -> None:
    with pytest.raises(warpmatch.InputError) as e:
        warpmatch.Pattern("no-such-pattern")
    assert "no-such-pattern" in str(e.value)
    with pytest.raises(warpmatch.InputError):
        g.count("no-such-pattern")


def test_bad_patterns(g: warpmatch.Graph) -> None:
    with pytest.raises(warpmatch.InputError):
        warpmatch.Pattern.from_edges(4, [(0, 1), (2, 3)])  # disconnected
    with pytest.raises(warpmatch.InputError):
        warpmatch.Pattern.from_edges(3, [(0, 1), (1, 3)])  # vertex outside 0..k-1
    with pytest.raises(warpmatch.InputError):
        warpmatch.Pattern.from_edges(9, [(i, i + 1) for i in range(8)])  # over 8 vertices
    with pytest.raises(TypeError):
        g.count(3.5)  # type: ignore[arg-type]


def test_source_out_of_range(g: warpmatch.Graph) -> None:
    """An index outside 0..n-1 is a usage error, with the library's message."""
    with pytest.raises(warpmatch.UsageError) as e:
        g.bfs(4)
    assert "4" in str(e.value)
    with pytest.raises(warpmatch.UsageError):
        g.bfs(-1)
    with pytest.raises(warpmatch.UsageError):
        g.bfs_parents(2**40)
    with pytest.raises(warpmatch.UsageError):
        g.reach(0, 99)
    with pytest.raises(TypeError):
        g.bfs(1.0)  # type: ignore[arg-type]


def test_gpu_without_gpu(g: warpmatch.Graph) -> None:
    if warpmatch.gpu_available():
        pytest.skip("a GPU is usable here")
    with pytest.raises(warpmatch.DeviceError) as e:
        g.count("triangle", device="gpu")
    assert e.value.message
    with pytest.raises(warpmatch.DeviceError):
        g.bfs(0, device="gpu")


def test_bad_options(g: warpmatch.Graph) -> None:
    with pytest.raises(warpmatch.UsageError):
        g.count("triangle", device="tpu")
    with pytest.raises(warpmatch.UsageError):
        g.count("triangle", method="guess")
    with pytest.raises(warpmatch.UsageError):
        g.list("triangle", limit=-1)
    with pytest.raises(warpmatch.UsageError, match="planner"):
        g.count("triangle", planner="best")
    with pytest.raises(warpmatch.UsageError, match="order lists 2"):
        g.count("house", method="enumerate", order=[0, 1])
    with pytest.raises(warpmatch.UsageError, match="order"):
        g.count("house", method="enumerate", order=[0, 0, 1, 2, 3])
    with pytest.raises(warpmatch.UsageError, match="order"):
        g.list("4-path", order=[0, 2, 1, 3])
    with pytest.raises(warpmatch.Error):
        g.motifs(6)
    with pytest.raises(warpmatch.Error):
        g.motifs(2)


def test_bad_labels(g: warpmatch.Graph) -> None:
    p = warpmatch.Pattern.from_edges(3, [(0, 1), (1, 2), (2, 0)], labels=[1, 0, 0])
    with pytest.raises(warpmatch.InputError):
        g.count(p, labels=[0, 1])  # one per vertex needed
    with pytest.raises(warpmatch.InputError):
        g.count(p, labels=[0, 1, -3, 0])


@pytest.mark.parametrize(
    "edges",
    [
        [(0, -1)],
        [(0, 2**32 - 1)],
        [(0, 1, 2)],
        np.array([[0.5, 1.0]]),
        np.arange(6),
        [("a", "b")],
    ],
    ids=["negative", "too-large", "triple", "float", "flat", "strings"],
)
def test_bad_edges(edges: object) -> None:
    with pytest.raises(warpmatch.InputError):
        warpmatch.Graph.from_edges(edges)  # type: ignore[arg-type]


def test_n_below_ids() -> None:
    with pytest.raises(warpmatch.InputError):
        warpmatch.Graph.from_edges([(0, 5)], n=3)


def test_from_scipy_not_square() -> None:
    sp = pytest.importorskip("scipy.sparse")
    with pytest.raises(warpmatch.InputError):
        warpmatch.Graph.from_scipy(sp.csr_array(np.ones((2, 3))))
    with pytest.raises(TypeError):
        warpmatch.Graph.from_scipy(np.ones((2, 2)))


def test_graph_constructor() -> None:
    with pytest.raises(TypeError):
        warpmatch.Graph()
