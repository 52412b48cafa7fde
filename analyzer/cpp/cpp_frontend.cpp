#include "analyzer/cpp/cpp_frontend.h"

#include "analyzer/numbers.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/ASTMatchers/ASTMatchFinder.h>
#include <clang/ASTMatchers/ASTMatchers.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/Stack.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Index/USRGeneration.h>
#include <clang/Lex/Lexer.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/CrashRecoveryContext.h>
#include <llvm/Support/MemoryBuffer.h>

#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>

#include "analyzer/cpp/machine.h"
#include "analyzer/cpp/orchestration.h"
#include "analyzer/cpp/translate.h"
#include "analyzer/model/op_registry.h"

#ifndef PTOVERIFY_SOURCE_PRELUDE
#define PTOVERIFY_SOURCE_PRELUDE ""
#endif
#ifndef PTOVERIFY_CLANG_RESOURCE_DIR
#define PTOVERIFY_CLANG_RESOURCE_DIR ""
#endif

namespace ptov::cpp {

namespace fs = std::filesystem;
using namespace clang;
using namespace clang::ast_matchers;

// PTOVERIFY_PRELUDE, else share/ptoverify/prelude beside the installed (or copied) bin/, else,
// for a binary still in its build tree, the source tree's. An installed tool never reads the
// tree it was built from: that tree may be gone, or hold another version.
std::string preludeDir() {
  if (const char* env = std::getenv("PTOVERIFY_PRELUDE")) return env;
  std::string exeDir = executableDir();
  fs::path installed = fs::path(exeDir).parent_path() / "share" / "ptoverify" / "prelude";
  if (fs::exists(installed / "ptoverify_prelude.h")) return installed.string();
  std::string buildDir = PTOVERIFY_BUILD_DIR;
  if (exeDir == buildDir || exeDir.rfind(buildDir + "/", 0) == 0) return PTOVERIFY_SOURCE_PRELUDE;
  return "";
}

namespace {

// The synchronisation calls whose coverage is counted (SyncCoverage): set_flag, wait_flag and
// pipe_barrier, in every spelling the PTO-ISA table gives them.
bool isCountedSync(OpKind k) { return k == OpKind::SetFlag || k == OpKind::WaitFlag || k == OpKind::PipeBarrier; }

// The stack of the thread each file is parsed on (see `parse` in load): Clang's own size for a
// compilation (clang::DesiredStackSize).
constexpr unsigned kParseStackBytes = 8u << 20;
// Clang's parser recurses once per nested statement, as deep as the input nests (10,000 chained
// `else if` overflow clang++ itself). When less than this is left of the parse thread's stack,
// lexing is cut off: the rest of the file reads as its end and an error says where.
constexpr size_t kParseStackReserve = size_t{2} << 20;

// Where the parse's stack begins: the frame of the action that starts it, on its thread (null on
// any other thread, such as one Clang's Sema starts to grow its stack, where nothing is measured).
thread_local const char* parseStackBottom = nullptr;

size_t parseStackUsed() {
  const char* here = static_cast<const char*>(__builtin_frame_address(0));
  return parseStackBottom && here < parseStackBottom ? static_cast<size_t>(parseStackBottom - here) : 0;
}

// Watches each token the parser takes; once the stack is nearly used up, every file lexer still
// open is cut off in turn (an included header first, then its includer), and one error is
// reported. Inside a macro's expansion, which cannot be cut, an end-of-file token is put
// before the rest: the parser unwinds on it as at the end of the file.
void guardParseStack(Preprocessor& pp) {
  clang::noteBottomOfStack();  // Sema's own guard grows its stack on new threads from here
  parseStackBottom = static_cast<const char*>(__builtin_frame_address(0));
  struct State {
    bool cut = false;
    int endsEntered = 0;
  };
  auto state = std::make_shared<State>();
  pp.setTokenWatcher([&pp, state](const Token& tok) {
    const bool deep = parseStackUsed() >= kParseStackBytes - kParseStackReserve;
    if (!state->cut && !deep) return;
    if (!state->cut) {
      state->cut = true;
      DiagnosticsEngine& d = pp.getDiagnostics();
      d.Report(tok.getLocation(),
               d.getCustomDiagID(DiagnosticsEngine::Error,
                                 "nested too deep to parse within an 8 MB stack (as clang++ would need more); "
                                 "the rest of this file is not read"));
    }
    if (auto* lexer = dynamic_cast<Lexer*>(pp.getCurrentLexer())) {
      lexer->skipOver(static_cast<unsigned>(lexer->getBuffer().size() - lexer->getCurrentBufferOffset()));
    } else if (deep && state->endsEntered < 64) {
      ++state->endsEntered;
      auto end = std::make_unique<Token[]>(1);
      end[0].startToken();
      end[0].setKind(tok::eof);
      end[0].setLocation(tok.getLocation());
      pp.EnterTokenStream(std::move(end), 1, /*DisableMacroExpansion=*/true, /*IsReinject=*/false);
    }
  });
}

// What Clang said it could not read: where each error is (so the functions it falls in are
// known to be modelled partly) and the names no header declared (for the opaque re-parse).
struct ParseGaps {
  struct Error {
    FileID file;
    unsigned offset;  // of the error's expansion location
    std::string message;
  };
  std::vector<Error> errors;
  std::map<std::string, bool> undeclared;            // name -> used as a callee `name(`
  std::set<std::string> unknownTypes;
};

// Where a presumed location is, {"", 0, 0} when it is not valid.
SourceLoc sourceLocOf(const PresumedLoc& p) {
  if (p.isInvalid()) return SourceLoc{"", 0, 0};
  return SourceLoc{p.getFilename(), static_cast<int>(p.getLine()), static_cast<int>(p.getColumn())};
}

// Clang's diagnostics -> input diagnostics. Errors that only mean "this name is unknown" are
// warnings: the rest of the file is still modelled, and the message says what was not.
class Collector : public DiagnosticConsumer {
 public:
  Collector(std::vector<InputDiagnostic>& out, ParseGaps& gaps) : out_(out), gaps_(gaps) {}
  void HandleDiagnostic(DiagnosticsEngine::Level level, const Diagnostic& info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < DiagnosticsEngine::Error) return;
    llvm::SmallString<256> msg;
    info.FormatDiagnostic(msg);
    SourceLoc loc{"", 0, 0};
    std::string m = msg.str().str();
    bool inLibrary = false;
    if (info.hasSourceManager() && info.getLocation().isValid()) {
      const SourceManager& sm = info.getSourceManager();
      SourceLocation at = sm.getExpansionLoc(info.getLocation());
      inLibrary = sm.isInSystemHeader(at);
      if (inLibrary && isErasedAddressSpaceSpecialization(m, sm, at)) return;
      loc = sourceLocOf(sm.getPresumedLoc(at));
      auto [file, offset] = sm.getDecomposedLoc(at);
      gaps_.errors.push_back({file, offset, m});
      recordName(m, sm, sm.getSpellingLoc(info.getLocation()));
    }
    static const char* unknownName[] = {"undeclared identifier", "unknown type name", "no member named",
                                        "no template named", "unknown template name", "no matching function",
                                        "not a class, namespace, or enumeration", "no type named"};
    bool unknown = false;
    for (const char* u : unknownName) unknown |= m.find(u) != std::string::npos;
    if (out_.size() >= 50) return;  // shown: the first 50; every error still counts in `gaps`
    // In a library header (pto-isa's, read under the stand-in for the CCE builtins): not the
    // user's error; what it declares is not modelled, and a function it is in is read partly.
    if (inLibrary)
      out_.push_back({InputDiagnostic::Level::Warning, loc,
                      m + " (in a library header under ptoverify's stand-in for the compiler's builtins; not modelled)"});
    else if (unknown)
      out_.push_back({InputDiagnostic::Level::Warning, loc, m + " (not modelled; the rest of the file is checked)"});
    else
      out_.push_back({InputDiagnostic::Level::Error, loc, m});
  }

 private:
  // The stand-in erases address spaces (`__gm__` is empty), so a library's specialization on
  // `__gm__ T` (pto-isa's remove_gm) restates its primary template: the same meaning, no gap.
  static bool isErasedAddressSpaceSpecialization(const std::string& m, const SourceManager& sm, SourceLocation at) {
    if (m.rfind("redefinition of ", 0) != 0 && m.find("does not specialize any template argument") == std::string::npos)
      return false;
    bool invalid = false;
    llvm::StringRef buffer = sm.getBufferData(sm.getFileID(at), &invalid);
    if (invalid) return false;
    size_t offset = sm.getFileOffset(at);
    size_t lineEnd = buffer.find('\n', offset);
    return buffer.slice(offset, lineEnd).contains("<__gm__ ");
  }

  // "use of undeclared identifier 'X'": is X called (`X(`) where it is written?
  void recordName(const std::string& m, const SourceManager& sm, SourceLocation spelled) {
    auto quoted = [&](const std::string& prefix) -> std::string {
      if (m.rfind(prefix, 0) != 0) return "";
      size_t end = m.find('\'', prefix.size());
      return end == std::string::npos ? "" : m.substr(prefix.size(), end - prefix.size());
    };
    if (std::string t = quoted("unknown type name '"); !t.empty()) {
      gaps_.unknownTypes.insert(t);
      return;
    }
    std::string n = quoted("use of undeclared identifier '");
    if (n.empty()) return;
    bool invalid = false;
    const char* text = sm.getCharacterData(spelled, &invalid);
    bool call = false;
    if (!invalid && text) {
      size_t i = n.size();
      while (text[i] == ' ' || text[i] == '\t') ++i;
      call = std::strncmp(text, n.c_str(), n.size()) == 0 && text[i] == '(';
    }
    gaps_.undeclared[n] = gaps_.undeclared[n] || call;
  }
  std::vector<InputDiagnostic>& out_;
  ParseGaps& gaps_;
};

// Macros the source tests (#ifdef __DAV_CUBE__ ...), and headers that were not found.
class PPWatcher : public PPCallbacks {
 public:
  PPWatcher(std::set<std::string>& macros, std::map<std::string, NamedConstant>& constants,
            std::vector<InputDiagnostic>& diags, std::vector<std::string>& included,
            std::vector<std::string>& skipped, SourceManager& sm)
      : macros_(macros), constants_(constants), diags_(diags), included_(included), skipped_(skipped), sm_(sm) {}

  void SourceRangeSkipped(SourceRange range, SourceLocation) override {
    if (!inUserCode(sm_, range.getBegin())) return;
    bool invalid = false;
    StringRef text = Lexer::getSourceText(CharSourceRange::getCharRange(range), sm_, LangOptions(), &invalid);
    if (!invalid) skipped_.push_back(text.str());
  }

