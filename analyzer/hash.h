#pragma once
// FNV-1a, 64 bit: stable across runs and machines (finding fingerprints, shard assignment, the
// solver's on-disk answer names).
#include <cstdint>
#include <string>

namespace ptov {

constexpr uint64_t kFnvOffset = 1469598103934665603ull;

inline uint64_t fnv1a(const std::string& s, uint64_t seed = kFnvOffset) {
  uint64_t h = seed;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace ptov
