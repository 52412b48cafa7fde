#!/usr/bin/env bash
# The HTML report (--format html:DIR) of corpus/ in headless Chromium: the page loads with no
# console message, needs nothing from the network, and shows every finding, the lane timelines
# (a stuck lane, set -> wait arrows), a race's two accesses with their byte ranges and the
# path's branch decisions. Usage: html_report.sh PTOVERIFY SOURCE_DIR
set -uo pipefail
tool="$1"
src="$2"
cd "$src" || exit 2
browser="$(command -v chromium || command -v chromium-browser || true)"
if [ -z "$browser" ]; then
  [ "${CI:-}" = "true" ] && { echo "FAIL: chromium is missing (scripts/bootstrap.sh installs it)"; exit 1; }
  echo "skipped: no chromium to load the page (scripts/bootstrap.sh installs it)"
  exit 77
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail=0
"$tool" check corpus --format html:"$work/report" --format json:"$work/all.json" >/dev/null
page="$work/report/index.html"
[ -f "$page" ] || { echo "FAIL: no $page"; exit 1; }
# Self-contained: no script, and no resource from anywhere but the page itself.
if grep -qiE '<script|<link |src="|href="https?:' "$page"; then echo "FAIL: the page loads something"; fail=1; fi
dups="$(grep -o ' id="[^"]*"' "$page" | sort | uniq -d | head -3)"
[ -z "$dups" ] || { echo "FAIL: ids used twice on the page: $dups"; fail=1; }
findings="$(jq '.findings | length' "$work/all.json")"
[ "$(grep -c '<section class="finding' "$page")" -eq "$findings" ] || { echo "FAIL: not every one of $findings findings is on the page"; fail=1; }
# Loaded by the browser: the DOM it built, and what it logged.
timeout 120 "$browser" --headless=new --no-sandbox --disable-gpu --enable-logging=stderr --v=0 --dump-dom "file://$page" \
  >"$work/dom.html" 2>"$work/console.txt"
if grep -E ':CONSOLE' "$work/console.txt"; then echo "FAIL: the page logged to the console"; fail=1; fi
[ "$(grep -c '<section class="finding' "$work/dom.html")" -eq "$findings" ] || { echo "FAIL: the browser's DOM lacks findings"; fail=1; }
grep -q '<g class="event stuck">' "$work/dom.html" || { echo "FAIL: no stuck lane drawn"; fail=1; }
grep -q 'class="match"' "$work/dom.html" || { echo "FAIL: no set -> wait arrow drawn"; fail=1; }
[ "$(grep -c '<g class="event racing">' "$work/dom.html")" -ge 2 ] || { echo "FAIL: no race's two accesses drawn"; fail=1; }
grep -q 'shared bytes \[' "$work/dom.html" || { echo "FAIL: no race's byte ranges drawn"; fail=1; }
grep -q '<li class="branch">.*took the else of' "$work/dom.html" || { echo "FAIL: no branch decision on a path"; fail=1; }
grep -q '<pre class="src">' "$work/dom.html" || { echo "FAIL: no source lines"; fail=1; }
# A finding's link shows it alone (what the screenshots in docs/html-report.md use).
timeout 120 "$browser" --headless=new --no-sandbox --disable-gpu --hide-scrollbars --window-size=1300,900 \
  --screenshot="$work/one.png" "file://$page#f-1" >/dev/null 2>&1
[ -s "$work/one.png" ] || { echo "FAIL: no screenshot of one finding"; fail=1; }
# The checks above must be able to fail: a page with a script error is caught.
echo '<html><body><script>undefinedFunction();</script></body></html>' >"$work/broken.html"
timeout 120 "$browser" --headless=new --no-sandbox --disable-gpu --enable-logging=stderr --v=0 --dump-dom "file://$work/broken.html" \
  >/dev/null 2>"$work/broken.txt"
grep -q ':CONSOLE' "$work/broken.txt" || { echo "FAIL: a console error would not be seen"; fail=1; }
[ "$fail" -eq 0 ] && echo "html-report: ok"
exit "$fail"
