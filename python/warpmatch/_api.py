"""Graphs and patterns over libwarpmatch's handles.

Contexts: every ``Graph`` owns one C context (the library's device state and
last error), created with the graph and destroyed with it.  A context serves
one thread at a time, so each graph serialises its calls with its own lock,
while separate graphs run concurrently; the GIL is released during every C
call (ctypes does that), so a long count on one graph does not stop other
Python threads.  A ``Pattern`` is made in a context of its own, which reports
its errors and plans it without a graph; the library lets separate contexts
use the same pattern at once, so one Pattern serves every graph.
"""

from __future__ import annotations

import builtins
import operator
import os
import signal
import sys
import threading
import weakref
from collections.abc import Callable, Iterable, Sequence
import ctypes
from ctypes import POINTER, byref, c_int32, c_int64, c_size_t, c_uint, c_uint32, c_uint64, create_string_buffer
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Union

import numpy as np

from . import _lib
from ._errors import Error, InputError, UsageError, from_code
from ._lib import lib

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray

PathLike = Union[str, "os.PathLike[str]"]
PatternLike = Union["Pattern", str, "os.PathLike[str]", Sequence[Sequence[int]]]

_DEVICES = {"auto": _lib.DEVICE_AUTO, "cpu": _lib.DEVICE_CPU, "gpu": _lib.DEVICE_GPU}
_DEVICE_NAMES = {v: k for k, v in _DEVICES.items()}
_METHODS = {"auto": _lib.METHOD_AUTO, "formula": _lib.METHOD_FORMULA, "enumerate": _lib.METHOD_ENUMERATE}
_METHOD_NAMES = {v: k for k, v in _METHODS.items()}
_CHAINS = {"switch": _lib.RANDOMIZE_SWITCH, "curveball": _lib.RANDOMIZE_CURVEBALL}
_CHAIN_NAMES = {v: k for k, v in _CHAINS.items()}
_PLANNERS = {
    "auto": _lib.PLANNER_AUTO,
    "model": _lib.PLANNER_MODEL,
    "sampled": _lib.PLANNER_SAMPLED,
    "probes": _lib.PLANNER_PROBES,
}
_MAX_ID = _lib.UINT32_MAX - 1  # vertex ids and indices go up to 2^32 - 2


def _decode(raw: bytes | None) -> str:
    return raw.decode("utf-8", errors="replace") if raw else ""


def _device(device: str) -> int:
    try:
        return _DEVICES[device.lower()]
    except (KeyError, AttributeError):
        raise UsageError(f"device must be 'auto', 'cpu' or 'gpu', not {device!r}") from None


def _method(method: str) -> int:
    try:
        return _METHODS[method.lower()]
    except (KeyError, AttributeError):
        raise UsageError(f"method must be 'auto', 'formula' or 'enumerate', not {method!r}") from None


def _integer(value: object, what: str, lo: int, hi: int, allowed: str = "", error: type[Error] = UsageError) -> int:
    """``value`` as an int in lo..hi, for a C integer of fixed width.

    ctypes would cut a larger one to the width silently (a limit of 2**64 + 1
    became 1), so the range is checked here, as the library's range where
    the header states one.
    """
    try:
        v = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"{what} must be an integer, not {type(value).__name__}") from None
    if not lo <= v <= hi:
        raise error(f"{what} must be {allowed or f'from {lo} to {hi}'}, not {v}")
    return v


def _c_string(value: PathLike, what: str) -> bytes:
    """A name or path as the bytes C takes; one holding a NUL byte, where C would end it, is refused."""
    raw = os.fsencode(value)
    if b"\0" in raw:
        raise UsageError(f"{what} {os.fsdecode(raw)!r} contains a NUL byte, which no name or path can hold")
    return raw


def _index(value: object, what: str) -> int:
    """``value`` as a vertex index the C API can take (0 .. 2^32-2); the library checks it against n.

    An index outside the graph is a usage error, as in the library.
    """
    try:
        v = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"{what} must be an integer vertex index, not {type(value).__name__}") from None
    if not 0 <= v <= _MAX_ID:
        raise UsageError(f"{what} {v} is not a vertex index")
    return v


class _Context:
    """One C context and the lock that keeps it to one thread at a time."""

    def __init__(self) -> None:
        ptr = _lib.ctx_p()
        rc = lib.warpmatch_context_create(byref(ptr))
        if rc != _lib.OK or not ptr.value:
            raise from_code(rc or _lib.EUSAGE, "warpmatch: cannot create a context (out of memory?)")
        self.ptr = ptr
        self.lock = threading.RLock()
        self._finalizer = weakref.finalize(self, lib.warpmatch_context_destroy, ptr)

    def check(self, rc: int) -> None:
        """Raise the exception for a failed call's code with the context's message."""
        if rc != _lib.OK:
            raise from_code(rc, _decode(lib.warpmatch_last_error(self.ptr)))

    def close(self) -> None:
        with self.lock:
            self._finalizer()

    def call(self, fn: Callable[[], int], progress: bool | None = False) -> int:
        """``fn()``, a C call on this context, its status back: interruptible by Ctrl-C
        and with a progress bar as ``progress`` says (see ``_progress_bar``)."""
        bar = _progress_bar(progress)
        if bar is not None:
            lib.warpmatch_set_progress_callback(self.ptr, bar.c_fn, None)
        try:
            if threading.current_thread() is not threading.main_thread():
                return fn()  # only the main thread sees Ctrl-C
            return self._interruptible(fn)
        finally:
            if bar is not None:
                lib.warpmatch_set_progress_callback(self.ptr, _lib.PROGRESS_FN(), None)
                bar.close()

    def _interruptible(self, fn: Callable[[], int]) -> int:
        """``fn()`` on this (the main) thread with SIGINT caught by the library: Ctrl-C
        interrupts the call, which gives up within 0.5 s, and once it has returned the
        signal goes to Python's own handler (KeyboardInterrupt by default).  A second
        thread for the call would cost each small call two thread wake-ups."""
        if lib.warpmatch_catch_sigint(self.ptr, 1, None) != _lib.OK:
            return fn()  # a catch is active already (a call within a call): let it be
        caught = ctypes.c_int(0)
        try:
            rc = fn()
        finally:
            lib.warpmatch_catch_sigint(self.ptr, 0, ctypes.byref(caught))
            if caught.value:
                lib.warpmatch_interrupt(self.ptr, 0)
        if caught.value:
            signal.raise_signal(signal.SIGINT)
        return int(rc)


def _in_notebook() -> bool:
    """Whether this runs in a Jupyter kernel (IPython's ZMQ shell)."""
    ipython = sys.modules.get("IPython")
    try:
        shell = ipython.get_ipython() if ipython is not None else None
    except Exception:  # noqa: BLE001 - any IPython oddity: not a notebook
        return False
    return type(shell).__name__ == "ZMQInteractiveShell"


def _stderr_is_terminal() -> bool:
    try:
        return sys.stderr is not None and sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


class _Bars:
    """tqdm bars for a call's phases ("counting", "motif sums", ...), one at a time, fed by
    the library's progress callback (at most 5 times a second, never twice at once)."""

    def __init__(self, tqdm: Any) -> None:
        self._tqdm = tqdm
        self._bar: Any = None
        self._phase = ""
        # the ctypes callback must outlive the call: the context's call() holds self
        self.c_fn = _lib.PROGRESS_FN(self._update)

    def _update(self, _user: object, phase: bytes | None, done: int, total: int) -> None:
        try:
            name = _decode(phase)
            if self._bar is None or name != self._phase:
                self.close()
                self._phase = name
                self._bar = self._tqdm(total=total or None, desc=name, leave=False)
            self._bar.update(done - self._bar.n)
        except Exception:  # noqa: BLE001 - a failing bar never fails the call
            pass

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None


