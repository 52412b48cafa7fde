# Two commands do everything: `make run` and `make test`.
MAKEFLAGS += --no-print-directory
BUILD_DIR ?= build
JOBS ?= $(shell nproc)
LLVM_VERSION ?= 14
CMAKE_FLAGS ?=

.PHONY: all bootstrap configure build run test bench clean

all: build

bootstrap:
	@PTOVERIFY_LLVM_VERSION=$(LLVM_VERSION) scripts/bootstrap.sh

configure: bootstrap
	@cmake -S . -B $(BUILD_DIR) -DPTOVERIFY_LLVM_VERSION=$(LLVM_VERSION) $(CMAKE_FLAGS) > $(BUILD_DIR).configure.log || (cat $(BUILD_DIR).configure.log; exit 1)

build: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)

# Checks the bundled example kernels; some of them are bad on purpose, so findings (exit 1) are expected.
run: build
	@$(BUILD_DIR)/ptoverify check examples; status=$$?; \
	  if [ $$status -gt 1 ]; then echo "ptoverify failed with exit code $$status"; exit $$status; fi

# Tests that need the real upstream corpus are skipped without it (except under CI=true); their
# reasons are printed after the run.
test: build
	@cd $(BUILD_DIR) && status=0 && { ctest --output-on-failure -j $(JOBS) || status=$$?; } && \
	  grep -ho '^PTOVERIFY-SKIPPED: .*' Testing/Temporary/LastTest.log | sort -u | sed 's/^/  /'; exit $$status

bench: build
	@scripts/bench.sh $(BUILD_DIR)/ptoverify
	@echo "== solver: Z3 time per query and per kernel (corpus-real, corpus, examples) =="
	@$(BUILD_DIR)/ptoverify_solver_bench ../shared/corpus-real corpus examples
	@bench/cpp_frontend_bench.sh $(BUILD_DIR) .

clean:
	rm -rf $(BUILD_DIR) $(BUILD_DIR).configure.log
