#pragma once
// Dialect-agnostic tokenizer for MLIR text (.pto, HIVM .mlir).
#include <string>
#include <string_view>
#include <vector>

namespace ptov::mlir {

enum class Tok {
  ValueId,    // %name, %0, %x#1
  SymbolRef,  // @name, @"quoted"
  BlockId,    // ^bb0
  Type,       // !dialect.type<...> or builtin memref<...>/tensor<...>/vector<...>
  Attr,       // #dialect.attr<...>, #dialect<...>, #alias, dense<...>, array<...>
  BareId,     // func.func, index, f32, offsets, ins
  Integer,
  Float,
  String,     // "..." (text kept with quotes)
  Punct,      // ( ) [ ] { } < > , : = -> + - * ? |
  Split,      // a `// -----` line
  End,
};

struct Token {
  Tok kind = Tok::End;
  std::string text;
  int line = 0;
  int col = 0;
  bool firstOnLine = false;  // nothing but whitespace/comments before it on its line
};

struct LexError {
  int line = 0;
  int col = 0;
  std::string message;
};

// Tokenizes `text`. Lexical errors (unterminated string, unbalanced <...> in a type) are
// returned in `errors`; the lexer resynchronizes at the next line and keeps going.
std::vector<Token> tokenize(std::string_view text, std::vector<LexError>& errors);

}  // namespace ptov::mlir
