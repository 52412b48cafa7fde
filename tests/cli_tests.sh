#!/usr/bin/env bash
# End-to-end tests of the ptoverify binary: exit codes, diagnostics format, subcommands and the
# real upstream corpus. Usage: cli_tests.sh PTOVERIFY SOURCE_DIR CASE
# Each case label below (indented two spaces) is the CTest test cli_<case> (tests/CMakeLists.txt
# reads them from this file).
set -uo pipefail
tool="$1"
src="$2"
case_name="$3"
cd "$src" || exit 2
failures=0

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# run EXPECTED_EXIT ARGS... ; output in $out
run() {
  local expected="$1"
  shift
  out="$(timeout 120 "$tool" "$@" 2>&1)"
  local code=$?
  if [ "$code" -ne "$expected" ]; then
    fail "ptoverify $* exited $code, expected $expected"
    echo "$out" | tail -20
  fi
}

expect_output() {
  if ! grep -qE -- "$1" <<<"$out"; then
    fail "output does not match /$1/"
    echo "$out" | tail -20
  fi
}

expect_no_output() {
  if grep -qE -- "$1" <<<"$out"; then
    fail "output unexpectedly matches /$1/"
    echo "$out" | tail -20
  fi
}

case "$case_name" in
  exit-codes)
    run 0 check corpus/comm-publish-fence/good
    run 1 check corpus/comm-publish-fence/bad
    expect_output '^corpus/comm-publish-fence/bad/[a-z_]+\.pto:[0-9]+:[0-9]+: error: .* \[comm-publish-fence\]$'
    expect_output ': note: the notify that publishes it on the path below$'
    run 1 check tests/inputs/warning_only.pto
    run 0 check --fail-on error tests/inputs/warning_only.pto
    run 0 check --rules 'sync-*' tests/inputs/warning_only.pto
    run 0 check --rules '-cache-policy-param' tests/inputs/warning_only.pto
    run 1 check --fail-on note corpus/comm-wait-batching/bad
    run 0 check corpus/comm-wait-batching/bad
    ;;
  bad-input)
    # Syntax errors: file:line:col, exit 2, and the good function between them is still checked.
    run 2 check tests/inputs/syntax_errors.pto
    expect_output '^tests/inputs/syntax_errors\.pto:5:33: error: unexpected '"'"'\)'"'"'$'
    expect_output '^tests/inputs/syntax_errors\.pto:13:33: error: unexpected character'
    expect_output '^tests/inputs/syntax_errors\.pto:9:5: error: .*\[sync-deadlock\]$'
    # Other inputs are still checked and reported alongside.
    run 2 check tests/inputs/syntax_errors.pto corpus/comm-publish-fence/bad
    expect_output 'invalidate_before_store\.pto:[0-9]+:[0-9]+: error: .*\[comm-publish-fence\]'
    run 2 check does/not/exist.pto
    expect_output '^does/not/exist\.pto: error: no such file or directory$'
    tmp="$(mktemp -d)"
    printf 'func.func @k() {\n  %%x = "unterminated\n}\n' > "$tmp/unterminated.pto"
    head -c 4096 /dev/urandom > "$tmp/random.pto"
    printf '' > "$tmp/empty.pto"
    run 2 check "$tmp/unterminated.pto"
    expect_output 'unterminated\.pto:2:8: error: unterminated string literal'
    out="$(timeout 60 "$tool" check "$tmp/random.pto" 2>&1)"
    code=$?
    [ "$code" -le 2 ] || fail "random bytes: exit $code (crash or hang)"
    run 0 check "$tmp/empty.pto"
    mkdir -p "$tmp/no_kernels" && touch "$tmp/no_kernels/kernel.txt"
    run 2 check "$tmp/no_kernels"
    expect_output 'no_kernels: error: no \.pto, \.mlir or C\+\+ file in this directory$'
    run 2 check --rules no-such-rule corpus
    run 2 check --arch a9 corpus
    run 2 frobnicate
    # Bytes that are not ASCII (issue 18): a valid UTF-8 name and a stray Latin-1 byte are input
    # errors that name the character; every format still writes valid UTF-8 that its parser
    # reads, with the other input's findings in it.
    printf 'module {\n  func.func @caf\xc3\xa9() {\n    return\n  }\n}\n' > "$tmp/utf8.pto"
    printf 'module {\n  func.func @k\xff() {\n    return\n  }\n}\n' > "$tmp/latin1.pto"
    run 2 check "$tmp/utf8.pto" "$tmp/latin1.pto" corpus/sync-deadlock/bad/wait_without_set_on_some_path.pto
    expect_output "utf8\.pto:2:17: error: unexpected character 'é' \(U\+00E9\)$"
    expect_output 'latin1\.pto:2:15: error: unexpected character byte 0xFF$'
    for format in $("$tool" formats | cut -d' ' -f1); do
      timeout 120 "$tool" check --format "$format" "$tmp/utf8.pto" "$tmp/latin1.pto" \
        corpus/sync-deadlock/bad/wait_without_set_on_some_path.pto > "$tmp/out.$format" 2>/dev/null
      code=$?
      [ "$code" -eq 2 ] || fail "non-ASCII input, --format $format: exit $code, expected 2"
      iconv -f UTF-8 -t UTF-8 "$tmp/out.$format" > /dev/null 2>&1 || fail "--format $format wrote invalid UTF-8"
      grep -q 'wait_without_set_on_some_path' "$tmp/out.$format" || fail "--format $format lost the other input"
    done
    for format in json sarif rdjson; do
      python3 -c 'import json, sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$tmp/out.$format" ||
        fail "--format $format is not JSON"
    done
    python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$tmp/out.junit" || fail "junit is not XML"
    # Numbers that do not fit (issue 18): input errors with a location, never exit 70, a 2 GB
    # allocation or a trap; the other input is still checked.
    printf 'func.func @k() {\n  %%r:2000000000 = "x.y"() : () -> (i32)\n  return\n}\n' > "$tmp/pack.pto"
    run 2 check "$tmp/pack.pto"
    expect_output "pack\.pto:2:6: error: result count '2000000000' is out of range"
    printf 'func.func @k() attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {\n  %%c = arith.constant 99999999999999999999 : index\n  %%m = arith.constant -9223372036854775808 : index\n  %%n = arith.constant -1 : index\n  %%q = arith.divsi %%m, %%n : index\n  %%s = arith.remsi %%m, %%n : index\n  return\n}\n' > "$tmp/huge.pto"
    run 2 check "$tmp/huge.pto" corpus/sync-deadlock/bad/wait_without_set_on_some_path.pto
    expect_output "huge\.pto:2:3: error: integer '99999999999999999999' does not fit in 64 bits"
    expect_output 'wait_without_set_on_some_path\.pto:[0-9]+:[0-9]+: error: .*\[sync-deadlock\]'
    printf '// expect-error@+99999999999 {{sync-deadlock}}\nfunc.func @k() {\n  return\n}\n' > "$tmp/far.pto"
    run 1 corpus "$tmp/far.pto"
    expect_output "far\\.pto:1: malformed expectation"
    printf 'solver:\n  timeout-ms: -1\n' > "$tmp/negative.yaml"
    run 2 check corpus/sync-deadlock/good --config "$tmp/negative.yaml"
    expect_output 'negative\.yaml:2:[0-9]+: error: solver\.timeout-ms must be between 0 and 4294967295'
    # Files that are not files (issue 18): a FIFO as input, configuration or baseline is an input
    # error, not a run that blocks forever (`run` gives up after 120 s); the other inputs are checked.
    mkfifo "$tmp/fifo.pto" "$tmp/fifo.yaml" "$tmp/fifo.json"
    run 2 check "$tmp/fifo.pto" corpus/sync-deadlock/bad/wait_without_set_on_some_path.pto
    expect_output 'fifo\.pto: error: not a regular file'
    expect_output 'wait_without_set_on_some_path\.pto:[0-9]+:[0-9]+: error: .*\[sync-deadlock\]'
    run 2 check corpus/sync-deadlock/good --config "$tmp/fifo.yaml"
    expect_output 'fifo\.yaml: error: the configuration is not a regular file'
    run 2 check corpus/sync-deadlock/good --baseline "$tmp/fifo.json"
    expect_output 'fifo\.json: error: cannot read the baseline'
    run 2 merge "$tmp/fifo.json" -o "$tmp/merged.sarif"
    # A path given twice, or also found in its directory, is checked once.
    run 1 check corpus/sync-deadlock/bad/wait_without_set_on_some_path.pto ./corpus/sync-deadlock/bad//wait_without_set_on_some_path.pto corpus/sync-deadlock/bad
    [ "$(grep -c 'wait_without_set_on_some_path\.pto:7:5: error' <<<"$out")" -eq 1 ] || fail "a file named twice was checked twice"
    # ... and so is a file named once through a symlink (a file is its inode), while a copy is another file.
    ln -s "$PWD/corpus/sync-deadlock/bad/wait_without_set_on_some_path.pto" "$tmp/linked.pto"
    cp corpus/sync-deadlock/bad/wait_without_set_on_some_path.pto "$tmp/copied.pto"
    run 1 check "$tmp/linked.pto" corpus/sync-deadlock/bad/wait_without_set_on_some_path.pto "$tmp/copied.pto"
    [ "$(grep -c 'wait_without_set_on_some_path\.pto:7:5: error' <<<"$out")" -eq 0 ] || fail "a file and a symlink to it were both checked"
    [ "$(grep -c 'linked\.pto:7:5: error' <<<"$out")" -eq 1 ] || fail "the symlinked file was not checked"
    [ "$(grep -c 'copied\.pto:7:5: error' <<<"$out")" -eq 1 ] || fail "a copy of a file was not checked"
    # A .pto without a kernel says so.
    printf 'module {\n}\n' > "$tmp/nokernel.pto"
    run 0 check "$tmp/nokernel.pto"
    expect_output 'nokernel\.pto:1:1: note: no kernel in this file: nothing was checked'
    # merge: malformed SARIF is the input's error (exit 2), never an exception.
    printf '{"version": "2.1.0", "runs": [{"results": 3}]}' > "$tmp/odd.sarif"
    printf '[1, 2]' > "$tmp/array.sarif"
    run 2 merge "$tmp/odd.sarif" "$tmp/odd.sarif" -o "$tmp/merged.sarif"
    expect_output 'odd\.sarif: error: '
    run 2 merge "$tmp/array.sarif" -o "$tmp/merged.sarif"
    # 200,000 nested arrays in a result crashed merge when it wrote them back (issue 18).
    python3 -c 'import sys; d = 200000; open(sys.argv[1], "w").write("{\"version\": \"2.1.0\", \"runs\": [{\"invocations\": [{}], \"results\": [{\"properties\": {\"x\": " + "[" * d + "]" * d + "}}]}]}")' "$tmp/deep.sarif"
    run 2 merge "$tmp/deep.sarif" -o "$tmp/merged.sarif"
    expect_output 'deep\.sarif: error: JSON nested more than 64 deep'
    # Long lines (issue 18): a 60 kB comment with NOLINT or ptoverify: ignore, and a 60 kB line
    # after a device qualifier, overflowed the stack in std::regex; now they are just read.
    long="$(head -c 60000 /dev/zero | tr '\0' a)"
    { echo "// NOLINT $long"; echo "// ptoverify: ignore $long"; cat corpus/sync-deadlock/good/guarded_pairs.pto; } \
      > "$tmp/long_comment.pto"
    run 0 check "$tmp/long_comment.pto"
    expect_output "long_comment\.pto:1:[0-9]+: note: 'NOLINT' suppresses nothing here"
    if [ -x "$(dirname "$tool")/ptoverify-cpp" ]; then  # the C++ front end is built
      { echo "// AICORE $long"; echo 'void launch() { kernel<<<1, nullptr, nullptr>>>(); }'; echo 'int main() { return 0; }'; } \
        > "$tmp/long_line.cpp"
      out="$(timeout 120 "$tool" check "$tmp/long_line.cpp" 2>&1)"
      code=$?
      # The launch is host code: skipped with a note, never a parse error.
      [ "$code" -eq 0 ] || fail "a 60 kB C++ line: exit $code, expected 0 (host code, skipped)"
      expect_output 'long_line\.cpp:1:1: note: host code skipped: 1 function\(s\) that launch kernels'

      # The include scan and the orchestration's naming comments read lines by hand too: 200 kB
      # of blanks before an #include, and after "// Task 1:", are just read.
      blanks="$(head -c 200000 /dev/zero | tr '\0' ' ')"
      { echo "${blanks}#include \"pto/pto-inst.hpp\""; echo "// Task 1:${blanks}x"; cat corpus/sync-deadlock/good/guarded_pairs.cpp 2>/dev/null ||
        cat "$(ls corpus/*/good/*.cpp | head -1)"; } >"$tmp/long_include.cpp"
      out="$(timeout 120 "$tool" check "$tmp/long_include.cpp" 2>&1)"
      code=$?
      [ "$code" -le 1 ] || { fail "200 kB blank lines in C++: exit $code"; echo "$out" | tail -5; }
      # Depth in C++: a 20,000-term sum overflowed the translator's recursion and 10,000 chained
      # `else if` or 12,000 unary minuses (also from a macro) Clang's own (clang++ itself crashes on the chain). The
      # sum is skipped code (a gap, so the sync rules say unknown); Clang's parse is cut off
      # before its 8 MB stack runs out: an input error where it stopped, never a crash.
      python3 - "$tmp" <<'PY'
