#!/usr/bin/env bash
# Text edge-list loading vs .wmg reloading, measured with `warpmatch info --json`.
#
#   scripts/bench-load.sh [EDGELIST]
#
# Without EDGELIST a ~10-million-edge list is made once (Kronecker from
# `warpmatch gen`, written as text; a small deterministic awk generator if gen
# is unavailable) and kept in $WORKDIR.  Text is loaded with --no-cache (the
# parse itself), the .wmg made by `convert` is reloaded; best of $RUNS each,
# so both read from the page cache.
# Environment: WARPMATCH (the binary; default build/warpmatch), WORKDIR
# (default /tmp/wm-bench-load), RUNS (default 3), SCALE/EDGE_FACTOR (20/10).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${WARPMATCH:-$root/build/warpmatch}
work=${WORKDIR:-/tmp/wm-bench-load}
runs=${RUNS:-3}
scale=${SCALE:-20}
ef=${EDGE_FACTOR:-10}
[ -x "$bin" ] || { echo "bench-load: no warpmatch binary at $bin (set WARPMATCH)" >&2; exit 2; }
mkdir -p "$work"

# The .wmg payload as an edge list, each undirected edge once (u < v).
wmg_to_text() {
  python3 - "$1" "$2" <<'PY'
import array, struct, sys
src, dst = sys.argv[1], sys.argv[2]
with open(src, "rb") as f:
    h = f.read(64)
    n, m = struct.unpack_from("<QQ", h, 16)
    off = array.array("Q"); off.fromfile(f, n + 1)
    adj = array.array("I"); adj.fromfile(f, m)
    ids = None
    if struct.unpack_from("<I", h, 32)[0]:
        ids = array.array("I"); ids.fromfile(f, n)
with open(dst, "w") as out:
    out.write("# Kronecker graph from warpmatch gen: %d vertices, %d edges\n" % (n, m // 2))
    for u in range(n):
        fu = ids[u] if ids else u
        row = adj[off[u]:off[u + 1]]
        out.write("".join("%d\t%d\n" % (fu, ids[v] if ids else v) for v in row if v > u))
PY
}

# Fallback: skewed random pairs from a MINSTD generator (exact in awk's doubles).
awk_text() {
  awk -v n=$((1 << scale)) -v e=$(( (1 << scale) * ef )) 'BEGIN {
    x = 12345; print "# synthetic skewed graph";
    for (i = 0; i < e; i++) {
      x = (x * 48271) % 2147483647; a = x / 2147483647;
      x = (x * 48271) % 2147483647; b = x / 2147483647;
      printf "%d\t%d\n", int(n * a * a * a), int(n * b);
    }
  }' > "$1"
}

if [ $# -ge 1 ]; then
  text=$1
else
  text=$work/kron-s$scale-ef$ef.txt
  if [ ! -s "$text" ]; then
    echo "making $text ..." >&2
    if "$bin" gen kron --scale "$scale" --edge-factor "$ef" --seed 1 --output "$work/gen.wmg" >/dev/null 2>&1; then
      wmg_to_text "$work/gen.wmg" "$text.part"
      rm -f "$work/gen.wmg"
    else
      echo "(warpmatch gen unavailable: awk generator)" >&2
      awk_text "$text.part"
    fi
    mv "$text.part" "$text"
  fi
fi

# Best (smallest) "seconds" of RUNS runs of `warpmatch info --json ARGS`; prints the JSON of that run.
best_run() {
  local best="" json
  for _ in $(seq "$runs"); do
    json=$("$bin" info --json "$@")
    best=$(python3 -c 'import json,sys
a = json.loads(sys.argv[1]); b = json.loads(sys.argv[2]) if sys.argv[2] else None
print(json.dumps(a if b is None or a["seconds"] < b["seconds"] else b))' "$json" "$best")
  done
  echo "$best"
}

wmg=$work/$(basename "$text").bench.wmg
"$bin" convert --no-cache "$text" "$wmg" >/dev/null
t_json=$(best_run --no-cache "$text")
w_json=$(best_run "$wmg")
python3 - "$text" "$t_json" "$wmg" "$w_json" <<'PY'
import json, sys
t, w = json.loads(sys.argv[2]), json.loads(sys.argv[4])
assert t["edges"] == w["edges"] and t["vertices"] == w["vertices"], "text and .wmg graphs differ"
print("graph: %s  (%d vertices, %d edges)" % (sys.argv[1], t["vertices"], t["edges"]))
print("| input | bytes | seconds | MB/s | edges/s |")
print("|---|---:|---:|---:|---:|")
for name, r in (("text edge list (--no-cache)", t), (".wmg reload", w)):
    print("| %s | %d | %.3f | %.0f | %.1fM |" % (name, r["bytes"], r["seconds"],
          r["bytes"] / 1e6 / r["seconds"], r["edges"] / 1e6 / r["seconds"]))
print("speed-up of .wmg reload over text: %.1fx" % (t["seconds"] / w["seconds"]))
PY
