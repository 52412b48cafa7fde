#include "analyzer/model/isa_table.h"

#include <cctype>
#include <map>

namespace ptov::ptoisa {

namespace {
using P = Pipe;
using R = PipeRule;

// Pipes from the reference notes' op -> pipe table (PTOAS mapSyncOpTypeToPipe, HIVM GetPipe).
const std::map<std::string, Instr>& table() {
  static const std::map<std::string, Instr> t = [] {
    std::map<std::string, Instr> m;
    auto add = [&](Instr in) { m.emplace(in.name, in); };
    add({"TLOAD", OpKind::Load, R::Fixed, {P::MTE2}});
    add({"TPREFETCH", OpKind::Prefetch, R::Fixed, {P::MTE2}});
    add({"TSTORE", OpKind::Store, R::Store, {P::MTE3}, 0, true});
    add({"TSTORE_FP", OpKind::Store, R::Fixed, {P::FIX}, 0, true});
    // Moves between spaces: L1 -> L0A/L0B/bias on MTE1, L0C -> anywhere on FIX, UB -> UB on V.
    for (const char* n : {"TMOV", "TEXTRACT", "TINSERT"}) add({n, OpKind::Compute, R::Move, {P::V}});
    // Cube: the matrix unit.
    for (const char* n : {"TMATMUL", "TMATMUL_ACC", "TMATMUL_BIAS", "TMATMUL_MX", "TGEMV", "TGEMV_ACC",
                          "TGEMV_BIAS"})
      add({n, OpKind::Compute, R::Fixed, {P::M}});
    // Vector computations: first operand written, the other tiles read.
    for (const char* n :
         {"TADD",      "TSUB",      "TMUL",         "TDIV",          "TMAX",          "TMIN",
          "TADDS",     "TSUBS",     "TMULS",        "TDIVS",         "TMAXS",         "TMINS",
          "TEXP",      "TLOG",      "TSQRT",        "TRSQRT",        "TRECIP",        "TABS",
          "TNEG",      "TRELU",     "TPRELU",       "TLRELU",        "TREM",          "TREMS",
          "TAND",      "TOR",       "TXOR",         "TNOT",          "TANDS",         "TORS",
          "TXORS",     "TSHL",      "TSHR",         "TCVT",          "TCMP",          "TCMPS",
          "TSEL",      "TSELS",     "TEXPANDS",     "TROWSUM",       "TROWMAX",       "TROWMIN",
          "TCOLSUM",   "TCOLMAX",   "TCOLMIN",      "TROWEXPAND",    "TCOLEXPAND",    "TROWEXPANDMUL",
          "TROWEXPANDDIV", "TROWEXPANDSUB", "TROWEXPANDADD", "TCOLEXPANDMUL", "TCOLEXPANDDIV",
          "TCOLEXPANDSUB", "TCOLEXPANDADD", "TTRANS", "TCONCAT", "TFILLPAD", "TSORT32", "TMRGSORT",
          "TCI",       "TGATHERB",  "TSCATTERB",    "TPARTADD",      "TPARTMAX",      "TPARTMIN"})
      add({n, OpKind::Compute, R::Fixed, {P::V}});
    return m;
  }();
  return t;
}

std::string mnemonic(const std::string& name) {
  std::string n = name.rfind("pto.", 0) == 0 ? name.substr(4) : name;
  for (char& c : n) c = c == '.' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return n;
}
}  // namespace

const Instr* lookup(const std::string& name) {
  auto it = table().find(mnemonic(name));
  return it == table().end() ? nullptr : &it->second;
}

std::vector<std::string> mnemonics() {
  std::vector<std::string> out;
  for (const auto& [name, in] : table()) out.push_back(name);
  return out;
}

bool looksLikeTileOp(const std::string& n) {
  if (n.size() < 2 || n[0] != 'T') return false;
  for (char c : n)
    if (!(std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_'))
      return false;
  return true;
}

const Instr& unknownTileOp() {
  static const Instr in{"?", OpKind::Compute, R::Fixed, {P::V}};
  return in;
}

std::vector<Pipe> pipesFor(const Instr& in, const std::string& src, const std::string& dst) {
  switch (in.rule) {
    case R::Fixed: return in.pipes;
    case R::Store: return {src == "l0c" ? P::FIX : P::MTE3};
    case R::Move:
      if (src == "l0c") return {P::FIX};
      if (src == "l1" && (dst == "l0a" || dst == "l0b" || dst == "bias" || dst == "scaling")) return {P::MTE1};
      if (src == "gm") return {P::MTE2};
      if (src == "ub" && dst == "l1") return {P::MTE3};
      if (src == "ub" && dst == "gm") return {P::MTE3};
      return in.pipes;
  }
  return in.pipes;
}

}  // namespace ptov::ptoisa