def _progress_bar(progress: bool | None) -> _Bars | None:
    """Bars for ``progress``: False none; True where tqdm imports; None (auto) also only
    in a notebook or when stderr is a terminal, or as WM_PROGRESS says (1 on, 0 off, as
    for the program).  Without tqdm: none, and no error."""
    if progress is None:
        env = os.environ.get("WM_PROGRESS")
        progress = env == "1" if env in ("0", "1") else (_in_notebook() or _stderr_is_terminal())
    if not progress:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    return _Bars(tqdm)


# ---- patterns ----------------------------------------------------------------


class Pattern:
    """A connected pattern of 2 to 8 vertices.

    ``Pattern(name_or_path)`` takes a catalogue name ("triangle", "4-clique",
    "house", "5-cycle", ...) or a pattern file (this project's format or an
    STMatch/cuTS/GSI ``.g`` file).  ``Pattern.from_edges(k, edges)`` builds one
    from an edge list.  Errors (an unknown name, a bad file, a disconnected
    pattern) raise ``InputError`` with the library's message at construction.
    """

    _ctx: _Context
    _ptr: _lib.pattern_p
    _what: str

    def __init__(self, name_or_path: PathLike) -> None:
        if not isinstance(name_or_path, (str, os.PathLike)):
            raise TypeError(f"a pattern is a name or a path, not {type(name_or_path).__name__}")
        raw = _c_string(name_or_path, "the pattern name or path")
        self._what = os.fsdecode(raw)
        self._adopt(lambda ctx, out: lib.warpmatch_pattern_create(ctx.ptr, raw, byref(out)))

    @classmethod
    def from_edges(
        cls, k: int, edges: Iterable[Sequence[int]], labels: Sequence[int] | None = None
    ) -> Pattern:
        """The pattern on vertices 0..k-1 with the given edges (pairs), optionally labeled.

        ``labels[v]`` is the data label vertex v must match (>= 0) or -1 for any.
        """
        k = _integer(k, "a pattern's vertex count k", 2, _lib.MAX_PATTERN_VERTICES, error=InputError)
        flat: list[int] = []
        for e in edges:
            a, b = (operator.index(x) for x in e)
            if not (0 <= a < k and 0 <= b < k):
                raise InputError(f"pattern edge {a}-{b} is outside vertices 0..{k - 1}")
            flat += (a, b)
        lab: tuple[int, ...] = ()
        if labels is not None:
            lab = tuple(operator.index(x) for x in labels)
            if len(lab) != k:
                raise InputError(f"a pattern of {k} vertices needs {k} labels, not {len(lab)}")
            if any(not -1 <= x <= 0x7FFFFFFF for x in lab):
                raise InputError("pattern labels are -1 (any) or 0 .. 2^31-1")
        array = (c_uint * max(1, len(flat)))(*flat)

        def make(ctx: _Context, out: _lib.pattern_p) -> int:
            rc = lib.warpmatch_pattern_from_edges(ctx.ptr, k, array, len(flat) // 2, byref(out))
            for v, label in enumerate(lab):
                if rc != _lib.OK:
                    break
                rc = lib.warpmatch_pattern_set_label(ctx.ptr, out, v, label)
            return rc

        self = cls.__new__(cls)
        self._what = "edges"
        self._adopt(make)
        return self

    def _adopt(self, make: Callable[[_Context, _lib.pattern_p], int]) -> None:
        """Run ``make(ctx, out)`` in a new context of this pattern's and keep the pattern it makes."""
        ctx = _Context()
        ptr = _lib.pattern_p()
        with ctx.lock:
            rc = make(ctx, ptr)
            if rc != _lib.OK:
                if ptr.value:
                    lib.warpmatch_pattern_destroy(ptr)
                error = from_code(rc, _decode(lib.warpmatch_last_error(ctx.ptr)))
        if rc != _lib.OK:
            ctx.close()
            raise error
        self._ctx = ctx
        self._ptr = ptr
        self._vertices = int(lib.warpmatch_pattern_vertices(ptr))
        self._name = _decode(lib.warpmatch_pattern_name(ptr))
        self._finalizer = weakref.finalize(self, _free_pattern, ctx, ptr)

    @property
    def vertices(self) -> int:
        """The pattern's number of vertices."""
        return self._vertices

    @property
    def name(self) -> str:
        """Its catalogue name where its shape has one, else its file's name, else ""."""
        return self._name

    def plan(self, json: bool = False, induced: bool = False, embeddings: bool = False) -> str:
        """The plan a count would run when it enumerates, with the planner's default graph statistics."""
        with self._ctx.lock:
            return _plan(self._ctx, None, self._ptr, _options(induced, embeddings, "auto", "auto"), json)

    def __repr__(self) -> str:
        return f"<warpmatch.Pattern {self._name or self._what!r}, {self._vertices} vertices>"


def _free_pattern(ctx: _Context, ptr: _lib.pattern_p) -> None:
    with ctx.lock:
        lib.warpmatch_pattern_destroy(ptr)
    ctx.close()


def _as_pattern(pattern: PatternLike) -> Pattern:
    """A Pattern from a Pattern, a name or path, or a list of edge pairs on 0..k-1."""
    if isinstance(pattern, Pattern):
        return pattern
    if isinstance(pattern, (str, os.PathLike)):
        return Pattern(pattern)
    try:
        pairs = [tuple(operator.index(x) for x in e) for e in pattern]
    except TypeError:
        raise TypeError(
            f"a pattern is a Pattern, a name, a path or a list of edge pairs, not {type(pattern).__name__}"
        ) from None
    if not pairs or any(len(p) != 2 for p in pairs):
        raise InputError("a pattern's edge list needs at least one pair (a, b)")
    return Pattern.from_edges(max(max(p) for p in pairs) + 1, pairs)


# ---- options and results -------------------------------------------------------


def _options(
    induced: bool,
    embeddings: bool,
    device: str,
    method: str,
    labels: NDArray[np.int32] | None = None,
    ignore_labels: bool = False,
) -> _lib.CountOptions:
    o = _lib.CountOptions()
    lib.warpmatch_count_options_init(byref(o))
    o.induced = int(bool(induced))
    o.embeddings = int(bool(embeddings))
    o.device = _device(device)
    o.method = _method(method)
    o.ignore_labels = int(bool(ignore_labels))
    if labels is not None:
        o.labels = labels.ctypes.data_as(POINTER(c_int32))
    return o


def _match_options(
    count: _lib.CountOptions, planner: str, order: Sequence[int] | None, k: int
) -> tuple[_lib.MatchOptions, Any]:
    """The _ex calls' options: ``count``'s, the planner and a matching order
    of the pattern's ``k`` vertices (the library reads k of them; it checks
    the rest).

    Returns the options and the order's C array, which must outlive the call.
    """
    o = _lib.match_options()
    o.count = count
    if not isinstance(planner, str) or planner.lower() not in _PLANNERS:
        raise UsageError(f"planner must be one of {', '.join(_PLANNERS)}, not {planner!r}")
    o.planner = _PLANNERS[planner.lower()]
    keep = None
    if order is not None:
        vertices = [_index(v, "order") for v in order]
        if len(vertices) != k:
            raise UsageError(f"order lists {len(vertices)} vertices; the pattern has {k}")
        keep = (c_uint * max(len(vertices), 1))(*vertices)
        o.order = keep
    return o, keep


def _plan(
    ctx: _Context, g: _lib.graph_p | None, p: _lib.pattern_p, o: _lib.CountOptions, json: bool
) -> str:
    fmt = _lib.PLAN_JSON if json else _lib.PLAN_TEXT
    needed = c_size_t(0)
    size = 8192
    while True:
        buf = create_string_buffer(size)
        ctx.check(lib.warpmatch_plan(ctx.ptr, g, p, byref(o), fmt, buf, size, byref(needed)))
        if needed.value < size:
            return _decode(buf.value)
        size = needed.value + 1


def _wide(low: int, high: int) -> int:
    return (int(high) << 64) | int(low)


@dataclass(frozen=True)
class CountInfo:
    """A count and how it was obtained."""

    count: int
    seconds: float  #: the matching's wall time
    kernel_ms: float  #: GPU kernel time (0 on the CPU)
    device: str  #: "cpu" or "gpu": where it ran
    method: str  #: "formula" or "enumerate": how it was counted
    executor: str = ""  #: the engine's row that ran it: "formula", "triangle", "clique", "diamond", "stack" or "cpu"


@dataclass(frozen=True)
class Motif:
    """One motif class: its catalogue name, its edges and its vertex-induced count."""

    name: str
    edges: tuple[tuple[int, int], ...]
    count: int


@dataclass(frozen=True)
class MotifSignificance:
    """One class against degree-preserving random graphs (``Graph.motifs(size, random=N)``)."""

    name: str
    edges: tuple[tuple[int, int], ...]
    count: int  #: the graph's vertex-induced count
    random_mean: float
    random_sd: float  #: the random counts' sample standard deviation (over N - 1)
    z: float  #: (count - random_mean) / random_sd; NaN where random_sd is 0
    p_over: float  #: share of random counts >= count (small: over-represented)
    p_under: float  #: share of random counts <= count (small: under-represented)
    profile: float  #: z over the length of the classes' z vector (the significance profile)


class SignificanceTable(builtins.list):  # type: ignore[type-arg]
    """The rows of ``Graph.motifs(size, random=N)`` without pandas: a list of
    MotifSignificance, with the run's figures in ``info`` (as a DataFrame's ``attrs``)."""

    info: dict[str, Any]


def _chain(method: str) -> int:
    if not isinstance(method, str) or method.lower() not in _CHAINS:
        raise UsageError(f"randomisation method must be switch or curveball, not {method!r}")
    return _CHAINS[method.lower()]


def _significance_table(rows: builtins.list[MotifSignificance], info: dict[str, Any]) -> Any:
    """A pandas DataFrame where pandas imports, else a SignificanceTable."""
    try:
        import pandas as pd
    except ImportError:
        table = SignificanceTable(rows)
        table.info = info
        return table
    frame = pd.DataFrame([r.__dict__ for r in rows], columns=[f for f in MotifSignificance.__dataclass_fields__])
    frame.attrs.update(info)
    return frame


@dataclass(frozen=True)
class DirectedMotif:
    """One directed motif class: its name (the MAN code for size 3, "d4-<id>" for 4),
    igraph's isoclass id, its arcs on vertices 0..size-1, and its vertex-induced count."""

    name: str
    igraph_id: int
    arcs: tuple[tuple[int, int], ...]
    connected: bool
    count: int


def _parse_edges(text: str) -> tuple[tuple[int, int], ...]:
    """ "0-1 0-2" (edges) or "0->1 1->0" (a directed class's arcs) as pairs."""
    pairs = []
    for tok in text.split():
        a, b = tok.split("->") if "->" in tok else tok.split("-")
        pairs.append((int(a), int(b)))
    return tuple(pairs)


# ---- graphs ------------------------------------------------------------------


class Graph:
    """A graph on vertices 0..n-1 (its indices), in its own warpmatch context.

    Made by ``warpmatch.load``, ``warpmatch.generate``, ``Graph.from_edges``,
    ``Graph.from_networkx``, ``Graph.from_igraph``, ``Graph.from_pandas`` or
    ``Graph.from_scipy``.  Matches, levels and parents are indices;
    ``nodes`` is a read-only numpy array whose entry i is index i's original
    name (the networkx or igraph node name, the DataFrame's value, or the id
    in the file), so ``g.nodes[rows]`` names any array of indices, whatever
    built the graph.  Close it with ``close()`` or a ``with`` block to free
    its memory at once; otherwise it is freed when garbage-collected.
    """

    # `list` is a method below: the builtin is spelled builtins.list in this class.
    _ctx: _Context
    _ptr: _lib.graph_p
    _nodes: NDArray[Any] | None
    _node_index: dict[Any, int] | None
    _ids: NDArray[np.uint64] | None
    _finalizer: weakref.finalize

    def __init__(self, *args: object, **kwargs: object) -> None:
        raise TypeError(
            "make a Graph with warpmatch.load(), warpmatch.generate() or "
            "Graph.from_edges/from_networkx/from_igraph/from_pandas/from_scipy"
        )

    @classmethod
    def _wrap(cls, ctx: _Context, ptr: _lib.graph_p, nodes: NDArray[Any] | None = None) -> Graph:
        self = cls.__new__(cls)
        self._ctx = ctx
        self._ptr = ptr
        self._nodes = nodes
        self._node_index = None
        self._ids = None
        self._finalizer = weakref.finalize(self, _free_graph, ctx, ptr)
        return self

    @classmethod
    def _build(
        cls,
        make: Callable[[_Context, _lib.graph_p], int],
        nodes: NDArray[Any] | None = None,
        progress: bool | None = False,
    ) -> Graph:
        """Run ``make(ctx, out)`` in a new context and wrap the graph it makes in ``out``."""
        ctx = _Context()
        ptr = _lib.graph_p()
        try:
            with ctx.lock:
                ctx.check(ctx.call(lambda: make(ctx, ptr), progress))
        except BaseException:
            ctx.close()
            raise
        return cls._wrap(ctx, ptr, nodes)

    # -- constructors --

    @classmethod
    def load(cls, path: PathLike, directed: bool = False, cache: bool = True, progress: bool | None = None) -> Graph:
        """See ``warpmatch.load``."""
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"path must be a str or os.PathLike, not {type(path).__name__}")
        opt = _lib.load_options()
        opt.directed = int(bool(directed))
        opt.use_cache = int(bool(cache))
        raw = _c_string(path, "the graph path")
        return cls._build(lambda ctx, out: lib.warpmatch_graph_load(ctx.ptr, raw, byref(opt), byref(out)), None, progress)

    @classmethod
    def from_edges(cls, edges: ArrayLike | Iterable[Sequence[int]], n: int | None = None, directed: bool = False) -> Graph:
        """The graph of the given edges: an (m, 2) integer array or an iterable of pairs.

        Ids are non-negative integers below 2^32 - 1 and become the indices as
        they are.  ``n`` (default: one more than the largest id) fixes the
        number of vertices, so isolated ones can be kept.  Undirected unless
        ``directed`` (then each pair is an arc); self-loops and duplicate edges
        are dropped.  A contiguous uint32 or int32 array is read where it
        is, without a copy (the library makes its own, as for every input).
        """
        arr = _edge_array(edges)
        count = _vertex_count(n)
        return cls._from_pairs(arr, count, directed, None)

    @classmethod
    def from_networkx(cls, G: Any) -> Graph:
        """The graph of a networkx graph; directed when ``G.is_directed()``.

        G's nodes, whatever their type, become indices 0..n-1 in G's node
        order; ``g.nodes`` keeps them so that results map back
        (``g.nodes[i]``, ``g.index_of(node)``).  Parallel edges and self-loops
        are dropped.
        """
        nodes = list(G.nodes)
        if len(nodes) > _MAX_ID + 1:
            raise InputError(f"a graph has at most 2^32 - 1 vertices, this one {len(nodes)}")
        index = {v: i for i, v in enumerate(nodes)}
        m = G.number_of_edges()
        flat = np.fromiter((index[x] for e in G.edges() for x in e[:2]), dtype=np.uint32, count=2 * m)
        pairs = flat.reshape(m, 2)
        g = cls._from_pairs(pairs, len(nodes), bool(G.is_directed()), _node_array(nodes))
        g._node_index = index
        return g

    @classmethod
    def from_igraph(cls, G: Any) -> Graph:
        """The graph of a python-igraph graph; directed when ``G.is_directed()``.

        Vertex i of G is index i (isolated ones kept); ``g.nodes`` holds the
        vertices' ``name`` attribute where G has one, else 0..n-1.  Parallel
        edges and self-loops are dropped.
        """
        n = int(G.vcount())
        if n > _MAX_ID + 1:
            raise InputError(f"a graph has at most 2^32 - 1 vertices, this one {n}")
        m = int(G.ecount())
        pairs = np.array(G.get_edgelist(), dtype=np.uint32).reshape(m, 2)
        names = _node_array(G.vs["name"]) if "name" in G.vs.attributes() else None
        return cls._from_pairs(pairs, n, bool(G.is_directed()), names)

    @classmethod
    def from_pandas(cls, df: Any, source: str = "source", target: str = "target", directed: bool = False) -> Graph:
        """The graph of a pandas DataFrame's edge rows: columns ``source`` and ``target``.

        The values are the vertices' names, of any type (ids, strings); the
        distinct ones, in sorted order where they sort (else in order of
        first appearance), become indices 0..n-1, and ``g.nodes`` keeps them,
        as ``warpmatch.load`` numbers a file's ids.  Other columns (weights)
        are ignored; a missing value is an InputError naming its row.
        Undirected unless ``directed``; duplicates and self-loops are dropped.
        """
        try:
            import pandas as pd
        except ImportError as e:  # pandas is optional
            raise ImportError("Graph.from_pandas needs pandas (pip install pandas)") from e
        for column in (source, target):
            if column not in df.columns:
                raise UsageError(f"from_pandas: no column {column!r} (the columns: {', '.join(map(str, df.columns))})")
        ends = [df[source], df[target]]
        for column, values in zip((source, target), ends):
            missing = values.isna().to_numpy()
            if missing.any():
                row = df.index[int(np.argmax(missing))]
                raise InputError(f"from_pandas: row {row!r} has no {column} (a missing value)")
        both = pd.concat(ends, ignore_index=True)
        try:
            codes, names = pd.factorize(both, sort=True)
        except TypeError:  # names of types that do not compare: their first appearance
            codes, names = pd.factorize(both, sort=False)
        if len(names) > _MAX_ID + 1:
            raise InputError(f"a graph has at most 2^32 - 1 vertices, this one {len(names)}")
        m = len(df)
        return cls._from_columns(codes[:m], codes[m:], len(names), directed, _node_array(names))

    @classmethod
    def from_scipy(cls, matrix: Any, directed: bool = False) -> Graph:
        """The graph of a square scipy.sparse matrix or array: each non-zero entry (i, j) is an edge.

        Undirected unless ``directed`` (then (i, j) is the arc i->j): a
        symmetric matrix gives its undirected graph, and a non-symmetric one
        is symmetrised.  Row i is vertex i; the matrix's size is the number of
        vertices.
        """
        try:
            import scipy.sparse as sp
        except ImportError as e:  # scipy is optional
            raise ImportError("Graph.from_scipy needs scipy (pip install scipy)") from e
        if not sp.issparse(matrix):
            raise TypeError(f"from_scipy takes a scipy.sparse matrix or array, not {type(matrix).__name__}")
        if len(matrix.shape) != 2 or matrix.shape[0] != matrix.shape[1]:
            raise InputError(f"an adjacency matrix must be square, not {matrix.shape}")
        n = int(matrix.shape[0])
        if n > _MAX_ID + 1:
            raise InputError(f"a graph has at most 2^32 - 1 vertices, this matrix {n}")
        coo = matrix.tocoo()
        nonzero = coo.data != 0
        return cls._from_columns(coo.row[nonzero], coo.col[nonzero], n, directed, None)

    @classmethod
    def _from_pairs(cls, pairs: NDArray[Any], n: int, directed: bool, nodes: NDArray[Any] | None) -> Graph:
        """The graph of an (m, 2) array of checked ids (0 .. 2^32-2).

        uint32 or int32 (the same bits: the ids are non-negative) is read in
        place: row-major through the library's pairs call, column-major as
        two columns; another type is converted once, to row-major uint32.
        """
        if pairs.dtype == np.int32:
            pairs = pairs.view(np.uint32)
        if pairs.dtype == np.uint32 and pairs.flags.f_contiguous and not pairs.flags.c_contiguous:
            return cls._from_columns(pairs[:, 0], pairs[:, 1], n, directed, nodes)
        p = np.ascontiguousarray(pairs, dtype=np.uint32)
        m = len(p)
        ptr = p.ctypes.data_as(POINTER(c_uint32))
        flag = int(bool(directed))
        return cls._build(lambda ctx, out: lib.warpmatch_graph_from_pairs(ctx.ptr, n, ptr, m, flag, byref(out)), nodes)

    @classmethod
    def _from_columns(
        cls, src: NDArray[Any], dst: NDArray[Any], n: int, directed: bool, nodes: NDArray[Any] | None
    ) -> Graph:
        s = np.ascontiguousarray(src, dtype=np.uint32)
        d = np.ascontiguousarray(dst, dtype=np.uint32)
        m = len(s)
        ps = s.ctypes.data_as(POINTER(c_uint32))
        pd = d.ctypes.data_as(POINTER(c_uint32))
        flag = int(bool(directed))
        return cls._build(
            lambda ctx, out: lib.warpmatch_graph_from_edges(ctx.ptr, n, ps, pd, m, flag, byref(out)), nodes
        )

    # -- properties --

    @property
    def vertices(self) -> int:
        """The number of vertices n (indices 0..n-1)."""
        with self._ctx.lock:
            return int(lib.warpmatch_graph_vertices(self._live()))

    @property
    def edges(self) -> int:
        """The number of undirected edges (arcs for a directed graph)."""
        with self._ctx.lock:
            return int(lib.warpmatch_graph_edges(self._live()))

    @property
    def directed(self) -> bool:
        """Whether the graph's edges are arcs."""
        with self._ctx.lock:
            return bool(lib.warpmatch_graph_directed(self._live()))

    @property
    def ids(self) -> NDArray[np.uint64]:
        """ids[i]: index i's id in the input (the file's id for a loaded graph; i itself for edge arrays).

        Read once and kept (read-only).
        """
        if self._ids is None:
            with self._ctx.lock:
                ptr = self._live()
                ids = np.empty(int(lib.warpmatch_graph_vertices(ptr)), dtype=np.uint64)
                lib.warpmatch_graph_ids(ptr, ids.ctypes.data_as(POINTER(c_uint64)))
            ids.flags.writeable = False
            self._ids = ids
        return self._ids

    @property
    def nodes(self) -> NDArray[Any]:
        """nodes[i]: index i's original name, a read-only numpy array of n entries (integers
        where the names are, else objects): the networkx or igraph node, the DataFrame's value,
        else the input id (as ``ids``).  ``g.nodes[rows]`` names an array of indices."""
        return self._nodes if self._nodes is not None else self.ids

    def index_of(self, node: Any) -> int:
        """The index of an original node name (the inverse of ``nodes``)."""
        if self._node_index is None:
            self._node_index = {v: i for i, v in enumerate(self.nodes.tolist())}
        try:
            return self._node_index[node]
        except KeyError:
            raise InputError(f"{node!r} is not a node of this graph") from None

    def set_threads(self, threads: int) -> None:
        """CPU threads for this graph's later calls: 1 to 4096, or 0 (all cores, the default)."""
        with self._ctx.lock:
            self._live()
            # the library refuses what is outside its range in its own words; past the C int, ctypes would cut it
            n = _integer(threads, "threads", _lib.INT_MIN, _lib.INT_MAX, f"0 (all cores) or 1 to {_lib.MAX_THREADS}")
            self._ctx.check(lib.warpmatch_set_threads(self._ctx.ptr, n))

    def set_gpus(self, gpus: int) -> None:
        """GPUs 0..gpus-1 (1 to 16) for this graph's later GPU calls (default 1): count,
        list and motifs share their work among them, bfs splits the graph
        over them (the library needs NCCL for that)."""
        with self._ctx.lock:
            self._live()
            n = _integer(gpus, "gpus", _lib.INT_MIN, _lib.INT_MAX, f"1 to {_lib.MAX_GPUS}")  # as set_threads
            self._ctx.check(lib.warpmatch_set_gpus(self._ctx.ptr, n))

    # -- matching --

    def count(
        self,
        pattern: PatternLike,
        induced: bool = False,
        device: str = "auto",
        method: str = "auto",
        embeddings: bool = False,
        labels: ArrayLike | None = None,
        ignore_labels: bool = False,
        planner: str = "auto",
        order: Sequence[int] | None = None,
        per_vertex: bool = False,
        progress: bool | None = None,
    ) -> int | NDArray[np.uint64]:
        """The number of occurrences of ``pattern``.

        Subgraphs each counted once, edge-induced, unless ``induced``
        (vertex-induced) or ``embeddings`` (every mapping, i.e. subgraphs
        times the pattern's automorphisms).  ``device``: "auto" (the GPU when
        usable), "cpu" or "gpu"; ``method``: "auto", "formula" or "enumerate".
        ``labels`` (n integers) are the vertices' labels for a labeled
        pattern; ``ignore_labels`` matches its shape only.  ``planner``:
        how the matching order is chosen, "auto" (the cost model, with the
        graph measured where a run is long, and on the CPU the best few
        orders timed on a slice), "model", "sampled" or "probes" (auto
        without the slices; as the program's ``--planner``); ``order``: the pattern's vertices in the
        order to match them instead (the count is the same, the work is not).

        ``per_vertex=True`` returns instead a uint64 array of n entries: at
        index v, the number of the occurrences that contain v (as the
        program's ``count --per-vertex``; the count then enumerates).  A
        count past 2**64 - 1 at a vertex is an InputError naming it.

        ``progress``: a tqdm progress bar while it runs (True; False none;
        None, the default: where tqdm imports, in a notebook or when stderr is
        a terminal).  Ctrl-C stops the count within milliseconds on the CPU
        (KeyboardInterrupt; the graph stays usable), as it stops every long call.
        """
        if not per_vertex:
            return self.count_info(
                pattern, induced, device, method, embeddings, labels, ignore_labels, planner, order, progress
            ).count
        counts = np.zeros(self.vertices, dtype=np.uint64)
        self._count(
            pattern, induced, device, method, embeddings, labels, ignore_labels, planner, order, counts, progress
        )
        return counts

    def count_info(
        self,
        pattern: PatternLike,
        induced: bool = False,
        device: str = "auto",
        method: str = "auto",
        embeddings: bool = False,
        labels: ArrayLike | None = None,
        ignore_labels: bool = False,
        planner: str = "auto",
        order: Sequence[int] | None = None,
        progress: bool | None = None,
    ) -> CountInfo:
        """As ``count``, with the time taken, the device and the method used."""
        return self._count(
            pattern, induced, device, method, embeddings, labels, ignore_labels, planner, order, None, progress
        )

    def _count(
        self,
        pattern: PatternLike,
        induced: bool,
        device: str,
        method: str,
        embeddings: bool,
        labels: ArrayLike | None,
        ignore_labels: bool,
        planner: str,
        order: Sequence[int] | None,
        per_vertex: NDArray[np.uint64] | None,
        progress: bool | None = None,
    ) -> CountInfo:
        """count_info, filling ``per_vertex`` (n zeros, or None) with each index's matches."""
        pat = _as_pattern(pattern)
        lab = self._labels(labels)
        count = _options(induced, embeddings, device, method, lab, ignore_labels)
        o, _keep = _match_options(count, planner, order, pat.vertices)
        if per_vertex is not None:
            o.per_vertex = per_vertex.ctypes.data_as(POINTER(c_uint64))
        out = _lib.match_result()
        with self._ctx.lock:
            g = self._live()
            self._ctx.check(
                self._ctx.call(lambda: lib.warpmatch_count_ex(self._ctx.ptr, g, pat._ptr, byref(o), byref(out)), progress)
            )
        res = out.count
        return CountInfo(
            count=_wide(res.count, res.count_high),
            seconds=float(res.seconds),
            kernel_ms=float(res.kernel_ms),
            device=_DEVICE_NAMES.get(res.device, str(res.device)),
            method=_METHOD_NAMES.get(res.method, str(res.method)),
            executor=(out.executor or b"").decode(),
        )

    def list(
        self,
        pattern: PatternLike,
        limit: int | None = None,
        induced: bool = False,
        device: str = "auto",
        embeddings: bool = False,
        labels: ArrayLike | None = None,
        ignore_labels: bool = False,
        planner: str = "auto",
        order: Sequence[int] | None = None,
        progress: bool | None = None,
    ) -> NDArray[np.uint32]:
        """The matches of ``pattern``: a uint32 array of shape (matches, k).

        Row j holds match j's data vertices (indices) in the pattern's vertex
        order; at most ``limit`` rows (None: all of them, which can be many).
        Options as in ``count`` (``progress`` too).
        """
        pat = _as_pattern(pattern)
        k = pat.vertices
        if limit is not None:
            limit = _integer(limit, "limit", 0, _lib.UINT64_MAX, "from 0 to 2**64 - 1 (or None: all)")
            if limit == 0:
                return np.empty((0, k), dtype=np.uint32)
        lab = self._labels(labels)
        count = _options(induced, embeddings, device, "auto", lab, ignore_labels)
        o, _keep = _match_options(count, planner, order, pat.vertices)
        batches: builtins.list[NDArray[np.uint32]] = []
        failure: builtins.list[BaseException] = []

        def on_batch(_user: object, matches: Any, n: int, width: int) -> int:
            # Runs with the GIL held, inside the C call; copies the batch out of
            # the library's buffer, which is only valid during the callback.
            try:
                if n:
                    batches.append(np.ctypeslib.as_array(matches, shape=(n * width,)).copy())
                return 0
            except BaseException as e:  # noqa: BLE001 - stop the listing, re-raise after it
                failure.append(e)
                return 1

        # The ctypes callback object must outlive the C call: this local holds it.
        callback = _lib.MATCH_FN(on_batch)
        with self._ctx.lock:
            g = self._live()
            rc = self._ctx.call(
                lambda: lib.warpmatch_list_ex(self._ctx.ptr, g, pat._ptr, byref(o), limit or 0, callback, None, None),
                progress,
            )
            if failure:
                raise failure[0]
            self._ctx.check(rc)
        if not batches:
            return np.empty((0, k), dtype=np.uint32)
        return np.concatenate(batches).reshape(-1, k)

    def motifs(
        self,
        size: int,
        device: str = "auto",
        method: str = "auto",
        random: int | None = None,
        seed: int = 1,
        swaps_per_edge: int = 10,
        directed: bool = False,
        all_classes: bool = False,
        progress: bool | None = None,
    ) -> Any:
        """Every connected pattern of ``size`` (3, 4 or 5) vertices: name -> vertex-induced count.

        The graph must be undirected, unless ``directed``: then the graph must be
        directed and the keys are its directed classes of ``size`` 3 or 4, every
        weakly connected one (13 or 199; the disconnected ones too with
        ``all_classes``), named by the triad census's MAN codes ("021D") for size 3
        and "d4-<igraph id>" for size 4; ``directed_motif_table`` gives each
        class's igraph isoclass id and arcs (igraph's ``motifs_randesu`` lists the
        counts in that id's order).

        With ``random=N`` (2 or more): motif
        significance instead, each class's count against N random graphs of
        the same degrees, made by ``method`` "switch" (edge swaps, the
        default) or "curveball" with ``swaps_per_edge`` (switch: attempted
        swaps per edge; curveball: trade rounds) from ``seed`` (the same seed,
        the same answer).  Returns a table with one row per class (a pandas
        DataFrame where pandas imports, else a list of MotifSignificance):
        name, edges, count, random_mean, random_sd, z (NaN where random_sd is
        0), p_over, p_under and profile; the run's figures (swaps attempted
        and accepted per graph, the mixing check, times) in ``.attrs``
        (DataFrame) or ``.info``; with ``directed``, the directed classes.
        ``progress`` as in ``count``.
        """
        if all_classes and (not directed or random is not None):
            raise UsageError("all_classes is for directed motifs (directed=True, without random)")
        if random is not None:
            return self._significance(size, device, method, random, seed, swaps_per_edge, directed, progress)
        if directed:
            return {m.name: m.count for m in self.directed_motif_table(size, all_classes, device, method, progress)}
        return {m.name: m.count for m in self.motif_table(size, device, method, progress)}

    def _significance(
        self,
        size: int,
        device: str,
        method: str,
        random: int,
        seed: int,
        swaps_per_edge: int,
        directed: bool,
        progress: bool | None = None,
    ) -> Any:
        size = _integer(size, "motif size", 3, 5, "3, 4 or 5")
        o = _lib.significance_options()
        o.graphs = _integer(random, "random", 2, _lib.MAX_RANDOM_GRAPHS)
        o.seed = _integer(seed, "seed", 0, 2**64 - 1)
        o.swaps_per_edge = _integer(swaps_per_edge, "swaps_per_edge", 1, _lib.MAX_SWAPS_PER_EDGE)
        if isinstance(method, str) and method.lower() in _CHAINS:
            o.method = _chain(method)
        else:
            o.count_method = _method(method)
        o.device = _device(device)
        o.directed = int(bool(directed))
        classes = int(lib.warpmatch_significance_classes(size, o.directed))
        rows = (_lib.SignificanceRow * max(1, classes))()
        r = _lib.SignificanceResult()
        r.size = ctypes.sizeof(r)
        with self._ctx.lock:
            g = self._live()
            self._ctx.check(
                self._ctx.call(
                    lambda: lib.warpmatch_motif_significance(self._ctx.ptr, g, size, byref(o), rows, None, byref(r)),
                    progress,
                )
            )
        out = [
            MotifSignificance(
                _decode(x.motif.name), _parse_edges(_decode(x.motif.edges)), _wide(x.motif.count, x.motif.count_high),
                x.mean, x.sd, x.z, x.p_over, x.p_under, x.profile,
            )
            for x in rows[: r.classes]
        ]
        n = r.graphs
        info = {
            "size": size,
            "random_graphs": n,
            "method": _CHAIN_NAMES[o.method],
            "seed": int(o.seed),
            "swaps_per_edge": swaps_per_edge,
            "attempted_per_graph": r.attempted / n,
            "accepted_per_graph": r.accepted / n,
            "edges_kept_per_graph": r.edges_kept / n,
            "edges_kept_expected": r.edges_kept_expected,
            "device": _DEVICE_NAMES.get(r.device, "cpu"),
            "randomize_device": _DEVICE_NAMES.get(r.randomize_device, "cpu"),
            "randomize_gpus": r.randomize_gpus,
            "real_seconds": r.real_seconds,
            "randomize_seconds_per_graph": r.randomize_seconds / n,
            "count_seconds_per_graph": r.count_seconds / n,
        }
        return _significance_table(out, info)

    def randomize(
        self, seed: int = 1, method: str = "switch", swaps_per_edge: int = 10, index: int = 0, device: str = "cpu"
    ) -> Graph:
        """A new Graph with every vertex's degree (in- and out-degree when
        directed), no self-loops or multi-edges: graph ``index`` of ``seed``'s
        sequence (``motifs(..., random=N, seed=seed, device=device)`` counts
        indices 0..N-1), made by "switch" (edge swaps) or "curveball" trades
        from this one.  ``device``: "gpu" (or "auto" on a GPU host) makes a
        switch graph on the GPU, by another chain than the CPU's (its own
        graphs of a seed); curveball runs on the CPU.  The vertices keep
        their ids (and networkx nodes)."""
        o = _lib.randomize_options()
        o.device = _device(device)
        o.method = _chain(method)
        o.seed = _integer(seed, "seed", 0, 2**64 - 1)
        o.index = _integer(index, "index", 0, 2**64 - 1)
        o.swaps_per_edge = _integer(swaps_per_edge, "swaps_per_edge", 1, _lib.MAX_SWAPS_PER_EDGE)
        g = self._live()
        return Graph._build(lambda ctx, out: lib.warpmatch_randomize(ctx.ptr, g, byref(o), byref(out), None), self._nodes)

    def directed_motif_table(
        self,
        size: int,
        all_classes: bool = False,
        device: str = "auto",
        method: str = "auto",
        progress: bool | None = None,
    ) -> builtins.list[DirectedMotif]:
        """As ``motifs(size, directed=True)``, with each class's igraph id and arcs: a list of
        DirectedMotif(name, igraph_id, arcs, connected, count), size 3 in the census's
        order, size 4 by igraph id.  On the GPU where ``device`` says so ("auto": when one is
        usable; "gpu" without one is a DeviceError); size 4's ``method`` "enumerate" visits
        every connected 4-set on the CPU (the cross-check of the default)."""
        size = _integer(size, "directed motif size", 3, 4, "3 or 4")
        o = _lib.directed_motif_options()
        o.all_classes, o.device, o.method = int(bool(all_classes)), _device(device), _method(method)
        classes = int(lib.warpmatch_motif_classes_directed(size, int(not all_classes)))
        out = (_lib.DirectedMotif * classes)()
        r = _lib.DirectedMotifResult()
        r.size = ctypes.sizeof(_lib.DirectedMotifResult)
        with self._ctx.lock:
            g = self._live()
            self._ctx.check(
                self._ctx.call(
                    lambda: lib.warpmatch_motifs_directed(self._ctx.ptr, g, size, byref(o), out, byref(r)), progress
                )
            )
        return [
            DirectedMotif(
                _decode(m.name),
                int(m.igraph_id),
                _parse_edges(_decode(m.arcs)),
                bool(m.connected),
                _wide(m.count, m.count_high),
            )
            for m in out[: r.classes]
        ]

    def motif_table(
        self, size: int, device: str = "auto", method: str = "auto", progress: bool | None = None
    ) -> builtins.list[Motif]:
        """As ``motifs``, with each class's edges: a list of Motif(name, edges, count)."""
        size = _integer(size, "motif size", 3, 5, "3, 4 or 5")
        classes = int(lib.warpmatch_motif_classes(size))
        out = (_lib.Motif * max(1, classes))()
        o = _options(False, False, device, method)
        with self._ctx.lock:
            g = self._live()
            self._ctx.check(
                self._ctx.call(lambda: lib.warpmatch_motifs(self._ctx.ptr, g, size, byref(o), out), progress)
            )
        return [
            Motif(_decode(m.name), _parse_edges(_decode(m.edges)), _wide(m.count, m.count_high))
            for m in out[:classes]
        ]

    def edge_list(self) -> NDArray[np.uint32]:
        """The undirected edges as index pairs (u, v), u < v, ascending: an (m, 2) uint32 array.

        Its rows are the rows of ``orbits(edges=True)``; ``nodes`` names the indices.
        """
        with self._ctx.lock:
            ptr = self._live()
            m = int(lib.warpmatch_graph_edges(ptr))
            u = np.empty(m, dtype=np.uint32)
            v = np.empty(m, dtype=np.uint32)
            lib.warpmatch_graph_edge_ends(ptr, u.ctypes.data_as(POINTER(c_uint32)), v.ctypes.data_as(POINTER(c_uint32)))
        return np.stack([u, v], axis=1)

    def orbits(
        self,
        size: int = 5,
        method: str = "auto",
        device: str = "auto",
        as_frame: bool = False,
        edges: bool = False,
        progress: bool | None = None,
    ) -> NDArray[np.uint64] | Any:
        """The graphlet orbit counts of every vertex (the graphlet degree vector), in ORCA's numbering.

        ``size`` 2..5: the graphlets of up to that many vertices, 1, 4, 15 or 73
        orbits (orbit 0 is the degree; docs/orbits.md has the table).  Returns a
        uint64 array of n rows (the graph's indices, whose input ids are
        ``ids`` and names ``nodes``) by the orbits.  ``method``: "formula"
        (every size), "enumerate" (every subgraph visited: the oracle), or "auto" (the formula).
        ``device``: "gpu" runs the formula on the GPU (DeviceError without
        one; the enumerator and edge orbits stay on the CPU), "cpu", or "auto"
        (size 5 on the GPU where one is usable, sizes 2-4 on the CPU).
        ``as_frame=True`` returns a pandas DataFrame instead, indexed by
        ``nodes``, with columns o0, o1, ...  Counts are exact: where one passes
        2**64 - 1 (a hub of degree 150,000 is the centre of more 4-stars) the
        array's dtype is ``object`` instead, every count a Python int.  The
        graph must be undirected.

        ``edges=True``: ORCA's edge orbits instead (size 3, 4 or 5: 2, 12 or 68
        per edge; docs/orbits.md), one row per edge in ``edge_list()``'s order;
        with ``as_frame`` indexed by the pairs of ``nodes``.  ``progress`` as in ``count``.
        """
        size = _integer(size, "graphlet size", 3 if edges else 2, 5,
                        "3, 4 or 5 (edge orbits)" if edges else "2, 3, 4 or 5")
        if as_frame:
            try:
                import pandas as pd
            except ImportError as e:  # pandas is optional
                raise ImportError("Graph.orbits(as_frame=True) needs pandas (pip install pandas)") from e
        o = _lib.orbit_options()
        o.graphlet_size, o.method, o.device = size, _method(method), _device(device)
        o.edges = int(edges)
        r = _lib.OrbitResult()
        r.size = ctypes.sizeof(_lib.OrbitResult)
        with self._ctx.lock:
            ptr = self._live()
            if edges:
                shape = (int(lib.warpmatch_graph_edges(ptr)), int(lib.warpmatch_edge_orbit_count(size)))
            else:
                shape = (int(lib.warpmatch_graph_vertices(ptr)), int(lib.warpmatch_orbit_count(size)))
            counts = np.zeros(shape, dtype=np.uint64)
            high = np.zeros(shape, dtype=np.uint64)  # each count's high 64 bits
            o.counts_high = high.ctypes.data_as(POINTER(c_uint64))
            data = counts.ctypes.data_as(POINTER(c_uint64))
            self._ctx.check(
                self._ctx.call(lambda: lib.warpmatch_orbits(self._ctx.ptr, ptr, byref(o), data, byref(r)), progress)
            )
        if r.wide:
            counts = (high.astype(object) << 64) | counts.astype(object)
        if not as_frame:
            return counts
        if edges:
            nodes = list(self.nodes)
            pairs = [(nodes[u], nodes[v]) for u, v in self.edge_list()]
            index = pd.MultiIndex.from_tuples(pairs, names=["u", "v"])
            return pd.DataFrame(counts, index=index, columns=[f"e{i}" for i in range(counts.shape[1])])
        columns = [f"o{i}" for i in range(counts.shape[1])]
        return pd.DataFrame(counts, index=pd.Index(list(self.nodes), name="vertex"), columns=columns)

    def plan(
        self,
        pattern: PatternLike,
        json: bool = False,
        induced: bool = False,
        embeddings: bool = False,
        device: str = "auto",
        method: str = "auto",
    ) -> str:
        """The plan ``count`` would run for ``pattern`` on this graph, as text or JSON."""
        pat = _as_pattern(pattern)
        o = _options(induced, embeddings, device, method)
        with self._ctx.lock:
            return _plan(self._ctx, self._live(), pat._ptr, o, json)

    # -- traversal --

    def bfs(
        self, source: int | None = None, device: str = "auto", *, sources: Iterable[int] | None = None
    ) -> NDArray[np.int32]:
        """Levels of a BFS from index ``source``: hops from it, -1 where unreached (int32, n entries).

        ``sources=[...]`` instead: one search from all of them at once (as
        the program's ``bfs --source-list``), each vertex's level its hops from
        the nearest source.
        """
        if (source is None) == (sources is None):
            raise TypeError("bfs takes a source or sources=[...], one of the two")
        if sources is None:
            return self._bfs_levels(self._sources([source], "source"), _device(device))
        return self._bfs_levels(self._sources(sources, "sources"), _device(device))

    def distances(self, sources: Iterable[int], device: str = "auto") -> NDArray[np.int32]:
        """Hops from each of ``sources`` (indices) to every vertex: an int32 array of
        len(sources) rows by n, -1 where unreached.

        One search per source, for a few sources at a time: at most
        ``Graph.MAX_DISTANCE_SOURCES`` (1024) of them, and the matrix must fit
        in memory (len(sources) x n x 4 bytes).
        """
        srcs = self._sources(sources, "sources")
        if len(srcs) > self.MAX_DISTANCE_SOURCES:
            raise UsageError(
                f"distances takes at most {self.MAX_DISTANCE_SOURCES} sources, not {len(srcs)}; "
                "call bfs(source) for each of more"
            )
        dev = _device(device)
        out = np.empty((len(srcs), self.vertices), dtype=np.int32)
        for row in range(len(srcs)):
            out[row] = self._bfs_levels(srcs[row : row + 1], dev)
        return out

    #: The most sources ``distances`` takes (its matrix has a row of n per source).
    MAX_DISTANCE_SOURCES = 1024

    @staticmethod
    def _sources(values: Iterable[int], what: str) -> NDArray[np.uint32]:
        if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
            raise TypeError(f"{what} must be a sequence of vertex indices, not {type(values).__name__}")
        srcs = np.array([_index(v, what if what == "source" else "source") for v in values], dtype=np.uint32)
        if not len(srcs):
            raise UsageError(f"{what}: no source vertex given")
        return srcs

    def _bfs_levels(self, srcs: NDArray[np.uint32], device: int) -> NDArray[np.int32]:
        o = _lib.bfs_options()
        o.device = device
        with self._ctx.lock:
            ptr = self._live()
            levels = np.empty(int(lib.warpmatch_graph_vertices(ptr)), dtype=np.int32)
            self._ctx.check(
                lib.warpmatch_bfs_ex(
                    self._ctx.ptr, ptr, srcs.ctypes.data_as(POINTER(c_uint32)), len(srcs), byref(o),
                    levels.ctypes.data_as(POINTER(c_int32)), None, None,
                )
            )
        return levels

    def bfs_parents(self, source: int, device: str = "auto") -> NDArray[np.int64]:
        """Parents in a BFS tree from ``source`` (int64, n entries): the source's is itself, -1 unreached."""
        s = _index(source, "source")
        dev = _device(device)
        with self._ctx.lock:
            ptr = self._live()
            parents = np.empty(int(lib.warpmatch_graph_vertices(ptr)), dtype=np.uint32)
            self._ctx.check(
                lib.warpmatch_bfs(self._ctx.ptr, ptr, s, dev, None, parents.ctypes.data_as(POINTER(c_uint32)), None)
            )
        out = parents.astype(np.int64)
        out[parents == _lib.UINT32_MAX] = -1
        return out

    def reach(self, a: int, b: int, device: str = "auto") -> int | None:
        """The hops of a shortest path from index ``a`` to ``b``, or None when b is unreachable."""
        src = _index(a, "from")
        dst = _index(b, "to")
        dev = _device(device)
        hops = c_int64(0)
        with self._ctx.lock:
            self._ctx.check(lib.warpmatch_reach(self._ctx.ptr, self._live(), src, dst, dev, byref(hops)))
        return None if hops.value < 0 else int(hops.value)

    # -- lifetime --

    def close(self) -> None:
        """Free the graph and its context now (later calls raise UsageError)."""
        self._finalizer()

    @property
    def closed(self) -> bool:
        return not self._finalizer.alive

    def __enter__(self) -> Graph:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        if self.closed:
            return "<warpmatch.Graph (closed)>"
        kind = "directed" if self.directed else "undirected"
        return f"<warpmatch.Graph {self.vertices} vertices, {self.edges} edges, {kind}>"

    # -- helpers --

    def to_networkx(self) -> Any:
        """This graph as a networkx Graph (DiGraph when directed), its nodes named by ``nodes``
        (isolated ones included)."""
        try:
            import networkx as nx
        except ImportError as e:  # networkx is optional
            raise ImportError("Graph.to_networkx needs networkx (pip install networkx)") from e
        names = self.nodes.tolist()
        G = nx.DiGraph() if self.directed else nx.Graph()
        G.add_nodes_from(names)
        G.add_edges_from((names[u], names[v]) for u, v in self.edge_list().tolist())
        return G

    def _live(self) -> _lib.graph_p:
        if not self._finalizer.alive:
            raise UsageError("this graph is closed")
        return self._ptr

    def _labels(self, labels: ArrayLike | None) -> NDArray[np.int32] | None:
        if labels is None:
            return None
        arr = np.asarray(labels)
        n = self.vertices
        if arr.ndim != 1 or len(arr) != n:
            raise InputError(f"labels must be one integer per vertex ({n}), not shape {arr.shape}")
        if len(arr) and (arr.dtype.kind not in "iu" or arr.min() < 0 or arr.max() > 0x7FFFFFFF):
            raise InputError("labels are integers 0 .. 2^31-1")
        return np.ascontiguousarray(arr, dtype=np.int32)


