#!/usr/bin/env bash
# Runs one fuzz target for SECONDS over its seed corpus (fuzz/seeds.sh) and its dictionary;
# new inputs are kept in WORK/TARGET/corpus and crashes in WORK/TARGET/crashes. Exits non-zero
# on a crash, a leak, a timeout (-timeout: FUZZ_TIMEOUT seconds per input, default 10, 30 for the C++
# front end) or a sanitizer report.
# Usage: run.sh FUZZER SOURCE_DIR SECONDS WORK
set -uo pipefail
fuzzer="$1"
src="$2"
seconds="$3"
work="$4"
name="$(basename "$fuzzer")"
dir="$work/$name"
mkdir -p "$dir/corpus" "$dir/crashes"
bash "$src/fuzz/seeds.sh" "$name" "$src" "$dir/seeds"
dict=()
case "$name" in
  fuzz_config) [ -f "$src/fuzz/config.dict" ] && dict=(-dict="$src/fuzz/config.dict") ;;
  fuzz_merge) [ -f "$src/fuzz/sarif.dict" ] && dict=(-dict="$src/fuzz/sarif.dict") ;;
  fuzz_cpp_frontend) [ -f "$src/fuzz/cpp.dict" ] && dict=(-dict="$src/fuzz/cpp.dict") ;;
  *) dict=(-dict="$src/fuzz/pto.dict") ;;
esac
timeout_s="${FUZZ_TIMEOUT:-10}"
[ "$name" = fuzz_cpp_frontend ] && [ -z "${FUZZ_TIMEOUT:-}" ] && timeout_s=30
ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}" \
UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}" \
  "$fuzzer" "$dir/corpus" "$dir/seeds" "${dict[@]}" -max_total_time="$seconds" -timeout="$timeout_s" -rss_limit_mb=4096 \
  -max_len=65536 -artifact_prefix="$dir/crashes/" -print_final_stats=1 2>"$dir/log.txt"
status=$?
grep -E '^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::new_units_added|stat::peak_rss_mb)' "$dir/log.txt" | tail -4
if [ "$status" -ne 0 ]; then
  echo "FAIL: $name exited $status; the last lines of $dir/log.txt:"
  tail -30 "$dir/log.txt"
  exit 1
fi
echo "$name: ok ($(ls "$dir/corpus" | wc -l) inputs in the corpus)"
