#pragma once

#include <cstddef>
#include <functional>

namespace ptov {

// The stack of each thread that checks files: what an ordinary thread has. Recursion that
// follows the input is bounded (values past 1,000 operations and statements nested past 1,000
// are gaps; Clang's parse is cut off before it runs out), so no input needs more.
constexpr size_t kThreadStackBytes = size_t{8} << 20;

// Runs task(0) .. task(count - 1) on up to `threads` threads of kThreadStackBytes each (never on
// the caller's, whose size the user's `ulimit -s` decides) and returns when all are done. The
// first exception a task threw is rethrown here; the other tasks still run.
void runOnThreads(size_t count, unsigned threads, const std::function<void(size_t)>& task);

}  // namespace ptov
