#pragma once
// Does a walk over cache lines (a single-line dcci in `for (line = first; line < end; line += 64)`,
// MemRef::walkFrom/walkTo) hold every byte of a GM access, in every instance the access runs?
// A proof over every lane and loop value (docs/rules/barrier-data-visibility.md).
#include <string>

#include "rules/model_queries.h"
#include "solver/proofs.h"

namespace ptov {

// The walk's instance is chosen per access instance: each loop around the walk and not around
// the access is paired with a loop around the access over the same values, or with the access's
// row (a GM region of rows); the proof then shows that this instance runs (its counters are in
// range) and that its lines hold the access's bytes. Proved, or Unknown with the reason: a walk
// that does not hold them as paired may still hold them paired otherwise.
Verdict walkHoldsAccess(const OpNumbering& numbering, size_t walk, size_t access, const MemRef& data,
                        ProofContext& proofs);

}  // namespace ptov
