# Sourced by the emulator scripts: emu_lib BUILD prints the path of the
# host library without CUDA that their programs link (the emulated GPU
# functions are linked ahead of it, so its stand-ins are not pulled in).
# Where WM_EMU_LIB names a build folder of it already built (emu-smoke.sh
# builds one for all of its runs, which otherwise built it six times), that
# one, untouched; else BUILD/lib, configured and built here.
emu_lib() {
  if [[ -n ${WM_EMU_LIB:-} ]]; then
    echo "$WM_EMU_LIB/libwarpmatch.a"
    return
  fi
  cmake -S "$repo" -B "$1/lib" -DWM_ENABLE_CUDA=OFF -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null &&
    cmake --build "$1/lib" --target warpmatch_lib -j2 >/dev/null &&
    echo "$1/lib/libwarpmatch.a"
}

# emu_cc OUT CMD...: runs the compile command CMD... (which writes OUT)
# unless OUT was made by the same command (OUT.cmd) and is newer than every
# file that compile read (OUT.d, from -MMD): emu-smoke.sh runs a script twice
# on one build folder (bfs-emu.sh's runs differ in the environment only),
# and the second run then compiles nothing.
emu_cc() {
  local out=$1 cmd dep
  shift
  cmd=$(printf '%q ' "$@")
  if [[ -f $out && -f $out.d && -f $out.cmd && $(<"$out.cmd") == "$cmd" ]]; then
    for dep in $(sed -e 's/^[^:]*://' -e 's/\\$//' "$out.d"); do
      [[ ! -e $dep || $dep -nt $out ]] && break
      dep=
    done
    [[ -z $dep ]] && return 0
  fi
  rm -f "$out.cmd"
  "$@" -MMD -MF "$out.d" && printf '%s' "$cmd" >"$out.cmd"
}

# emu_put FILE: standard input into FILE where it differs from it, so that
# a source written again the same keeps its time (emu_cc).
emu_put() {
  local tmp="$1.new"
  cat >"$tmp"
  if cmp -s "$tmp" "$1"; then rm -f "$tmp"; else mv -f "$tmp" "$1"; fi
}
