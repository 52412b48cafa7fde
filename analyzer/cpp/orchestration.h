#pragma once
// Orchestration (host) code: how each kernel is launched. One Kernel of kind "orchestration"
// per function, with no ops; its CppFacts::launches hold the submitted tasks.
#include "analyzer/model/model.h"

namespace clang {
class ASTContext;
class FunctionDecl;
}  // namespace clang

namespace ptov::cpp {

// What the collector could not resolve (a dependency list that is not a local array) goes to
// `notes`.
Kernel modelOrchestration(clang::ASTContext& ctx, const clang::FunctionDecl& fn, std::vector<InputDiagnostic>& notes);

// rt_submit_aiv_task, rt_submit_aic_task and every other rt_submit_*task form.
bool isTaskSubmit(const std::string& callee);

}  // namespace ptov::cpp
