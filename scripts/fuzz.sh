#!/usr/bin/env bash
# Fuzzes the input readers with libFuzzer, AddressSanitizer and
# UndefinedBehaviorSanitizer: builds the targets of tests/fuzz/ with clang
# (tests/fuzz/CMakeLists.txt, into BUILD/fuzz), then runs each for a bounded
# time from its seed corpus, tests/fuzz/corpus/fuzz_<target>.
#
#   scripts/fuzz.sh [--seconds S] [TARGET...]   S seconds each (default 15);
#                                               targets: edgelist mtx wmg ...
#                                               (default: all)
#   scripts/fuzz.sh --check                     whether clang's libFuzzer is
#                                               here; says what is missing
#   scripts/fuzz.sh --list                      the targets
#
# Prints "N runs, no crash" per target; WM_FUZZ_JOBS targets run at a time
# (default: the cores).  A crash, leak, sanitizer report,
# broken invariant or hang (10 s on one input) fails the run; the input
# that caused it is kept in BUILD/fuzz/crashes/<target>/ (until the next run
# of that target) and printed in base64 when small, and the target's log is
# BUILD/fuzz/logs/<target>.log.
# Inputs libFuzzer finds that reach new code go to BUILD/fuzz/corpus/, not
# into the tree; replay one with BUILD/tests/fuzz_<target>_replay FILE.
# WM_BUILD_DIR picks BUILD (default build/), CC the compiler (default clang).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${WM_BUILD_DIR:-$repo/build}/fuzz"
cc="${CC:-clang}"
[[ $cc == *clang* ]] || cc=clang
seconds=15
targets=()

all_targets() {
  local f
  for f in "$repo"/tests/fuzz/fuzz_*.c; do
    f=$(basename "$f" .c)
    [[ $f == fuzz_util ]] || echo "${f#fuzz_}"
  done
}

# check: prints what is missing and fails, or prints the compiler.
check() {
  local tmp rc=0
  if ! command -v "$cc" >/dev/null; then
    echo "no clang (Debian package clang)"
    return 1
  fi
  tmp=$(mktemp -d)
  printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { return d && n > 9; }\n' >"$tmp/t.c"
  printf '#include <omp.h>\nint main(void) { return omp_get_max_threads() < 1; }\n' >"$tmp/o.c"
  if ! "$cc" -fsanitize=fuzzer,address,undefined "$tmp/t.c" -o "$tmp/t" >/dev/null 2>&1; then
    echo "$cc cannot link libFuzzer with AddressSanitizer (Debian package libclang-rt-dev)"
    rc=1
  elif ! "$cc" -fopenmp "$tmp/o.c" -o "$tmp/o" >/dev/null 2>&1; then
    echo "$cc has no OpenMP runtime (Debian package libomp-dev)"
    rc=1
  else
    "$cc" --version | head -n 1
  fi
  rm -rf "$tmp"
  return "$rc"
}

while (($#)); do
  case $1 in
    --seconds) seconds=${2:?--seconds needs a number}; shift 2 ;;
    --check) check; exit ;;
    --list) all_targets; exit 0 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "fuzz: unknown option $1" >&2; exit 2 ;;
    *) targets+=("${1#fuzz_}"); shift ;;
  esac
done
[[ $seconds =~ ^[1-9][0-9]*$ ]] || { echo "fuzz: --seconds takes a whole number of seconds > 0" >&2; exit 2; }
((${#targets[@]})) || mapfile -t targets < <(all_targets)
for t in "${targets[@]}"; do
  [[ -f $repo/tests/fuzz/fuzz_$t.c ]] || { echo "fuzz: no target '$t' (scripts/fuzz.sh --list)" >&2; exit 2; }
done
if ! why=$(check); then
  echo "fuzz: cannot build the fuzz targets: $why" >&2
  exit 1
fi

echo "fuzz: building ${#targets[@]} targets with $why into $build"
mkdir -p "$build/logs"
if ! { CC=$cc cmake -S "$repo/tests/fuzz" -B "$build" -DCMAKE_BUILD_TYPE=Debug &&
       cmake --build "$build" -j "$(nproc)"; } >"$build/logs/build.log" 2>&1; then
  tail -n 40 "$build/logs/build.log"
  echo "fuzz: the build failed; log $build/logs/build.log" >&2
  exit 1
fi

# fuzz_one T: runs target T; prints its line; fails on a finding.
fuzz_one() {
  local t=$1 exe="$build/fuzz_$1" log="$build/logs/$1.log" work="$build/corpus/$1" crashes="$build/crashes/$1"
  rm -rf "$crashes" # what is there is this run's
  mkdir -p "$work" "$crashes"
  local seeds=("$repo/tests/fuzz/corpus/fuzz_$t")
  local rc=0 t0=$SECONDS
  # Sanitizer reports abort; libFuzzer catches that, saves the input and
  # exits non-zero.  One OpenMP thread unless OMP_NUM_THREADS says otherwise:
  # the readers go parallel from 65,536 items, which few inputs reach, and
  # starting a team for each input's small regions halves the runs.
  OMP_NUM_THREADS=${OMP_NUM_THREADS:-1} \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ASAN_OPTIONS=detect_leaks=1 \
    "$exe" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$crashes/" "$work" "${seeds[@]}" >"$log" 2>&1 || rc=$?
  local runs inputs
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  inputs=$(find "$work" -type f | wc -l)
  if ((rc == 0)); then
    printf 'fuzz: %-13s %9s runs in %3d s, no crash (corpus: %d seeds, %d found)\n' "$t" "${runs:-?}" \
      $((SECONDS - t0)) "$(find "${seeds[@]}" -type f | wc -l)" "$inputs"
    return 0
  fi
  echo "fuzz: $t FAILED (exit $rc) after ${runs:-?} runs; log $log"
  grep -E '^(==[0-9]+==ERROR|SUMMARY|.*fuzz invariant broken|.*runtime error:|    #[0-9]+ )' "$log" | head -n 40 || true
  local f
  for f in "$crashes"/*; do
    [[ -f $f ]] || continue
    echo "fuzz: input kept as $f ($(stat -c %s "$f") bytes)"
    (($(stat -c %s "$f") <= 4096)) && echo "fuzz: base64: $(base64 -w0 "$f")"
  done
  return 1
}

# WM_FUZZ_JOBS targets at a time (default: one a core; each runs on one
# thread), their lines printed in the targets' order as each finishes.
jobs=${WM_FUZZ_JOBS:-$(nproc)}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "fuzz: WM_FUZZ_JOBS takes a whole number > 0" >&2; exit 2; }
status=0 next=0
pids=() outs=()
for t in "${targets[@]}"; do
  outs+=("$build/logs/$t.line")
  fuzz_one "$t" >"${outs[-1]}" 2>&1 &
  pids+=($!)
  while ((${#pids[@]} - next >= jobs)) || { ((${#pids[@]} == ${#targets[@]})) && ((next < ${#pids[@]})); }; do
    wait "${pids[next]}" || status=1
    cat "${outs[next]}"
    next=$((next + 1))
  done
done
exit "$status"
