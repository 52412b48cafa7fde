#pragma once
// Clang AST of one kernel root -> the model's Stmt tree and CppFacts. User functions the root
// calls are inlined (their parameters bound to the call's arguments), so a fused kernel's phases,
// barriers and publish helpers land in one tree.
#include <set>
#include <string>
#include <vector>

#include "analyzer/model/cpp_facts.h"
#include "analyzer/model/model.h"

namespace clang {
class ASTContext;
class Expr;
class FunctionDecl;
class SourceLocation;
}  // namespace clang

namespace ptov::cpp {

struct TranslateResult {
  Kernel kernel;
  std::vector<InputDiagnostic> notes;  // what could not be modelled
};

// `userFile(loc)`: is a declaration in the user's sources (not the prelude or a system header)?
TranslateResult translateKernel(clang::ASTContext& ctx, const clang::FunctionDecl& root, const std::string& arch,
                                const std::set<std::string>& testedMacros);

// True when the function calls (directly) something the model cares about: a sync, memory,
// barrier, lane-id or args[] operation.
bool callsModelledOp(const clang::FunctionDecl& fn);

// The unqualified name a call goes to (also for unresolved calls in templates), "" if none.
std::string calleeName(const clang::Expr* call);

SourceLoc locOf(clang::ASTContext& ctx, clang::SourceLocation loc);

}  // namespace ptov::cpp
