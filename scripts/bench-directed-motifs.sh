#!/usr/bin/env bash
# Directed motif benchmark: `warpmatch motifs --directed --size K` against
# igraph's motifs_randesu (one core; it counts the weakly connected classes)
# and, for size 3, networkx's triadic_census, on the same graphs in one run.
# Prints a table and writes CSV ($WM_OUT/bench-directed-motifs.csv):
#   graph, vertices, arcs, size, threads, device, ours_s, kernel_ms, igraph_s, ratio, networkx_s,
#   counts_equal
# ours_s is the library's counting time (the JSON's `seconds`, loading
# excluded; size 3 with --all-classes, the census whole), on the CPU with
# --threads or, with --device gpu, on the GPU (kernel_ms its kernels' time,
# "-" on the CPU; ours_s then holds the skeleton, the uploads and the
# host's part too), igraph_s and
# networkx_s the wall time of their call alone (the graph built
# beforehand); ratio = igraph_s / ours_s.  counts_equal: every weakly
# connected class's count equals igraph's by isoclass id (and for size 3
# all 16 equal networkx's census), "yes" or "no"; a peer that is missing
# or ran past --timeout shows "-", and the row is still printed.
# Graphs: `gen:N:ARCS:SEED` makes a directed power-law graph here (Chung-Lu
# weights with exponent 3 on both ends, about a third of the arcs mutual,
# deterministic by seed), anything else is an edge-list file read as arcs.
set -uo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
bin=${WM_BIN:-$here/build/warpmatch}
out=${WM_OUT:-.}
python=${WM_PYTHON:-python3}
graphs="gen:100000:300000:1"
sizes="3 4"
threads=1
device=cpu
gpus=1
timeout_s=600
nx_max_arcs=200000
work=${TMPDIR:-/tmp}/warpmatch-bench-directed

usage() {
  cat <<EOF
usage: scripts/bench-directed-motifs.sh [options]
  --bin PATH          warpmatch program (default: \$WM_BIN or build/warpmatch)
  --graphs "..."      gen:N:ARCS:SEED (a directed power-law graph made here) or edge-list
                      files (default "$graphs")
  --sizes "..."       motif sizes, 3 and/or 4 (default "$sizes")
  --threads N         our CPU threads (default $threads: one core, as igraph)
  --device cpu|gpu    where ours counts (default $device)
  --gpus N            with --device gpu: over N GPUs of this host (default $gpus)
  --timeout S         each peer's limit in seconds (default $timeout_s)
  --nx-max-arcs M     networkx's census only up to M arcs (default $nx_max_arcs; it is pure Python)
  --python PATH       the interpreter with igraph and networkx (default: \$WM_PYTHON or python3)
EOF
}
while (($#)); do
  case $1 in
  --bin) bin=$2; shift 2 ;;
  --graphs) graphs=$2; shift 2 ;;
  --sizes) sizes=$2; shift 2 ;;
  --threads) threads=$2; shift 2 ;;
  --device) device=$2; shift 2 ;;
  --gpus) gpus=$2; shift 2 ;;
  --timeout) timeout_s=$2; shift 2 ;;
  --nx-max-arcs) nx_max_arcs=$2; shift 2 ;;
  --python) python=$2; shift 2 ;;
  -h | --help) usage; exit 0 ;;
  *) echo "bench-directed-motifs: unknown option $1" >&2; usage >&2; exit 2 ;;
  esac
done
[[ -x $bin ]] || { echo "bench-directed-motifs: no program at $bin (build first, or --bin)" >&2; exit 1; }
[[ $device == cpu || $device == gpu ]] || { echo "bench-directed-motifs: --device cpu or gpu, not $device" >&2; exit 2; }
mkdir -p "$work" "$out" || exit 1

# One Python process does the rest: it makes the gen: graphs, runs ours
# through the program, then igraph and networkx where importable.
WM_BIN_PATH=$bin WM_WORK=$work WM_GRAPHS=$graphs WM_SIZES=$sizes WM_THREADS=$threads WM_TIMEOUT=$timeout_s \
  WM_DEVICE=$device WM_GPUS=$gpus \
  WM_NX_MAX=$nx_max_arcs WM_CSV=$out/bench-directed-motifs.csv exec "$python" - <<'PY'
import csv, json, multiprocessing as mp, os, random, subprocess, sys, time

env = os.environ
work, bin_ = env["WM_WORK"], env["WM_BIN_PATH"]
timeout, nx_max = float(env["WM_TIMEOUT"]), int(env["WM_NX_MAX"])


