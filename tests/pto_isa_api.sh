#!/usr/bin/env bash
# pto-isa's public API held whole: every PTO_INST function of pto_instr.hpp and
# pto_comm_inst.hpp, every function of the grid-pipe headers (npu/a2a3/grid_intrinsic.hpp,
# grid_pipe_runtime.hpp) and every public member of pto::Tile, listed from the real headers, is
# either a row of the op table (`ptoverify isa`) or has a line per arch in tests/pto_isa_api.tsv
# whose claim a kernel making the call shows under `ptoverify model` against the real headers:
# walked (the function among those the kernel runs, no gap), declaration (no gap) or gap (a
# counted gap, for the reason written there). Stale lines fail too. The headers are read
# through a symlinked folder, as ../shared/corpus-real is here. An instruction the table models
# whole (TLOAD, TSTORE, with and without events) is one op, never also its body's copies.
#   pto_isa_api.sh PTOVERIFY SOURCE_DIR
set -uo pipefail
BIN=$1
SRC=$2
# shellcheck source=tests/real_corpus_common.sh
source "$SRC/tests/real_corpus_common.sh"
A=$REAL/pto-isa_3186c381_all
[ -d "$A/include/pto" ] || { echo "PTOVERIFY-SKIPPED: $A is not there"; exit 77; }
"$BIN" isa >"$TMP/isa.txt" || { echo "FAIL: ptoverify isa"; exit 1; }
ln -s "$(cd "$A/include" && pwd)" "$TMP/include"

python3 - "$A" "$SRC/tests/pto_isa_api.tsv" "$TMP" "$BIN" <<'EOF'
import os, re, subprocess, sys
root, table_path, tmp, binary = sys.argv[1:5]
ARCHES = ('a2a3', 'a5')
KEYWORDS = {'if', 'for', 'while', 'switch', 'return', 'sizeof', 'static_assert', 'decltype', 'alignof', 'catch',
            'static_cast', 'reinterpret_cast', 'const_cast', 'dynamic_cast', 'defined', 'noexcept', 'alignas'}

def strip(text):  # comments and preprocessor lines out, offsets kept
    text = re.sub(r'/\*.*?\*/', lambda m: re.sub(r'[^\n]', ' ', m.group(0)), text, flags=re.S)
    text = re.sub(r'//[^\n]*', '', text)
    return re.sub(r'^[ \t]*#[^\n]*(\\\n[^\n]*)*', '', text, flags=re.M)

def close(text, i, open_c, close_c):
    depth = 0
    for j in range(i, len(text)):
        depth += (text[j] == open_c) - (text[j] == close_c)
        if depth == 0: return j
    return len(text) - 1

def functions(path, wanted):
    """(scope, name) of each function declared or defined at namespace scope or public in a class,
    whichever preprocessor branch it is in."""
    text = strip(open(path).read())
    out, scopes, i = [], [], 0  # scopes: (name, end, body start, is a class)
    token = re.compile(r'\bnamespace\s+([A-Za-z_]\w*)\s*\{|\b(struct|class)\s+([A-Za-z_]\w*)[^;{()]*\{|'
                       r'\b([A-Za-z_]\w*)\s*(<[^;{}()]*>)?\s*\(|\{|\}')
    while (m := token.search(text, i)):
        while scopes and m.start() > scopes[-1][1]: scopes.pop()
        if m.group(1) or m.group(3):
            scopes.append((m.group(1) or m.group(3), close(text, m.end() - 1, '{', '}'), m.end(), m.group(2) == 'class'))
            i = m.end()
            continue
        if m.group(0) == '{':  # a function body or an initialiser: skipped whole
            i = close(text, m.start(), '{', '}') + 1
            continue
        if m.group(0) == '}':
            i = m.end()
            continue
        name, paren = m.group(4), close(text, m.end() - 1, '(', ')')
        tail = re.match(r'\s*(const\s*)?(noexcept\s*)?(->[^;{]*)?(:[^;{]*)?([;{])', text[paren + 1:paren + 400])
        line = text[text.rfind('\n', 0, m.start()) + 1:m.start()]
        public = True
        if scopes and scopes[-1][3] is not None:
            labels = re.findall(r'\b(public|private|protected)\s*:', text[scopes[-1][2]:m.start()])
            public = (labels[-1] if labels else ('private' if scopes[-1][3] else 'public')) == 'public'
        if (tail and public and name not in KEYWORDS and not re.match(r'\s*(using|friend|typedef)\b', line)
                and wanted(text[max(0, m.start() - 120):m.start()])):
            out.append('::'.join([s[0] for s in scopes] + [name]))
        i = close(text, paren + 1 + tail.end() - 1, '{', '}') + 1 if tail and tail.group(5) == '{' else paren + 1
    return out

