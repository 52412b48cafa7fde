#include "analyzer/cpp/cpp_frontend.h"

#include "analyzer/numbers.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/ASTMatchers/ASTMatchFinder.h>
#include <clang/ASTMatchers/ASTMatchers.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/CrashRecoveryContext.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include "analyzer/cpp/machine.h"
#include "analyzer/cpp/orchestration.h"
#include "analyzer/cpp/translate.h"
#include "analyzer/model/isa_table.h"

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

std::string preludeDir() {
  if (const char* env = std::getenv("PTOVERIFY_PRELUDE")) return env;
  fs::path installed = fs::path(executableDir()).parent_path() / "share" / "ptoverify" / "prelude";
  if (fs::exists(installed / "ptoverify_prelude.h")) return installed.string();
  return PTOVERIFY_SOURCE_PRELUDE;
}

namespace {

// The stack of the thread each file is parsed on (see `parse` in load).
constexpr unsigned kParseStackBytes = 512u << 20;

// Clang's diagnostics -> input diagnostics. Errors that only mean "this name is unknown" are
// warnings: the rest of the file is still modelled, and the message says what was not.
class Collector : public DiagnosticConsumer {
 public:
  explicit Collector(std::vector<InputDiagnostic>& out) : out_(out) {}
  void HandleDiagnostic(DiagnosticsEngine::Level level, const Diagnostic& info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < DiagnosticsEngine::Error) return;
    llvm::SmallString<256> msg;
    info.FormatDiagnostic(msg);
    SourceLoc loc{"", 0, 0};
    if (info.hasSourceManager() && info.getLocation().isValid()) {
      PresumedLoc p = info.getSourceManager().getPresumedLoc(info.getSourceManager().getExpansionLoc(info.getLocation()));
      if (p.isValid()) loc = SourceLoc{p.getFilename(), static_cast<int>(p.getLine()), static_cast<int>(p.getColumn())};
    }
    std::string m = msg.str().str();
    static const char* unknownName[] = {"undeclared identifier", "unknown type name", "no member named",
                                        "no template named", "unknown template name", "no matching function",
                                        "not a class, namespace, or enumeration", "no type named"};
    bool unknown = false;
    for (const char* u : unknownName) unknown |= m.find(u) != std::string::npos;
    if (unknown)
      out_.push_back({InputDiagnostic::Level::Warning, loc, m + " (not modelled; the rest of the file is checked)"});
    else
      out_.push_back({InputDiagnostic::Level::Error, loc, m});
    if (out_.size() > 50) out_.resize(50);
  }

 private:
  std::vector<InputDiagnostic>& out_;
};