def make(n, arcs, seed):
    """A directed Chung-Lu graph: ends drawn by weight (i+1)^-1/2 (exponent 3), a third mutual."""
    path = os.path.join(work, f"directed-{n}-{arcs}-{seed}.txt")
    if os.path.exists(path):
        return path
    rng = random.Random(seed)
    w = [(i + 1) ** -0.5 for i in range(n)]
    perm = list(range(n))
    rng.shuffle(perm)  # hubs anywhere in the numbering
    got = set()
    while len(got) < arcs:
        for u, v in zip(rng.choices(range(n), w, k=arcs), rng.choices(range(n), w, k=arcs)):
            if u != v and len(got) < arcs:
                got.add((perm[u], perm[v]))
                if rng.random() < 1 / 3 and len(got) < arcs:
                    got.add((perm[v], perm[u]))
    with open(path + ".tmp", "w") as f:
        f.write(f"# directed Chung-Lu, {n} vertices, {arcs} arcs, seed {seed}\n")
        f.writelines(f"{u} {v}\n" for u, v in sorted(got))
    os.replace(path + ".tmp", path)
    return path


def read_arcs(path):
    """The file's arcs on indices numbered as the program numbers ids (increasing)."""
    arcs = []
    with open(path) as f:
        for line in f:
            if line.strip() and not line.startswith(("#", "%")):
                a, b = line.split()[:2]
                arcs.append((int(a), int(b)))
    ids = sorted({x for e in arcs for x in e})
    index = {x: i for i, x in enumerate(ids)}
    return len(ids), sorted({(index[a], index[b]) for a, b in arcs if a != b})


def ours(path, k):
    cmd = [bin_, "motifs", path, "--directed", "--size", str(k), "--json", "--threads", env["WM_THREADS"]]
    cmd += ["--device", env["WM_DEVICE"]] + (["--gpus", env["WM_GPUS"]] if env["WM_DEVICE"] == "gpu" else [])
    cmd += ["--all-classes"] if k == 3 else []
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        sys.exit(f"bench-directed-motifs: {' '.join(cmd)}: {r.stderr.strip()}")
    return json.loads(r.stdout)


def in_child(fn, args):
    """fn(*args) -> (seconds, result) in a child process; None past the timeout or on failure."""
    q = mp.Queue()
    p = mp.Process(target=lambda: q.put(fn(*args)))
    p.start()
    p.join(timeout)
    if p.is_alive():
        p.terminate()
        p.join()
        return None
    return q.get() if p.exitcode == 0 else None


def igraph_counts(n, arcs, k):
    import igraph
    g = igraph.Graph(n=n, edges=arcs, directed=True)
    t0 = time.perf_counter()
    c = g.motifs_randesu(size=k)
    return time.perf_counter() - t0, [None if x != x else int(x) for x in c]


def nx_census(n, arcs):
    import networkx as nx
    G = nx.DiGraph()
    G.add_nodes_from(range(n))
    G.add_edges_from(arcs)
    t0 = time.perf_counter()
    c = nx.triadic_census(G)
    return time.perf_counter() - t0, dict(c)


def have(mod):
    try:
        __import__(mod)
        return True
    except ImportError:
        return False


def fmt(x):
    return x if x == "-" else f"{x:.3f}"


mp.set_start_method("fork")
rows = []
print(f"{'graph':<34} {'arcs':>9} {'size':>4} {'ours s':>9} {'igraph s':>9} {'ratio':>7} {'nx s':>8}  equal")
for spec in env["WM_GRAPHS"].split():
    path = make(*map(int, spec.split(":")[1:])) if spec.startswith("gen:") else spec
    n, arcs = read_arcs(path)
    for k in map(int, env["WM_SIZES"].split()):
        o = ours(path, k)
        equal, ig_s, nx_s = [], "-", "-"
        ig = in_child(igraph_counts, (n, arcs, k)) if have("igraph") else None
        if ig:
            ig_s, counts = ig
            equal.append(all(counts[m["igraph_id"]] == m["count"] for m in o["motifs"] if m["connected"]))
        if k == 3 and len(arcs) <= nx_max and have("networkx"):
            census = in_child(nx_census, (n, arcs))
            if census:
                nx_s, c = census
                equal.append({m["name"]: m["count"] for m in o["motifs"]} == c)
        ratio = f"{ig_s / o['seconds']:.2f}" if ig_s != "-" and o["seconds"] > 0 else "-"
        eq = "-" if not equal else ("yes" if all(equal) else "no")
        name = os.path.basename(path)
        print(f"{name:<34} {len(arcs):>9} {k:>4} {o['seconds']:>9.3f} {fmt(ig_s):>9} {ratio:>7} {fmt(nx_s):>8}  {eq}",
              flush=True)
        rows.append([name, n, len(arcs), k, env["WM_THREADS"], o["device"], o["seconds"], o.get("kernel_ms", "-"),
                     ig_s, ratio, nx_s, eq])
with open(env["WM_CSV"], "w", newline="") as f:
    csv.writer(f).writerows([["graph", "vertices", "arcs", "size", "threads", "device", "ours_s", "kernel_ms",
                              "igraph_s", "ratio", "networkx_s", "counts_equal"]] + rows)
print(f"csv: {env['WM_CSV']}")
PY
