"""The ctypes mirror (warpmatch/_lib.py) against the C header it mirrors,
api/warpmatch.h, read from the checkout: every limit the library answers the
header's number, every mirrored struct the same fields in the same order, and
the version the one CMakeLists.txt sets.  A change on one side only fails here rather than
misreading memory or refusing the wrong values."""

from __future__ import annotations

import ctypes
import re
from pathlib import Path

import pytest

import warpmatch
from warpmatch import _lib

ROOT = Path(__file__).resolve().parents[2]
HEADER = ROOT / "api" / "warpmatch.h"

pytestmark = pytest.mark.skipif(not HEADER.exists(), reason="needs the checkout's api/warpmatch.h")


def _header() -> str:
    text = HEADER.read_text()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def _defines(text: str) -> dict[str, int]:
    out = {}
    for name, value in re.findall(r"#define\s+(WARPMATCH_\w+)\s+([^\n]+)", text):
        value = value.strip()
        if re.fullmatch(r"[0-9()<\s]+", value):
            out[name] = int(eval(value, {"__builtins__": {}}))  # integers and shifts only
    return out


def test_limits_are_the_headers() -> None:
    """The library answers every limit of the header (warpmatch_limit), with the
    header's number, and the package's constants are the library's answers."""
    defines = _defines(_header())
    every = {n: v for n, v in defines.items() if re.match(r"WARPMATCH_(GPU_|GEN_)?MAX_", n)}
    assert set(_lib.LIMITS) == set(every), "a limit of the header that the library does not answer (or the other way)"
    for name, value in every.items():
        assert _lib.LIMITS[name] == value, f"the library's {name} is not the header's"
        py_name = name.removeprefix("WARPMATCH_")
        if hasattr(_lib, py_name):
            assert getattr(_lib, py_name) == value, f"_lib.{py_name} is not {name}"


def test_match_option_ranges_are_the_headers() -> None:
    """The option table's ranges end at the header's limits."""
    defines = _defines(_header())
    hi = {
        "gpus": "WARPMATCH_MAX_GPUS",
        "gpu_chunk": "WARPMATCH_GPU_MAX_CHUNK",
        "gpu_unroll": "WARPMATCH_GPU_MAX_UNROLL",
        "gpu_blocks": "WARPMATCH_GPU_MAX_BLOCKS",
        "gpu_warps": "WARPMATCH_GPU_MAX_WARPS",
    }
    assert set(_lib.MATCH_OPTION_RANGES) == set(hi)
    fields = _fields(_header(), "warpmatch_match_options")
    for field, (option, lo, top) in _lib.MATCH_OPTION_RANGES.items():
        assert field in fields, f"{field} is not a field of warpmatch_match_options"
        assert option and lo == 1 and top == defines[hi[field]], field


def _fields(text: str, struct: str) -> list[str]:
    body = re.search(rf"typedef struct {struct} \{{(.*?)\}} {struct};", text, flags=re.S)
    assert body, f"{struct} not in the header"
    names = []
    for decl in body.group(1).split(";"):
        decl = decl.strip()
        if not decl:
            continue
        # "int a, b" / "const int32_t *labels" / "char launch[384]" / "uint64_t max_degree, min_degree"
        first, *more = decl.split(",")
        names.append(re.findall(r"(\w+)\s*(?:\[[^\]]*\])*\s*$", first)[0])
        names += [re.findall(r"(\w+)\s*(?:\[[^\]]*\])*\s*$", m)[0] for m in more]
    return names


@pytest.mark.parametrize(
    "struct,mirror",
    [
        ("warpmatch_load_options", _lib.LoadOptions),
        ("warpmatch_count_options", _lib.CountOptions),
        ("warpmatch_count_result", _lib.CountResult),
        ("warpmatch_match_options", _lib.MatchOptions),
        ("warpmatch_match_result", _lib.MatchResult),
        ("warpmatch_motif", _lib.Motif),
        ("warpmatch_bfs_result", _lib.BfsResult),
        ("warpmatch_option_info", _lib.OptionInfo),
        ("warpmatch_gen_options", _lib.GenOptions),
        ("warpmatch_orbit_options", _lib.OrbitOptions),
        ("warpmatch_orbit_result", _lib.OrbitResult),
        ("warpmatch_randomize_options", _lib.RandomizeOptions),
        ("warpmatch_randomize_stats", _lib.RandomizeStats),
        ("warpmatch_significance_options", _lib.SignificanceOptions),
        ("warpmatch_significance_row", _lib.SignificanceRow),
        ("warpmatch_significance_result", _lib.SignificanceResult),
        ("warpmatch_directed_motif", _lib.DirectedMotif),
        ("warpmatch_directed_motif_options", _lib.DirectedMotifOptions),
        ("warpmatch_directed_motif_result", _lib.DirectedMotifResult),
    ],
)
def test_structs_match_the_header(struct: str, mirror: type[ctypes.Structure]) -> None:
    assert [f[0] for f in mirror._fields_] == _fields(_header(), struct)


def test_versioned_structs_say_so() -> None:
    """The library's _init writes the size it was built with: the mirror's."""
    assert _lib.match_options().size == ctypes.sizeof(_lib.MatchOptions)
    assert _lib.load_options().size == ctypes.sizeof(_lib.LoadOptions)
    assert _lib.gen_options(_lib.GEN_KINDS["grid"], 10, 1).size == ctypes.sizeof(_lib.GenOptions)
    assert _lib.orbit_options().size == ctypes.sizeof(_lib.OrbitOptions)
    assert _lib.randomize_options().size == ctypes.sizeof(_lib.RandomizeOptions)
    assert _lib.significance_options().size == ctypes.sizeof(_lib.SignificanceOptions)
    assert _lib.directed_motif_options().size == ctypes.sizeof(_lib.DirectedMotifOptions)
    room = ctypes.create_string_buffer(ctypes.sizeof(_lib.LoadOptions) + 64)
    _lib.lib.warpmatch_load_options_init(room)
    assert ctypes.c_size_t.from_buffer(room).value == ctypes.sizeof(_lib.LoadOptions)


def test_generator_kinds_are_the_headers() -> None:
    kinds = {name: int(v) for name, v in re.findall(r"WARPMATCH_GEN_(\w+) = (\d+)", _header())}
    assert {k.replace("-", "_").upper(): v for k, v in _lib.GEN_KINDS.items()} == kinds


def test_version_is_the_projects() -> None:
    cmake = (ROOT / "CMakeLists.txt").read_text()
    project = re.search(r"project\(warpmatch\s+VERSION\s+([0-9]+\.[0-9]+\.[0-9]+)", cmake)
    assert project, "project(warpmatch VERSION x.y.z) not in CMakeLists.txt"
    assert warpmatch.__version__ == project.group(1)