  // `#define TIMEOUT_A2A3_100MS 5000000ULL` in the user's code: a named constant.
  void MacroDefined(const Token& name, const MacroDirective* md) override {
    const MacroInfo* mi = md->getMacroInfo();
    if (!mi || !mi->isObjectLike() || !inUserCode(sm_, name.getLocation())) return;
    std::vector<Token> body;
    for (const Token& t : mi->tokens())
      if (!t.is(tok::l_paren) && !t.is(tok::r_paren)) body.push_back(t);
    if (body.size() != 1 || !body[0].is(tok::numeric_constant)) return;
    std::string text(body[0].getLiteralData(), body[0].getLength());
    while (!text.empty() && std::strchr("uUlL", text.back())) text.pop_back();
    // A literal past 64 bits is not a constant ptoverify can use; the macro stays unknown.
    if (auto value = parseUnsignedBits(text)) {
      constants_[name.getIdentifierInfo()->getName().str()] =
          NamedConstant{sourceLocOf(sm_.getPresumedLoc(name.getLocation())), *value, ""};
    }
  }
  // Only the user's tests: pto-isa's own headers pick their cube or vector path by core macro
  // whatever core a kernel is built for.
  void Ifdef(SourceLocation at, const Token& name, const MacroDefinition&) override { record(at, name); }
  void Ifndef(SourceLocation at, const Token& name, const MacroDefinition&) override { record(at, name); }
  void Defined(const Token& name, const MacroDefinition&, SourceRange) override { record(name.getLocation(), name); }
  void InclusionDirective(SourceLocation hash, const Token&, StringRef fileName, bool, CharSourceRange,
                          const FileEntry* file, StringRef searchPath, StringRef, const Module*,
                          SrcMgr::CharacteristicKind) override {
    if (file && searchPath != kMissingHeaderDir && inUserCode(sm_, hash)) included_.push_back(normalisedPath(file->getName().str()));
    // The prelude's instruction declarations found in a folder of the user's include path: every
    // tile instruction would be that file's function, not an instruction, and vanish unseen. The
    // prelude includes the header twice (its pipe_t, its instructions): said once.
    if (file && fileName == "ptoverify_isa_ops.h" && searchPath != kMissingHeaderDir) {
      if (standInsShown_.insert(fileName.str()).second)
        diags_.push_back({InputDiagnostic::Level::Error, sourceLocOf(sm_.getPresumedLoc(hash)),
                          "'" + file->getName().str() + "' on the include path hides ptoverify's PTO-ISA declarations "
                          "(ptoverify_isa_ops.h): no instruction would be recognised; rename it or leave its "
                          "folder out"});
      return;
    }
    bool standIn = file && searchPath.endswith("prelude/vendor");
    if (!file || (searchPath != kMissingHeaderDir && !standIn) || fileName == "ptoverify_isa_ops.h") return;
    PresumedLoc p = sm_.getPresumedLoc(hash);
    if (p.isInvalid()) return;
    if (standIn) {
      if (standInsShown_.insert(fileName.str()).second)
        diags_.push_back({InputDiagnostic::Level::Note, sourceLocOf(p),
                          "header '" + fileName.str() + "' is on no include path; ptoverify's declarations of its "
                          "API are used (prelude/vendor)"});
      return;
    }
    diags_.push_back({InputDiagnostic::Level::Warning, sourceLocOf(p),
                      "header '" + fileName.str() + "' not found; read as empty (what it declares is not modelled)"});
  }

 private:
  void record(SourceLocation at, const Token& t) {
    if (!inUserCode(sm_, at)) return;
    if (const IdentifierInfo* ii = t.getIdentifierInfo()) macros_.insert(ii->getName().str());
  }
  std::set<std::string>& macros_;
  std::map<std::string, NamedConstant>& constants_;
  std::vector<InputDiagnostic>& diags_;
  std::vector<std::string>& included_;  // the user's includes that exist, absolute
  std::vector<std::string>& skipped_;
  SourceManager& sm_;
  std::set<std::string> standInsShown_;
};

// File-level facts by AST matchers: function definitions, enumerators, constexpr integers and
// static_asserts of the user's code.
class FileFacts : public MatchFinder::MatchCallback {
 public:
  std::vector<const FunctionDecl*> functions;
  std::map<std::string, NamedConstant> constants;
  std::vector<StaticAssert> asserts;

  void run(const MatchFinder::MatchResult& r) override {
    ASTContext& ctx = *r.Context;
    const SourceManager& sm = ctx.getSourceManager();
    if (const auto* fd = r.Nodes.getNodeAs<FunctionDecl>("fn")) {
      if (inUserCode(sm, fd->getLocation()) && fd->doesThisDeclarationHaveABody()) functions.push_back(fd);
    } else if (const auto* ec = r.Nodes.getNodeAs<EnumConstantDecl>("enumerator")) {
      if (!inUserCode(sm, ec->getLocation())) return;
      std::string enumName;
      if (const auto* ed = dyn_cast<EnumDecl>(ec->getDeclContext())) enumName = ed->getNameAsString();
      constants.emplace(ec->getNameAsString(),
                        NamedConstant{locOf(ctx, ec->getLocation()), ec->getInitVal().getExtValue(), enumName});
    } else if (const auto* vd = r.Nodes.getNodeAs<VarDecl>("constant")) {
      if (!inUserCode(sm, vd->getLocation())) return;
      if (auto v = evalInt(ctx, vd->getInit()))
        constants.emplace(vd->getNameAsString(), NamedConstant{locOf(ctx, vd->getLocation()), *v, ""});
    } else if (const auto* sa = r.Nodes.getNodeAs<StaticAssertDecl>("assert")) {
      if (!inUserCode(sm, sa->getLocation())) return;
      StaticAssert a;
      a.loc = locOf(ctx, sa->getLocation());
      a.text = sourceText(ctx, sa->getAssertExpr()->getSourceRange());
      bool value = false;
      if (!sa->getAssertExpr()->isValueDependent() && sa->getAssertExpr()->EvaluateAsBooleanCondition(value, ctx))
        a.holds = value;
      asserts.push_back(a);
    }
  }
};

struct Output {
  std::vector<Kernel> kernels;
  std::vector<InputDiagnostic> diags;
  std::set<std::string> testedMacros;
  std::map<std::string, NamedConstant> macroConstants;  // `#define NAME <integer>` of the user's code
  std::vector<std::string> included;                    // files the user's code includes
  std::vector<std::string> skippedText;                 // the user's code the preprocessor skipped
  std::vector<size_t> launchOffsets;                    // of each `<<<` launch in the main file
  std::map<std::string, std::vector<size_t>> headerLaunches;  // the same in included user headers, by canonical path
  // The sync calls written in the user's device functions, by location.
  struct WrittenSync {
    std::string function;  // the function it is written in
    std::string gap;       // why that function is not modelled whole ("" when it is)
    bool reached = false;  // some kernel of some view inlined that function
    std::set<CoreView> views;  // the core views whose parse holds it (Whole for a single parse)
  };
  std::map<std::tuple<std::string, int, int>, WrittenSync> syncWritten;
  std::set<const FunctionDecl*> reached;  // functions some kernel inlined (patternOf)
  CoreView view = CoreView::Whole;                      // the core view parsed
  bool oneCore = false;  // the compile names its core (--cce-aicore-arch=dav-c220-vec): one view, no mix
  std::string arch;
  bool header = false;  // the input is a header (.h, .hpp, ...): library code unless an entry
  bool control = false;  // control code (no kernel, wrapper or orchestration): parsed as written
  ParseGaps gaps;
  std::shared_ptr<const std::set<std::string>> inputFiles;  // the run's inputs, normalised
  FunctionCoverage coverage;
};

class Consumer : public ASTConsumer {
 public:
  explicit Consumer(Output& out) : out_(out) {}

  bool HandleTopLevelDecl(DeclGroupRef group) override {
    for (Decl* d : group) top_.push_back(d);
    return true;
  }

  void HandleTranslationUnit(ASTContext& ctx) override {
    const SourceManager& sm = ctx.getSourceManager();
    std::vector<Decl*> user;
    for (Decl* d : top_)
      if (inUserCode(sm, d->getLocation())) user.push_back(d);
    ctx.setTraversalScope(user);
    FileFacts facts;
    MatchFinder finder;
    finder.addMatcher(functionDecl(isDefinition()).bind("fn"), &facts);
    finder.addMatcher(enumConstantDecl().bind("enumerator"), &facts);
    finder.addMatcher(varDecl(hasType(isInteger()), hasInitializer(expr())).bind("constant"), &facts);
    finder.addMatcher(staticAssertDecl().bind("assert"), &facts);
    finder.matchAST(ctx);
    modelKernels(ctx, facts);
    if (!out_.control) recordSyncCalls(ctx, facts);
  }

 private:
  Output& out_;
  std::vector<Decl*> top_;

  // A device entry: `__global__` (the prelude's attribute, on any declaration of it).
  static bool isGlobal(const FunctionDecl* fd) {
    for (const FunctionDecl* d : patternOf(fd)->redecls())
      for (const auto* a : d->specific_attrs<AnnotateAttr>())
        if (a->getAnnotation() == "ptoverify.global") return true;
    return false;
  }

  struct CallGraph {
    std::set<const FunctionDecl*> called, relevant, orchestration, host;
    std::map<const FunctionDecl*, std::set<const FunctionDecl*>> callees;
  };

  // Who calls whom among the user's functions (instantiations count for their template). A
  // function that writes a `<<<...>>>` launch is host code, whose calls make no callee.
  CallGraph callGraphOf(const SourceManager& sm, const FileFacts& facts) const {
    CallGraph g;
    for (const FunctionDecl* fd : facts.functions) {
      struct Calls : RecursiveASTVisitor<Calls> {
        std::set<const FunctionDecl*> out;
        bool orchestrates = false;
        bool VisitCallExpr(CallExpr* c) {
          if (const FunctionDecl* t = c->getDirectCallee()) out.insert(patternOf(t));
          if (const auto* ul = dyn_cast<UnresolvedLookupExpr>(c->getCallee()->IgnoreParenImpCasts()))
            for (const NamedDecl* d : ul->decls()) {
              if (const auto* ftd = dyn_cast<FunctionTemplateDecl>(d)) {
                out.insert(ftd->getTemplatedDecl()->getCanonicalDecl());
              } else if (const auto* f = dyn_cast<FunctionDecl>(d)) {
                out.insert(f->getCanonicalDecl());
              }
            }
          std::string n = calleeName(c);
          orchestrates |= isTaskSubmit(n) || n == "set_block_num" || n == "add_inout" || n == "add_input" ||
                          n == "add_output" || n == "set_require_sync_start";
          return true;
        }
      } calls;
      calls.TraverseStmt(fd->getBody());
      const FunctionDecl* self = patternOf(fd);
      // A call of a `__global__` function is a launch too: device code never calls an entry (and a
      // launch written in a macro has its `<<<` in the macro's definition, away from the call).
      bool launchesEntry = std::any_of(calls.out.begin(), calls.out.end(), [](const FunctionDecl* c) { return isGlobal(c); });
      if ((launchesEntry || writesLaunch(sm, fd)) && !isGlobal(fd)) {
        g.host.insert(self);
        continue;
      }
      for (const FunctionDecl* c : calls.out)
        if (c != self) g.called.insert(c), g.callees[self].insert(c);
      if (calls.orchestrates) g.orchestration.insert(self);
      if (callsModelledOp(*fd)) g.relevant.insert(self);
    }
    // Relevant: calls a modelled op, directly or through callees.
    for (bool changed = true; changed;) {
      changed = false;
      for (const auto& [f, cs] : g.callees)
        if (!g.relevant.count(f))
          for (const FunctionDecl* c : cs)
            if (g.relevant.count(c)) {
              g.relevant.insert(f);
              changed = true;
              break;
            }
    }
    return g;
  }