// Macros the source tests (#ifdef __DAV_CUBE__ ...), and headers that were not found.
class PPWatcher : public PPCallbacks {
 public:
  PPWatcher(std::set<std::string>& macros, std::map<std::string, NamedConstant>& constants,
            std::vector<InputDiagnostic>& diags, std::vector<std::string>& included, SourceManager& sm)
      : macros_(macros), constants_(constants), diags_(diags), included_(included), sm_(sm) {}

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
      PresumedLoc p = sm_.getPresumedLoc(name.getLocation());
      SourceLoc loc = p.isValid() ? SourceLoc{p.getFilename(), static_cast<int>(p.getLine()), static_cast<int>(p.getColumn())}
                                  : SourceLoc{"", 0, 0};
      constants_[name.getIdentifierInfo()->getName().str()] = NamedConstant{loc, *value, ""};
    }
  }
  void Ifdef(SourceLocation, const Token& name, const MacroDefinition&) override { record(name); }
  void Ifndef(SourceLocation, const Token& name, const MacroDefinition&) override { record(name); }
  void Defined(const Token& name, const MacroDefinition&, SourceRange) override { record(name); }
  void InclusionDirective(SourceLocation hash, const Token&, StringRef fileName, bool, CharSourceRange,
                          const FileEntry* file, StringRef searchPath, StringRef, const Module*,
                          SrcMgr::CharacteristicKind) override {
    if (file && searchPath != kMissingHeaderDir && inUserCode(sm_, hash)) included_.push_back(normalisedPath(file->getName().str()));
    if (!file || searchPath != kMissingHeaderDir || fileName == "ptoverify_isa_ops.h") return;
    PresumedLoc p = sm_.getPresumedLoc(hash);
    if (p.isInvalid()) return;
    diags_.push_back({InputDiagnostic::Level::Warning,
                      SourceLoc{p.getFilename(), static_cast<int>(p.getLine()), static_cast<int>(p.getColumn())},
                      "header '" + fileName.str() + "' not found; read as empty (what it declares is not modelled)"});
  }

 private:
  void record(const Token& t) {
    if (const IdentifierInfo* ii = t.getIdentifierInfo()) macros_.insert(ii->getName().str());
  }
  std::set<std::string>& macros_;
  std::map<std::string, NamedConstant>& constants_;
  std::vector<InputDiagnostic>& diags_;
  std::vector<std::string>& included_;  // the user's includes that exist, absolute
  SourceManager& sm_;
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
  std::string arch;
  bool header = false;  // the input is a header (.h, .hpp, ...): library code unless an entry
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
  }

 private:
  Output& out_;
  std::vector<Decl*> top_;

  static const FunctionDecl* canonical(const FunctionDecl* fd) {
    if (const FunctionDecl* pattern = fd->getTemplateInstantiationPattern()) fd = pattern;
    return fd->getCanonicalDecl();
  }

  void modelKernels(ASTContext& ctx, const FileFacts& facts) {
    // Who calls whom among the user's functions (instantiations count for their template).
    std::set<const FunctionDecl*> called, relevant, orchestration;
    std::map<const FunctionDecl*, std::set<const FunctionDecl*>> callees;
    for (const FunctionDecl* fd : facts.functions) {
      struct Calls : RecursiveASTVisitor<Calls> {
        std::set<const FunctionDecl*> out;
        bool orchestrates = false;
        bool VisitCallExpr(CallExpr* c) {
          if (const FunctionDecl* t = c->getDirectCallee()) out.insert(canonical(t));
          if (const auto* ul = dyn_cast<UnresolvedLookupExpr>(c->getCallee()->IgnoreParenImpCasts()))
            for (const NamedDecl* d : ul->decls())
            {
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
      const FunctionDecl* self = canonical(fd);
      for (const FunctionDecl* c : calls.out)
        if (c != self) called.insert(c), callees[self].insert(c);
      if (calls.orchestrates) orchestration.insert(self);
      if (callsModelledOp(*fd)) relevant.insert(self);
    }
    // Relevant: calls a modelled op, directly or through callees.
    for (bool changed = true; changed;) {
      changed = false;
      for (const auto& [f, cs] : callees)
        if (!relevant.count(f))
          for (const FunctionDecl* c : cs)
            if (relevant.count(c)) {
              relevant.insert(f);
              changed = true;
              break;
            }
    }
    const SourceManager& sm = ctx.getSourceManager();
    bool kernelInMainFile = false;  // a kernel, wrapper or orchestration function of the file itself
    std::set<const FunctionDecl*> done;
    for (const FunctionDecl* fd : facts.functions) {
      const FunctionDecl* self = canonical(fd);
      if (fd->isTemplateInstantiation() || !done.insert(self).second) continue;
      bool inMainFile = sm.isInMainFile(sm.getExpansionLoc(fd->getLocation()));
      if (orchestration.count(self)) {
        kernelInMainFile |= inMainFile;
        Kernel k = modelOrchestration(ctx, *fd, out_.diags);
        k.cpp = std::make_shared<CppFacts>(withFileFacts(*k.cpp, facts));
        out_.kernels.push_back(std::move(k));
        continue;
      }
      bool entry = fd->getNameAsString() == "kernel_entry";
      if (!entry && (called.count(self) || !relevant.count(self))) continue;
      if (isa<CXXMethodDecl>(fd)) continue;
      // A header given as an input (or found in a directory) is library code: only a device entry
      // (extern "C", kernel_entry) in it is a root; helpers are checked where a kernel calls them.
      if (out_.header && !entry && !fd->isExternC()) {
        libraryHelpers_.push_back(fd->getNameAsString());
        continue;
      }
      // A template is a kernel only where an entry instantiates it: its pattern has no types.
      if (fd->isDependentContext()) {
        out_.diags.push_back({InputDiagnostic::Level::Note, locOf(ctx, fd->getLocation()),
                              "template '" + fd->getNameAsString() +
                                  "' is not instantiated by a kernel of this file; it is checked where an entry "
                                  "instantiates it"});
        continue;
      }
      kernelInMainFile |= inMainFile;
      TranslateResult r = translateKernel(ctx, *fd, out_.arch, out_.testedMacros);
      r.kernel.cpp = std::make_shared<CppFacts>(withFileFacts(*r.kernel.cpp, facts));
      out_.kernels.push_back(std::move(r.kernel));
      out_.diags.insert(out_.diags.end(), r.notes.begin(), r.notes.end());
    }
    if (!kernelInMainFile && !out_.header) modelMachineCode(ctx, facts);
    if (!libraryHelpers_.empty() && out_.kernels.empty())
      out_.diags.push_back({InputDiagnostic::Level::Note, SourceLoc{sm.getFileEntryForID(sm.getMainFileID())->getName().str(), 1, 1},
                            "header with no kernel entry (" + std::to_string(libraryHelpers_.size()) +
                                " helper function(s), first '" + libraryHelpers_.front() +
                                "'): library code, checked where a kernel includes it"});
  }
  std::vector<std::string> libraryHelpers_;

  // A file that defines no kernel, wrapper or orchestration function is control code (AICPU
  // ctrl / sche, seed 003): each function of the file itself (not of its headers) is a
  // "machine" kernel.
  void modelMachineCode(ASTContext& ctx, const FileFacts& facts) {
    const SourceManager& sm = ctx.getSourceManager();
    CppFacts file = withFileFacts(CppFacts{}, facts);  // the file's constants, `#define`s included
    for (const auto& [name, c] : out_.macroConstants) file.constants.emplace(name, c);
    std::set<const FunctionDecl*> done;
    for (const FunctionDecl* fd : facts.functions) {
      if (fd->isTemplateInstantiation() || !done.insert(canonical(fd)).second) continue;
      if (!sm.isInMainFile(sm.getExpansionLoc(fd->getLocation()))) continue;
      bool hasFacts = false;
      Kernel k = modelMachineFunction(ctx, *fd, out_.arch, hasFacts);
      if (!hasFacts) continue;
      auto withFile = std::make_shared<CppFacts>(file);
      withFile->machine = k.cpp->machine;
      k.cpp = withFile;
      out_.kernels.push_back(std::move(k));
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
    ci.getPreprocessor().addPPCallbacks(
        std::make_unique<PPWatcher>(out_.testedMacros, out_.macroConstants, out_.diags, out_.included,
                                    ci.getSourceManager()));
    return true;
  }
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance& ci, StringRef) override {
    ci.getDiagnostics().setClient(new Collector(out_.diags), true);
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

void collectIncludes(const std::string& text, const fs::path& dir, std::set<std::string>& names,
                     std::set<std::string>& seen, int depth) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::string name = includedName(line);
    if (name.empty()) continue;
    names.insert(name);
    fs::path local = dir / name;
    std::error_code ec;
    if (depth < 8 && fs::is_regular_file(local, ec) && seen.insert(fs::weakly_canonical(local, ec).string()).second) {
      std::ifstream f(local);
      std::stringstream ss;
      ss << f.rdbuf();
      collectIncludes(ss.str(), local.parent_path(), names, seen, depth + 1);
    }
  }
}

// -I/-D/-U/-std/-isystem/-include flags of the file's compile command (`-p DIR`), paths absolute.
std::vector<std::string> compileFlags(const std::string& dir, const std::string& path, std::vector<InputDiagnostic>& diags) {
  std::vector<std::string> out;
  if (dir.empty()) return out;
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
  }
  std::error_code ec;
  std::string abs = fs::absolute(path, ec).string();
  auto cmds = db->getCompileCommands(abs);
  if (cmds.empty()) return out;
  const auto& cmd = cmds.front();
  const auto& args = cmd.CommandLine;
  auto absolute = [&](const std::string& p) { return fs::path(p).is_absolute() ? p : (fs::path(cmd.Directory) / p).string(); };
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

// The prelude's declarations of the PTO-ISA table's instructions, one catch-all each.
const std::string& isaDeclarations() {
  static const std::string text = [] {
    std::string t = "#pragma once\n";
    for (const auto& n : ptoisa::mnemonics()) t += "PTOVERIFY_TILE_OP(" + n + ")\n";
    return t;
  }();
  return text;
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

// PTOAS emits `extern "C" [aicore] void k(...)`: the single-bracket qualifier is no C++ syntax.
// It is blanked with spaces of the same length, so every column stays where it was.
std::string withoutBracketQualifiers(std::string text) {
  for (const char* q : {"[aicore]", "[host]"})
    for (size_t at = text.find(q); at != std::string::npos; at = text.find(q, at))
      text.replace(at, std::strlen(q), std::string(std::strlen(q), ' '));
  return text;
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
  for (const auto& d : out.diags)
    if (std::string n = undeclaredName(d); !n.empty()) names.insert(n);
  // An orchestration function, or a file whose only submit is of an undeclared form.
  bool orchestration = std::any_of(out.kernels.begin(), out.kernels.end(),
                                   [](const Kernel& k) { return k.kind == "orchestration"; }) ||
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

}  // namespace

LoadedFile load(const std::string& path, const std::string& text, const FrontendOptions& opts) {
  LoadedFile result;
  result.path = path;
  Output out;
  out.arch = opts.defaultArch;
  std::string ext = fs::path(path).extension().string();
  out.header = ext == ".h" || ext == ".hpp" || ext == ".hxx" || ext == ".inc";
  std::string prelude = preludeDir();
  if (prelude.empty() || !fs::exists(fs::path(prelude) / "ptoverify_prelude.h")) {
    result.diagnostics.push_back({InputDiagnostic::Level::Error, SourceLoc{path, 1, 1},
                                  "the C++ prelude was not found (set PTOVERIFY_PRELUDE to its directory)"});
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
  std::vector<std::string> extra = compileFlags(opts.compileCommandsDir, path, result.diagnostics);
  args.insert(args.end(), extra.begin(), extra.end());
  args.insert(args.end(), opts.extraCompilerArgs.begin(), opts.extraCompilerArgs.end());
  args.insert(args.end(), {"-include", prelude + "/ptoverify_prelude.h", "-I", prelude + "/stubinc",
                           "-D__DAV_C220_VEC__", "-D__DAV_VEC__", "-idirafter", kMissingHeaderDir});
  tooling::FileContentMappings missing;
  std::set<std::string> names, seen;
  collectIncludes(text, fs::path(abs).parent_path(), names, seen, 0);
  for (const auto& n : names) missing.emplace_back(std::string(kMissingHeaderDir) + "/" + n, "#pragma once\n");
  missing.emplace_back(std::string(kMissingHeaderDir) + "/ptoverify_isa_ops.h", isaDeclarations());
  // Parsed under the path as given, so every location reads the way the user named the file.
  // On a thread of its own with a large stack: Clang's parser and Sema recurse once per level of
  // an `else if` chain or a unary-operator run, which bracket limits do not bound, and 10,000
  // chained `else if` overflowed the 8 MB of an ordinary thread (issue 18). The pages are
  // committed only as they are used.
  auto parse = [&](Output& into) {
    llvm::CrashRecoveryContext().RunSafelyOnThread(
        [&] {
          tooling::runToolOnCodeWithArgs(std::make_unique<Action>(into), withoutBracketQualifiers(text), args, path,
                                         "ptoverify-cpp", std::make_shared<PCHContainerOperations>(), missing);
        },
        kParseStackBytes);
  };
  parse(out);
  retryOrchestrationWithExternals(out, args, missing, parse);
  // A header with no kernel entry is library code that may need its includer's includes to
  // parse: what fails in it alone is shown, but it is not an input error.
  if (out.header && out.kernels.empty())
    for (auto& d : out.diags)
      if (d.level == InputDiagnostic::Level::Error) {
        d.level = InputDiagnostic::Level::Warning;
        d.message += " (in a header parsed on its own, with no kernel entry)";
      }
  result.diagnostics.insert(result.diagnostics.end(), out.diags.begin(), out.diags.end());
  result.kernels = std::move(out.kernels);
  result.includedFiles = std::move(out.included);
  return result;
}

void registerFrontend() { registerCppLoader(&load); }

}  // namespace ptov::cpp
