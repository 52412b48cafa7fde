# Sourced by every test that reads the real upstream corpus: sets REAL_CORPUS, or skips (exit 77,
# which CTest reports as skipped) when it is absent, except under CI=true where absence fails.
# The corpus is found through PTOVERIFY_REAL_CORPUS (environment), else the CMake cache variable
# of the same name (passed as PTOVERIFY_REAL_CORPUS_CONFIGURED), else ../shared/corpus-real.
REAL_CORPUS="${PTOVERIFY_REAL_CORPUS:-${PTOVERIFY_REAL_CORPUS_CONFIGURED:-$SRC/../shared/corpus-real}}"
if [ ! -d "$REAL_CORPUS" ]; then
  if [ "${CI:-}" = "true" ]; then
    echo "FAIL: the real upstream corpus is missing at $REAL_CORPUS, and under CI=true the real-corpus tests must run"
    exit 1
  fi
  echo "PTOVERIFY-SKIPPED: the real upstream corpus (PTOAS .pto, HIVM .mlir, pypto-lib/PTOAS C++, cann/pypto machine code) is not at $REAL_CORPUS; get it with scripts/fetch-real-corpus or point PTOVERIFY_REAL_CORPUS at it"
  exit 77
fi