  // A library function (pto-isa's headers, not an instruction of the table) whose body reaches a
  // set_flag / wait_flag / pipe_barrier, through the library functions it calls.
  std::map<const FunctionDecl*, bool> synchronises_;
  bool synchronises(const FunctionDecl* fd) {
    if (!fd || instrOf(fd)) return false;
    // The instance called (its calls resolved), else the template (a call in a template pattern).
    const FunctionDecl* def = fd->getDefinition();
    if ((!def || !def->hasBody()) && fd->getPrimaryTemplate()) def = fd->getPrimaryTemplate()->getTemplatedDecl()->getDefinition();
    if (!def || !def->hasBody() || inUserCode(def->getASTContext().getSourceManager(), def->getLocation())) return false;
    auto [it, fresh] = synchronises_.try_emplace(def, false);  // false while it is scanned
    if (!fresh) return it->second;
    struct Scan : RecursiveASTVisitor<Scan> {
      Consumer* self;
      bool found = false;
      bool VisitCallExpr(CallExpr* c) {
        const ops::OpRow* in = instrOf(c->getDirectCallee());
        found |= (in && isCountedSync(in->kind)) || (!in && self->synchronises(c->getDirectCallee()));
        return !found;
      }
    } scan;
    scan.self = this;
    scan.TraverseStmt(def->getBody());
    return synchronises_[def] = scan.found;
  }

  // Every set_flag / wait_flag / pipe_barrier (by the prelude's declarations) in the user's device
  // functions, template patterns included, with the function it is written in, and every call of
  // a library helper that synchronises.
  void recordSyncCalls(ASTContext& ctx, const FileFacts& facts) {
    const SourceManager& sm = ctx.getSourceManager();
    Coverage coverage(sm, out_.gaps);
    for (const FunctionDecl* fd : facts.functions) {
      if (fd->isTemplateInstantiation() || writesLaunch(sm, fd)) continue;
      struct Calls : RecursiveASTVisitor<Calls> {
        std::vector<SourceLocation> found;
        bool VisitCallExpr(CallExpr* c) {
          const ops::OpRow* in = instrOf(c->getDirectCallee());
          const auto* ov = dyn_cast<OverloadExpr>(c->getCallee()->IgnoreParenImpCasts());
          if (ov) in = instrOfLookup(*ov);
          if (in && isCountedSync(in->kind)) found.push_back(c->getBeginLoc());
          // A library helper that synchronises (PtoSetWaitFlag, an Event's Wait, SYNCALL): the
          // user wrote a synchronisation, whose ops the model shows at this call.
          else if (!in && self->synchronises(c->getDirectCallee() ? c->getDirectCallee()
                                                : ov && !ov->decls().empty() ? ov->decls().begin()->getAsFunction()
                                                                             : nullptr))
            found.push_back(c->getBeginLoc());
          return true;
        }
        Consumer* self = nullptr;
      } calls;
      calls.self = this;
      calls.TraverseStmt(fd->getBody());
      bool reached = out_.reached.count(patternOf(fd)) > 0;
      for (SourceLocation l : calls.found) {
        SourceLoc at = locOf(ctx, l);
        out_.syncWritten[{at.file, at.line, at.col}] = {fd->getQualifiedNameAsString(), coverage.gapOf(fd), reached,
                                                         {out_.view}};
      }
    }
  }

  // Its body holds a `<<<...>>>` launch (of a kernel this parse may not even declare).
  bool writesLaunch(const SourceManager& sm, const FunctionDecl* fd) const {
    if ((out_.launchOffsets.empty() && out_.headerLaunches.empty()) || !fd->getBody()) return false;
    auto [bf, b] = sm.getDecomposedLoc(sm.getExpansionLoc(fd->getBody()->getBeginLoc()));
    auto [ef, e] = sm.getDecomposedLoc(sm.getExpansionLoc(fd->getBody()->getEndLoc()));
    if (ef != bf) return false;
    const std::vector<size_t>* offsets = bf == sm.getMainFileID() ? &out_.launchOffsets : headerLaunchesOf(sm, bf);
    return offsets && std::any_of(offsets->begin(), offsets->end(), [&](size_t at) { return at > b && at < e; });
  }

  // The launches of an included header (null: none), found by its canonical path once per file.
  const std::vector<size_t>* headerLaunchesOf(const SourceManager& sm, FileID file) const {
    if (out_.headerLaunches.empty()) return nullptr;
    auto [known, fresh] = launchesOfFile_.try_emplace(file, nullptr);
    if (!fresh) return known->second;
    if (const FileEntry* entry = sm.getFileEntryForID(file)) {
      std::error_code ec;
      auto it = out_.headerLaunches.find(fs::weakly_canonical(entry->getName().str(), ec).string());
      if (it != out_.headerLaunches.end()) known->second = &it->second;
    }
    return known->second;
  }
  mutable std::map<FileID, const std::vector<size_t>*> launchesOfFile_;

  // An entry of device code: `__global__`, kernel_entry, or an extern "C" function that reaches
  // an instruction.
  static bool isEntry(const FunctionDecl* fd, const CallGraph& g) {
    return isGlobal(fd) || fd->getNameAsString() == "kernel_entry" ||
           (fd->isExternC() && g.relevant.count(patternOf(fd)));
  }

  // The kernels a root stands for: itself, or each instantiation of a template entry.
  static std::vector<const FunctionDecl*> instancesOf(const FunctionDecl* fd) {
    const FunctionTemplateDecl* tpl = fd->getDescribedFunctionTemplate();
    if (!tpl) return {fd};
    std::vector<const FunctionDecl*> out;
    for (const FunctionDecl* spec : tpl->specializations())
      if (spec->hasBody() && spec->isTemplateInstantiation()) out.push_back(spec);
    return out;
  }

  void modelKernels(ASTContext& ctx, const FileFacts& facts) {
    if (out_.control) {
      modelMachineCode(ctx, facts);
      return;
    }
    CallGraph g = callGraphOf(ctx.getSourceManager(), facts);
    bool hasEntries = false;
    for (const FunctionDecl* fd : facts.functions) hasEntries |= isEntry(fd, g);
    const SourceManager& sm = ctx.getSourceManager();
    bool kernelInMainFile = false;  // a kernel, wrapper or orchestration function of the file itself
    std::set<const FunctionDecl*> done;
    std::vector<std::string> hostFunctions;
    Coverage coverage(sm, out_.gaps);
    for (const FunctionDecl* fd : facts.functions) {
      const FunctionDecl* self = patternOf(fd);
      if (fd->isTemplateInstantiation() || !done.insert(self).second) continue;
      bool inMainFile = sm.isInMainFile(sm.getExpansionLoc(fd->getLocation()));
      if (g.host.count(self)) {
        hostFunctions.push_back(fd->getNameAsString());
        continue;
      }
      if (g.orchestration.count(self)) {
        kernelInMainFile |= inMainFile;
        Kernel k = modelOrchestration(ctx, *fd, out_.diags);
        k.cpp = std::make_shared<CppFacts>(withFileFacts(*k.cpp, facts));
        out_.kernels.push_back(std::move(k));
        continue;
      }
      if (isa<CXXMethodDecl>(fd)) continue;
      // Roots are never called by device code. With entries in the file, only they are roots;
      // without, a function that reaches an instruction (a generated body) is, unless its caller
      // was preprocessed away.
      if (g.called.count(self) || (hasEntries ? !isEntry(fd, g) : !g.relevant.count(self))) continue;
      if (!hasEntries && calledFromSkippedCode(fd)) continue;
      std::vector<const FunctionDecl*> instances = instancesOf(fd);
      if (fd->isDependentContext() && instances.empty()) {
        out_.diags.push_back({InputDiagnostic::Level::Note, locOf(ctx, fd->getLocation()),
                              "template '" + fd->getNameAsString() +
                                  "' is not instantiated by a kernel of this file; it is checked where an entry "
                                  "instantiates it"});
        continue;
      }
      kernelInMainFile |= inMainFile;
      for (const FunctionDecl* instance : instances) {
        TranslateResult r =
            translateKernel(ctx, *instance, out_.arch, out_.oneCore ? std::set<std::string>{} : out_.testedMacros, out_.view);
        addCompileErrorGaps(r, coverage);
        out_.reached.insert(r.reached.begin(), r.reached.end());
        auto kernelFacts = std::make_shared<CppFacts>(withFileFacts(*r.kernel.cpp, facts));
        for (const FunctionDecl* run : r.reached) kernelFacts->functionsRun.insert(run->getQualifiedNameAsString());
        r.kernel.cpp = std::move(kernelFacts);
        out_.kernels.push_back(std::move(r.kernel));
        out_.diags.insert(out_.diags.end(), r.notes.begin(), r.notes.end());
      }
    }
    if (!hostFunctions.empty())
      out_.diags.push_back({InputDiagnostic::Level::Note, SourceLoc{sm.getFileEntryForID(sm.getMainFileID())->getName().str(), 1, 1},
                            "host code skipped: " + std::to_string(hostFunctions.size()) +
                                " function(s) that launch kernels (first '" + hostFunctions.front() + "')"});
    // No kernel here and no sign of device code: AICPU control code. A file with device entries,
    // or one that tests the core macros, is device code even where a view finds no kernel.
    bool deviceCode = hasEntries || out_.view != CoreView::Whole ||
                      std::any_of(out_.testedMacros.begin(), out_.testedMacros.end(),
                                  [](const std::string& m) { return m.rfind("__DAV_", 0) == 0; });
    if (!kernelInMainFile && !out_.header && !deviceCode) modelMachineCode(ctx, facts);
  }

