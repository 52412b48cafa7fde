#include "analyzer/mlir/parser.h"

#include "analyzer/numbers.h"

#include <cctype>
#include <stdexcept>

namespace ptov::mlir {

constexpr int64_t kMaxResultPack = 4096;  // `%r:N = ...`

bool Op::hasWord(const std::string& bareWord) const {
  for (const Token& t : tokens)
    if (t.kind == Tok::BareId && t.text == bareWord) return true;
  return false;
}

std::string Op::attr(const std::string& key) const {
  auto it = attrs.find(key);
  if (it != attrs.end()) return it->second;
  auto kw = keywords.find(key);
  return kw != keywords.end() ? kw->second : std::string();
}

bool ParsedFile::hasErrors() const {
  for (const auto& d : diagnostics)
    if (d.level == InputDiagnostic::Level::Error) return true;
  return false;
}

namespace {

struct ParseError : std::runtime_error {
  ParseError(const Token& at, std::string_view msg) : std::runtime_error(std::string(msg)), tok(at) {}
  Token tok;
};

bool isOpen(const Token& t) {
  if (t.kind != Tok::Punct || t.text.size() != 1) return false;
  char c = t.text[0];
  return c == '(' || c == '[' || c == '<' || c == '{';
}
bool isClose(const Token& t) {
  if (t.kind != Tok::Punct || t.text.size() != 1) return false;
  char c = t.text[0];
  return c == ')' || c == ']' || c == '>' || c == '}';
}
bool isPunct(const Token& t, std::string_view p) { return t.kind == Tok::Punct && t.text == p; }
// i1, i32, si8, ui64, f16, f32, bf16, index, none (builtin scalar types spelled as bare words).
bool isBuiltinScalarType(std::string_view w) {
  if (w == "index" || w == "bf16" || w == "none" || w == "tf32") return true;
  size_t digits = w.rfind("si", 0) == 0 || w.rfind("ui", 0) == 0 ? 2 : (w[0] == 'i' || w[0] == 'f') ? 1 : 0;
  if (digits == 0 || w.size() == digits) return false;
  for (size_t k = digits; k < w.size(); ++k)
    if (!std::isdigit(static_cast<unsigned char>(w[k]))) return false;
  return true;
}

char closerFor(std::string_view open) {
  return open == "(" ? ')' : open == "[" ? ']' : open == "<" ? '>' : '}';
}

class Parser {
 public:
  Parser(std::vector<Token> toks, std::string path, std::vector<InputDiagnostic>& diags)
      : t_(std::move(toks)), path_(std::move(path)), diags_(diags) {}

  std::vector<Split> run() {
    std::vector<Split> splits(1);
    while (cur().kind != Tok::End) {
      if (cur().kind == Tok::Split) {
        ++i_;
        splits.emplace_back();
        continue;
      }
      parseOpsWithRecovery(splits.back().ops, /*inRegion=*/false);
    }
    return splits;
  }

 private:
  const Token& cur() const { return t_[i_]; }
  const Token& at(size_t k) const { return t_[std::min(i_ + k, t_.size() - 1)]; }

  SourceLoc loc(const Token& t) const { return SourceLoc{path_, t.line, t.col}; }

  void report(const Token& t, const std::string& msg) {
    diags_.push_back({InputDiagnostic::Level::Error, loc(t), msg});
  }

  // Parses ops into `out` until '}' (inRegion), a split, or the end. A syntax error in one op
  // is reported, then parsing resumes at the next `func.func` or split.
  void parseOpsWithRecovery(std::vector<Op>& out, bool inRegion) {
    while (true) {
      const Token& t = cur();
      if (t.kind == Tok::End || t.kind == Tok::Split) return;
      if (inRegion && isPunct(t, "}")) return;
      if (!inRegion && isPunct(t, "}")) {
        report(t, "unexpected '}' at top level");
        ++i_;
        continue;
      }
      if (atAliasDefinition()) {
        skipAliasDefinition();
        continue;
      }
      size_t before = i_;
      try {
        out.push_back(parseOp());
      } catch (const ParseError& e) {
        report(e.tok, e.what());
        skipToNextFunction(before);
      }
    }
  }

