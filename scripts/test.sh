#!/usr/bin/env bash
# Builds warpmatch and runs every test, in five stages that each announce
# themselves and their result (scripts/stage.sh: a line every 10 s while a
# stage is silent), then a summary:
#   build      scripts/setup.sh: configure and compile (Release) into the build folder
#   ctest      every Criterion suite and script test; GPU suites report Skipped
#              without a CUDA device, mpi_cli (label mpi) runs where the build found MPI
#   fuzz       every input reader under libFuzzer with ASan and UBSan for
#              WM_FUZZ_SECONDS each (default 15; scripts/fuzz.sh); skipped,
#              with the reason, where clang's libFuzzer is missing;
#              WM_SKIP_FUZZ=1 skips it
#   emulators  the GPU kernels on the CPU emulator (scripts/emu-smoke.sh);
#              WM_SKIP_EMU=1 skips them
#   python     the package installed into a virtual environment in the build
#              folder (python-venv/; pip builds libwarpmatch.so again through
#              scikit-build-core, in python-build/, for the CPU only: the
#              build stage compiled the CUDA code already, and compiling it
#              again took 224 of the package's 250 s on two cores;
#              WM_PYTHON_CUDA=1 builds it with CUDA) with pytest, numpy,
#              networkx, scipy and igraph (the directed motifs' reference) from PyPI,
#              then python/tests against it;
#              WM_SKIP_PYTHON=1 skips it, WM_PYTHON names the interpreter
# Exits non-zero when the build or any test fails.  WM_BUILD_DIR picks the
# build folder (default: build/); each stage's log is in its logs/ folder.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${WM_BUILD_DIR:-$repo/build}"
logs="$build/logs"
STAGE_PREFIX=test
# shellcheck source=scripts/stage.sh
. "$repo/scripts/stage.sh"

status=0 passed=0 failed=0 skips=0
summary=()
t_all=$SECONDS
# record NAME RC T0: a summary row for a stage that ran; skipped NAME WHY: one that did not.
record() {
  local word=passed
  if (($2 == 0)); then passed=$((passed + 1)); else word="FAILED (exit $2)" status=1 failed=$((failed + 1)); fi
  summary+=("$(printf '%-10s %-18s %5d s' "$1" "$word" $((SECONDS - $3)))")
}
skipped() { summary+=("$(printf '%-10s skipped (%s)' "$1" "$2")"); skips=$((skips + 1)); }
print_summary() {
  echo "test: summary"
  printf '  %s\n' "${summary[@]}"
  printf '  %-10s %-18s %5d s\n' total "$( ((status == 0)) && echo passed || echo FAILED)" $((SECONDS - t_all))
  echo "stages: $passed passed, $failed failed, $skips skipped"
}

t0=$SECONDS rc=0
stage build "$logs/build.log" env WM_BUILD_DIR="$build" bash "$repo/scripts/setup.sh" || rc=$?
record build "$rc" "$t0"
if ((rc != 0)); then print_summary; exit 1; fi

t0=$SECONDS rc=0
stage ctest "$logs/ctest.log" ctest --test-dir "$build" --output-on-failure -j2 || rc=$?
record ctest "$rc" "$t0"

if [[ "${WM_SKIP_FUZZ:-0}" == 1 ]]; then
  skipped fuzz "WM_SKIP_FUZZ=1"
elif ! why=$(bash "$repo/scripts/fuzz.sh" --check); then
  skipped fuzz "$why"
else
  t0=$SECONDS rc=0
  stage fuzz "$logs/fuzz.log" env WM_BUILD_DIR="$build" \
    bash "$repo/scripts/fuzz.sh" --seconds "${WM_FUZZ_SECONDS:-15}" || rc=$?
  record fuzz "$rc" "$t0"
fi

if [[ "${WM_SKIP_EMU:-0}" == 1 ]]; then
  skipped emulators "WM_SKIP_EMU=1"
else
  t0=$SECONDS rc=0
  stage emulators "$logs/emulators.log" env WM_EMU_BUILD="$build/emu-smoke" \
    bash "$repo/scripts/emu-smoke.sh" || rc=$?
  record emulators "$rc" "$t0"
fi

# python_stage: the virtual environment, the package installed from the
# checkout, then its tests against the installed package and its own library.
python_venv() {
  local python="${WM_PYTHON:-python3}" venv=$1
  [[ -x "$venv/bin/python" ]] && return 0
  "$python" -m venv "$venv" && return 0
  echo "test: cannot make a virtual environment with $python; install python3 and" \
       "python3-venv, or set WM_SKIP_PYTHON=1 to skip the Python stage" >&2
  return 1
}
python_install() {
  local venv=$1
  "$venv/bin/python" -m pip install --upgrade pip &&
    "$venv/bin/python" -m pip install pytest numpy networkx scipy igraph pandas matplotlib nbclient nbformat ipykernel &&
    # -v: the build's own progress lines, which the stage's ticker shows
    "$venv/bin/python" -m pip install -v --force-reinstall --no-deps \
      --config-settings=build-dir="$build/python-build" \
      -C cmake.define.WM_ENABLE_CUDA="$([[ ${WM_PYTHON_CUDA:-0} == 1 ]] && echo ON || echo OFF)" "$repo"
}
if [[ "${WM_SKIP_PYTHON:-0}" == 1 ]]; then
  skipped python "WM_SKIP_PYTHON=1"
else
  venv="$build/python-venv"
  t0=$SECONDS rc=0
  python_venv "$venv" || rc=$?
  ((rc != 0)) || stage_quiet "python install" "$logs/python-install.log" python_install "$venv" || rc=$?
  ((rc != 0)) || stage pytest "$logs/pytest.log" \
    env -u WARPMATCH_LIBRARY -C "$repo" "$venv/bin/python" -m pytest -q python/tests || rc=$?
  record python "$rc" "$t0"
fi
print_summary
exit "$status"