  // Named as a call (`name(` or `name<`) in code the preprocessor skipped in this view: its caller
  // is there, so it is no root of its own (the other core view models that caller).
  bool calledFromSkippedCode(const FunctionDecl* fd) const {
    std::string n = fd->getNameAsString();
    for (const std::string& text : out_.skippedText)
      for (size_t at = text.find(n); at != std::string::npos; at = text.find(n, at + 1)) {
        bool wordStart = at == 0 || !(std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_');
        size_t after = at + n.size();
        while (after < text.size() && std::isspace(static_cast<unsigned char>(text[after]))) ++after;
        if (wordStart && after < text.size() && (text[after] == '(' || text[after] == '<')) return true;
      }
    return false;
  }

  // A file that defines no kernel, wrapper or orchestration function is control code (AICPU ctrl /
  // sche, as the pypto-machine-code-review timing rules read it): each function of the file itself,
  // and of the run's input headers it includes, is a "machine" kernel (linkInputs keeps one copy of
  // a header's).
  void modelMachineCode(ASTContext& ctx, const FileFacts& facts) {
    const SourceManager& sm = ctx.getSourceManager();
    CppFacts file = withFileFacts(CppFacts{}, facts);  // the file's constants, `#define`s included
    for (const auto& [name, c] : out_.macroConstants) file.constants.emplace(name, c);
    Coverage coverage(sm, out_.gaps);
    const CallFacts calls = callFactsOf(facts);
    const CallSites& sites = calls.sites;
    const Callees& callees = calls.callees;
    std::map<const FunctionDecl*, std::set<std::string>> entries = entriesReaching(callees);
    std::vector<std::string> externC;
    for (const FunctionDecl* fd : facts.functions)
      if (fd->isExternC() && sm.isInMainFile(sm.getExpansionLoc(fd->getLocation())))
        externC.push_back(fd->getQualifiedNameAsString());
    std::set<const FunctionDecl*> reached = reachedFromRoots(sm, facts, callees);
    std::set<const FunctionDecl*> done;
    for (const FunctionDecl* fd : facts.functions) {
      if (fd->isTemplateInstantiation() || !done.insert(patternOf(fd)).second) continue;
      if (!reached.count(patternOf(fd))) continue;
      coverage.count(fd);
      MachineFacts known;
      const auto& reaching = entries[patternOf(fd)];
      known.entries.assign(reaching.begin(), reaching.end());
      known.fileEntries = externC;
      known.usr = usrOf(patternOf(fd));
      if (auto it = callees.find(patternOf(fd)); it != callees.end())
        for (const FunctionDecl* c : it->second)
          if (std::string u = usrOf(c); !u.empty()) known.calls.push_back(u);
      bool hasFacts = false;
      Kernel k = modelMachineFunction(ctx, *fd, out_.arch, file, std::move(known), hasFacts,
                                      [&](const FunctionDecl* f) { return coverage.gapOf(f); }, &sites);
      if (hasFacts) out_.kernels.push_back(std::move(k));
    }
    if (!out_.control) return;
    out_.coverage = coverage.totals();
    if (out_.coverage.partly + out_.coverage.none) out_.diags.push_back(coverage.summary(sm));
  }

  using Callees = std::map<const FunctionDecl*, std::set<const FunctionDecl*>>;  // caller -> callees (patterns)

  // A declaration's identity across translation units ("" when Clang cannot give one).
  static std::string usrOf(const FunctionDecl* fd) {
    llvm::SmallString<128> usr;
    if (index::generateUSRForDecl(fd, usr)) return "";
    return usr.str().str();
  }

  // The functions control code models: the roots and every function of the user's code they
  // reach through calls and constructions, so a write or wait in a helper of a header that is no
  // input counts where it is reached (linkInputs keeps one copy of a function several inputs model).
  std::set<const FunctionDecl*> reachedFromRoots(const SourceManager& sm, const FileFacts& facts,
                                                 const Callees& callees) const {
    std::vector<const FunctionDecl*> todo;
    for (const FunctionDecl* fd : facts.functions)
      if (!fd->isTemplateInstantiation() && isRoot(sm, fd)) todo.push_back(patternOf(fd));
    std::set<const FunctionDecl*> out(todo.begin(), todo.end());
    while (!todo.empty()) {
      const FunctionDecl* f = todo.back();
      todo.pop_back();
      if (auto it = callees.find(f); it != callees.end())
        for (const FunctionDecl* c : it->second)
          if (out.insert(c).second) todo.push_back(c);
    }
    return out;
  }

  // One walk over the user's functions: every direct call by callee (the spin-wait callers), and
  // what each function calls, constructs or names (patterns: the reach of control code, roles).
  struct CallFacts {
    CallSites sites;
    Callees callees;
  };
  static CallFacts callFactsOf(const FileFacts& facts) {
    CallFacts out;
    std::set<const FunctionDecl*> seen;
    for (const FunctionDecl* fd : facts.functions) {
      if (!seen.insert(fd).second) continue;
      struct Calls : RecursiveASTVisitor<Calls> {
        const FunctionDecl* caller;
        CallSites* sites;
        std::set<const FunctionDecl*> reached;
        bool VisitCallExpr(CallExpr* c) {
          if (const FunctionDecl* t = c->getDirectCallee()) {
            (*sites)[patternOf(t)].push_back({c, caller});
            reached.insert(patternOf(t));
          }
          return true;
        }
        bool VisitCXXConstructExpr(CXXConstructExpr* c) {
          if (const auto* ctor = c->getConstructor()) reached.insert(patternOf(ctor));
          return true;
        }
        // A function named without being called is handed on (a callback table, a thread body):
        // it runs for the role of the function that hands it.
        bool VisitDeclRefExpr(DeclRefExpr* d) {
          if (const auto* f = dyn_cast<FunctionDecl>(d->getDecl())) reached.insert(patternOf(f));
          return true;
        }
      } calls;
      calls.caller = fd;
      calls.sites = &out.sites;
      calls.TraverseStmt(fd->getBody());
      // A constructor's member initialisers create objects too (reach only: the spin-wait
      // callers are walked in bodies).
      CallSites initSites;
      calls.sites = &initSites;
      if (const auto* ctor = dyn_cast<CXXConstructorDecl>(fd))
        for (const CXXCtorInitializer* init : ctor->inits())
          if (init->isWritten()) calls.TraverseStmt(init->getInit());
      const FunctionDecl* self = patternOf(fd);
      calls.reached.erase(self);
      out.callees[self].insert(calls.reached.begin(), calls.reached.end());
    }
    return out;
  }

  // For each function of the user's code, the entry points of this file that reach it: the extern
  // "C" functions and the functions no other function of the file calls (linkInputs replaces
  // them by the whole run's when the function has a USR).
  static std::map<const FunctionDecl*, std::set<std::string>> entriesReaching(const Callees& callees) {
    std::set<const FunctionDecl*> called, all;
    for (const auto& [self, targets] : callees) {
      all.insert(self);
      called.insert(targets.begin(), targets.end());
    }
    std::map<const FunctionDecl*, std::set<std::string>> out;
    for (const FunctionDecl* root : all) {
      if (called.count(root) && !root->isExternC()) continue;
      std::string name = root->getQualifiedNameAsString();
      std::vector<const FunctionDecl*> todo{root};
      std::set<const FunctionDecl*> seen{root};
      while (!todo.empty()) {
        const FunctionDecl* f = todo.back();
        todo.pop_back();
        out[f].insert(name);
        if (auto it = callees.find(f); it != callees.end())
          for (const FunctionDecl* c : it->second)
            if (seen.insert(c).second) todo.push_back(c);
      }
    }
    return out;
  }

  // Roots of control code: the main file's functions and those of the run's input headers.
  bool isRoot(const SourceManager& sm, const FunctionDecl* fd) const {
    SourceLocation at = sm.getExpansionLoc(fd->getLocation());
    if (sm.isInMainFile(at)) return true;
    if (!out_.control || !out_.inputFiles) return false;
    const FileEntry* fe = sm.getFileEntryForID(sm.getFileID(at));
    return fe && out_.inputFiles->count(normalisedPath(fe->getName().str()));
  }

  // Which functions Clang read whole: an error inside a body means part of it is missing (a
  // call with an unknown argument is dropped), an invalid declaration that none of it is there.
  class Coverage {
   public:
    Coverage(const SourceManager& sm, const ParseGaps& gaps) : sm_(sm) {
      for (const auto& e : gaps.errors) byFile_[e.file].emplace(e.offset, e.message);
    }
    // "" when `fd` was modelled fully, else why not.
    std::string gapOf(const FunctionDecl* fd) {
      if (const FunctionDecl* pattern = fd->getTemplateInstantiationPattern()) fd = pattern;
      auto it = gap_.find(fd);
      if (it != gap_.end()) return it->second;
      return gap_[fd] = compute(fd);
    }
    void count(const FunctionDecl* fd) {
      std::string g = gapOf(fd);
      if (g.empty()) {
        ++full_;
        return;
      }
      bool none = fd->isInvalidDecl() || !fd->getBody();
      ++(none ? none_ : partly_);
      if (examples_.size() < 3) examples_.push_back("'" + fd->getQualifiedNameAsString() + "': " + g);
    }
    FunctionCoverage totals() const { return {full_, partly_, none_}; }
    // Where the first error inside `fd`'s body is (null when none is).
    std::optional<SourceLoc> firstErrorIn(const FunctionDecl* fd) const {
      if (const FunctionDecl* pattern = fd->getTemplateInstantiationPattern()) fd = pattern;
      auto e = firstError(fd);
      if (!e) return std::nullopt;
      return sourceLocOf(sm_.getPresumedLoc(e->first));
    }
    InputDiagnostic summary(const SourceManager& sm) const {
      const FileEntry* fe = sm.getFileEntryForID(sm.getMainFileID());
      std::string m = "control code modelled: " + std::to_string(full_) + " function(s) fully, " +
                      std::to_string(partly_) + " partly, " + std::to_string(none_) + " not at all";
      if (!examples_.empty()) {
        m += " (";
        for (size_t i = 0; i < examples_.size(); ++i) m += (i ? "; " : "") + examples_[i];
        m += "); the timing rules answer unknown where they need what was dropped";
      }
      return {partly_ + none_ ? InputDiagnostic::Level::Warning : InputDiagnostic::Level::Note,
              SourceLoc{fe ? fe->getName().str() : "", 1, 1}, m};
    }

   private:
    std::string compute(const FunctionDecl* fd) const {
      if (fd->isInvalidDecl()) return "its declaration is invalid";
      if (const auto* md = dyn_cast<CXXMethodDecl>(fd); md && md->getParent()->isInvalidDecl())
        return "its class '" + md->getParent()->getNameAsString() + "' is invalid";
      if (!fd->getBody()) return "its body is missing";
      auto e = firstError(fd);
      if (!e) return "";
      PresumedLoc p = sm_.getPresumedLoc(e->first);
      return (p.isValid() ? std::to_string(p.getLine()) + ": " : std::string()) + e->second;
    }
    // The first error Clang reported inside `fd`'s body: where, and its message.
    std::optional<std::pair<SourceLocation, std::string>> firstError(const FunctionDecl* fd) const {
      const clang::Stmt* body = fd->getBody();
      if (!body) return std::nullopt;
      auto [bf, b] = sm_.getDecomposedLoc(sm_.getExpansionLoc(body->getBeginLoc()));
      auto [ef, e] = sm_.getDecomposedLoc(sm_.getExpansionLoc(body->getEndLoc()));
      auto it = byFile_.find(bf);
      if (it == byFile_.end() || bf != ef) return std::nullopt;
      auto at = it->second.lower_bound(b);
      if (at == it->second.end() || at->first > e) return std::nullopt;
      return std::make_pair(sm_.getComposedLoc(bf, at->first), at->second);
    }
    const SourceManager& sm_;
    std::map<FileID, std::multimap<unsigned, std::string>> byFile_;
    std::map<const FunctionDecl*, std::string> gap_;
    int full_ = 0, partly_ = 0, none_ = 0;
    std::vector<std::string> examples_;
  };

  // A function the kernel runs whose body Clang could not compile whole: a statement it dropped
  // (a call with a template argument it could not resolve, say) may have been any op, so the
  // kernel has skipped code there (its findings are `unknown`), unless the translation read an
  // unresolved call on that line (it stays in the model: a tile op by the table, or a gap).
  static void addCompileErrorGaps(TranslateResult& r, Coverage& coverage) {
    for (const FunctionDecl* run : r.reached) {
      std::optional<SourceLoc> at = coverage.firstErrorIn(run);
      if (!at) continue;
      bool counted = r.recoveredLines.count({at->file, at->line}) > 0 ||
                     std::any_of(r.kernel.gaps.begin(), r.kernel.gaps.end(), [&](const ModelGap& g) {
                       return g.loc.line == at->line && g.loc.file == at->file;
                     });
      if (!counted)
        r.kernel.gaps.push_back(ModelGap{ModelGap::Kind::SkippedCode, *at,
                                         "in '" + run->getNameAsString() + "', which Clang could not compile whole (" +
                                             coverage.gapOf(run) + ")"});
    }
  }

  static CppFacts withFileFacts(CppFacts f, const FileFacts& file) {
    for (const auto& [name, c] : file.constants) f.constants.emplace(name, c);
    f.staticAsserts = file.asserts;
    return f;
  }
};

class Action : public ASTFrontendAction {
 public:
  explicit Action(Output& out) : out_(out) {}
  bool BeginSourceFileAction(CompilerInstance& ci) override {
    guardParseStack(ci.getPreprocessor());
    ci.getPreprocessor().addPPCallbacks(
        std::make_unique<PPWatcher>(out_.testedMacros, out_.macroConstants, out_.diags, out_.included,
                                    out_.skippedText, ci.getSourceManager()));
    return true;
  }
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance& ci, StringRef) override {
    ci.getDiagnostics().setClient(new Collector(out_.diags, out_.gaps), true);
    return std::make_unique<Consumer>(out_);
  }

