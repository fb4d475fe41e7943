#!/usr/bin/env bash
# The program under mpirun against the same program run as one process:
# counts (the triangle, the 4-cycle and 5-vertex patterns, by plan and by
# formula), motifs of sizes 4 and 5, orbits of sizes 4 and 5, and BFS levels and parents (symmetric
# and directed, validated), with one and two threads a rank, must be equal
# for 1, 2 and 3 ranks; a rank whose graph load fails (WM_MPI_FAIL_RANK,
# the fault injection) must make the whole job exit non-zero within a
# timeout, with rank 0's message naming it; a rank that stops answering
# (WM_MPI_STOP_RANK) must end the job within WM_MPI_TIMEOUT and a margin,
# naming it, while long work under a short timeout must not; a rank given
# SIGINT alone must end the job within seconds, leaving no output file; list and bfs --ablation must
# refuse several ranks; where two GPUs are usable, count and motifs on GPU
# ranks must equal one process on one GPU, and where NCCL is there too, BFS
# over the GPUs of 1 and 2 ranks must give the levels of one process on the
# CPU and on a GPU (validated), and a failing GPU of rank 1 must end both
# ranks with an error naming it.  Without them those cases print SKIPPED.
# Usage: mpi_cli.sh WARPMATCH MPIEXEC DATASETS
set -euo pipefail

bin="${1:?usage: mpi_cli.sh WARPMATCH MPIEXEC DATASETS}"
mpiexec="${2:?}"
datasets="${3:?}"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/wm-mpi.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
# CI runs as root on one small machine: allow both, one thread per rank.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1 WM_PROGRESS=0
# threads=N before a case: N threads per rank, so that threads claim work concurrently
mpi() {
  local np=$1; shift
  OMP_NUM_THREADS=${threads:-1} timeout 60 "$mpiexec" --oversubscribe --allow-run-as-root -np "$np" "$bin" "$@"
}

failures=0
fail() { echo "mpi_cli: FAIL: $*" >&2; failures=$((failures + 1)); }
step() { echo "mpi_cli: $*"; }

# The figures of a JSON answer that must not depend on the ranks.
answer() { grep -o '"\(count\|total\|reached\|per_level\|motifs\|per_vertex\)":\(\[[^]]*\]\|[^,]*\)' | tr -d '\n'; }

# same DESCRIPTION ARGS...: the one-process answer, then 1, 2 and 3 ranks.
same() {
  local what=$1; shift
  local want got
  want="$("$bin" "$@" --json | answer)" || { fail "$what: one process failed"; return; }
  [[ -n $want ]] || { fail "$what: no answer"; return; }
  for np in 1 2 3; do
    got="$(mpi "$np" "$@" --json | answer)" || { fail "$what: $np ranks failed"; continue; }
    [[ $got == "$want" ]] || fail "$what: $np ranks gave $got, one process $want"
  done
  step "$what: equal for 1, 2 and 3 ranks"
}

# same_file DESCRIPTION ARGS...: the file one process writes (--output)
# against the files of 1, 2 and 3 ranks (rank 0 writes it).
same_file() {
  local what=$1; shift
  "$bin" "$@" --output "$tmp/want.out" >/dev/null || { fail "$what: one process failed"; return; }
  for np in 1 2 3; do
    rm -f "$tmp/got.out"
    mpi "$np" "$@" --output "$tmp/got.out" >/dev/null || { fail "$what: $np ranks failed"; continue; }
    cmp -s "$tmp/want.out" "$tmp/got.out" || fail "$what: $np ranks wrote other counts than one process"
  done
  step "$what: equal for 1, 2 and 3 ranks"
}

step "generating a Kronecker graph (scale 9)"
"$bin" gen kron --scale 9 --seed 7 --output "$tmp/kron.wmg" --quiet >/dev/null
kron="$tmp/kron.wmg"
fb="$datasets/facebook_combined.txt"

