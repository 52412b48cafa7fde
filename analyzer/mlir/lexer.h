#pragma once
// Dialect-agnostic tokenizer for MLIR text (.pto, HIVM .mlir).
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace ptov::mlir {

enum class Tok : unsigned char {
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
  Error,      // a lexical error; `text` is the message (the parser turns it into a syntax error)
  End,
};

// A token's text is a view into the tokenized source (an Error token's, into its LexError's
// message), so tokens are cheap to copy and the source must outlive them.
// 32 bytes (the fields ordered by size): every op keeps a copy of its own tokens.
struct Token {
  std::string_view text;
  int line = 0;
  int col = 0;
  Tok kind = Tok::End;
  bool firstOnLine = false;  // nothing but whitespace/comments before it on its line
};

struct LexError {
  int line = 0;
  int col = 0;
  std::string message;
};

// Tokenizes `text`. A lexical error (unterminated string, unbalanced <...> in a type, stray
// character) becomes a Tok::Error token carrying the message, so the parser can recover at the
// function level; the lexer resynchronizes at the next line. `errors` receives the same list
// (a deque, so the Error tokens' views into the messages stay valid as it grows).
std::vector<Token> tokenize(std::string_view text, std::deque<LexError>& errors);

}  // namespace ptov::mlir
