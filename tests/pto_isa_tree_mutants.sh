#!/usr/bin/env bash
# Mistakes made by hand over pto-isa's whole device code (../shared/corpus-real/cpp/
# pto-isa_3186c381_all), read against its real headers as tests/pto_isa_tree.sh reads them.
# Each row of tests/mutants/pto-isa-tree-mutants.tsv is one edit of one kernel file, judged live
# (a defect on hardware) or not before the run. For each row the file is copied alone into a
# temporary folder under its path relative to the tree (its own folder stays on the include path,
# so its headers and `../common.hpp` still resolve), the edit is applied (it fails when the
# original text is not found exactly once), and ptoverify checks the copy; the unchanged copy is
# checked once per file. A mutant is caught when it has an error or warning finding of its
# intended rules that the unchanged file does not have (same rule, line and message); one not
# caught whose report leaves an intended rule `unknown` is counted apart as unknown, the rest are
# silent. Live mutants caught are the rate, held against a floor. Survivors' causes, as far as the
# model output shows them, are in tests/mutants/pto-isa-tree-mutants-survivors.tsv; a live
# survivor with no cause there fails the test.
#   pto_isa_tree_mutants.sh PTOVERIFY SOURCE_DIR
# Environment: PTOVERIFY_TREE_MUTANTS (another table), PTOVERIFY_TREE_MUTANTS_JOBS (default 2),
# MIN_CAUGHT_PERCENT (the floor), PTOVERIFY_TREE_MUTANTS_OUT (keep the reports there).
set -uo pipefail
BIN=$1
SRC=$2
# shellcheck source=tests/real_corpus_common.sh
source "$SRC/tests/real_corpus_common.sh"
# The floor is what is measured today, rounded down: 55 of the 77 live mutants caught (71.4%). The
# issue's goal is 90% of the live ones caught by their intended family; the survivors' causes are
# in docs/real-corpus.md, "Hand-made mutants over the whole tree".
MIN_CAUGHT_PERCENT=${MIN_CAUGHT_PERCENT:-71}
TABLE=${PTOVERIFY_TREE_MUTANTS:-$SRC/tests/mutants/pto-isa-tree-mutants.tsv}
CAUSES=$SRC/tests/mutants/pto-isa-tree-mutants-survivors.tsv
JOBS=${PTOVERIFY_TREE_MUTANTS_JOBS:-2}

A=$REAL/pto-isa_3186c381_all
[ -d "$A" ] || { echo "PTOVERIFY-SKIPPED: $A is not there"; exit 77; }
# The tree by its real path: a header reached through a symlinked folder is not the header the
# front end rewrites (pto-isa's `[aicore]` spelling), and the kernels lose their bodies.
A=$(cd -P "$A" && pwd)
WORK=$(cd -P "$TMP" && pwd)
OUT=${PTOVERIFY_TREE_MUTANTS_OUT:-$WORK/reports}
mkdir -p "$OUT"

python3 - "$BIN" "$A" "$WORK" "$OUT" "$TABLE" "$CAUSES" "$JOBS" "$MIN_CAUGHT_PERCENT" "$SRC" <<'EOF'
import collections, concurrent.futures, fnmatch, json, os, subprocess, sys, time

bin_, tree, work, out, table, causes_path, jobs, floor, src = sys.argv[1:10]
jobs, floor = int(jobs), int(floor)
start = time.time()

def unescape(s):
    r, i = [], 0
    while i < len(s):
        if s[i] == '\\' and i + 1 < len(s):
            r.append({'n': '\n', 't': '\t', '\\': '\\'}.get(s[i + 1], '\\' + s[i + 1]))
            i += 2
        else:
            r.append(s[i])
            i += 1
    return ''.join(r)

COLUMNS = ['id', 'mistake', 'file', 'line', 'original', 'replacement', 'intended', 'live', 'why']
rows, problems = [], []
for n, raw in enumerate(open(table, encoding='utf-8'), 1):
    line = raw.rstrip('\n')
    if not line.strip() or line.startswith('#'):
        continue
    cols = line.split('\t')
    if cols == COLUMNS:
        continue
    if len(cols) != len(COLUMNS):
        problems.append(f'{table}:{n}: {len(cols)} columns, expected {len(COLUMNS)} ({", ".join(COLUMNS)})')
        continue
    r = dict(zip(COLUMNS, cols))
    if r['live'] not in ('yes', 'no') or not r['why'].strip() or not r['intended'].strip():
        problems.append(f'{table}:{n}: live must be yes or no, with a reason and intended rules')
        continue
    if r['line'] != '-' and not r['line'].isdigit():
        problems.append(f"{table}:{n}: line must be a number or -, not {r['line']!r}")
        continue
    r['original'] = unescape(r['original'])
    r['replacement'] = '' if r['replacement'] == '<delete>' else unescape(r['replacement'])
    rows.append(r)
