#!/usr/bin/env bash
# BFS before and after: two builds of warpmatch search the same graphs from
# the same roots in one run, alternating, so that a change is measured
# beside what it changes (issue 48: "before and after in the same call").
#
#   WM_OLD_BIN=OLD/warpmatch WM_BIN=build/warpmatch bash scripts/bench-bfs-ab.sh
#
# The graphs are made once, by the new build: Kronecker scales BFS_SCALES
# (default "20 22 24 25"; `gen kron --scale S --seed 1`), the grid BFS_GRID x
# BFS_GRID (default 1024; `gen grid`, 2 BFS_GRID - 1 levels from a corner;
# 0: none) and facebook_combined.txt from WM_TEST_GRAPHS (default
# datasets/real), and the graph files BFS_GRAPHS names (a list of paths,
# each named by its file's name without .wmg; e.g. scripts/make-corpus.sh's).  Each cell is one process, `warpmatch bfs G --sources R
# --device BFS_DEVICE --json` (R = BFS_ROOTS, default 64; the grid
# BFS_GRID_ROOTS, default 16; on the GPU with --probe-bandwidth, the copy
# bandwidth measured in the same process), BFS_ROUNDS rounds (default 2) of
# the old build then the new.  The new build then runs --validate (the
# Graph500 checks) on BFS_VALIDATE_ROOTS roots of each graph (default 16;
# 0: none).  Graphs go to WM_WORK (default a temporary folder, removed).
# Writes $WM_OUT/bfs-ab.csv (graph, build, round, vertices, edges, gteps,
# median_ms, bandwidth_gbps, share) and the raw JSON beside it, and prints
# a table (also $WM_OUT/bfs-ab.md): per graph and build each round's GTEPS /
# median ms / share, and the ratio of the builds' median ms (old / new, the
# rounds' medians).  The CSV and the table are rewritten after each run, so
# that a run stopped at a time limit leaves the rounds it finished.
set -uo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
new=${WM_BIN:-$repo/build/warpmatch}
old=${WM_OLD_BIN:-}
out=${WM_OUT:-bench-out}
scales=${BFS_SCALES:-20 22 24 25}
grid=${BFS_GRID:-1024}
roots=${BFS_ROOTS:-64}
grid_roots=${BFS_GRID_ROOTS:-16}
rounds=${BFS_ROUNDS:-2}
check=${BFS_VALIDATE_ROOTS:-16}
device=${BFS_DEVICE:-gpu}
data=${WM_TEST_GRAPHS:-$repo/datasets/real}

die() { echo "bench-bfs-ab: $*" >&2; exit 1; }
[ -x "$new" ] || die "$new is not built (WM_BIN)"
[ -n "$old" ] && [ -x "$old" ] || die "WM_OLD_BIN: the build to compare with is not given or not built"
mkdir -p "$out" || die "cannot make $out"
work=${WM_WORK:-}
if [ -z "$work" ]; then
  work=$(mktemp -d "${TMPDIR:-/tmp}/bench-bfs-ab.XXXXXX") || die "no temporary folder"
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
log() { printf '== %s %s\n' "$(date +%T)" "$*" >&2; }
# One number from the one-line JSON: json_num KEY FILE (the first match:
# the first variant's, as the graph's own keys come before the variants)
json_num() { grep -o "\"$1\":[-0-9.eE+]*" "$2" | head -1 | cut -d: -f2; }

graphs=()
for s in $scales; do
  log "gen kron --scale $s"
  "$new" gen kron --scale "$s" --seed 1 --output "$work/kron-$s.wmg" >"$work/gen.log" 2>&1 ||
    die "gen kron --scale $s failed: $(tail -2 "$work/gen.log")"
  graphs+=("kron-$s")
done
if [ "$grid" -gt 0 ]; then
  log "gen grid --width $grid"
  "$new" gen grid --width "$grid" --output "$work/grid-$grid.wmg" >"$work/gen.log" 2>&1 ||
    die "gen grid failed: $(tail -2 "$work/gen.log")"
  graphs+=("grid-$grid")
fi
if [ -f "$data/facebook_combined.txt" ]; then
  cp "$data/facebook_combined.txt" "$work/facebook.txt" && graphs+=(facebook)
