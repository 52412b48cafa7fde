# Two commands do everything: `make run` and `make test`.
MAKEFLAGS += --no-print-directory
BUILD_DIR ?= build
JOBS ?= $(shell nproc)
LLVM_VERSION ?= 14
CMAKE_FLAGS ?=

.PHONY: all bootstrap bootstrap-test configure build build-tool run test test-sanitize fuzz bench package install clean

all: build

bootstrap:
	@PTOVERIFY_LLVM_VERSION=$(LLVM_VERSION) scripts/bootstrap.sh

# The packages only the test suite needs as well (git, jq, xmllint, chromium, npm, pytest).
bootstrap-test:
	@PTOVERIFY_LLVM_VERSION=$(LLVM_VERSION) scripts/bootstrap.sh --test

configure: bootstrap
	@cmake -S . -B $(BUILD_DIR) -DPTOVERIFY_LLVM_VERSION=$(LLVM_VERSION) $(CMAKE_FLAGS) > $(BUILD_DIR).configure.log || (cat $(BUILD_DIR).configure.log; exit 1)

# Everything: the tool, its unit tests and benches.
build: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)

# The tool alone (ptoverify, ptoverify-cpp, the man page).
build-tool: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS) --target ptoverify ptoverify-man

# Checks the bundled example kernels; some of them are bad on purpose, so findings (exit 1) are expected.
run: build-tool
	@$(BUILD_DIR)/ptoverify check examples; status=$$?; \
	  if [ $$status -gt 1 ]; then echo "ptoverify failed with exit code $$status"; exit $$status; fi

# A .deb of the tool (CPack): $(BUILD_DIR)/ptoverify_VERSION_ARCH.deb.
package: build-tool
	@cmake --build $(BUILD_DIR) --target package

# Installs into PREFIX (default /usr/local); the prefix may be copied elsewhere afterwards.
PREFIX ?= /usr/local
install: build-tool
	@cmake --install $(BUILD_DIR) --prefix $(PREFIX)

# Tests that need the real upstream corpus are skipped without it (except under CI=true); their
# reasons are printed after the run.
# Where the fuzz build exists (make fuzz), a short run of each fuzz target is part of the suite.
test: bootstrap-test build
	@cd $(BUILD_DIR) && status=0 && { ctest --output-on-failure -j $(JOBS) || status=$$?; } && \
	  grep -ho '^PTOVERIFY-SKIPPED: .*' Testing/Temporary/LastTest.log | sort -u | sed 's/^/  /'; exit $$status
	@if [ -f build-fuzz/CMakeCache.txt ] && [ "$(BUILD_DIR)" = build ]; then \
	  echo "== fuzz targets (build-fuzz/, a short run each)"; cmake --build build-fuzz -j $(JOBS) --target fuzz_all >/dev/null && \
	  cd build-fuzz && ctest --output-on-failure; fi

# The whole suite built with ASan + UBSan (its own build directory).
# UBSan stops at its first report, so a report fails the test it happens in.
test-sanitize:
	@UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 $(MAKE) test BUILD_DIR=build-sanitize CMAKE_FLAGS="-DPTOVERIFY_SANITIZE=ON $(CMAKE_FLAGS)"

# libFuzzer targets (fuzz/README.md), built with clang in build-fuzz/, each run FUZZ_SECONDS.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= fuzz_mlir_reader fuzz_check_file fuzz_reports fuzz_config fuzz_expectations fuzz_merge fuzz_cpp_frontend
fuzz: bootstrap
	@cmake -S . -B build-fuzz -DPTOVERIFY_LLVM_VERSION=$(LLVM_VERSION) -DPTOVERIFY_FUZZ=ON \
	  -DCMAKE_C_COMPILER=clang-$(LLVM_VERSION) -DCMAKE_CXX_COMPILER=clang++-$(LLVM_VERSION) $(CMAKE_FLAGS) > build-fuzz.configure.log || \
	  (cat build-fuzz.configure.log; exit 1)
	@cmake --build build-fuzz -j $(JOBS) --target fuzz_all
	@status=0; for t in $(FUZZ_TARGETS); do \
	  bash fuzz/run.sh build-fuzz/fuzz/$$t . $(FUZZ_SECONDS) build-fuzz/fuzz-work || status=1; done; exit $$status

bench: build
	@scripts/bench.sh $(BUILD_DIR)/ptoverify
	@echo "== solver: Z3 time per query and per kernel (corpus-real, corpus, examples) =="
	@$(BUILD_DIR)/ptoverify_solver_bench ../shared/corpus-real corpus examples
	@bench/cpp_frontend_bench.sh $(BUILD_DIR) .

clean:
	rm -rf $(BUILD_DIR) $(BUILD_DIR).configure.log
