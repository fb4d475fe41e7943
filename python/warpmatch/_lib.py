"""ctypes declarations of libwarpmatch (api/warpmatch.h) and the loaded library.

Every function of the header is declared here with its argument and result
types, and every struct is mirrored field for field in the header's order, so
that a mismatch shows up in one place.  Calls through ``ctypes.CDLL`` release
the GIL for the duration of the foreign call, which is what lets a long count,
listing or BFS run while other Python threads keep going; callbacks from C
(the listing's batches) take the GIL back while they run.

The library is the ``libwarpmatch.so`` installed inside this package by the
wheel.  ``WARPMATCH_LIBRARY``, when set, names another one to load instead (a
file, or a folder holding ``libwarpmatch.so``): this is for working against a
build folder without installing.
"""

from __future__ import annotations

import ctypes
import os
from ctypes import (
    CFUNCTYPE,
    POINTER,
    Structure,
    c_char,
    c_char_p,
    c_double,
    c_int,
    c_int32,
    c_int64,
    c_longlong,
    c_size_t,
    c_uint,
    c_uint32,
    c_uint64,
    c_void_p,
)
from pathlib import Path
from typing import Any

# Error codes (WARPMATCH_E*).
OK = 0
EINPUT = 1
EUSAGE = 2
EDEVICE = 3
EINTERRUPTED = 4

DEVICE_AUTO = 0
DEVICE_CPU = 1
DEVICE_GPU = 2

METHOD_AUTO = 0
METHOD_FORMULA = 1
METHOD_ENUMERATE = 2

PLAN_TEXT = 0
PLAN_JSON = 1

RANDOMIZE_SWITCH = 1
RANDOMIZE_CURVEBALL = 2

PLANNER_MODEL = 0
PLANNER_SAMPLED = 1
PLANNER_AUTO = 2
PLANNER_PROBES = 3  # AUTO without the timed slices

# Generators (WARPMATCH_GEN_*), by the name `warpmatch gen` gives them.
GEN_KINDS = {"kron": 1, "rmat": 2, "chung-lu": 3, "ba": 4, "hub": 5, "sbm": 6, "regular": 7, "grid": 8}

UINT32_MAX = 0xFFFFFFFF
UINT64_MAX = 0xFFFFFFFFFFFFFFFF
INT_MIN = -(2**31)
INT_MAX = 2**31 - 1


class LoadOptions(Structure):
    """warpmatch_load_options (a versioned struct: ``size`` first)."""

    _fields_ = [
        ("size", c_size_t),
        ("directed", c_int),
        ("use_cache", c_int),
    ]


class CountOptions(Structure):
    """warpmatch_count_options."""

    _fields_ = [
        ("induced", c_int),
        ("embeddings", c_int),
        ("device", c_int),
        ("method", c_int),
        ("labels", POINTER(c_int32)),
        ("ignore_labels", c_int),
    ]


class CountResult(Structure):
    """warpmatch_count_result."""

    _fields_ = [
        ("count", c_uint64),
        ("count_high", c_uint64),
        ("seconds", c_double),
        ("kernel_ms", c_double),
        ("device", c_int),
        ("method", c_int),
    ]


class MatchOptions(Structure):
    """warpmatch_match_options (a versioned struct: ``size`` first)."""

    _fields_ = [
        ("size", c_size_t),
        ("count", CountOptions),
        ("relabel", c_int),
        ("code_motion", c_int),
        ("pair_count", c_int),
        ("ball", c_int),
        ("seed", c_uint32),
        ("hops", c_uint32),
        ("trials", c_uint),
        ("trial_ms", POINTER(c_double)),
        ("per_vertex", POINTER(c_uint64)),
        ("gpus", c_int),
        ("planner", c_int),
        ("order", POINTER(c_uint)),
        # GPU tuning: the header's trailing section
        ("gpu_steal", c_int),
        ("gpu_level0", c_int),
        ("gpu_chunk", c_uint32),
        ("gpu_unroll", c_int),
        ("gpu_blocks", c_int),
        ("gpu_warps", c_int),
        ("gpu_table_words", c_int),
        ("gpu_dedicated", c_int),
    ]


