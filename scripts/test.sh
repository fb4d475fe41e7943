#!/usr/bin/env bash
# Builds warpmatch and runs every test suite with ctest, then the GPU
# kernels on the CPU emulator (scripts/emu-smoke.sh; WM_SKIP_EMU=1 skips
# them), then the Python package's tests.
#
# GPU suites report "Skipped" on a machine without a CUDA device.  Where the
# build found MPI, ctest also runs mpi_cli (label mpi): the program under
# mpirun against one process, on this machine.  Exits
# non-zero when the build or any test fails.  WM_BUILD_DIR picks the build
# folder (default: build/).
#
# The Python stage makes a virtual environment in the build folder
# (python-venv/), installs the package from the checkout with pip (which
# builds libwarpmatch.so again through scikit-build-core, in python-build/)
# together with pytest, numpy, networkx and scipy from PyPI, and runs
# python/tests against the installed package.  WM_SKIP_PYTHON=1 skips it;
# WM_PYTHON names the interpreter (default: python3).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${WM_BUILD_DIR:-$repo/build}"

WM_BUILD_DIR="$build" bash "$repo/scripts/setup.sh"
status=0
ctest --test-dir "$build" --output-on-failure -j2 || status=$?

# ---- The GPU kernels on the CPU emulator (short runs; the GPU suites above
# report Skipped without a device)
if [[ "${WM_SKIP_EMU:-0}" == 1 ]]; then
  echo "test: emulator stage skipped (WM_SKIP_EMU=1)" >&2
else
  WM_EMU_BUILD="$build/emu-smoke" bash "$repo/scripts/emu-smoke.sh" || status=1
fi

# ---- Python package
if [[ "${WM_SKIP_PYTHON:-0}" == 1 ]]; then
  echo "test: Python stage skipped (WM_SKIP_PYTHON=1)" >&2
  exit "$status"
fi
python="${WM_PYTHON:-python3}"
venv="$build/python-venv"
if [[ ! -x "$venv/bin/python" ]]; then
  if ! "$python" -m venv "$venv"; then
    echo "test: cannot make a virtual environment with $python; install python3 and" \
         "python3-venv, or set WM_SKIP_PYTHON=1 to skip the Python stage" >&2
    exit 1
  fi
fi
echo "test: installing the Python package into $venv" >&2
"$venv/bin/python" -m pip install -q --upgrade pip
"$venv/bin/python" -m pip install -q pytest numpy networkx scipy
"$venv/bin/python" -m pip install -q --force-reinstall --no-deps \
  --config-settings=build-dir="$build/python-build" "$repo"
# The tests run against the installed package and its own library.
(cd "$repo" && env -u WARPMATCH_LIBRARY "$venv/bin/python" -m pytest -q python/tests) || status=$?
exit "$status"