  void skipToNextFunction(size_t errorStart) {
    if (i_ <= errorStart) i_ = errorStart + 1;
    while (cur().kind != Tok::End && cur().kind != Tok::Split) {
      if (cur().kind == Tok::BareId && cur().text == "func.func" && cur().firstOnLine) return;
      ++i_;
    }
  }

  // `#map = affine_map<...>`, `!t = !pto.ptr<f32>`, `#loc = loc(...)`: alias definitions carry
  // no ops; they are skipped up to the next statement.
  bool atAliasDefinition() const {
    return (cur().kind == Tok::Attr || cur().kind == Tok::Type) && isPunct(at(1), "=");
  }
  void skipAliasDefinition() {
    i_ += 2;
    int depth = 0;
    while (cur().kind != Tok::End && cur().kind != Tok::Split) {
      if (depth == 0 && cur().firstOnLine && (startsStatement(i_) || isPunct(cur(), "}"))) return;
      if (isOpen(cur())) ++depth;
      if (isClose(cur()) && depth > 0) --depth;
      ++i_;
    }
  }

  // Does a statement start at token index k (which begins a line)?
  bool startsStatement(size_t k) const {
    const Token& t = t_[k];
    switch (t.kind) {
      case Tok::BlockId:
        return true;
      case Tok::Attr:
      case Tok::Type:
        return isPunct(t_[std::min(k + 1, t_.size() - 1)], "=");
      case Tok::String:
        return isPunct(t_[std::min(k + 1, t_.size() - 1)], "(");
      case Tok::BareId: {
        const Token& next = t_[std::min(k + 1, t_.size() - 1)];
        if (isPunct(next, "=")) return false;
        return t.text.find('.') != std::string::npos || t.text == "return" || t.text == "module";
      }
      case Tok::ValueId: {
        // %a = ..., %a:2 = ..., %a, %b = ...
        size_t j = k + 1;
        while (j < t_.size()) {
          const Token& n = t_[j];
          if (isPunct(n, "=")) return true;
          if (n.kind == Tok::ValueId || isPunct(n, ",") || isPunct(n, ":") || n.kind == Tok::Integer) {
            if (n.line != t.line) return false;
            ++j;
            continue;
          }
          return false;
        }
        return false;
      }
      default:
        return false;
    }
  }

  Op parseOp() {
    Op op;
    op.tokens.reserve(32);  // most ops have fewer: one allocation instead of six doublings
    const Token& first = cur();
    if (first.kind == Tok::Error) throw ParseError(first, first.text);
    op.loc = loc(first);
    if (first.kind == Tok::ValueId) parseResults(op);
    const Token& nameTok = cur();
    if (nameTok.kind == Tok::Error) throw ParseError(nameTok, nameTok.text);
    bool generic = false;
    if (nameTok.kind == Tok::String) {
      generic = true;
      op.name = nameTok.text.substr(1, nameTok.text.size() - 2);
    } else if (nameTok.kind == Tok::BareId) {
      op.name = nameTok.text;
    } else {
      throw ParseError(nameTok, "expected an operation name, found '" + std::string(nameTok.text) + "'");
    }
    if (first.kind != Tok::ValueId) op.loc = loc(nameTok);
    ++i_;
    parseOpBody(op, generic);
    deriveFacts(op);
    return op;
  }

