#!/usr/bin/env bash
# Validates ptoverify's SARIF against the official SARIF 2.1.0 JSON schema with the Microsoft
# SARIF multitool (npm @microsoft/sarif-multitool, pinned, installed into the build tree on
# first use), and its JUnit output against tests/schemas/junit.xsd with xmllint.
# Usage: validate_reports.sh PTOVERIFY SOURCE_DIR TOOLS_DIR
set -uo pipefail
tool="$1"
src="$2"
tools="$3"
cd "$src" || exit 2
fail=0
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

multitool="$tools/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
schema="$tools/node_modules/@microsoft/sarif-multitool-linux/sarif-2.1.0.json"
if [ ! -x "$multitool" ]; then
  mkdir -p "$tools"
  (cd "$tools" && npm install --no-audit --no-fund --loglevel=error @microsoft/sarif-multitool@5.7.0 >/dev/null) ||
    { echo "FAIL: cannot install @microsoft/sarif-multitool from npm"; exit 1; }
  chmod u+x "$multitool"  # npm does not run the package's install script that does this
fi

# Inputs: every bad corpus case (findings with witnesses, notes, unknowns), an input error and
# the suppression notes.
"$tool" check corpus/*/bad corpus/regressions tests/inputs/syntax_errors.pto tests/inputs/suppressions.pto \
  --format sarif:"$work/out.sarif" \
  --format junit:"$work/out.xml" --format json:"$work/out.json" >/dev/null
"$tool" check corpus/barrier-arrival/bad --kernel-budget 0 --format sarif:"$work/unknown.sarif" \
  --format junit:"$work/unknown.xml" >/dev/null

for f in "$work/out.sarif" "$work/unknown.sarif"; do
  out="$("$multitool" validate "$f" -j "$schema" --level Error Warning -o "$work/validation.sarif" --log ForceOverwrite 2>&1)"
  if grep -E ': (error [A-Z]+[0-9]+|warning (JSON|SARIF1)[0-9]+):' <<<"$out"; then
    echo "FAIL: $f is not valid SARIF 2.1.0"
    fail=1
  fi
  grep -q 'Analysis completed successfully' <<<"$out" || { echo "FAIL: the multitool did not finish on $f"; echo "$out" | tail; fail=1; }
done
for f in "$work/out.xml" "$work/unknown.xml"; do
  xmllint --noout --schema tests/schemas/junit.xsd "$f" || { echo "FAIL: $f is not valid JUnit XML"; fail=1; }
done
# The validators must reject broken documents, or the checks above prove nothing.
echo '{"version":"2.1.0","runs":[{"tool":{"driver":{}},"results":[{"level":"bogus"}]}]}' >"$work/broken.sarif"
out="$("$multitool" validate "$work/broken.sarif" -j "$schema" --level Error Warning -o "$work/v2.sarif" --log ForceOverwrite 2>&1)"
grep -qE ': error JSON[0-9]+:' <<<"$out" || { echo "FAIL: the SARIF validator accepted a broken document"; fail=1; }
echo '<testsuites><testsuite name="x"/></testsuites>' >"$work/broken.xml"
xmllint --noout --schema tests/schemas/junit.xsd "$work/broken.xml" 2>/dev/null && { echo "FAIL: the XSD accepted a broken document"; fail=1; }
[ "$fail" -eq 0 ] && echo "validate-reports: ok"
exit "$fail"