inst = lambda before: re.search(r'PTO_INST\s+[\w:<>, ]*$', before) is not None
every = lambda before: True
api = []
for path, wanted, scope in [('pto/common/pto_instr.hpp', inst, 'pto::'), ('pto/comm/pto_comm_inst.hpp', inst, 'pto::'),
                            ('pto/npu/a2a3/grid_intrinsic.hpp', every, 'pto::'),
                            ('pto/npu/a2a3/grid_pipe_runtime.hpp', every, 'pto::'),
                            ('pto/common/pto_tile.hpp', every, 'pto::Tile::')]:
    for n in functions(f'{root}/include/{path}', wanted):
        if n.startswith(scope) and n not in api: api.append(n)

rows = set()
for line in open(f'{tmp}/isa.txt'):
    m = re.search(r' cpp=(\S+)', line)
    if m: rows.update(m.group(1).split(','))

failures = []
table = []
for number, line in enumerate(open(table_path), 1):
    if not line.strip() or line.startswith('#'): continue
    cols = line.rstrip('\n').split('\t')
    if len(cols) != 5 or cols[1] not in ('a2a3', 'a5', 'both') or cols[2] not in ('walked', 'gap', 'declaration'):
        failures.append(f'{table_path}:{number}: expected name, arch, walked|gap|declaration, call, reason')
        continue
    name, arch, cls, call, reason = cols
    if not call.strip() or not reason.strip():
        failures.append(f'{table_path}:{number}: {name} needs a call and a reason')
    if cls == 'gap' and '`' not in reason:
        failures.append(f'{table_path}:{number}: {name}: a gap\'s reason quotes what its gap says (`...`)')
    table.append(dict(name=name, arches=ARCHES if arch == 'both' else (arch,), cls=cls, call=call, reason=reason,
                      line=number))

# Every name a row, or one line per arch; no line for a row or a name the headers do not have.
for name in api:
    if name in rows: continue
    for arch in ARCHES:
        lines = [t for t in table if t['name'] == name and arch in t['arches']]
        if len(lines) != 1:
            failures.append(f'{name} ({arch}): neither a row of the op table nor one line of {table_path} '
                            f'({len(lines)} lines)')
for t in table:
    if t['name'] not in api: failures.append(f'{table_path}:{t["line"]}: {t["name"]} is not in the headers\' API')
    elif t['name'] in rows: failures.append(f'{table_path}:{t["line"]}: {t["name"]} is a row of the op table')

PROLOGUE = '''#include <pto/pto-inst.hpp>
#include <pto/common/fifo.hpp>
#include <pto/npu/a2a3/grid_pipe_runtime.hpp>
using namespace pto;
using V = Tile<TileType::Vec, float, 16, 16>;
using VP = Tile<TileType::Vec, float, 16, 16, BLayout::RowMajor, 16, 16, SLayout::NoneBox, 512, PadValue::Zero>;
using G = GlobalTensor<float, Shape<1, 1, 1, 16, 16>, Stride<1, 1, 1, 16, 1>>;
using MO = Tile<TileType::Mat, int8_t, 16, 32, BLayout::ColMajor, 16, 16, SLayout::RowMajor, 512>;
using FB = Tile<TileType::Scaling, uint64_t, 1, 16, BLayout::RowMajor, 1, 16, SLayout::NoneBox>;
'''
KERNEL = '''__global__ AICORE void {name}(__gm__ float* x, __gm__ float* y, __gm__ uint32_t* w) {{
  V a, b, c;
  VP p;
  TASSIGN(a, 0x0);
  TASSIGN(b, 0x1000);
  TASSIGN(c, 0x2000);
  TASSIGN(p, 0x4000);
  G gx(x), gy(y);
{body}
}}
'''
CUBE = '''#if defined(__DAV_CUBE__)
  MO mo;
  TileAcc<float, 16, 16> acc;
  FB fb;
  TASSIGN(mo, 0x0);
  TASSIGN(acc, 0x0);
  TASSIGN(fb, 0x0);
  {call}
#endif'''
# Instructions the table models whole: one op each, their bodies' copies never read besides.
WHOLE = '''  Event<Op::TLOAD, Op::TSTORE_VEC> e;
  TLOAD(a, gx);
  TSTORE(gy, a);
  e = TLOAD(b, gx);
  TSTORE(gy, b, e);'''