class MatchResult(Structure):
    """warpmatch_match_result (a versioned struct: ``size`` first); its fields are set below,
    once the library has said the sizes of its slice arrays (``LIMITS``)."""


class Motif(Structure):
    """warpmatch_motif."""

    _fields_ = [
        ("name", c_char * 32),
        ("edges", c_char * 64),
        ("count", c_uint64),
        ("count_high", c_uint64),
    ]


class RandomizeOptions(Structure):
    """warpmatch_randomize_options (versioned: ``size`` first)."""

    _fields_ = [
        ("size", c_size_t),
        ("method", c_int),
        ("seed", c_uint64),
        ("index", c_uint64),
        ("swaps_per_edge", c_uint),
        ("device", c_int),
    ]


class RandomizeStats(Structure):
    """warpmatch_randomize_stats (versioned: ``size`` first)."""

    _fields_ = [
        ("size", c_size_t),
        ("attempted", c_uint64),
        ("accepted", c_uint64),
        ("edges_kept", c_uint64),
        ("edges_kept_expected", c_double),
        ("seconds", c_double),
    ]


class SignificanceOptions(Structure):
    """warpmatch_significance_options (versioned: ``size`` first)."""

    _fields_ = [
        ("size", c_size_t),
        ("graphs", c_uint),
        ("method", c_int),
        ("seed", c_uint64),
        ("swaps_per_edge", c_uint),
        ("directed", c_int),
        ("device", c_int),
        ("count_method", c_int),
        ("match", c_void_p),
    ]


class SignificanceRow(Structure):
    """warpmatch_significance_row."""

    _fields_ = [
        ("motif", Motif),
        ("mean", c_double),
        ("sd", c_double),
        ("z", c_double),
        ("p_over", c_double),
        ("p_under", c_double),
        ("profile", c_double),
    ]


class SignificanceResult(Structure):
    """warpmatch_significance_result (versioned: ``size`` first)."""

    _fields_ = [
        ("size", c_size_t),
        ("graphs", c_uint),
        ("classes", c_uint),
        ("attempted", c_uint64),
        ("accepted", c_uint64),
        ("edges_kept", c_uint64),
        ("edges_kept_expected", c_double),
        ("real_seconds", c_double),
        ("randomize_seconds", c_double),
        ("count_seconds", c_double),
        ("device", c_int),
        ("randomize_device", c_int),
        ("randomize_gpus", c_int),
    ]


class DirectedMotif(Structure):
    """warpmatch_directed_motif."""

    _fields_ = [
        ("name", c_char * 32),
        ("arcs", c_char * 64),
        ("igraph_id", c_uint),
        ("connected", c_int),
        ("count", c_uint64),
        ("count_high", c_uint64),
    ]


class DirectedMotifOptions(Structure):
    """warpmatch_directed_motif_options (versioned: ``size`` first)."""

    _fields_ = [
        ("size", c_size_t),
        ("all_classes", c_int),
        ("device", c_int),
        ("method", c_int),
        ("gpus", c_int),
    ]


class DirectedMotifResult(Structure):
    """warpmatch_directed_motif_result (versioned: ``size`` first)."""

    _fields_ = [
        ("size", c_size_t),
        ("classes", c_uint),
        ("device", c_int),
        ("seconds", c_double),
        ("how", c_char * 256),
        ("kernel_ms", c_double),
    ]


class OrbitOptions(Structure):
    """warpmatch_orbit_options (versioned: ``size`` first)."""

    _fields_ = [
        ("size", c_size_t),
        ("graphlet_size", c_uint),
        ("device", c_int),
        ("method", c_int),
        ("edges", c_int),
        ("gpus", c_int),
        ("counts_high", POINTER(c_uint64)),
        ("trials", c_uint),
    ]


class OrbitResult(Structure):
    """warpmatch_orbit_result (versioned: ``size`` first)."""

    _fields_ = [
        ("size", c_size_t),
        ("orbits", c_uint),
        ("device", c_int),
        ("method", c_int),
        ("seconds", c_double),
        ("kernel_ms", c_double),
        ("wide", c_uint64),
        ("trials", c_uint),
        ("first_seconds", c_double),
    ]


