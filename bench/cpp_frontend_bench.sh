#!/usr/bin/env bash
# C++ front end cost against the compiler's own parse: `ptoverify check FILE` (parse, model,
# every rule, Z3 proofs) vs `clang++ -fsyntax-only` with the same prelude and flags, in one run.
# Prints the median of N runs of each and their ratio (goals: <= 1.3x on the corpus files, issue 4;
# on the real DeepSeek-V4 fused kernel, when ../shared/corpus-real is beside the project, <= 1.5x
# for entry.cpp and <= 2x for debug/entry.cpp, issue 14).
# Usage: cpp_frontend_bench.sh BUILD_DIR SOURCE_DIR [N]
set -euo pipefail
build="$1"
src="$(cd "$2" && pwd)"  # absolute: the tree's clang runs in each source's own directory
n="${3:-11}"
llvm="${PTOVERIFY_LLVM_VERSION:-14}"
clangxx="clang++-${llvm}"
prelude="$src/prelude"
# The front end's parse: C++20, the prelude, and the prelude's PTO-ISA declarations, which the
# front end generates from its op table (written here from `ptoverify isa`).
gen=$(mktemp -d)
trap 'rm -rf "$gen"' EXIT
"$build/ptoverify" isa --prelude > "$gen/ptoverify_isa_ops.h"
clang_flags=(-fsyntax-only -std=c++20 -x c++ -w -include "$prelude/ptoverify_prelude.h" -I "$prelude/stubinc" -I "$prelude/standin"
             -D__DAV_C220_VEC__ -D__DAV_VEC__ -idirafter "$gen")
cube_flags=("${clang_flags[@]/__DAV_C220_VEC__/__DAV_C220_CUBE__}")
cube_flags=("${cube_flags[@]/__DAV_VEC__/__DAV_CUBE__}")
# The compiler's floor for a file: one parse per core view the front end models it in (device
# code that tests the core macros is compiled for the cube and the vector core). The views run one
# after the other whatever the first one's exit status: with `&&`, a file clang reports errors in
# (a host launcher's `<<<...>>>`) had only its vector view in the floor.
floor_script() {  # FILE [compiler flags...]: the floor as one shell command
  local f=$1 model
  shift
  model=$("$build/ptoverify" model "$f" ${1:+--} "$@" 2>/dev/null || true)  # whole: grep -q under pipefail would cut it
  if grep -qE ', AI[CV] view, ' <<<"$model"; then
    echo "$clangxx ${clang_flags[*]} $* $f; $clangxx ${cube_flags[*]} $* $f"
  else
    echo "$clangxx ${clang_flags[*]} $* $f"
  fi
}
clang_floor() {  # FILE: the floor's command, one word a line (no shell for one view)
  local script
  script=$(floor_script "$1")
  if [[ $script == *";"* ]]; then printf '%s\n' bash -c "$script"; else printf '%s\n' "$clangxx" "${clang_flags[@]}" "$1"; fi
}
files=("$src/corpus/barrier-participants/good/fused_three_phase.cpp"
       "$src/corpus/sync-event-pairing/good/ptoas_vector_kernel.cpp"
       "$src/corpus/cache-policy-wrapper/good/pypto_wrapper.cpp"
       "$src/corpus/timing-hard-wait-timeout/good/calc_wait_timeout.cpp")

now_us() { echo $(($(date +%s%N) / 1000)); }
median() { sort -n | awk -v n="$n" 'NR == int((n + 1) / 2) { printf "%.1f", $1 / 1000 }'; }

# One row: clang and ptoverify run alternately, n times each, so a change in the machine's load
# during the run hits both sides alike; the medians and their ratio are printed.
compare() {  # name, then the clang command and the ptoverify command separated by --
  local name="$1"; shift
  local clang_cmd=() ptov_cmd=()
  while [ "$1" != "--" ]; do clang_cmd+=("$1"); shift; done
  shift
  ptov_cmd=("$@")
  local c_times=() p_times=()
  for _ in $(seq "$n"); do
    local t0 t1 t2
    t0=$(now_us); "${clang_cmd[@]}" >/dev/null 2>&1 || true
    t1=$(now_us); "${ptov_cmd[@]}" >/dev/null 2>&1 || true
    t2=$(now_us)
    c_times+=($((t1 - t0))); p_times+=($((t2 - t1)))
  done
  local c p
  c=$(printf '%s\n' "${c_times[@]}" | median)
  p=$(printf '%s\n' "${p_times[@]}" | median)
  printf '%-32s %12s %12s %8s\n' "$name" "$c" "$p" "$(awk -v a="$p" -v b="$c" 'BEGIN { printf "%.2fx", a / b }')"
}

printf '%-32s %12s %12s %8s\n' "file" "clang (ms)" "ptoverify" "ratio"
for f in "${files[@]}"; do
  mapfile -t floor < <(clang_floor "$f")
  compare "$(basename "$f")" "${floor[@]}" -- "$build/ptoverify-cpp" check "$f"
