#pragma once
// The C++ translator's rooms, private to analyzer/cpp/translate.cpp, each a layer over the one
// before: ModelState (this file: what the walk keeps, names, gaps) -> ValueEvaluator (values and
// memory origins, translate_values.h) -> WrapperFacts (ABI and launch facts, translate_facts.h)
// -> CallLowering (instructions and inlined calls, translate_calls.h) -> Translator (statements,
// translate.cpp).
#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/Stmt.h>
#include <clang/AST/StmtCXX.h>

#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <type_traits>

#include "analyzer/cpp/translate.h"
#include "analyzer/model/op_registry.h"

namespace ptov::cpp {

using namespace clang;


// The enumerator an argument names (PIPE_MTE2, EVENT_ID0, CACHELINE_OUT, ...), "" if none.
inline std::string enumeratorName(const clang::Expr* e) {
  if (!e) return "";
  e = e->IgnoreParenCasts();
  if (const auto* dr = dyn_cast<DeclRefExpr>(e))
    if (const auto* ec = dyn_cast<EnumConstantDecl>(dr->getDecl())) return ec->getNameAsString();
  return "";
}

// The enumerator a template argument names (SyncOpType::TSTORE_C2GM -> "TSTORE_C2GM"), its
// number for another integer, "" for a type.
inline std::string templateArgName(const TemplateArgument& a) {
  if (a.getKind() != TemplateArgument::Integral) return "";
  QualType t = a.getIntegralType();
  int64_t v = a.getAsIntegral().getExtValue();
  if (const auto* et = t->getAs<EnumType>())
    for (const EnumConstantDecl* ec : et->getDecl()->enumerators())
      if (ec->getInitVal().getExtValue() == v) return ec->getNameAsString();
  if (t->isBooleanType()) return v ? "true" : "false";
  return std::to_string(v);
}

inline const FieldDecl* fieldNamed(const RecordDecl* record, llvm::StringRef name) {
  for (const FieldDecl* f : record->fields())
    if (f->getName() == name) return f;
  return nullptr;
}

struct TileInfo {
  MemSpace space = MemSpace::UB;
  int64_t bytes = 0;
  int64_t rows = 0, cols = 0, elemBytes = 0;
  std::optional<int64_t> addr;  // the constant address of its last TASSIGN
};

// The name of a class (template) type: "Tile" for Tile<...>, also when it is still dependent.
inline std::string classNameOf(QualType t) {
  t = t.getNonReferenceType().getUnqualifiedType();
  if (const auto* rt = t->getAs<RecordType>()) return rt->getDecl()->getNameAsString();
  if (const auto* spec = t->getAs<TemplateSpecializationType>())
    if (const auto* td = spec->getTemplateName().getAsTemplateDecl()) return td->getNameAsString();
  return "";
}

inline bool isGlobalTensorType(QualType t) { return classNameOf(t) == "GlobalTensor"; }

// The five template dimensions of `pto::Shape<...>` / `pto::Stride<...>` named `name`, found in
// the record or its bases (TileShape2D derives from Shape), DYNAMIC (-1) included.
inline std::optional<std::array<int64_t, 5>> templateDims(QualType t, const std::string& name) {
  const CXXRecordDecl* rd = t.getNonReferenceType()->getAsCXXRecordDecl();
  for (int depth = 0; rd && depth < 4; ++depth) {
    if (const auto* spec = dyn_cast<ClassTemplateSpecializationDecl>(rd); spec && spec->getName() == name) {
      const TemplateArgumentList& args = spec->getTemplateArgs();
      if (args.size() != 5) return std::nullopt;
      std::array<int64_t, 5> dims{};
      for (unsigned i = 0; i < 5; ++i) {
        if (args[i].getKind() != TemplateArgument::Integral) return std::nullopt;
        dims[i] = args[i].getAsIntegral().getExtValue();
      }
      return dims;
    }
    if (!rd->hasDefinition() || rd->getNumBases() != 1) return std::nullopt;
    rd = rd->bases_begin()->getType()->getAsCXXRecordDecl();
  }
  return std::nullopt;
}

// The same, when none is DYNAMIC.
inline std::optional<std::array<int64_t, 5>> staticDims(QualType t, const std::string& name) {
  auto dims = templateDims(t, name);
  if (dims)
    for (int64_t d : *dims)
      if (d < 0) return std::nullopt;
  return dims;
}

// The bytes a GlobalTensor with static shape and strides spans, from its first element to its
// last (sum of (shape - 1) * stride, plus one, elements), and, for shape [1, 1, 1, R, C] with unit
// column stride, its rows: R of rowBytes, strideBytes apart (rows 0 otherwise); nullopt when not
// static.
struct GmBytes {
  int64_t span = 0;
  int64_t rows = 0, rowBytes = 0, strideBytes = 0;
};
inline std::optional<GmBytes> globalTensorBytes(QualType t) {
  const auto* spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(t.getNonReferenceType()->getAsCXXRecordDecl());
  if (!spec || spec->getName() != "GlobalTensor") return std::nullopt;
  const TemplateArgumentList& args = spec->getTemplateArgs();
  if (args.size() < 3 || args[0].getKind() != TemplateArgument::Type || args[1].getKind() != TemplateArgument::Type ||
      args[2].getKind() != TemplateArgument::Type)
    return std::nullopt;
  QualType elem = args[0].getAsType();
  if (elem->isIncompleteType() || elem->isDependentType()) return std::nullopt;
  auto shape = staticDims(args[1].getAsType(), "Shape");
  auto stride = staticDims(args[2].getAsType(), "Stride");
  if (!shape || !stride) return std::nullopt;
  int64_t last = 0;
  for (int i = 0; i < 5; ++i) {
    if ((*shape)[i] == 0) return std::nullopt;
    last += ((*shape)[i] - 1) * (*stride)[i];
  }
  const int64_t size = spec->getASTContext().getTypeSizeInChars(elem).getQuantity();
  GmBytes out;
  out.span = (last + 1) * size;
  if ((*shape)[0] == 1 && (*shape)[1] == 1 && (*shape)[2] == 1 && (*stride)[4] == 1)
    out.rows = (*shape)[3], out.rowBytes = (*shape)[4] * size, out.strideBytes = (*stride)[3] * size;
  return out;
}

// pto-isa's twin element types pack two 4-bit values in a byte, and a tile of them counts values
// in its columns (pto/cpu/MXTypes.hpp's IsTwinType, Tile::GetSizeInUnits): 2 for them, else 1.
inline int64_t valuesPerElement(const TemplateArgument& element) {
  if (element.getKind() != TemplateArgument::Type) return 1;
  const auto* rd = element.getAsType()->getAsRecordDecl();
  std::string name = rd ? rd->getName().str() : "";
  return name == "float4_e2m1x2_t" || name == "float4_e1m2x2_t" ? 2 : 1;
}

// Tile<TileType::Vec, float, R, C, ...>: its space and size from the template arguments.
inline std::optional<TileInfo> tileInfoOf(QualType t) {
  const std::string cls = classNameOf(t);
  if (cls != "Tile" && cls != "ConvTile") return std::nullopt;
  TileInfo info;
  const ClassTemplateSpecializationDecl* decl = nullptr;
  if (const auto* rt = t.getNonReferenceType()->getAs<RecordType>())
    decl = dyn_cast<ClassTemplateSpecializationDecl>(rt->getDecl());
  if (!decl) return info;
  const TemplateArgumentList& args = decl->getTemplateArgs();
  if (args.size() < 4) return info;
  using M = MemSpace;  // pto::TileType's order: Vec, Mat, Left, Right, Acc, Bias, Scaling, ...
  static const MemSpace spaces[] = {M::UB, M::L1, M::L0A, M::L0B, M::L0C, M::Bias, M::Scaling, M::L0A, M::L0B};
  if (args[0].getKind() == TemplateArgument::Integral) {
    int64_t v = args[0].getAsIntegral().getExtValue();
    if (v >= 0 && v < 9) info.space = spaces[v];
  }
  int64_t elem = 0;
  if (args[1].getKind() == TemplateArgument::Type) {
    QualType et = args[1].getAsType();  // the prelude's half / bfloat16_t are two bytes, as on the device
    if (!et->isIncompleteType() && !et->isDependentType())
      elem = static_cast<int64_t>(decl->getASTContext().getTypeSizeInChars(et).getQuantity());
  }
  // ConvTile<TileType, T, BufferSize, Layout, Shape>: a buffer of BufferSize bytes.
  if (cls == "ConvTile") {
    if (args[2].getKind() == TemplateArgument::Integral && elem > 0) {
      info.bytes = args[2].getAsIntegral().getExtValue();
      info.rows = 1;
      info.cols = info.bytes / elem;
      info.elemBytes = elem;
    }
    return info;
  }
  if (args[2].getKind() == TemplateArgument::Integral && args[3].getKind() == TemplateArgument::Integral) {
    info.rows = args[2].getAsIntegral().getExtValue();
    info.cols = args[3].getAsIntegral().getExtValue();
    info.elemBytes = elem;
    info.bytes = elem * info.rows * info.cols / valuesPerElement(args[1]);
    // A compact tile (CompactMode::Normal, the compact cube operands) stores only its valid
    // region, each edge padded to a whole fractal: the packed footprint, never more than the
    // declared shape (pto-isa's tests place a 128x256 f32 compact L0B tile with 22x215 valid).
    auto integral = [&](unsigned i) -> std::optional<int64_t> {
      if (args.size() <= i || args[i].getKind() != TemplateArgument::Integral) return std::nullopt;
      return args[i].getAsIntegral().getExtValue();
    };
    auto validRows = integral(5), validCols = integral(6), compact = integral(10);
    if (compact && *compact != 0 && validRows && validCols && *validRows > 0 && *validCols > 0 && elem > 0) {
      int64_t edge = std::max<int64_t>(16, 32 / elem);
      auto padded = [edge](int64_t n) { return (n + edge - 1) / edge * edge; };
      info.bytes = elem * std::min(info.rows, padded(*validRows)) * std::min(info.cols, padded(*validCols));
    }
  }
  return info;
}

// Where a pointer / tensor value points: a kernel parameter, args[i], or a named local.
struct Origin {
  MemRef ref;
  ExprPtr offset;  // elements from the base, when known
  ExprPtr bytes;   // bytes from the base, when known (whatever the pointer types on the way)
  bool known() const { return ref.valid(); }
};

// An integer that holds an address, relative to the address X a declaration holds: exactly
// X + c, at most X + c (aligned down), or at least X + c (aligned up). Enough to prove that a
// walk over the cache lines of a non-empty range runs at least once.
struct AddrBound {
  enum class Rel { Exact, AtMost, AtLeast } rel = Rel::Exact;
  const ValueDecl* base = nullptr;
  int64_t c = 0;
  int64_t aligned = 0;  // AtMost from an alignment mask: the value is a multiple of this
};

// The loop counter of a walk over cache lines and the bytes of its buffer the lines hold.
struct LineWalk {
  ExprPtr from, to;
  std::string loop;
};

// What the walk over one kernel root keeps: the kernel and facts it fills, the bindings of the
// inlined instance it is in, and the small helpers every layer uses.
class ModelState {
 public:
  ModelState(ASTContext& ctx, const FunctionDecl& root, Kernel& k, CppFacts& facts,
             std::vector<InputDiagnostic>& notes)
      : ctx_(ctx), root_(root), k_(k), facts_(facts), notes_(notes) {}
  virtual ~ModelState() = default;