ids = collections.Counter(r['id'] for r in rows)
problems += [f'mutant id {i} is used {c} times' for i, c in ids.items() if c > 1]

# Apply every edit first: a row whose original text is not found exactly once fails the test
# before anything runs. The replacement keeps the file's line count (padded with newlines), so
# the findings of the original and the mutant compare line by line.
mutated = {}
for r in rows:
    path = os.path.join(tree, r['file'])
    if not os.path.isfile(path):
        problems.append(f"{r['id']}: {r['file']} is not in the tree")
        continue
    text = open(path, encoding='utf-8', errors='surrogateescape').read()
    orig = r['original']
    if not orig:
        problems.append(f"{r['id']}: empty original text")
        continue
    hits, at = [], text.find(orig)
    while at >= 0:
        hits.append(at)
        at = text.find(orig, at + 1)
    if r['line'] != '-':
        hits = [h for h in hits if text.count('\n', 0, h) + 1 == int(r['line'])]
    where = f"line {r['line']} of {r['file']}" if r['line'] != '-' else r['file']
    if len(hits) != 1:
        problems.append(f"{r['id']}: the original text {orig!r} occurs {len(hits)} time(s) in {where}, not exactly once")
        continue
    rep = r['replacement']
    if rep.count('\n') > orig.count('\n'):
        problems.append(f"{r['id']}: the replacement has more lines than the original")
        continue
    rep += '\n' * (orig.count('\n') - rep.count('\n'))
    mutated[r['id']] = text[:hits[0]] + rep + text[hits[0] + len(orig):]
if problems:
    for p in problems:
        print('FAIL:', p)
    sys.exit(1)

causes = {}
if os.path.exists(causes_path):
    for raw in open(causes_path, encoding='utf-8'):
        if raw.strip() and not raw.startswith('#'):
            i, cause = raw.rstrip('\n').split('\t', 1)
            causes[i] = cause

def flags_of(rel):
    """The flags of the original file (tests/pto_isa_flags.sh), its first compile."""
    script = 'source "$1/tests/pto_isa_flags.sh"; pto_isa_flags "$2" "$1" "$3" "$(pto_isa_builds "$3" | head -1)"'
    got = subprocess.run(['bash', '-c', script, '_', src, tree, os.path.join(tree, rel)],
                         capture_output=True, text=True, check=True)
    return got.stdout.split('\n')[:-1]

def check(root, rel):
    """ptoverify on root/rel with the include folders tests/pto_isa_tree.sh gives the file."""
    f = os.path.join(root, rel)
    cmd = [bin_, 'check', '--format', 'json', '-j', '1', f] + flags_of(rel)
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True)
    seconds[(root, rel)] = time.time() - t0
    name = root[len(work) + 1:].replace('/', '_') + '.json'
    open(os.path.join(out, name), 'w').write(p.stdout)
    if p.returncode > 2:
        return None, f'exit {p.returncode}: {p.stderr.strip()[-300:]}'
    try:
        report = json.loads(p.stdout)
    except ValueError:
        return None, 'no JSON report'
    found = set()
    for x in report['findings']:
        loc = x.get('location', {})
        msg = x['message'].replace(root + '/', '')
        where = loc.get('file', f)
        where = where[len(root) + 1:] if where.startswith(root + '/') else where
        found.add((x['level'], x['ruleId'], where, loc.get('line', 0), msg))
    return found, None

def place(root, rel, text):
    os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
    open(os.path.join(root, rel), 'w', encoding='utf-8', errors='surrogateescape').write(text)
    return root

seconds = {}
files = sorted({r['file'] for r in rows})
jobs_list = []
for i, rel in enumerate(files):
    root = os.path.join(work, 'original', str(i))
    jobs_list.append(('original', rel, place(root, rel, open(os.path.join(tree, rel), encoding='utf-8', errors='surrogateescape').read())))
for r in rows:
    jobs_list.append((r['id'], r['file'], place(os.path.join(work, 'mutant', r['id']), r['file'], mutated[r['id']])))
