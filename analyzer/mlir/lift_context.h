#pragma once
// What the lifters of both MLIR dialects share (the .pto lifter in analyzer/pto, the HIVM one in
// analyzer/hivm): what is known about an SSA value, the token helpers that read an op's
// attributes and operand groups, and the services a dialect's op lifter asks of the function
// lifter that owns the values and the kernel (LiftContext).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/mlir/ir.h"
#include "analyzer/model/model.h"
#include "analyzer/model/op_registry.h"

namespace ptov::mlir {

// What the lifter knows about an SSA value.
struct ValueInfo {
  ExprPtr expr;                     // integer value, when it is one
  int param = -1;                   // kernel parameter a pointer/view derives from
  bool peer = false;                // offset to a peer rank's copy
  bool peerOffset = false;          // the value *is* a peer offset (CommRemoteOffset* result)
  MemSpace space = MemSpace::None;  // address space of a pointer/view/tile
  // GM views: the base tensor view and, for partitions, the box inside it.
  std::string view;
  std::vector<ExprPtr> offsets, sizes;
  std::string root;  // the buffer an alias (subview, cast, ...) views; "" = itself
  // Tiles:
  bool isTile = false;
  std::optional<int64_t> tileAddr;
  int64_t tileBytes = 0;
  // Views of a tile (root set): where the view lies in the root, when known (MemRef::tileView),
  // or the offsets it takes over the iterations of its loops.
  std::optional<int64_t> viewOffset;
  int64_t viewBytes = 0;
  std::vector<int64_t> viewOffsetChoices;
  std::vector<int64_t> viewOffsetPerIteration;  // MemRef::tileViewOffsetPerIteration ...
  std::vector<std::string> viewLoops;           // ... and MemRef::tileViewLoops
  int64_t viewLines = 1, viewStride = 0, viewLineBytes = 0;  // MemRef::tileViewLines ...
  bool ownIdentity = false;              // a tile whose reused SSA name got its own root name (liftTile)
  int tileElemBytes = 0;                 // a plain row-major tile or view: MemRef::elementBytes ...
  int64_t tileRowElements = 0;           // ... and MemRef::rowElements
  bool tileFullyValid = false;           // MemRef::fullyValid
  int64_t slotBytes = 0, slotCount = 0;  // a multi-tile buffer (pto.alloc_multi_tile): its slots
  // GM pointers and views: where they start, in bytes from the base of their parameter's
  // buffer (null: not known), their element size, and a tensor view's strides in elements.
  ExprPtr byteBase;
  int elemBytes = 0;
  std::vector<ExprPtr> strides;
};

// The text inside the outermost <...> of an attribute such as #pto.pipe<PIPE_ALL> (its last word).
std::string angleBody(std::string_view text);
// A quoted string's text; anything else as it is.
std::string unquote(std::string_view s);
// The op's type tokens, in order.
std::vector<std::string> typeTokens(const Op& op);
// Elements of the first [...] group: names inside quotes, <...> or #attr<...>, or %values.
std::vector<std::string> bracketList(const Op& op);
// The %values inside `keyword( ... )`, e.g. the ins(...) or outs(...) group of a tile op.
std::vector<std::string> groupOperands(const Op& op, const char* keyword);
// Bytes per element of an MLIR element type (f32 -> 4); 0 if unknown.
int elementBytes(const std::string& type);

// What a dialect's op lifter asks of the function lifter: the values defined so far, the
// kernel's gaps and the run's diagnostics, and the sync ops both dialects spell alike.
class LiftContext {
 public:
  virtual ~LiftContext() = default;
  virtual const ValueInfo* info(const std::string& v) const = 0;
  virtual ExprPtr exprOf(const std::string& v) const = 0;
  virtual MemRef memRefOf(const std::string& v) const = 0;
  virtual void defineResults(const Op& op, const ValueInfo& v) = 0;
  virtual void defineUnknown(const Op& op) = 0;
  // An integer literal of `op`; one that does not fit in 64 bits is an input error.
  virtual std::optional<int64_t> integer(const Op& op, std::string_view text) const = 0;
  virtual void note(const Op& op, const std::string& msg) = 0;
  virtual void gap(ModelGap g) = 0;
  // set_flag / wait_flag / pipe_barrier, read into `m`.
  virtual void liftIntraCoreSync(const Op& op, const ops::OpRow& row, ptov::Op& m) = 0;
};

}  // namespace ptov::mlir