 protected:
  ASTContext& ctx_;
  const FunctionDecl& root_;
  Kernel& k_;
  CppFacts& facts_;
  std::vector<InputDiagnostic>& notes_;
  const ParmVarDecl* argsParam_ = nullptr;
  std::set<const ValueDecl*> argsAliases_;
  std::map<const ValueDecl*, ExprPtr> values_;       // integer values of variables
  std::map<const ValueDecl*, Origin> origins_;       // pointers, tensors, tiles
  std::map<const ValueDecl*, TileInfo> tiles_;       // Tile variables
  std::map<const ValueDecl*, AddrBound> addrBounds_;  // integers holding an address
  std::map<const ValueDecl*, LineWalk> lineWalks_;     // counters of walks over cache lines
  // A struct parameter of an inlined call (by reference or by value): the caller's variable
  // whose object it is, followed through every level of inlining.
  std::map<const ValueDecl*, const VarDecl*> objects_;
  // Integer fields of a local aggregate, as its initialiser set them (`Config cfg = resolve(...)`),
  // or of a class object as its constructor set them (an Event's token).
  std::map<std::pair<const ValueDecl*, const FieldDecl*>, ExprPtr> fields_;
  // Class objects: the variable `this` stands for in each inlined member function and
  // constructor (null: not known), innermost last; and the caller's object each reference
  // parameter of class type is bound to.
  std::vector<const VarDecl*> thisObjects_;
  std::map<const ValueDecl*, const VarDecl*> refObjects_;
  // Function-static locals (pto-isa's EventIdCounter<Src, Dst>::NextId, one per instantiation):
  // one value for the whole kernel, kept when an inlined call returns.
  std::map<const VarDecl*, ExprPtr> statics_;
  // The value of each call of a helper that changes a static, per inlined instance: the helper
  // runs once however often its value is asked for.
  std::map<std::pair<const void*, int>, ExprPtr> statefulResults_;
  std::map<const FunctionDecl*, bool> changesStatics_;
  // The five dimensions of a Shape / Stride variable, the DYNAMIC ones from its constructor.
  std::map<const ValueDecl*, std::array<ExprPtr, 5>> dims_;
  // The bytes a GlobalTensor variable with run-time dimensions spans.
  std::map<const ValueDecl*, ExprPtr> gmSpans_;
  std::map<const ValueDecl*, ForwardedArg> provenance_;  // where a wrapper's locals come from
  std::set<const FunctionDecl*> stack_;              // functions being inlined (no recursion)
  std::set<const FunctionDecl*> reached_;            // every function inlined (patternOf)
  std::set<std::pair<std::string, int>> recovered_;  // lines of unresolved calls read (RecoveryExpr)
  std::vector<const FunctionDecl*> bodies_{&root_};   // the function each statement is in
  std::vector<SourceLoc> callSites_;                  // the calls being inlined, innermost last
  std::vector<SourceLoc> userSites_;  // per inlined call: the innermost call written in the user's code
  struct Placement {  // a TASSIGN at a constant UB address
    std::string body;
    const ValueDecl* tile;
    int64_t end;
    SourceLoc loc;
  };
  std::vector<Placement> placements_;
  std::set<const ValueDecl*> scratchTiles_;  // tiles used as a soft barrier's UB scratch
  int depth_ = 0;        // control nesting (loops / branches) in the root
  // Loops and non-constant switches around the statement: an assignment there leaves an unknown
  // value (an if's arms are merged instead: mergeArms).
  int unmergedDepth_ = 0;
  int inlineDepth_ = 0;  // 0 in the root
  std::vector<int> inlineBaseDepth_{0};  // depth_ where each inlined body starts
  std::map<std::string, int> names_;  // how often a local name was declared (inlined copies)
  const VarDecl* initializing_ = nullptr;  // the wrapper variable whose initialiser is translated
  bool leftFunction_ = false;  // a return on every path was translated: the rest is dead