import sys
head = '#include "pto/pto-inst.hpp"\nusing namespace pto;\n'
terms = " + ".join(["x"] * 20000)
open(sys.argv[1] + "/deep_sum.cpp", "w").write(head + "AICORE void deep(__gm__ float* a, int x) {\n  int v = " + terms +
    ";\n  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);\n  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);\n}\n")
chain = "".join(f"  {'else ' if i else ''}if (x == {i}) {{ set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0); }}\n" for i in range(10000))
open(sys.argv[1] + "/else_if_chain.cpp", "w").write(head + "AICORE void chain(__gm__ float* a, int x) {\n" + chain +
    "  else { set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0); }\n  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);\n}\n")
open(sys.argv[1] + "/unary_run.cpp", "w").write(head + "AICORE void run(__gm__ float* a, int x) {\n  int v = " + "-" * 12000 +
    "x;\n  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);\n  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);\n}\n")
tens = "#define N1 - - - - - - - - - -\n" + "".join(f"#define N{k + 1} " + f"N{k} " * 10 + "\n" for k in range(1, 4))
open(sys.argv[1] + "/macro_run.cpp", "w").write(head + tens + "AICORE void run(__gm__ float* a, int x) {\n  int v = N4 x;\n" +
    "  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);\n  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);\n}\n")
PY
      out="$(timeout 300 "$tool" check "$tmp/deep_sum.cpp" "$tmp/else_if_chain.cpp" "$tmp/unary_run.cpp" "$tmp/macro_run.cpp" 2>&1)"
      code=$?
      [ "$code" -eq 2 ] || fail "deep C++: exit $code, expected 2 (an input error, never a crash)"
      expect_output 'deep_sum\.cpp:4:3: unknown: not fully checked: .*a statement nested more than 1000 deep \[sync-deadlock\]'
      expect_output 'else_if_chain\.cpp:[0-9]+:[0-9]+: error: nested too deep to parse within an 8 MB stack'
      expect_output 'unary_run\.cpp:4:[0-9]+: error: nested too deep to parse within an 8 MB stack'
      # 10,000 minuses from one macro's expansion, which no file lexer can cut: the parse ends there.
      expect_output 'macro_run\.cpp:[0-9]+:[0-9]+: error: nested too deep to parse within an 8 MB stack'
    fi
    # 20,000 chained operations (issue 18) overflowed the stack; a value deeper than 1000
    # operations is now a counted gap (unknown), and the rest of the kernel is still checked.
    python3 - "$tmp/deep.pto" <<'PY'