class BfsResult(Structure):
    """warpmatch_bfs_result."""

    _fields_ = [
        ("reached", c_uint32),
        ("depth", c_uint32),
        ("ms", c_double),
        ("device", c_int),
    ]


class BfsOptions(Structure):
    """warpmatch_bfs_options, as far as this package sets it (a versioned struct: ``size``
    first; the library keeps its defaults for the fields after these)."""

    _fields_ = [
        ("size", c_size_t),
        ("device", c_int),
        ("max_depth", c_uint32),
        ("target", c_uint32),
    ]


class OptionInfo(Structure):
    """warpmatch_option_info (a versioned struct: ``size`` first)."""

    _fields_ = [
        ("size", c_size_t),
        ("field", c_char_p),
        ("option", c_char_p),
        ("lo", c_longlong),
        ("hi", c_longlong),
    ]


class GenOptions(Structure):
    """warpmatch_gen_options (a versioned struct: ``size`` first)."""

    _fields_ = [
        ("size", c_size_t),
        ("kind", c_int),
        ("scale", c_uint),
        ("edge_factor", c_uint),
        ("seed", c_uint64),
        ("a", c_double),
        ("b", c_double),
        ("c", c_double),
        ("permute", c_int),
        ("vertices", c_uint64),
        ("mean_degree", c_double),
        ("exponent", c_double),
        ("attach", c_uint),
        ("hub_fraction", c_double),
        ("communities", c_uint64),
        ("degree_in", c_double),
        ("degree_out", c_double),
        ("degree", c_uint),
        ("width", c_uint64),
        ("height", c_uint64),
        ("shortcuts", c_double),
    ]


# Opaque handles are plain pointers on the Python side.
ctx_p = c_void_p
graph_p = c_void_p
pattern_p = c_void_p

# int (*warpmatch_match_fn)(void *user, const uint32_t *matches, uint64_t n, unsigned k)
MATCH_FN = CFUNCTYPE(c_int, c_void_p, POINTER(c_uint32), c_uint64, c_uint)

# void (*warpmatch_progress_fn)(void *user, const char *phase, uint64_t done, uint64_t total)
PROGRESS_FN = CFUNCTYPE(None, c_void_p, c_char_p, c_uint64, c_uint64)

