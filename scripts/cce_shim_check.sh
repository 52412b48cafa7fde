#!/usr/bin/env bash
# Parses every kernel file of a pto-isa tree against pto-isa's REAL headers with stock clang 14,
# the CCE compiler's builtins stood in for by prelude/ptoverify_cce.h (+ ptoverify_cce_intrinsics.h),
# in both views (vector and cube) of the file's architecture, and summarises the errors: those
# located inside include/pto (the goal is none) and those in the kernel files themselves.
# Usage: scripts/cce_shim_check.sh TREE [OUTDIR]
#   scripts/cce_shim_check.sh /work/shared/corpus-real/cpp/pto-isa_3186c381_all
# Environment: ISAOPS (folder holding the generated ptoverify_isa_ops.h, default /tmp/isaops),
#   JOBS (parallel clang runs, default 2), CLANG (default clang++-14), FILES (a file listing
#   kernel paths relative to TREE, to check only those).
# Kernels: every .cpp under tests/ kernels/ demos/ but main*.cpp and golden.cpp; a path with /a5/
# is an a5 kernel, any other an a2a3 kernel. The front end's in-memory rewrites are done on copies:
# `[aicore]` blanked in the headers, `<<<...>>>` launch configurations removed from kernel files
# (a `#line` keeps the original path in diagnostics).
set -uo pipefail
tree="$(cd "${1:?usage: cce_shim_check.sh TREE [OUTDIR]}" && pwd)"
out="${2:-/tmp/cce_shim_check}"
here="$(cd "$(dirname "$0")/.." && pwd)"
prelude="$here/prelude"
isaops="${ISAOPS:-/tmp/isaops}"
jobs="${JOBS:-2}"
clang="${CLANG:-clang++-14}"
[ -f "$isaops/ptoverify_isa_ops.h" ] || { echo "no $isaops/ptoverify_isa_ops.h (set ISAOPS)" >&2; exit 2; }
start=$SECONDS
rm -rf "$out"
mkdir -p "$out/log" "$out/src"

# Headers with `[aicore]` blanked (same length, so columns stay right); stubinc without its fake pto/.
cp -r "$tree/include" "$out/inc"
grep -rl '\[aicore\]' "$out/inc" | xargs -r sed -i 's/\[aicore\]/        /g'
# A launch inside a header (host code of pto/npu/kernels) is rewritten as the front end does.
grep -rl '<<<' "$out/inc" | xargs -r perl -0pi -e 's/<<<.*?>>>//gs'
cp -r "$prelude/stubinc" "$out/stubinc"
rm -rf "$out/stubinc/pto"

if [ -n "${FILES:-}" ]; then cp "$FILES" "$out/files.txt"
else (cd "$tree" && find tests kernels demos -name '*.cpp' ! -name 'main*.cpp' ! -name golden.cpp | sort) >"$out/files.txt"; fi