def kernels(text):
    """kernel name -> (gaps, functions run, op lines of each core view), the views' gaps and
    functions merged."""
    out = {}
    for block in re.split(r'\n(?=kernel )', text):
        m = re.match(r'kernel (\w+) ', block)
        if not m: continue
        gaps, run, ops = out.setdefault(m.group(1), ([], set(), []))
        gaps += re.findall(r'^  not modelled: (.*)', block, re.M)
        for r in re.findall(r'^  functions run: (.*)', block, re.M): run.update(r.split())
        ops.append(re.findall(r'^\s+\d+:\d+ (.*)', block, re.M))
    return out

counts = {arch: {'row': sum(n in rows for n in api), 'walked': 0, 'declaration': 0, 'gap': 0} for arch in ARCHES}
for arch in ARCHES:
    probes = [t for t in table if arch in t['arches']]
    source = PROLOGUE + KERNEL.format(name='api_whole_rows', body=WHOLE)
    for i, t in enumerate(probes):
        call = t['call']
        body = CUBE.format(call=call[5:]) if call.startswith('cube:') else '  ' + call
        source += f'// {t["name"]}\n' + KERNEL.format(name=f'api_{i}', body=body)
    path = f'{tmp}/api_{arch}.cpp'
    open(path, 'w').write(source)
    run = subprocess.run([binary, 'model', '--arch', arch, path, '--', f'-I{tmp}/include'], capture_output=True, text=True)
    if run.returncode > 2:
        failures.append(f'{arch}: ptoverify model exited {run.returncode}: {run.stderr[-500:]}')
        continue
    seen = kernels(run.stdout)
    if any('non-static data member cannot be constexpr' in l for l in run.stdout.splitlines()):
        failures.append(f'{arch}: the headers read through a symlinked folder were not rewritten ([aicore])')
    gaps, _, views = seen.get('api_whole_rows', (['no such kernel'], set(), [[]]))
    for ops in views:
        copies = [o for o in ops if re.match(r'\w+ (copy|load_cbuf|create_cbuf)', o)]
        whole = [o for o in ops if re.match(r'(load TLOAD|store TSTORE) ', o)]
        if gaps or copies or len(whole) != 4:
            failures.append(f'{arch}: TLOAD / TSTORE not one op each ({len(whole)} ops, copies {copies}, gaps {gaps[:2]})')
    for i, t in enumerate(probes):
        gaps, ran, _ = seen.get(f'api_{i}', (None, set(), []))
        where = f'{t["name"]} ({arch}, {table_path}:{t["line"]})'
        if os.environ.get('PTOVERIFY_API_VERBOSE'):  # what each call showed, for writing the table
            print(f'{where}: {t["cls"]}; gaps {gaps}')
        if gaps is None:
            failures.append(f'{where}: its kernel was not modelled')
        elif t['cls'] == 'walked' and (t['name'] not in ran or gaps):
            failures.append(f'{where}: not walked through its body without a gap '
                            f'(runs {sorted(ran)}; gaps {gaps[:2]})')
        elif t['cls'] == 'declaration' and gaps:
            failures.append(f'{where}: a gap where the table says it is modelled: {gaps[:2]}')
        elif t['cls'] == 'gap' and not gaps:
            failures.append(f'{where}: the table says it is a counted gap ({t["reason"]}), but its call has none')
        elif t['cls'] == 'gap' and (missing := [q for q in re.findall(r'`([^`]+)`', t['reason'])
                                                if not any(q in g for g in gaps)]):
            failures.append(f'{where}: no gap says {missing} (gaps {gaps[:2]})')
        else:
            counts[arch][t['cls']] += 1

print(f'pto-isa API: {len(api)} functions; ' +
      '; '.join(f'{arch}: ' + ', '.join(f'{v} {k}' for k, v in c.items()) for arch, c in counts.items()))
for f in failures: print('FAIL:', f)
print(f'{0 if failures else 1} passed, {1 if failures else 0} failed')
sys.exit(1 if failures or not api else 0)
EOF