# name: (restype, argtypes), in the header's order.
_SIGNATURES: dict[str, tuple[object, list[object]]] = {
    "warpmatch_version": (c_char_p, []),
    # context
    "warpmatch_context_create": (c_int, [POINTER(ctx_p)]),
    "warpmatch_context_destroy": (None, [ctx_p]),
    "warpmatch_last_error": (c_char_p, [ctx_p]),
    "warpmatch_gpu_available": (c_int, [ctx_p]),
    "warpmatch_set_threads": (c_int, [ctx_p, c_int]),
    "warpmatch_set_gpus": (c_int, [ctx_p, c_int]),
    "warpmatch_interrupt": (None, [ctx_p, c_int]),
    "warpmatch_catch_sigint": (c_int, [ctx_p, c_int, POINTER(c_int)]),
    "warpmatch_set_progress_callback": (c_int, [ctx_p, PROGRESS_FN, c_void_p]),
    # graphs
    "warpmatch_load_options_init": (None, [c_void_p]),
    "warpmatch_graph_load": (c_int, [ctx_p, c_char_p, POINTER(LoadOptions), POINTER(graph_p)]),
    "warpmatch_graph_from_edges": (
        c_int,
        [ctx_p, c_uint32, POINTER(c_uint32), POINTER(c_uint32), c_uint64, c_int, POINTER(graph_p)],
    ),
    "warpmatch_graph_from_pairs": (c_int, [ctx_p, c_uint32, POINTER(c_uint32), c_uint64, c_int, POINTER(graph_p)]),
    "warpmatch_graph_destroy": (None, [graph_p]),
    "warpmatch_graph_vertices": (c_uint32, [graph_p]),
    "warpmatch_graph_edges": (c_uint64, [graph_p]),
    "warpmatch_graph_directed": (c_int, [graph_p]),
    "warpmatch_graph_ids": (None, [graph_p, POINTER(c_uint64)]),
    "warpmatch_gen_options_init": (None, [c_void_p, c_int, c_uint, c_uint64]),
    "warpmatch_generate": (c_int, [ctx_p, POINTER(GenOptions), POINTER(graph_p)]),
    # patterns
    "warpmatch_pattern_create": (c_int, [ctx_p, c_char_p, POINTER(pattern_p)]),
    "warpmatch_pattern_from_edges": (c_int, [ctx_p, c_uint, POINTER(c_uint), c_uint, POINTER(pattern_p)]),
    "warpmatch_pattern_set_label": (c_int, [ctx_p, pattern_p, c_uint, c_int32]),
    "warpmatch_pattern_destroy": (None, [pattern_p]),
    "warpmatch_pattern_vertices": (c_uint, [pattern_p]),
    "warpmatch_pattern_name": (c_char_p, [pattern_p]),
    # count, list, plan
    "warpmatch_count_options_init": (None, [POINTER(CountOptions)]),
    "warpmatch_count": (
        c_int,
        [ctx_p, graph_p, pattern_p, POINTER(CountOptions), POINTER(CountResult)],
    ),
    "warpmatch_list": (
        c_int,
        [ctx_p, graph_p, pattern_p, POINTER(CountOptions), c_uint64, MATCH_FN, c_void_p, POINTER(c_uint64)],
    ),
    "warpmatch_match_options_init": (None, [c_void_p]),
    "warpmatch_count_ex": (
        c_int,
        [ctx_p, graph_p, pattern_p, POINTER(MatchOptions), POINTER(MatchResult)],
    ),
    "warpmatch_list_ex": (
        c_int,
        [ctx_p, graph_p, pattern_p, POINTER(MatchOptions), c_uint64, MATCH_FN, c_void_p, POINTER(MatchResult)],
    ),
    "warpmatch_plan": (
        c_int,
        [ctx_p, graph_p, pattern_p, POINTER(CountOptions), c_int, c_char_p, c_size_t, POINTER(c_size_t)],
    ),
    # motifs
    "warpmatch_motif_classes": (c_uint, [c_uint]),
    "warpmatch_motifs": (c_int, [ctx_p, graph_p, c_uint, POINTER(CountOptions), POINTER(Motif)]),
    # motif significance
    "warpmatch_randomize_options_init": (None, [c_void_p]),
    "warpmatch_randomize": (
        c_int,
        [ctx_p, graph_p, POINTER(RandomizeOptions), POINTER(graph_p), POINTER(RandomizeStats)],
    ),
    "warpmatch_significance_options_init": (None, [c_void_p]),
    "warpmatch_significance_classes": (c_uint, [c_uint, c_int]),
    "warpmatch_motif_significance": (
        c_int,
        [
            ctx_p,
            graph_p,
            c_uint,
            POINTER(SignificanceOptions),
            POINTER(SignificanceRow),
            POINTER(Motif),
            POINTER(SignificanceResult),
        ],
    ),
    "warpmatch_motif_classes_directed": (c_uint, [c_uint, c_int]),
    "warpmatch_directed_motif_options_init": (None, [c_void_p]),
    "warpmatch_motifs_directed": (
        c_int,
        [ctx_p, graph_p, c_uint, POINTER(DirectedMotifOptions), POINTER(DirectedMotif), POINTER(DirectedMotifResult)],
    ),
    # graphlet orbits
    "warpmatch_orbit_count": (c_uint, [c_uint]),
    "warpmatch_edge_orbit_count": (c_uint, [c_uint]),
    "warpmatch_graph_edge_ends": (None, [graph_p, POINTER(c_uint32), POINTER(c_uint32)]),
    "warpmatch_orbit_options_init": (None, [c_void_p]),
    "warpmatch_orbits": (c_int, [ctx_p, graph_p, POINTER(OrbitOptions), POINTER(c_uint64), POINTER(OrbitResult)]),
    # traversal
    "warpmatch_bfs": (
        c_int,
        [ctx_p, graph_p, c_uint32, c_int, POINTER(c_int32), POINTER(c_uint32), POINTER(BfsResult)],
    ),
    "warpmatch_bfs_options_init": (None, [c_void_p]),
    "warpmatch_bfs_ex": (
        c_int,
        [ctx_p, graph_p, POINTER(c_uint32), c_uint32, POINTER(BfsOptions), POINTER(c_int32), POINTER(c_uint32), c_void_p],
    ),
    "warpmatch_reach": (c_int, [ctx_p, graph_p, c_uint32, c_uint32, c_int, POINTER(c_int64)]),
    # the library's limits and option ranges
    "warpmatch_limit": (c_char_p, [c_uint, POINTER(c_longlong)]),
    "warpmatch_match_option_count": (c_uint, []),
    "warpmatch_match_option_info": (c_int, [c_uint, POINTER(OptionInfo)]),
}