done
# All of them in one process: the per-process start-up is paid once.
all=""
for f in "${files[@]}"; do all+="${all:+; }$(floor_script "$f")"; done
compare "all files (one ptoverify)" bash -c "$all" -- "$build/ptoverify-cpp" check "${files[@]}"
# The real fused kernel (issue 14's targets).
real="$src/../shared/corpus-real/cpp/pypto-lib_3192c95d/models/deepseek/v4-flash/kernels/fused_pre_norm_cce"
if [ -d "$real" ]; then
  for f in "$real/entry.cpp" "$real/debug/entry.cpp"; do
    mapfile -t floor < <(clang_floor "$f")
    compare "fused $(basename "$(dirname "$f")")/$(basename "$f")" "${floor[@]}" -- "$build/ptoverify-cpp" check "$f"
  done
else
  echo "real fused kernel: skipped (../shared/corpus-real is not beside the project)"
fi
# pto-isa's hand-written device kernels (the goal: within 1.5x of clang), each file in the core views
# it is modelled in; one run, file by file: each file's floor, then its check, the times summed (a
# change in the machine's load during the row hits both sides alike, as the rows above alternate).
isa="$src/../shared/corpus-real/cpp/pto-isa_3186c381"
if [ -d "$isa" ]; then
  # The flash-attention build's generated case header (one case), as tests/cpp_real_corpus.sh makes it.
  mkdir -p "$gen/fa_cases"
  python3 "$isa/kernels/manual/common/flash_atten/scripts/generate_cases.py" --cases 128,128,1024,128 \
    --output-header "$gen/fa_cases/generated_cases.h" --output-json "$gen/fa_cases/generated_cases.json" >/dev/null
  isa_flags=(-D__CCE_AICORE__=220 -I "$isa/tests/common" -I "$isa/tests/npu/a2a3/comm/st/testcase"
             -I "$isa/kernels/manual/common/flash_atten" -I "$gen/fa_cases")
  mapfile -t isa_files < <(find "$isa" -name '*.cpp' ! -name 'main*.cpp' ! -name golden.cpp | sort)
  c_sum=0 p_sum=0
  for f in "${isa_files[@]}"; do
    floor=$(floor_script "$f" "${isa_flags[@]}")
    t0=$(now_us); bash -c "$floor" >/dev/null 2>&1 || true
    t1=$(now_us); "$build/ptoverify-cpp" check "$f" -- "${isa_flags[@]}" >/dev/null 2>&1 || true
    t2=$(now_us)
    c_sum=$((c_sum + t1 - t0)) p_sum=$((p_sum + t2 - t1))
  done
  printf '%-32s %12.1f %12.1f %8s\n' "pto-isa tree (${#isa_files[@]} files)" "$(awk -v t="$c_sum" 'BEGIN { print t / 1000 }')" \
    "$(awk -v t="$p_sum" 'BEGIN { print t / 1000 }')" "$(awk -v a="$p_sum" -v b="$c_sum" 'BEGIN { printf "%.2fx", a / b }')"
else
  echo "pto-isa tree: skipped (../shared/corpus-real is not beside the project)"
fi
# cann/pypto's device tree (the goal: within 2x of clang++ -fsyntax-only): one check of the
# directory against clang on each of its sources, with the flags of the compile_commands.json
# written from its CMake files and the same vendor stand-ins (prelude/vendor). Three runs each,
# alternating, and their medians: clang's side alone varied from 18 s to 30 s between single runs.
pypto="$src/../shared/corpus-real/machine/pypto_883e7dfb"
if [ -d "$pypto" ]; then
  db="$gen/pypto-db"
  bash "$src/scripts/pypto_compile_commands.sh" "$pypto" "$db"
  dev="$(cd "$pypto" && pwd)/framework/src/machine/device"
  # clang stops at the first header it cannot find, where ptoverify reads it as empty: the
  # baseline gets the same empty files (found once, before timing).
  missing="$gen/pypto-missing"
  mkdir -p "$missing"
  clang_tree() {  # clang_tree [prepare]
    python3 - "$db/compile_commands.json" "$clangxx" "$prelude/vendor" "$missing" "${1:-}" <<'PY'
import json, os, re, subprocess, sys
db, clang, vendor, missing, prepare = sys.argv[1:6]
for e in json.load(open(db)):
    args = [clang, "-fsyntax-only", "-w"] + [a for a in e["arguments"][1:] if a != "-c" and a != e["file"]]
    args += ["-idirafter", vendor, "-idirafter", missing, e["file"]]
    for _ in range(20 if prepare else 1):
        r = subprocess.run(args, cwd=e["directory"], capture_output=True, text=True)
        m = re.search(r"fatal error: '([^']+)' file not found", r.stderr)
        if not prepare or not m:
            break
        path = os.path.join(missing, m.group(1))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        open(path, "w").write("#pragma once\n")
PY
  }
  clang_tree prepare
  syntax_only_tree() { clang_tree; }
  n=3 compare "pypto device tree (-j1)" syntax_only_tree -- "$build/ptoverify-cpp" check -j 1 -p "$db" "$dev"
else
  echo "cann/pypto device tree: skipped (../shared/corpus-real is not beside the project)"
fi
