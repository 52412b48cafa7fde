#pragma once
// Generic, dialect-agnostic op tree produced by the MLIR-text reader.
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analyzer/mlir/lexer.h"
#include "analyzer/source_loc.h"

namespace ptov::mlir {

struct Region;

struct BlockArg {
  std::string name;  // %x
  std::string type;
};

struct Op {
  std::string name;                  // "pto.tload", "scf.for", "func.func", "return"
  std::vector<std::string> results;  // "%0", or "%r#0", "%r#1" for `%r:2 = ...`
  std::vector<std::string> operands;       // every %value used in the op's own text, in order
  std::vector<std::string> successors;     // ^bb names (cf.br, cf.cond_br)
  std::vector<std::string_view> types;     // every type in the op's text, in order (!pto.ptr<f32>, i32, index); views into ParsedFile::source
  std::map<std::string, std::string> attrs;  // attribute dictionary entries, values as text
  // `key = value` pairs written in the op's custom syntax outside the attr dict
  // (addr = %a, offset = %o : i64, mode = #pto.sync_all_mode<soft>, offsets = [...]).
  std::map<std::string, std::string> keywords;
  std::string symbol;                // @name for func.func / func.call
  std::vector<Token> tokens;         // the op's own tokens (regions excluded), for op-specific scans
  std::vector<Region> regions;
  std::vector<BlockArg> entryArgs;   // func.func arguments (also block args of region 0)
  SourceLoc loc;

  // Convenience lookups over `tokens`.
  bool hasWord(const std::string& bareWord) const;
  std::string attr(const std::string& key) const;  // attr dict first, then keywords
};

struct Block {
  std::string label;  // "" for an implicit entry block
  std::vector<BlockArg> args;
  std::vector<Op> ops;
};

struct Region {
  std::vector<Block> blocks;
};

// One `// -----` split of a file: its top-level ops (usually one `module`).
struct Split {
  std::vector<Op> ops;
};

// The text a file's tokens view, with the lexer's messages (the Error tokens view those).
struct SourceText {
  std::string text;
  std::deque<LexError> lexErrors;
};

struct ParsedFile {
  std::string path;
  std::shared_ptr<const SourceText> source;  // what every Op::tokens entry views
  std::vector<Split> splits;
  std::vector<InputDiagnostic> diagnostics;
  bool hasErrors() const;
};

}  // namespace ptov::mlir
