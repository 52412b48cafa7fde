#!/usr/bin/env bash
# The .pto and C++ front ends give the same kind, pipes and accesses (space, read or write, the
# pipe of each phase) for the same instruction: one kernel per front end with the instructions in
# the same order, compared op by op through `ptoverify model`. Every fixed-pipe tile instruction
# of the table (`ptoverify isa`) is in it, plus the operand-dependent ones in each form and the
# comm, sync and barrier instructions.
#   isa_frontends.sh PTOVERIFY
set -euo pipefail
BIN=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

VEC='!pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=64, v_row=1, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>'
MAT='!pto.tile_buf<loc=mat, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=col_major, slayout=row_major, fractal=512, pad=0>'
LEFT='!pto.tile_buf<loc=left, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=row_major, fractal=512, pad=0>'
ACC='!pto.tile_buf<loc=acc, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=col_major, slayout=row_major, fractal=1024, pad=0>'
PART='!pto.partition_tensor_view<1x64xf32>'

pto_ops=()
cpp_ops=()
pair() { pto_ops+=("$1"); cpp_ops+=("$2"); }

# Fixed-pipe vector and cube instructions: dst written, two tile sources read.
while read -r name kind rest; do
  case "$rest" in *"pipe: PIPE_V"|*"pipe: PIPE_M") ;; *) continue ;; esac
  [ "$kind" = compute ] || continue
  lower=$(tr 'A-Z_' 'a-z.' <<<"$name")
  pair "pto.$lower ins(%a, %b : $VEC, $VEC) outs(%d : $VEC)" "$name(d, a, b);"
done < <("$BIN" isa)

# Operand-dependent pipes, in each form.
pair "pto.tload ins(%gp : $PART) outs(%d : $VEC)" "TLOAD(d, g);"
pair "pto.tstore ins(%d : $VEC) outs(%gp : $PART)" "TSTORE(g, d);"
pair "pto.tstore ins(%c : $ACC) outs(%gp : $PART)" "TSTORE(g, c);"
pair "pto.tmov ins(%m : $MAT) outs(%l : $LEFT)" "TMOV(l, m);"
pair "pto.tmov ins(%c : $ACC) outs(%d : $VEC)" "TMOV(d, c);"
pair "pto.tmov ins(%a : $VEC) outs(%d : $VEC)" "TMOV(d, a);"
pair "pto.tci ins(%c7 : i32) outs(%d : $VEC)" "TCI(d, 7);"
pair "pto.tci ins(%c7, %t : i32, $VEC) outs(%d : $VEC)" "TCI(d, 7, t);"
# Communication: the put's phases and its own event, the signal on S.
pair "pto.comm.tput(%pp, %gp, buf(%t) : $PART, $PART, $VEC)" "pto::comm::TPUT(p, g, t);"
pair "pto.comm.tget(%gp, %pp, buf(%t) : $PART, $PART, $VEC)" "pto::comm::TGET(g, p, t);"
pair "pto.comm.tnotify(%sp, %c1i : !pto.partition_tensor_view<1xi32>, i32)" "pto::comm::TNOTIFY(s, 1);"
# Sync.
pair "pto.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID2>]" "set_flag(PIPE_V, PIPE_MTE3, EVENT_ID2);"
pair "pto.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID2>]" "wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID2);"
pair "pto.barrier <PIPE_MTE2>" "pipe_barrier(PIPE_MTE2);"

