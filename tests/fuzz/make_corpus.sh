#!/usr/bin/env bash
# Writes the seed corpus of every fuzz target, tests/fuzz/corpus/<target>/:
# small valid inputs and near misses (one thing wrong each), so that the
# replay under ctest covers each reader's accept and refuse paths and
# libFuzzer starts from inputs that already get deep.  The .wmg seeds are
# written by the project's own writer (`warpmatch convert`), then damaged
# here byte by byte.  The corpus is committed; run this again only to
# change it:  tests/fuzz/make_corpus.sh build/warpmatch
set -euo pipefail

bin=${1:?usage: $0 PATH-TO-warpmatch}
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
corpus=$here/corpus
rm -rf "$corpus"
mkdir -p "$corpus"/fuzz_{edgelist,mtx,wmg,labels,pattern,pattern_gsi,pattern_name,load}

# put TARGET NAME TEXT: one seed, the text as printf's format (\n, \t, \r, \0).
put() { printf -- "$3" >"$corpus/fuzz_$1/$2"; }

# ---- edge lists
put edgelist triangle '0 1\n1 2\n2 0\n'
put edgelist snap-header '# Directed graph\n# Nodes: 4 Edges: 4\n# FromNodeId\tToNodeId\n0\t1\n1\t2\n2\t3\n3\t0\n'
put edgelist percent-comments '%% comment\n1 2\n%% another\n2 3\n'
put edgelist weights '0 1 0.5\n1 2 1e3\n2 0 -7\n'
put edgelist crlf '0 1\r\n1 2\r\n2 3\r\n'
put edgelist tabs-and-spaces '  0 \t 1  \n\t1\t\t2\t\n'
put edgelist blank-lines '\n\n0 1\n\n\n1 2\n\n'
put edgelist no-final-newline '0 1\n1 2'
put edgelist self-loops '0 0\n0 1\n1 1\n'
put edgelist duplicates '0 1\n1 0\n0 1\n0 1\n'
put edgelist sparse-ids '10 1000\n1000 100000\n7 10\n'
put edgelist max-id '0 4294967294\n4294967294 1\n'
put edgelist id-too-big '0 4294967295\n'
put edgelist id-huge '0 99999999999999999999999\n'
put edgelist negative-id '0 -1\n'
put edgelist one-column '0\n1 2\n'
put edgelist letters 'a b\n'
put edgelist float-ids '1.5 2\n'
put edgelist hex-ids '0x1 0x2\n'
put edgelist trailing-junk '0 1x\n'
put edgelist empty ''
put edgelist only-comments '# nothing\n# here\n'
put edgelist nul-byte '0 1\n\0\n1 2\n'
put edgelist star '0 1\n0 2\n0 3\n0 4\n0 5\n0 6\n0 7\n0 8\n'
put edgelist clique5 '0 1\n0 2\n0 3\n0 4\n1 2\n1 3\n1 4\n2 3\n2 4\n3 4\n'
put edgelist isolated-pair '5 6\n'
put edgelist long-line "0 1 $(printf '%0300d' 7)\n1 2\n"
put edgelist comment-after '0 1 # edge\n'
# directed, vertex 0 has no out-arcs: an empty bucket in the CSR builder
put edgelist comment-glued '#0 1\n1 2\n2 0\n'
put edgelist mtx-banner-late '0 1\n%%%%MatrixMarket matrix coordinate pattern general\n'