import sys
n = 20000
body = ["  %c1 = arith.constant 1 : index", "  %v0 = arith.addi %n, %c1 : index"]
body += [f"  %v{i} = arith.addi %v{i-1}, %c1 : index" for i in range(1, n)]
body += ["  pto.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]", "  return"]
open(sys.argv[1], "w").write("func.func @deep(%n: index) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {\n" + "\n".join(body) + "\n}\n")
PY
    run 1 check "$tmp/deep.pto"
    expect_output 'a value computed through more than 1000 operations \(taken as unknown\)'
    expect_output 'deep\.pto:20003:3: error: .*\[sync-deadlock\]'
    # An unreadable directory is an input error, not a silent skip (not testable as root).
    if [ "$(id -u)" -ne 0 ]; then
      mkdir -p "$tmp/walk/locked" && cp corpus/sync-deadlock/good/guarded_pairs.pto "$tmp/walk/" && chmod 000 "$tmp/walk/locked"
      run 2 check "$tmp/walk"
      expect_output 'locked: error: cannot read this directory'
      chmod 755 "$tmp/walk/locked"
    fi
    rm -rf "$tmp"
    ;;
  subcommands)
    run 0 rules
    rules_out="$out"
    for id in comm-publish-fence comm-wait-invalidate comm-put-drain comm-wait-batching sync-event-pairing \
              ub-range cache-bypass-offset cache-bypass-written cache-policy-param; do
      out="$rules_out"
      expect_output "^$id +(error|warning|note) "
      run 0 explain "$id"
      expect_output "^# $id"
      expect_output '^## Bad'
      expect_output '^## Good'
    done
    run 2 explain no-such-rule
    run 0 --version
    ;;
  real-corpus)
    # Every real PTOAS file parses (no input error => exit 1 for findings, never 2) within the time limit.
    SRC="$src"
    . tests/real_corpus_dir.sh
    run 1 check "$REAL_CORPUS/ptoas"
    expect_output '^ptoverify: 5[0-9] file\(s\), [0-9]+ kernel\(s\)'
    if grep -E ': error: ' <<<"$out" | grep -vqE '\[[a-z]+-[a-z0-9-]+\]$'; then
      fail "an input error on real PTOAS inputs"
      grep -E ': error: ' <<<"$out" | grep -vE '\[[a-z]+-[a-z0-9-]+\]$' | head
    fi
    run 0 check "$REAL_CORPUS"/ptoas/main_e32488c9/test/samples/DeepseekV4DecodeA3
    expect_output '\[comm-wait-batching\]$'
    # HIVM: every file is lifted without an input error; the findings are the ones docs/hivm.md
    # explains; the synchronized inputs the reference names give no error.
    run 1 check "$REAL_CORPUS/hivm"
    expect_output '^ptoverify: 60 file\(s\), [0-9]+ kernel\(s\)'
    if grep -E ': error: ' <<<"$out" | grep -vqE '\[[a-z]+-[a-z0-9-]+\]$'; then
      fail "an input error on real HIVM inputs"
    fi
    h="$REAL_CORPUS/hivm/bishengir/test"
    run 0 check "$h/Transforms/debug-memory.mlir" "$h/Conversion/HIVMToStandard/RegBase/convert-hivm-to-standard.mlir" \
      "$h/Dialect/HIVM/SyncSolver/hivm-gss-mmadl1-reuse-set-on-last-iter.mlir"
    expect_output ': 0 error\(s\), 0 warning\(s\)'
    ;;
  new-rule-scaffold)
    # scripts/new-rule writes the rule, its registry lines, its doc page and a first corpus case.
    tmp="$(mktemp -d)"
    mkdir -p "$tmp/scripts" "$tmp/rules" "$tmp/docs/rules" "$tmp/corpus"
    cp scripts/new-rule "$tmp/scripts/" && cp rules/registry.cpp "$tmp/rules/"
    (cd "$tmp" && scripts/new-rule barrier-lane-skip "a lane skips a barrier" >/dev/null) || fail "new-rule failed"
    grep -q 'std::unique_ptr<Rule> makeBarrierLaneSkip();' "$tmp/rules/registry.cpp" || fail "no declaration registered"
    grep -q 'r.push_back(makeBarrierLaneSkip());' "$tmp/rules/registry.cpp" || fail "no push_back registered"
    grep -q '"barrier-lane-skip", "barrier"' "$tmp/rules/barrier_lane_skip.cpp" || fail "rule file lacks its id"
    [ -f "$tmp/docs/rules/barrier-lane-skip.md" ] || fail "no doc page"
    grep -q 'expect-error@+1 {{barrier-lane-skip}}' "$tmp/corpus/barrier-lane-skip/bad/first_case.pto" || fail "no bad case"
    grep -q 'expect-no-findings' "$tmp/corpus/barrier-lane-skip/good/first_case.pto" || fail "no good case"
    # The good case passes `corpus` only where its rule runs. Unbuilt, the new rule never does;
    # built, it reads what the template's applies() reads, set and wait flags, as sync-deadlock
    # does: in sync-deadlock's folder the case must pass.
    good="$tmp/corpus/barrier-lane-skip/good/first_case.pto"
    run 1 corpus "$good"
    expect_output 'first_case\.pto:1: a good case of barrier-lane-skip that barrier-lane-skip never checked: no rule of this build has that id'
    grep -q 'return t.hasAny({OpKind::SetFlag, OpKind::WaitFlag});' "$tmp/rules/barrier_lane_skip.cpp" ||
      fail "the template's applies() changed: make sync-deadlock below a rule that reads what it reads"
    mkdir -p "$tmp/corpus/sync-deadlock/good" && cp "$good" "$tmp/corpus/sync-deadlock/good/"
    run 0 corpus "$tmp/corpus/sync-deadlock/good/first_case.pto"
    (cd "$tmp" && scripts/new-rule barrier-lane-skip >/dev/null 2>&1) && fail "new-rule overwrote an existing rule"
    (cd "$tmp" && scripts/new-rule NotAnId >/dev/null 2>&1) && fail "new-rule accepted a bad id"
    rm -rf "$tmp"
    ;;
  proofs)
    # Witnesses print as notes with the values Z3 chose, the path and the stuck state.
    run 1 check corpus/sync-deadlock/bad/rearm_on_last_iteration_only.pto
    expect_output ':32:7: note: witness: %n = 2, %i = 1$'
    expect_output 'note: path: pto.wait_flag \[PIPE_MTE1, PIPE_MTE2, EVENT_ID0\] in iteration %i = 1$'
    expect_output 'note: state: PIPE_MTE2: blocked at pto.wait_flag'
    # A query no concrete point decides goes to Z3 and gets its minimal witness.
    run 1 check tests/inputs/z3_plane.pto
    expect_output ':18:5: note: witness: %a = 1, %b = 200000$'
    # A parameter range can rule the failing launches out: with n = 1 the proof holds.
    run 1 check corpus/sync-deadlock/bad/rearm_on_last_iteration_only.pto --param-range n=1:1 --rules sync-deadlock
    expect_no_output ':32:7: error'
    run 1 check corpus/sync-deadlock/bad/rearm_on_last_iteration_only.pto --param-range %n=3:8 --rules sync-deadlock
    expect_output ':32:7: note: witness: %n = 3, %i = 1$'
    run 2 check corpus/sync-deadlock --param-range n=5:1
    expect_output 'param-range expects NAME=LO:HI'
    # An exhausted solver budget is "unknown": reported, never a pass; --strict makes it exit 3.
    run 0 check corpus/barrier-arrival/bad --kernel-budget 0 --rules barrier-arrival
    expect_output 'unknown: could not prove: .*budget of 0 ms is spent.*\[barrier-arrival\]$'
    expect_output ', 13 unknown$'
    run 3 check corpus/barrier-arrival/bad --kernel-budget 0 --rules barrier-arrival --strict
    # Findings still win over unknowns.
    run 1 check corpus/barrier-arrival/bad corpus/ub-range/bad --kernel-budget 0 --strict --rules barrier-arrival,ub-range
    # --cache-dir: a second process answers from the disk cache, even with no solver budget left,
    # and prints the same witnesses.
    cache="$(mktemp -d)"
    run 1 check corpus/barrier-arrival/bad corpus/sync-deadlock/bad --cache-dir "$cache"
    first="$out"
    run 1 check corpus/barrier-arrival/bad corpus/sync-deadlock/bad --cache-dir "$cache" --kernel-budget 0
    [ "$out" = "$first" ] || fail "answers from the disk cache differ from the first run"
    # Edited entries (issue 18): a flipped answer or a shortened value list is not trusted; Z3 is
    # asked again and the findings are the first run's.
    python3 - "$cache" <<'PY'
import json, pathlib, sys
for f in pathlib.Path(sys.argv[1]).rglob("*.json"):
    j = json.loads(f.read_text())
    j["answer"]["sat"] = not j["answer"]["sat"]
    j["answer"]["values"] = j["answer"]["values"][:1]
    f.write_text(json.dumps(j))
PY
    run 1 check corpus/barrier-arrival/bad corpus/sync-deadlock/bad --cache-dir "$cache"
    expect_output ', [0-9]+ solver cache entries not trusted \(asked again\)$'
    [ "$(sed 's/, [0-9]* solver cache entries not trusted (asked again)$//' <<<"$out")" = "$first" ] ||
      fail "edited cache entries changed the findings"
    rm -rf "$cache"
    # The kernel budget bounds witness minimisation too (a fuzzed kernel took 12.8 s against a
    # 1 s budget; then about 1 s, with its third barrier unknown). 8 s is far above the budget,
    # so only ignoring it fails here. Its witnesses now come from the search in order of cost
    # (docs/solver.md), well within the budget, so it gets what a 20 s budget gave with Z3's
    # optimiser (6.6 s): two lanes each, and the third barrier proved.
    out="$(timeout 8 "$tool" check tests/inputs/fuzz/witness_minimisation_budget.pto --kernel-budget 1000 --solver-timeout 200 2>&1)"
    code=$?
    [ "$code" -eq 124 ] && fail "the kernel budget does not bound witness minimisation (over 8 s with a 1 s budget)"
    expect_output ':45:5: note: witness: block_num = 2, lane_a.block_idx = 1, lane_b.block_idx = 0$'
    expect_output ':51:7: note: witness: block_num = 2, lane_a.block_idx = 0, lane_b.block_idx = 1$'
    expect_output ': 2 error\(s\), 0 warning\(s\), 0 note\(s\), 3 input error\(s\), 1 construct\(s\) not modelled$'
    # The budget bounds the proofs' own work too (issue 18): the two fuzzed kernels, and 5,000
    # guarded set/wait pairs with a symbolic id (80 s before, quadratic folding and flow edges).
    # Generous hang guards: only work outside the budget fails them.
    for slow in sample_points_budget slow_level_folding; do
      out="$(timeout 30 "$tool" check "tests/inputs/fuzz/$slow.pto" --kernel-budget 1000 2>&1)"
      [ "$?" -eq 124 ] && fail "$slow.pto ran past 30 s with a 1 s kernel budget"
    done
    pairs="$(mktemp -d)"
    python3 - "$pairs/pairs.pto" <<'PY'
