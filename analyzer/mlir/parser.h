#pragma once
#include <string>
#include <string_view>

#include "analyzer/mlir/ir.h"

namespace ptov::mlir {

// Parses MLIR text into the generic op tree. Never throws on bad input: syntax errors are
// recorded as `file:line:col` diagnostics, the parser skips to the next function or split,
// and everything it could parse is returned.
ParsedFile parseText(std::string_view text, const std::string& path);

}  // namespace ptov::mlir