same "kron house by plan" count "$kron" --pattern house --method enumerate
same "kron house by formula" count "$kron" --pattern house --method formula
same "kron tailed-triangle per vertex" count "$kron" --pattern tailed-triangle --method enumerate --per-vertex
same "kron motifs 4" motifs "$kron" --size 4
same "kron motifs 5" motifs "$kron" --size 5
same "kron motifs 4 by plans" motifs "$kron" --size 4 --method enumerate
threads=2 same "kron house by plan, 2 threads a rank" count "$kron" --pattern house --method enumerate
threads=2 same "kron motifs 5, 2 threads a rank" motifs "$kron" --size 5
"$bin" gen kron --scale 8 --seed 7 --output "$tmp/kron8.wmg" --quiet >/dev/null
same_file "kron-8 orbits 5" orbits "$tmp/kron8.wmg" --size 5
threads=2 same_file "kron-8 orbits 5, 2 threads a rank" orbits "$tmp/kron8.wmg" --size 5
same_file "kron-8 orbits 4 (each rank's own)" orbits "$tmp/kron8.wmg" --size 4
"$bin" gen kron --scale 10 --seed 3 --output "$tmp/kron10.wmg" --quiet >/dev/null
threads=2 same_file "kron-10 orbits 5 (a hub's top edges over the ranks), 2 threads a rank" orbits "$tmp/kron10.wmg" --size 5
WM_ORBIT5_WALK=1 same_file "kron-8 orbits 5 by the walk over 4-vertex sets" orbits "$tmp/kron8.wmg" --size 5
same "kron bfs" bfs "$kron" --source 1 --validate
threads=2 same "kron bfs, 2 threads a rank" bfs "$kron" --source 1 --validate
# More loops than the dispenser's window holds counters: every trial must
# still count the same after the counters are zeroed and reused.
"$bin" gen kron --scale 5 --seed 7 --output "$tmp/tiny.wmg" --quiet >/dev/null
same "tiny motifs 4, 1000 trials (counters reused)" motifs "$tmp/tiny.wmg" --size 4 --trials 1000
if [[ ! -r $fb ]]; then
  fail "$fb is missing (datasets/real of the checkout)"
else
  same "facebook triangle" count "$fb" --pattern triangle --no-cache
  same "facebook 4-cycle by formula" count "$fb" --pattern 4-cycle --no-cache
  same "facebook bfs" bfs "$fb" --source 0 --validate --no-cache
  same "facebook directed bfs" bfs "$fb" --source 0 --directed --validate --no-cache
  same "facebook bfs depth 2" bfs "$fb" --source 0 --max-depth 2 --no-cache
  # A text graph read under mpirun with its cache on: rank 0 parses it and
  # writes the .wmg beside it, the other ranks read that; the answer is the same.
  cp "$fb" "$tmp/fb.txt"
  want="$("$bin" count "$fb" --pattern triangle --no-cache --json | answer)"
  got="$(mpi 3 count "$tmp/fb.txt" --pattern triangle --json | answer)" || fail "cached text graph: 3 ranks failed"
  [[ $got == "$want" ]] || fail "cached text graph: 3 ranks gave $got, one process $want"
  [[ -f "$tmp/fb.txt.wmg" ]] || fail "cached text graph: no .wmg cache beside it after the run"
  step "a text graph under mpirun: the cache written once, the answer the same"
fi

# Per-vertex output files: levels and parents of the split search.
"$bin" bfs "$kron" --source 1 --output "$tmp/levels.1" >/dev/null
for np in 2 3; do
  mpi "$np" bfs "$kron" --source 1 --output "$tmp/levels.$np" --validate >/dev/null || fail "bfs --output: $np ranks failed"
  cmp -s "$tmp/levels.1" "$tmp/levels.$np" || fail "bfs --output: $np ranks wrote other levels"
  mpi "$np" bfs "$kron" --source 1 --output "$tmp/parents.$np" --write parents >/dev/null ||
    fail "bfs --write parents: $np ranks failed"
done
step "bfs levels files equal; parents written"