LIBRARY_NAME = "libwarpmatch.so"


def library_path() -> Path:
    """The library file to load: ``$WARPMATCH_LIBRARY`` when set, else the packaged one."""
    override = os.environ.get("WARPMATCH_LIBRARY")
    if override:
        path = Path(override)
        return path / LIBRARY_NAME if path.is_dir() else path
    return Path(__file__).resolve().parent / LIBRARY_NAME


def _load() -> ctypes.CDLL:
    path = library_path()
    if not path.exists():
        hint = (
            "WARPMATCH_LIBRARY is set but names no library"
            if os.environ.get("WARPMATCH_LIBRARY")
            else "the package was not built with its library; install it with `pip install .` "
            "from the warpmatch checkout, or set WARPMATCH_LIBRARY to a build's libwarpmatch.so"
        )
        raise ImportError(f"warpmatch: {path} not found ({hint})")
    lib = ctypes.CDLL(str(path))
    for name, (restype, argtypes) in _SIGNATURES.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes
    return lib


lib: ctypes.CDLL = _load()


def _limits() -> dict[str, int]:
    """The header's limits as the library answers them (warpmatch_limit), by #define name."""
    out = {}
    value = c_longlong()
    i = 0
    while (name := lib.warpmatch_limit(i, ctypes.byref(value))) is not None:
        out[name.decode()] = value.value
        i += 1
    return out


# The header's limits (WARPMATCH_MAX_*, WARPMATCH_GPU_MAX_*, WARPMATCH_GEN_MAX_*),
# read from the library rather than mirrored.
LIMITS: dict[str, int] = _limits()


def _limit(name: str) -> int:
    if name not in LIMITS:
        raise ImportError(f"warpmatch: {library_path()} does not answer {name} (older than this package)")
    return LIMITS[name]


MAX_THREADS = _limit("WARPMATCH_MAX_THREADS")
MAX_GPUS = _limit("WARPMATCH_MAX_GPUS")
MAX_PATTERN_VERTICES = _limit("WARPMATCH_MAX_PATTERN_VERTICES")
MAX_TRIALS = _limit("WARPMATCH_MAX_TRIALS")
GPU_MAX_TABLE_WORDS = _limit("WARPMATCH_GPU_MAX_TABLE_WORDS")
GPU_MAX_UNROLL = _limit("WARPMATCH_GPU_MAX_UNROLL")
GPU_MAX_WARPS = _limit("WARPMATCH_GPU_MAX_WARPS")
GPU_MAX_BLOCKS = _limit("WARPMATCH_GPU_MAX_BLOCKS")
GPU_MAX_CHUNK = _limit("WARPMATCH_GPU_MAX_CHUNK")
MAX_STRUCT_SIZE = _limit("WARPMATCH_MAX_STRUCT_SIZE")
MAX_SWAPS_PER_EDGE = _limit("WARPMATCH_MAX_SWAPS_PER_EDGE")
MAX_RANDOM_GRAPHS = _limit("WARPMATCH_MAX_RANDOM_GRAPHS")

MAX_SLICE_ORDERS = _limit("WARPMATCH_MAX_SLICE_ORDERS")

