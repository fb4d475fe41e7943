#!/usr/bin/env bash
# Runs the GPU's edge switching (datasets/gpu_rand_switch.cu, with
# device/gpu_check.cu) on the CPU emulator of scripts/bfs-emu/ through
# wm_randomize (scripts/rand-emu/check.cpp): degrees kept in and out, no
# loop or multi-edge, reproducible by key, swaps x m attempts, a ring
# lattice mixed.  As motif-emu, this checks indexing, the rounds' logic and
# the host driver without a GPU, not races or speed (blocks run one by one).
#
#   bash scripts/rand-emu.sh
# Environment: WM_EMU_BUILD (default build-rand-emu).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${WM_EMU_BUILD:-$repo/build-rand-emu}"
emu="$repo/scripts/bfs-emu"
mkdir -p "$build/src" "$build/obj"

# The host library without CUDA (bfs-emu/emu_lib.sh).
. "$repo/scripts/bfs-emu/emu_lib.sh"
lib=$(emu_lib "$build")

# k<<<g, b, smem, stream>>>(args); -> an emulated launch (as motif-emu.sh)
for f in datasets/gpu_rand_switch.cu device/gpu_check.cu; do
  out="$build/src/$(basename "${f%.cu}").cpp"
  sed -z -E \
    -e 's/([A-Za-z_][A-Za-z_0-9]*(<[^<>;]*>)?)<<<([^;>]*)>>>\(([^;]*)\);/{ auto emu_k = \1; emu_params_t<decltype(emu_k)> emu_a(\4); emu_launch(emu_cfg(\3), [emu_k, emu_a]() { std::apply(emu_k, emu_a); }); }/g' \
    "$repo/$f" >"$out"
done
if grep -n '<<<' "$build"/src/*.cpp; then echo "rand-emu: a launch was not rewritten" >&2; exit 1; fi

san=(-fsanitize=address,undefined -fno-omit-frame-pointer)
inc=(-I"$emu/include" -I"$repo/device" -I"$repo/datasets" -I"$repo/base" -I"$repo/matcher")
objs=()
for f in "$build"/src/*.cpp "$emu/emu_runtime.cpp" "$emu/emu_stop.cpp" "$repo/scripts/rand-emu/check.cpp"; do
  o="$build/obj/$(basename "$f" .cpp).o"
  g++ -std=c++17 -O1 -g -w "${san[@]}" "${inc[@]}" -c "$f" -o "$o"
  objs+=("$o")
done
g++ "${san[@]}" -o "$build/check" "${objs[@]}" "$lib" $(pkg-config --libs libxxhash zlib) -fopenmp -lm

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_stack_use_after_return=0:detect_leaks=0}"
export EMU_SMS="${EMU_SMS:-2}"
"$build/check" && echo "rand-emu: passes"