def _free_graph(ctx: _Context, ptr: _lib.graph_p) -> None:
    with ctx.lock:
        lib.warpmatch_graph_destroy(ptr)
    ctx.close()


def _node_array(names: Any) -> NDArray[Any]:
    """Names as a read-only numpy array: integers where they all are, else objects (a tuple
    stays one entry)."""
    arr = np.asarray(names) if isinstance(names, np.ndarray) or hasattr(names, "dtype") else None
    if arr is None or arr.ndim != 1 or arr.dtype.kind not in "iu":
        values = builtins.list(names)
        ints = all(isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)) for v in values)
        arr = None
        if ints:
            try:
                arr = np.array(values, dtype=np.int64)
            except OverflowError:
                arr = None
        if arr is None:
            arr = np.empty(len(values), dtype=object)
            for i, v in enumerate(values):
                arr[i] = v
    else:
        arr = arr.copy()
    arr.flags.writeable = False
    return arr


def _edge_array(edges: Any) -> NDArray[Any]:
    """``edges`` as an (m, 2) integer array of ids in 0 .. 2^32-2, or InputError."""
    if not isinstance(edges, np.ndarray):
        if not isinstance(edges, (list, tuple)):
            edges = list(edges)
        edges = np.asarray(edges) if len(edges) else np.empty((0, 2), dtype=np.int64)
    arr = edges
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise InputError(f"edges must be an (m, 2) array or a sequence of pairs, not shape {arr.shape}")
    if arr.dtype.kind not in "iu":
        raise InputError(f"edge ids must be integers, not {arr.dtype}")
    if len(arr):
        lo, hi = int(arr.min()), int(arr.max())
        if lo < 0:
            raise InputError(f"edge ids must be non-negative, found {lo}")
        if hi > _MAX_ID:
            raise InputError(f"edge ids go up to 2^32 - 2, found {hi}")
    return arr