# ---- Matrix Market
mm='%%%%MatrixMarket matrix coordinate'
put mtx pattern-general "$mm pattern general\n3 3 3\n1 2\n2 3\n3 1\n"
put mtx real-symmetric "$mm real symmetric\n%% c\n6 6 5\n2 1 1.0\n3 2 2\n4 1 3\n6 5 4\n5 5 1\n"
put mtx integer-general "$mm integer general\n4 4 3\n1 2 7\n2 3 -1\n4 1 0\n"
put mtx skew-symmetric "$mm real skew-symmetric\n3 3 2\n2 1 1\n3 1 -1\n"
put mtx complex-hermitian "$mm complex hermitian\n3 3 2\n2 1 1 0\n3 2 0 1\n"
put mtx rectangular "$mm pattern general\n2 5 2\n1 5\n2 4\n"
put mtx uppercase "%%%%MATRIXMARKET MATRIX COORDINATE PATTERN GENERAL\n2 2 1\n1 2\n"
put mtx isolated "$mm pattern general\n10 10 1\n1 2\n"
put mtx empty-matrix "$mm pattern general\n3 3 0\n"
put mtx comments-blank "$mm pattern general\n%% one\n\n%% two\n3 3 2\n\n1 2\n2 3\n"
put mtx crlf "$mm pattern general\r\n3 3 2\r\n1 2\r\n2 3\r\n"
put mtx array "%%%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n"
put mtx too-few "$mm pattern general\n3 3 3\n1 2\n"
put mtx too-many "$mm pattern general\n3 3 1\n1 2\n2 3\n"
put mtx index-zero "$mm pattern general\n3 3 1\n0 1\n"
put mtx index-over "$mm pattern general\n3 3 1\n1 4\n"
put mtx no-size "$mm pattern general\n"
put mtx bad-size "$mm pattern general\n3 x 1\n1 2\n"
put mtx size-huge "$mm pattern general\n99999999999 3 1\n1 2\n"
put mtx missing-value "$mm real general\n3 3 1\n1 2\n"
put mtx bad-field "$mm quaternion general\n3 3 1\n1 2\n"
put mtx bad-symmetry "$mm pattern upside-down\n3 3 1\n1 2\n"
put mtx banner-only "%%%%MatrixMarket\n"
put mtx not-matrix "%%%%MatrixMarket vector coordinate pattern general\n3 3 1\n1 2\n"
put mtx self-loops "$mm pattern symmetric\n3 3 3\n1 1\n2 2\n2 1\n"
put mtx duplicates "$mm pattern general\n3 3 3\n1 2\n1 2\n2 1\n"
put mtx extra-columns "$mm pattern general\n3 3 1\n1 2 3 4\n"
put mtx negative "$mm pattern general\n3 3 1\n-1 2\n"
put mtx no-final-newline "$mm pattern general\n2 2 1\n1 2"
put mtx max-n "$mm pattern general\n4294967295 4294967295 1\n1 4294967295\n"
# declares 1.7 billion entries in 169 bytes (once reserved 13.8 GB up front)
put mtx entries-huge "$mm pattern general\n10 10 0001729753486\n1 2\n"

# ---- .wmg: valid files from the writer, then damaged copies
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '0 1\n1 2\n2 0\n2 3\n3 4\n4 5\n5 3\n' >"$tmp/small.txt"
printf '10 20\n20 30\n30 10\n30 4000\n' >"$tmp/sparse.txt"
printf '0 1\n0 2\n0 3\n0 4\n1 2\n2 3\n3 4\n4 1\n5 0\n' >"$tmp/wheel.txt"
printf '0 1\n1 2\n' >"$tmp/path.txt"
convert() { "$bin" convert "$tmp/$1" "$tmp/out.wmg" --no-cache --quiet "${@:3}" >/dev/null; cp "$tmp/out.wmg" "$corpus/fuzz_wmg/$2"; }
convert small.txt undirected
convert small.txt directed --directed
convert sparse.txt orig-ids
convert wheel.txt relabel-degree --relabel-degree
convert wheel.txt oriented --orient
convert sparse.txt orig-ids-relabel --relabel-degree
convert path.txt path
# damage FROM NAME PYTHON: NAME is FROM with the bytes b changed by the
# Python statement (the fuzz target repairs the hashes itself on its second
# read, so these reach the structure checks).
damage() {
  python3 - "$corpus/fuzz_wmg/$1" "$corpus/fuzz_wmg/$2" "$3" <<'EOF'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
exec(sys.argv[3])
open(sys.argv[2], 'wb').write(b)
EOF
}
damage undirected truncated 'del b[len(b) - 3:]'
damage undirected header-only 'del b[64:]'
damage undirected short-header 'del b[40:]'
damage undirected bad-magic 'b[0] = ord("X")'
damage undirected bad-version 'b[8] = 2'
damage undirected unknown-flag 'b[12] = 8'
damage undirected oriented-undirected 'b[12] = 4'
damage undirected n-too-big 'b[16:24] = struct.pack("<Q", 1 << 33)'
damage undirected m-too-big 'b[24:32] = struct.pack("<Q", (1 << 64) - 1)'
damage undirected has-orig-2 'b[32] = 2'
damage undirected payload-flip 'b[100] ^= 1'
damage undirected offsets-decrease 'b[72:80] = struct.pack("<Q", 5)'
damage undirected offset-past-end 'b[64 + 8 * 6:64 + 8 * 7] = struct.pack("<Q", 99)'
damage undirected neighbour-out-of-range 'b[-4:] = struct.pack("<I", 77)'
damage undirected unsorted-row 'b[120:124], b[124:128] = b[124:128], b[120:124]'
damage undirected self-loop 'b[120:124] = struct.pack("<I", 0)'
# Path 0-1-2 with vertex 2's neighbour 1 turned into 0: rows stay sorted,
# in range and loop-free, but the graph is no longer symmetric although its
# flags say undirected.
damage path asymmetric 'b[-4:] = struct.pack("<I", 0)'
damage orig-ids orig-ids-unsorted 'b[-8:-4], b[-4:] = b[-4:], b[-8:-4]'
damage undirected trailing-byte 'b.append(0)'
# the last file id 2^32 - 1, WM_NO_VERTEX (ascending, and degree-sorted)
damage orig-ids file-id-no-vertex 'b[-4:] = struct.pack("<I", 0xFFFFFFFF)'
damage orig-ids-relabel file-id-no-vertex-relabelled 'b[-4:] = struct.pack("<I", 0xFFFFFFFF)'

