#pragma once
// The PTO-ISA name of the op registry (analyzer/model/op_registry.h), for the callers that read
// its instruction rows as `ptoisa::` (`ptoverify isa`, the core-pipe rule).
#include "analyzer/model/op_registry.h"

namespace ptov {
namespace ptoisa = ops;
}  // namespace ptov
