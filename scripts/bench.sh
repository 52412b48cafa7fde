#!/usr/bin/env bash
# Benchmarks ptoverify as a whole process and prints each result next to a baseline measured
# in the same run, so the ratios hold on any machine:
#   1. a 200-line .pto kernel, against a bare process (/bin/true) and `ptoverify --version`;
#   2. throughput over the .pto files of ../shared/corpus-real and corpus/ (MB/s), against `cat`
#      reading the same bytes.
# Usage: scripts/bench.sh [PTOVERIFY] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
tool="${1:-build/ptoverify}"
runs="${2:-40}"
real="../shared/corpus-real"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# A 200-line kernel: a double-buffered loop with loads, vector ops, stores, events and a
# publish/consume pair, the shape of a generated PTOAS kernel.
gen_kernel() {
  local tile='!pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=256, v_row=1, v_col=256, blayout=row_major, slayout=none_box, fractal=512, pad=0>'
  echo 'module attributes {pto.target_arch = "a2a3"} {'
  echo '  func.func @bench(%x: !pto.ptr<f32>, %y: !pto.ptr<f32>, %win: !pto.ptr<f32>, %flags: !pto.ptr<i32>, %n: index) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {'
  echo '    %c0 = arith.constant 0 : index'
  echo '    %c1 = arith.constant 1 : index'
  echo '    %v1 = arith.constant 1 : i32'
  echo '    %xv = pto.make_tensor_view %x, shape = [%n, %c1], strides = [%c1, %c1] : !pto.tensor_view<?x?xf32>'
  echo '    %yv = pto.make_tensor_view %y, shape = [%n, %c1], strides = [%c1, %c1] : !pto.tensor_view<?x?xf32>'
  echo '    %fv = pto.make_tensor_view %flags, shape = [%c1], strides = [%c1] : !pto.tensor_view<1xi32>'
  echo '    %sig = pto.partition_view %fv, offsets = [%c0], sizes = [%c1] : !pto.tensor_view<1xi32> -> !pto.partition_tensor_view<1xi32>'
  for b in 0 1; do
    echo "    %a$b = arith.constant $((b * 1024)) : i64"
    echo "    %t$b = pto.alloc_tile addr = %a$b : $tile"
  done
  echo '    pto.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]'
  echo '    pto.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID1>]'
  for blk in $(seq 1 10); do
    echo "    scf.for %i$blk = %c0 to %n step %c1 {"
    echo "      %xp$blk = pto.partition_view %xv, offsets = [%i$blk, %c0], sizes = [%c1, %c1] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<1x256xf32>"
    echo "      %yp$blk = pto.partition_view %yv, offsets = [%i$blk, %c0], sizes = [%c1, %c1] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<1x256xf32>"
    echo '      pto.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]'
    echo "      pto.tload ins(%xp$blk : !pto.partition_tensor_view<1x256xf32>) outs(%t0 : $tile)"
    echo '      pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]'
    echo '      pto.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]'
    echo '      pto.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID1>]'
    echo "      pto.texp ins(%t0 : $tile) outs(%t1 : $tile)"
    echo "      pto.tadd ins(%t1, %t0 : $tile, $tile) outs(%t1 : $tile)"
    echo '      pto.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]'
    echo '      pto.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID1>]'
    echo '      pto.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID1>]'
    echo "      pto.tstore ins(%t1 : $tile) outs(%yp$blk : !pto.partition_tensor_view<1x256xf32>)"
    echo '      pto.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID1>]'
    echo '    }'
    echo '    pto.barrier <PIPE_ALL>'
    echo "    pto.cmo.cacheinvalid %yv single_cache_line : !pto.tensor_view<?x?xf32>"
    echo '    pto.fence.barrier_all #pto.fence_scope<gm>'
  done
  echo '    pto.comm.tnotify(%sig, %v1 : !pto.partition_tensor_view<1xi32>, i32) {notifyOp = #pto<notify_op set>}'
  echo '    pto.comm.twait(%sig, %v1 : !pto.partition_tensor_view<1xi32>, i32) {cmp = #pto<wait_cmp ge>}'
  echo '    pto.cmo.cacheinvalid all #pto.address_space<gm>'
  echo '    pto.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]'
  echo '    pto.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID1>]'
  echo '    return'
  echo '  }'
  echo '}'
}

# mean wall time in ms of RUNS executions of a command (output discarded)
time_ms() {
  local start end
  start=$(date +%s%N)
  for _ in $(seq 1 "$runs"); do "$@" >/dev/null 2>&1 || true; done
  end=$(date +%s%N)
  awk -v s="$start" -v e="$end" -v n="$runs" 'BEGIN { printf "%.3f", (e - s) / 1000000 / n }'
}

div() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f", a / b }'; }

gen_kernel > "$work/kernel200.pto"
lines=$(wc -l < "$work/kernel200.pto")
"$tool" check "$work/kernel200.pto" >/dev/null 2>&1 || true  # warm the page cache

echo "== whole process, ${lines}-line .pto kernel ($runs runs each)"
t_true=$(time_ms /bin/true)
t_version=$(time_ms "$tool" --version)
t_kernel=$(time_ms "$tool" check "$work/kernel200.pto")
printf '  %-34s %8.2f ms\n' "/bin/true (bare process)" "$t_true"
printf '  %-34s %8.2f ms\n' "ptoverify --version (start-up)" "$t_version"
printf '  %-34s %8.2f ms   = %.1fx start-up\n' "ptoverify check kernel200.pto" "$t_kernel" "$(div "$t_kernel" "$t_version")"
if command -v ldd >/dev/null; then
  if ldd "$tool" | grep -qE 'libclang|libLLVM'; then echo "  links Clang/LLVM: yes"; else echo "  links Clang/LLVM: no"; fi
fi

# Throughput over every .pto under ../shared/corpus-real and the project corpus, against `cat`
# of the same bytes; the C++ inputs there have their own bench (bench/cpp_frontend_bench.sh).
mapfile -t files < <( { [ -d "$real" ] && find "$real" -type f -name '*.pto'; find corpus -type f -name '*.pto'; } | sort)
bytes=$(cat "${files[@]}" | wc -c)
cruns=$(( runs / 4 > 3 ? runs / 4 : 3 ))
runs_saved=$runs
runs=$cruns
t_cat=$(time_ms cat "${files[@]}")
t_check=$(time_ms "$tool" check "${files[@]}")
t_serial=$(time_ms "$tool" check -j 1 "${files[@]}")
t_front=$(time_ms "$tool" check --rules ub-range "${files[@]}")
runs=$runs_saved
mb=$(div "$bytes" 1048576)
where="corpus"; [ -d "$real" ] && where="corpus-real + corpus"
echo "== .pto throughput, $where (${#files[@]} files, $mb MB, $cruns runs each; -j defaults to the $(nproc) cores)"
printf '  %-34s %8.2f ms\n' "cat (read the same bytes)" "$t_cat"
printf '  %-34s %8.2f ms   = %.1f MB/s, %.1fx cat\n' "ptoverify check, every rule" "$t_check" \
  "$(div "$mb" "$(div "$t_check" 1000)")" "$(div "$t_check" "$t_cat")"
printf '  %-34s %8.2f ms   = %.1f MB/s (one core)\n' "ptoverify check -j 1, every rule" "$t_serial" \
  "$(div "$mb" "$(div "$t_serial" 1000)")"
printf '  %-34s %8.2f ms   = %.1f MB/s (read, lift, one rule: no proofs)\n' "ptoverify check --rules ub-range" "$t_front" \
  "$(div "$mb" "$(div "$t_front" 1000)")"

# The same files copied 20 times into one tree (about 3,000 files, the size of the PTOAS tree
# issue 16 was measured on): the process start and the report are paid once, so this is the
# rate per byte that a large generated kernel set sees.
copies=20
mkdir -p "$work/tree/1"
i=0
for f in "${files[@]}"; do i=$((i + 1)); cp "$f" "$work/tree/1/$i.pto"; done
for c in $(seq 2 "$copies"); do cp -r "$work/tree/1" "$work/tree/$c"; done
mapfile -t tree_files < <(find "$work/tree" -type f -name '*.pto' | sort)
truns=3
runs_saved=$runs
runs=$truns
t_tree_cat=$(time_ms cat "${tree_files[@]}")
t_tree=$(time_ms "$tool" check "$work/tree")
runs=$runs_saved
tree_mb=$(div "$(cat "${tree_files[@]}" | wc -c)" 1048576)
echo "== .pto throughput, the same files copied $copies times (${#tree_files[@]} files, $tree_mb MB, $truns runs each)"
printf '  %-34s %8.2f ms   = %.1f MB/s\n' "cat (read the same bytes)" "$t_tree_cat" \
  "$(div "$tree_mb" "$(div "$t_tree_cat" 1000)")"
printf '  %-34s %8.2f ms   = %.1f MB/s, %.1fx cat\n' "ptoverify check, every rule" "$t_tree" \
  "$(div "$tree_mb" "$(div "$t_tree" 1000)")" "$(div "$t_tree" "$t_tree_cat")"