 private:
  Output& out_;
};

// Every header name the file (and the user headers it includes) asks for, so that the ones that
// do not exist can be given as empty files instead of stopping the parse.
// The header a `#include <name>` / `#include "name"` line names ("" for any other line). By
// hand, not std::regex, whose matcher recurses per character (a 60 kB line overflowed the stack).
std::string includedName(const std::string& line) {
  const char* blank = " \t\r\f\v";
  size_t i = line.find_first_not_of(blank);
  if (i == std::string::npos || line[i] != '#') return "";
  i = line.find_first_not_of(blank, i + 1);
  if (i == std::string::npos || line.compare(i, 7, "include") != 0) return "";
  i = line.find_first_not_of(blank, i + 7);
  if (i == std::string::npos || (line[i] != '<' && line[i] != '"')) return "";
  size_t end = line.find_first_of("\">", i + 1);
  return end == std::string::npos ? "" : line.substr(i + 1, end - i - 1);
}

// A header's `#include` names, scanned once per process (the same headers recur in every file
// of a tree).
const std::vector<std::string>& includesOf(const std::string& path) {
  static std::mutex mu;
  static std::map<std::string, std::vector<std::string>> cache;
  {
    std::lock_guard<std::mutex> lock(mu);
    if (auto it = cache.find(path); it != cache.end()) return it->second;
  }
  std::vector<std::string> names;
  std::ifstream f(path);
  std::string line;
  while (std::getline(f, line))
    if (std::string name = includedName(line); !name.empty()) names.push_back(name);
  std::lock_guard<std::mutex> lock(mu);
  return cache.emplace(path, std::move(names)).first->second;
}

// Where a `#include "name"` of a file in `dir` is found: `dir` first, then the -I directories.
std::optional<fs::path> findHeader(const std::string& name, const fs::path& dir, const std::vector<std::string>& includeDirs) {
  std::error_code ec;
  if (fs::is_regular_file(dir / name, ec)) return dir / name;
  for (const auto& d : includeDirs)
    if (fs::is_regular_file(fs::path(d) / name, ec)) return fs::path(d) / name;
  return std::nullopt;
}

// Every header name the file and the user headers it reaches ask for (through its own
// directory and the -I directories), so that the ones that exist nowhere can be given as empty
// files: a missing vendor header deep in a real tree (securec.h, dlog_pub.h) is never fatal.
void collectIncludes(const std::vector<std::string>& direct, const fs::path& dir, const std::vector<std::string>& includeDirs,
                     std::set<std::string>& names, std::set<std::string>& seen) {
  for (const auto& name : direct) {
    names.insert(name);
    auto found = findHeader(name, dir, includeDirs);
    if (!found) continue;
    // As Clang's file system overlay names it (absolute, dots removed, symlinks kept): a
    // rewritten header mapped under its canonical name only would not replace one read through
    // a symlinked directory (../shared -> /work/shared).
    std::error_code ec;
    std::string key = fs::absolute(*found, ec).lexically_normal().string();
    if (!seen.insert(key).second) continue;
    collectIncludes(includesOf(key), fs::path(key).parent_path(), includeDirs, names, seen);
  }
}

std::vector<std::string> includesInText(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (std::string name = includedName(line); !name.empty()) out.push_back(name);
  return out;
}

// Each -I / -isystem / -iquote directory as its canonical path: a header rewritten in memory (its
// `[aicore]` blanked) is mapped under its canonical path, which is then the path Clang opens,
// also through a symbolic link in the include path.
void canonicalizeIncludeDirs(std::vector<std::string>& args) {
  auto canonical = [](const std::string& dir) {
    std::error_code ec;
    fs::path p = fs::weakly_canonical(fs::absolute(dir, ec), ec);
    return ec ? dir : p.string();
  };
  for (size_t i = 0; i < args.size(); ++i)
    for (const char* flag : {"-I", "-isystem", "-iquote"}) {
      const std::string f = flag;
      if (args[i] == f && i + 1 < args.size()) {
        args[i + 1] = canonical(args[i + 1]);
        ++i;
        break;
      }
      if (f == "-I" && args[i].rfind(f, 0) == 0 && args[i].size() > 2) {
        args[i] = "-I" + canonical(args[i].substr(2));
        break;
      }
    }
}

// The -I / -isystem / -iquote directories of a command line.
std::vector<std::string> includeDirsOf(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (size_t i = 0; i < args.size(); ++i)
    for (const char* flag : {"-I", "-isystem", "-iquote"}) {
      std::string f = flag;
      if (args[i] == f && i + 1 < args.size())
        out.push_back(args[i + 1]);
      else if (f == "-I" && args[i].rfind(f, 0) == 0 && args[i].size() > 2)
        out.push_back(args[i].substr(2));
    }
  return out;
}

// -I/-D/-U/-std/-isystem/-include flags of the file's compile command (`-p DIR`), paths absolute.
// In a mirror (FrontendOptions::mirrorOf/mirrorAt), the file is looked up as its original and
// the command's paths under the original tree are moved into the mirror.
std::vector<std::string> compileFlags(const std::string& dir, const std::string& path, const FrontendOptions& opts,
                                      std::vector<InputDiagnostic>& diags) {
  std::vector<std::string> out;
  if (dir.empty()) return out;
  auto moveInto = [&](std::string p, const std::string& from, const std::string& to) {
    if (!from.empty() && (p == from || p.rfind(from + "/", 0) == 0)) p = to + p.substr(from.size());
    return p;
  };
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<tooling::CompilationDatabase>> dbs;
  std::lock_guard<std::mutex> lock(mu);
  auto& db = dbs[dir];
  if (!db) {
    std::string error;
    db = tooling::CompilationDatabase::loadFromDirectory(dir, error);
    if (!db) {
      diags.push_back({InputDiagnostic::Level::Error, SourceLoc{dir + "/compile_commands.json", 1, 1}, error});
      return out;
    }
    // A header given as an input is not listed: it takes the flags of the closest listed source.
    db = tooling::inferMissingCompileCommands(std::move(db));
  }
  std::error_code ec;
  std::string abs = moveInto(fs::absolute(path, ec).lexically_normal().string(), opts.mirrorAt, opts.mirrorOf);
  auto cmds = db->getCompileCommands(abs);
  if (cmds.empty()) return out;
  const auto& cmd = cmds.front();
  const auto& args = cmd.CommandLine;
  auto absolute = [&](const std::string& p) {
    std::string a = fs::path(p).is_absolute() ? p : (fs::path(cmd.Directory) / p).lexically_normal().string();
    return moveInto(a, opts.mirrorOf, opts.mirrorAt);
  };
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    for (const char* flag : {"-I", "-isystem", "-include"}) {
      std::string f = flag;
      if (a == f && i + 1 < args.size()) {
        out.push_back(f);
        out.push_back(absolute(args[++i]));
      } else if (a.rfind(f, 0) == 0 && a.size() > f.size() && f == "-I") {
        out.push_back("-I" + absolute(a.substr(2)));
      }
    }
    if (a.rfind("-D", 0) == 0 || a.rfind("-U", 0) == 0 || a.rfind("-std=", 0) == 0) out.push_back(a);
  }
  return out;
}