else
  echo "bench-bfs-ab: $data/facebook_combined.txt not found; left out" >&2
fi
declare -A file_of=()
for f in ${BFS_GRAPHS:-}; do
  [ -f "$f" ] || die "BFS_GRAPHS: $f is not a file"
  name=$(basename "$f" .wmg)
  file_of[$name]=$f
  graphs+=("$name")
done
path_of() {
  if [ -n "${file_of[$1]:-}" ]; then echo "${file_of[$1]}"; return; fi
  case $1 in facebook) echo "$work/facebook.txt" ;; *) echo "$work/$1.wmg" ;; esac
}

probe=()
[ "$device" = gpu ] && probe=(--probe-bandwidth)
csv="$out/bfs-ab.csv"
tmp="$work/bfs-ab.csv.rows" # rows so far, published after each run
echo "graph,build,round,vertices,edges,gteps,median_ms,bandwidth_gbps,share" >"$tmp"
# The table of a CSV: each build's rounds, then old / new of the rounds' median ms.
table() {
  awk -F, 'NR > 1 {
    key = $1; if (!(key in seen)) { seen[key] = 1; order[++ng] = key }
    cell[key, $2] = cell[key, $2] sprintf("%s%.2f / %.3f", cell[key, $2] == "" ? "" : ", ", $6, $7) \
      ($9 == "" ? "" : sprintf(" / %.1f%%", 100 * $9))
    ms[key, $2, ++cnt[key, $2]] = $7
  }
  function median(k, b,   i, j, t, m, a) {
    m = cnt[k, b]; for (i = 1; i <= m; i++) a[i] = ms[k, b, i]
    for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
  }
  END {
    print "| graph | old: GTEPS / ms / share | new: GTEPS / ms / share | old / new (ms) |"
    print "|---|---|---|--:|"
    for (i = 1; i <= ng; i++) {
      k = order[i]; r = cnt[k, "old"] && cnt[k, "new"] ? sprintf("%.2fx", median(k, "old") / median(k, "new")) : "-"
      printf "| %s | %s | %s | %s |\n", k, cell[k, "old"], cell[k, "new"], r
    }
  }' "$1"
}

# The CSV and its table as they stand (whole rows: written after each run,
# so that a call stopped at its time limit leaves what it measured).
publish() {
  cp "$tmp" "$csv.part.$$" && mv "$csv.part.$$" "$csv" || die "cannot write $csv"
  table "$csv" >"$out/bfs-ab.md.part.$$" && mv "$out/bfs-ab.md.part.$$" "$out/bfs-ab.md" || die "cannot write $out/bfs-ab.md"
}

status=0
for g in "${graphs[@]}"; do
  n=$roots
  case $g in grid-*) n=$grid_roots ;; esac
  for r in $(seq 1 "$rounds"); do
    for b in old new; do
      bin=$new
      [ $b = old ] && bin=$old
      json="$out/bfs-ab-$g-$b-$r.json"
      log "$g: $b, round $r"
      if ! "$bin" bfs "$(path_of "$g")" --sources "$n" --device "$device" --json --no-cache "${probe[@]}" \
        >"$json" 2>"$work/bfs.err"; then
        echo "bench-bfs-ab: $g ($b) failed: $(tail -2 "$work/bfs.err")" >&2
        status=1
        continue
      fi
      echo "$g,$b,$r,$(json_num vertices "$json"),$(json_num edges "$json"),$(json_num gteps "$json"),$(json_num median_ms "$json"),$(json_num bandwidth_gbps "$json"),$(json_num bandwidth_share "$json")" >>"$tmp"
      publish
    done
  done
  if [ "$check" -gt 0 ]; then
    if "$new" bfs "$(path_of "$g")" --sources "$check" --device "$device" --validate --no-cache >"$work/valid.txt" 2>&1; then
      log "$g: --validate, $check roots: every search valid"
    else
      echo "bench-bfs-ab: $g: validation FAILED: $(tail -3 "$work/valid.txt")" >&2
      status=1
    fi
  fi
done
publish
rm -f "$tmp"
cat "$out/bfs-ab.md"

exit $status