  void parseResults(Op& op) {
    while (true) {
      const Token& v = cur();
      if (v.kind != Tok::ValueId) throw ParseError(v, "expected a result name");
      ++i_;
      if (isPunct(cur(), ":") && at(1).kind == Tok::Integer) {
        // A result pack larger than any real op is bad input, not a reason to allocate gigabytes.
        auto n = parseInt(at(1).text);
        if (!n || *n < 1 || *n > kMaxResultPack)
          throw ParseError(at(1), "result count '" + std::string(at(1).text) + "' is out of range");
        for (int64_t r = 0; r < *n; ++r) op.results.push_back(std::string(v.text) + "#" + std::to_string(r));
        i_ += 2;
      } else {
        op.results.emplace_back(v.text);
      }
      if (isPunct(cur(), ",")) {
        ++i_;
        continue;
      }
      if (!isPunct(cur(), "=")) throw ParseError(cur(), "expected '=' after result names");
      ++i_;
      return;
    }
  }

  // Is the '{' at token index k an attribute dictionary (rather than a region)?
  bool braceIsAttrDict(size_t k) const {
    if (k > 0 && t_[k - 1].kind == Tok::BareId && t_[k - 1].text == "attributes") return true;
    const Token& open = t_[k];
    const Token& next = t_[std::min(k + 1, t_.size() - 1)];
    const Token& after = t_[std::min(k + 2, t_.size() - 1)];
    // On its own line, `name = ...` or `unit_attr,` is an entry (an op cannot start so: results
    // are %values), while `return }` or a lone op name is a region's body.
    if (next.line != open.line)
      return (next.kind == Tok::BareId || next.kind == Tok::String) && (isPunct(after, "=") || isPunct(after, ","));
    if (isPunct(next, "}")) return true;
    if (next.kind == Tok::BareId || next.kind == Tok::String)
      return isPunct(after, "=") || isPunct(after, ",") || isPunct(after, "}");
    return false;
  }

  void parseOpBody(Op& op, bool generic) {
    struct Open {
      Token tok;
    };
    std::vector<Open> stack;
    while (true) {
      const Token& t = cur();
      if (t.kind == Tok::Error) throw ParseError(t, t.text);
      if (t.kind == Tok::End || t.kind == Tok::Split) {
        if (!stack.empty())
          throw ParseError(stack.back().tok, "unclosed '" + std::string(stack.back().tok.text) + "'");
        return;
      }
      if (stack.empty()) {
        if (isPunct(t, "}")) return;  // closes the enclosing region
        if (t.firstOnLine && startsStatement(i_)) return;
        if (isPunct(t, "{")) {
          if (braceIsAttrDict(i_)) {
            parseAttrDict(op);
          } else {
            // A module body recovers per function, so one bad function does not hide the rest.
            bool isModule = op.name == "module" || op.name == "builtin.module";
            op.regions.push_back(parseRegion(isModule));
          }
          continue;
        }
        if (generic && isPunct(t, "(") && isPunct(at(1), "{") && !braceIsAttrDict(i_ + 1)) {
          ++i_;
          while (isPunct(cur(), "{")) {
            op.regions.push_back(parseRegion());
            if (isPunct(cur(), ",")) ++i_;
          }
          if (!isPunct(cur(), ")")) throw ParseError(cur(), "expected ')' after region list");
          ++i_;
          continue;
        }
      } else if (t.firstOnLine && (t.kind == Tok::BareId && t.text == "func.func")) {
        throw ParseError(stack.back().tok, "unclosed '" + std::string(stack.back().tok.text) + "'");
      }
      if (isOpen(t)) {
        stack.push_back({t});
      } else if (isClose(t)) {
        if (stack.empty())
          throw ParseError(t, "unexpected '" + std::string(t.text) + "'");
        if (t.text[0] != closerFor(stack.back().tok.text))
          throw ParseError(t, "expected '" + std::string(1, closerFor(stack.back().tok.text)) +
                                  "' to close '" + std::string(stack.back().tok.text) + "' at line " +
                                  std::to_string(stack.back().tok.line) + ", found '" + std::string(t.text) + "'");
        stack.pop_back();
      }
      op.tokens.push_back(t);
      ++i_;
    }
  }