// Host code: a `kernel<<<blocks, ...>>>(...)` launch or a main() driver (PTOAS samples'
// launch.cpp / main.cpp), and no device function defined (a qualifier, a signature, a body).
// Scanned by hand, not with std::regex: its matcher recurses once per character, and a 60 kB line
// without `;`, `{` or `}` overflowed the stack (issue 18).
namespace {
bool wordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool spaceChar(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// `int main (` with word boundaries.
bool definesMain(const std::string& text) {
  for (size_t at = text.find("main"); at != std::string::npos; at = text.find("main", at + 1)) {
    size_t after = at + 4;
    while (after < text.size() && spaceChar(text[after])) ++after;
    if (after >= text.size() || text[after] != '(') continue;
    size_t before = at;
    while (before > 0 && spaceChar(text[before - 1])) --before;
    if (before == at || before < 3 || text.compare(before - 3, 3, "int") != 0) continue;
    if (before == 3 || !wordChar(text[before - 4])) return true;
  }
  return false;
}

// A device qualifier, then a signature up to `)` and the body's `{` before any `;` or `}`.
bool definesDeviceFunction(const std::string& text) {
  for (const char* q : {"__aicore__", "AICORE", "[aicore]"}) {
    size_t len = std::strlen(q);
    for (size_t at = text.find(q); at != std::string::npos; at = text.find(q, at + 1)) {
      if (q[0] == 'A' && ((at > 0 && wordChar(text[at - 1])) || (at + len < text.size() && wordChar(text[at + len]))))
        continue;  // AICORE as a whole word only
      size_t stop = text.find_first_of(";{}", at + len);
      if (stop == std::string::npos || text[stop] != '{') continue;
      size_t last = stop;
      while (last > at + len && spaceChar(text[last - 1])) --last;
      if (last > at + len && text[last - 1] == ')') return true;
    }
  }
  return false;
}
}  // namespace

bool isHostCode(const std::string& text) {
  bool host = text.find("<<<") != std::string::npos || definesMain(text);
  return host && !definesDeviceFunction(text);
}

// The callee of the launch whose `<<<` is at `at`, when it names its template arguments
// (`k<T, 64>`), with its line breaks as spaces; "" otherwise.
std::string explicitLaunchCallee(const std::string& text, size_t at, size_t& start) {
  size_t end = at;
  while (end > 0 && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  if (end == 0 || text[end - 1] != '>') return "";
  size_t i = end;
  for (int depth = 0; i > 0;) {
    char c = text[--i];
    depth += c == '>' ? 1 : c == '<' ? -1 : 0;
    if (depth == 0) break;
  }
  start = i;
  while (start > 0 && std::isspace(static_cast<unsigned char>(text[start - 1]))) --start;
  size_t nameEnd = start;
  while (start > 0 && (std::isalnum(static_cast<unsigned char>(text[start - 1])) || text[start - 1] == '_' ||
                       text[start - 1] == ':'))
    --start;
  if (start == nameEnd) return "";
  std::string callee = text.substr(start, end - start);
  for (char& c : callee)
    if (c == '\n' || c == '\r') c = ' ';
  return callee;
}

// What the device compiler reads that is no host C++, rewritten in place, every line kept where
// it was:
// - PTOAS's `extern "C" [aicore] void k(...)`: the single-bracket qualifier is blanked;
// - a host launch `k<<<grid, nullptr, stream>>>(args)` becomes `k/*<grid, nullptr, stream>*/(args)`,
//   a plain call that the front end knows for a launch (the caller is host code, skipped). A
//   launch that names its template arguments also takes the kernel's address first
//   (`(void)&k<T, 64>, k<T, 64>(args)`), so the entry is instantiated even when an argument's
//   host type does not parse. `launches` receives each launch's offset in the result.
std::string asHostCpp(std::string text, std::vector<size_t>& launches) {
  for (const char* q : {"[aicore]", "[host]"})
    for (size_t at = text.find(q); at != std::string::npos; at = text.find(q, at))
      text.replace(at, std::strlen(q), std::string(std::strlen(q), ' '));
  for (size_t at = text.find("<<<"); at != std::string::npos; at = text.find("<<<", at)) {
    size_t close = text.find(">>>", at + 3);
    size_t stop = text.find_first_of(";{}", at + 3);
    if (close == std::string::npos || (stop != std::string::npos && stop < close) ||
        text.find("*/", at) < close) {
      at += 3;
      continue;
    }
    text.replace(at, 3, "/*<");
    text.replace(close, 3, ">*/");
    size_t start = 0;
    if (std::string callee = explicitLaunchCallee(text, at, start); !callee.empty()) {
      std::string reference = "(void)&" + callee + ", ";
      text.insert(start, reference);
      at += reference.size();
      close += reference.size();
    }
    launches.push_back(at);
    at = close + 3;
  }
  return text;
}

// The device toolchain's headers (the ones the prelude stands in for), by the name an #include
// writes.
bool isKernelHeader(llvm::StringRef name) {
  static const std::set<std::string, std::less<>> kernelHeaders = {
      "kernel_operator.h", "pto/pto-inst.hpp", "pto/comm/pto_comm_inst.hpp", "tensor.h", "acl/acl.h",
      "intrinsic.h",       "runtime.h",        "pto_orchestration_api.h"};
  return kernelHeaders.count(name) > 0;
}

// The file's own text is device code: a device function, an address-space qualifier, a tile or
// orchestration API.
bool writesDeviceCode(const std::string& text) {
  if (definesDeviceFunction(text)) return true;
  static const char* kernelWords[] = {"__aicore__", "__gm__", "__ubuf__", "[aicore]", "__global__", "kernel_entry",
                                      "set_flag(", "wait_flag(", "pipe_barrier(", "add_input(", "add_output(",
                                      "add_inout(", "set_block_num(", "TaskOutputTensors", "pto2_", "PTO2"};
  for (const char* w : kernelWords)
    if (text.find(w) != std::string::npos) return true;
  return false;
}

// Records whether the preprocessor takes a device toolchain header: only the #includes of the
// branches the compile command's defines select are seen.
class KernelHeaderWatcher : public PPCallbacks {
 public:
  explicit KernelHeaderWatcher(bool& found) : found_(found) {}
  void InclusionDirective(SourceLocation, const Token&, StringRef fileName, bool, CharSourceRange, const FileEntry*,
                          StringRef, StringRef, const Module*, SrcMgr::CharacteristicKind) override {
    found_ |= isKernelHeader(fileName);
  }

 private:
  bool& found_;
};

class KernelHeaderAction : public PreprocessOnlyAction {
 public:
  explicit KernelHeaderAction(bool& found) : found_(found) {}
  bool BeginSourceFileAction(CompilerInstance& ci) override {
    ci.getPreprocessor().addPPCallbacks(std::make_unique<KernelHeaderWatcher>(found_));
    return true;
  }

 private:
  bool& found_;
};

// Does the preprocessor, run with the file's own flags (as control code is parsed), include one
// of the device toolchain's headers? The text's #include lines name them also under `#ifdef`s the
// build never takes (cann/pypto's aicore_print_base.h includes the tile headers only for
// __TILE_FWK_AICORE__).
bool preprocessorTakesKernelHeader(const std::string& path, const std::string& text,
                                   const std::vector<std::string>& args, const tooling::FileContentMappings& missing) {
  bool found = false;
  llvm::CrashRecoveryContext().RunSafelyOnThread(
      [&] {
        tooling::runToolOnCodeWithArgs(std::make_unique<KernelHeaderAction>(found), text, args, path,
                                       "ptoverify-cpp", std::make_shared<PCHContainerOperations>(), missing);
      },
      kParseStackBytes);
  return found;
}

std::string resourceDir() {
  if (const char* env = std::getenv("PTOVERIFY_CLANG_RESOURCE_DIR")) return env;
  return PTOVERIFY_CLANG_RESOURCE_DIR;
}


// Generated orchestration fragments (like the fixture upstream's contract test audits) use tensor
// and task-id names they do not declare. Clang drops a call whose argument is undeclared, and
// with it the add_* call the launch rules need, so such a file is parsed once more with each
// undeclared name declared as an opaque external value that converts to whatever it is used as.
// The warnings of the first parse stay: those names are still not modelled.
// The name of "use of undeclared identifier 'NAME'", or "".
std::string undeclaredName(const InputDiagnostic& d) {
  static const std::string prefix = "use of undeclared identifier '";
  if (d.message.rfind(prefix, 0) != 0) return "";
  return d.message.substr(prefix.size(), d.message.find('\'', prefix.size()) - prefix.size());
}

template <class Parse>
void retryOrchestrationWithExternals(Output& out, std::vector<std::string>& args, tooling::FileContentMappings& missing,
                                     Parse&& parse) {
  std::set<std::string> names;
  for (const auto& [n, call] : out.gaps.undeclared) names.insert(n);
  // An orchestration function, or a file whose only submit is of an undeclared form.
  bool orchestration = std::any_of(out.kernels.begin(), out.kernels.end(),
                                   [](const Kernel& k) { return k.kind == KernelKind::Orchestration; }) ||
                       std::any_of(names.begin(), names.end(), isTaskSubmit);
  if (!orchestration || names.empty()) return;
  std::string decls = "#pragma once\nstruct ptoverify_external_value { template <class T> operator T() const; };\n";
  // A submit function the prelude does not declare (another core-type or group form) is still a
  // submit: it returns the task's outputs.
  for (const auto& n : names)
    decls += isTaskSubmit(n) ? "template <class... A> TaskOutputTensors " + n + "(const A&...);\n"
                             : "extern const ptoverify_external_value " + n + ";\n";
  std::string header = std::string(kMissingHeaderDir) + "/ptoverify_orchestration_externals.h";
  missing.emplace_back(header, decls);
  args.insert(args.end(), {"-include", header});
  Output again;
  again.arch = out.arch;
  again.header = out.header;
  parse(again);
  static const std::string notModelled = " (not modelled; the rest of the file is checked)";
  for (auto& d : out.diags) {
    std::string n = undeclaredName(d);
    if (n.empty()) continue;
    if (auto at = d.message.find(notModelled); at != std::string::npos) d.message.erase(at);
    d.message += isTaskSubmit(n) ? " (read as a task submit of the orchestration)"
                                 : " (read as an opaque external value of the orchestration)";
    again.diags.push_back(d);
  }
  out = std::move(again);
}

// Control code reaches vendor headers the machine may not have (securec.h, dlog_pub.h,
// trace/atrace_*.h): read as empty, their names are undeclared, and Clang drops every call and
// statement that uses one (a class member of an unknown type makes the whole class invalid). So
// such a file is parsed once more with each of those names declared as an opaque external: a
// function returning an opaque value where the name is called, a type where it is one, a value
// otherwise. The opaque value converts to anything and combines with anything, so the code that
// uses it stays, and its value is unknown to every rule.
const char* kOpaqueDeclarations = R"(#pragma once
struct ptoverify_opaque {
  ptoverify_opaque() = default;
  template <class... A> ptoverify_opaque(const A&...) {}
  template <class T> operator T() const;
  template <class... A> ptoverify_opaque operator()(const A&...) const;
  template <class A> ptoverify_opaque operator[](const A&) const;
  const ptoverify_opaque* operator->() const;
  ptoverify_opaque operator*() const;
  ptoverify_opaque operator!() const;
  ptoverify_opaque operator~() const;
  ptoverify_opaque operator-() const;
};
#define PTOVERIFY_OPAQUE_OPERATOR(op, result)                                                            \
  template <class A, class B, class = decltype(sizeof(char[__is_base_of(ptoverify_opaque, A) ||          \
                                                           __is_base_of(ptoverify_opaque, B) ? 1 : -1]))> \
  result operator op(const A&, const B&);
PTOVERIFY_OPAQUE_OPERATOR(|, ptoverify_opaque) PTOVERIFY_OPAQUE_OPERATOR(&, ptoverify_opaque)
PTOVERIFY_OPAQUE_OPERATOR(^, ptoverify_opaque) PTOVERIFY_OPAQUE_OPERATOR(+, ptoverify_opaque)
PTOVERIFY_OPAQUE_OPERATOR(-, ptoverify_opaque) PTOVERIFY_OPAQUE_OPERATOR(*, ptoverify_opaque)
PTOVERIFY_OPAQUE_OPERATOR(/, ptoverify_opaque) PTOVERIFY_OPAQUE_OPERATOR(%, ptoverify_opaque)
PTOVERIFY_OPAQUE_OPERATOR(<<, ptoverify_opaque) PTOVERIFY_OPAQUE_OPERATOR(>>, ptoverify_opaque)
PTOVERIFY_OPAQUE_OPERATOR(==, bool) PTOVERIFY_OPAQUE_OPERATOR(!=, bool) PTOVERIFY_OPAQUE_OPERATOR(<, bool)
PTOVERIFY_OPAQUE_OPERATOR(>, bool) PTOVERIFY_OPAQUE_OPERATOR(<=, bool) PTOVERIFY_OPAQUE_OPERATOR(>=, bool)
PTOVERIFY_OPAQUE_OPERATOR(&&, bool) PTOVERIFY_OPAQUE_OPERATOR(||, bool)
#undef PTOVERIFY_OPAQUE_OPERATOR
)";

// Up to three more parses: a name can hide another (the call `dlog_error(AICPU, ...)` is only
// diagnosed once `AICPU` is declared).
template <class Parse>
void retryControlCodeWithOpaqueNames(const std::string& path, Output& out, std::vector<std::string>& args,
                                     tooling::FileContentMappings& missing, Parse&& parse) {
  if (!out.control) return;
  std::set<std::string> types;
  std::map<std::string, bool> values;  // name -> called
  std::string header = std::string(kMissingHeaderDir) + "/ptoverify_opaque_names.h";
  size_t mapping = missing.size();
  for (int round = 0; round < 3; ++round) {
    bool added = false;
    for (const auto& t : out.gaps.unknownTypes) added |= types.insert(t).second;
    for (const auto& [n, call] : out.gaps.undeclared)
      if (!types.count(n) && !values.count(n)) {
        values[n] = call;
        added = true;
      }
    if (!added) break;
    std::string decls = kOpaqueDeclarations;
    for (const auto& t : types) decls += "using " + t + " = ptoverify_opaque;\n";
    for (const auto& [n, call] : values)
      if (!types.count(n))
        decls += call ? "template <class... A> ptoverify_opaque " + n + "(const A&...);\n"
                      : "extern const ptoverify_opaque " + n + ";\n";
    if (round == 0) {
      missing.emplace_back(header, decls);
      args.insert(args.end(), {"-include", header});
    } else {
      missing[mapping].second = decls;
    }
    Output again;
    again.arch = out.arch;
    again.header = out.header;
    again.control = true;
    again.inputFiles = out.inputFiles;
    parse(again);
    out = std::move(again);
  }
  if (types.empty() && values.empty()) return;
  std::vector<std::string> listed(types.begin(), types.end());
  for (const auto& [n, call] : values) listed.push_back(n);
  std::string list;
  for (size_t i = 0; i < listed.size() && i < 12; ++i) list += (i ? ", " : "") + listed[i];
  if (listed.size() > 12) list += ", ...";
  out.diags.push_back({InputDiagnostic::Level::Warning, SourceLoc{path, 1, 1},
                       std::to_string(listed.size()) + " name(s) no header declared (" + list +
                           ") were read as opaque externals: the code using them is kept, their values are unknown"});
}

// A kernel of one core kind only (a vector kernel under `#if defined(__DAV_VEC__)`) is empty in
// the other view, which the toolchain does not compile it for: that view is dropped.
void dropEmptyViews(std::vector<Kernel>& kernels) {
  auto empty = [](const Kernel& k) {
    bool any = false;
    if (k.body) forEachOp(*k.body, [&](const Op&) { any = true; });
    return !any && k.gaps.empty();
  };
  std::vector<bool> drop(kernels.size(), false);
  for (size_t i = 0; i < kernels.size(); ++i) {
    const Kernel& k = kernels[i];
    if (k.view == CoreView::Whole || !empty(k)) continue;
    bool twinHasCode = std::any_of(kernels.begin(), kernels.end(), [&](const Kernel& o) {
      return areViewTwins(o, k) && !empty(o);
    });
    drop[i] = twinHasCode || k.view != CoreView::Aiv;  // both empty: the vector one stays, to say so
  }
  std::vector<Kernel> kept;
  for (size_t i = 0; i < kernels.size(); ++i)
    if (!drop[i]) kept.push_back(std::move(kernels[i]));
  kernels = std::move(kept);
}

// How many of the sync calls written in device code some kernel's model holds; each other one is
// listed with why it is not there.
using SyncCallAt = std::tuple<std::string, int, int>;  // file, line, column

// Where the counted sync calls of a kernel's model are written.
void addSyncCallsOf(const Kernel& k, std::set<SyncCallAt>& into) {
  if (k.body)
    forEachOp(*k.body, [&](const Op& op) {
      if (isCountedSync(op.kind)) into.insert({op.loc.file, op.loc.line, op.loc.col});
    });
}

SyncCoverage syncCoverage(const Output& out) {
  SyncCoverage c;
  std::set<SyncCallAt> modelled;
  for (const auto& k : out.kernels) addSyncCallsOf(k, modelled);
  for (const auto& [at, where] : out.syncWritten) {
    ++c.written;
    // In a function a kernel inlined whole but not in its model: code that does not run there
    // (an arm of a constant condition, after a return); nothing of it is missing from the model.
    if (modelled.count(at) || (where.reached && where.gap.empty())) {
      ++c.modelled;
      continue;
    }
    std::string why = !where.gap.empty() ? "'" + where.function + "' is not modelled whole (" + where.gap + ")"
                                         : "no kernel of this file reaches '" + where.function + "'";
    c.missed.push_back({ModelGap::Kind::SkippedCode, SourceLoc{std::get<0>(at), std::get<1>(at), std::get<2>(at)},
                        "a synchronisation call in no kernel's model: " + why});
  }
  return c;
}

// Per kernel: the sync calls written in the functions it runs, in the code its core view
// compiles, and how many of them its model holds (a call in a function it ran whole that is not
// in its model is in code that does not run there: an arm of a constant condition, after a
// return).
void countKernelSync(Output& out) {
  for (Kernel& k : out.kernels) {
    if (!k.cpp || !k.body) continue;
    std::set<SyncCallAt> mine;
    addSyncCallsOf(k, mine);
    auto facts = std::make_shared<CppFacts>(*k.cpp);
    for (const auto& [at, where] : out.syncWritten) {
      if (!facts->functionsRun.count(where.function) || !where.views.count(k.view)) continue;
      ++facts->syncWritten;
      if (mine.count(at) || where.gap.empty()) ++facts->syncModelled;
    }
    k.cpp = std::move(facts);
  }
}

bool testsCoreView(const std::set<std::string>& macros) {
  for (const char* m : {"__DAV_C220_VEC__", "__DAV_VEC__", "__DAV_C220_CUBE__", "__DAV_CUBE__"})
    if (macros.count(m)) return true;
  return false;
}

// The CCE compiler's `--cce-aicore-arch=dav-c220-vec` (or `-cube`, `dav-c310-...`; also as two
// arguments), taken out of the arguments Clang gets: the core kind the compile is for, Whole for
// a mix compile (`dav-c220`) or none given (each core view a file tests is read).
CoreView takeAicoreArch(std::vector<std::string>& args) {
  CoreView view = CoreView::Whole;
  const std::string flag = "--cce-aicore-arch";
  for (size_t i = 0; i < args.size();) {
    std::string value;
    size_t n = 0;
    if (args[i].rfind(flag + "=", 0) == 0) value = args[i].substr(flag.size() + 1), n = 1;
    else if (args[i] == flag && i + 1 < args.size()) value = args[i + 1], n = 2;
    if (n == 0) {
      ++i;
      continue;
    }
    auto endsWith = [&](const char* s) { return value.size() >= strlen(s) && value.compare(value.size() - strlen(s), strlen(s), s) == 0; };
    view = endsWith("-vec") ? CoreView::Aiv : endsWith("-cube") ? CoreView::Aic : CoreView::Whole;
    args.erase(args.begin() + static_cast<long>(i), args.begin() + static_cast<long>(i + n));
  }
  return view;
}

std::vector<std::string> cubeViewArgs(std::vector<std::string> args, size_t viewDefines) {
  args[viewDefines] = "-D__DAV_C220_CUBE__";
  args[viewDefines + 1] = "-D__DAV_CUBE__";
  return args;
}

Output cubeViewOutput(const Output& out) {
  Output cube;
  cube.arch = out.arch;
  cube.header = out.header;
  cube.inputFiles = out.inputFiles;
  cube.view = CoreView::Aic;
  return cube;
}

// Device code that tests the core macros is compiled once per core kind, as the toolchain does:
// `out` holds the vector view; the cube view (`early`, when it was parsed beside the vector view,
// else parsed now with the cube defines) joins it with its kernels and diagnostics (a diagnostic
// both views give is shown once).
template <class Parse>
void parseCubeView(Output& out, std::vector<std::string>& args, size_t viewDefines, Parse&& parse,
                   std::future<Output>* early) {
  out.view = CoreView::Aiv;
  for (auto& k : out.kernels)
    if (k.frontEnd == FrontEnd::Cpp && k.cpp && k.kind != KernelKind::Orchestration) k.view = CoreView::Aiv;
  for (auto& [at, w] : out.syncWritten) w.views = {CoreView::Aiv};  // what the first parse read is the vector view
  Output cube;
  if (early) {
    cube = early->get();
  } else {
    std::vector<std::string> cubeArgs = cubeViewArgs(args, viewDefines);
    std::swap(args, cubeArgs);
    cube = cubeViewOutput(out);
    parse(cube);
    std::swap(args, cubeArgs);
  }
  for (auto& k : cube.kernels)
    if (k.kind != KernelKind::Orchestration) out.kernels.push_back(std::move(k));
  dropEmptyViews(out.kernels);
  for (const auto& [at, w] : cube.syncWritten) {  // reached in either view is reached
    auto [it, fresh] = out.syncWritten.emplace(at, w);
    if (!fresh) {
      // Read whole in the cube view (a cube-only member the vector view lacks): what counts.
      if (w.reached && w.gap.empty()) it->second.gap.clear();
      it->second.reached |= w.reached;
      it->second.views.insert(CoreView::Aic);
    }
  }
  auto same = [](const InputDiagnostic& a, const InputDiagnostic& b) {
    return a.level == b.level && a.loc == b.loc && a.message == b.message;
  };
  for (auto& d : cube.diags)
    if (std::none_of(out.diags.begin(), out.diags.end(), [&](const InputDiagnostic& o) { return same(o, d); }))
      out.diags.push_back(std::move(d));
}

// The root of pto-isa's real headers when the user's include path holds them (`pto/pto-inst.hpp`
// found in a -I directory), else "".
std::string realPtoIsaRoot(const std::vector<std::string>& includeDirs) {
  std::error_code ec;
  for (const auto& d : includeDirs)
    if (fs::is_regular_file(fs::path(d) / "pto" / "pto-inst.hpp", ec)) return d;
  return "";
}

bool definesMacro(const std::vector<std::string>& args, const std::string& name) {
  return std::any_of(args.begin(), args.end(), [&](const std::string& a) {
    return a.rfind("-D" + name, 0) == 0 && (a.size() == name.size() + 2 || a[name.size() + 2] == '=');
  });
}

// The headers device code is read with. Under pto-isa's real headers (the user's include path has
// them): only the CCE compiler's builtins are stood in for, the headers are library code
// (`--system-header-prefix=pto/`: their functions are never roots, and an instruction is known by
// its declaration there), and the target arch the headers need is defined unless the build does.
// Without them: the prelude's stand-in for pto-isa.
void addDeviceHeaders(std::vector<std::string>& args, const std::string& prelude, const std::string& ptoIsaRoot,
                      const std::string& arch, std::vector<InputDiagnostic>& diags, const std::string& path) {
  args.insert(args.end(), {"-include", prelude + "/ptoverify_cce.h", "-I", prelude + "/stubinc"});
  if (ptoIsaRoot.empty()) {
    args.insert(args.end(), {"-include", prelude + "/ptoverify_prelude.h", "-I", prelude + "/standin"});
    return;
  }
  args.insert(args.end(), {"-include", prelude + "/ptoverify_cce_intrinsics.h", "--system-header-prefix=pto/"});
  bool a5 = arch == "a5";
  if (!definesMacro(args, "PTO_NPU_ARCH_A2A3") && !definesMacro(args, "PTO_NPU_ARCH_A5"))
    args.push_back(a5 ? "-DPTO_NPU_ARCH_A5" : "-DPTO_NPU_ARCH_A2A3");
  if (!definesMacro(args, "__CCE_AICORE__")) args.push_back(a5 ? "-D__CCE_AICORE__=310" : "-D__CCE_AICORE__=220");
  diags.push_back({InputDiagnostic::Level::Note, SourceLoc{path, 1, 1},
                   "read against pto-isa's headers in " + ptoIsaRoot + " (the CCE compiler's builtins stood in for)"});
}

}  // namespace