results = {}
with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
    futures = {pool.submit(check, root, rel): (kind, rel) for kind, rel, root in jobs_list}
    for fut in concurrent.futures.as_completed(futures):
        results[futures[fut]] = fut.result()

failures = []
def matches(rule, intended):
    return any(fnmatch.fnmatchcase(rule, pat) for pat in intended.split('|'))

print(f"{'id':<6} {'live':<4} {'verdict':<9} {'intended':<34} file")
tally = collections.Counter()
by_kind = {'mistake': collections.defaultdict(collections.Counter), 'intended family': collections.defaultdict(collections.Counter)}
survivors = []
for r in rows:
    base, err = results[('original', r['file'])]
    if err:
        failures.append(f"{r['file']} (unchanged): {err}")
        continue
    mut, err = results[(r['id'], r['file'])]
    if err:
        failures.append(f"{r['id']}: {err}")
        continue
    def shown(s, levels):
        return {(rule, f, line, msg) for level, rule, f, line, msg in s if level in levels and matches(rule, r['intended'])}
    new = shown(mut, ('error', 'warning')) - shown(base, ('error', 'warning'))
    # Not caught: `unknown` when the mutant's report leaves an intended rule unknown (a new
    # unknown, or one the unchanged file has too, e.g. a kernel not fully checked), else `silent`.
    unknown = shown(mut, ('unknown',))
    new_unknown = unknown - shown(base, ('unknown',))
    verdict = 'caught' if new else 'unknown' if unknown else 'silent'
    live = r['live'] == 'yes'
    tally[(live, verdict)] += 1
    by_kind['mistake'][r['mistake']][(live, verdict)] += 1
    by_kind['intended family'][r['intended'].split('|')[0].split('-')[0]][(live, verdict)] += 1
    note = ' (a new unknown)' if verdict == 'unknown' and new_unknown else ''
    print(f"{r['id']:<6} {r['live']:<4} {verdict:<9} {r['intended'][:34]:<34} {r['file']}:{r['line']}{note}")
    for rule, f, line, msg in sorted(new)[:2]:
        print(f'         {rule} {f}:{line}: {msg[:150]}')
    if live and not new:
        survivors.append(r['id'])
        cause = causes.get(r['id'])
        print(f"         survived: {cause or 'NO CAUSE RECORDED'}")
        if not cause:
            failures.append(f"{r['id']}: a live survivor with no cause in {os.path.basename(causes_path)}")
    if not live and new:
        print(f"         judged not live, yet a new finding: {r['why'][:150]}")
for i in sorted(causes):
    if i in ids and i not in survivors:
        print(f'note: {i} has a survivor cause recorded but is caught now (or not live): drop its line')

live = sum(c for (l, _), c in tally.items() if l)
caught = tally[(True, 'caught')]
print()
for kind, groups in by_kind.items():
    print(f'by {kind} (live: caught / unknown / silent; not live: flagged / quiet):')
    for name in sorted(groups):
        t = groups[name]
        print(f"  {name:<15} {sum(t.values()):>3} mutants, live {sum(c for (l, _), c in t.items() if l):>2}: "
              f"{t[(True, 'caught')]} / {t[(True, 'unknown')]} / {t[(True, 'silent')]}; "
              f"not live {sum(c for (l, _), c in t.items() if not l)}: "
              f"{t[(False, 'caught')]} / {t[(False, 'unknown')] + t[(False, 'silent')]}")
pct = 100 * caught / live if live else 0
print(f'pto-isa tree mutants: {len(rows)} mutants over {len(files)} files, {live} live: {caught} caught ({pct:.1f}%), '
      f"{tally[(True, 'unknown')]} unknown, {tally[(True, 'silent')]} silent; "
      f"{sum(c for (l, _), c in tally.items() if not l)} not live, {tally[(False, 'caught')]} of them flagged; "
      f'{time.time() - start:.0f} s')
if live == 0 or caught * 100 < live * floor:
    failures.append(f'{caught} of {live} live mutants caught, below the floor of {floor}% (the goal is 90%)')
slow = sorted(((t, rel) for (root, rel), t in seconds.items() if '/original/' in root + '/'), reverse=True)[:3]
print('slowest files (unchanged):', ', '.join(f'{rel} {t:.0f} s' for t, rel in slow))
for f in failures:
    print('FAIL:', f)
sys.exit(1 if failures else 0)
EOF
