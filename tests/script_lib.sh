# Sourced by the end-to-end test scripts that count their own failures (install.sh,
# ci_recipes.sh): a temporary directory removed at exit, `fail MESSAGE`, and `finish NAME`, which
# prints the verdict and exits 1 when anything failed.
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
finish() {
  if [ "$failures" -ne 0 ]; then
    echo "$1: $failures failure(s)"
    exit 1
  fi
  echo "$1: ok"
}
