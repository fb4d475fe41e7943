#!/usr/bin/env bash
# The warpmatch demo: builds the program, generates a Graph500 Kronecker graph
# (scale 16: 65,536 vertices, about a million edges), then describes it,
# counts its triangles and runs a validated BFS.  count and bfs use the GPU
# when one is present and the CPU otherwise.  Any failing step stops the demo
# with its exit code.
#
#   WM_DEMO_SCALE=18 bash scripts/demo.sh     # a bigger graph
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${WM_BUILD_DIR:-$repo/build}"
scale="${WM_DEMO_SCALE:-16}"

WM_BUILD_DIR="$build" bash "$repo/scripts/setup.sh"
wm="$build/warpmatch"
graph="$build/demo/kron-$scale-seed1.wmg"
mkdir -p "$build/demo"

# Prints the command, runs it, and names it if it fails.
step() {
  echo
  echo "\$ warpmatch $*"
  local rc=0
  "$wm" "$@" || rc=$?
  if ((rc != 0)); then
    echo "demo: 'warpmatch $*' failed with exit code $rc" >&2
    exit "$rc"
  fi
}

step gen kron --scale "$scale" --seed 1 --output "$graph"
step info "$graph"
step count "$graph" --pattern triangle
step bfs "$graph" --source 0 --validate
echo
echo "demo: done (graph kept at $graph)"