  void parseAttrDict(Op& op) {
    // cur() == '{'
    op.tokens.push_back(cur());
    ++i_;
    int depth = 0;
    std::string key, value;
    bool inValue = false;
    auto flush = [&] {
      if (!key.empty()) op.attrs[key] = inValue ? value : std::string("unit");
      key.clear();
      value.clear();
      inValue = false;
    };
    while (true) {
      const Token& t = cur();
      if (t.kind == Tok::Error) throw ParseError(t, t.text);
      if (t.kind == Tok::End || t.kind == Tok::Split)
        throw ParseError(t, "unterminated attribute dictionary");
      op.tokens.push_back(t);
      ++i_;
      if (depth == 0 && isPunct(t, "}")) {
        flush();
        return;
      }
      if (depth == 0 && isPunct(t, ",")) {
        flush();
        continue;
      }
      if (depth == 0 && !inValue && isPunct(t, "=")) {
        inValue = true;
        continue;
      }
      if (isOpen(t)) ++depth;
      if (isClose(t)) --depth;
      if (depth < 0) throw ParseError(t, "unbalanced '" + std::string(t.text) + "' in attribute dictionary");
      if (!inValue) {
        key = t.kind == Tok::String ? t.text.substr(1, t.text.size() - 2) : t.text;
      } else {
        if (!value.empty()) value += ' ';
        value += t.text;
      }
    }
  }

  Region parseRegion(bool recoverPerOp = false) {
    // cur() == '{'
    Token open = cur();
    if (regionDepth_ >= kMaxRegionDepth)
      throw ParseError(open, "regions nested more than " + std::to_string(kMaxRegionDepth) + " deep");
    struct DepthGuard {
      int& d;
      explicit DepthGuard(int& depth) : d(depth) { ++d; }
      ~DepthGuard() { --d; }
    } guard(regionDepth_);
    ++i_;
    Region region;
    region.blocks.emplace_back();
    while (true) {
      const Token& t = cur();
      if (t.kind == Tok::End || t.kind == Tok::Split) {
        if (recoverPerOp && !diags_.empty()) return region;  // already reported; keep what parsed
        throw ParseError(open, "region opened here is never closed with '}'");
      }
      if (isPunct(t, "}")) {
        ++i_;
        if (region.blocks.front().label.empty() && region.blocks.front().ops.empty() &&
            region.blocks.size() > 1)
          region.blocks.erase(region.blocks.begin());
        return region;
      }
      if (t.kind == Tok::BlockId) {
        region.blocks.push_back(parseBlockHeader());
        continue;
      }
      if (atAliasDefinition()) {
        skipAliasDefinition();
        continue;
      }
      size_t before = i_;
      if (!recoverPerOp) {
        region.blocks.back().ops.push_back(parseOp());
        continue;
      }
      try {
        region.blocks.back().ops.push_back(parseOp());
      } catch (const ParseError& e) {
        report(e.tok, e.what());
        skipToNextFunction(before);
      }
    }
  }

  Block parseBlockHeader() {
    Block b;
    b.label = cur().text;
    ++i_;
    if (isPunct(cur(), "(")) {
      ++i_;
      while (!isPunct(cur(), ")")) {
        if (cur().kind != Tok::ValueId) throw ParseError(cur(), "expected a block argument");
        BlockArg a;
        a.name = cur().text;
        ++i_;
        if (!isPunct(cur(), ":")) throw ParseError(cur(), "expected ':' after block argument");
        ++i_;
        a.type = collectUntilArgEnd();
        b.args.push_back(a);
        if (isPunct(cur(), ",")) ++i_;
      }
      ++i_;
    }
    if (!isPunct(cur(), ":")) throw ParseError(cur(), "expected ':' after block label");
    ++i_;
    return b;
  }

