#pragma once
// Orchestration (host) code: how each kernel is launched. One Kernel of kind "orchestration"
// per function, with no ops; its CppFacts::launches hold the submitted tasks.
#include "analyzer/model/model.h"

namespace clang {
class ASTContext;
class FunctionDecl;
}  // namespace clang

namespace ptov::cpp {

Kernel modelOrchestration(clang::ASTContext& ctx, const clang::FunctionDecl& fn);

}  // namespace ptov::cpp
