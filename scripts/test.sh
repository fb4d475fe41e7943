#!/usr/bin/env bash
# Builds warpmatch and runs every test suite with ctest.
#
# GPU suites report "Skipped" on a machine without a CUDA device.  Exits
# non-zero when the build or any test fails.  WM_BUILD_DIR picks the build
# folder (default: build/).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${WM_BUILD_DIR:-$repo/build}"

WM_BUILD_DIR="$build" bash "$repo/scripts/setup.sh"
ctest --test-dir "$build" --output-on-failure -j2