  std::string collectUntilArgEnd() {
    std::string text;
    int depth = 0;
    while (cur().kind != Tok::End) {
      const Token& t = cur();
      if (t.kind == Tok::Error) throw ParseError(t, t.text);
      if (depth == 0 && (isPunct(t, ",") || isPunct(t, ")") || isPunct(t, "{"))) break;
      if (isOpen(t)) ++depth;
      if (isClose(t)) --depth;
      text += t.text;
      ++i_;
    }
    return text;
  }

  void deriveFacts(Op& op) {
    const auto& tk = op.tokens;
    size_t values = 0, types = 0;  // sized once: growing them was a per cent of a .pto run
    for (const Token& t : tk) {
      values += t.kind == Tok::ValueId;
      types += t.kind == Tok::Type;
    }
    op.operands.reserve(values);
    op.types.reserve(types);
    for (size_t k = 0; k < tk.size(); ++k) {
      const Token& t = tk[k];
      if (t.kind == Tok::ValueId) op.operands.emplace_back(t.text);
      if (t.kind == Tok::Type || (t.kind == Tok::BareId && isBuiltinScalarType(t.text))) op.types.push_back(t.text);
      if (t.kind == Tok::BlockId) op.successors.emplace_back(t.text);
      if (t.kind == Tok::SymbolRef && op.symbol.empty()) op.symbol = t.text.substr(1);
      if (t.kind == Tok::BareId && k + 2 < tk.size() && isPunct(tk[k + 1], "=")) {
        op.keywords[std::string(t.text)] = groupText(tk, k + 2);
      }
    }
    if (op.name == "func.func") deriveFunctionArgs(op);
  }

  static std::string groupText(const std::vector<Token>& tk, size_t k) {
    if (!isOpen(tk[k])) return std::string(tk[k].text);
    std::string text;
    int depth = 0;
    for (size_t j = k; j < tk.size(); ++j) {
      if (isOpen(tk[j])) ++depth;
      if (isClose(tk[j])) --depth;
      if (!text.empty()) text += ' ';
      text += tk[j].text;
      if (depth == 0) break;
    }
    return text;
  }

  static void deriveFunctionArgs(Op& op) {
    const auto& tk = op.tokens;
    size_t k = 0;
    while (k < tk.size() && tk[k].kind != Tok::SymbolRef) ++k;
    if (k + 1 >= tk.size() || !isPunct(tk[k + 1], "(")) return;
    k += 2;
    int depth = 0;
    BlockArg arg;
    bool inType = false;
    for (; k < tk.size(); ++k) {
      const Token& t = tk[k];
      if (depth == 0 && (isPunct(t, ",") || isPunct(t, ")"))) {
        if (!arg.name.empty()) op.entryArgs.push_back(arg);
        arg = BlockArg();
        inType = false;
        if (isPunct(t, ")")) break;
        continue;
      }
      if (depth == 0 && isPunct(t, "{")) inType = false;  // argument attributes
      if (isOpen(t)) ++depth;
      if (isClose(t)) --depth;
      if (depth == 0 && t.kind == Tok::ValueId && arg.name.empty()) {
        arg.name = t.text;
      } else if (depth == 0 && isPunct(t, ":") && !arg.name.empty() && arg.type.empty()) {
        inType = true;
      } else if (inType && depth >= 0) {
        arg.type += t.text;
      }
    }
    // The operands of a func.func are its own arguments; they are not uses.
    op.operands.clear();
  }

  static constexpr int kMaxRegionDepth = 200;  // bounds recursion on hostile input
  std::vector<Token> t_;
  size_t i_ = 0;
  int regionDepth_ = 0;
  std::string path_;
  std::vector<InputDiagnostic>& diags_;
};

}  // namespace

ParsedFile parseText(std::string_view text, const std::string& path) {
  ParsedFile file;
  file.path = path;
  auto source = std::make_shared<SourceText>();
  source->text = std::string(text);
  std::vector<Token> toks = tokenize(source->text, source->lexErrors);
  file.source = source;
  Parser p(std::move(toks), path, file.diagnostics);
  file.splits = p.run();
  return file;
}

}  // namespace ptov::mlir
