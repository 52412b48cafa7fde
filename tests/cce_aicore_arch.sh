#!/usr/bin/env bash
# The CCE compiler's --cce-aicore-arch in a kernel's compile arguments: a -vec or -cube compile
# is read in that core's view only (a vector kernel's PIPE_V barrier is no error then), a mix
# compile (dav-c220) or none in each view the file tests, and the flag never reaches Clang.
#   cce_aicore_arch.sh PTOVERIFY
set -uo pipefail
BIN=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cat >"$TMP/k.cpp" <<'CPP'
#include "pto/pto-inst.hpp"
using namespace pto;
__global__ AICORE void vec_only(__gm__ float* out) {
#if defined(__DAV_CUBE__)
  int cubeSide = 1;
  (void)cubeSide;
#endif
  pipe_barrier(PIPE_V);
}
CPP
failed=0
expect() {  # expect EXIT KERNELS ARGS...
  local want_rc=$1 want_kernels=$2 out rc
  shift 2
  out=$("$BIN" check "$TMP/k.cpp" -- "$@" 2>&1)
  rc=$?
  if [ "$rc" != "$want_rc" ] || ! grep -q "1 file(s), $want_kernels kernel(s)" <<<"$out"; then
    echo "FAIL: with '$*': exit $rc (expected $want_rc), $want_kernels kernel(s) expected:"
    echo "$out"
    failed=1
  fi
}
expect 1 2                                   # both views: the cube view has no PIPE_V
expect 0 1 --cce-aicore-arch=dav-c220-vec
expect 1 1 --cce-aicore-arch dav-c220-cube
expect 1 2 --cce-aicore-arch=dav-c220
expect 0 1 --cce-aicore-arch=dav-c310-vec
exit $failed
