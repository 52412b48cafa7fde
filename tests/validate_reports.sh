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

# Absolute inputs run from another directory: URIs still relative to the source root (this
# checkout's git top level), and an input outside it as an absolute file:// URI.
cp corpus/sync-deadlock/bad/rearm_on_last_iteration_only.pto "$work/outside.pto"
(cd "$work" && "$tool" check "$src/corpus/sync-deadlock/bad" "$src/corpus/comm-publish-fence/bad" "$work/outside.pto" \
  --source-root "$src" --format sarif:"$work/absolute.sarif" >/dev/null)
(cd "$work" && "$tool" check "$src/./corpus//sync-deadlock/bad/" --format sarif:"$work/default-root.sarif" >/dev/null)
# Suppressed and baselined findings: a baseline of one file, then a check where that file's
# findings are unchanged, one inline suppression hides another, a baseline entry is absent and
# the files added after the baseline have new findings.
mkdir -p "$work/repo/.git" && cp corpus/sync-deadlock/bad/*.pto "$work/repo/"
first="$(ls "$work"/repo/*.pto | head -1)"
"$tool" baseline create -o "$work/base.json" "$work/repo" >/dev/null
cp corpus/comm-publish-fence/bad/*.pto "$work/repo/"  # new findings
sed -i '0,/pto.wait_flag/s|\(pto.wait_flag.*\)$|\1 // NOLINT(sync-deadlock) reviewed: the loop never runs twice|' "$first"
printf '%s\n' "$(jq '.findings += [.findings[0] | .fingerprint = "gone" | .line = 3]' "$work/base.json")" >"$work/base2.json"
"$tool" check "$work/repo" --baseline "$work/base2.json" --format sarif:"$work/states.sarif" >/dev/null
for f in "$work/absolute.sarif" "$work/default-root.sarif" "$work/states.sarif"; do
  jq -e '[.runs[0].results[].locations[0].physicalLocation.artifactLocation.uri | select(startswith("/"))] | length == 0' "$f" >/dev/null ||
    { echo "FAIL: $f has a URI beginning with /"; fail=1; }
done
jq -e '[.runs[0].results[].locations[0].physicalLocation.artifactLocation | select(.uriBaseId == "SRCROOT") | .uri | select(startswith("corpus/sync-deadlock/bad/"))] | length > 0' \
  "$work/absolute.sarif" >/dev/null || { echo "FAIL: absolute inputs are not relative to --source-root"; fail=1; }
jq -e '[.runs[0].results[].locations[0].physicalLocation.artifactLocation | select(.uri | startswith("file:///")) | select(has("uriBaseId") | not)] | length > 0' \
  "$work/absolute.sarif" >/dev/null || { echo "FAIL: an input outside the source root is not an absolute file:// URI"; fail=1; }
jq -e '.runs[0].results | all(.locations[0].physicalLocation.artifactLocation.uri | startswith("corpus/sync-deadlock/bad/"))' \
  "$work/default-root.sarif" >/dev/null || { echo "FAIL: the default source root is not the git top level"; fail=1; }
jq -e '[.runs[0].results[].locations[0].physicalLocation.artifactLocation.uri | select(test("(^|/)\\./|//"))] | length == 0' \
  "$work/default-root.sarif" >/dev/null || { echo "FAIL: ./ or // left in a URI"; fail=1; }
jq -e '.runs[0].automationDetails.id == "ptoverify/"' "$work/absolute.sarif" >/dev/null || { echo "FAIL: no automationDetails.id"; fail=1; }
for state in new unchanged absent; do
  jq -e --arg s "$state" '[.runs[0].results[] | select(.baselineState == $s)] | length > 0' "$work/states.sarif" >/dev/null ||
    { echo "FAIL: no result with baselineState $state"; fail=1; }
done
jq -e '[.runs[0].results[] | select(.suppressions[0].kind == "inSource") | select(.suppressions[0].justification | test("reviewed"))] | length == 1' \
  "$work/states.sarif" >/dev/null || { echo "FAIL: the inline suppression is not kept with its reason"; fail=1; }
jq -e '[.runs[0].results[] | select(.suppressions[0].kind == "external")] | length > 0' "$work/states.sarif" >/dev/null ||
  { echo "FAIL: baselined findings are not kept as suppressed (external)"; fail=1; }

for f in "$work/out.sarif" "$work/unknown.sarif" "$work/absolute.sarif" "$work/default-root.sarif" "$work/states.sarif"; do
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
echo '<testsuites skipped="0"><testsuite name="x" tests="0" failures="0" errors="0"/></testsuites>' >"$work/skipped.xml"
xmllint --noout --schema tests/schemas/junit.xsd "$work/skipped.xml" 2>/dev/null &&
  { echo "FAIL: the XSD accepted skipped on <testsuites>, which the Jenkins xunit schema rejects"; fail=1; }
[ "$fail" -eq 0 ] && echo "validate-reports: ok"
exit "$fail"