import sys
lines = ["func.func @pairs(%n: index, %m: index) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {"]
for i in range(5000):
    lines += [f"  %k{i} = arith.constant {i} : index", f"  %g{i} = arith.cmpi sgt, %n, %k{i} : index",
              f"  scf.if %g{i} {{", "    pto.set_flag_dyn [#pto.pipe<PIPE_MTE2>, #pto.pipe<PIPE_V>, %m]", "  }",
              f"  scf.if %g{i} {{", "    pto.wait_flag_dyn [#pto.pipe<PIPE_MTE2>, #pto.pipe<PIPE_V>, %m]", "  }"]
open(sys.argv[1], "w").write("\n".join(lines + ["  return", "}"]) + "\n")
PY
    out="$(timeout 30 "$tool" check "$pairs/pairs.pto" --kernel-budget 2000 2>&1)"
    code=$?
    [ "$code" -eq 124 ] && fail "5,000 guarded pairs ran past 30 s with a 2 s kernel budget (72 s before the fix, 2 s after)"
    [ "$code" -eq 0 ] || fail "5,000 guarded pairs: exit $code (they pair up, or are unknown)"
    # 9,990 sets and waits on two different symbolic ids: nothing folds, every wait is asked
    # about with a query as big as the kernel. Building and keying those queries ran for over
    # 10 minutes past a 5 s budget (and overflowed the stack under ASan); now the budget ends
    # it and the waits not asked are one finding.
    python3 - "$pairs/mixed.pto" <<'PY'
import sys
lines = ["func.func @mixed(%m: index, %k: index) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {"]
for i in range(9990):
    lines += ["  pto.set_flag_dyn [#pto.pipe<PIPE_MTE2>, #pto.pipe<PIPE_V>, %m]",
              "  pto.wait_flag_dyn [#pto.pipe<PIPE_MTE2>, #pto.pipe<PIPE_V>, %k]"]
open(sys.argv[1], "w").write("\n".join(lines + ["  return", "}"]) + "\n")
PY
    out="$(timeout 120 "$tool" check "$pairs/mixed.pto" --kernel-budget 2000 2>&1)"
    code=$?
    [ "$code" -eq 124 ] && fail "9,990 unfoldable pairs ran past 120 s with a 2 s kernel budget"
    expect_output 'more wait_flag op\(s\) not checked either'
    [ "$(grep -c 'unknown:' <<<"$out")" -lt 1000 ] || fail "one unknown per wait after the budget ran out"
    # 3,000 tiles on one address, each loaded and then read after all the loads: every pair
    # clashes. One finding per tile placed over another (not one per pair), within seconds.
    python3 - "$pairs/one_address.pto" <<'PY'
import sys
t = "!pto.tile_buf<vec, 8x64xf32>"
lines = ["func.func @one_address(%x: !pto.ptr<f32>) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {",
         "  %c0 = arith.constant 0 : index", "  %c1 = arith.constant 1 : index", "  %c8 = arith.constant 8 : index",
         "  %c64 = arith.constant 64 : index", "  %a = arith.constant 0 : i64",
         "  %xv = pto.make_tensor_view %x, shape = [%c8, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xf32>",
         "  %xp = pto.partition_view %xv, offsets = [%c0, %c0], sizes = [%c8, %c64] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<8x64xf32>"]
for i in range(3000):
    lines += [f"  %t{i} = pto.alloc_tile addr = %a : {t}",
              f"  pto.tload ins(%xp : !pto.partition_tensor_view<8x64xf32>) outs(%t{i} : {t})"]