# ---- labels (graphs: file ids 3 5 9 12 40, and 0..9)
put labels sparse-ids '# labels\n3 1\n5 2\n9 0\n12 2147483647\n40 7\n'
put labels dense-ids '0 0\n1 1\n2 2\n3 3\n4 4\n5 5\n6 6\n7 7\n8 8\n9 9\n'
put labels some-vertices '3 4\n'
put labels empty ''
put labels comments '%% c\n# c\n\n3 1\n'
put labels crlf '3 1\r\n5 2\r\n'
put labels tabs '3\t1\n  5   2  \n'
put labels repeat-same '3 1\n3 1\n'
put labels repeat-other '3 1\n3 2\n'
put labels label-too-big '3 2147483648\n'
put labels label-huge '3 99999999999999999999\n'
put labels negative '3 -1\n'
put labels unknown-vertex '4 1\n'
put labels id-huge '99999999999 1\n'
put labels one-column '3\n'
put labels three-columns '3 1 2\n'
put labels letters 'x y\n'
put labels float '3 1.5\n'
put labels no-final-newline '3 1'
put labels nul-byte '3 1\n\0\n'

# ---- pattern text (edge lines, 'v' labels; STMatch / GSI texts too)
put pattern triangle '0 1\n1 2\n2 0\n'
put pattern comments '# a square\n0 1 # first\n1 2\n2 3\n3 0\n'
put pattern labeled 'v 0 1\nv 1 2\nv 2 1\n0 1\n1 2\n'
put pattern any-label 'v 0 *\nv 1 3\n0 1\n'
put pattern label-max 'v 0 2147483647\n0 1\n'
put pattern label-too-big 'v 0 2147483648\n0 1\n'
put pattern label-negative 'v 0 -2\n0 1\n'
put pattern label-conflict 'v 0 1\nv 0 2\n0 1\n'
put pattern label-repeat 'v 0 1\nv 0 1\n0 1\n'
put pattern upper-v 'V 1 5\n0 1\n'
put pattern clique8 "$(for a in 0 1 2 3 4 5 6 7; do for b in 0 1 2 3 4 5 6 7; do ((a < b)) && printf '%d %d\\n' $a $b; done; done)"
put pattern id-8 '0 8\n'
put pattern id-negative '0 -1\n'
put pattern self-loop '0 0\n0 1\n'
put pattern disconnected '0 1\n2 3\n'
put pattern no-edges '# nothing\n'
put pattern only-labels 'v 0 1\nv 1 1\n'
put pattern empty ''
put pattern three-ids '0 1 2\n'
put pattern one-id '0\n'
put pattern repeated-edges '0 1\n1 0\n0 1\n'
put pattern crlf '0 1\r\n1 2\r\n'
put pattern long-line "0 1 $(printf '%0300d' 0)\n"
put pattern isolated-vertex 'v 3 1\n0 1\n'
put pattern words 'triangle\n'
put pattern gsi-header 't # 0\nv 0 0\nv 1 0\nv 2 0\ne 0 1\ne 1 2\ne 2 0\n'
put pattern gsi-edges-only 'e 0 1\ne 1 2\n'
put pattern gsi-after-v 'v 0 1\ne 0 1\n'
for i in 1 5 12 24; do cp "$here/../../patterns/stmatch/p$i.txt" "$corpus/fuzz_pattern/stmatch-p$i"; done