# One job line per file and view: ID ARCH VIEW RELPATH
n=0
while read -r rel; do
  n=$((n + 1))
  id=$(printf '%04d' "$n")
  case "$rel" in */a5/*) arch=a5 ;; *) arch=a2a3 ;; esac
  # Copy with launches' <<<...>>> removed (may span lines); #line keeps the original name.
  { printf '#line 1 "%s"\n' "$tree/$rel"; perl -0pe 's/<<<.*?>>>//gs' "$tree/$rel"; } >"$out/src/$id.cpp"
  echo "$id $arch vec $rel"
  echo "$id $arch cube $rel"
done <"$out/files.txt" >"$out/jobs.txt"

one() {  # ID ARCH VIEW REL
  local id="$1" arch="$2" view="$3" rel="$4" defs
  if [ "$arch" = a5 ]; then
    defs=(-D__CCE_AICORE__=310 -DPTO_NPU_ARCH_A5 -I"$tree/tests/npu/a5/comm/st/testcase")
    if [ "$view" = vec ]; then defs+=(-D__DAV_VEC__); else defs+=(-D__DAV_CUBE__); fi
  else
    defs=(-D__CCE_AICORE__=220 -DPTO_NPU_ARCH_A2A3 -I"$tree/tests/npu/a2a3/comm/st/testcase")
    if [ "$view" = vec ]; then defs+=(-D__DAV_C220_VEC__ -D__DAV_VEC__); else defs+=(-D__DAV_C220_CUBE__ -D__DAV_CUBE__); fi
  fi
  "$clang" -fsyntax-only -std=c++20 -x c++ -w -ferror-limit=0 -fno-color-diagnostics -I"$isaops" \
    -include "$prelude/ptoverify_cce.h" ${EXTRA_INCLUDE:+-include "$EXTRA_INCLUDE"} "${defs[@]}" -I"$out/inc" -I"$tree/tests/common" \
    -I"$(dirname "$tree/$rel")" -I"$tree/kernels/manual/common/flash_atten" -I"$out/stubinc" \
    "$out/src/$id.cpp" >"$out/log/$id.$view.txt" 2>&1
  echo "$id $arch $view $rel $?" >>"$out/status.txt"
}
export -f one
export tree out prelude isaops clang
xargs -P "$jobs" -L 1 bash -c 'one "$@"' _ <"$out/jobs.txt"

# Error lines: path:line:col: error: message  (fatal errors too). Headers = inside $out/inc/pto.
for f in "$out"/log/*.txt; do
  b="$(basename "$f" .txt)"; id="${b%%.*}"; view="${b#*.}"
  arch="$(awk -v id="$id" '$1 == id {print $2; exit}' "$out/jobs.txt")"
  grep -E '^[^ ]+:[0-9]+:[0-9]+: (fatal )?error: ' "$f" | sed "s|^|$arch $view |"
  grep -qE '^[^ ]+:[0-9]+:[0-9]+: (fatal )?error: ' "$f" && echo "$id $arch $view" >>"$out/runs_with_errors.txt"
done >"$out/errors.txt"
touch "$out/runs_with_errors.txt"
inc="$out/inc/pto/"
awk -v inc="$inc" 'index($3, inc) == 1' "$out/errors.txt" >"$out/header_errors.txt"
awk -v inc="$inc" 'index($3, inc) != 1' "$out/errors.txt" >"$out/kernel_errors.txt"

msg() { sed -E 's/^[^ ]+ [^ ]+ [^ ]+:[0-9]+:[0-9]+: //'; }
# Header errors not about the CCE builtins: host code of the headers naming ACL/runtime APIs
# that the small stubinc/acl stand-in lacks; remove_gm<__gm__ T> (with __gm__ empty, the
# partial specialisation is the primary template again).
hostapi='acl|ACL_|securec|rtSetDevice|int32_t \*. \(aka .int \*.\)'
gm='remove_gm|partial specialization does not specialize'
echo "== files: $(wc -l <"$out/files.txt"), runs: $(wc -l <"$out/jobs.txt"), time: $((SECONDS - start)) s"
echo "== errors inside include/pto: $(wc -l <"$out/header_errors.txt")" \
  "(host API: $(grep -cE "$hostapi" "$out/header_errors.txt"), remove_gm: $(grep -cE "$gm" "$out/header_errors.txt"))"
echo "-- other than those, by place"
grep -vE "$hostapi|$gm" "$out/header_errors.txt" | awk '{print $1, $2, $3}' | sed "s|$out/inc/||" | sort | uniq -c | sort -rn | head -40
echo "-- by message"
msg <"$out/header_errors.txt" | cut -c1-200 | sort | uniq -c | sort -rn | head -40
for arch in a2a3 a5; do
  echo "== $arch: errors in kernel files: $(awk -v a=$arch '$1 == a' "$out/kernel_errors.txt" | wc -l)" \
    "(runs with an error: $(awk -v a=$arch '$2 == a' "$out/runs_with_errors.txt" | wc -l) of $(awk -v a=$arch '$2 == a' "$out/jobs.txt" | wc -l))"
  awk -v a=$arch '$1 == a' "$out/kernel_errors.txt" | msg | cut -c1-200 | sort | uniq -c | sort -rn | head -40
  echo "-- by file"
  awk -v a=$arch '$1 == a {sub(/:[0-9]+:[0-9]+:$/, "", $3); print $3}' "$out/kernel_errors.txt" \
    | sed "s|^$tree/||" | sort | uniq -c | sort -rn | head -40
done
echo "== details in $out (errors.txt, header_errors.txt, kernel_errors.txt, log/)"
