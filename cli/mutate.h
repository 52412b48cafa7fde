#pragma once
// `ptoverify mutate`: mutation operators over the model's source locations, applied to the text
// of known-good kernels, and the kill-rate report that gates the rules (docs/corpus.md).
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include "cli/check.h"

namespace ptov {

struct TextEdit {
  size_t offset = 0;  // byte offset in the original text
  size_t length = 0;  // bytes replaced
  std::string replacement;
};

struct Mutant {
  std::string op;    // operator name
  std::string file;
  int line = 0;      // where the mutation applies (original text)
  std::string what;  // one line, e.g. "delete 'pto.fence.barrier_all'"
  std::vector<TextEdit> edits;
  std::string equivalentWhy;  // non-empty: provably harmless to every contract (not generated as a kill target)
};

struct MutationOperator {
  std::string name;
  std::vector<std::string> intendedRules;  // rule ids expected to kill its mutants
  std::string summary;
  bool gated = true;  // counts toward the kill-rate gate (false: no rule exists for it yet)
};

const std::vector<MutationOperator>& mutationOperators();

// All mutants of one file (operators filtered by name; empty = all).
std::vector<Mutant> generateMutants(const std::string& path, const std::string& text,
                                    const std::vector<std::string>& operators, const std::string& defaultArch);

std::string applyEdits(const std::string& text, const std::vector<TextEdit>& edits);

enum class MutantFate { KilledByIntended, KilledByOther, Survived, Equivalent, Invalid };

struct MutantResult {
  Mutant mutant;
  MutantFate fate = MutantFate::Survived;
  std::vector<std::string> killers;  // rule ids with new findings
  std::string diff;                  // for survivors
};

struct MutateRequest {
  std::vector<std::string> paths;
  std::vector<std::string> operators;
  unsigned seed = 1;
  size_t max = 0;                      // 0 = every mutant
  std::string arch = "a2a3";
  int minKillRate = -1;                // percent; < 0 = report only
  std::map<std::string, int> perOperatorMinKillRate;
};

// Runs the mutants in memory, prints the per-operator and per-rule report and every survivor's
// diff. Returns 0, 1 when a gated operator's kill rate is below its minimum, 2 on input errors.
int runMutate(const MutateRequest& req, std::ostream& out);

}  // namespace ptov
