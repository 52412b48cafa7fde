#include "analyzer/mlir/lexer.h"
#include "analyzer/utf8.h"

#include <array>
#include <cctype>

namespace ptov::mlir {
namespace {

// ASCII classes by table (std::isalnum is a locale-aware call per character; the lexer asks
// for every byte of an identifier).
enum : unsigned char { kIdStart = 1, kIdChar = 2, kSuffixIdChar = 4, kAngleSpecial = 8 };
constexpr std::array<unsigned char, 256> kCharClass = [] {
  std::array<unsigned char, 256> t{};
  for (int c = 0; c < 256; ++c) {
    bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    bool digit = c >= '0' && c <= '9';
    if (alpha || c == '_') t[c] |= kIdStart;
    if (alpha || digit || c == '_' || c == '.' || c == '$') t[c] |= kIdChar | kSuffixIdChar;
    if (c == '-') t[c] |= kSuffixIdChar;
    if (c == '"' || c == '\n' || c == '-' || c == '<' || c == '>') t[c] |= kAngleSpecial;  // what consumeAngleBody looks at
  }
  return t;
}();
bool isIdStart(char c) { return kCharClass[static_cast<unsigned char>(c)] & kIdStart; }
bool isIdChar(char c) { return kCharClass[static_cast<unsigned char>(c)] & kIdChar; }
bool isSuffixIdChar(char c) { return kCharClass[static_cast<unsigned char>(c)] & kSuffixIdChar; }

// Builtin names whose `<...>` body belongs to the token (types and attributes).
bool takesAngleBody(std::string_view id) {
  static const char* const kNames[] = {"memref", "tensor", "vector", "complex", "tuple",
                                       "dense", "array", "affine_map", "affine_set",
                                       "strided", "opaque", "sparse", "dense_resource",
                                       "distinct"};
  for (const char* n : kNames)
    if (id == n) return true;
  return false;
}

class Lexer {
 public:
  Lexer(std::string_view text, std::deque<LexError>& errors) : src_(text), errors_(errors) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    out.reserve(src_.size() / 6 + 16);  // generated MLIR averages about a token per 6-8 bytes
    while (true) {
      skipSpaceAndComments(out);
      if (pos_ >= src_.size()) break;
      Token t;
      t.line = line_;
      t.col = col();
      t.firstOnLine = lineHasToken_ == false;
      size_t start = pos_;
      if (!lexOne(t)) {
        // Report it as a token at the error position, then skip the rest of the line.
        t.kind = Tok::Error;
        if (errors_.empty()) error("lexical error");
        t.text = errors_.back().message;
        t.line = errors_.back().line;
        t.col = errors_.back().col;
        lineHasToken_ = true;
        out.push_back(std::move(t));
        pos_ = lineEnd(pos_);
        continue;
      }
      t.text = src_.substr(start, pos_ - start);
      lineHasToken_ = true;
      out.push_back(std::move(t));
    }
    Token end;
    end.kind = Tok::End;
    end.line = line_;
    end.col = col();
    end.firstOnLine = true;
    out.push_back(end);
    return out;
  }

 private:
  int col() const { return static_cast<int>(pos_ - lineStart_) + 1; }
  char peek(size_t k = 0) const { return pos_ + k < src_.size() ? src_[pos_ + k] : '\0'; }

  // The position of the '\n' ending the line `from` is on (or the end): a comment line
  // (lit tests carry many CHECK lines) is skipped in one search, not byte by byte.
  size_t lineEnd(size_t from) const {
    size_t nl = src_.find('\n', from);
    return nl == std::string_view::npos ? src_.size() : nl;
  }

  void newline() {
    ++pos_;
    ++line_;
    lineStart_ = pos_;
    lineHasToken_ = false;
  }

  void skipSpaceAndComments(std::vector<Token>& out) {
    while (pos_ < src_.size()) {
      char c = src_[pos_];
      if (c == '\n') {
        newline();
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
        ++pos_;
      } else if (c == '/' && peek(1) == '/') {
        size_t start = pos_;
        pos_ = lineEnd(pos_);
        std::string_view comment = src_.substr(start, pos_ - start);
        if (!lineHasToken_ && isSplitMarker(comment)) {
          Token t;
          t.kind = Tok::Split;
          t.text = comment;
          t.line = line_;
          t.col = static_cast<int>(start - lineStart_) + 1;
          t.firstOnLine = true;
          out.push_back(t);
        }
      } else {
        break;
      }
    }
  }

  static bool isSplitMarker(std::string_view comment) {
    // "// -----" possibly followed by spaces.
    std::string_view rest = comment.substr(2);
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\r')) rest.remove_suffix(1);
    return rest == "-----";
  }

  void error(const std::string& msg) { errors_.push_back({line_, col(), msg}); }

  // Consumes a balanced <...> body starting at '<'. Strings and `->` are skipped over.
  bool consumeAngleBody() {
    int depth = 0;
    int startLine = line_;
    int startCol = col();
    while (pos_ < src_.size()) {
      char c = src_[pos_];
      if (!(kCharClass[static_cast<unsigned char>(c)] & kAngleSpecial)) {  // most of a type's text
        ++pos_;
        continue;
      }
      if (c == '"') {
        if (!consumeString()) return false;
        continue;
      }
      if (c == '\n') {
        newline();
        lineHasToken_ = true;
        continue;
      }
      if (c == '-' && peek(1) == '>') {
        pos_ += 2;
        continue;
      }
      if (c == '<') ++depth;
      if (c == '>') {
        --depth;
        if (depth == 0) {
          ++pos_;
          return true;
        }
      }
      ++pos_;
    }
    errors_.push_back({startLine, startCol, "unbalanced '<' in type or attribute"});
    return false;
  }