# A rank that fails to load stops every rank: non-zero status, one message.
for np_rank in "3 2" "2 0"; do
  read -r np rank <<<"$np_rank"
  status=0
  WM_MPI_FAIL_RANK=$rank mpi "$np" count "$kron" --pattern triangle >"$tmp/out" 2>"$tmp/err" || status=$?
  if ((status == 0 || status == 124)); then
    fail "a failing rank $rank of $np: status $status (0: not noticed, 124: hung)"
  elif ! grep -q "rank $rank of $np: .*fault injected" "$tmp/err"; then
    fail "a failing rank $rank of $np: no message naming it"; cat "$tmp/err" >&2
  fi
  [[ $(grep -c '^warpmatch:' "$tmp/err") == 1 ]] || fail "a failing rank $rank of $np: not one message"
done
status=0
WM_MPI_FAIL_RANK=1 mpi 3 bfs "$kron" --source 1 >/dev/null 2>"$tmp/err" || status=$?
((status != 0 && status != 124)) && grep -q "rank 1 of 3" "$tmp/err" || fail "bfs with a failing rank: status $status"
step "a failing rank ends the job with its message"

# A rank whose work fails after the others started theirs (they wait for it
# in a collective) ends the whole job: non-zero status, its message, no hang.
for cmd in "count $kron --pattern triangle" "motifs $kron --size 4" "orbits $tmp/kron8.wmg --size 5" "bfs $kron --source 1"; do
  status=0
  # shellcheck disable=SC2086 # cmd is a word list
  WM_MPI_FAIL_WORK_RANK=1 mpi 3 $cmd >/dev/null 2>"$tmp/err" || status=$?
  if ((status == 0 || status == 124)); then
    fail "${cmd%% *}: rank 1's work failing: status $status (0: not noticed, 124: hung)"
  elif ! grep -q "rank 1 of 3: .*fault injected" "$tmp/err"; then
    fail "${cmd%% *}: rank 1's work failing: no message naming it"; cat "$tmp/err" >&2
  fi
done
step "a rank failing mid-work ends the job with its message"

# Every rank failing mid-work (as all do when a GPU search fails): each
# reports its own error and the job ends normally, not through MPI_Abort.
status=0
WM_MPI_FAIL_WORK_RANK=all mpi 3 bfs "$kron" --source 1 >/dev/null 2>"$tmp/err" || status=$?
((status == 1)) || fail "every rank's work failing: status $status (1 wanted: no abort, no hang)"
for rank in 0 1 2; do
  grep -q "^warpmatch: rank $rank of 3: .*fault injected" "$tmp/err" || fail "every rank's work failing: no message of rank $rank"
done
grep -q "ending every rank" "$tmp/err" && fail "every rank's work failing: the job was aborted"
step "every rank failing mid-work: each reports, the job ends normally"

# SIGINT to one rank alone (rank 1 of 2, a second into orbits --size 5 of
# facebook, minutes of work): the program dies of it, removing its
# temporaries, and mpirun ends the job at once: a non-zero status that is
# not timeout's, within seconds, and neither the output file nor a
# temporary beside it.  (Through the library, tests/api/test_mpi_stop.c.)
if [[ -r $fb ]]; then
  mkdir "$tmp/sigint"
  status=0 start=$SECONDS
  OMP_NUM_THREADS=1 timeout -k 5 60 "$mpiexec" --oversubscribe --allow-run-as-root -np 2 bash -c \
    '[[ $OMPI_COMM_WORLD_RANK != 1 ]] || { sleep 1; kill -INT $$; } & exec "$@"' rank \
    "$bin" orbits "$fb" --size 5 --no-cache --output "$tmp/sigint/orbits.txt" >/dev/null 2>"$tmp/err" || status=$?
  took=$((SECONDS - start))
  if ((status == 0 || status == 124 || status == 137)); then
    fail "SIGINT to rank 1 of 2: status $status (0: not noticed, 124 and 137: hung)"
  elif ((took > 20)); then
    fail "SIGINT to rank 1 of 2: the job ended after $took s"
  elif [[ -n $(ls -A "$tmp/sigint") ]]; then
    fail "SIGINT to rank 1 of 2: left $(ls -A "$tmp/sigint")"
  else
    step "SIGINT to rank 1 of 2 in orbits --output: the job ended in $took s (status $status), no file left"
  fi
