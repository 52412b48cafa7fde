#!/usr/bin/env bash
# pto-isa's whole device code (../shared/corpus-real/cpp/pto-isa_3186c381_all: its include/ and
# every kernel .cpp of tests/, kernels/ and demos/), each file read against pto-isa's real
# headers with the include folders its CMake files give, a2a3 and a5 with their arch. A ratchet on
# what is measured (docs/real-corpus.md): no crash; the set_flag / wait_flag / pipe_barrier calls
# the kernels write in a model (at least MIN_SYNC_PERCENT); files with an input error at most
# MAX_INPUT_ERROR_PERCENT; error findings listed by rule, those docs/real-corpus.md argues
# (tests/mutants/pto-isa-tree-errors.tsv) apart. The suite reads every STRIDE-th file (4 by
# default: the whole tree takes about 9 minutes on 2 cores); PTOVERIFY_TREE_STRIDE=1 reads all.
#   pto_isa_tree.sh PTOVERIFY SOURCE_DIR [OUT_DIR]
set -uo pipefail
BIN=$1
SRC=$2
# shellcheck source=tests/real_corpus_common.sh
source "$SRC/tests/real_corpus_common.sh"
MIN_SYNC_PERCENT=${MIN_SYNC_PERCENT:-70}
MAX_INPUT_ERROR_PERCENT=${MAX_INPUT_ERROR_PERCENT:-7}
STRIDE=${PTOVERIFY_TREE_STRIDE:-4}
OUT=${3:-$TMP/out}

A=$REAL/pto-isa_3186c381_all
[ -d "$A" ] || { echo "PTOVERIFY-SKIPPED: $A is not there"; exit 77; }

# The flags of one kernel file: its arch (a path under a5/ is an a5 kernel), the include folders
# the tree's CMake files give (the tests' common headers, the communication tests' helpers, the
# file's own folder, flash-attention's shared headers, and tests/pto_isa_tree for the header the
# flash-attention build generates) and their memory model define (a5's tests
# and the mxfp4 matmul are built REGISTER_BASE, the rest MEMORY_BASE). A file the CMake files
# compile twice (syncall's mix tests: once with SYNCALL_MIX_BUILD_AIC, once with ..._AIV) is
# checked once per compile.
# The core kind the file's CMake compiles it for: a test's pto_vec_st / pto_cube_st (a mix test,
# pto_mix_st, reads both cores), or the one --cce-aicore-arch its folder's CMakeLists.txt names;
# nothing when that is not one value.
core_of() {
  local dir arch suffix
  dir=$(dirname "$1")
  [ -f "$dir/CMakeLists.txt" ] || return 0
  case "$1" in */a5/*) arch=dav-c310 ;; *) arch=dav-c220 ;; esac
  if grep -q '^pto_vec_st(' "$dir/CMakeLists.txt"; then suffix=-vec
  elif grep -q '^pto_cube_st(' "$dir/CMakeLists.txt"; then suffix=-cube
  elif grep -q '^pto_mix_st(' "$dir/CMakeLists.txt"; then return 0
  else
    local named
    named=$(grep -o -- '--cce-aicore-arch=[a-z0-9-]*' "$dir/CMakeLists.txt" | sort -u)
    [ "$(echo "$named" | grep -c .)" = 1 ] && echo "$named"
    return 0
  fi
  echo "--cce-aicore-arch=$arch$suffix"
}
check_one() {
  local f=$1 arch=a2a3 memory=-DMEMORY_BASE name
  case "$f" in */a5/*) arch=a5 ;; esac
  case "$f" in */tests/npu/a5/*|*/matmul_mxfp4_performance/*) memory=-DREGISTER_BASE ;; esac
  local builds=("") core
  case "$f" in */syncall/syncall_mix*) builds=(-DSYNCALL_MIX_BUILD_AIC -DSYNCALL_MIX_BUILD_AIV) ;; esac
  core=$(core_of "$f")
  for build in "${builds[@]}"; do
    name="$(echo "${f#"$A"/}" | tr / _)${build:+@${build#-D}}"
    "$BIN" check --format json --arch "$arch" -j 1 "$f" -- -I"$A/include" -I"$A/tests/common" \
      -I"$A/tests/npu/$arch/comm/st/testcase" -I"$(dirname "$f")" -I"$A/kernels/manual/common/flash_atten" \
      -I"$SRC/tests/pto_isa_tree" "$memory" ${build:+"$build"} ${core:+"$core"} >"$OUT/$name.json" 2>/dev/null
    echo $? >"$OUT/$name.rc"
  done
}
export -f check_one core_of
export BIN A OUT SRC
mkdir -p "$OUT"
find "$A/tests" "$A/kernels" "$A/demos" -name '*.cpp' ! -name 'main*.cpp' ! -name golden.cpp | sort |
  awk -v s="$STRIDE" '(NR - 1) % s == 0' | xargs -P "$(nproc)" -I{} bash -c 'check_one {}'

python3 - "$OUT" "$SRC/tests/mutants/pto-isa-tree-errors.tsv" "$MIN_SYNC_PERCENT" "$MAX_INPUT_ERROR_PERCENT" <<'EOF'
import collections, glob, json, sys
out, argued_path, min_sync, max_input_errors = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
argued = set()
for line in open(argued_path):
    if line.strip() and not line.startswith('#'):
        file, rule = line.rstrip('\n').split('\t')[:2]
        argued.add((file, rule))
failures, written, modelled, files = [], 0, 0, 0
input_error_files, errors_by_rule, unargued = [], collections.Counter(), collections.Counter()
for rc_path in sorted(glob.glob(out + '/*.rc')):
    name = rc_path[len(out) + 1:-3]
    files += 1
    rc = int(open(rc_path).read())
    if rc > 2:
        failures.append(f'{name}: exit {rc}')
        continue
    report = json.load(open(rc_path[:-3] + '.json'))
    if any(d['level'] == 'error' for d in report['inputDiagnostics']):
        input_error_files.append(name)
    for f in report['files']:
        written += f.get('syncCalls', {}).get('written', 0)
        modelled += f.get('syncCalls', {}).get('modelled', 0)
    for x in report['findings']:
        if x['level'] == 'error':
            errors_by_rule[x['ruleId']] += 1
            if (name, x['ruleId']) not in argued:
                unargued[x['ruleId']] += 1
print(f'pto-isa tree: {files} files, {modelled} of {written} written sync calls in a model, '
      f'{len(input_error_files)} file(s) with an input error')
print('error findings by rule:', dict(errors_by_rule), '; not argued in docs/real-corpus.md:', dict(unargued))
for name in input_error_files:
    print('  input error in', name)
if written == 0 or modelled * 100 < written * min_sync:
    failures.append(f'{modelled} of {written} sync calls in a model (at least {min_sync}% expected)')
if len(input_error_files) * 100 > files * max_input_errors:
    failures.append(f'{len(input_error_files)} of {files} files with an input error (at most {max_input_errors}%)')
for f in failures:
    print('FAIL:', f)
sys.exit(1 if failures or files == 0 else 0)
EOF