lines.append("  pto.barrier <PIPE_ALL>")
lines += [f"  pto.texp ins(%t{i} : {t}) outs(%t{(i + 1) % 3000} : {t})" for i in range(3000)]
open(sys.argv[1], "w").write("\n".join(lines + ["  return", "}"]) + "\n")
PY
    out="$(timeout 60 "$tool" check --rules ub-range "$pairs/one_address.pto" 2>&1)"
    code=$?
    [ "$code" -eq 124 ] && fail "3,000 tiles on one address ran past 60 s in ub-range (1 s when written)"
    [ "$(grep -c 'error: .*\[ub-range\]' <<<"$out")" -eq 2999 ] || fail "3,000 tiles on one address: not one ub-range error per tile placed over another"
    rm -rf "$pairs"
    # --witness-dot DIR: one graph per finding; one lane per pipe, set -> wait arrows, the stuck
    # wait in red, iterations and values in the labels; a race's two accesses in orange.
    dots="$(mktemp -d)"
    run 1 check corpus/sync-deadlock/bad/rearm_on_last_iteration_only.pto corpus/sync-pipe-race/bad/acc_store_ordered_on_mte3.cpp --witness-dot "$dots"
    [ "$(ls "$dots" | wc -l)" -eq 3 ] || fail "not one graph per finding: $(ls "$dots")"
    dot1="$(ls "$dots"/*sync-deadlock*-14.dot)"
    grep -q '^digraph ptoverify_witness {' "$dot1" || fail "no digraph in $dot1"
    grep -q 'label="PIPE_MTE2"' "$dot1" || fail "no MTE2 lane"
    grep -q 'set->wait' "$dot1" || fail "no set->wait arrow"
    grep -q 'color=red' "$dot1" || fail "the stuck op is not marked"
    grep -q 'in iteration %i = 1' "$dot1" || fail "the iteration is not in the lane labels"
    grep -q 'witness: %i = 1' "$dot1" || fail "the witness values are not in the graph label"
    race="$(ls "$dots"/*sync-pipe-race*.dot)"
    [ "$(grep -c 'color=darkorange, fontcolor' "$race")" -eq 2 ] || fail "the two racing accesses are not drawn"
    grep -q 'TMATMUL writes' "$race" || fail "the racing write is not named"
    if command -v dot >/dev/null; then for d in "$dots"/*.dot; do dot -Tsvg "$d" -o /dev/null || fail "graphviz rejects $d"; done; fi
    rm -rf "$dots"
    run 2 check corpus/sync-deadlock --witness-dot /proc/w
    ;;
  ci-gate)
    # Inline suppressions: the corpus file states what each form hides and what it reports.
    run 0 corpus tests/inputs/suppressions.pto
    run 1 check tests/inputs/suppressions.pto
    expect_output ', 9 suppressed$'
    # Baselines: only new findings count, and moving lines does not make old ones new.
    tmp="$(mktemp -d)"
    run 0 baseline create -o "$tmp/base.json" corpus/sync-deadlock/bad
    expect_output 'baseline of [0-9]+ finding'
    run 0 check corpus/sync-deadlock/bad --baseline "$tmp/base.json"
    expect_output ' in the baseline(, [0-9]+ input warning\(s\))?$'
    mkdir "$tmp/moved"
    for f in corpus/sync-deadlock/bad/*; do { printf '// moved\n// down\n\n'; cat "$f"; } >"$tmp/moved/$(basename "$f")"; done
    run 0 baseline create -o "$tmp/moved-base.json" "$tmp/moved"
    diff <(grep -o '"fingerprint": "[0-9a-f]*"' "$tmp/base.json" | sort) \
         <(grep -o '"fingerprint": "[0-9a-f]*"' "$tmp/moved-base.json" | sort) >/dev/null ||
      fail "fingerprints changed when lines moved"
    cp corpus/sync-exit-balance/bad/leaks_on_some_path.pto "$tmp/moved/"
    run 1 check "$tmp/moved" --baseline "$tmp/base.json"
    expect_output 'leaks_on_some_path\.pto:[0-9]+:[0-9]+: error: .*\[sync-exit-balance\]$'
    # The baseline key has the file: the same fact in another file is new.
    mkdir "$tmp/other" && cp corpus/sync-deadlock/bad/rearm_on_last_iteration_only.pto "$tmp/other/renamed.pto"
    run 1 check "$tmp/other" --baseline "$tmp/base.json" --source-root "$src"
    expect_output 'renamed\.pto:[0-9]+:[0-9]+: error: .*\[sync-deadlock\]$'
    # ... and is relative to the source root: absolute inputs from another directory still match.
    out="$(cd "$tmp" && "$tool" check "$src/corpus/sync-deadlock/bad" --baseline "$tmp/base.json" 2>&1)"
    expect_output ': 0 error\(s\).* in the baseline(, [0-9]+ input warning\(s\))?$'
    # An unmatched NOLINTBEGIN is reported and suppresses to the end of the file.
    printf '%s\n' 'module attributes {pto.target_arch = "a2a3"} {' '  func.func @k() attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {' \
      '    // NOLINTBEGIN(sync-exit-balance) drained later' '    pto.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]' '    return' '  }' '}' >"$tmp/open.pto"
    run 0 check "$tmp/open.pto"
    expect_output "open\.pto:3:1: note: 'NOLINTBEGIN' without a matching 'NOLINTEND'"
    expect_output ', 1 suppressed$'
    # A gate that checks nothing is a usage error, from the command line or the configuration.
    run 2 check corpus/sync-deadlock/bad --rules '-*'
    expect_output 'leaves no rule enabled'
    mkdir "$tmp/norules" && printf 'rules: ["-sync-*", "-*"]\n' >"$tmp/norules/.ptoverify.yaml"
    cp corpus/sync-deadlock/bad/rearm_on_last_iteration_only.pto "$tmp/norules/"
    run 2 check "$tmp/norules"
    expect_output '\.ptoverify\.yaml:1:8: error: rules: leaves no rule enabled'
    # Two formats to standard output would be unreadable: a usage error.
    run 2 check corpus/sync-deadlock/bad --format json --format sarif
    expect_output '2 formats would go to standard output'
    run 1 check corpus/sync-deadlock/bad --format json --format sarif:"$tmp/x.sarif"
    # Review outputs within the hosts' limits: the corpus's markdown comment is cut to GitHub's
    # 65,536 characters with a line saying what was left out; annotations are capped per type.
    "$tool" check corpus --format markdown >"$tmp/pr.md"
    [ "$(wc -m <"$tmp/pr.md")" -le 65536 ] || fail "the markdown comment is over 65,536 characters"
    grep -qE '^\*\*[0-9]+ of [0-9]+ finding\(s\) left out\*\*' "$tmp/pr.md" || fail "no truncation line in the markdown"
    [ "$(grep -n '^| rule |' "$tmp/pr.md" | cut -d: -f1)" -lt "$(grep -n '^- \*\*' "$tmp/pr.md" | head -1 | cut -d: -f1)" ] ||
      fail "the markdown summary table is not first"
    grep -q '^- \*\*note\*\*' "$tmp/pr.md" && [ "$(grep -n '^- \*\*note\*\*' "$tmp/pr.md" | head -1 | cut -d: -f1)" -lt \
      "$(grep -n '^- \*\*error\*\*' "$tmp/pr.md" | tail -1 | cut -d: -f1)" ] && fail "the markdown findings are not by severity"
    "$tool" check corpus --format github --format json:"$tmp/all.json" >"$tmp/gh.txt"
    for type in error warning notice; do
      [ "$(grep -c "^::$type " "$tmp/gh.txt")" -le 10 ] || fail "more than 10 $type annotations"
    done
    grep -qE "^::notice title=ptoverify::[0-9]+ error\(s\).* not annotated .*the full report is $tmp/all.json$" "$tmp/gh.txt" ||
      fail "no final notice about the annotations left out"
    out="$(cd "$tmp" && "$tool" check "$src/corpus/sync-deadlock/bad" --format github)"
    expect_output '^::error file=corpus/sync-deadlock/bad/[a-z_]+\.pto,line='  # repository paths, from anywhere
    # --quiet: findings only, no summary line.
    run 1 check corpus/sync-deadlock/bad --quiet
    expect_output ': error: '
    expect_no_output '^ptoverify: '
    # Colour: auto on a terminal, unless NO_COLOR is set (no-color.org); --color=always wins.
    out="$(script -qec "$tool check corpus/sync-deadlock/bad/rearm_on_last_iteration_only.pto" /dev/null)"
    grep -q $'\e\[' <<<"$out" || fail "no colour on a terminal"
    out="$(NO_COLOR=1 script -qec "$tool check corpus/sync-deadlock/bad/rearm_on_last_iteration_only.pto" /dev/null)"
    grep -q $'\e\[' <<<"$out" && fail "NO_COLOR did not turn the colour off"
    out="$(NO_COLOR=1 "$tool" check corpus/sync-deadlock/bad/rearm_on_last_iteration_only.pto --color=always)"
    grep -q $'\e\[' <<<"$out" || fail "--color=always did not win over NO_COLOR"
    # '--' passes compiler flags to the C++ front end: the kernel exists only with -DWITH_KERNEL.
    { echo '#ifdef WITH_KERNEL'; cat corpus/barrier-arrival/bad/idle_lane_returns_early.cpp; echo '#endif'; } >"$tmp/guarded.cpp"
    run 0 check "$tmp/guarded.cpp"
    expect_output ' 0 kernel\(s\)'
    run 1 check "$tmp/guarded.cpp" -- -DWITH_KERNEL
    expect_output 'guarded\.cpp:[0-9]+:[0-9]+: error: .*\[barrier-arrival\]$'
    echo '{"not": "a baseline"}' >"$tmp/bad.json"
    run 2 check corpus/sync-deadlock/bad --baseline "$tmp/bad.json"
    expect_output 'not a ptoverify baseline'
    # Formats: --output takes the single format without a file; unknown formats are usage errors.
    run 1 check corpus/sync-deadlock/bad --format sarif --output "$tmp/out.sarif"
    grep -q '"version": "2.1.0"' "$tmp/out.sarif" || fail "--output did not get the SARIF"
    run 2 check corpus/sync-deadlock/bad --format yaml
    expect_output "unknown --format 'yaml'"
    # Configuration: found above the input, command line wins, errors carry the YAML line.
    run 0 check tests/inputs/config/good
    expect_output 'warning: .*\[sync-exit-balance\]$'
    expect_no_output '\[sync-deadlock\]'
    run 1 check tests/inputs/config/good --fail-on warning
    run 1 check tests/inputs/config/good --param-range n=0:9
    expect_output 'error: .*\[sync-deadlock\]$'
    run 2 check tests/inputs/config/bad
    expect_output 'config/bad/\.ptoverify\.yaml:3:18: error: severity of sync-deadlock must be error, warning or note'
    # host-read: a write to a buffer only the host reads is published by no notify.
    printf 'host-read: [payload]\n' > "$tmp/host-read.yaml"
    run 1 check corpus/comm-publish-fence/bad/invalidate_before_store.pto --rules comm-publish-fence
    run 0 check corpus/comm-publish-fence/bad/invalidate_before_store.pto --rules comm-publish-fence --config "$tmp/host-read.yaml"
    printf 'host-read: payload\n' > "$tmp/host-read-bad.yaml"
    run 2 check corpus/comm-publish-fence/bad/invalidate_before_store.pto --config "$tmp/host-read-bad.yaml"
    expect_output 'host-read-bad\.yaml:1:12: error: host-read: must be a list of kernel parameter names'
    run 0 config --dump tests/inputs/config/good/kernels.pto
    expect_output '^  sync-exit-balance: warning$'
    expect_output '^    n: \[1, 1\]$'
    # Every rule option with its value: the default for the arch, or the configured one.
    expect_output '^    aiv-cores: 48  # AIV cores'
    expect_output '^    ub-bytes: 196608  # capacity of ub'
    printf 'arch: a5\noptions:\n  barrier-participants:\n    aiv-cores: 40\n' > "$tmp/options.yaml"
    run 0 config --dump --config "$tmp/options.yaml"
    expect_output '^    aiv-cores: 40  # AIV cores'
    expect_output '^    ub-bytes: 253952  # capacity of ub'
    run 0 explain barrier-participants
    expect_output '^- `aiv-cores` \(default 48\): AIV cores'
    # Configurations are settled on the threads that check the files: a broken one is still
    # reported once, and the first configuration in input order still gives --fail-on (good's
    # fail-on: error makes its warning pass; after a file without one it is still the first).
    mkdir -p "$tmp/cfgs/bad2"
    cp tests/inputs/config/bad/.ptoverify.yaml tests/inputs/config/bad/kernels.pto "$tmp/cfgs/bad2/"
    cp tests/inputs/config/bad/kernels.pto "$tmp/cfgs/bad2/again.pto"
    for j in 1 2; do
      run 2 check -j $j tests/inputs/config/bad "$tmp/cfgs/bad2"
      [ "$(grep -c 'bad2/\.ptoverify\.yaml:3:18: error' <<<"$out")" = 1 ] || fail "-j $j: a broken configuration not reported once"
      run 0 check -j $j tests/inputs/config/good tests/inputs/warning_only.pto
    done
    [ "$("$tool" check -j 1 tests/inputs/config/bad "$tmp/cfgs/bad2" 2>&1)" = "$("$tool" check -j 2 tests/inputs/config/bad "$tmp/cfgs/bad2" 2>&1)" ] ||
      fail "-j 2 changed what broken configurations report"
    # A file alone under -j 2 has its cube view parsed beside its vector view: the same report.
    mixed=corpus/sync-core-pipe/bad/vector_barrier_cube_view.cpp
    [ "$("$tool" check -j 1 --format json "$mixed" 2>&1)" = "$("$tool" check -j 2 --format json "$mixed" 2>&1)" ] ||
      fail "-j 2 changed the report of a file modelled in both core views"
    grep -q 'AIC view' <<<"$("$tool" check -j 2 "$mixed" 2>&1)$("$tool" model "$mixed" 2>&1)" ||
      fail "no cube view of $mixed"
    # The configuration of the directories that really hold the file: from inside config/good, a
    # corpus file spelt ../../../../corpus/... is not under good/, which its spelling passes through.
    cfgtool="$tool"; case "$cfgtool" in /*) ;; *) cfgtool="$PWD/$cfgtool" ;; esac
    out="$(cd tests/inputs/config/good && "$cfgtool" check ../../../../corpus/sync-deadlock/bad/wait_without_set_on_some_path.pto 2>&1)"
    [ "$(tail -1 <<<"$out")" = "$("$tool" check corpus/sync-deadlock/bad/wait_without_set_on_some_path.pto 2>&1 | tail -1)" ] ||
      fail "a file outside config/good/ was checked with good's configuration"
    # -j keeps the input order; --shard K/N splits the inputs stably; merge joins the shards.
    "$tool" check corpus >"$tmp/j1.txt"
    "$tool" check corpus -j 3 >"$tmp/j3.txt"
    cmp -s "$tmp/j1.txt" "$tmp/j3.txt" || fail "-j 3 changed the output"
    # tests/cpp holds a .pto whose C++ is in corpus/: linked in whichever shard the C++ lands.
    "$tool" check corpus tests/cpp --format sarif:"$tmp/full.sarif" >/dev/null
    for k in 1 2 3; do "$tool" check corpus tests/cpp --shard "$k/3" --format sarif:"$tmp/s$k.sarif" >/dev/null; done
    # The merged shards are the bytes of one full run (issue 18), in any order of the shards;
    # so is -j 3.
    run 0 merge "$tmp/s3.sarif" "$tmp/s1.sarif" "$tmp/s2.sarif" -o "$tmp/merged.sarif"
    cmp -s "$tmp/merged.sarif" "$tmp/full.sarif" || fail "the merged shards differ from one full run"
    "$tool" check corpus tests/cpp -j 3 --format sarif:"$tmp/j3.sarif" >/dev/null
    cmp -s "$tmp/j3.sarif" "$tmp/full.sarif" || fail "-j 3 changed the SARIF"
    fps() { grep -o '"ptoverifyFact/v1": "[0-9a-f]*"' "$1" | sort; }
    [ "$(fps "$tmp/s1.sarif")" != "$(fps "$tmp/full.sarif")" ] || fail "--shard 1/3 checked everything"
    run 2 check corpus --shard 4/3
    # merge keeps GitHub's caps: two shards of 13,000 results each merge into 25,000 and a notice.
    jq '.runs[0].results = [range(13000) as $i | .runs[0].results[0] | .message.text += " \($i)"]' "$tmp/s1.sarif" >"$tmp/big.sarif"
    run 0 merge "$tmp/big.sarif" "$tmp/big.sarif" -o "$tmp/merged.sarif"
    [ "$(jq '.runs[0].results | length' "$tmp/merged.sarif")" = 25000 ] || fail "merge does not keep the 25,000-result cap"
    jq -e '.runs[0].invocations[0].toolExecutionNotifications | any(.message.text | test("capped at 25000 of 26000"))' \
      "$tmp/merged.sarif" >/dev/null || fail "merge caps without saying so"
    # audit: the kernel x rule table.
    run 1 audit --rule sync-deadlock --rule barrier-arrival corpus/sync-deadlock corpus/barrier-arrival/bad
    expect_output '@wait_before_any_set +Violated +N/A'
    expect_output '@prime_and_drain|@symbolic_trip +Proved'
    expect_output '^total Violated +21 +8'  # sync-deadlock: the bad kernels; barrier-arrival: 3 .pto and 5 fused C++ kernels
    expect_output '@kernel_entry +Proved +Violated'
    # A launch rule with no orchestration input linked is "Not checked", with the reason, never Proved.
    run 0 audit --rule barrier-sync-start --rule barrier-workspace corpus/barrier-workspace/good/indexed_soft_barrier.cpp
    expect_output '@kernel_entry +Proved +Proved'
    awk '/^\/\/ --- orchestration/{exit} {print}' corpus/barrier-arrival/good/dense_prefix_participants.cpp >"$tmp/nolaunch.cpp"
    run 0 audit --rule barrier-sync-start --rule barrier-participants "$tmp/nolaunch.cpp"
    expect_output '@kernel_entry +Not checked +Not checked'
    expect_output 'barrier-sync-start: not checked: no launch linked'
    expect_no_output '@kernel_entry .*Proved'
    run 0 check "$tmp/nolaunch.cpp" --format junit
    expect_output '<skipped message="not checked: no launch linked'
    # --param-range: a name no kernel has is a usage error; block_num bounds the lanes.
    run 2 check corpus/barrier-arrival/bad/dense_prefix_one_short.cpp --param-range numtokens=0:8
    expect_output "param-range 'numtokens' names no scalar of the checked kernels"
    # Every lane calls a barrier that counts 8: right on 8 lanes, an extra arrival on 9.
    awk '/^\/\/ --- orchestration/{exit} {print}' corpus/barrier-participants/good/fused_three_phase.cpp >"$tmp/all_lanes.cpp"
    run 0 check "$tmp/all_lanes.cpp" --param-range block_num=8:8 --rules barrier-arrival
    run 1 check "$tmp/all_lanes.cpp" --param-range block_num=9:9 --rules barrier-arrival
    expect_output 'witness: .*block_num = 9'
    # Rule options: a configured UB capacity replaces the arch default; unknown options are errors.
    printf 'options:\n  ub-range:\n    ub-bytes: 4096\n' >"$tmp/ub.yaml"
    run 1 check corpus/ub-range/good --config "$tmp/ub.yaml" --rules ub-range
    expect_output 'beyond the 4096-byte capacity of ub'
    printf 'options:\n  ub-range:\n    ub-kb: 4\n' >"$tmp/ubbad.yaml"
    run 2 check corpus/ub-range/good --config "$tmp/ubbad.yaml"
    expect_output "ubbad\.yaml:3:5: error: rule ub-range has no option 'ub-kb'"
    printf 'rulez: ["*"]\n' >"$tmp/typo.yaml"
    run 2 check corpus/sync-deadlock/good --config "$tmp/typo.yaml"
    expect_output "typo\.yaml:1:1: error: unknown key 'rulez'"
    # Every report to a file: the summary and where each one is, never silence.
    run 1 check corpus/sync-deadlock/bad --format "html:$tmp/page" --format "sarif:$tmp/run.sarif"
    expect_output "^ptoverify: [0-9]+ file\(s\), [0-9]+ kernel\(s\): [1-9][0-9]* error\(s\)"
    expect_output "^ptoverify: html report written to $tmp/page/index.html$"
    expect_output "^ptoverify: sarif report written to $tmp/run.sarif$"
    expect_no_output "\[sync-deadlock\]$"
    rm -rf "$tmp"
    ;;
  pto-path-without-clang)
    # A .pto-only check must not pay for Clang's start-up: the binary must not link it.
    if ldd "$tool" | grep -E 'libclang|libLLVM'; then fail "ptoverify links Clang/LLVM"; fi
    # ... while the C++ front end beside it does, and C++ inputs are handed over to it.
    # (ldd's output is taken first: with pipefail, grep -q closing the pipe early fails ldd.)
    libs="$(ldd "$(dirname "$tool")/ptoverify-cpp")"
    if ! grep -qE 'libclang' <<<"$libs"; then fail "ptoverify-cpp does not link Clang"; fi
    ;;
  cpp-frontend)
    ir=tests/cpp/xcheck/vadd_kernel.pto
    good=corpus/sync-event-pairing/good/ptoas_vector_kernel.cpp
    bad=corpus/sync-event-pairing/bad/dropped_wait.cpp
    # Translation validation: the .pto and the C++ generated from it, in one run.
    run 0 check "$ir" "$good"
    run 1 check "$ir" "$bad" --rules xcheck-sync
    expect_output "dropped_wait.cpp:33:5: error: the C\\+\\+ has 'set_flag \\[PIPE_MTE3, PIPE_MTE2, EVENT_ID1\\]' where the .pto has 'wait_flag \\[PIPE_V, PIPE_MTE3, EVENT_ID0\\]'.*\\[xcheck-sync\\]"
    expect_output "vadd_kernel.pto:13:7: note: in the .pto"
    # Without the .pto the pairing rule has nothing to compare.
    run 0 check "$bad" --rules xcheck-sync
    tmp="$(mktemp -d)"
    # A device header with no entry that no input includes is a counted gap, not a silent pass;
    # given with its includer it is checked there.
    printf '#pragma once\n__aicore__ inline int Twice(int x) { return 2 * x; }\n' >"$tmp/lib.hpp"
    run 0 check "$tmp/lib.hpp"
    expect_output "lib.hpp:1:1: warning: device header with no kernel entry, and no input of this run includes it"
    expect_output "1 input warning"
    printf '#include "lib.hpp"\nextern "C" __global__ __aicore__ void k() { Twice(1); }\n' >"$tmp/user.cpp"
    run 0 check "$tmp/lib.hpp" "$tmp/user.cpp"
    expect_output "lib.hpp:1:1: note: included by .*user.cpp, another input"
    # A syntax error is an input error (exit 2) with file:line:col; the other inputs are checked.
    printf 'AICORE void k() {\n  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0)\n}\n' >"$tmp/broken.cpp"
    run 2 check "$tmp/broken.cpp" corpus/sync-event-pairing/bad/dropped_wait.cpp
    expect_output "broken.cpp:2:41: error: expected ';'"
    expect_output "dropped_wait.cpp:.*\[sync-event-pairing\]"
    # An unknown identifier and a missing header are warnings; the rest of the file is modelled.
    printf '#include "vendor/missing.h"\nAICORE void k(int n) {\n  vendor_call(n);\n  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);\n}\n' >"$tmp/unknown.cpp"
    run 1 check "$tmp/unknown.cpp"
    expect_output "unknown.cpp:1:1: warning: header 'vendor/missing.h' not found"
    expect_output "unknown.cpp:3:3: warning: use of undeclared identifier 'vendor_call'"
    expect_output "unknown.cpp:4:3: error: .*\[sync-exit-balance\]"
    # A file of the prelude's generated name on the include path would hide every instruction:
    # an input error, not a kernel with nothing in it.
    mkdir -p "$tmp/shadow"
    printf '// not ptoverify'"'"'s\n' >"$tmp/shadow/ptoverify_isa_ops.h"
    run 2 check "$bad" -- -I "$tmp/shadow"
    expect_output "shadow/ptoverify_isa_ops.h' on the include path hides ptoverify's PTO-ISA declarations"
    # -p: the flags of compile_commands.json select the code the build compiles.
    printf '#ifdef WITH_SYNC\n#define SYNC() set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0)\n#else\n#define SYNC()\n#endif\nAICORE void k() { SYNC(); }\n' >"$tmp/flags.cpp"
    printf '[{"directory": "%s", "command": "clang++ -DWITH_SYNC -c flags.cpp", "file": "flags.cpp"}]\n' "$tmp" >"$tmp/compile_commands.json"
    run 0 check "$tmp/flags.cpp"
    run 1 check -p "$tmp" "$tmp/flags.cpp"
    expect_output "flags.cpp:6:19: error: .*\[sync-exit-balance\]"
    # A directory input finds C++ files too; explain knows the new rules.
    run 1 check corpus/barrier-workspace/bad
    run 0 explain barrier-data-visibility
    expect_output "CACHELINE_OUT"
    rm -rf "$tmp"
    ;;
  timing-rules)
    # The pypto-machine-code-review timing rules on control C++: the review level and the fix reach
    # every output a PR bot posts.
    stop=corpus/timing-stop-order/bad/fence_moved_into_optional_if.cpp
    run 1 check "$stop"
    expect_output "fence_moved_into_optional_if.cpp:26:5: error: Blocker: no full fence between the STOP .* on the path where \`hal_.NeedsFastPathRegClose\(\)\` is false"
    expect_output "fence_moved_into_optional_if.cpp:26:5: note: fix: put \`__sync_synchronize\(\)\` unconditionally"
    run 1 check corpus/timing-shared-field-write/bad --format markdown
    expect_output '^- \*\*Blocker\*\* \(error\) `timing-shared-field-write` at .*\(function `DevCtrl::InitDyn`\)'
    expect_output '^  - \*\*Fix:\*\* keep only the full-core capacity'
    expect_output '^- \*\*Minor\*\* \(note\) `timing-shared-field-write`'
    expect_no_output '`[^`]*\\>[^`]*`'
    # rdjsonl: one line per finding, each with its level and fix.
    run 1 check corpus/timing-hard-wait-timeout/bad/single_sche_branch_uses_100us.cpp \
      corpus/timing-hard-wait-timeout/bad/sche_waits_for_ring_inited.cpp --format rdjsonl
    lines="$(grep -c . <<<"$out")"
    [ "$lines" -eq 3 ] || fail "rdjsonl: $lines lines, expected 3"
    fixes="$(grep -c '\\nFix: use `GetOsThrottleSafeWaitTimeout(archInfo)`' <<<"$out")"
    [ "$fixes" -eq 3 ] || fail "rdjsonl: $fixes diagnostics with the fix, expected 3"
    expect_output '"message":"\[Major\] the spin wait'
    run 1 check corpus/timing-hard-wait-timeout/bad --format json
    expect_output '"grade": "Blocker"'
    # The tables are configuration: renamed steps, a new field, a wider window.
    tmp="$(mktemp -d)"
    printf 'timing:\n  stop-order:\n    clear-calls: [ClearSlots]\n' >"$tmp/renamed.yaml"
    run 0 check "$stop" --config "$tmp/renamed.yaml"
    printf 'timing:\n  shared-fields:\n    - {struct: DevCtrl, field: roundCounter, readers: [ctrl, aicore]}\n' >"$tmp/field.yaml"
    printf 'struct DevCtrl { unsigned roundCounter; };\nvoid Next(DevCtrl* c) { c->roundCounter += 1; }\nextern "C" int PyptoKernelCtrlServer(DevCtrl* c) { Next(c); return 0; }\n' >"$tmp/round.cpp"
    run 0 check "$tmp/round.cpp"
    run 1 check "$tmp/round.cpp" --config "$tmp/field.yaml"
    expect_output "round.cpp:2:25: error: Blocker: \`c->roundCounter\` rewrites DevCtrl::roundCounter in place"
    printf 'timing:\n  hard-wait:\n    safe-window-constants: {a2a3: TIMEOUT_A2A3_100US}\n' >"$tmp/window.yaml"
    run 0 check corpus/timing-hard-wait-timeout/bad/single_sche_branch_uses_100us.cpp --config "$tmp/window.yaml"
    # Without a window constant, durations come from the names: TIMEOUT_A2A3_2MS passes a 1 ms window.
    printf 'timing:\n  hard-wait:\n    safe-window-ms: 1\n    safe-window-constants: {}\n' >"$tmp/window.yaml"
    run 0 check corpus/timing-hard-wait-timeout/bad/sche_waits_for_ring_inited.cpp --config "$tmp/window.yaml" --fail-on error
    expect_output "0 error\\(s\\), 1 warning\\(s\\)"
    run 1 check corpus/timing-hard-wait-timeout/good corpus/timing-hard-wait-timeout/bad/single_sche_branch_uses_100us.cpp
    # Bad tables are input errors with the YAML position.
    printf 'timing:\n  shared-fields:\n    - {struct: DevProg, field: x, readers: [ctrl, gpu]}\n' >"$tmp/badrole.yaml"
    run 2 check "$stop" --config "$tmp/badrole.yaml"
    expect_output "badrole.yaml:3:51: error: a reader is ctrl, sche or aicore, not 'gpu'"
    printf 'timing:\n  stop-order:\n    fence-calls: [x]\n' >"$tmp/badkey.yaml"
    run 2 check "$stop" --config "$tmp/badkey.yaml"
    expect_output "badkey.yaml:3:5: error: unknown key 'timing.stop-order.fence-calls'"
    run 0 config --dump "$stop"
    expect_output "field: devArgs.nrValidAic"
    expect_output "safe-timeout-calls: \[GetOsThrottleSafeWaitTimeout\]"
    # Generated kernels are not control code: the timing rules do not look at them.
    run 0 check corpus/barrier-participants/good --rules 'timing-*'
    expect_output "0 error\(s\), 0 warning\(s\), 0 note\(s\)"
    # What Clang did not read is counted, and a rule that needed it answers unknown, never a pass.
    printf '%s\n' '#include <cstdint>' 'constexpr uint32_t AICORE_TASK_STOP = 0x7FFFFFF0u;' \
      'struct Hal { void SetReadyQueue(uint32_t, uint32_t, uint32_t); void ResetParallelDevTask(uint32_t, uint32_t); void ResetShakeBuf(uint32_t, uint32_t); };' \
      'void Clear(Hal& h) { h.ResetParallelDevTask(0, 8, 9); }' \
      'void Stop(Hal& h) { h.SetReadyQueue(0, 8, AICORE_TASK_STOP + 1); __sync_synchronize(); Clear(h); __sync_synchronize(); h.ResetShakeBuf(0, 8); }' >"$tmp/stop_cut.cpp"
    run 2 check "$tmp/stop_cut.cpp"
    expect_output "control code modelled: 1 function\(s\) fully, 1 partly, 0 not at all \('Clear': 4: too many arguments"
    expect_output "stop_cut.cpp:5:6: unknown: could not prove: stopping cores follows STOP, fence, clear, fence, GOODBYE in 'Stop' \(Clang did not read all of 'Clear'"
    expect_output "control code: 1 function\(s\) modelled fully, 1 partly, 0 not at all$"
    # A PR review reports only the findings the PR brings (--diff / --changed-lines): the PR adds
    # line 27; the writes at lines 25 and 33 are there before it. GitCode gets one line comment
    # per finding.
    if command -v git >/dev/null; then
      repo="$tmp/repo"
      mkdir -p "$repo" && grep -v '^    shared.scheCpuNum = roundSche;' \
        corpus/timing-shared-field-write/bad/ctrl_rewrites_shared_dev_args.cpp >"$repo/ctrl.cpp"
      git -C "$repo" init -q && git -C "$repo" -c user.name=t -c user.email=t@t add ctrl.cpp &&
        git -C "$repo" -c user.name=t -c user.email=t@t commit -qm base
      cp corpus/timing-shared-field-write/bad/ctrl_rewrites_shared_dev_args.cpp "$repo/ctrl.cpp"
      git -C "$repo" -c user.name=t -c user.email=t@t commit -qam change
      run 1 check "$repo/ctrl.cpp" --diff HEAD~1..HEAD --format gitcode
      expect_output '"path": "ctrl.cpp"'
      expect_output '"position": 27'
      if grep -q '"position": 25' <<<"$out"; then fail "--diff kept a finding on an unchanged line"; fi
      git -C "$repo" diff HEAD~1..HEAD >"$tmp/pr.diff"
      run 1 check "$repo/ctrl.cpp" --changed-lines "$tmp/pr.diff" --source-root "$repo"
      expect_output "ctrl.cpp:27:[0-9]+: error: Blocker"
      expect_output ", 2 present before the change,"
      run 0 check "$repo/ctrl.cpp" --diff HEAD..HEAD
      run 2 check "$repo/ctrl.cpp" --diff 'HEAD;rm'
      expect_output "a revision range is BASE..HEAD"
    fi
    rm -rf "$tmp"
    ;;
  differential)
    # The pull request that deletes the GM fence of a good kernel: the finding sits on the
    # unchanged store, and the gate still fails on it.
    command -v git >/dev/null || { echo "SKIPPED: git is not installed"; exit 77; }
    tmp="$(mktemp -d)"
    repo="$tmp/repo"
    mkdir -p "$repo/kernels" && cp examples/ring_step_good.pto examples/ring_step_bad.pto "$repo/kernels/"
    g() { git -C "$repo" -c user.name=t -c user.email=t@t "$@"; }
    g init -q -b main && g add kernels && g commit -qm base && g checkout -qb pr
    fence=$(grep -n 'pto.fence.barrier_all #pto.fence_scope<gm>' "$repo/kernels/ring_step_good.pto" | head -1 | cut -d: -f1)
    sed -i "${fence}d" "$repo/kernels/ring_step_good.pto"
    g commit -qam 'drop the fence'
    run 1 check "$repo/kernels" --diff main..pr
    expect_output 'ring_step_good\.pto:[0-9]+:[0-9]+: error: .*no .pto\.fence\.barrier_all.*\[comm-publish-fence\]$'
    # ring_step_bad's findings are there before the change: not new, not reported.
    expect_no_output 'ring_step_bad\.pto:[0-9]+:[0-9]+: error'
    expect_output '1 error\(s\), .* [0-9]+ present before the change$'
    g diff main..pr >"$tmp/pr.diff"
    run 1 check "$repo/kernels" --changed-lines "$tmp/pr.diff"
    expect_output 'ring_step_good\.pto:[0-9]+:[0-9]+: error: .*\[comm-publish-fence\]$'
    expect_no_output 'ring_step_bad\.pto:[0-9]+:[0-9]+: error'
    # A finding present at BASE stays old when the PR edits its file elsewhere.
    g checkout -q main && g checkout -qb edit
    sed -i '1i // reviewed' "$repo/kernels/ring_step_bad.pto" && g commit -qam 'comment'
    run 0 check "$repo/kernels" --diff main..edit
    expect_output '0 error\(s\).* present before the change$'
    # --filter-mode file shows the new finding as well; a patch whose new side is not on disk is
    # an input error, not a pass.
    g checkout -q pr
    run 1 check "$repo/kernels" --diff main..pr --filter-mode file
    run 2 check "$repo/kernels" --diff main..edit
    expect_output "error: 'kernels/ring_step_bad.pto' on disk is not the diff's new version"
    # C++: the PR removes a set_flag from an included header; the BASE check reads the header as
    # it was (through the compile database's include folder as well).
    mkdir -p "$repo/src" "$repo/inc" "$tmp/build"
    printf '%s\n' '#pragma once' '#include "pto/pto-inst.hpp"' 'using namespace pto;' 'AICORE inline void prime() {' \
      '  set_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);' '  set_flag(PIPE_V, PIPE_MTE2, EVENT_ID1);' '}' >"$repo/inc/steps.h"
    printf '%s\n' '#include "steps.h"' 'extern "C" __global__ AICORE void k(__gm__ int32_t* src) {' '  prime();' \
      '  wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);' '  wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID1);' '}' >"$repo/src/k.cpp"
    printf '[{"directory":"%s","file":"%s/src/k.cpp","arguments":["clang++","-I%s/inc","-c","src/k.cpp"]}]\n' \
      "$repo" "$repo" "$repo" >"$tmp/build/compile_commands.json"
    g add src inc && g commit -qm 'a C++ kernel' && g checkout -qb cpp
    sed -i '/EVENT_ID1/d' "$repo/inc/steps.h" && g commit -qam 'prime one event'
    run 1 check "$repo/src" -p "$tmp/build" --diff pr..cpp
    expect_output 'k\.cpp:5:3: error: .*\[sync-deadlock\]$'
    run 0 check "$repo/src" -p "$tmp/build" --diff cpp..cpp
    expect_output '1 present before the change$'
    [ -z "$(find "${TMPDIR:-/tmp}" -maxdepth 1 -name 'ptoverify-base-*' -newer "$tmp/build/compile_commands.json" 2>/dev/null)" ] ||
      fail "the BASE tree was left behind"
    # Inputs reached through a symbolic link of the repository: the BASE check reads the linked
    # file as it was, and the user's files are left as they are.
    g checkout -q main && g checkout -qb linked
    mkdir "$repo/real" && cp examples/ring_step_good.pto "$repo/real/ring.pto" && ln -s real "$repo/linked"
    g add real linked && g commit -qm 'linked kernels' && g checkout -qb linked-pr
    fence=$(grep -n 'pto.fence.barrier_all #pto.fence_scope<gm>' "$repo/real/ring.pto" | head -1 | cut -d: -f1)
    sed -i "${fence}d" "$repo/real/ring.pto" && g commit -qam 'drop the fence'
    before="$(sha256sum "$repo/real/ring.pto")"
    run 1 check "$repo/linked" --diff linked..linked-pr
    expect_output 'ring\.pto:[0-9]+:[0-9]+: error: .*\[comm-publish-fence\]$'
    [ "$(sha256sum "$repo/real/ring.pto")" = "$before" ] || fail "the BASE check changed the user's file"
    [ -L "$repo/linked" ] || fail "the BASE check changed the user's link"
    rm -rf "$tmp"
    ;;
  user-text)
    # What users read cites upstream documents by title and link, never this project's internal
    # names for them ("seed 003", "issue 16"): README, docs, rule pages, corpus and examples, and
    # what the binary prints about its rules.
    internal='\b[Ss]eed[- ]?[0-9]{3}\b|\b[Ss]eeds? [0-4]\b|\b[Ii]ssues? #?[0-9]+\b'
    upstream='(PTOAS|pypto|simpler|pto-isa|pypto-lib|triton-ascend|AscendNPU-IR|GitHub|GitCode) (issues? )?#?[0-9]'
    hits="$(grep -rnIE "$internal" README.md docs corpus examples | grep -vE "$upstream" || true)"
    [ -z "$hits" ] || { fail "internal document names in user text:"; echo "$hits" | head -20; }
    run 0 rules --format json
    if grep -qE "$internal" <<<"$out"; then fail "rules --format json cites internal names"; fi
    for id in $("$tool" rules | cut -d' ' -f1); do
      run 0 explain "$id"
      if grep -vE "$upstream" <<<"$out" | grep -qE "$internal"; then fail "explain $id cites internal names"; fi
    done
    ;;
  readme-sample)
    # The README's sample output is what the tool prints: each '$ ptoverify ...' line is run and
    # the lines after it must appear in its output in order ('...' skips lines; a leading '...'
    # stands for the path).
    block="$(awk '/checked against the tool.s output by tests\/cli_tests.sh/ {on = 1; next}
                  on && /^```/ {if (open) exit; open = 1; next}
                  on && open {print}' README.md)"
    [ -n "$block" ] || fail "no checked sample block in README.md"
    actual=()
    at=0
    while IFS= read -r expected; do
      if [[ "$expected" == '$ ptoverify '* ]]; then
        read -r -a args <<<"${expected#\$ ptoverify }"
        mapfile -t actual < <("$tool" "${args[@]}" 2>&1)
        at=0
        continue
      fi
      [ "$expected" = "..." ] && continue
      found=0
      while [ "$at" -lt "${#actual[@]}" ]; do
        line="${actual[$at]}"
        at=$((at + 1))
        if [[ "$expected" == '...'* ]]; then
          [[ "$line" == *"${expected#...}" ]] && { found=1; break; }
        elif [ "$line" = "$expected" ]; then
          found=1
          break
        fi
      done
      [ "$found" = 1 ] || { fail "README sample line not in the output (in order): $expected"; break; }
    done <<<"$block"
    # ... and its claim about the corpus: a bad and a good kernel for every rule.
    run 0 corpus --report corpus
    thin="$(awk '$NF == "pass" && $1 != "regressions" && ($2 < 1 || $3 < 1) {print $1}' <<<"$out")"
    [ -z "$thin" ] || fail "rules without a good or a bad corpus kernel: $thin"
    for id in $("$tool" rules | cut -d' ' -f1 | grep -vx xcheck-sync); do  # pairs: case cpp-frontend
      grep -qE "^$id " <<<"$out" || fail "rule $id has no corpus directory"
    done
    ;;
  *)
    echo "unknown case $case_name"
    exit 2
    ;;
esac

if [ "$failures" -ne 0 ]; then
  echo "$case_name: $failures failure(s)"
  exit 1
fi
echo "$case_name: ok"