fi

# A rank that stops answering (WM_MPI_STOP_RANK: it raises SIGSTOP after
# the set-up) ends the job within WM_MPI_TIMEOUT and a margin for mpirun's
# start and end: non-zero status, a message naming it.  The stopped process
# says its pid, and is cleared away (SIGCONT, SIGKILL) whatever happened.
watch_timeout=3 margin=12
# a process of this program that is not yet dead (a zombie is: it waits to be reaped)
running_warpmatch() {
  local state
  state="$(ps -o stat= -p "$1" 2>/dev/null)" || return 1
  [[ $state != Z* && $(ps -o comm= -p "$1" 2>/dev/null) == warpmatch* ]]
}
for np_rank in "3 1" "2 0"; do
  read -r np rank <<<"$np_rank"
  status=0 start=$SECONDS
  WM_MPI_TIMEOUT=$watch_timeout WM_MPI_STOP_RANK=$rank timeout -k 5 $((watch_timeout + margin + 30)) \
    "$mpiexec" --oversubscribe --allow-run-as-root -np "$np" "$bin" count "$kron" --pattern triangle \
    >/dev/null 2>"$tmp/err" || status=$?
  took=$((SECONDS - start))
  pid="$(sed -n 's/^warpmatch: rank [0-9]* (pid \([0-9]*\)) stops itself.*/\1/p' "$tmp/err")"
  if [[ -n $pid ]] && running_warpmatch "$pid"; then
    kill -CONT "$pid" 2>/dev/null || true
    kill -KILL "$pid" 2>/dev/null || true
    fail "a stopped rank $rank of $np: its process $pid outlived the job"
  fi
  [[ -n $pid ]] || { fail "a stopped rank $rank of $np: it never stopped"; cat "$tmp/err" >&2; }
  if ((status == 0 || status >= 124)); then
    fail "a stopped rank $rank of $np: status $status (0: not noticed, 124 and up: hung, killed)"
  elif ((took > watch_timeout + margin)); then
    fail "a stopped rank $rank of $np: the job ended after $took s (timeout $watch_timeout s + $margin)"
  elif ! grep -q "^warpmatch: rank $rank of $np stopped answering (no word for [0-9]* s" "$tmp/err"; then
    fail "a stopped rank $rank of $np: no message naming it"; cat "$tmp/err" >&2
  fi
done
step "a stopped rank ends the job within WM_MPI_TIMEOUT ($watch_timeout s) + $margin s, its message naming it"
# The watch beats on a thread of its own: ranks computing for longer than
# the timeout are not accused, and the answer is the one process's.  The
# timeout leaves a beat seconds to be scheduled on a loaded 2-core machine
# (1 s was not enough there, with other builds running beside the test, nor
# 3 s at a load of 8: the ranks spin while they wait in collectives); the
# count still takes several times longer than it.
if [[ -r $fb ]]; then
  WM_MPI_TIMEOUT=5 same "facebook motifs 5, WM_MPI_TIMEOUT=5 (seconds of work a rank)" motifs "$fb" --size 5 --no-cache
fi
WM_MPI_TIMEOUT=0 same "kron house, WM_MPI_TIMEOUT=0 (no watch)" count "$kron" --pattern house --method enumerate
for bad in abc 0.5 -1 86401; do
  status=0
  WM_MPI_TIMEOUT=$bad mpi 2 count "$kron" --pattern triangle >/dev/null 2>"$tmp/err" || status=$?
  ((status == 2)) && grep -q "WM_MPI_TIMEOUT='$bad': expected seconds from 1 to 86400, or 0" "$tmp/err" ||
    fail "WM_MPI_TIMEOUT=$bad: status $status, $(head -n 1 "$tmp/err")"
done
step "WM_MPI_TIMEOUT out of range: usage error naming it"