def _vertex_count(n: int | None) -> int:
    if n is None:
        return 0
    n = operator.index(n)
    if not 0 <= n <= _MAX_ID + 1:
        raise InputError(f"n must be between 0 and 2^32 - 1, not {n}")
    return n


def load(path: PathLike, directed: bool = False, cache: bool = True, progress: bool | None = None) -> Graph:
    """Load a graph file: an edge list (CSV and TSV too, a header line skipped), Matrix
    Market or .wmg, told from the content; the text ones may be gzip-compressed (.gz).

    An edge list is undirected unless ``directed`` (then its lines are arcs).
    A text graph is cached as a binary ``FILE.wmg`` beside it (or in the
    user's cache folder) and read from there next time, unless ``cache`` is
    False.  An edge list's ids are numbered 0..n-1 in increasing order, a
    Matrix Market file's vertices 1..N become 0..N-1, a .wmg file keeps its
    numbering; ``g.nodes`` gives each index's id in the file.  Errors raise
    ``InputError`` naming the file, the line and what was expected
    (``MissingFileError``, a FileNotFoundError, for a file that is not there).
    ``progress``: a tqdm bar for a big text file (see ``Graph.count``); Ctrl-C stops the
    reading (KeyboardInterrupt).
    """
    return Graph.load(path, directed=directed, cache=cache, progress=progress)