  SourceLoc loc(SourceLocation l) { return locOf(ctx_, l); }

  // How deep `root` nests, memoized and computed without recursion: 20,000 chained `+`
  // overflowed the stack of every recursive walk over it (Clang's parser builds such chains
  // in a loop, so nothing before this front end stops them).
  std::map<const clang::Stmt*, int> astDepth_;
  int astDepth(const clang::Stmt* root) {
    if (auto it = astDepth_.find(root); it != astDepth_.end()) return it->second;
    std::vector<std::pair<const clang::Stmt*, bool>> todo{{root, false}};  // (node, children pushed)
    while (!todo.empty()) {
      auto [n, expanded] = todo.back();
      if (astDepth_.count(n)) {
        todo.pop_back();
        continue;
      }
      if (!expanded) {
        todo.back().second = true;
        for (const clang::Stmt* c : n->children())
          if (c && !astDepth_.count(c)) todo.emplace_back(c, false);
        continue;
      }
      todo.pop_back();
      int d = 0;
      for (const clang::Stmt* c : n->children())
        if (c) d = std::max(d, astDepth_[c]);
      astDepth_[n] = d + 1;
    }
    return astDepth_[root];
  }
  // A statement or expression deeper than kMaxAstDepth is not walked: a gap (once per place).
  static constexpr int kMaxAstDepth = 1000;
  std::set<const clang::Stmt*> tooDeepReported_;
  bool tooDeep(const clang::Stmt* s) {
    if (astDepth(s) <= kMaxAstDepth) return false;
    if (tooDeepReported_.insert(s).second)
      gap(ModelGap::Kind::SkippedCode, s->getBeginLoc(),
          std::string(isa<clang::Expr>(s) ? "an expression" : "a statement") + " nested more than " +
              std::to_string(kMaxAstDepth) + " deep");
    return true;
  }

