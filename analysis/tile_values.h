#pragma once
// Local tile memory by value (ub-range): which bytes each tile access touches, whether a tile
// holds a value of its own, and the writes that overwrite bytes of another tile whose value is
// still to be read. Two tiles sharing bytes are one buffer while one is a view of the other's
// value; they clash when one is written with a value not derived from the other while the
// other's value is still to be read. docs/rules/ub-range.md.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "analyzer/model/flow.h"
#include "analyzer/model/model.h"

namespace ptov {

// The bytes [begin, end) an access or placement covers in its space.
struct ByteRange {
  int64_t begin = 0, end = 0;
  bool overlaps(const ByteRange& o) const { return begin < o.end && o.begin < end; }
};

struct TileClash {
  const Op* placedOver = nullptr;   // placement of the tile that is written
  const Op* placedUnder = nullptr;  // placement of the tile whose bytes are overwritten
  const Op* placedLater = nullptr;  // the later of the two placements in the flow (the finding's place)
  const Op* write = nullptr;        // the overwriting op
  const Op* laterRead = nullptr;    // the read of the overwritten value; null: `write` reads it itself
  const MemRef* written = nullptr;
  const MemRef* read = nullptr;
  ByteRange writtenBytes, readBytes;
  // False when one of the two ranges is only a bound (a view at a dynamic offset lies somewhere
  // in its root): the bytes may be shared, which the rule says as `unknown`.
  bool exact = true;
  // An elementwise op that writes output element `element` over input element `readElement`,
  // which it reads later (walked in order); -1 when not decided per element.
  int64_t element = -1, readElement = -1;
  // The later read also reads the written tile: a write computed from the overwritten value is
  // still a clash, since that op wants the two values.
  bool readTogether = false;
};

// A write into a placed tile none of whose bytes any op reads before they are overwritten or
// the kernel ends.
struct LostValue {
  const Op* write = nullptr;
  const MemRef* written = nullptr;
  ByteRange bytes;           // what the write covers
  bool overwritten = false;  // some path rewrites its bytes (else the kernel ends first)
};

struct TileClashes {
  std::vector<TileClash> clashes;
  std::vector<LostValue> lost;  // only when asked for
  std::string notChecked;  // why the value analysis did not run ("" = it did)
};

// Clashes among the tiles whose placement op `placed` accepts (a constant address and a size),
// and, with `lostValuesToo`, the values written into them that are never read.
TileClashes tileClashes(const Flow& flow, const std::function<bool(const Op&)>& placed, bool lostValuesToo = false);

}  // namespace ptov