# Each generator's own parameters (the fields of warpmatch_gen_options it reads).
_GEN_PARAMS: dict[str, tuple[str, ...]] = {
    "kron": ("scale", "edge_factor", "a", "b", "c", "permute"),
    "rmat": ("scale", "edge_factor", "a", "b", "c", "permute"),
    "chung-lu": ("vertices", "mean_degree", "exponent"),
    "ba": ("vertices", "attach"),
    "hub": ("vertices", "hub_fraction", "mean_degree"),
    "sbm": ("vertices", "communities", "degree_in", "degree_out"),
    "regular": ("vertices", "degree"),
    "grid": ("width", "height", "shortcuts"),
}
_GEN_UNSIGNED = {"scale": _lib.UINT32_MAX, "edge_factor": _lib.UINT32_MAX, "attach": _lib.UINT32_MAX,
                 "degree": _lib.UINT32_MAX, "vertices": _lib.UINT64_MAX, "communities": _lib.UINT64_MAX,
                 "width": _lib.UINT64_MAX, "height": _lib.UINT64_MAX}


def _gen_set(o: _lib.GenOptions, name: str, value: object) -> None:
    if name == "permute":
        o.permute = int(bool(value))
    elif name in _GEN_UNSIGNED:
        setattr(o, name, _integer(value, name, 0, _GEN_UNSIGNED[name]))
    else:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"{name} must be a number, not {type(value).__name__}")
        setattr(o, name, float(value))


