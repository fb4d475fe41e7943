# Sourced by the emulator scripts (motif-emu.sh, orbit-emu.sh): emu_rewrite
# IN OUT writes the CUDA source IN as C++ for the CPU emulator of this
# folder.  k<<<g, b, smem, stream>>>(args);  ->
#   { auto emu_k = k; emu_params_t<decltype(emu_k)> emu_a(args);
#     emu_launch(emu_cfg(g, b, smem, stream), [emu_k, emu_a]() { std::apply(emu_k, emu_a); }); }
# over the whole file (sed -z), since launches span lines and follow an if:
# the arguments are evaluated once, at the launch (counter(r) takes a
# counter), and converted to the kernel's parameter types (NULL pointers);
# an extern __shared__ array becomes the block's dynamic shared memory and
# every other __shared__ a static (blocks run one after another).  OUT is
# written only where it changes (emu_put, emu_lib.sh), for emu_cc.
emu_rewrite() {
  sed -z -E \
    -e 's/([A-Za-z_][A-Za-z_0-9]*(<[^<>;]*>)?)<<<([^;>]*)>>>\(([^;]*)\);/{ auto emu_k = \1; emu_params_t<decltype(emu_k)> emu_a(\4); emu_launch(emu_cfg(\3), [emu_k, emu_a]() { std::apply(emu_k, emu_a); }); }/g' \
    -e 's/extern __shared__ ([A-Za-z_0-9]+) ([A-Za-z_0-9]+)\[\];/\1 *\2 = (\1 *)emu_dyn_smem();/g' \
    -e 's/__shared__/static/g' \
    "$1" | emu_put "$2"
}
