# Sourced by scripts/test.sh and scripts/emu-smoke.sh: run one stage of a
# long script so that a person watching it is never left without a word for
# more than STAGE_TICK seconds (default 10).  Each stage announces itself,
# reports "passed" or "FAILED" with its time, and while its output is silent
# a ticker prints how long it has run and the last line it wrote (the build
# step or test it is at).
#
#   stage NAME LOG CMD...        output to the terminal and to LOG
#   stage_quiet NAME LOG CMD...  output to LOG only; its last 60 lines on failure
# Both return CMD's exit status; STAGE_PREFIX (default the script's name)
# starts every line.

# The ticker: a background loop that speaks every STAGE_TICK seconds (in
# tee mode only while LOG, and so the terminal, has been silent that long),
# and ends itself when the shell that started it is gone.
_stage_ticker() {
  local mode=$1 name=$2 log=$3 t0=$4 parent=$5 tick=${STAGE_TICK:-10} spoke=$SECONDS
  while sleep 2; do
    kill -0 "$parent" 2>/dev/null || return 0
    local now changed last quiet=$tick
    now=$(date +%s)
    changed=$(stat -c %Y "$log" 2>/dev/null || echo "$now")
    last=$(tail -n 1 "$log" 2>/dev/null | tr -d '\r' | cut -c1-100)
    # A stage inside this one ticks by itself: speak only if it has stopped.
    [[ $last == *" still running, "* ]] && quiet=$((2 * tick))
    [[ $mode == quiet ]] && quiet=0
    ((now - changed >= quiet && SECONDS - spoke >= tick)) || continue
    spoke=$SECONDS
    echo "${STAGE_PREFIX:-stage}: $name still running, $((SECONDS - t0)) s${last:+ (last: $last)}"
  done
}

# _stage_run MODE NAME LOG CMD...: MODE tee or quiet.
_stage_run() {
  local mode=$1 name=$2 log=$3 t0=$SECONDS rc ticker
  shift 3
  mkdir -p "$(dirname "$log")"
  : >"$log"
  echo "${STAGE_PREFIX:-stage}: $name ..."
  _stage_ticker "$mode" "$name" "$log" "$t0" "$$" &
  ticker=$!
  if [[ $mode == tee ]]; then
    "$@" 2>&1 | tee -a "$log"
    rc=${PIPESTATUS[0]}
  else
    "$@" >>"$log" 2>&1
    rc=$?
  fi
  kill "$ticker" 2>/dev/null
  wait "$ticker" 2>/dev/null
  if ((rc == 0)); then
    echo "${STAGE_PREFIX:-stage}: $name passed ($((SECONDS - t0)) s)"
  else
    [[ $mode == tee ]] || tail -n 60 "$log"
    echo "${STAGE_PREFIX:-stage}: $name FAILED, exit $rc ($((SECONDS - t0)) s; log $log)"
  fi
  return "$rc"
}

stage() { _stage_run tee "$@"; }
stage_quiet() { _stage_run quiet "$@"; }
