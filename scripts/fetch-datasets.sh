#!/usr/bin/env bash
# Downloads well-known SNAP graphs, checks each against its published vertex
# and edge counts, and converts it to warpmatch's binary .wmg format.
#
#   scripts/fetch-datasets.sh com-Youtube roadNet-CA    # fetch two graphs
#   scripts/fetch-datasets.sh --list                    # the names known here
#
# Files land in ${WM_DATA_DIR:-datasets/data}: NAME.txt.gz (the download, kept
# so that a later run need not fetch it again) and NAME.wmg.  The program is
# built first (scripts/setup.sh) unless WM_BIN names one.
# Exit codes: 0 ok, 1 download or check failed (or no network), 2 usage.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
data="${WM_DATA_DIR:-$repo/datasets/data}"
# WM_SNAP_URL points at a mirror (or a local copy, for testing this script).
snap="${WM_SNAP_URL:-https://snap.stanford.edu/data}"

# name | path under $snap | directed? | published nodes | published edges
# Counts are SNAP's own (the dataset pages); for a directed graph "edges"
# are arcs.  Undirected files list each edge once, except roadNet-CA which
# lists both directions; SNAP counts the unique undirected edges.
table="\
ego-Facebook|facebook_combined.txt.gz|0|4039|88234
com-DBLP|bigdata/communities/com-dblp.ungraph.txt.gz|0|317080|1049866
com-Amazon|bigdata/communities/com-amazon.ungraph.txt.gz|0|334863|925872
com-Youtube|bigdata/communities/com-youtube.ungraph.txt.gz|0|1134890|2987624
roadNet-CA|roadNet-CA.txt.gz|0|1965206|2766607
com-LiveJournal|bigdata/communities/com-lj.ungraph.txt.gz|0|3997962|34681189
soc-LiveJournal1|soc-LiveJournal1.txt.gz|1|4847571|68993773
com-Orkut|bigdata/communities/com-orkut.ungraph.txt.gz|0|3072441|117185083
com-Friendster|bigdata/communities/com-friendster.ungraph.txt.gz|0|65608366|1806067135"

usage() {
  cat <<USAGE
usage: $(basename "$0") NAME...   download, check and convert SNAP graphs
       $(basename "$0") --list    print the known names with their published counts
files go to \${WM_DATA_DIR:-datasets/data}
USAGE
}

# The table row of a name (case-insensitive), or nothing.
row_of() {
  local line
  while IFS= read -r line; do
    local name="${line%%|*}"
    if [[ "${name,,}" == "${1,,}" ]]; then
      echo "$line"
      return
    fi
  done <<<"$table"
}

list() {
  printf '%-18s %14s %16s  %s\n' NAME VERTICES EDGES KIND
  local name path dir nodes edges
  while IFS='|' read -r name path dir nodes edges; do
    printf '%-18s %14s %16s  %s\n' "$name" "$nodes" "$edges" "$( ((dir)) && echo directed || echo undirected)"
  done <<<"$table"
}

# Value of a numeric key in warpmatch's one-object JSON.
json_num() { grep -o "\"$2\":[0-9]*" <<<"$1" | head -1 | cut -d: -f2; }

# Checks NAME.wmg against the published counts.  SNAP counts a self-loop as
# an edge and warpmatch drops self-loops, so on a mismatch the loops of the
# raw file are counted and allowed for.
check() {
  local name="$1" wmg="$2" raw="$3" nodes="$4" edges="$5" json v e loops
  json="$("$wm" info "$wmg" --json)" || return 1
  v="$(json_num "$json" vertices)"
  e="$(json_num "$json" edges)"
  if [[ -z "$v" || -z "$e" ]]; then
    echo "fetch: $name: 'warpmatch info --json' gave no vertex or edge count" >&2
    return 1
  fi
  if [[ "$v" != "$nodes" ]]; then
    echo "fetch: $name: $v vertices, but SNAP publishes $nodes" >&2
    return 1
  fi
  if [[ "$e" != "$edges" ]]; then
    loops="$(gzip -dc "$raw" | awk '!/^#/ && $1 == $2 { n++ } END { print n + 0 }')"
    if ((e != edges - loops)); then
      echo "fetch: $name: $e edges, but SNAP publishes $edges ($loops of them self-loops)" >&2
      return 1
    fi
    echo "fetch: $name: $e edges = $edges published - $loops self-loops (dropped)"
  fi
  echo "fetch: $name: ok, $v vertices, $e edges"
}

fetch() {
  local name path dir nodes edges
  IFS='|' read -r name path dir nodes edges <<<"$1"
  local raw="$data/$name.txt.gz" wmg="$data/$name.wmg"
  if [[ -f "$wmg" && -f "$raw" ]] && check "$name" "$wmg" "$raw" "$nodes" "$edges" >/dev/null 2>&1; then
    echo "fetch: $name: already here ($wmg)"
    return 0
  fi
  if [[ ! -f "$raw" ]] || ! gzip -t "$raw" 2>/dev/null; then
    echo "fetch: $name: downloading $snap/$path"
    curl -fL -# --retry 3 --connect-timeout 20 -o "$raw.part" "$snap/$path" || {
      rm -f "$raw.part"
      echo "fetch: $name: download failed" >&2
      return 1
    }
    mv "$raw.part" "$raw"
  fi
  # The edge-list reader takes plain text; the text copy is removed after.
  local txt="$data/$name.txt" flags=(--no-cache)
  ((dir)) && flags+=(--directed)
  echo "fetch: $name: converting to $wmg"
  gzip -dc "$raw" >"$txt"
  if ! "$wm" convert "$txt" "$wmg" "${flags[@]}"; then
    rm -f "$txt"
    echo "fetch: $name: conversion failed" >&2
    return 1
  fi
  rm -f "$txt"
  if ! check "$name" "$wmg" "$raw" "$nodes" "$edges"; then
    mv "$wmg" "$wmg.bad"
    echo "fetch: $name: kept the suspicious graph as $wmg.bad" >&2
    return 1
  fi
}

main() {
  if (($# == 0)); then
    usage >&2
    exit 2
  fi
  local rows=() a row
  for a in "$@"; do
    case "$a" in
      --list) list; exit 0 ;;
      -h | --help) usage; exit 0 ;;
      -*) echo "fetch: unknown option '$a'" >&2; usage >&2; exit 2 ;;
    esac
    row="$(row_of "$a")"
    if [[ -z "$row" ]]; then
      echo "fetch: unknown dataset '$a' (see --list)" >&2
      exit 2
    fi
    rows+=("$row")
  done

  if ! curl -fsS --head --max-time 10 -o /dev/null "$snap/"; then
    echo "fetch: cannot reach $snap (no network?); nothing downloaded" >&2
    exit 1
  fi
  if [[ -n "${WM_BIN:-}" ]]; then
    wm="$WM_BIN"
  else
    bash "$repo/scripts/setup.sh"
    wm="${WM_BUILD_DIR:-$repo/build}/warpmatch"
  fi
  mkdir -p "$data"
  local failed=0
  for row in "${rows[@]}"; do fetch "$row" || failed=1; done
  exit "$failed"
}

main "$@"