MatchResult._fields_ = [
    ("size", c_size_t),
    ("count", CountResult),
    ("set_ops", c_uint64),
    ("listed", c_uint64),
    ("ball_vertices", c_uint64),
    ("formula_paths", c_uint64),
    ("relabel_seconds", c_double),
    ("stats_seconds", c_double),
    ("plan_seconds", c_double),
    ("transfer_ms", c_double),
    ("lane_util", c_double),
    ("trials", c_uint),
    ("formula", c_char_p),
    ("launch", c_char * 384),
    ("executor", c_char_p),
    ("slice_orders", c_uint),
    ("slice_chosen", c_uint),
    ("slice_every", c_uint32),
    ("slice_vertices", c_uint64),
    ("slice_order", (c_uint * MAX_PATTERN_VERTICES) * MAX_SLICE_ORDERS),
    ("slice_ms", c_double * MAX_SLICE_ORDERS),
]


def _match_options_table() -> dict[str, tuple[str, int, int]]:
    """warpmatch_match_options' numeric fields set one for one: field -> (the program's option, lo, hi)."""
    out = {}
    for i in range(lib.warpmatch_match_option_count()):
        info = OptionInfo()
        info.size = ctypes.sizeof(OptionInfo)
        if lib.warpmatch_match_option_info(i, ctypes.byref(info)) != OK:
            raise ImportError(f"warpmatch: {library_path()} has no match option {i}")
        out[info.field.decode()] = (info.option.decode(), info.lo, info.hi)
    return out


# A value other than 0 (the default) must lie in lo..hi.
MATCH_OPTION_RANGES: dict[str, tuple[str, int, int]] = _match_options_table()


def _versioned_defaults(kind: type[Structure], init: str, *args: Any) -> Any:
    """The library's defaults of a versioned struct, as far as this package knows it
    (``args``: what the _init takes after the struct, e.g. a generator's kind).

    The library's _init writes its own sizeof, which a newer library may
    have grown: it writes into room to spare, and the copy keeps this
    package's fields, with ``size`` saying so (the library then keeps its
    defaults for the rest).
    """
    room = ctypes.create_string_buffer(ctypes.sizeof(kind) + 4096)
    getattr(lib, init)(room, *args)
    if c_size_t.from_buffer(room).value < ctypes.sizeof(kind):
        raise ImportError(f"warpmatch: {library_path()} is older than this package ({init})")
    o = kind.from_buffer_copy(room)
    o.size = ctypes.sizeof(kind)
    return o


def match_options() -> MatchOptions:
    """The library's default match options (warpmatch_match_options_init)."""
    return _versioned_defaults(MatchOptions, "warpmatch_match_options_init")


def load_options() -> LoadOptions:
    """The library's default load options (warpmatch_load_options_init)."""
    return _versioned_defaults(LoadOptions, "warpmatch_load_options_init")


def gen_options(kind: int, scale: int, seed: int) -> GenOptions:
    """The library's defaults of a generator (warpmatch_gen_options_init)."""
    return _versioned_defaults(GenOptions, "warpmatch_gen_options_init", kind, scale, seed)


def orbit_options() -> OrbitOptions:
    """The library's default orbit options (warpmatch_orbit_options_init)."""
    return _versioned_defaults(OrbitOptions, "warpmatch_orbit_options_init")


def randomize_options() -> RandomizeOptions:
    """The library's default randomisation (warpmatch_randomize_options_init)."""
    return _versioned_defaults(RandomizeOptions, "warpmatch_randomize_options_init")


def significance_options() -> SignificanceOptions:
    """The library's default significance options (warpmatch_significance_options_init)."""
    return _versioned_defaults(SignificanceOptions, "warpmatch_significance_options_init")


def directed_motif_options() -> DirectedMotifOptions:
    """The library's default directed motif options (warpmatch_directed_motif_options_init)."""
    return _versioned_defaults(DirectedMotifOptions, "warpmatch_directed_motif_options_init")


def bfs_options() -> BfsOptions:
    """The library's default search options (warpmatch_bfs_options_init)."""
    return _versioned_defaults(BfsOptions, "warpmatch_bfs_options_init")


def match_result() -> MatchResult:
    """A zeroed result whose ``size`` is this package's."""
    r = MatchResult()
    r.size = ctypes.sizeof(MatchResult)
    return r