status=0
mpi 2 list "$kron" --pattern triangle >/dev/null 2>"$tmp/err" || status=$?
((status == 2)) && grep -q "list does not run under mpirun" "$tmp/err" || fail "list under 2 ranks: status $status"
status=0
mpi 2 bfs "$kron" --source 1 --ablation >/dev/null 2>"$tmp/err" || status=$?
((status == 2)) && grep -q "ablation does not run under mpirun" "$tmp/err" || fail "bfs --ablation under 2 ranks: status $status"
step "list and bfs --ablation refuse several ranks"

# GPU ranks (count and motifs): a GPU each, the first level in windows
# handed out across the ranks.  Two ranks need two GPUs; elsewhere each
# rank must say that its GPU is missing.
gpus=0
command -v nvidia-smi >/dev/null && gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU') || true
# the ranks split CUDA_VISIBLE_DEVICES where it is set
if [[ -n ${CUDA_VISIBLE_DEVICES:-} ]] && (( $(tr ',' '\n' <<<"$CUDA_VISIBLE_DEVICES" | grep -c .) < gpus )); then
  gpus=$(tr ',' '\n' <<<"$CUDA_VISIBLE_DEVICES" | grep -c .)
fi
if ((gpus >= 2)) && "$bin" count "$kron" --pattern triangle --device gpu >/dev/null 2>&1; then
  same_gpu() {
    local what=$1; shift
    local want got
    want="$("$bin" "$@" --device gpu --json | answer)" || { fail "$what: one process failed"; return; }
    for np in 1 2; do
      got="$(mpi "$np" "$@" --device gpu --json | answer)" || { fail "$what: $np GPU ranks failed"; continue; }
      [[ $got == "$want" ]] || fail "$what: $np GPU ranks gave $got, one process $want"
    done
    step "$what: equal for 1 and 2 GPU ranks"
  }
  same_gpu "kron triangles on GPUs" count "$kron" --pattern triangle
  same_gpu "kron house on GPUs" count "$kron" --pattern house --method enumerate
  same_gpu "kron tailed-triangle per vertex on GPUs" count "$kron" --pattern tailed-triangle --method enumerate --per-vertex
  same_gpu "kron motifs 4 on GPUs" motifs "$kron" --size 4
  same_gpu "kron motifs 5 on GPUs" motifs "$kron" --size 5
  [[ -n $fb ]] && same_gpu "facebook motifs 5 on GPUs" motifs "$fb" --size 5
else
  for cmd in "count $kron --pattern triangle" "bfs $kron --source 1"; do
    status=0
    # shellcheck disable=SC2086 # cmd is a word list
    mpi 2 $cmd --device gpu >/dev/null 2>"$tmp/err" || status=$?
    ((status != 0)) && grep -q "GPUs of its own" "$tmp/err" || fail "${cmd%% *} --device gpu under 2 ranks without GPUs: status $status"
  done
  step "SKIPPED: GPU ranks ($gpus GPU(s) here, two needed); without GPUs each rank says so"
fi