LoadedFile load(const std::string& path, const std::string& text, const FrontendOptions& opts) {
  LoadedFile result;
  result.path = path;
  Output out;
  out.arch = opts.defaultArch;
  out.header = isCppHeaderPath(path);
  std::string prelude = preludeDir();
  if (prelude.empty() || !fs::exists(fs::path(prelude) / "ptoverify_prelude.h")) {
    result.diagnostics.push_back({InputDiagnostic::Level::Error, SourceLoc{path, 1, 1},
                                  "the C++ prelude was not found (looked for share/ptoverify/prelude beside this "
                                  "installation; set PTOVERIFY_PRELUDE to its directory)"});
    return result;
  }
  if (isHostCode(text)) {
    result.diagnostics.push_back({InputDiagnostic::Level::Note, SourceLoc{path, 1, 1},
                                  "host code (a kernel launcher or test driver: '<<<...>>>' launch or main()); "
                                  "no device kernel to check, skipped"});
    return result;
  }
  std::error_code ec;
  std::string abs = fs::absolute(path, ec).string();
  // No error limit: past it Clang stops instantiating templates, and the kernel bodies reached
  // from a root would silently vanish.
  std::vector<std::string> args = {"-std=c++20", "-x", "c++", "-w", "-fno-spell-checking", "-fno-caret-diagnostics", "-ferror-limit=0"};
  std::string rd = resourceDir();
  if (!rd.empty()) args.insert(args.end(), {"-resource-dir", rd});
  std::vector<std::string> extra = compileFlags(opts.compileCommandsDir, path, opts, result.diagnostics);
  args.insert(args.end(), extra.begin(), extra.end());
  args.insert(args.end(), opts.extraCompilerArgs.begin(), opts.extraCompilerArgs.end());
  std::set<std::string> names, seen;
  const CoreView compiledFor = takeAicoreArch(args);
  canonicalizeIncludeDirs(args);
  std::vector<std::string> searched = includeDirsOf(args);
  searched.push_back(prelude + "/vendor");
  collectIncludes(includesInText(text), fs::path(abs).parent_path(), searched, names, seen);
  tooling::FileContentMappings missing;
  for (const auto& n : names) missing.emplace_back(std::string(kMissingHeaderDir) + "/" + n, "#pragma once\n");
  missing.emplace_back(std::string(kMissingHeaderDir) + "/ptoverify_isa_ops.h", ops::preludeDeclarations());
  // The prelude stands in for the device toolchain's headers; control code is parsed as it is
  // written (the prelude's `__gm__` and `DataType` would change its meaning). Control code is a
  // file whose own text writes no device code and whose preprocessing takes no toolchain header;
  // the preprocessor runs only when the #include lines name one.
  std::vector<std::string> controlArgs = args;
  controlArgs.insert(controlArgs.end(), {"-idirafter", prelude + "/vendor", "-idirafter", kMissingHeaderDir});
  out.control = !writesDeviceCode(text) &&
                (std::none_of(names.begin(), names.end(), [](const std::string& n) { return isKernelHeader(n); }) ||
                 !preprocessorTakesKernelHeader(path, text, controlArgs, missing));
  out.inputFiles = opts.inputFiles;
  size_t viewDefines = args.size();  // the core view's two defines (the vector view first)
  if (out.control) {
    args = std::move(controlArgs);
  } else {
    args.insert(args.end(), {"-D__DAV_C220_VEC__", "-D__DAV_VEC__"});
    if (compiledFor == CoreView::Aic) args = cubeViewArgs(args, viewDefines);
    out.view = compiledFor;
    out.oneCore = compiledFor != CoreView::Whole;
    addDeviceHeaders(args, prelude, realPtoIsaRoot(searched), opts.defaultArch, result.diagnostics, path);
    // After every directory of the build, so a real SDK wins: empty files for headers found nowhere.
    args.insert(args.end(), {"-idirafter", kMissingHeaderDir});
  }
  // Parsed under the path as given, so every location reads the way the user named the file.
  // On a thread of its own with Clang's 8 MB stack; guardParseStack cuts the parse off before
  // nesting that bracket limits do not bound (an `else if` chain, a unary-operator run) uses it up.
  std::vector<size_t> launches;
  const std::string hostCpp = asHostCpp(text, launches);
  // A launch in an included user header is rewritten there too (the header is read as rewritten),
  // and the function that writes it is host code like one in the file given.
  std::map<std::string, std::vector<size_t>> headerLaunches;
  // pto-isa's own headers spell the device qualifier `[aicore]`: blanked there as in the file.
  if (!out.control)
    for (const auto& header : seen) {
      auto buffer = llvm::MemoryBuffer::getFile(header);
      if (!buffer) continue;
      llvm::StringRef original = (*buffer)->getBuffer();
      if (original.find("<<<") == llvm::StringRef::npos && original.find("[aicore]") == llvm::StringRef::npos) continue;
      std::vector<size_t> at;
      std::string rewritten = asHostCpp(original.str(), at);
      if (rewritten == original) continue;
      std::error_code ec;
      std::string canonical = fs::weakly_canonical(header, ec).string();
      if (canonical != header) missing.emplace_back(canonical, rewritten);
      missing.emplace_back(header, std::move(rewritten));
      if (!at.empty()) headerLaunches[canonical] = std::move(at);
    }
  auto parseWith = [](Output& into, const std::string& code, const std::vector<std::string>& withArgs,
                      const std::string& as, const tooling::FileContentMappings& mapped,
                      const std::vector<size_t>& launchAt, const std::map<std::string, std::vector<size_t>>& inHeaders) {
    into.launchOffsets = launchAt;
    into.headerLaunches = inHeaders;
    llvm::CrashRecoveryContext().RunSafelyOnThread(
        [&] {
          tooling::runToolOnCodeWithArgs(std::make_unique<Action>(into), code, withArgs, as, "ptoverify-cpp",
                                         std::make_shared<PCHContainerOperations>(), mapped);
        },
        kParseStackBytes);
  };
  auto parse = [&](Output& into) { parseWith(into, hostCpp, args, path, missing, launches, headerLaunches); };
  // With a thread to spare, device code whose own text names a core macro has its cube view parsed
  // beside the vector view, from copies of all a parse reads. It is used only when the vector view
  // tests a core macro and no retry changed the arguments or the mapped files.
  std::future<Output> cubeEarly;
  const std::vector<std::string> argsBefore = args;
  const size_t mappedBefore = missing.size();
  if (opts.viewsSideBySide && !out.control && !out.oneCore && text.find("DAV_") != std::string::npos)
    cubeEarly = std::async(std::launch::async, [=, cube = cubeViewOutput(out),
                                                cubeArgs = cubeViewArgs(args, viewDefines)]() mutable {
      parseWith(cube, hostCpp, cubeArgs, path, missing, launches, headerLaunches);
      return std::move(cube);
    });
  parse(out);
  retryOrchestrationWithExternals(out, args, missing, parse);
  retryControlCodeWithOpaqueNames(path, out, args, missing, parse);
  bool sameInputs = args == argsBefore && missing.size() == mappedBefore;
  if (!out.control && !out.oneCore && testsCoreView(out.testedMacros))
    parseCubeView(out, args, viewDefines, parse, cubeEarly.valid() && sameInputs ? &cubeEarly : nullptr);
  if (cubeEarly.valid()) cubeEarly.wait();  // not needed after all: it reads only its own copies
  // A header with no kernel entry is library code that may need its includer's includes to
  // parse: what fails in it alone is shown, but it is not an input error.
  if (out.header && out.kernels.empty())
    for (auto& d : out.diags)
      if (d.level == InputDiagnostic::Level::Error) {
        d.level = InputDiagnostic::Level::Warning;
        d.message += " (in a header parsed on its own, with no kernel entry)";
      }
  result.sync = syncCoverage(out);
  countKernelSync(out);
  if (!result.sync.missed.empty()) {
    const ModelGap& first = result.sync.missed.front();
    result.diagnostics.push_back({InputDiagnostic::Level::Warning, first.loc,
                                  std::to_string(result.sync.missed.size()) + " of " + std::to_string(result.sync.written) +
                                      " synchronisation call(s) written in device code are in no kernel's model (each is "
                                      "listed as not modelled); this one: " + first.what.substr(first.what.find(": ") + 2)});
  }
  result.diagnostics.insert(result.diagnostics.end(), out.diags.begin(), out.diags.end());
  result.kernels = std::move(out.kernels);
  result.includedFiles = std::move(out.included);
  result.coverage = out.coverage;
  return result;
}

void registerFrontend() { registerCppLoader(&load); }

}  // namespace ptov::cpp
