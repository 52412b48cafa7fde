#pragma once
// The kernel names PyPTO's generated orchestration code gives its tasks in comments
// (`// Task 4096: fused_pre_norm_cce`). Read by the C++ front end to link launches, and by
// --shard to keep an orchestration file with the kernels it launches; no Clang needed.
#include <string>
#include <vector>

namespace ptov {

// After a "//" at `at`: "Task 3: name", "Spmd s: name" or "Group g: name" (blanks between) gives
// `name`, anything else "". By hand, not std::regex (its matcher recurses per character).
std::string namedTask(const std::string& t, size_t at);

// Every such name after a "//" in `text`, in order.
std::vector<std::string> taskNames(const std::string& text);

}  // namespace ptov
