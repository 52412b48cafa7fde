# Sourced by the tests over pto-isa's whole tree (pto_isa_tree.sh, pto_isa_tree_mutants.sh): the
# flags one kernel file of the tree is compiled with, as the tree's CMake files give them.
#   pto_isa_builds FILE           the compiles of the file, one a line ("" for one plain compile;
#                                 syncall's mix tests are built once with ..._AIC, once with ..._AIV)
#   pto_isa_flags TREE SRC FILE [BUILD]
#                                 --arch and the compiler flags, one a line: the include folders
#                                 (the tests' common headers, the communication tests' helpers, the
#                                 file's own folder, flash-attention's shared headers, and
#                                 tests/pto_isa_tree for the header the flash-attention build
#                                 generates), the memory model define (a5's tests and the mxfp4
#                                 matmul are REGISTER_BASE, the rest MEMORY_BASE) and the core kind.

pto_isa_builds() {
  case "$1" in
    */syncall/syncall_mix*) printf '%s\n' -DSYNCALL_MIX_BUILD_AIC -DSYNCALL_MIX_BUILD_AIV ;;
    *) echo "" ;;
  esac
}

# The core kind the file's CMake compiles it for: a test's pto_vec_st / pto_cube_st (a mix test,
# pto_mix_st, reads both cores), or the one --cce-aicore-arch its folder's CMakeLists.txt names;
# nothing when that is not one value.
pto_isa_core() {
  local dir arch suffix named
  dir=$(dirname "$1")
  [ -f "$dir/CMakeLists.txt" ] || return 0
  case "$1" in */a5/*) arch=dav-c310 ;; *) arch=dav-c220 ;; esac
  if grep -q '^pto_vec_st(' "$dir/CMakeLists.txt"; then suffix=-vec
  elif grep -q '^pto_cube_st(' "$dir/CMakeLists.txt"; then suffix=-cube
  elif grep -q '^pto_mix_st(' "$dir/CMakeLists.txt"; then return 0
  else
    named=$(grep -o -- '--cce-aicore-arch=[a-z0-9-]*' "$dir/CMakeLists.txt" | sort -u)
    [ "$(echo "$named" | grep -c .)" = 1 ] && echo "$named"
    return 0
  fi
  echo "--cce-aicore-arch=$arch$suffix"
}

pto_isa_flags() {
  local tree=$1 src=$2 f=$3 build=${4:-} arch=a2a3 memory=-DMEMORY_BASE
  case "$f" in */a5/*) arch=a5 ;; esac
  case "$f" in */tests/npu/a5/*|*/matmul_mxfp4_performance/*) memory=-DREGISTER_BASE ;; esac
  printf '%s\n' --arch "$arch" -- -I"$tree/include" -I"$tree/tests/common" -I"$tree/tests/npu/$arch/comm/st/testcase" \
    -I"$(dirname "$f")" -I"$tree/kernels/manual/common/flash_atten" -I"$src/tests/pto_isa_tree" "$memory"
  [ -n "$build" ] && echo "$build"
  pto_isa_core "$f"
}
