#include "analyzer/mlir/lift_context.h"

#include <map>

namespace ptov::mlir {

std::string angleBody(std::string_view text) {
  auto open = text.find('<');
  auto close = text.rfind('>');
  if (open == std::string_view::npos || close == std::string_view::npos || close <= open) return "";
  std::string_view body = text.substr(open + 1, close - open - 1);
  // #pto<atomic_type atomic_add> -> "atomic_add": keep the last word.
  auto sp = body.rfind(' ');
  return std::string(sp == std::string_view::npos ? body : body.substr(sp + 1));
}

std::string unquote(std::string_view s) {
  if (s.size() >= 2 && s.front() == '"') return std::string(s.substr(1, s.size() - 2));
  return std::string(s);
}

std::vector<std::string> typeTokens(const mlir::Op& op) {
  std::vector<std::string> out;
  for (const auto& t : op.tokens)
    if (t.kind == Tok::Type) out.emplace_back(t.text);
  return out;
}

std::vector<std::string> bracketList(const mlir::Op& op) {
  std::vector<std::string> out;
  const auto& tk = op.tokens;
  size_t k = 0;
  while (k < tk.size() && !(tk[k].kind == Tok::Punct && tk[k].text == "[")) ++k;
  if (k == tk.size()) return out;
  std::string curElem;
  for (++k; k < tk.size(); ++k) {
    const Token& t = tk[k];
    if (t.kind == Tok::Punct && (t.text == "]" || t.text == ",")) {
      out.push_back(curElem);
      curElem.clear();
      if (t.text == "]") break;
      continue;
    }
    if (t.kind == Tok::String)
      curElem = unquote(t.text);
    else if (t.kind == Tok::Attr)
      curElem = angleBody(t.text);
    else if (t.kind == Tok::BareId || t.kind == Tok::ValueId)
      curElem = t.text;
  }
  return out;
}

std::vector<std::string> groupOperands(const mlir::Op& op, const char* keyword) {
  std::vector<std::string> out;
  const auto& tk = op.tokens;
  for (size_t k = 0; k + 1 < tk.size(); ++k) {
    if (!(tk[k].kind == Tok::BareId && tk[k].text == keyword && tk[k + 1].text == "(")) continue;
    int depth = 0;
    for (size_t j = k + 1; j < tk.size(); ++j) {
      if (tk[j].kind == Tok::Punct && (tk[j].text == "(" || tk[j].text == "<" || tk[j].text == "[")) ++depth;
      if (tk[j].kind == Tok::Punct && (tk[j].text == ")" || tk[j].text == ">" || tk[j].text == "]")) --depth;
      if (depth == 1 && tk[j].kind == Tok::ValueId) out.emplace_back(tk[j].text);
      if (depth == 0) break;
    }
    break;
  }
  return out;
}

int elementBytes(const std::string& type) {
  static const std::map<std::string, int> m = {
      {"f64", 8}, {"i64", 8},      {"ui64", 8},   {"f32", 4},  {"i32", 4},   {"ui32", 4},
      {"f16", 2}, {"bf16", 2},     {"i16", 2},    {"ui16", 2}, {"i8", 1},    {"ui8", 1},
      {"i1", 1},  {"f8E4M3FN", 1}, {"f8E5M2", 1}, {"hif8", 1}, {"index", 8},
  };
  auto it = m.find(type);
  return it == m.end() ? 0 : it->second;
}

}  // namespace ptov::mlir
