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
MIN_SYNC_PERCENT=${MIN_SYNC_PERCENT:-90}
MAX_INPUT_ERROR_PERCENT=${MAX_INPUT_ERROR_PERCENT:-3}
STRIDE=${PTOVERIFY_TREE_STRIDE:-4}
OUT=${3:-$TMP/out}

A=$REAL/pto-isa_3186c381_all
[ -d "$A" ] || { echo "PTOVERIFY-SKIPPED: $A is not there"; exit 77; }

# One kernel file, once per compile its CMake files make (tests/pto_isa_flags.sh gives the flags).
check_one() {
  local f=$1 build name
  # shellcheck source=tests/pto_isa_flags.sh
  source "$SRC/tests/pto_isa_flags.sh"
  while IFS= read -r build; do
    name="$(echo "${f#"$A"/}" | tr / _)${build:+@${build#-D}}"
    mapfile -t flags < <(pto_isa_flags "$A" "$SRC" "$f" "$build")
    "$BIN" check --format json -j 1 "$f" "${flags[@]}" >"$OUT/$name.json" 2>/dev/null
    echo $? >"$OUT/$name.rc"
  done < <(pto_isa_builds "$f")
}
export -f check_one
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
