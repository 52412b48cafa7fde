#pragma once
// Named model queries shared by several rules (the "facts" a rule asks for).
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analyzer/model/flow.h"
#include "analyzer/model/model.h"

namespace ptov {

// A write that makes data visible to another rank: any GM write (tstore, store_scalar, tput,
// tget into local GM, collectives) with at least one of these reasons. docs/publishing.md.
enum PublishReason : unsigned {
  kPublishPeer = 1,      // targets a peer address
  kPublishNotified = 2,  // a notify is reachable after it (including later loop iterations), and
                         // it writes a buffer peers can read (not only staging buffers)
  kPublishMarked = 4,    // a single-line cacheinvalid of the written buffer follows it
  kPublishFenced = 8,    // a scalar store that a GM fence follows (a release of a cached line)
};
bool isGmWriteOp(const Op& op);
// Staging buffers: kernel parameters that this kernel's own tput/tput_async reads as its local
// source and that no access addresses on a peer. Peers never read them, so writing them
// publishes nothing by itself. docs/publishing.md.
std::set<int> stagingBuffers(const Flow& flow);
// Flow node of each publishing write -> its PublishReason bits.
std::map<int, unsigned> publishingWriteNodes(const Flow& flow);

// Nodes from which some node in `targets` is reachable (following successors).
std::vector<bool> canReach(const Flow& flow, const std::set<int>& targets);

// Which GM buffers some code of the kernel writes, on this rank or, through a peer address, on
// another (every rank runs the same code): by parameter, else by value. A write whose buffer the
// front end could not trace may be any buffer.
class GmBufferUse {
 public:
  enum class Use { Known, Untraced, None };
  explicit GmBufferUse(const Kernel& k);
  Use written(const MemRef& m) const {
    return writes_.count(keyOf(m)) ? Use::Known : untracedWrite_ ? Use::Untraced : Use::None;
  }

 private:
  static std::string keyOf(const MemRef& m);
  std::set<std::string> writes_;
  bool untracedWrite_ = false;
};

// Does this cache invalidate name the memory `m` (whole-GM, or the same buffer)? The marker
// relation of PyPTO's InsertCommFence pass; for DMA payloads it is all there is to check.
bool invalidateCovers(const Op& inval, const MemRef& m);

// For a cacheable access (a scalar GM load or store): does the invalidate drop every line it
// touches? A whole-GM one does; a single-line one of the same buffer when the access's bytes
// lie in its 64-byte line: decided from the bytes over the loop iterations (MemRef::byteRange),
// or for one aligned element from the same start; Unknown when the bytes are not known.
enum class Coverage { Covered, NotCovered, Unknown };
Coverage invalidateCoversBytes(const Op& inval, const MemRef& m);
// Covered, or Unknown when the caller assumes an invalidate of unknown bytes drops the line.
inline bool coveredAssuming(Coverage c, bool unknownCovers) {
  return c == Coverage::Covered || (c == Coverage::Unknown && unknownCovers);
}
// "bytes [0, 64)" for MemRef::byteRange; "bytes not known" without one.
std::string byteRangeText(const std::optional<std::pair<int64_t, int64_t>>& range);
// For a finding on the cached access `m`: a single-line invalidate in the flow that names m's
// buffer but drops another line, and a note that says so ("...; `access` bytes [64, 68)").
std::optional<std::pair<SourceLoc, std::string>> otherLineNote(const Flow& flow, const MemRef& m,
                                                               const std::string& access);

// The core a kernel runs on, when known: Vector or Cube from the .pto or HIVM kernel kind or the
// C++ core view; Unknown otherwise (and for Mix).
KernelKind coreKindOf(const Kernel& k);

// Why a rule that reads how a C++ kernel is launched checks only the kernel's side ("" when a
// launch is linked, or the kernel is no launched C++ kernel).
std::string launchNotLinked(const Kernel& k);

// A short description of a buffer for messages: "%arg1 (peer)" / "%view".
std::string describeBuffer(const Kernel& k, const MemRef& m);

// Ops numbered in source order, with the [first, last] op index of every loop around each op.
// A value used inside a loop that does not contain its definition stays live to the loop end.
class OpNumbering {
 public:
  explicit OpNumbering(const Stmt& body);
  const std::vector<const Op*>& ops() const { return ops_; }
  int index(const Op* op) const { return index_.at(op); }
  // The loops and if arms around op `index`, outermost first: the statement and, for an if, the
  // arm (0 then, 1 else; -1 for a loop); a loop's ops are `loop` into the loop ranges.
  struct Context {
    const Stmt* stmt;
    int arm;
    int loop = -1;
    bool operator==(const Context& o) const { return stmt == o.stmt && arm == o.arm; }
  };
  bool inLoop(size_t index) const;
  const std::vector<Context>& context(size_t index) const { return context_[index]; }
  // Last op index at which `value` (defined at op index `def`) is live: named as an operand, or
  // the tile an op reads or writes (a value yielded out of a region is read under another name).
  int lastUse(const std::string& value, int def) const;

 private:
  void walk(const Stmt& s, std::vector<Context>& around);
  std::vector<const Op*> ops_;
  std::map<const Op*, int> index_;
  std::vector<std::pair<int, int>> loopRanges_;
  std::vector<std::vector<Context>> context_;
};

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