  bool consumeString() {
    int startLine = line_;
    int startCol = col();
    ++pos_;  // opening quote
    while (pos_ < src_.size()) {
      char c = src_[pos_];
      if (c == '\\') {
        pos_ += 2;
        continue;
      }
      if (c == '"') {
        ++pos_;
        return true;
      }
      if (c == '\n') break;
      ++pos_;
    }
    errors_.push_back({startLine, startCol, "unterminated string literal"});
    return false;
  }

  void consumeIdChars(bool allowDash) {
    while (pos_ < src_.size() && (allowDash ? isSuffixIdChar(src_[pos_]) : isIdChar(src_[pos_])))
      ++pos_;
  }

  bool lexOne(Token& t) {
    size_t start = pos_;
    char c = src_[pos_];
    switch (c) {
      case '%': {
        ++pos_;
        consumeIdChars(true);
        if (peek() == '#' && std::isdigit(static_cast<unsigned char>(peek(1)))) {
          ++pos_;
          while (std::isdigit(static_cast<unsigned char>(peek()))) ++pos_;
        }
        if (pos_ == start + 1) return fail("expected a value name after '%'");
        t.kind = Tok::ValueId;
        return true;
      }
      case '@': {
        ++pos_;
        if (peek() == '"') {
          if (!consumeString()) return false;
        } else {
          consumeIdChars(true);
        }
        if (pos_ == start + 1) return fail("expected a symbol name after '@'");
        t.kind = Tok::SymbolRef;
        return true;
      }
      case '^': {
        ++pos_;
        consumeIdChars(true);
        t.kind = Tok::BlockId;
        return true;
      }
      case '!':
      case '#': {
        ++pos_;
        consumeIdChars(false);
        if (pos_ == start + 1) return fail(std::string("expected a name after '") + c + "'");
        if (peek() == '<' && !consumeAngleBody()) return false;
        t.kind = c == '!' ? Tok::Type : Tok::Attr;
        return true;
      }
      case '"': {
        if (!consumeString()) return false;
        t.kind = Tok::String;
        return true;
      }
      case '-':
        if (peek(1) == '>') {
          pos_ += 2;
          t.kind = Tok::Punct;
          return true;
        }
        if (std::isdigit(static_cast<unsigned char>(peek(1)))) return lexNumber(t);
        ++pos_;
        t.kind = Tok::Punct;
        return true;
      default:
        break;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) return lexNumber(t);
    if (isIdStart(c)) {
      consumeIdChars(false);
      std::string_view id = src_.substr(start, pos_ - start);
      if (peek() == '<' && takesAngleBody(id)) {
        if (!consumeAngleBody()) return false;
        t.kind = (id == "dense" || id == "array" || id == "affine_map" || id == "affine_set" ||
                  id == "strided" || id == "sparse" || id == "dense_resource" || id == "distinct")
                     ? Tok::Attr
                     : Tok::Type;
        return true;
      }
      t.kind = Tok::BareId;
      return true;
    }
    static const std::string_view kPunct = "()[]{}<>,:=+*?|";
    if (kPunct.find(c) != std::string_view::npos) {
      ++pos_;
      t.kind = Tok::Punct;
      return true;
    }
    return fail("unexpected character " + describeCharacter(src_, pos_));
  }

  bool lexNumber(Token& t) {
    if (peek() == '-') ++pos_;
    if (peek() == '0' && (peek(1) == 'x' || peek(1) == 'X')) {
      pos_ += 2;
      while (std::isxdigit(static_cast<unsigned char>(peek()))) ++pos_;
      t.kind = Tok::Integer;
      return true;
    }
    bool isFloat = false;
    while (std::isdigit(static_cast<unsigned char>(peek()))) ++pos_;
    if (peek() == '.' && std::isdigit(static_cast<unsigned char>(peek(1)))) {
      isFloat = true;
      ++pos_;
      while (std::isdigit(static_cast<unsigned char>(peek()))) ++pos_;
    }
    if ((peek() == 'e' || peek() == 'E') &&
        (std::isdigit(static_cast<unsigned char>(peek(1))) ||
         ((peek(1) == '-' || peek(1) == '+') && std::isdigit(static_cast<unsigned char>(peek(2)))))) {
      isFloat = true;
      pos_ += 2;
      while (std::isdigit(static_cast<unsigned char>(peek()))) ++pos_;
    }
    t.kind = isFloat ? Tok::Float : Tok::Integer;
    return true;
  }

  bool fail(const std::string& msg) {
    error(msg);
    return false;
  }

  std::string_view src_;
  std::deque<LexError>& errors_;
  size_t pos_ = 0;
  size_t lineStart_ = 0;
  int line_ = 1;
  bool lineHasToken_ = false;
};

}  // namespace

std::vector<Token> tokenize(std::string_view text, std::deque<LexError>& errors) {
  return Lexer(text, errors).run();
}

}  // namespace ptov::mlir