{
  cat <<PTO
module attributes {pto.target_arch = "a2a3"} {
  func.func @k(%gm: !pto.ptr<f32>, %peer: !pto.ptr<f32>, %sig: !pto.ptr<i32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c7 = arith.constant 7 : i32
    %c1i = arith.constant 1 : i32
    %gv = pto.make_tensor_view %gm, shape = [%c1, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xf32>
    %gp = pto.partition_view %gv, offsets = [%c0, %c0], sizes = [%c1, %c64] : !pto.tensor_view<?x?xf32> -> $PART
    %pv = pto.make_tensor_view %peer, shape = [%c1, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xf32>
    %pp = pto.partition_view %pv, offsets = [%c0, %c0], sizes = [%c1, %c64] : !pto.tensor_view<?x?xf32> -> $PART
    %sv = pto.make_tensor_view %sig, shape = [%c1], strides = [%c1] : !pto.tensor_view<?xi32>
    %sp = pto.partition_view %sv, offsets = [%c0], sizes = [%c1] : !pto.tensor_view<?xi32> -> !pto.partition_tensor_view<1xi32>
    %d = pto.alloc_tile : $VEC
    %a = pto.alloc_tile : $VEC
    %b = pto.alloc_tile : $VEC
    %t = pto.alloc_tile : $VEC
    %m = pto.alloc_tile : $MAT
    %l = pto.alloc_tile : $LEFT
    %c = pto.alloc_tile : $ACC
PTO
  for op in "${pto_ops[@]}"; do echo "    $op"; done
  printf '    return\n  }\n}\n'
} >"$TMP/k.pto"
{
  cat <<'CPP'
#include "pto/pto-inst.hpp"
using namespace pto;
AICORE void k(__gm__ float* gm, __gm__ float* peer, __gm__ int32_t* sig) {
  Tile<TileType::Vec, float, 1, 64> d, a, b, t;
  Tile<TileType::Mat, float, 16, 16> m;
  Tile<TileType::Left, float, 16, 16> l;
  Tile<TileType::Acc, float, 16, 16> c;
  GlobalTensor<float, Shape<1, 1, 1, 1, 64>, Stride<1, 1, 1, 64, 1>> g(gm), p(peer);
  GlobalTensor<int32_t, Shape<1, 1, 1, 1, 1>, Stride<1, 1, 1, 1, 1>> s(sig);
CPP
  for op in "${cpp_ops[@]}"; do echo "  $op"; done
  echo "}"
} >"$TMP/k.cpp"

# kind, pipes and accesses of each op, without names, values or parameter indexes.
normalise() {
  "$BIN" model "$1" | python3 -c '
import re, sys
skip = ("tile alloc", "tile assign", "return")
for line in sys.stdin:
    m = re.match(r"\s+\d+:\d+ (.*?)  \(", line)
    if not m or m.group(1).startswith(skip):
        continue
    text = m.group(1)
    kind = next(k for k in ("set_flag", "wait_flag", "pipe barrier", "compute", "load", "store", "put", "get",
                            "notify") if text.startswith(k))
    pipes = re.search(r"\[([^]]*)\]", text)
    accesses = []
    for role in ("reads", "writes", "target"):
        part = re.search(role + r" (.*?)(?= reads | writes | target |$)", text)
        if part:
            for ref in part.group(1).split(", "):
                space = ref.split(":")[0]
                pipe = re.search(r" on (PIPE_\w+)", ref)
                accesses.append(role + " " + space + (" on " + pipe.group(1) if pipe else ""))
    print(kind, pipes.group(1) if pipes else "-", "; ".join(accesses))
'
}
normalise "$TMP/k.pto" >"$TMP/pto.txt"
normalise "$TMP/k.cpp" >"$TMP/cpp.txt"
expected=${#pto_ops[@]}
if ! diff "$TMP/pto.txt" "$TMP/cpp.txt"; then
  echo "FAIL: the .pto and C++ front ends disagree (< .pto, > C++)"
  exit 1
fi
if [ "$(wc -l <"$TMP/pto.txt")" -lt "$expected" ]; then
  echo "FAIL: $expected instructions written, $(wc -l <"$TMP/pto.txt") ops modelled"
  cat "$TMP/pto.txt"
  exit 1
fi
echo "isa-frontends: $expected instructions agree, $(wc -l <"$TMP/pto.txt") ops each"
echo "1 passed, 0 failed"
