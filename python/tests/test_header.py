"""The ctypes mirror (warpmatch/_lib.py) against the C header it mirrors,
api/warpmatch.h, read from the checkout: every limit the same number, every
mirrored struct the same fields in the same order, and the version the one
CMakeLists.txt sets.  A change on one side only fails here rather than
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


LIMITS = {
    "WARPMATCH_MAX_THREADS": "MAX_THREADS",
    "WARPMATCH_MAX_GPUS": "MAX_GPUS",
    "WARPMATCH_MAX_PATTERN_VERTICES": "MAX_PATTERN_VERTICES",
    "WARPMATCH_MAX_TRIALS": "MAX_TRIALS",
    "WARPMATCH_GPU_MAX_TABLE_WORDS": "GPU_MAX_TABLE_WORDS",
    "WARPMATCH_GPU_MAX_UNROLL": "GPU_MAX_UNROLL",
    "WARPMATCH_GPU_MAX_WARPS": "GPU_MAX_WARPS",
    "WARPMATCH_GPU_MAX_BLOCKS": "GPU_MAX_BLOCKS",
    "WARPMATCH_GPU_MAX_CHUNK": "GPU_MAX_CHUNK",
    "WARPMATCH_MAX_STRUCT_SIZE": "MAX_STRUCT_SIZE",
}


def test_limits_match_the_header() -> None:
    defines = _defines(_header())
    every = {n for n in defines if re.match(r"WARPMATCH_(GPU_)?MAX_", n)}
    assert every == set(LIMITS), "a limit of the header that the mirror lacks (or the other way)"
    for c_name, py_name in LIMITS.items():
        assert getattr(_lib, py_name) == defines[c_name], f"{py_name} is not {c_name}"


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
        names.append(re.findall(r"(\w+)\s*(?:\[[^\]]*\])?\s*$", first)[0])
        names += [re.findall(r"(\w+)\s*(?:\[[^\]]*\])?\s*$", m)[0] for m in more]
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
        ("warpmatch_orbit_options", _lib.OrbitOptions),
        ("warpmatch_orbit_result", _lib.OrbitResult),
    ],
)
def test_structs_match_the_header(struct: str, mirror: type[ctypes.Structure]) -> None:
    assert [f[0] for f in mirror._fields_] == _fields(_header(), struct)


def test_versioned_structs_say_so() -> None:
    """The library's _init writes the size it was built with: the mirror's."""
    assert _lib.match_options().size == ctypes.sizeof(_lib.MatchOptions)
    assert _lib.load_options().size == ctypes.sizeof(_lib.LoadOptions)
    assert _lib.orbit_options().size == ctypes.sizeof(_lib.OrbitOptions)
    room = ctypes.create_string_buffer(ctypes.sizeof(_lib.LoadOptions) + 64)
    _lib.lib.warpmatch_load_options_init(room)
    assert ctypes.c_size_t.from_buffer(room).value == ctypes.sizeof(_lib.LoadOptions)


def test_version_is_the_projects() -> None:
    cmake = (ROOT / "CMakeLists.txt").read_text()
    project = re.search(r"project\(warpmatch\s+VERSION\s+([0-9]+\.[0-9]+\.[0-9]+)", cmake)
    assert project, "project(warpmatch VERSION x.y.z) not in CMakeLists.txt"
    assert warpmatch.__version__ == project.group(1)