# BFS over the GPUs of every rank (a NCCL clique across the processes):
# the levels of 1 and 2 ranks, validated, against one process on the CPU
# and on one GPU; --gpus 2 a rank where there are four GPUs; a GPU of rank
# 1 that fails (WM_GPU_FAULT_DEVICE names the search's GPU 1) ends both
# ranks, each naming it, within the timeout.
if ((gpus >= 2)) && "$bin" bfs "$kron" --source 1 --device gpu --gpus 2 >/dev/null 2>&1; then
  bfs_gpu_same() {
    local what=$1; shift
    local cpu gpu got
    cpu="$("$bin" bfs "$@" --device cpu --json | answer)" || { fail "$what: one CPU process failed"; return; }
    gpu="$("$bin" bfs "$@" --device gpu --json | answer)" || { fail "$what: one GPU process failed"; return; }
    [[ $gpu == "$cpu" ]] || fail "$what: one GPU gave $gpu, the CPU $cpu"
    for np in 1 2; do
      got="$(mpi "$np" bfs "$@" --device gpu --validate --json | answer)" || { fail "$what: $np GPU ranks failed"; continue; }
      [[ $got == "$cpu" ]] || fail "$what: $np GPU ranks gave $got, one process $cpu"
    done
    step "$what: equal for one CPU, one GPU, 1 and 2 GPU ranks (validated)"
  }
  bfs_gpu_same "kron bfs on GPU ranks" "$kron" --source 1
  bfs_gpu_same "kron bfs depth 2 on GPU ranks" "$kron" --source 1 --max-depth 2
  if [[ -n $fb ]]; then
    bfs_gpu_same "facebook bfs on GPU ranks" "$fb" --source 0 --no-cache
    bfs_gpu_same "facebook directed bfs on GPU ranks" "$fb" --source 0 --directed --no-cache
  fi
  # levels and parents files from rank 0 (the gathered result)
  "$bin" bfs "$kron" --source 1 --device gpu --output "$tmp/levels.gpu" >/dev/null || fail "bfs --output: one GPU failed"
  cmp -s "$tmp/levels.1" "$tmp/levels.gpu" || fail "bfs --output: one GPU wrote other levels than the CPU"
  mpi 2 bfs "$kron" --source 1 --device gpu --output "$tmp/levels.gpu2" --validate >/dev/null ||
    fail "bfs --output: 2 GPU ranks failed"
  cmp -s "$tmp/levels.1" "$tmp/levels.gpu2" || fail "bfs --output: 2 GPU ranks wrote other levels than the CPU"
  mpi 2 bfs "$kron" --source 1 --device gpu --output "$tmp/parents.gpu2" --write parents --validate >/dev/null ||
    fail "bfs --write parents: 2 GPU ranks failed"
  # Graph500 runs: every search validated on rank 0; the device line names the split
  out="$(mpi 2 bfs "$kron" --sources 8 --device gpu --validate --json)" || fail "bfs --sources 8: 2 GPU ranks failed"
  grep -q '"valid":8' <<<"$out" || fail "bfs --sources 8 on 2 GPU ranks: not 8 valid searches: $out"
  grep -q '"gpus_per_rank":1' <<<"$out" || fail "bfs --json on 2 GPU ranks: no gpus_per_rank"
  mpi 2 bfs "$kron" --source 1 --device gpu >"$tmp/out" || fail "bfs text: 2 GPU ranks failed"
  grep -q "^device .*gpu, 2 MPI ranks x 1 GPU" "$tmp/out" || fail "bfs text on 2 GPU ranks: device line: $(grep device "$tmp/out")"
  step "bfs on GPU ranks: levels files as the CPU's, parents valid, 8 roots valid"
  if ((gpus >= 4)); then
    got="$(mpi 2 bfs "$kron" --source 1 --device gpu --gpus 2 --validate --json | answer)" || fail "bfs: 2 ranks x 2 GPUs failed"
    want="$("$bin" bfs "$kron" --source 1 --device cpu --json | answer)"
    [[ $got == "$want" ]] || fail "bfs: 2 ranks x 2 GPUs gave $got, the CPU $want"
    step "bfs on 2 ranks x 2 GPUs: equal to the CPU"
  fi
  status=0
  WM_GPU_FAULT_DEVICE=1 mpi 2 bfs "$kron" --source 1 --device gpu >/dev/null 2>"$tmp/err" || status=$?
  if ((status == 0 || status == 124)); then
    fail "bfs with rank 1's GPU failing: status $status (0: not noticed, 124: hung)"
    tail -n 20 "$tmp/err" >&2
  else
    for rank in 0 1; do
      grep -q "rank $rank of 2: .*GPU 1 (process 1's GPU 0) failed" "$tmp/err" ||
        { fail "bfs with rank 1's GPU failing: rank $rank's message does not name it"; cat "$tmp/err" >&2; }
    done
    step "a failing GPU of rank 1 ends both ranks, each naming it"
  fi
else
  step "SKIPPED: BFS on GPU ranks ($gpus GPU(s) here; needs two and NCCL: 'bfs --device gpu --gpus 2' must run)"
fi

if ((failures)); then
  echo "mpi_cli: $failures failure(s)" >&2
  exit 1
fi
echo "mpi_cli: all cases passed"