# ---- STMatch / GSI pattern files
for f in "$here"/../../patterns/stmatch/p*.txt; do cp "$f" "$corpus/fuzz_pattern_gsi/stmatch-$(basename "$f" .txt)"; done
put pattern_gsi gsi-full 't # 0\n3 3 1 0\nv 0 0\nv 1 0\nv 2 1\ne 0 1 0\ne 1 2 0\ne 2 0 0\nt # -1\n'
put pattern_gsi degrees 't # 0\nv 0 0 2\nv 1 0 2\nv 2 0 2\ne 0 1\ne 1 2\ne 0 2\n'
put pattern_gsi degree-wrong 't # 0\nv 0 0 3\nv 1 0 1\ne 0 1\n'
put pattern_gsi both-directions 't # 0\nv 0 0\nv 1 0\ne 0 1\ne 1 0\n'
put pattern_gsi edge-labels-differ 't # 0\nv 0 0\nv 1 0\nv 2 0\ne 0 1 1\ne 1 2 2\n'
put pattern_gsi edge-before-vertex 't # 0\ne 0 1\nv 0 0\nv 1 0\n'
put pattern_gsi vertex-twice 't # 0\nv 0 0\nv 0 0\nv 1 0\ne 0 1\n'
put pattern_gsi vertex-missing 't # 0\nv 0 0\nv 2 0\ne 0 2\n'
put pattern_gsi two-headers 't # 0\nv 0 0\nv 1 0\ne 0 1\nt # 1\n'
put pattern_gsi counts-wrong 't # 0\n3 9 0 0\nv 0 0\nv 1 0\nv 2 0\ne 0 1\ne 1 2\n'
put pattern_gsi after-end 't # 0\nv 0 0\nv 1 0\ne 0 1\nt # -1\ne 1 0\n'
put pattern_gsi id-too-big 't # 0\nv 0 0\nv 9 0\ne 0 9\n'
put pattern_gsi self-loop 't # 0\nv 0 0\nv 1 0\ne 0 0\ne 0 1\n'
put pattern_gsi labels-all-same 't # 0\nv 0 5\nv 1 5\nv 2 5\ne 0 1\ne 1 2\n'
put pattern_gsi label-negative 't # 0\nv 0 -1\nv 1 0\ne 0 1\n'
put pattern_gsi comment-lines '# t 0\nt # 0\nv 0 0 # x\nv 1 0\ne 0 1 # y\n'
put pattern_gsi edge-list-text '0 1\n1 2\n'
put pattern_gsi empty ''
put pattern_gsi header-only 't # 0\n'
put pattern_gsi disconnected 't # 0\nv 0 0\nv 1 0\nv 2 0\nv 3 0\ne 0 1\ne 2 3\n'
put pattern_gsi eight-vertices 't # 0\nv 0 0\nv 1 1\nv 2 2\nv 3 3\nv 4 4\nv 5 5\nv 6 6\nv 7 7\ne 0 1\ne 1 2\ne 2 3\ne 3 4\ne 4 5\ne 5 6\ne 6 7\n'

# ---- pattern names: the catalogue, the families, aliases and near misses
for n in 3-path triangle 4-path 4-star 4-cycle tailed-triangle diamond 4-clique 5-path 5-star fork \
         5-cycle banner bull cricket long-tailed-triangle house bowtie K2,3 kite dart gem 3-book \
         tailed-4-clique W4-minus-spoke W4 house-x 5-clique-minus-edge 5-clique 8-clique 8-cycle \
         8-path 8-star 6-clique 7-cycle paw claw butterfly K5 K4 wedge edge C4 TRIANGLE Diamond; do
  put pattern_name "$n" "$n"
done
for n in 9-clique 2-clique 0-cycle -3-path 1-star 99999999999999999999-clique clique 4- \
         4-clique- 4--clique ' triangle' 'triangle ' tri ./triangle; do
  put pattern_name "bad-${n//[^A-Za-z0-9-]/_}" "$n"
done

# ---- wm_graph_load: one of each format, told apart by content
for f in triangle snap-header weights empty nul-byte mtx-banner-late; do
  cp "$corpus/fuzz_edgelist/$f" "$corpus/fuzz_load/edgelist-$f"
done
for f in pattern-general real-symmetric uppercase banner-only; do cp "$corpus/fuzz_mtx/$f" "$corpus/fuzz_load/mtx-$f"; done
for f in undirected directed orig-ids oriented bad-magic truncated asymmetric; do
  cp "$corpus/fuzz_wmg/$f" "$corpus/fuzz_load/wmg-$f"
done
put load magic-only 'WMGRAPH\0'
put load magic-short 'WMGRAP'
put load mm-short '%%%%MatrixMarke'

for d in "$corpus"/*; do echo "$(basename "$d"): $(find "$d" -type f | wc -l) seeds"; done
