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
