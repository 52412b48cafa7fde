#!/usr/bin/env bash
# Checks that `check` writes the same bytes whatever the parallelism: -j1, -j2, and three
# --shard runs joined by `merge` (given out of order). Prints the time of each and exits 1 on
# any difference. Usage: scripts/shard-identity.sh [PTOVERIFY] PATH...
#   scripts/shard-identity.sh build/ptoverify ../shared/corpus-real
set -uo pipefail
tool="${1:-build/ptoverify}"
shift
[ "$#" -gt 0 ] || set -- ../shared/corpus-real
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
timed() {  # NAME COMMAND...: runs it, prints NAME and seconds
  local name="$1" start=$SECONDS
  shift
  "$@" >"$out/$name.stdout" 2>&1
  echo "$name: exit $? in $((SECONDS - start)) s"
}
timed j1 "$tool" check "$@" -j 1 --format sarif:"$out/j1.sarif"
timed j2 "$tool" check "$@" -j 2 --format sarif:"$out/j2.sarif"
for k in 1 2 3; do timed "shard$k" "$tool" check "$@" -j 2 --shard "$k/3" --format sarif:"$out/s$k.sarif"; done
timed merge "$tool" merge "$out/s3.sarif" "$out/s1.sarif" "$out/s2.sarif" -o "$out/merged.sarif"
status=0
for other in j2 merged; do
  if cmp -s "$out/j1.sarif" "$out/$other.sarif"; then echo "$other: the same bytes as -j1 ($(wc -c <"$out/j1.sarif") bytes)"
  else echo "$other: DIFFERS from -j1"; cmp "$out/j1.sarif" "$out/$other.sarif"; status=1; fi
done
cmp -s "$out/j1.stdout" "$out/j2.stdout" && echo "text output: -j1 and -j2 the same" || { echo "text output: -j2 DIFFERS"; status=1; }
exit "$status"