  // A local's name, made unique when an inlined function declares it again ("i", "i#2").
  std::string uniqueName(const std::string& n) {
    int count = ++names_[n];
    return count == 1 ? n : n + "#" + std::to_string(count);
  }
  // An opaque value (a call the model cannot see into, a variable of unknown value): one symbol
  // per evaluation, keyed by the AST node or declaration and the inlined instance it is in, never
  // by its spelling. The spelling is for messages.
  std::map<std::pair<const void*, int>, ExprPtr> opaque_;
  // 0/1 flags a counted loop's body changes (translate.cpp, CarriedFlag), while the body is
  // translated: the unmergedDepth_ of that loop, where their assignments are followed in order.
  struct CarriedFlag {
    const ValueDecl* var;
    ExprPtr marker, before;         // its value at the top of an iteration / before the loop
    std::optional<int> outerDepth;  // its flagDepth_ in an enclosing loop
  };
  std::map<const ValueDecl*, int> flagDepth_;
  std::map<const Expr*, ExprPtr> binary_;  // values known to be 0 or 1: flag markers and counts
  int fallThroughs_ = 0;  // returns modelled as falling through, so far
  bool isBinary(const ExprPtr& v) const {
    auto c = evalConst(v);
    return c ? (*c == 0 || *c == 1) : v && binary_.count(v.get()) > 0;
  }
  int instance_ = 0, instances_ = 0;
  ExprPtr opaque(const void* key, const std::string& shown) {
    auto [it, fresh] = opaque_.try_emplace({key, instance_});
    if (fresh) it->second = Expr::unknown(uniqueName(shown));
    return it->second;
  }
  std::string text(const clang::Expr* e) {
    std::string s = sourceText(ctx_, e->getSourceRange());
    return s.empty() ? "<expr>" : s;
  }
  void note(SourceLocation l, const std::string& msg) {
    notes_.push_back({InputDiagnostic::Level::Note, loc(l), msg});
  }