def generate(kind: str, seed: int = 1, progress: bool | None = None, **params: object) -> Graph:
    """A synthetic graph, symmetric and simple, as ``warpmatch gen KIND`` makes it.

    ``kind`` is one of kron, rmat (``scale``, ``edge_factor``, ``a``, ``b``,
    ``c``, ``permute``), chung-lu (``vertices``, ``mean_degree``,
    ``exponent``), ba (``vertices``, ``attach``), hub (``vertices``,
    ``hub_fraction``, ``mean_degree``), sbm (``vertices``, ``communities``,
    ``degree_in``, ``degree_out``), regular (``vertices``, ``degree``) or grid
    (``width``, ``height`` (default: the width), ``shortcuts``); parameters
    left out keep the library's defaults (docs/gen.md).  The same parameters
    and seed give the same graph whatever the threads.  A value outside its
    range raises ``UsageError`` naming the range; another kind's parameter
    raises ``TypeError``.
    """
    if kind not in _GEN_PARAMS:
        raise UsageError(f"generate: unknown kind {kind!r} (expected {', '.join(_GEN_PARAMS)})")
    own = _GEN_PARAMS[kind]
    for name in params:
        if name not in own:
            raise TypeError(f"generate({kind!r}): {name!r} is not one of its parameters ({', '.join(own)})")
    scale = _integer(params.get("scale", 0), "scale", 0, _lib.UINT32_MAX)
    o = _lib.gen_options(_lib.GEN_KINDS[kind], scale, _integer(seed, "seed", 0, _lib.UINT64_MAX))
    for name, value in params.items():
        _gen_set(o, name, value)
    if kind == "grid" and "height" not in params:
        o.height = o.width
    return Graph._build(lambda ctx, out: lib.warpmatch_generate(ctx.ptr, byref(o), byref(out)), None, progress)


def gpu_available() -> bool:
    """True when the library was built with CUDA and a CUDA device is usable."""
    ctx = _Context()
    try:
        with ctx.lock:
            return bool(lib.warpmatch_gpu_available(ctx.ptr))
    finally:
        ctx.close()


def version() -> str:
    """The C library's version."""
    return _decode(lib.warpmatch_version())
