#pragma once
// Named model queries shared by several rules (the "facts" a rule asks for).
#include <map>
#include <set>
#include <string>
#include <vector>

#include "analyzer/model/flow.h"
#include "analyzer/model/model.h"

namespace ptov {

// A write that makes data visible to another rank: any GM write (tstore, store_scalar, tput,
// tget into local GM, collectives) that targets a peer address, from which a notify is
// reachable on some path (including later loop iterations), or that the kernel itself marks
// as published with a single-line cacheinvalid of the written buffer. docs/publishing.md.
bool isGmWriteOp(const Op& op);
std::set<int> publishingWriteNodes(const Flow& flow);

// Nodes from which some node in `targets` is reachable (following successors).
std::vector<bool> canReach(const Flow& flow, const std::set<int>& targets);

// Does this cache invalidate cover the memory `m` (whole-GM, or the same buffer)?
bool invalidateCovers(const Op& inval, const MemRef& m);

// A short description of a buffer for messages: "%arg1 (peer)" / "%view".
std::string describeBuffer(const Kernel& k, const MemRef& m);

// Map-of-bitmask dataflow state: key -> set of abstract states as bits. Join is union.
template <class Key>
struct BitsState {
  std::map<Key, unsigned> bits;
  bool join(const BitsState& o) {
    bool changed = false;
    for (const auto& [k, b] : o.bits) {
      unsigned& mine = bits[k];
      unsigned merged = mine | b;
      if (merged != mine) {
        mine = merged;
        changed = true;
      }
    }
    return changed;
  }
};

}  // namespace ptov