  std::optional<int64_t> constant(const clang::Expr* e) { return evalInt(ctx_, e); }

  const ValueDecl* declOf(const clang::Expr* e) {
    e = e->IgnoreParenCasts();
    if (const auto* dr = dyn_cast<DeclRefExpr>(e)) return dr->getDecl();
    return nullptr;
  }

  static std::vector<const clang::Stmt*> statementsOf(const clang::Stmt* s) {
    if (!s) return {};
    if (const auto* cs = dyn_cast<CompoundStmt>(s)) return {cs->body_begin(), cs->body_end()};
    return {s};
  }

  // The wrapper's `args`, or a helper's parameter bound to it (tensor_data(args, i)).
  bool isArgs(const clang::Expr* e) {
    const ValueDecl* d = declOf(e);
    return d && (d == argsParam_ || argsAliases_.count(d));
  }

  void gap(ModelGap::Kind kind, SourceLocation l, const std::string& what) {
    k_.gaps.push_back(ModelGap{kind, loc(l), what});
  }

  bool isUserFunction(const FunctionDecl* fd) {
    SourceLocation l = fd->getDefinition() ? fd->getDefinition()->getLocation() : fd->getLocation();
    return inUserCode(ctx_.getSourceManager(), l);
  }

  // A function of pto-isa's real headers with its body (a helper such as PtoSetWaitFlag, an
  // Event's Wait / Record, TSYNC over events): inlined like the user's code, down to the
  // instructions and intrinsics the op table knows. The prelude's stand-ins have no real body.
  bool isLibraryFunction(const FunctionDecl* fd) {
    const FunctionDecl* def = fd->getDefinition();
    return def && def->hasBody() && isLibraryDeclaration(def);
  }

  // A pto:: function declared in pto-isa's real headers (not the prelude's stand-ins), with a
  // body here or not (an instantiation that did not compile for this arch, a host-side mock).
  bool isLibraryDeclaration(const FunctionDecl* fd) {
    const SourceManager& sm = ctx_.getSourceManager();
    SourceLocation l = sm.getExpansionLoc(fd->getLocation());
    if (!sm.isInSystemHeader(l)) return false;
    std::string file = sm.getFilename(l).str();
    if (file.find("/prelude/") != std::string::npos) return false;
    return fd->getQualifiedNameAsString().rfind("pto::", 0) == 0;
  }
};

}  // namespace ptov::cpp
