#pragma once
// Clang AST of one kernel root -> the model's Stmt tree and CppFacts. User functions the root
// calls are inlined (their parameters bound to the call's arguments), so a fused kernel's phases,
// barriers and publish helpers land in one tree.
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analyzer/model/cpp_facts.h"
#include "analyzer/model/op_registry.h"
#include "analyzer/model/model.h"

namespace clang {
class ASTContext;
class Expr;
class FunctionDecl;
class OverloadExpr;
class SourceLocation;
class SourceManager;
class SourceRange;
class Stmt;
class SwitchStmt;
class ValueDecl;
}  // namespace clang

namespace ptov::cpp {

struct TranslateResult {
  Kernel kernel;
  std::vector<InputDiagnostic> notes;  // what could not be modelled
  std::set<const clang::FunctionDecl*> reached;  // the functions inlined (their patterns, canonical)
  // Where a call Clang could not resolve was still read (file, line): the error there dropped
  // nothing the model lacks.
  std::set<std::pair<std::string, int>> recoveredLines;
};

// A function's template pattern (itself when it is none), canonical.
const clang::FunctionDecl* patternOf(const clang::FunctionDecl* fd);

// `view` is the core view the file was parsed in, Whole when it tests none.
TranslateResult translateKernel(clang::ASTContext& ctx, const clang::FunctionDecl& root, const std::string& arch,
                                const std::set<std::string>& testedMacros, CoreView view);

// True when the function calls (directly) something the model cares about: a sync, memory,
// barrier, lane-id or args[] operation.
bool callsModelledOp(const clang::FunctionDecl& fn);
// Whether `fn`'s body may change `object` (one of its parameters): a field assigned, its address
// taken, a non-const method called on it, or passed on by non-const reference.
bool mayChangeObject(const clang::FunctionDecl& fn, const clang::ValueDecl* object);

// The unqualified name a call goes to (also for unresolved calls in templates), "" if none.
std::string calleeName(const clang::Expr* call);

SourceLoc locOf(clang::ASTContext& ctx, clang::SourceLocation loc);

// Headers that do not exist are given as empty files in this (virtual) directory.
inline constexpr const char* kMissingHeaderDir = "/__ptoverify_missing_headers__";

// Is `loc` in the user's sources: not a system header, the prelude, a stub or a missing header?
bool inUserCode(const clang::SourceManager& sm, clang::SourceLocation loc);
// The integer value of a constant expression (constexpr, enums, casts), if it has one.
std::optional<int64_t> evalInt(const clang::ASTContext& ctx, const clang::Expr* e);
// The source spelling of a range (a range inside a macro's expansion: the macro's invocation).
std::string sourceText(const clang::ASTContext& ctx, clang::SourceRange range);
// One label group of a switch (`case 1: case 2:`, `default:`) and its statements up to its
// `break`; a fall-through into the next group is not followed.
struct CaseGroup {
  std::vector<const clang::Expr*> values;  // the case expressions
  bool isDefault = false;
  std::vector<const clang::Stmt*> stmts;
};
// The groups of a switch whose body is a block, in order; nullopt for any other body.
std::optional<std::vector<CaseGroup>> caseGroups(const clang::SwitchStmt& sw);
// The group a constant selector runs: the one a label of which equals it, else the default
// group; null when neither.
const CaseGroup* caseSelected(const std::vector<CaseGroup>& groups, int64_t selector, const clang::ASTContext& ctx);
// The PTO-ISA table instruction a callee is: the prelude's (or a stand-in header's) declaration of
// one of the table's C++ names. A user's function is never an instruction, whatever its name.
const ops::OpRow* instrOf(const clang::FunctionDecl* fd);
// The same for a call Clang left unresolved: the first candidate that is an instruction.
const ops::OpRow* instrOfLookup(const clang::OverloadExpr& lookup);

}  // namespace ptov::cpp
