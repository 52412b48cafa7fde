#pragma once
// Device-side control C++ (AICPU ctrl / sche code, read by the pypto-machine-code-review timing
// rules) -> a kernel of kind "machine" per function, carrying MachineFacts: field writes, the
// function's calls as a branch/loop tree, and its spin waits with every value their timeout can take.
#include <functional>
#include <map>
#include <vector>
#include <string>

#include "analyzer/model/cpp_facts.h"
#include "analyzer/model/model.h"

namespace clang {
class ASTContext;
class CallExpr;
class FunctionDecl;
}  // namespace clang

namespace ptov::cpp {

// Every call of a function of the file, by callee (canonical declaration).
struct CallSite {
  const clang::CallExpr* call;
  const clang::FunctionDecl* caller;
};
using CallSites = std::map<const clang::FunctionDecl*, std::vector<CallSite>>;

// Why a function was not read whole by Clang ("" when it was): see Coverage in cpp_frontend.cpp.
using GapOf = std::function<std::string(const clang::FunctionDecl*)>;

// The function's facts, added to `m` (which brings what the caller knows: the entry points that
// reach it); the kernel has an empty op body. `hasFacts` says whether it has anything
// the timing rules read (a field write, a call or a spin wait); only then is `cpp` set, with the
// file's constants (`file`) where it has a spin wait. Functions of its call tree that `gapOf`
// says were cut are listed in MachineFacts::cut.
Kernel modelMachineFunction(clang::ASTContext& ctx, const clang::FunctionDecl& fn, const std::string& arch,
                            const CppFacts& file, MachineFacts m, bool& hasFacts, const GapOf& gapOf,
                            const CallSites* callSites = nullptr);

}  // namespace ptov::cpp
