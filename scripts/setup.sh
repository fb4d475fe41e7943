#!/usr/bin/env bash
# Builds warpmatch (Release) into ${WM_BUILD_DIR:-build} with every core.
#
# Missing build dependencies are installed with apt-get when that is possible
# (running as root, or sudo is available without a password); otherwise the
# script lists what to install and stops.  nvcc is optional: without it the
# program is built for the CPU only.  The other scripts source or run this one
# first, so it is quick when the build is already up to date.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${WM_BUILD_DIR:-$repo/build}"
packages=(cmake gcc g++ make pkg-config libcriterion-dev libxxhash-dev zlib1g-dev)

# Prints the packages of $packages that dpkg does not list as installed.
missing_packages() {
  local p
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || echo "$p"
  done
}

# Without dpkg (not Debian/Ubuntu) we can only look for the tools and
# libraries themselves.
missing_tools() {
  local t
  for t in cmake gcc make pkg-config; do command -v "$t" >/dev/null || echo "$t"; done
  if command -v pkg-config >/dev/null; then
    pkg-config --exists criterion || echo "criterion (libcriterion-dev)"
    pkg-config --exists libxxhash || echo "xxhash (libxxhash-dev)"
    pkg-config --exists zlib || echo "zlib (zlib1g-dev)"
  fi
}

install_deps() {
  local need=()
  if ! command -v dpkg-query >/dev/null; then
    mapfile -t need < <(missing_tools)
    if ((${#need[@]})); then
      echo "setup: please install: ${need[*]}" >&2
      exit 1
    fi
    return
  fi
  mapfile -t need < <(missing_packages)
  ((${#need[@]})) || return 0
  local sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
      sudo=(sudo)
    else
      echo "setup: missing packages: ${need[*]}" >&2
      echo "setup: install them with: sudo apt-get install ${need[*]}" >&2
      exit 1
    fi
  fi
  echo "setup: installing ${need[*]}" >&2
  "${sudo[@]}" apt-get update -q
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}"
}

install_deps
jobs="$(nproc 2>/dev/null || echo 2)"
cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j "$jobs"
echo "setup: built $build/warpmatch" >&2
