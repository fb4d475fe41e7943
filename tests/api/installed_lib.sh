#!/usr/bin/env bash
# The installed library as its users see it: `cmake --install` of the build
# folder BUILD into a temporary prefix, then tests/api/api_app.c built against it
# with `cc app.c $(pkg-config --cflags --libs warpmatch)` (the shared library,
# run with LD_LIBRARY_PATH), with `pkg-config --static` (the static library:
# Libs.private and Requires.private must be complete), and through
# find_package(warpmatch) (tests/api/find_package).  warpmatch.h must also
# compile as C++.  A build with MPI (pkg-config's has_mpi) installs
# warpmatch_mpi.h, and tests/api/api_mpi_app.c must build against it with
# mpicc; one without installs no such header.  Usage: installed_lib.sh BUILD
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build="$(cd "${1:?usage: installed_lib.sh BUILD}" && pwd)"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/wm-installed.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"
cc="${CC:-cc}"

step() { echo "installed_lib: $*"; }

step "cmake --install into $prefix"
cmake --install "$build" --prefix "$prefix" >"$tmp/install.log"
pc="$(find "$prefix" -name warpmatch.pc -print -quit)"
[[ -n $pc ]] || { echo "installed_lib: no warpmatch.pc installed" >&2; exit 1; }
libdir="$(dirname "$(dirname "$pc")")"
export PKG_CONFIG_PATH="$(dirname "$pc")"
for f in "$prefix/include/warpmatch.h" "$libdir/libwarpmatch.a" "$libdir/libwarpmatch.so" \
         "$libdir/cmake/warpmatch/warpmatchConfig.cmake"; do
  [[ -e $f ]] || { echo "installed_lib: missing $f" >&2; exit 1; }
done

# The graph api_app.c knows, as a file: a 4-clique 0-1-2-3 with a tail 3-4-5.
printf '# K4 with a tail\n0 1\n0 2\n0 3\n1 2\n1 3\n2 3\n3 4\n4 5\n' >"$tmp/g.txt"

step "pkg-config, shared: $(pkg-config --cflags --libs warpmatch)"
# shellcheck disable=SC2046 # pkg-config's flags are words
"$cc" -std=c11 -Wall -Wextra -Werror -pedantic "$here/api_app.c" -o "$tmp/app" $(pkg-config --cflags --libs warpmatch)
LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$tmp/app" "$tmp/g.txt"

static_libs="$(pkg-config --static --libs warpmatch | sed 's/-lwarpmatch\b/-l:libwarpmatch.a/')"
step "pkg-config, static: $static_libs"
# shellcheck disable=SC2046,SC2086
"$cc" -std=c11 "$here/api_app.c" -o "$tmp/app-static" $(pkg-config --cflags warpmatch) $static_libs
if ldd "$tmp/app-static" | grep -q libwarpmatch; then
  echo "installed_lib: the static build links libwarpmatch.so" >&2
  exit 1
fi
"$tmp/app-static" "$tmp/g.txt"

if command -v c++ >/dev/null; then
  step "warpmatch.h as C++"
  # shellcheck disable=SC2046
  echo '#include <warpmatch.h>
int main() { warpmatch_context *c = nullptr; return warpmatch_context_create(&c); }' |
    c++ -x c++ -std=c++11 -fsyntax-only -Wall -Werror $(pkg-config --cflags warpmatch) -
fi

# One version (CMakeLists.txt's project()): the header's, the library's and pkg-config's agree.
version="$(pkg-config --modversion warpmatch)"
step "version $version"
# shellcheck disable=SC2046
printf '#include <stdio.h>\n#include <warpmatch.h>\nint main(void) { printf("%%s %%s\\n", WARPMATCH_VERSION_STRING, warpmatch_version()); return 0; }\n' |
  "$cc" -std=c11 -x c - -o "$tmp/version" $(pkg-config --cflags --libs warpmatch)
got="$(LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$tmp/version")"
[[ $got == "$version $version" ]] || { echo "installed_lib: header and library say '$got', pkg-config '$version'" >&2; exit 1; }

has_mpi="$(pkg-config --variable=has_mpi warpmatch)"
if [[ $has_mpi == 1 ]]; then
  step "warpmatch_mpi.h with mpicc"
  # shellcheck disable=SC2046
  "${MPICC:-mpicc}" -std=c11 -Wall -Wextra -Werror "$here/api_mpi_app.c" -o "$tmp/mpi-app" \
    $(pkg-config --cflags --libs warpmatch)
elif [[ $has_mpi == 0 ]]; then
  [[ ! -e $prefix/include/warpmatch_mpi.h ]] || { echo "installed_lib: warpmatch_mpi.h without MPI" >&2; exit 1; }
else
  echo "installed_lib: warpmatch.pc has no has_mpi" >&2
  exit 1
fi

step "find_package(warpmatch $version)"
cmake -S "$here/find_package" -B "$tmp/user" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
  -DWM_WANT_VERSION="$version" \
  >"$tmp/user.log" || { cat "$tmp/user.log"; exit 1; }
cmake --build "$tmp/user" >>"$tmp/user.log" || { cat "$tmp/user.log"; exit 1; }
"$tmp/user/app_shared" "$tmp/g.txt"
"$tmp/user/app_static" "$tmp/g.txt"
step "ok"
